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
#include "core/strnum.h"
#include "core/vec.h"
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
	free(v->missing);
	for (size_t i = 0; i < v->n_models; i++)
		free(v->models[i]);
	free(v->models);
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

int rv_energy_scoreable(const struct rv_baseline *b, const struct rv_baseline_row *row)
{
	double window_s = rv_row_value(row, RV_COL_ENERGY_WINDOW_S);

	(void)b;
	if (!isfinite(row->energy_j) || !(row->energy_j > 0))
		return 0;
	return row->latency_s >= RV_ENERGY_MIN_LATENCY_S ||
	       (isfinite(window_s) && window_s >= RV_ENERGY_MIN_LATENCY_S);
}

static void score_energy(struct rv_record *r, const struct rv_baseline *b,
                         const struct rv_baseline_row *row)
{
	r->pass_energy = RV_CHECK_SKIP;
	r->energy_err = (double)NAN;
	if (!isfinite(r->energy_meas_J)) {
		(void)snprintf(r->notes, sizeof(r->notes), "energy not measured");
	} else if (fpclassify(r->energy_meas_J) == FP_ZERO) {
		(void)snprintf(r->notes, sizeof(r->notes),
		               "measured energy 0: below the meter's resolution, not scored");
	} else if (!rv_energy_scoreable(b, row)) {
		(void)snprintf(r->notes, sizeof(r->notes),
		               "energy not scored: under 1 ms without a measured energy window");
	} else {
		r->energy_err = (r->energy_pred_J - r->energy_meas_J) / r->energy_meas_J;
		r->pass_energy =
		        fabs(r->energy_err) <= r->band.energy ? RV_CHECK_PASS : RV_CHECK_FAIL;
	}
}

static int add_record(struct rv_validation *v, const struct rv_record *r)
{
	return rv_vec_push(&v->records, &v->n_records, &v->cap_records, r, sizeof(*r));
}

