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
#include "predictions/predictions.h"

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
	if ((err = pthread_mutex_init(&l->lock, NULL)) != 0)
		return rv_error_errno(err, "cannot make the data layout's lock");
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
	(void)pthread_mutex_destroy(&l->lock);
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

/* rv_layout_profile() under the lock. */
static int profile_locked(struct rv_layout *l, const struct rv_profile **out, const char *hw)
{
	struct rv_profile *p;
	int err;

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

int rv_layout_profile(struct rv_layout *l, const struct rv_profile **out, const char *hw)
{
	int err;

	*out = NULL;
	if (!hw)
		return rv_error_set(RV_EPARSE, "no hardware key given; give a profile's key");
	(void)pthread_mutex_lock(&l->lock);
	err = profile_locked(l, out, hw);
	(void)pthread_mutex_unlock(&l->lock);
	return err;
}

/* rv_layout_sweep() under the lock. */
static int sweep_locked(struct rv_layout *l, const struct rv_sweep **out, enum rv_op op,
                        enum rv_purpose purpose)
{
	struct rv_sweep *s = l->sweeps[op][purpose];
	char path[RV_PATH_MAX];
	int err;

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

int rv_layout_sweep(struct rv_layout *l, const struct rv_sweep **out, enum rv_op op,
                    enum rv_purpose purpose)
{
	int err;

	*out = NULL;
	(void)pthread_mutex_lock(&l->lock);
	err = sweep_locked(l, out, op, purpose);
	(void)pthread_mutex_unlock(&l->lock);
	return err;
}

/* rv_layout_baseline() under the lock. */
static int baseline_locked(struct rv_layout *l, const struct rv_baseline **out, const char *hw,
                           enum rv_op op)
{
	struct rv_layout_baseline e;
	char path[RV_PATH_MAX];
	int err;

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

int rv_layout_baseline(struct rv_layout *l, const struct rv_baseline **out, const char *hw,
                       enum rv_op op)
{
	int err;

	*out = NULL;
	(void)pthread_mutex_lock(&l->lock);
	err = baseline_locked(l, out, hw, op);
	(void)pthread_mutex_unlock(&l->lock);
	return err;
}

void rv_layout_forget_baseline(struct rv_layout *l, const char *hw, enum rv_op op)
{
	(void)pthread_mutex_lock(&l->lock);
	for (size_t i = 0; i < l->n_baselines; i++) {
		if (l->baselines[i].op == op && strcmp(l->baselines[i].hw, hw) == 0) {
			rv_baseline_free(l->baselines[i].b);
			l->baselines[i] = l->baselines[--l->n_baselines];
			break;
		}
	}
	(void)pthread_mutex_unlock(&l->lock);
}

/* What to do with one (hardware, op, purpose) of a run: its profile, sweep
 * (which labels something for the target) and paths. */
struct job_ctx {
	const struct rv_job *job;
	enum rv_purpose purpose;
	const struct rv_profile *p;
	const struct rv_sweep *s;
	const char *sweep_path, *base_path;
};
typedef int (*job_fn)(struct rv_layout *l, const struct job_ctx *j, void *arg);

static int visit_job(struct rv_layout *l, const struct rv_job *job, enum rv_purpose purpose,
                     int purpose_given, job_fn fn, void *arg)
{
	char sweep_path[RV_PATH_MAX], base_path[RV_PATH_MAX];
	struct job_ctx j = { job, purpose, NULL, NULL, sweep_path, base_path };
	int err, labelled = 0;

	if ((err = rv_layout_sweep_path(l, sweep_path, sizeof(sweep_path), job->op, purpose)) < 0 ||
	    (err = rv_layout_baseline_path(l, base_path, sizeof(base_path), job->hw, job->op)) <
	            0 ||
	    (err = rv_layout_profile(l, &j.p, job->hw)) < 0 ||
	    (err = rv_layout_sweep(l, &j.s, job->op, purpose)) < 0)
		return err;
	for (size_t i = 0; i < j.s->n_entries && !labelled; i++)
		labelled = rv_sweep_label_for(&j.s->entries[i], job->hw) != NULL;
	if (!labelled)
		return purpose_given ? rv_error_set(RV_ENOENT,
		                                    "%s labels no shape for %s; label it first "
		                                    "with roofval sweep augment --hw %s",
		                                    sweep_path, job->hw, job->hw)
		                     : 0;
	return fn(l, &j, arg);
}

/* Calls fn for every (hardware, op, purpose) of filter f (see
 * rv_layout_validate() for how jobs are found). */
static int for_each_job(struct rv_layout *l, const struct rv_layout_filter *f, size_t *n_baselines,
                        job_fn fn, void *arg)
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
		if (err == 0 && n_jobs == 0 && f->hw) { /* an unknown key is not "no baselines" */
			const struct rv_profile *p;

			err = rv_layout_profile(l, &p, f->hw);
		}
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
			err = visit_job(l, &jobs[i], RV_PURPOSE_CALIBRATION, 0, fn, arg);
			if (err == 0)
				err = visit_job(l, &jobs[i], RV_PURPOSE_VALIDATION, 0, fn, arg);
		} else {
			err = visit_job(l, &jobs[i], (enum rv_purpose)f->purpose, 1, fn, arg);
		}
	}
	free(jobs);
	return err;
}

