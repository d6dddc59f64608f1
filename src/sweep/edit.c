/* SPDX-License-Identifier: MIT */
/* Editing sweeps: the seeded stratified generator, augment (labels for one
 * more target, with the classifier) and relabel (labels that follow
 * conclusive committed measurements). Unlike the loader (sweep.c), this uses
 * model/ (the classifier, the footprint, the measured regime) and the data
 * layout (the only builder of the file names). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/rng.h"
#include "core/vec.h"
#include "hw/profile.h"
#include "io/baseline.h"
#include "io/file.h"
#include "layout/layout.h"
#include "model/calibrate.h"
#include "model/classify.h"
#include "model/opcount.h"
#include "model/validate.h"
#include "sweep/sweep.h"

/* Adds key to a hardware list, keeping it sorted; 1 when it was added. The
 * list keeps no room beyond its n items, so cap starts at n. */
static int list_add(struct rv_sweep_list *l, const char *key)
{
	size_t at = 0, cap = l->n;
	char *copy;
	int err;

	for (size_t i = 0; i < l->n; i++) {
		int c = strcmp(l->items[i], key);

		if (c == 0)
			return 0;
		if (c < 0)
			at = i + 1;
	}
	if ((err = rv_vec_reserve(&l->items, &cap, l->n + 1, sizeof(*l->items))) < 0)
		return err;
	copy = rv_strdup(key);
	if (!copy)
		return rv_error_set(RV_ENOMEM, "out of memory");
	memmove(l->items + at + 1, l->items + at, (l->n - at) * sizeof(*l->items));
	l->items[at] = copy;
	l->n++;
	l->present = 1;
	return 1;
}

/* One edit of a sweep file under the lock every writer of it takes
 * (rv_file_update()): the sweep read from the current text, edit() applied
 * (a negative error, 0 for no change, 1 to write it), the result rendered.
 * A sweep that does not exist is RV_ENOENT, as rv_sweep_load() says it. */
struct sweep_edit {
	const char *path;
	int (*edit)(struct sweep_edit *e, struct rv_sweep *s);
	const struct rv_profile *p;
	const struct rv_baseline *b;
	struct rv_sweep_written *w;
	struct rv_sweep_relabelled *r;
};

static int sweep_edit_update(void *ctx, const char *old_text, size_t old_len,
                             struct rv_buf *new_text)
{
	struct sweep_edit *e = ctx;
	struct rv_sweep *s = NULL;
	int err;

	if (!old_text)
		return rv_error_errno(ENOENT, "cannot open %s", e->path);
	if ((err = rv_sweep_parse(&s, old_text, old_len, e->path)) < 0)
		return err;
	err = e->edit(e, s);
	if (err > 0) {
		int rendered = rv_sweep_render(new_text, s);

		if (rendered < 0)
			err = rendered;
	}
	rv_sweep_free(s);
	return err;
}

/* ---- generate ---- */

/* Candidate dimensions: powers of two and their 1.5x multiples (which are
 * also the 3x multiples of the power below), as the reference generator. */
static size_t gen_dims(uint64_t *out, size_t max_n, uint64_t lo, uint64_t hi)
{
	size_t n = 0;

	for (uint64_t p = 1; p <= hi && n + 2 <= max_n; p *= 2) {
		if (p >= lo)
			out[n++] = p;
		if (p >= 2 && p + p / 2 >= lo && p + p / 2 <= hi)
			out[n++] = p + p / 2;
	}
	return n;
}

struct gen_cand {
	struct rv_shape shape;
	enum rv_dtype dtype;
	/* per target; RV_REGIME_COUNT when not labelled */
	enum rv_regime regime[RV_SWEEP_TARGETS_MAX];
	/* per target, with per_family: the stratum (an index into the families
	 * met, see gen_families()); else the regime's */
	size_t stratum[RV_SWEEP_TARGETS_MAX];
	int purpose; /* -1 unused, else enum rv_purpose */
};

static int gen_cand_cmp(const void *pa, const void *pb)
{
	const struct gen_cand *a = pa, *b = pb;
	int c = (int)a->dtype - (int)b->dtype;

	return c ? c : rv_shape_cmp(&a->shape, &b->shape);
}

