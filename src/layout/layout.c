/* SPDX-License-Identifier: MIT */
#include "layout/layout.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/vec.h"
#include "model/calibrate.h"
#include "model/validate.h"

struct rv_layout_baseline {
	char hw[RV_HW_KEY_MAX];
	enum rv_op op;
	struct rv_baseline *b;
};

static int layout_dir(char *out, const char *given)
{
	return rv_path_fmt(out, RV_PATH_MAX, "%s", given);
}

int rv_layout_open(struct rv_layout *l, const struct rv_layout_dirs *dirs, unsigned fit_flags)
{
	static const struct rv_layout_dirs none = { NULL, NULL, NULL };
	int err;

	if (!dirs)
		dirs = &none;
	memset(l, 0, sizeof(*l));
	l->fit_flags = fit_flags;
	if ((err = layout_dir(l->hardware_dir, rv_profile_dir(dirs->hardware))) < 0 ||
	    (err = layout_dir(l->sweep_dir, rv_sweep_dir(dirs->sweeps))) < 0 ||
	    (err = layout_dir(l->baseline_dir, rv_baseline_dir(dirs->baselines))) < 0)
		return err;
	return 0;
}

void rv_layout_close(struct rv_layout *l)
{
	for (size_t i = 0; i < l->n_profiles; i++)
		rv_profile_free(l->profiles[i]);
	free(l->profiles);
	for (int op = 0; op < RV_OP_COUNT; op++)
		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
			rv_sweep_free(l->sweeps[op][pu]);
	for (size_t i = 0; i < l->n_baselines; i++)
		rv_baseline_free(l->baselines[i].b);
	free(l->baselines);
	memset(l, 0, sizeof(*l));
}

int rv_layout_profile_path(const struct rv_layout *l, char *out, size_t size, const char *hw)
{
	return rv_path_fmt(out, size, "%s/%s.json", l->hardware_dir, hw);
}

int rv_layout_fit_path(const struct rv_layout *l, char *out, size_t size, const char *hw)
{
	return rv_path_fmt(out, size, "%s/%s.fit.json", l->hardware_dir, hw);
}

int rv_layout_sweep_path(const struct rv_layout *l, char *out, size_t size, enum rv_op op,
                         enum rv_purpose purpose)
{
	return rv_path_fmt(out, size, "%s/%s_%s.json", l->sweep_dir, rv_op_name(op),
	                   rv_purpose_name(purpose));
}

int rv_layout_baseline_path(const struct rv_layout *l, char *out, size_t size, const char *hw,
                            enum rv_op op)
{
	return rv_path_fmt(out, size, "%s/%s_%s.csv", l->baseline_dir, hw, rv_op_name(op));
}

int rv_layout_manifest_path(const struct rv_layout *l, char *out, size_t size, const char *hw,
                            enum rv_op op)
{
	return rv_path_fmt(out, size, "%s/%s_%s.meta.json", l->baseline_dir, hw, rv_op_name(op));
}

int rv_job_of_name(struct rv_job *j, const char *name)
{
	size_t len = strlen(name);

	if (len < 5 || strcmp(name + len - 4, ".csv") != 0)
		return 0;
	for (int op = 0; op < RV_OP_COUNT; op++) {
		const char *opn = rv_op_name((enum rv_op)op);
		size_t n = strlen(opn);

		if (len > n + 5 && name[len - 5 - n] == '_' &&
		    strncmp(name + len - 4 - n, opn, n) == 0 && len - 5 - n < sizeof(j->hw)) {
			(void)snprintf(j->hw, sizeof(j->hw), "%.*s", (int)(len - 5 - n), name);
			j->op = (enum rv_op)op;
			return 1;
		}
	}
	return 0;
}

static int job_cmp(const void *pa, const void *pb)
{
	const struct rv_job *a = pa, *b = pb;
	int c = strcmp(a->hw, b->hw);

	return c ? c : (int)a->op - (int)b->op;
}

int rv_layout_jobs(const struct rv_layout *l, struct rv_job **out, size_t *n_out, const char *hw,
                   int op)
{
	DIR *dh = opendir(l->baseline_dir);
	struct dirent *de;
	struct rv_job *jobs = NULL, j;
	size_t n = 0, cap = 0;
	int err = 0;

	*out = NULL;
	*n_out = 0;
	if (!dh)
		return rv_error_errno(errno, "cannot read the baseline folder %s", l->baseline_dir);
	while (err == 0 && (de = readdir(dh)) != NULL) {
		if (!rv_job_of_name(&j, de->d_name))
			continue;
		if ((hw && strcmp(hw, j.hw) != 0) || (op >= 0 && (int)j.op != op))
			continue;
		err = rv_vec_push(&jobs, &n, &cap, &j, sizeof(j));
	}
	(void)closedir(dh);
	if (err < 0) {
		free(jobs);
		return err;
	}
	if (n > 1)
		qsort(jobs, n, sizeof(*jobs), job_cmp);
	*out = jobs;
	*n_out = n;
	return 0;
}

