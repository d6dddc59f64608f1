/* SPDX-License-Identifier: MIT */
/* The noise ceiling: how well the ground truth repeats, from two
 * captures of one target and from the matmul and linear of one GEMM, and
 * the share of records any model could pass given that scatter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stats.h"
#include "core/vec.h"
#include "hw/placement.h"
#include "model/validate.h"

/* Records ordered by (hardware, dtype, shape, model, op): the records of one
 * GEMM of one model, matmul and linear, come together. */
static int gemm_cmp(const struct rv_record *a, const struct rv_record *b, int with_model)
{
	int c = strcmp(a->hardware, b->hardware);

	if (!c)
		c = (int)a->dtype - (int)b->dtype;
	if (!c)
		c = rv_shape_cmp(&a->shape, &b->shape);
	if (!c && with_model)
		c = strcmp(a->model, b->model);
	return c;
}

static int record_ptr_cmp(const void *pa, const void *pb)
{
	const struct rv_record *a = *(const struct rv_record *const *)pa,
	                       *b = *(const struct rv_record *const *)pb;
	int c = gemm_cmp(a, b, 1);

	if (!c)
		c = (int)a->op - (int)b->op;
	return c ? c : (a > b) - (a < b);
}

/* Pointers to v's records, sorted; free() *out. */
static int sorted_records(const struct rv_validation *v, const struct rv_record ***out)
{
	const struct rv_record **p = malloc((v->n_records + 1) * sizeof(*p));

	*out = NULL;
	if (!p)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < v->n_records; i++)
		p[i] = &v->records[i];
	if (v->n_records > 1)
		qsort(p, v->n_records, sizeof(*p), record_ptr_cmp);
	*out = p;
	return 0;
}

/* The first of the n sorted records of the entry (hardware, op, shape,
 * dtype) of e, any model; NULL when there is none. */