/* The sweep of one purpose from the sorted candidates. */
static int gen_sweep(struct rv_sweep **out, const struct gen_cand *c, size_t n,
                     const struct rv_sweep_generate_opts *o, enum rv_purpose purpose,
                     const struct rv_profile *const *t, size_t n_t)
{
	struct rv_sweep *s = calloc(1, sizeof(*s));
	int err = 0;

	*out = NULL;
	if (!s)
		return rv_error_set(RV_ENOMEM, "out of memory");
	s->op = o->op;
	s->purpose = purpose;
	s->has_seed = 1;
	s->generator_seed = (int64_t)o->seed;
	s->augmented_with_hardware.present = 1;
	s->generated_against_hardware.present = 1;
	for (size_t i = 0; i < n_t && err >= 0; i++)
		err = list_add(&s->generated_against_hardware, t[i]->key);
	if (err >= 0) {
		s->entries = calloc(n + 1, sizeof(*s->entries));
		if (!s->entries)
			err = rv_error_set(RV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n && err >= 0; i++) {
		struct rv_sweep_entry *e;

		if (c[i].purpose != (int)purpose)
			continue;
		e = &s->entries[s->n_entries++];
		e->shape = c[i].shape;
		e->dtype = c[i].dtype;
		for (size_t j = 0; j < n_t && err >= 0; j++)
			if (c[i].regime[j] != RV_REGIME_COUNT)
				err = rv_sweep_label_add(e, t[j]->key, c[i].regime[j]);
	}
	if (err < 0) {
		rv_sweep_free(s);
		return err;
	}
	*out = s;
	return 0;
}

/* The candidates of o->op in the dtypes of the targets, within the limits,
 * classified for each target of their dtype. */
static int gen_candidates(struct gen_cand **out, size_t *n_out,
                          const struct rv_sweep_generate_opts *o, const struct rv_profile *const *t,
                          size_t n_t)
{
	enum rv_op op = o->op;
	uint64_t dims[64], bdims[64];
	struct gen_cand *cand = NULL;
	size_t n = 0, cap = 0, nd, nb, ni;
	int err = 0;

	/* Families need the small dimensions (1, 2, 3, ...) that regimes do not. */
	nd = gen_dims(dims, 64,
	              o->per_family            ? 1
	              : op == RV_OP_VECTOR_ADD ? 256
	                                       : 64,
	              op == RV_OP_VECTOR_ADD ? ((uint64_t)1 << 28) : 16384);
	nb = gen_dims(bdims, 64, 1, op == RV_OP_LINEAR ? 4096 : 16384);
	ni = op == RV_OP_VECTOR_ADD ? nd : (op == RV_OP_LINEAR ? nb : nd);
	for (size_t i = 0; err == 0 && i < ni; i++) {
		for (size_t j = 0; err == 0 && j < (op == RV_OP_VECTOR_ADD ? 1 : nd); j++) {
			for (size_t k = 0; err == 0 && k < (op == RV_OP_VECTOR_ADD ? 1 : nd); k++) {
				for (size_t ti = 0; err == 0 && ti < n_t; ti++) {
					struct gen_cand c;
					struct rv_footprint fp;
					int seen = 0;

					memset(&c, 0, sizeof(c));
					c.dtype = t[ti]->default_dtype;
					for (size_t q = 0; q < ti; q++)
						seen |= t[q]->default_dtype == c.dtype;
					if (seen)
						continue; /* this dtype's candidate is made already */
					c.shape.ndim = rv_op_ndim(op);
					c.shape.dim[0] = op == RV_OP_LINEAR ? bdims[i] : dims[i];
					c.shape.dim[1] = dims[j];
					c.shape.dim[2] = dims[k];
					if (rv_footprint_of(&fp, op, &c.shape, c.dtype) < 0 ||
					    fp.flop > o->max_flop ||
					    fp.working_set_B > o->max_working_set_B)
						continue;
					c.purpose = -1;
					for (size_t q = 0; q < n_t && err == 0; q++) {
						struct rv_classification cl;

						c.regime[q] = RV_REGIME_COUNT;
						if (t[q]->default_dtype != c.dtype)
							continue;
						err = rv_classify(&cl, t[q], op, &c.shape, c.dtype);
						c.regime[q] = cl.regime;
						c.stratum[q] = cl.regime;
					}
					if (err == 0)
						err = rv_vec_push(&cand, &n, &cap, &c, sizeof(c));
				}
			}
		}
	}
	if (err < 0) {
		free(cand);
		return err;
	}
	*out = cand;
	*n_out = n;
	return 0;
}

/* Bounds that select nothing write nothing: every target has at least one
 * shape it labels with a regime that can be scored, and each purpose at
 * least one shape, or the sweep files (maybe committed ones) would be
 * replaced by less. c holds the candidates with their purposes assigned. */
static int gen_check(const struct gen_cand *c, size_t n, const struct rv_sweep_generate_opts *o,
                     const struct rv_profile *const *t, size_t n_t)
{
	size_t per_purpose[RV_PURPOSE_COUNT] = { 0 };

	for (size_t q = 0; q < n_t; q++) {
		size_t fits = 0, usable = 0;

		for (size_t i = 0; i < n; i++) {
			enum rv_regime r = c[i].regime[q];

			if (r == RV_REGIME_COUNT)
				continue; /* not of this target's dtype */
			fits++;
			usable += c[i].purpose >= 0 && r != RV_REGIME_AMBIGUOUS &&
			          r != RV_REGIME_UNSUPPORTED;
		}
		if (fits == 0)
			return rv_error_set(RV_ERANGE,
			                    "no candidate shape of %s fits --max-flop %.15g and "
			                    "--max-bytes %.15g for %s; raise the bounds",
			                    rv_op_name(o->op), o->max_flop, o->max_working_set_B,
			                    t[q]->key);
		if (usable == 0)
			return rv_error_set(
			        RV_ERANGE,
			        "the %zu candidate shapes of %s within --max-flop %.15g and "
			        "--max-bytes %.15g are all ambiguous or unsupported for %s; "
			        "raise the bounds",
			        fits, rv_op_name(o->op), o->max_flop, o->max_working_set_B,
			        t[q]->key);
	}
	for (size_t i = 0; i < n; i++)
		if (c[i].purpose >= 0)
			per_purpose[c[i].purpose]++;
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
		if (per_purpose[pu] == 0)
			return rv_error_set(
			        RV_ERANGE,
			        "the %zu candidate shapes of %s within --max-flop %.15g and "
			        "--max-bytes %.15g leave none for the %s sweep; raise the "
			        "bounds or lower --per-regime or --per-family",
			        n, rv_op_name(o->op), o->max_flop, o->max_working_set_B,
			        rv_purpose_name((enum rv_purpose)pu));
	return 0;
}

/* With per_family, each candidate's stratum per target becomes its family
 * (rv_cal_family() on that target), numbered in the order first met; *n_strata
 * the count (else RV_REGIME_COUNT, the regimes). */
static int gen_families(struct gen_cand *c, size_t n, const struct rv_sweep_generate_opts *o,
                        const struct rv_profile *const *t, size_t n_t, size_t *n_strata)
{
	char(*names)[RV_CAL_FAMILY_MAX] = NULL;
	size_t n_names = 0, cap = 0;
	int err = 0;

	*n_strata = RV_REGIME_COUNT;
	if (!o->per_family)
		return 0;
	for (size_t i = 0; i < n && err == 0; i++) {
		for (size_t q = 0; q < n_t && err == 0; q++) {
			char f[RV_CAL_FAMILY_MAX];
			size_t j = 0;

			if (c[i].regime[q] == RV_REGIME_COUNT)
				continue;
			if ((err = rv_cal_family(f, t[q], o->op, &c[i].shape, c[i].dtype)) < 0)
				break;
			while (j < n_names && strcmp(names[j], f) != 0)
				j++;
			if (j == n_names) {
				char name[RV_CAL_FAMILY_MAX];

				memcpy(name, f, sizeof(name));
				err = rv_vec_push(&names, &n_names, &cap, name, sizeof(name));
			}
			c[i].stratum[q] = j;
		}
	}
	free(names);
	*n_strata = n_names;
	return err;
}

int rv_sweep_generate(const struct rv_sweep_generate_opts *o, const struct rv_profile *const *t,
                      size_t n_t, struct rv_sweep *out[RV_PURPOSE_COUNT])
{
	size_t *got = NULL, want[RV_PURPOSE_COUNT], n_strata;
	struct gen_cand *cand = NULL;
	uint64_t state;
	size_t n = 0;
	int err;

	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
		out[pu] = NULL;
	if (n_t > RV_SWEEP_TARGETS_MAX)
		return rv_error_set(RV_ERANGE, "more than %d targets", RV_SWEEP_TARGETS_MAX);
	if (n_t == 0 || o->seed > INT64_MAX || (o->per_regime > 0) == (o->per_family > 0) ||
	    o->per_regime > 1000 || o->per_family > 1000 || !(o->max_flop > 0) ||
	    !(o->max_working_set_B > 0) || (unsigned)o->op >= RV_OP_COUNT)
		return rv_error_set(RV_ERANGE,
		                    "a generated sweep needs an op, a seed up to 2^63-1, targets, "
		                    "1 to 1000 shapes per regime or per family (one of the two) "
		                    "and positive limits");
	if ((err = gen_candidates(&cand, &n, o, t, n_t)) < 0 ||
	    (err = gen_families(cand, n, o, t, n_t, &n_strata)) < 0 ||
	    !(got = calloc(RV_PURPOSE_COUNT * n_t * n_strata + 1, sizeof(*got)))) {
		free(cand);
		return err < 0 ? err : rv_error_set(RV_ENOMEM, "out of memory");
	}
	/* A seeded shuffle, then strata filled in order: calibration first. */
	state = o->seed;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(rv_rng_next(&state) % i);
		struct gen_cand x = cand[i - 1];

		cand[i - 1] = cand[j];
		cand[j] = x;
	}
	want[RV_PURPOSE_CALIBRATION] = o->per_family ? o->per_family : o->per_regime;
	want[RV_PURPOSE_VALIDATION] = o->per_family ? o->per_family : 3 * o->per_regime;
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
		size_t *g = got + (size_t)pu * n_t * n_strata;

		for (size_t i = 0; i < n; i++) {
			int useful = 0;

			if (cand[i].purpose >= 0)
				continue;
			for (size_t q = 0; q < n_t; q++) {
				enum rv_regime r = cand[i].regime[q];

				if (r != RV_REGIME_COUNT && r != RV_REGIME_AMBIGUOUS &&
				    r != RV_REGIME_UNSUPPORTED &&
				    g[q * n_strata + cand[i].stratum[q]] < want[pu])
					useful = 1;
			}
			if (!useful)
				continue;
			cand[i].purpose = pu;
			for (size_t q = 0; q < n_t; q++)
				if (cand[i].regime[q] != RV_REGIME_COUNT)
					g[q * n_strata + cand[i].stratum[q]]++;
		}
	}
	free(got);
	err = gen_check(cand, n, o, t, n_t);
	if (err == 0 && n > 1)
		qsort(cand, n, sizeof(*cand), gen_cand_cmp);
	for (int pu = 0; err == 0 && pu < RV_PURPOSE_COUNT; pu++)
		err = gen_sweep(&out[pu], cand, n, o, (enum rv_purpose)pu, t, n_t);
	free(cand);
	if (err < 0) {
		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
			rv_sweep_free(out[pu]);
			out[pu] = NULL;
		}
	}
	return err;
}