int rv_layout_profile(struct rv_layout *l, const struct rv_profile **out, const char *hw)
{
	struct rv_profile *p;
	int err;

	*out = NULL;
	for (size_t i = 0; i < l->n_profiles; i++) {
		if (strcmp(l->profiles[i]->key, hw) == 0 ||
		    (l->profiles[i]->path && strcmp(l->profiles[i]->path, hw) == 0)) {
			*out = l->profiles[i];
			return 0;
		}
	}
	if ((err = rv_vec_reserve(&l->profiles, &l->cap_profiles, l->n_profiles + 1,
	                          sizeof(*l->profiles))) < 0)
		return err;
	if ((err = rv_profile_find(&p, l->hardware_dir, hw, l->fit_flags)) < 0)
		return err;
	l->profiles[l->n_profiles++] = p;
	*out = p;
	return 0;
}

int rv_layout_sweep(struct rv_layout *l, const struct rv_sweep **out, enum rv_op op,
                    enum rv_purpose purpose)
{
	struct rv_sweep *s = l->sweeps[op][purpose];
	char path[RV_PATH_MAX];
	int err;

	*out = NULL;
	if ((err = rv_layout_sweep_path(l, path, sizeof(path), op, purpose)) < 0)
		return err;
	if (!s) {
		err = rv_sweep_load(&s, path);
		if (err == RV_ENOENT)
			return rv_error_set(RV_ENOENT,
			                    "no sweep %s; give the folder of <op>_<purpose>.json "
			                    "files with --sweep-dir",
			                    path);
		if (err < 0)
			return err;
		l->sweeps[op][purpose] = s;
	}
	if (s->op != op)
		return rv_error_set(RV_EPARSE,
		                    "%s is a sweep for op %s, not %s; a sweep file is named "
		                    "<op>_<purpose>.json after what it holds",
		                    path, rv_op_name(s->op), rv_op_name(op));
	if (s->purpose != purpose)
		return rv_error_set(RV_EPARSE,
		                    "%s is a %s sweep, not a %s one; a sweep file is named "
		                    "<op>_<purpose>.json after what it holds",
		                    path, rv_purpose_name(s->purpose), rv_purpose_name(purpose));
	*out = s;
	return 0;
}

int rv_layout_baseline(struct rv_layout *l, const struct rv_baseline **out, const char *hw,
                       enum rv_op op)
{
	struct rv_layout_baseline e;
	char path[RV_PATH_MAX];
	int err;

	*out = NULL;
	for (size_t i = 0; i < l->n_baselines; i++) {
		if (l->baselines[i].op == op && strcmp(l->baselines[i].hw, hw) == 0) {
			*out = l->baselines[i].b;
			return 0;
		}
	}
	if ((err = rv_layout_baseline_path(l, path, sizeof(path), hw, op)) < 0)
		return err;
	if (rv_path_fmt(e.hw, sizeof(e.hw), "%s", hw) < 0)
		return rv_error_set(RV_ERANGE, "hardware key '%.16s...' is too long", hw);
	if ((err = rv_vec_reserve(&l->baselines, &l->cap_baselines, l->n_baselines + 1,
	                          sizeof(*l->baselines))) < 0)
		return err;
	err = rv_baseline_load(&e.b, path);
	if (err == RV_ENOENT)
		return rv_error_set(RV_ENOENT,
		                    "no baseline %s; capture it on the target, or give its folder "
		                    "with --baseline-dir",
		                    path);
	if (err < 0)
		return err;
	e.op = op;
	l->baselines[l->n_baselines++] = e;
	*out = e.b;
	return 0;
}

void rv_layout_forget_baseline(struct rv_layout *l, const char *hw, enum rv_op op)
{
	for (size_t i = 0; i < l->n_baselines; i++) {
		if (l->baselines[i].op == op && strcmp(l->baselines[i].hw, hw) == 0) {
			rv_baseline_free(l->baselines[i].b);
			l->baselines[i] = l->baselines[--l->n_baselines];
			return;
		}
	}
}

/* Validates one (hardware, op) for one purpose. */
static int validate_job(struct rv_layout *l, struct rv_validation *v, const struct rv_job *j,
                        enum rv_purpose purpose, int purpose_given)
{
	char sweep_path[RV_PATH_MAX], base_path[RV_PATH_MAX];
	const struct rv_profile *p;
	const struct rv_sweep *s;
	const struct rv_baseline *b;
	int err, labelled = 0;

	if ((err = rv_layout_sweep_path(l, sweep_path, sizeof(sweep_path), j->op, purpose)) < 0 ||
	    (err = rv_layout_baseline_path(l, base_path, sizeof(base_path), j->hw, j->op)) < 0 ||
	    (err = rv_layout_profile(l, &p, j->hw)) < 0 ||
	    (err = rv_layout_sweep(l, &s, j->op, purpose)) < 0)
		return err;
	for (size_t i = 0; i < s->n_entries && !labelled; i++)
		labelled = rv_sweep_label_for(&s->entries[i], j->hw) != NULL;
	if (!labelled)
		return purpose_given ? rv_error_set(RV_ENOENT,
		                                    "%s labels no shape for %s; label it first "
		                                    "with roofval sweep augment --hw %s",
		                                    sweep_path, j->hw, j->hw)
		                     : 0;
	if ((err = rv_layout_baseline(l, &b, j->hw, j->op)) < 0)
		return err;
	return rv_validate(v, p, s, sweep_path, b, base_path, NULL);
}

