/* SPDX-License-Identifier: MIT */
/* Scoring of predictions against baselines, with the reference harness's
 * rules: bands per regime label, measured regime from achieved rates, the
 * soft match of l2_bound, and energy scored only where it was measured well. */
#include "model/validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stats.h"
#include "model/classify.h"
#include "model/opcount.h"
#include "model/predict.h"

struct rv_band rv_band_of(enum rv_regime r)
{
	switch (r) {
	case RV_REGIME_ALU:
		return (struct rv_band){ 0.10, 0.15 };
	case RV_REGIME_L1:
	case RV_REGIME_L2:
		return (struct rv_band){ 0.20, 0.25 };
	case RV_REGIME_DRAM:
		return (struct rv_band){ 0.25, 0.30 };
	default: /* launch_bound and anything else */
		return (struct rv_band){ 0.30, 0.40 };
	}
}

int rv_record_passed(const struct rv_record *r)
{
	return r->pass_regime && r->pass_latency && r->pass_energy != RV_CHECK_FAIL;
}

void rv_validation_free(struct rv_validation *v)
{
	for (size_t i = 0; i < v->n_sources; i++)
		free(v->sources[i]);
	free(v->sources);
	free(v->records);
	memset(v, 0, sizeof(*v));
}

/* The regime a measurement shows: launch-bound under 5 x the per-call
 * overhead, alu- or dram-bound at 70% of the datasheet rate, else ambiguous. */
static enum rv_regime measured_regime(const struct rv_profile *p, const struct rv_compute *c,
                                      enum rv_op op, const struct rv_footprint *fp,
                                      double latency_s)
{
	const struct rv_memory_tier *dram = &p->memory[p->n_memory - 1];

	if (latency_s < RV_CLASSIFY_LAUNCH_OVERHEADS * p->op_overhead_s[op])
		return RV_REGIME_LAUNCH;
	if (fp->ref_flop / (latency_s * c->peak_flop_per_s) >= RV_MEASURED_BOUND_SHARE)
		return RV_REGIME_ALU;
	if (fp->ref_working_set_B / (latency_s * dram->bw_Bps) >= RV_MEASURED_BOUND_SHARE)
		return RV_REGIME_DRAM;
	return RV_REGIME_AMBIGUOUS;
}

int rv_measured_regime(enum rv_regime *out, const struct rv_profile *p, enum rv_op op,
                       const struct rv_shape *s, enum rv_dtype d, double latency_s)
{
	const struct rv_compute *c = rv_profile_compute(p, d);
	struct rv_footprint fp;
	int err;

	if (!c)
		return rv_error_set(RV_ENOTSUP, "%s is unsupported on %s", rv_dtype_name(d),
		                    p->key);
	if ((err = rv_footprint_of(&fp, op, s, d)) < 0)
		return err;
	*out = measured_regime(p, c, op, &fp, latency_s);
	return 0;
}

/* A measurement can never be attributed to one cache level, so a label of
 * l2_bound is satisfied by a measurement that is ambiguous or launch-bound. */
static int regime_matches(enum rv_regime label, enum rv_regime measured)
{
	if (label == measured)
		return 1;
	return label == RV_REGIME_L2 &&
	       (measured == RV_REGIME_AMBIGUOUS || measured == RV_REGIME_LAUNCH);
}

static int has_energy_window(const struct rv_baseline *b, const struct rv_baseline_row *row)
{
	(void)b;
	return !isnan(rv_row_value(row, RV_COL_ENERGY_WINDOW_S));
}

static void score_energy(struct rv_record *r, const struct rv_baseline *b,
                         const struct rv_baseline_row *row)
{
	r->pass_energy = RV_CHECK_SKIP;
	r->energy_err = (double)NAN;
	if (isnan(r->energy_meas_j)) {
		(void)snprintf(r->notes, sizeof(r->notes), "energy not measured");
	} else if (fpclassify(r->energy_meas_j) == FP_ZERO) {
		(void)snprintf(r->notes, sizeof(r->notes),
		               "measured energy 0: below the meter's resolution, not scored");
	} else if (!has_energy_window(b, row) && r->latency_meas_s < RV_ENERGY_MIN_LATENCY_S) {
		(void)snprintf(r->notes, sizeof(r->notes),
		               "energy not scored: under 1 ms without a measured energy window");
	} else {
		r->energy_err = (r->energy_pred_j - r->energy_meas_j) / r->energy_meas_j;
		r->pass_energy =
		        fabs(r->energy_err) <= r->band.energy ? RV_CHECK_PASS : RV_CHECK_FAIL;
	}
}