int rv_sweep_generate_files(struct rv_layout *l, const struct rv_sweep_generate_opts *o,
                            const char *target_keys, struct rv_sweep_written out[RV_PURPOSE_COUNT],
                            size_t *n_out)
{
	const struct rv_profile *t[RV_SWEEP_TARGETS_MAX];
	struct rv_sweep *s[RV_PURPOSE_COUNT] = { NULL };
	struct rv_buf text[RV_PURPOSE_COUNT] = { RV_BUF_INIT, RV_BUF_INIT };
	struct rv_file_part parts[RV_PURPOSE_COUNT];
	char *list = rv_strdup(target_keys), *tok, *save = NULL;
	size_t n_t = 0;
	int err = 0;

	*n_out = 0;
	if (!list)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (tok = strtok_r(list, ",", &save); tok && err == 0; tok = strtok_r(NULL, ",", &save)) {
		if (n_t == RV_SWEEP_TARGETS_MAX) {
			err = rv_error_set(RV_ERANGE, "more than %d targets", RV_SWEEP_TARGETS_MAX);
			break;
		}
		err = rv_layout_profile(l, &t[n_t], tok);
		n_t += err == 0;
	}
	free(list);
	if (err == 0 && n_t == 0)
		err = rv_error_set(RV_ERANGE,
		                   "no hardware key in the targets '%s'; give keys "
		                   "separated by commas",
		                   target_keys);
	if (err == 0)
		err = rv_sweep_generate(o, t, n_t, s);
	/* The calibration and validation sweeps of one generation belong
	 * together: both written, then both renamed, or neither replaced. */
	for (int pu = 0; err == 0 && pu < RV_PURPOSE_COUNT; pu++) {
		struct rv_sweep_written *w = &out[pu];

		memset(w, 0, sizeof(*w));
		if ((err = rv_layout_sweep_path(l, w->path, sizeof(w->path), o->op,
		                                (enum rv_purpose)pu)) == 0)
			err = rv_sweep_render(&text[pu], s[pu]);
		parts[pu] = (struct rv_file_part){ w->path, text[pu].data, text[pu].len };
		w->n_entries = s[pu]->n_entries;
	}
	if (err == 0 && (err = rv_file_replace_all(parts, RV_PURPOSE_COUNT)) == 0)
		*n_out = RV_PURPOSE_COUNT;
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
		rv_sweep_free(s[pu]);
		rv_buf_free(&text[pu]);
	}
	return err;
}