struct validate_arg {
	struct rv_validation *v;
	const struct rv_predictor *model;
};

/* Widens v's placement of (hw, op) by what the captures of l's manifest
 * state. */
static int add_placement(const struct rv_layout *l, struct rv_validation *v, const char *hw,
                         enum rv_op op)
{
	double min_s, max_s;
	int err = rv_layout_round_trips(l, hw, op, &min_s, &max_s);

	return err < 0 ? err : rv_validation_add_placement(v, hw, op, min_s, max_s);
}

/* Counts into v, per dtype, the rows of b (of hw, op) that no sweep of op,
 * of either purpose, labels for hw: measured, and never scored. */
static int add_unlabelled(struct rv_layout *l, struct rv_validation *v, const struct rv_baseline *b,
                          const char *hw, enum rv_op op)
{
	unsigned char *labelled = calloc(b->n_rows + 1, 1);
	size_t per_dtype[RV_DTYPE_COUNT] = { 0 };
	int err = labelled ? 0 : rv_error_set(RV_ENOMEM, "out of memory");

	for (int pu = 0; pu < RV_PURPOSE_COUNT && err == 0; pu++) {
		const struct rv_sweep *s;
		ptrdiff_t *match = NULL;

		if (rv_layout_sweep(l, &s, op, (enum rv_purpose)pu) < 0)
			continue; /* no sweep of that purpose labels anything */
		if ((err = rv_match_rows(&match, s, b, hw)) < 0)
			break;
		for (size_t i = 0; i < s->n_entries; i++)
			if (match[i] >= 0 && rv_sweep_label_for(&s->entries[i], hw))
				labelled[match[i]] = 1;
		free(match);
	}
	for (size_t r = 0; r < b->n_rows && err == 0; r++)
		if (!labelled[r] && strcmp(b->rows[r].hardware, hw) == 0)
			per_dtype[b->rows[r].dtype]++;
	for (int d = 0; d < RV_DTYPE_COUNT && err == 0; d++)
		if (per_dtype[d])
			err = rv_validation_add_unlabelled(v, hw, op, (enum rv_dtype)d,
			                                   per_dtype[d]);
	free(labelled);
	return err;
}

static int validate_job(struct rv_layout *l, const struct job_ctx *j, void *arg)
{
	struct validate_arg *a = arg;
	const struct rv_baseline *b;
	int err = rv_layout_baseline(l, &b, j->job->hw, j->job->op);

	if (err < 0)
		return err;
	err = rv_validate(a->v, j->p, j->s, j->sweep_path, b, j->base_path, a->model);
	return err < 0 ? err : add_unlabelled(l, a->v, b, j->job->hw, j->job->op);
}

/* The (hardware, op) of v's records, each once (there are few of them);
 * free() *out. */
static int record_jobs(const struct rv_validation *v, struct rv_job **out, size_t *n)
{
	size_t cap = 0;
	int err = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < v->n_records && err == 0; i++) {
		const struct rv_record *r = &v->records[i];
		struct rv_job j;
		int seen = 0;

		for (size_t k = 0; k < *n && !seen; k++)
			seen = (*out)[k].op == r->op && strcmp((*out)[k].hw, r->hardware) == 0;
		if (seen)
			continue;
		memset(&j, 0, sizeof(j));
		(void)snprintf(j.hw, sizeof(j.hw), "%s", r->hardware);
		j.op = r->op;
		err = rv_vec_push(out, n, &cap, &j, sizeof(j));
	}
	return err;
}