static int add_record(struct rv_validation *v, const struct rv_record *r)
{
	if (v->n_records == v->cap_records) {
		size_t cap = v->cap_records ? 2 * v->cap_records : 256;
		struct rv_record *grown = realloc(v->records, cap * sizeof(*grown));

		if (!grown)
			return rv_error_set(RV_ENOMEM, "out of memory");
		v->records = grown;
		v->cap_records = cap;
	}
	v->records[v->n_records++] = *r;
	return 0;
}

static int add_source(struct rv_validation *v, const char *text)
{
	char **grown = realloc(v->sources, (v->n_sources + 1) * sizeof(*grown));
	size_t n = strlen(text) + 1;

	if (!grown)
		return rv_error_set(RV_ENOMEM, "out of memory");
	v->sources = grown;
	v->sources[v->n_sources] = malloc(n);
	if (!v->sources[v->n_sources])
		return rv_error_set(RV_ENOMEM, "out of memory");
	memcpy(v->sources[v->n_sources++], text, n);
	return 0;
}

/* Every row must be of the profile's hardware and the sweep's op. */
static int check_baseline(const struct rv_profile *p, const struct rv_sweep *s,
                          const struct rv_baseline *b, const char *baseline_name)
{
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *row = &b->rows[i];

		if (strcmp(row->hardware, p->key) != 0)
			return rv_error_set(
			        RV_EPARSE,
			        "%s:%u: a row for hardware '%s' in a baseline validated "
			        "for '%s'; keep one hardware per baseline file",
			        baseline_name, row->line, row->hardware, p->key);
		if (row->op != s->op)
			return rv_error_set(RV_EPARSE,
			                    "%s:%u: a row for op '%s' in a baseline validated for "
			                    "'%s'; keep one op per baseline file",
			                    baseline_name, row->line, rv_op_name(row->op),
			                    rv_op_name(s->op));
	}
	return 0;
}

/* Baseline rows are looked up through an index sorted by (dtype, shape). */
static int row_cmp(const void *pa, const void *pb)
{
	const struct rv_baseline_row *a = *(const struct rv_baseline_row *const *)pa;
	const struct rv_baseline_row *b = *(const struct rv_baseline_row *const *)pb;
	int c = (int)a->dtype - (int)b->dtype;

	return c ? c : rv_shape_cmp(&a->shape, &b->shape);
}

static const struct rv_baseline_row *find_row(const struct rv_baseline_row **idx, size_t n,
                                              const struct rv_sweep_entry *e)
{
	struct rv_baseline_row key;
	const struct rv_baseline_row *kp = &key, *const * hit;

	memset(&key, 0, sizeof(key));
	key.dtype = e->dtype;
	key.shape = e->shape;
	hit = bsearch(&kp, idx, n, sizeof(*idx), row_cmp);
	return hit ? *hit : NULL;
}

int rv_validate(struct rv_validation *v, const struct rv_profile *p, const struct rv_sweep *s,
                const char *sweep_name, const struct rv_baseline *b, const char *baseline_name)
{
	const struct rv_baseline_row **idx = NULL;
	char source[1024];
	int err;

	if ((err = check_baseline(p, s, b, baseline_name)) < 0)
		return err;
	(void)snprintf(source, sizeof(source), "%s %s %s: %s, %s", p->key, rv_op_name(s->op),
	               rv_purpose_name(s->purpose), sweep_name, baseline_name);
	if ((err = add_source(v, source)) < 0)
		return err;
	if (b->n_rows) {
		idx = malloc(b->n_rows * sizeof(*idx));
		if (!idx)
			return rv_error_set(RV_ENOMEM, "out of memory");
		for (size_t i = 0; i < b->n_rows; i++)
			idx[i] = &b->rows[i];
		qsort(idx, b->n_rows, sizeof(*idx), row_cmp);
	}
	for (size_t i = 0; i < s->n_entries && err == 0; i++) {
		const struct rv_sweep_entry *e = &s->entries[i];
		const struct rv_sweep_label *label = rv_sweep_label_for(e, p->key);
		const struct rv_compute *c = rv_profile_compute(p, e->dtype);
		const struct rv_baseline_row *row;
		struct rv_prediction pred;
		struct rv_record r;

		if (!label)
			continue; /* not part of this target's sweep */
		if (label->regime == RV_REGIME_AMBIGUOUS) {
			v->skipped_ambiguous++;
			continue;
		}
		if (label->regime == RV_REGIME_UNSUPPORTED || !c) {
			v->skipped_unsupported++;
			continue;
		}
		row = idx ? find_row(idx, b->n_rows, e) : NULL;
		if (!row) {
			v->skipped_no_baseline++;
			continue;
		}
		if ((err = rv_predict(&pred, p, s->op, &e->shape, e->dtype)) < 0)
			break;
		memset(&r, 0, sizeof(r));
		(void)snprintf(r.hardware, sizeof(r.hardware), "%s", p->key);
		r.op = s->op;
		r.shape = e->shape;
		r.dtype = e->dtype;
		r.regime_label = label->regime;
		r.regime_measured = measured_regime(p, c, s->op, &pred.footprint, row->latency_s);
		r.band = rv_band_of(label->regime);
		r.latency_pred_s = pred.latency_s;
		r.latency_meas_s = row->latency_s;
		r.latency_err = (pred.latency_s - row->latency_s) / row->latency_s;
		r.energy_pred_j = pred.energy_j;
		r.energy_meas_j = row->energy_j;
		r.pass_regime = regime_matches(r.regime_label, r.regime_measured);
		r.pass_latency = fabs(r.latency_err) <= r.band.latency;
		r.binding = pred.binding;
		r.binding_tier = p->memory[0].tier;
		for (size_t t = 0; t < p->n_memory; t++)
			if (pred.tier_s[p->memory[t].tier] > pred.tier_s[r.binding_tier])
				r.binding_tier = p->memory[t].tier;
		score_energy(&r, b, row);
		err = add_record(v, &r);
	}
	free(idx);
	return err;
}