/* The folder dir (what: "sweep", "baseline") exists and is a folder: an edit
 * of files in a folder that is not there is an error naming it, not a run
 * that edits nothing and exits 0. */
static int folder_check(const char *dir, const char *what, const char *option)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		return rv_error_errno(errno, "%s folder %s (give the right one with %s)", what, dir,
		                      option);
	if (!S_ISDIR(st.st_mode))
		return rv_error_set(RV_EPARSE, "%s folder %s is not a folder (give one with %s)",
		                    what, dir, option);
	return 0;
}

/* ---- augment ---- */

int rv_sweep_augment(struct rv_sweep *s, const struct rv_profile *p, size_t *added,
                     size_t count[RV_REGIME_COUNT])
{
	size_t before = *added;
	int err;

	for (size_t i = 0; i < s->n_entries; i++) {
		struct rv_sweep_entry *e = &s->entries[i];
		struct rv_classification c;

		if (!rv_profile_compute(p, e->dtype) || rv_sweep_label_for(e, p->key))
			continue;
		if ((err = rv_classify(&c, p, s->op, &e->shape, e->dtype)) < 0 ||
		    (err = rv_sweep_label_add(e, p->key, c.regime)) < 0)
			return err;
		count[c.regime]++;
		(*added)++;
	}
	err = list_add(&s->augmented_with_hardware, p->key);
	return err < 0 ? err : (*added > before || err > 0);
}