static const struct rv_record *find_entry(const struct rv_record *const *p, size_t n,
                                          const struct rv_record *e)
{
	size_t lo = 0, hi = n;

	/* The first record of the GEMM (hardware, dtype, shape), any model. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (gemm_cmp(p[mid], e, 0) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && gemm_cmp(p[lo], e, 0) == 0; lo++)
		if (p[lo]->op == e->op)
			return p[lo];
	return NULL;
}

/* The sorted records of v and, per record (by its index in v->records), a
 * flag of whether this capture paired it already: a baseline holds one row
 * per key, and this guards a file that does not, in one pass. free() both. */
static int pairing_start(const struct rv_validation *v, const struct rv_record ***p,
                         unsigned char **seen)
{
	int err = sorted_records(v, p);

	*seen = NULL;
	if (err == 0 && !(*seen = calloc(v->n_records + 1, 1))) {
		free(*p);
		*p = NULL;
		err = rv_error_set(RV_ENOMEM, "out of memory");
	}
	return err;
}

/* Whether r was paired before (then it is skipped); marks it paired. */
static int paired_before(const struct rv_validation *v, unsigned char *seen,
                         const struct rv_record *r)
{
	size_t i = (size_t)(r - v->records);

	if (seen[i])
		return 1;
	seen[i] = 1;
	return 0;
}

/* Pairs record r with a second capture of its target, measured at b_s and
 * scored within band_b. */
static int push_captures(struct rv_validation *v, const struct rv_record *r, double b_s,
                         double band_b)
{
	struct rv_repeat q;

	memset(&q, 0, sizeof(q));
	(void)snprintf(q.hardware, sizeof(q.hardware), "%s", r->hardware);
	q.op = r->op;
	q.shape = r->shape;
	q.dtype = r->dtype;
	q.kind = RV_REPEAT_CAPTURES;
	q.a_s = r->latency_meas_s;
	q.b_s = b_s;
	q.band_a = r->band.latency;
	q.band_b = band_b;
	return rv_vec_push(&v->repeats, &v->n_repeats, &v->cap_repeats, &q, sizeof(q));
}

int rv_validation_add_repeats(struct rv_validation *v, const struct rv_baseline *b,
                              const char *baseline_name)
{
	const struct rv_record **p = NULL;
	unsigned char *seen = NULL;
	int err = pairing_start(v, &p, &seen);

	(void)baseline_name;
	for (size_t i = 0; i < b->n_rows && err == 0; i++) {
		const struct rv_baseline_row *row = &b->rows[i];
		const struct rv_record *r;
		struct rv_record e;
		unsigned why = 0;

		memset(&e, 0, sizeof(e));
		(void)snprintf(e.hardware, sizeof(e.hardware), "%s", row->hardware);
		e.op = row->op;
		e.shape = row->shape;
		e.dtype = row->dtype;
		r = find_entry(p, v->n_records, &e);
		(void)rv_row_suspect(row, &why);
		if (!r || (v->exclude_flagged && (why & RV_SUSPECT_LATENCY)))
			continue;
		if (paired_before(v, seen, r))
			continue;
		err = push_captures(v, r, row->latency_s, r->band.latency);
	}
	free(p);
	free(seen);
	return err;
}

int rv_validation_add_repeat_records(struct rv_validation *v, const struct rv_record *recs,
                                     size_t n)
{
	const struct rv_record **p = NULL;
	unsigned char *seen = NULL;
	int err = pairing_start(v, &p, &seen);

	for (size_t i = 0; i < n && err == 0; i++) {
		const struct rv_record *o = &recs[i], *r = find_entry(p, v->n_records, o);

		if (!r || (v->exclude_flagged && (o->suspect & RV_SUSPECT_LATENCY)) ||
		    paired_before(v, seen, r))
			continue;
		err = push_captures(v, r, o->latency_meas_s, o->band.latency);
	}
	free(p);
	free(seen);
	return err;
}

int rv_bias_negligible(const struct rv_shape *s, double matmul_pred_s, double linear_pred_s)
{
	double m, k, n;

	if (s->ndim != 3)
		return 0;
	m = (double)s->dim[0];
	k = (double)s->dim[1];
	n = (double)s->dim[2];
	if (!(m * n < RV_BIAS_NEGLIGIBLE * 2 * m * k * n))
		return 0;
	if (!isfinite(matmul_pred_s) || !(matmul_pred_s > 0) || !isfinite(linear_pred_s) ||
	    !(linear_pred_s > 0))
		return 1;
	return linear_pred_s - matmul_pred_s < RV_BIAS_NEGLIGIBLE * matmul_pred_s;
}

int rv_validation_add_placement(struct rv_validation *v, const char *hw, enum rv_op op,
                                double min_s, double max_s)
{
	struct rv_placement *pl = NULL, add;

	if (!(min_s > 0) || !(max_s > 0))
		return 0;
	for (size_t i = 0; i < v->n_placements && !pl; i++)
		if (v->placements[i].op == op && strcmp(v->placements[i].hardware, hw) == 0)
			pl = &v->placements[i];
	if (!pl) {
		memset(&add, 0, sizeof(add));
		(void)snprintf(add.hardware, sizeof(add.hardware), "%s", hw);
		add.op = op;
		add.round_trip_min_s = min_s;
		add.round_trip_max_s = max_s;
		return rv_vec_push(&v->placements, &v->n_placements, &v->cap_placements, &add,
		                   sizeof(add));
	}
	pl->round_trip_min_s = fmin(pl->round_trip_min_s, min_s);
	pl->round_trip_max_s = fmax(pl->round_trip_max_s, max_s);
	return 0;
}

int rv_noise_placements_differ(const struct rv_noise *n)
{
	return rv_round_trips_apart(n->round_trip_min_s, n->round_trip_max_s);
}

/* Whether one prediction could pass both measurements of a pair. */
static int passable(double a, double wa, double b, double wb)
{
	return a * (1 - wa) <= b * (1 + wb) && b * (1 - wb) <= a * (1 + wa);
}

/* What a (model, hardware, op) collects. */
struct acc {
	struct rv_noise n;
	double *diff; /* max/min - 1 of each pair */
	size_t n_diff, cap_diff;
	size_t n_passable;
};

static struct acc *acc_of(struct acc *accs, size_t n, const char *model, const char *hw,
                          enum rv_op op)
{
	for (size_t i = 0; i < n; i++)
		if (accs[i].n.op == op && strcmp(accs[i].n.hardware, hw) == 0 &&
		    strcmp(accs[i].n.model, model) == 0)
			return &accs[i];
	return NULL;
}

static int acc_pair(struct acc *a, enum rv_repeat_kind kind, double x, double wx, double y,
                    double wy)
{
	double d;

	if (!a || !(x > 0) || !(y > 0))
		return 0;
	d = fmax(x, y) / fmin(x, y) - 1;
	a->n.n_pairs++;
	a->n.n_kind[kind]++;
	a->n_passable += (size_t)passable(x, wx, y, wy);
	return rv_vec_push(&a->diff, &a->n_diff, &a->cap_diff, &d, sizeof(d));
}

/* The matmul/linear pairs of the sorted records of one model. */
static int gemm_pairs(struct acc *accs, size_t n_accs, const struct rv_record *const *p, size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && err == 0;) {
		const struct rv_record *mm = NULL, *li = NULL;
		size_t j = i;

		for (; j < n && gemm_cmp(p[i], p[j], 1) == 0; j++) {
			if (p[j]->op == RV_OP_MATMUL && !mm)
				mm = p[j];
			if (p[j]->op == RV_OP_LINEAR && !li)
				li = p[j];
		}
		i = j;
		if (!mm || !li ||
		    !rv_bias_negligible(&li->shape, mm->latency_pred_s, li->latency_pred_s))
			continue;
		err = acc_pair(acc_of(accs, n_accs, mm->model, mm->hardware, RV_OP_MATMUL),
		               RV_REPEAT_MATMUL_LINEAR, mm->latency_meas_s, mm->band.latency,
		               li->latency_meas_s, li->band.latency);
		if (err == 0)
			err = acc_pair(acc_of(accs, n_accs, li->model, li->hardware, RV_OP_LINEAR),
			               RV_REPEAT_MATMUL_LINEAR, li->latency_meas_s,
			               li->band.latency, mm->latency_meas_s, mm->band.latency);
	}
	return err;
}

