/* SPDX-License-Identifier: MIT */
/* The orders the reports list records in: a model's failures worst first,
 * and the entries several models were scored on, side by side, by how far
 * their predictions differ. Both sort with qsort: linear after the sort. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "report/report_internal.h"

struct ranked {
	size_t idx;
	double key; /* larger first; NAN last */
};

/* Larger key first, NAN after every number, ties by idx (run or entry order). */
static int ranked_cmp(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int na = isnan(a->key), nb = isnan(b->key);

	if (na != nb)
		return na - nb;
	if (!na && (a->key > b->key || a->key < b->key))
		return a->key > b->key ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

int rv_report__worst_first(const struct rv_validation *v, const char *model, size_t **idx,
                           size_t *n)
{
	struct ranked *r = malloc((v->n_records + 1) * sizeof(*r));
	size_t *out = malloc((v->n_records + 1) * sizeof(*out)), k = 0;

	*idx = NULL;
	*n = 0;
	if (!r || !out) {
		free(r);
		free(out);
		return rv_error_set(RV_ENOMEM, "out of memory ranking %zu records", v->n_records);
	}
	for (size_t i = 0; i < v->n_records; i++) {
		const struct rv_record *rec = &v->records[i];

		if (rv_record_passed(rec) || (model && strcmp(rec->model, model) != 0))
			continue;
		r[k].idx = i;
		r[k].key = isfinite(rec->latency_err) ? fabs(rec->latency_err) : (double)NAN;
		k++;
	}
	if (k > 1)
		qsort(r, k, sizeof(*r), ranked_cmp);
	for (size_t i = 0; i < k; i++)
		out[i] = r[i].idx;
	free(r);
	*idx = out;
	*n = k;
	return 0;
}

/* The shape of the records idx[0..n) of one entry: spread, verdicts. */
static void shape_of(struct rv_report__shape *s, const struct rv_validation *v, const size_t *idx,
                     size_t n)
{
	double lo = HUGE_VAL, hi = -HUGE_VAL;
	size_t finite = 0, passed = 0;

	s->rec = idx;
	s->n_rec = n;
	for (size_t k = 0; k < n; k++) {
		const struct rv_record *r = &v->records[idx[k]];

		passed += rv_record_passed(r) != 0;
		if (!isfinite(r->latency_err))
			continue;
		finite++;
		lo = fmin(lo, r->latency_err);
		hi = fmax(hi, r->latency_err);
	}
	s->n_failed = n - passed;
	s->mixed = passed > 0 && s->n_failed > 0;
	s->spread = finite >= 2 ? hi - lo : (double)NAN;
}

int rv_report__shapes_of(struct rv_report__shapes *out, const struct rv_validation *v)
{
	struct rv_report__shape *found = NULL;
	struct ranked *r = NULL;
	size_t n = 0;
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = rv_validation_by_entry(v, &out->idx)) < 0)
		return err;
	found = malloc((v->n_records + 1) * sizeof(*found));
	r = malloc((v->n_records + 1) * sizeof(*r));
	out->shape = malloc((v->n_records + 1) * sizeof(*out->shape));
	if (!found || !r || !out->shape) {
		free(found);
		free(r);
		rv_report__shapes_free(out);
		return rv_error_set(RV_ENOMEM, "out of memory listing %zu records by shape",
		                    v->n_records);
	}
	for (size_t i = 0; i < v->n_records;) {
		size_t j = i + 1;

		while (j < v->n_records &&
		       rv_record_same_entry(&v->records[out->idx[i]], &v->records[out->idx[j]]))
			j++;
		shape_of(&found[n], v, out->idx + i, j - i);
		if (found[n].n_rec >= 2 && found[n].n_failed > 0) {
			r[n].idx = n;
			r[n].key = found[n].spread;
			n++;
		}
		i = j;
	}
	if (n > 1)
		qsort(r, n, sizeof(*r), ranked_cmp);
	for (size_t k = 0; k < n; k++)
		out->shape[k] = found[r[k].idx];
	out->n = n;
	free(found);
	free(r);
	return 0;
}

void rv_report__shapes_free(struct rv_report__shapes *s)
{
	free(s->shape);
	free(s->idx);
	memset(s, 0, sizeof(*s));
}

void rv_report__failed_checks(char *out, size_t size, const struct rv_record *r)
{
	int regime = r->pass_regime == RV_CHECK_FAIL, energy = r->pass_energy == RV_CHECK_FAIL;

	(void)snprintf(out, size, "%s%s%s%s%s", regime ? "regime" : "",
	               regime && !r->pass_latency ? ", " : "", r->pass_latency ? "" : "latency",
	               energy && (regime || !r->pass_latency) ? ", " : "", energy ? "energy" : "");
}

size_t rv_report__shown(size_t n, size_t top)
{
	return top == 0 || top > n ? n : top;
}