/* The placements of l's captures of every (hardware, op) v has records of:
 * each manifest read once, whatever the models and purposes. */
static int add_placements(const struct rv_layout *l, struct rv_validation *v)
{
	struct rv_job *jobs;
	size_t n;
	int err = record_jobs(v, &jobs, &n);

	for (size_t i = 0; i < n && err == 0; i++)
		err = add_placement(l, v, jobs[i].hw, jobs[i].op);
	free(jobs);
	return err;
}

/* The entries of a job an adapter is asked to predict: labelled, scoreable,
 * in a dtype the target has, and measured in the baseline. */
static int request_job(struct rv_layout *l, const struct job_ctx *j, void *arg)
{
	struct rv_buf *req = arg;
	const struct rv_baseline *b;
	ptrdiff_t *match = NULL;
	int err = rv_layout_baseline(l, &b, j->job->hw, j->job->op);

	if (err == 0)
		err = rv_match_rows(&match, j->s, b, j->job->hw);
	for (size_t i = 0; err == 0 && i < j->s->n_entries; i++) {
		const struct rv_sweep_entry *e = &j->s->entries[i];

		if (match[i] < 0 || !rv_sweep_label_scoreable(e, j->job->hw) ||
		    !rv_profile_compute(j->p, e->dtype))
			continue;
		rv_predictions_request_row(req, j->job->hw, j->job->op, &e->shape, e->dtype,
		                           j->p->path);
	}
	free(match);
	return err < 0 ? err : rv_buf_check(req);
}

/* Whether the shell word w (n bytes) is a redirection ("2>/dev/null",
 * ">log", "<in", "2>&1"); *bare when it is an operator alone ("2>", ">"),
 * whose target is the next word. */
static int redirection(const char *w, size_t n, int *bare)
{
	size_t i = 0;

	while (i < n && w[i] >= '0' && w[i] <= '9')
		i++;
	if (i < n && w[i] == '&' && i + 1 < n && w[i + 1] == '>')
		i++;
	if (i >= n || (w[i] != '<' && w[i] != '>'))
		return 0;
	while (i < n && (w[i] == '<' || w[i] == '>' || w[i] == '&' || w[i] == '|'))
		i++;
	*bare = i == n;
	return 1;
}

/* The model name of an adapter command: the base name, without extension,
 * of its first word that names a file ("python3 x/roofline.py": roofline),
 * else of its first word, the program; redirections (and their targets),
 * variable assignments before the program and what follows a |, ; or &
 * are not words of the program ("./m.sh 2>/dev/null": m). */
static void command_name(char *out, size_t size, const char *command)
{
	const char *w = command, *pick = NULL;
	size_t len = 0;
	int skip_next = 0, program = 0;

	while (*w) {
		size_t n;
		int bare = 0;

		while (*w == ' ' || *w == '\t')
			w++;
		n = strcspn(w, " \t");
		/* "|", ";", "&&" and "&" end the program's words ("&>" redirects). */
		if (n && (*w == '|' || *w == ';' || (*w == '&' && w[1] != '>')))
			break;
		if (skip_next) {
			skip_next = 0;
			w += n;
			continue;
		}
		if (redirection(w, n, &bare)) {
			skip_next = bare;
			w += n;
			continue;
		}
		if (!program && memchr(w, '=', n) && w[0] != '=' && !memchr(w, '/', n)) {
			w += n; /* NAME=value before the program */
			continue;
		}
		program = 1;
		if (n && memchr(w, '/', n)) {
			pick = w;
			len = n;
			break;
		}
		if (!pick && n) {
			pick = w;
			len = n;
		}
		w += n;
	}
	if (!pick) {
		(void)snprintf(out, size, "command");
		return;
	}
	for (const char *s = pick; s < pick + len; s++)
		if (*s == '/') {
			len -= (size_t)(s + 1 - pick);
			pick = s + 1;
		}
	for (size_t k = len; k > 0; k--)
		if (pick[k - 1] == '.') {
			len = k - 1;
			break;
		}
	(void)snprintf(out, size, "%.*s", (int)(len ? len : 1), len ? pick : "?");
}

/* The entries of the run's sweeps by (dtype, shape), for row_labelled():
 * each sweep's built at its first use, so that a predictions file of R rows
 * against sweeps of E entries costs (R + E) log E, not R x E. */