/* The key order of the repeat captures: (hardware, op, dtype, shape). */
static int repeat_key_cmp(const char *hw, enum rv_op op, enum rv_dtype dtype,
                          const struct rv_shape *shape, const struct rv_repeat *q)
{
	int c = strcmp(hw, q->hardware);

	if (!c)
		c = (int)op - (int)q->op;
	if (!c)
		c = (int)dtype - (int)q->dtype;
	return c ? c : rv_shape_cmp(shape, &q->shape);
}

static int repeat_ptr_cmp(const void *pa, const void *pb)
{
	const struct rv_repeat *a = *(const struct rv_repeat *const *)pa,
	                       *b = *(const struct rv_repeat *const *)pb;

	return repeat_key_cmp(a->hardware, a->op, a->dtype, &a->shape, b);
}

/* Whether record r is within its latency band of the median of its other
 * captures (caps: v's repeat captures sorted by key), into a; nothing with
 * fewer than two. b: scratch of *cap values. */
static int agree(struct acc *a, const struct rv_repeat *const *caps, size_t n_caps,
                 const struct rv_record *r, double **b, size_t *cap)
{
	size_t lo = 0, hi = n_caps, k = 0;

	while (lo < hi) { /* the first capture of r's entry */
		size_t mid = lo + (hi - lo) / 2;

		if (repeat_key_cmp(r->hardware, r->op, r->dtype, &r->shape, caps[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (;
	     lo < n_caps && repeat_key_cmp(r->hardware, r->op, r->dtype, &r->shape, caps[lo]) == 0;
	     lo++) {
		if (k == *cap) {
			double *nb = realloc(*b, (2 * k + 4) * sizeof(**b));

			if (!nb)
				return rv_error_set(RV_ENOMEM, "out of memory");
			*b = nb;
			*cap = 2 * k + 4;
		}
		(*b)[k++] = caps[lo]->b_s;
	}
	if (k >= 2 && r->latency_meas_s > 0) {
		double med = rv_median(*b, k);

		a->n.agree_records++;
		a->n.agree_within += fabs(r->latency_meas_s / med - 1) <= r->band.latency;
	}
	return 0;
}

int rv_validation_noise(const struct rv_validation *v, struct rv_noise **out, size_t *n_out)
{
	struct rv_cell *cells = NULL;
	size_t n_cells = 0, n = 0;
	struct acc *accs = NULL;
	struct rv_noise *res = NULL;
	const struct rv_record **p = NULL;
	double *others = NULL; /* one record's other captures */
	const struct rv_repeat **caps = NULL;
	size_t cap_others = 0, n_caps = 0;
	int err;

	*out = NULL;
	*n_out = 0;
	/* One entry per (model, hardware, op) of the cells, in their order. */
	if ((err = rv_validation_cells(v, &cells, &n_cells)) < 0)
		return err;
	accs = calloc(n_cells + 1, sizeof(*accs));
	if (!accs)
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < n_cells && err == 0; i++) {
		if (acc_of(accs, n, cells[i].model, cells[i].hardware, cells[i].op))
			continue;
		(void)snprintf(accs[n].n.model, sizeof(accs[n].n.model), "%s", cells[i].model);
		(void)snprintf(accs[n].n.hardware, sizeof(accs[n].n.hardware), "%s",
		               cells[i].hardware);
		accs[n].n.op = cells[i].op;
		for (size_t k = 0; k < v->n_placements; k++)
			if (v->placements[k].op == cells[i].op &&
			    strcmp(v->placements[k].hardware, cells[i].hardware) == 0) {
				accs[n].n.round_trip_min_s = v->placements[k].round_trip_min_s;
				accs[n].n.round_trip_max_s = v->placements[k].round_trip_max_s;
			}
		n++;
	}
	/* The repeat captures by entry, for each record's others. */
	if (err == 0 && v->n_repeats > 0 && !(caps = malloc(v->n_repeats * sizeof(*caps))))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; caps && i < v->n_repeats; i++)
		if (v->repeats[i].kind == RV_REPEAT_CAPTURES)
			caps[n_caps++] = &v->repeats[i];
	if (n_caps > 1)
		qsort(caps, n_caps, sizeof(*caps), repeat_ptr_cmp);
	for (size_t i = 0; i < v->n_records && err == 0; i++) {
		const struct rv_record *r = &v->records[i];
		struct acc *a = acc_of(accs, n, r->model, r->hardware, r->op);

		if (!a)
			continue;
		a->n.records++;
		a->n.within_band += (size_t)r->pass_latency;
		a->n.passed += (size_t)rv_record_passed(r);
		if (n_caps > 0)
			err = agree(a, caps, n_caps, r, &others, &cap_others);
	}
	free(others);
	free(caps);
	/* Two captures: the same pairs bound every model's records. */
	for (size_t k = 0; k < n && err == 0; k++)
		for (size_t i = 0; i < v->n_repeats && err == 0; i++) {
			const struct rv_repeat *q = &v->repeats[i];

			if (q->op == accs[k].n.op && strcmp(q->hardware, accs[k].n.hardware) == 0)
				err = acc_pair(&accs[k], q->kind, q->a_s, q->band_a, q->b_s,
				               q->band_b);
		}
	if (err == 0)
		err = sorted_records(v, &p);
	if (err == 0)
		err = gemm_pairs(accs, n, p, v->n_records);
	free(p);
	if (err == 0 && !(res = calloc(n + 1, sizeof(*res))))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t k = 0; k < n && err == 0; k++) {
		res[k] = accs[k].n;
		res[k].scatter = res[k].ceiling = (double)NAN;
		if (accs[k].n_diff > 0) {
			res[k].scatter = rv_median(accs[k].diff, accs[k].n_diff);
			res[k].ceiling = (double)accs[k].n_passable / (double)res[k].n_pairs;
		}
	}
	for (size_t k = 0; accs && k < n_cells; k++)
		free(accs[k].diff);
	free(accs);
	free(cells);
	if (err < 0) {
		free(res);
		return err;
	}
	*out = res;
	*n_out = n;
	return 0;
}