static int augment_edit(struct sweep_edit *e, struct rv_sweep *s)
{
	/* Counted afresh: the text read under the lock is what is augmented. */
	e->w->added = 0;
	memset(e->w->count, 0, sizeof(e->w->count));
	return rv_sweep_augment(s, e->p, &e->w->added, e->w->count);
}

int rv_sweep_augment_files(struct rv_layout *l, const char *hw, int only_op, int only_purpose,
                           struct rv_sweep_written out[RV_OP_COUNT * RV_PURPOSE_COUNT],
                           size_t *n_out)
{
	const struct rv_profile *p;
	int err;

	*n_out = 0;
	if ((err = rv_layout_profile(l, &p, hw)) < 0 ||
	    (err = folder_check(l->sweep_dir, "sweep", "--sweep-dir")) < 0)
		return err;
	for (int op = 0; err == 0 && op < RV_OP_COUNT; op++) {
		for (int pu = 0; err == 0 && pu < RV_PURPOSE_COUNT; pu++) {
			struct rv_sweep_written *w = &out[*n_out];
			struct sweep_edit e = { w->path, augment_edit, p, NULL, w, NULL };

			if ((only_op >= 0 && op != only_op) ||
			    (only_purpose >= 0 && pu != only_purpose))
				continue;
			memset(w, 0, sizeof(*w));
			if ((err = rv_layout_sweep_path(l, w->path, sizeof(w->path), (enum rv_op)op,
			                                (enum rv_purpose)pu)) < 0)
				break;
			err = rv_file_update(w->path, sweep_edit_update, &e);
			if (err == RV_ENOENT && only_op < 0 && access(w->path, F_OK) != 0) {
				err = 0; /* augment what there is */
				continue;
			}
			if (err >= 0) {
				err = 0;
				(*n_out)++;
			}
		}
	}
	return err;
}