struct label_index {
	const struct rv_sweep_entry **by_key[RV_OP_COUNT][RV_PURPOSE_COUNT];
	size_t n[RV_OP_COUNT][RV_PURPOSE_COUNT];
	int state[RV_OP_COUNT][RV_PURPOSE_COUNT]; /* 0: not built, 1: built, -1: no sweep */
};

static int entry_key_cmp(const struct rv_sweep_entry *a, const struct rv_sweep_entry *b)
{
	return a->dtype != b->dtype ? (a->dtype > b->dtype) - (a->dtype < b->dtype)
	                            : rv_shape_cmp(&a->shape, &b->shape);
}

static int entry_ptr_cmp(const void *pa, const void *pb)
{
	return entry_key_cmp(*(const struct rv_sweep_entry *const *)pa,
	                     *(const struct rv_sweep_entry *const *)pb);
}

static void label_index_free(struct label_index *x)
{
	for (int op = 0; op < RV_OP_COUNT; op++)
		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
			free(x->by_key[op][pu]);
	memset(x, 0, sizeof(*x));
}

/* The index of the sweep of (op, purpose): 0 with *out NULL when there is
 * no such sweep (a sweep the run does not load labels nothing). */
static int label_index_get(struct rv_layout *l, struct label_index *x, enum rv_op op,
                           enum rv_purpose pu)
{
	const struct rv_sweep *s;

	if (x->state[op][pu])
		return 0;
	x->state[op][pu] = -1;
	if (rv_layout_sweep(l, &s, op, pu) < 0 || s->n_entries == 0)
		return 0;
	x->by_key[op][pu] = malloc(s->n_entries * sizeof(*x->by_key[op][pu]));
	if (!x->by_key[op][pu])
		return rv_error_set(RV_ENOMEM, "out of memory indexing %zu sweep entries",
		                    s->n_entries);
	for (size_t i = 0; i < s->n_entries; i++)
		x->by_key[op][pu][i] = &s->entries[i];
	qsort(x->by_key[op][pu], s->n_entries, sizeof(*x->by_key[op][pu]), entry_ptr_cmp);
	x->n[op][pu] = s->n_entries;
	x->state[op][pu] = 1;
	return 0;
}

/* Whether some sweep of the run labels row for its hardware: 1, 0, or an
 * error. */
static int row_labelled(struct rv_layout *l, struct label_index *x,
                        const struct rv_layout_filter *f, const struct rv_prediction_row *row)
{
	struct rv_sweep_entry key;
	const struct rv_sweep_entry *kp = &key;

	memset(&key, 0, sizeof(key));
	key.dtype = row->dtype;
	key.shape = row->shape;
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
		const struct rv_sweep_entry *const *hit;
		int err;

		if (f->purpose >= 0 && pu != f->purpose)
			continue;
		if ((err = label_index_get(l, x, row->op, (enum rv_purpose)pu)) < 0)
			return err;
		if (x->state[row->op][pu] != 1)
			continue;
		/* A sweep holds each (shape, dtype) once (sweep_check_unique()). */
		hit = bsearch(&kp, x->by_key[row->op][pu], x->n[row->op][pu], sizeof(kp),
		              entry_ptr_cmp);
		if (hit && rv_sweep_label_for(*hit, row->hardware))
			return 1;
	}
	return 0;
}

/* The predictions of model m: loaded from its file or its command's output. */
static int model_set(struct rv_layout *l, const struct rv_layout_filter *f,
                     const struct rv_layout_model *m, struct rv_prediction_set **set)
{
	struct rv_buf req = RV_BUF_INIT;
	char name[4096];
	int err;

	if (m->predictions)
		return rv_predictions_load(set, m->predictions, m->name);
	rv_predictions_request_header(&req);
	err = for_each_job(l, f, NULL, request_job, &req);
	if (m->name)
		(void)snprintf(name, sizeof(name), "%s", m->name);
	else
		command_name(name, sizeof(name), m->command);
	if (err == 0)
		err = rv_predictions_from_command(set, m->command, &req,
		                                  m->timeout_s > 0 ? m->timeout_s : 60, name);
	rv_buf_free(&req);
	return err;
}