/* Fills acc from the n relative errors in err (reordered). */
static void accuracy_of(struct rv_accuracy *acc, double *err, size_t n)
{
	size_t w10 = 0, w25 = 0;

	acc->n = n;
	acc->median_ape = (double)NAN;
	acc->within_10 = acc->within_25 = 0;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		err[i] = fabs(err[i]);
		w10 += err[i] <= 0.10;
		w25 += err[i] <= 0.25;
	}
	acc->median_ape = rv_median(err, n);
	acc->within_10 = (double)w10 / (double)n;
	acc->within_25 = (double)w25 / (double)n;
}

int rv_validation_summary(const struct rv_validation *v, struct rv_summary *out)
{
	double *lat = malloc((v->n_records + 1) * sizeof(double));
	double *en = malloc((v->n_records + 1) * sizeof(double));
	size_t n_en = 0;

	memset(out, 0, sizeof(*out));
	if (!lat || !en) {
		free(lat);
		free(en);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	out->records = v->n_records;
	out->skipped_no_baseline = v->skipped_no_baseline;
	out->skipped_unsupported = v->skipped_unsupported;
	out->skipped_ambiguous = v->skipped_ambiguous;
	for (size_t i = 0; i < v->n_records; i++) {
		const struct rv_record *r = &v->records[i];

		if (rv_record_passed(r))
			out->passed++;
		lat[i] = r->latency_err;
		if (r->pass_energy != RV_CHECK_SKIP)
			en[n_en++] = r->energy_err;
	}
	out->failed = out->records - out->passed;
	out->energy_scored = n_en;
	accuracy_of(&out->latency, lat, v->n_records);
	accuracy_of(&out->energy, en, n_en);
	free(lat);
	free(en);
	return 0;
}

static int cell_cmp(const void *pa, const void *pb)
{
	const struct rv_cell *a = pa, *b = pb;
	int c = strcmp(a->hardware, b->hardware);

	if (!c)
		c = strcmp(rv_op_name(a->op), rv_op_name(b->op));
	return c ? c : (int)a->regime - (int)b->regime;
}

int rv_validation_cells(const struct rv_validation *v, struct rv_cell **out, size_t *n_out)
{
	struct rv_cell *cells = calloc(v->n_records + 1, sizeof(*cells));
	size_t n = 0;

	*out = NULL;
	*n_out = 0;
	if (!cells)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < v->n_records; i++) {
		const struct rv_record *r = &v->records[i];
		struct rv_cell *c = NULL;

		for (size_t j = 0; j < n && !c; j++)
			if (cells[j].op == r->op && cells[j].regime == r->regime_label &&
			    strcmp(cells[j].hardware, r->hardware) == 0)
				c = &cells[j];
		if (!c) {
			c = &cells[n++];
			(void)snprintf(c->hardware, sizeof(c->hardware), "%s", r->hardware);
			c->op = r->op;
			c->regime = r->regime_label;
		}
		c->n_total++;
		c->n_pass += (size_t)rv_record_passed(r);
		c->n_fail_regime += (size_t)!r->pass_regime;
		c->n_fail_latency += (size_t)!r->pass_latency;
		c->n_fail_energy += (size_t)(r->pass_energy == RV_CHECK_FAIL);
	}
	if (n > 1)
		qsort(cells, n, sizeof(*cells), cell_cmp);
	*out = cells;
	*n_out = n;
	return 0;
}