/* ---- relabel ---- */

int rv_sweep_frozen(const struct rv_sweep *s, const char *hw)
{
	const struct rv_sweep_list *l = &s->augmented_with_hardware_from_baseline;

	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i], hw) == 0)
			return 1;
	return 0;
}

static int frozen_error(const char *hw)
{
	return rv_error_set(RV_ERROR,
	                    "the labels of %s already follow a baseline (sweeps stay frozen "
	                    "after a target's first relabel, so later captures are scored "
	                    "against the same bands); pass --force to relabel again",
	                    hw);
}

/* The rows of one (hardware, op) of a baseline, sorted by (dtype, shape), so
 * that relabel finds each entry's row by binary search: its cost grows as
 * (entries + rows) log rows, not entries x rows (a scan per entry took 23 s
 * for 10^5 entries against 10^5 rows). */
struct row_index {
	const struct rv_baseline_row **rows;
	size_t n;
};

static int row_index_key_cmp(const struct rv_baseline_row *r, enum rv_dtype d,
                             const struct rv_shape *shape)
{
	if (r->dtype != d)
		return r->dtype < d ? -1 : 1;
	return rv_shape_cmp(&r->shape, shape);
}

static int row_index_cmp(const void *pa, const void *pb)
{
	const struct rv_baseline_row *a = *(const struct rv_baseline_row *const *)pa;
	const struct rv_baseline_row *b = *(const struct rv_baseline_row *const *)pb;

	return row_index_key_cmp(a, b->dtype, &b->shape);
}

static int row_index_build(struct row_index *x, const struct rv_baseline *b, const char *hw,
                           enum rv_op op)
{
	x->n = 0;
	x->rows = b->n_rows ? malloc(b->n_rows * sizeof(*x->rows)) : NULL;
	if (b->n_rows && !x->rows)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < b->n_rows; i++)
		if (b->rows[i].op == op && strcmp(b->rows[i].hardware, hw) == 0)
			x->rows[x->n++] = &b->rows[i];
	if (x->n > 1)
		qsort(x->rows, x->n, sizeof(*x->rows), row_index_cmp);
	return 0;
}

/* The row of (d, shape); NULL when the baseline has none. The loader refuses
 * a baseline with two rows of one key, so there is at most one. */
static const struct rv_baseline_row *row_index_find(const struct row_index *x, enum rv_dtype d,
                                                    const struct rv_shape *shape)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = row_index_key_cmp(x->rows[mid], d, shape);

		if (c == 0)
			return x->rows[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int rv_sweep_relabel(struct rv_sweep *s, const struct rv_profile *p, const struct rv_baseline *b,
                     int force, struct rv_sweep_relabelled *r)
{
	struct row_index x;
	size_t cap = 0;
	int err = 0, added;
	double floor_s = rv_call_floor_s(p, b, s->op);

	r->checked = 0;
	r->changes = NULL;
	r->n_changes = 0;
	if (!force && rv_sweep_frozen(s, p->key))
		return frozen_error(p->key);
	if ((err = row_index_build(&x, b, p->key, s->op)) < 0)
		return err;
	for (size_t i = 0; i < s->n_entries; i++) {
		struct rv_sweep_entry *e = &s->entries[i];
		struct rv_sweep_label *l = NULL;
		const struct rv_baseline_row *row;
		struct rv_sweep_change c;

		for (size_t j = 0; j < e->n_labels; j++)
			if (strcmp(e->labels[j].hw, p->key) == 0)
				l = &e->labels[j];
		row = l ? row_index_find(&x, e->dtype, &e->shape) : NULL;
		if (!row || l->regime == RV_REGIME_UNSUPPORTED)
			continue;
		r->checked++;
		c.shape = e->shape;
		c.dtype = e->dtype;
		c.from = l->regime;
		c.measured_s = row->latency_s;
		if ((err = rv_relabel_regime(&c.to, p, s->op, &e->shape, e->dtype, c.measured_s,
		                             floor_s)) < 0)
			break;
		if (c.to == RV_REGIME_AMBIGUOUS || c.to == l->regime)
			continue;
		if ((err = rv_vec_push(&r->changes, &r->n_changes, &cap, &c, sizeof(c))) < 0)
			break;
		l->regime = c.to;
	}
	free(x.rows);
	if (err < 0)
		return err;
	/* The sweep is frozen for p once its labels were held against a
	 * measurement, changed or not. */
	if (!r->checked)
		return 0;
	if ((added = list_add(&s->augmented_with_hardware_from_baseline, p->key)) < 0)
		return added;
	return r->n_changes > 0 || added > 0;
}

void rv_sweep_relabelled_free(struct rv_sweep_relabelled *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].changes);
		r[i].changes = NULL;
		r[i].n_changes = 0;
	}
}

