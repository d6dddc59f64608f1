/* SPDX-License-Identifier: MIT */
/* roofval validate: score the model against committed baselines. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "hw/profile.h"
#include "io/baseline.h"
#include "io/file.h"
#include "model/validate.h"
#include "report/report.h"
#include "sweep/sweep.h"

enum {
	OPT_HW,
	OPT_OP,
	OPT_PURPOSE,
	OPT_ALL,
	OPT_FORMAT,
	OPT_OUTPUT,
	OPT_BDIR,
	OPT_SDIR,
	OPT_HDIR,
	OPT_NOFIT
};

static const struct rv_opt validate_opts[] = {
	{ "hw", 0, "KEY", "hardware key" },
	{ "op", 0, "OP", "matmul, linear or vector_add (default: every op with a baseline)" },
	{ "purpose", 0, "P", "validation (default) or calibration; with --all: both" },
	{ "all", 0, NULL, "every hardware x op x purpose with a baseline in the baseline folder" },
	{ "format", 0, "F", "text (default), markdown or json" },
	{ "output", 'o', "FILE", "write the report here (atomically) instead of standard output" },
	{ "baseline-dir", 0, "DIR",
	  "baseline folder (default: $ROOFVAL_BASELINE_DIR, else the "
	  "source tree's results/baselines/)" },
	{ "sweep-dir", 0, "DIR", "sweep folder (default: $ROOFVAL_SWEEP_DIR, else sweeps/)" },
	{ "hardware-dir", 0, "DIR",
	  "hardware folder (default: $ROOFVAL_HARDWARE_DIR, else "
	  "hardware/)" },
	{ "no-fit", 0, NULL, "ignore the fit files: validate the hand-edited profiles alone" },
	{ NULL, 0, NULL, NULL },
};

struct job {
	char hw[64];
	enum rv_op op;
};

/* The (hardware, op) of a baseline file name "<hw>_<op>.csv"; 0 if it is not one. */
static int job_of_name(struct job *j, const char *name)
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
	const struct job *a = pa, *b = pb;
	int c = strcmp(a->hw, b->hw);

	return c ? c : (int)a->op - (int)b->op;
}

/* Baselines in dir, optionally only those of hw and op, sorted. */
static int list_jobs(struct job **out, size_t *n_out, const char *dir, const char *hw, int op)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	struct job *jobs = NULL, j;
	size_t n = 0;

	*out = NULL;
	*n_out = 0;
	if (!dh)
		return rv_error_errno(errno, "cannot read the baseline folder %s", dir);
	while ((de = readdir(dh)) != NULL) {
		struct job *grown;

		if (!job_of_name(&j, de->d_name))
			continue;
		if ((hw && strcmp(hw, j.hw) != 0) || (op >= 0 && (int)j.op != op))
			continue;
		grown = realloc(jobs, (n + 1) * sizeof(*jobs));
		if (!grown) {
			free(jobs);
			(void)closedir(dh);
			return rv_error_set(RV_ENOMEM, "out of memory");
		}
		jobs = grown;
		jobs[n++] = j;
	}
	(void)closedir(dh);
	if (n > 1)
		qsort(jobs, n, sizeof(*jobs), job_cmp);
	*out = jobs;
	*n_out = n;
	return 0;
}

/* Profiles and sweeps loaded once per run: --all visits each several times. */
struct cache {
	struct rv_profile *profiles[64];
	size_t n_profiles;
	struct rv_sweep *sweeps[RV_OP_COUNT][RV_PURPOSE_COUNT];
	unsigned fit_flags;
};

static void cache_free(struct cache *c)
{
	for (size_t i = 0; i < c->n_profiles; i++)
		rv_profile_free(c->profiles[i]);
	for (int op = 0; op < RV_OP_COUNT; op++)
		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
			rv_sweep_free(c->sweeps[op][pu]);
}

static int cache_profile(struct cache *c, const struct rv_profile **out, const char *hdir,
                         const char *hw)
{
	struct rv_profile *p;
	int err;

	for (size_t i = 0; i < c->n_profiles; i++) {
		if (strcmp(c->profiles[i]->key, hw) == 0) {
			*out = c->profiles[i];
			return 0;
		}
	}
	if ((err = rv_profile_find(&p, hdir, hw, c->fit_flags)) < 0)
		return err;
	if (c->n_profiles == sizeof(c->profiles) / sizeof(c->profiles[0])) {
		rv_profile_free(p);
		return rv_error_set(RV_ERANGE, "more than 64 hardware keys in one run");
	}
	c->profiles[c->n_profiles++] = p;
	*out = p;
	return 0;
}