static int add_source(struct rv_validation *v, const char *text)
{
	size_t n = strlen(text) + 1;
	char *copy = malloc(n);
	int err;

	if (!copy)
		return rv_error_set(RV_ENOMEM, "out of memory");
	memcpy(copy, text, n);
	if ((err = rv_vec_push(&v->sources, &v->n_sources, &v->cap_sources, &copy, sizeof(copy))) <
	    0)
		free(copy);
	return err;
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

int rv_match_rows(ptrdiff_t **out, const struct rv_sweep *s, const struct rv_baseline *b,
                  const char *hw)
{
	const struct rv_baseline_row **idx = NULL;
	ptrdiff_t *match;
	size_t n = 0;

	*out = NULL;
	if (s->n_entries == 0)
		return 0;
	match = malloc(s->n_entries * sizeof(*match));
	if (b->n_rows)
		idx = malloc(b->n_rows * sizeof(*idx));
	if (!match || (b->n_rows && !idx)) {
		free(match);
		free(idx);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < b->n_rows; i++)
		if (!hw || strcmp(b->rows[i].hardware, hw) == 0)
			idx[n++] = &b->rows[i];
	if (n > 1)
		qsort(idx, n, sizeof(*idx), row_cmp);
	for (size_t i = 0; i < s->n_entries; i++) {
		struct rv_baseline_row key;
		const struct rv_baseline_row *kp = &key, *const *hit = NULL;

		memset(&key, 0, sizeof(key));
		key.dtype = s->entries[i].dtype;
		key.shape = s->entries[i].shape;
		if (n)
			hit = bsearch(&kp, idx, n, sizeof(*idx), row_cmp);
		match[i] = hit ? *hit - b->rows : -1;
	}
	free(idx);
	*out = match;
	return 0;
}

int rv_validation_add_model(struct rv_validation *v, const char *model)
{
	char *copy;
	int err;

	for (size_t i = 0; i < v->n_models; i++)
		if (strcmp(v->models[i], model) == 0)
			return 0;
	if (!(copy = rv_strdup(model)))
		return rv_error_set(RV_ENOMEM, "out of memory");
	if ((err = rv_vec_push(&v->models, &v->n_models, &v->cap_models, &copy, sizeof(copy))) < 0)
		free(copy);
	return err;
}

static int add_missing(struct rv_validation *v, const char *model, const char *hw, enum rv_op op,
                       const struct rv_sweep_entry *e)
{
	struct rv_missing m;

	memset(&m, 0, sizeof(m));
	(void)snprintf(m.model, sizeof(m.model), "%s", model);
	(void)snprintf(m.hardware, sizeof(m.hardware), "%s", hw);
	m.op = op;
	m.shape = e->shape;
	m.dtype = e->dtype;
	return rv_vec_push(&v->missing, &v->n_missing, &v->cap_missing, &m, sizeof(m));
}

int rv_validate(struct rv_validation *v, const struct rv_profile *p, const struct rv_sweep *s,
                const char *sweep_name, const struct rv_baseline *b, const char *baseline_name,
                const struct rv_predictor *model)
{
	ptrdiff_t *match = NULL;
	char source[1024];
	int err;

	if (!model)
		model = &rv_predictor_builtin;
	if ((err = check_baseline(p, s, b, baseline_name)) < 0)
		return err;
	(void)snprintf(source, sizeof(source), "%s %s %s: %s, %s", p->key, rv_op_name(s->op),
	               rv_purpose_name(s->purpose), sweep_name, baseline_name);
	if ((err = add_source(v, source)) < 0 ||
	    (err = rv_validation_add_model(v, model->model)) < 0)
		return err;
	if ((err = rv_match_rows(&match, s, b, p->key)) < 0)
		return err;
	for (size_t i = 0; i < s->n_entries && err == 0; i++) {
		const struct rv_sweep_entry *e = &s->entries[i];
		const struct rv_sweep_label *label = rv_sweep_label_scoreable(e, p->key);
		const struct rv_compute *c = rv_profile_compute(p, e->dtype);
		const struct rv_baseline_row *row;
		struct rv_footprint fp;
		struct rv_estimate est;
		struct rv_record r;

		if (!label) {
			const struct rv_sweep_label *any = rv_sweep_label_for(e, p->key);

			/* Not part of this target's sweep, or a label not to score. */
			if (any && any->regime == RV_REGIME_AMBIGUOUS)
				v->skipped_ambiguous++;
			else if (any)
				v->skipped_unsupported++;
			continue;
		}
		if (!c) {
			v->skipped_unsupported++;
			continue;
		}
		v->labelled++;
		row = match[i] >= 0 ? &b->rows[match[i]] : NULL;
		if (!row) {
			v->skipped_no_baseline++;
			continue;
		}
		v->rows_found++;
		err = model->estimate(model->ctx, p, s->op, &e->shape, e->dtype, &est);
		if (err == RV_ENOENT) {
			err = add_missing(v, model->model, p->key, s->op, e);
			continue;
		}
		if (err < 0 || (err = rv_footprint_of(&fp, s->op, &e->shape, e->dtype)) < 0)
			break;
		memset(&r, 0, sizeof(r));
		(void)snprintf(r.model, sizeof(r.model), "%s", model->model);
		(void)snprintf(r.hardware, sizeof(r.hardware), "%s", p->key);
		r.op = s->op;
		r.shape = e->shape;
		r.dtype = e->dtype;
		r.regime_label = label->regime;
		r.regime_measured = measured_regime(p, c, s->op, &fp, row->latency_s);
		r.regime_model = est.regime;
		r.band = rv_band_of(label->regime);
		r.latency_pred_s = est.latency_s;
		r.latency_meas_s = row->latency_s;
		r.latency_err = (est.latency_s - row->latency_s) / row->latency_s;
		r.energy_pred_J = est.energy_j;
		r.energy_meas_J = row->energy_j;
		r.pass_regime = regime_matches(r.regime_label, r.regime_measured);
		r.pass_latency = fabs(r.latency_err) <= r.band.latency;
		r.binding = est.binding;
		r.binding_tier = est.binding_tier;
		score_energy(&r, b, row);
		err = add_record(v, &r);
	}
	free(match);
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

int rv_validation_summary_of(const struct rv_validation *v, const char *model,
                             struct rv_summary *out)
{
	double *lat = malloc((v->n_records + 1) * sizeof(double));
	double *en = malloc((v->n_records + 1) * sizeof(double));
	size_t n_lat = 0, n_en = 0;

	memset(out, 0, sizeof(*out));
	if (!lat || !en) {
		free(lat);
		free(en);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	out->labelled = v->labelled;
	out->rows_found = v->rows_found;
	out->skipped_no_baseline = v->skipped_no_baseline;
	out->skipped_unsupported = v->skipped_unsupported;
	out->skipped_ambiguous = v->skipped_ambiguous;
	for (size_t i = 0; i < v->n_missing; i++)
		out->skipped_no_prediction += !model || strcmp(v->missing[i].model, model) == 0;
	for (size_t i = 0; i < v->n_records; i++) {
		const struct rv_record *r = &v->records[i];

		if (model && strcmp(r->model, model) != 0)
			continue;
		out->records++;
		if (rv_record_passed(r))
			out->passed++;
		lat[n_lat++] = r->latency_err;
		if (r->pass_energy != RV_CHECK_SKIP)
			en[n_en++] = r->energy_err;
	}
	out->failed = out->records - out->passed;
	out->energy_scored = n_en;
	accuracy_of(&out->latency, lat, n_lat);
	accuracy_of(&out->energy, en, n_en);
	free(lat);
	free(en);
	return 0;
}

int rv_validation_summary(const struct rv_validation *v, struct rv_summary *out)
{
	return rv_validation_summary_of(v, NULL, out);
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