int rv_layout_validate_models(struct rv_layout *l, struct rv_validation *v,
                              const struct rv_layout_filter *f,
                              const struct rv_layout_model *models, size_t n_models,
                              size_t *n_baselines)
{
	static const struct rv_layout_model builtin = { NULL, NULL, NULL, 0 };
	int err = 0;

	if (n_models == 0) {
		models = &builtin;
		n_models = 1;
	}
	for (size_t i = 0; i < n_models && err == 0; i++) {
		struct rv_prediction_set *set = NULL;
		struct rv_predictor pr;
		struct validate_arg a = { v, &rv_predictor_builtin };

		if (models[i].predictions || models[i].command) {
			if ((err = model_set(l, f, &models[i], &set)) < 0)
				break;
			for (size_t k = 0; k < v->n_models && err == 0; k++)
				if (strcmp(v->models[k], set->model) == 0)
					err = rv_error_set(RV_EPARSE,
					                   "two models are called '%s'; name them "
					                   "apart with --model-name NAME, one per "
					                   "--predictions and --model-cmd in order",
					                   set->model);
			rv_predictions_predictor(&pr, set);
			a.model = &pr;
		}
		if (err == 0)
			err = for_each_job(l, f, n_baselines, validate_job, &a);
		if (set && err == 0) {
			struct label_index x;

			memset(&x, 0, sizeof(x));
			for (size_t r = 0; err == 0 && r < set->n_rows; r++) {
				int labelled = row_labelled(l, &x, f, &set->rows[r]);

				if (labelled < 0)
					err = labelled;
				else
					v->unlabelled_predictions += !labelled;
			}
			label_index_free(&x);
		}
		rv_predictions_free(set);
	}
	return err < 0 ? err : add_placements(l, v);
}

int rv_layout_validate(struct rv_layout *l, struct rv_validation *v,
                       const struct rv_layout_filter *f, size_t *n_baselines)
{
	return rv_layout_validate_models(l, v, f, NULL, 0, n_baselines);
}

int rv_layout_predict(struct rv_layout *l, struct rv_prediction_set *set, const char *hw, int op,
                      int purpose)
{
	const struct rv_profile *p;
	int err = rv_layout_profile(l, &p, hw);

	for (int o = 0; err == 0 && o < RV_OP_COUNT; o++) {
		for (int pu = 0; err == 0 && pu < RV_PURPOSE_COUNT; pu++) {
			const struct rv_sweep *s;

			if ((op >= 0 && o != op) || (purpose >= 0 && pu != purpose))
				continue;
			if ((err = rv_layout_sweep(l, &s, (enum rv_op)o, (enum rv_purpose)pu)) == 0)
				err = rv_predictions_builtin(set, p, s);
		}
	}
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
		s = bad;
	} else if (err < 0) {
		return err;
	}
	if ((err = rv_calibrate_add(c, p, s, b, bpath)) < 0)
		return err;
	/* Where the captures of these rows saw their CPUs (their manifests). */
	for (size_t i = 0; i < c->n_sources && err == 0; i++)
		if (c->sources[i].op == op)
			err = rv_layout_round_trips(l, p->key, op, &c->sources[i].round_trip_min_s,
			                            &c->sources[i].round_trip_max_s);
	return err;
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

int rv_layout_add_repeats(struct rv_layout *l, struct rv_validation *v)
{
	struct rv_job *jobs;
	size_t n, found = 0;
	int err = record_jobs(v, &jobs, &n);

	for (size_t i = 0; i < n && err == 0; i++) {
		const struct rv_baseline *b;
		char path[RV_PATH_MAX];

		if ((err = rv_layout_baseline_path(l, path, sizeof(path), jobs[i].hw, jobs[i].op)) <
		    0)
			break;
		err = rv_layout_baseline(l, &b, jobs[i].hw, jobs[i].op);
		if (err == RV_ENOENT) {
			err = 0;
			continue;
		}
		if (err == 0 && (err = rv_validation_add_repeats(v, b, path)) == 0 &&
		    (err = add_placement(l, v, jobs[i].hw, jobs[i].op)) == 0)
			found++;
	}
	free(jobs);
	if (err == 0 && found == 0)
		err = rv_error_set(RV_ENOENT,
		                   "%s holds no baseline of the hardware and ops validated, so it "
		                   "gives no repeat measurements; give a folder of the same "
		                   "targets' baselines",
		                   l->baseline_dir);
	if (err == 0)
		v->repeat_folders++;
	return err;
}