static int cache_sweep(struct cache *c, const struct rv_sweep **out, const char *path,
                       enum rv_op op, enum rv_purpose purpose)
{
	struct rv_sweep *s = c->sweeps[op][purpose];
	int err;

	if (!s) {
		err = rv_sweep_load(&s, path);
		if (err == RV_ENOENT)
			return rv_error_set(RV_ENOENT,
			                    "no sweep %s; give the folder of <op>_<purpose>.json "
			                    "files with --sweep-dir",
			                    path);
		if (err < 0)
			return err;
		c->sweeps[op][purpose] = s;
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

/* Validates one (hardware, op) for one purpose. */
static int run_job(struct rv_validation *v, struct cache *c, const struct job *j,
                   enum rv_purpose purpose, int purpose_given, const char *bdir, const char *sdir,
                   const char *hdir)
{
	char sweep_path[4200], base_path[4200];
	const struct rv_profile *p = NULL;
	const struct rv_sweep *s = NULL;
	struct rv_baseline *b = NULL;
	int err, labelled = 0;

	(void)snprintf(sweep_path, sizeof(sweep_path), "%s/%s_%s.json", sdir, rv_op_name(j->op),
	               rv_purpose_name(purpose));
	(void)snprintf(base_path, sizeof(base_path), "%s/%s_%s.csv", bdir, j->hw,
	               rv_op_name(j->op));
	if ((err = cache_profile(c, &p, hdir, j->hw)) < 0 ||
	    (err = cache_sweep(c, &s, sweep_path, j->op, purpose)) < 0)
		return err;
	if (!p || !s)
		return rv_error_set(RV_ERROR, "internal error: nothing loaded");
	for (size_t i = 0; i < s->n_entries && !labelled; i++)
		labelled = rv_sweep_label_for(&s->entries[i], j->hw) != NULL;
	if (!labelled)
		return purpose_given ? rv_error_set(RV_ENOENT,
		                                    "%s labels no shape for %s; label it first "
		                                    "with roofval sweep augment --hw %s",
		                                    sweep_path, j->hw, j->hw)
		                     : 0;
	err = rv_baseline_load(&b, base_path);
	if (err == RV_ENOENT)
		err = rv_error_set(RV_ENOENT,
		                   "no baseline %s; capture it on the target, or give its folder "
		                   "with --baseline-dir",
		                   base_path);
	if (err == 0)
		err = rv_validate(v, p, s, sweep_path, b, base_path);
	rv_baseline_free(b);
	return err;
}

static int validate_usage(const struct rv_cmd_spec *spec, const char *what)
{
	fprintf(stderr, "roofval: validate: %s\nusage: roofval %s\n", what, spec->usage);
	return RV_EXIT_USAGE;
}

int rv_cmd_validate(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"validate (--hw KEY [--op OP] | --all) [--purpose P] [--format F] [--output FILE]",
		"Predict every labelled shape of a sweep, compare with the baseline and score each "
		"record in the band of its regime. Exit status 3 when a record fails.",
		validate_opts, 0, 0
	};
	struct rv_opt_result res;
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;
	struct rv_summary sum = { 0 };
	enum rv_format format = RV_FORMAT_TEXT;
	enum rv_purpose purpose = RV_PURPOSE_VALIDATION;
	enum rv_op op = RV_OP_MATMUL;
	struct job *jobs = NULL;
	struct cache cache;
	size_t n_jobs = 0;
	const char *bdir, *sdir, *hdir;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err = 0;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[OPT_ALL] == !res.value[OPT_HW])
		return validate_usage(&spec, "give either --hw KEY or --all");
	if (res.value[OPT_FORMAT] && rv_format_parse(res.value[OPT_FORMAT], &format) < 0)
		return validate_usage(&spec, rv_error_last());
	if (res.value[OPT_PURPOSE] && rv_purpose_parse(res.value[OPT_PURPOSE], &purpose) < 0)
		return validate_usage(&spec, rv_error_last());
	if (res.value[OPT_OP] && rv_op_parse(res.value[OPT_OP], &op) < 0)
		return validate_usage(&spec, rv_error_last());
	bdir = rv_baseline_dir(res.value[OPT_BDIR]);
	sdir = rv_sweep_dir(res.value[OPT_SDIR]);
	hdir = rv_profile_dir(res.value[OPT_HDIR]);