/* The baseline of (hw, op) and the sweep of (op, purpose); 1 when that
 * baseline exists. */
static int relabel_paths(const struct rv_layout *l, char bpath[RV_PATH_MAX],
                         char spath[RV_PATH_MAX], const char *hw, enum rv_op op, enum rv_purpose pu,
                         int *err)
{
	if ((*err = rv_layout_baseline_path(l, bpath, RV_PATH_MAX, hw, op)) < 0 ||
	    (*err = rv_layout_sweep_path(l, spath, RV_PATH_MAX, op, pu)) < 0)
		return 0;
	return access(bpath, F_OK) == 0;
}

/* Refuses, before anything is written, when a sweep that has a baseline to
 * follow was relabelled for hw already. */
static int relabel_frozen(const struct rv_layout *l, const char *hw)
{
	for (int op = 0; op < RV_OP_COUNT; op++) {
		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
			char bpath[RV_PATH_MAX], spath[RV_PATH_MAX];
			struct rv_sweep *s = NULL;
			int err, frozen;

			if (!relabel_paths(l, bpath, spath, hw, (enum rv_op)op, (enum rv_purpose)pu,
			                   &err)) {
				if (err < 0)
					return err;
				break;
			}
			if ((err = rv_sweep_load(&s, spath)) < 0)
				return err;
			frozen = rv_sweep_frozen(s, hw);
			rv_sweep_free(s);
			if (frozen)
				return rv_error_wrap(frozen_error(hw), "%s", spath);
		}
	}
	return 0;
}

static int relabel_edit(struct sweep_edit *e, struct rv_sweep *s)
{
	rv_sweep_relabelled_free(e->r, 1);
	/* force here: the whole folder was checked before. */
	return rv_sweep_relabel(s, e->p, e->b, 1, e->r);
}

int rv_sweep_relabel_files(struct rv_layout *l, const char *hw, int force,
                           struct rv_sweep_relabelled out[RV_OP_COUNT * RV_PURPOSE_COUNT],
                           size_t *n_out)
{
	const struct rv_profile *p;
	int err;

	*n_out = 0;
	if ((err = rv_layout_profile(l, &p, hw)) < 0 ||
	    (err = folder_check(l->sweep_dir, "sweep", "--sweep-dir")) < 0 ||
	    (err = folder_check(l->baseline_dir, "baseline", "--baseline-dir")) < 0)
		return err;
	if (!force && (err = relabel_frozen(l, p->key)) < 0)
		return err;
	for (int op = 0; err == 0 && op < RV_OP_COUNT; op++) {
		char bpath[RV_PATH_MAX], spath[RV_PATH_MAX];
		const struct rv_baseline *b = NULL;

		if (!relabel_paths(l, bpath, spath, p->key, (enum rv_op)op, RV_PURPOSE_CALIBRATION,
		                   &err))
			continue;
		err = rv_layout_baseline(l, &b, p->key, (enum rv_op)op);
		for (int pu = 0; err == 0 && pu < RV_PURPOSE_COUNT; pu++) {
			struct rv_sweep_relabelled *r = &out[*n_out];
			struct sweep_edit e = { r->path, relabel_edit, p, b, NULL, r };

			memset(r, 0, sizeof(*r));
			if ((err = rv_layout_sweep_path(l, r->path, sizeof(r->path), (enum rv_op)op,
			                                (enum rv_purpose)pu)) < 0)
				break;
			err = rv_file_update(r->path, sweep_edit_update, &e);
			if (err > 0)
				err = 0;
			r->done = err == 0;
			(*n_out)++; /* r owns its changes now, written or not */
		}
	}
	return err;
}