int rv_layout_validate(struct rv_layout *l, struct rv_validation *v,
                       const struct rv_layout_filter *f, size_t *n_baselines)
{
	struct rv_job *jobs = NULL;
	size_t n_jobs = 0;
	int err = 0;

	if (n_baselines)
		*n_baselines = 0;
	if (f->hw && f->op >= 0 && !n_baselines) {
		jobs = calloc(1, sizeof(*jobs));
		if (!jobs)
			return rv_error_set(RV_ENOMEM, "out of memory");
		if (rv_path_fmt(jobs[0].hw, sizeof(jobs[0].hw), "%s", f->hw) < 0) {
			free(jobs);
			return rv_error_set(RV_ERANGE, "hardware key '%.16s...' is too long",
			                    f->hw);
		}
		jobs[0].op = (enum rv_op)f->op;
		n_jobs = 1;
	} else {
		err = rv_layout_jobs(l, &jobs, &n_jobs, f->hw, f->op);
		if (err == 0 && n_jobs == 0 && !n_baselines)
			err = rv_error_set(RV_ENOENT,
			                   "no baselines (<hw>_<op>.csv)%s%s in %s; capture one on "
			                   "the target, or give their folder with --baseline-dir",
			                   f->hw ? " for " : "", f->hw ? f->hw : "",
			                   l->baseline_dir);
	}
	if (n_baselines)
		*n_baselines = n_jobs;
	for (size_t i = 0; err == 0 && i < n_jobs; i++) {
		if (f->purpose < 0) {
			err = validate_job(l, v, &jobs[i], RV_PURPOSE_CALIBRATION, 0);
			if (err == 0)
				err = validate_job(l, v, &jobs[i], RV_PURPOSE_VALIDATION, 0);
		} else {
			err = validate_job(l, v, &jobs[i], (enum rv_purpose)f->purpose, 1);
		}
	}
	free(jobs);
	return err;
}

/* Adds one op's calibration rows; a missing baseline is skipped unless required. */
static int calibration_op(struct rv_layout *l, struct rv_calibration *c, const struct rv_profile *p,
                          enum rv_op op, int required)
{
	char spath[RV_PATH_MAX], bpath[RV_PATH_MAX];
	const struct rv_sweep *s;
	const struct rv_baseline *b;
	int err;

	if ((err = rv_layout_baseline_path(l, bpath, sizeof(bpath), p->key, op)) < 0 ||
	    (err = rv_layout_sweep_path(l, spath, sizeof(spath), op, RV_PURPOSE_CALIBRATION)) < 0)
		return err;
	err = rv_layout_baseline(l, &b, p->key, op);
	if (err == RV_ENOENT && !required)
		return 0;
	if (err == RV_ENOENT)
		return rv_error_set(RV_ENOENT, "no baseline %s; capture it on the target first",
		                    bpath);
	if (err < 0)
		return err;
	err = rv_layout_sweep(l, &s, op, RV_PURPOSE_CALIBRATION);
	if (err == RV_ENOENT)
		return rv_error_set(RV_ENOENT,
		                    "no calibration sweep %s; give its folder with --sweep-dir",
		                    spath);
	if (err == RV_EPARSE && l->sweeps[op][RV_PURPOSE_CALIBRATION]) {
		/* Loaded, but not what its name says: calibration's own words. */
		const struct rv_sweep *bad = l->sweeps[op][RV_PURPOSE_CALIBRATION];

		if (bad->op != op)
			return rv_error_set(RV_EPARSE,
			                    "%s is a sweep for op %s; a sweep file is named "
			                    "<op>_<purpose>.json after what it holds",
			                    spath, rv_op_name(bad->op));
		return rv_calibrate_add(c, p, bad, b, bpath);
	}
	if (err < 0)
		return err;
	return rv_calibrate_add(c, p, s, b, bpath);
}

int rv_layout_calibrate(struct rv_layout *l, struct rv_calibration *c, struct rv_profile **p,
                        const char *hw, int op)
{
	int err;

	*p = NULL;
	/* Start from the hand-edited profile, never from an earlier fit. */
	if ((err = rv_profile_find(p, l->hardware_dir, hw, 0)) < 0)
		return err;
	for (int o = 0; err == 0 && o < RV_OP_COUNT; o++)
		if (op < 0 || o == op)
			err = calibration_op(l, c, *p, (enum rv_op)o, op >= 0);
	if (err == 0 && c->n_sources == 0)
		err = rv_error_set(RV_ENOENT, "no baselines of %s in %s; capture them first",
		                   (*p)->key, l->baseline_dir);
	return err < 0 ? err : rv_calibrate_fit(c, *p);
}