	memset(&v, 0, sizeof(v));
	memset(&cache, 0, sizeof(cache));
	cache.fit_flags = res.value[OPT_NOFIT] ? 0 : RV_PROFILE_FIT;
	if (res.value[OPT_HW] && res.value[OPT_OP]) {
		jobs = calloc(1, sizeof(*jobs));
		if (!jobs)
			return rv_cli_fail("validate");
		n_jobs = 1;
		(void)snprintf(jobs[0].hw, sizeof(jobs[0].hw), "%s", res.value[OPT_HW]);
		jobs[0].op = op;
	} else {
		err = list_jobs(&jobs, &n_jobs, bdir, res.value[OPT_HW],
		                res.value[OPT_OP] ? (int)op : -1);
		if (err == 0 && n_jobs == 0)
			err = rv_error_set(RV_ENOENT,
			                   "no baselines (<hw>_<op>.csv)%s%s in %s; capture one on "
			                   "the target, or give their folder with --baseline-dir",
			                   res.value[OPT_HW] ? " for " : "",
			                   res.value[OPT_HW] ? res.value[OPT_HW] : "", bdir);
	}
	for (size_t i = 0; err == 0 && i < n_jobs; i++) {
		if (res.value[OPT_ALL] && !res.value[OPT_PURPOSE]) {
			err = run_job(&v, &cache, &jobs[i], RV_PURPOSE_CALIBRATION, 0, bdir, sdir,
			              hdir);
			if (err == 0)
				err = run_job(&v, &cache, &jobs[i], RV_PURPOSE_VALIDATION, 0, bdir,
				              sdir, hdir);
		} else {
			err = run_job(&v, &cache, &jobs[i], purpose, 1, bdir, sdir, hdir);
		}
	}
	free(jobs);
	cache_free(&cache);
	if (err == 0)
		err = rv_report_render(&out, &v, format);
	if (err == 0 && res.value[OPT_OUTPUT])
		err = rv_file_write_atomic(res.value[OPT_OUTPUT], out.data, out.len);
	else if (err == 0)
		(void)fwrite(rv_buf_str(&out), 1, out.len, stdout);
	if (err == 0)
		err = rv_validation_summary(&v, &sum);
	rv_buf_free(&out);
	rv_validation_free(&v);
	if (err < 0)
		return rv_cli_fail("validate");
	return sum.failed ? RV_EXIT_MISMATCH : RV_EXIT_OK;
}

int rv_cli_validation_load(struct rv_validation *v, const char *bdir, const char *sdir,
                           const char *hdir, const char *hw, int op, int purpose,
                           unsigned fit_flags, size_t *n_baselines)
{
	struct job *jobs = NULL;
	struct cache cache;
	size_t n_jobs = 0;
	int err;

	if (n_baselines)
		*n_baselines = 0;
	memset(&cache, 0, sizeof(cache));
	cache.fit_flags = fit_flags;
	err = list_jobs(&jobs, &n_jobs, bdir, hw, op);
	if (err == 0 && n_jobs == 0 && !n_baselines)
		err = rv_error_set(RV_ENOENT,
		                   "no baselines (<hw>_<op>.csv)%s%s in %s; capture one on the "
		                   "target, or give their folder with --baseline-dir",
		                   hw ? " for " : "", hw ? hw : "", bdir);
	if (n_baselines)
		*n_baselines = n_jobs;
	for (size_t i = 0; err == 0 && i < n_jobs; i++) {
		if (purpose < 0) {
			err = run_job(v, &cache, &jobs[i], RV_PURPOSE_CALIBRATION, 0, bdir, sdir,
			              hdir);
			if (err == 0)
				err = run_job(v, &cache, &jobs[i], RV_PURPOSE_VALIDATION, 0, bdir,
				              sdir, hdir);
		} else {
			err = run_job(v, &cache, &jobs[i], (enum rv_purpose)purpose, 1, bdir, sdir,
			              hdir);
		}
	}
	free(jobs);
	cache_free(&cache);
	return err;
}
