/* SPDX-License-Identifier: MIT */
/* Robust nonlinear least squares calibration of model parameters with GSL.
 *
 * Parameters are fitted in log space (so they stay positive) to the residuals
 * log(predicted / measured), reweighted with Huber weights until the weights
 * settle, so that one noisy row cannot pull the fit. A parameter takes part
 * only when the rows determine it: its change moves the prediction of at
 * least two rows noticeably at the starting point. Energy parameters are
 * fitted second, with the latency parameters fixed, on the rows whose energy
 * was measured over a long enough window. */
#include "model/calibrate.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/build_info.h"
#include "core/error.h"
#include "core/stats.h"
#include "core/vec.h"
#include "hw/placement.h"
#include "model/opcount.h"
#include "model/predict.h"

/* A candidate enters the fit when it moves log(prediction) by at least this
 * share of its own relative change on at least two rows. */
#define CAL_MIN_SENSITIVITY_LATENCY 0.2
#define CAL_MIN_SENSITIVITY_ENERGY  0.1
#define CAL_MIN_SENSITIVE_ROWS      2
#define CAL_HUBER_K                 1.345
#define CAL_MAX_REWEIGHTS           20
/* A parameter whose log has a variance above this (a factor e either way) is
 * not determined by the rows. */
#define CAL_MAX_LOG_VARIANCE        1.0

void rv_calibration_free(struct rv_calibration *c)
{
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

size_t rv_calibration_groups(const struct rv_calibration *c, size_t s,
                             struct rv_cal_group out[RV_REGIME_COUNT])
{
	size_t n_groups = 0;

	for (int g = 0; g < RV_REGIME_COUNT; g++) {
		struct rv_cal_group grp = { c->sources[s].op, (enum rv_regime)g, 0, 0, 0, 0 };

		for (size_t i = 0; i < c->n_rows; i++) {
			const struct rv_cal_row *r = &c->rows[i];

			if (r->op != grp.op || (int)r->regime != g)
				continue;
			grp.rows++;
			grp.in_band += fabs(r->loo_latency_s / r->latency_s - 1) <= r->band.latency;
			if (!isnan(r->energy_J) && !isnan(r->loo_energy_J)) {
				grp.energy_rows++;
				grp.energy_in_band +=
				        fabs(r->loo_energy_J / r->energy_J - 1) <= r->band.energy;
			}
		}
		if (grp.rows)
			out[n_groups++] = grp;
	}
	return n_groups;
}

int rv_cal_family(char out[RV_CAL_FAMILY_MAX], const struct rv_profile *p, enum rv_op op,
                  const struct rv_shape *s, enum rv_dtype d)
{
	const struct rv_compute *cu = rv_profile_compute(p, d);
	struct rv_footprint fp;
	double work_s = 0, ratio;
	const char *size;
	char dims[8] = "";
	size_t n = 0;
	int err;

	out[0] = '\0';
	if ((err = rv_footprint_of(&fp, op, s, d)) < 0)
		return err;
	if (cu && cu->peak_flop_per_s > 0)
		work_s = fp.flop / cu->peak_flop_per_s;
	if (p->n_memory && p->memory[p->n_memory - 1].bw_Bps > 0)
		work_s = fmax(work_s, fp.working_set_B / p->memory[p->n_memory - 1].bw_Bps);
	ratio = p->op_overhead_s[op] > 0 ? work_s / p->op_overhead_s[op] : HUGE_VAL;
	size = ratio < RV_CAL_SMALL_WORK ? "launch" : ratio < RV_CAL_LARGE_WORK ? "small" : "large";
	if (op == RV_OP_VECTOR_ADD) {
		(void)snprintf(out, RV_CAL_FAMILY_MAX, "%s", size);
		return 0;
	}
	for (unsigned i = 0; i < 3 && i < s->ndim; i++)
		if (s->dim[i] <= RV_CAL_SMALL_DIM)
			dims[n++] = "MKN"[i];
	if (n == 0)
		dims[n++] = '-';
	dims[n] = '\0';
	if (op == RV_OP_LINEAR) {
		uint64_t m = s->dim[0];
		const char *rows = m <= 1 ? "M=1" : m == 2 ? "M=2" : m < 8 ? "M=3-7" : "M>=8";

		(void)snprintf(out, RV_CAL_FAMILY_MAX, "%s small:%s %s", rows, dims, size);
	} else {
		(void)snprintf(out, RV_CAL_FAMILY_MAX, "small:%s %s", dims, size);
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int rv_calibrate_add(struct rv_calibration *c, const struct rv_profile *p, const struct rv_sweep *s,
                     const struct rv_baseline *b, const char *baseline_file)
{
	struct rv_cal_source *src;
	ptrdiff_t *match = NULL, *entry_of_row = NULL;
	int err;

	if (s->purpose != RV_PURPOSE_CALIBRATION)
		return rv_error_set(RV_EPARSE,
		                    "calibration reads the calibration sweep only, not a "
		                    "%s sweep",
		                    rv_purpose_name(s->purpose));
	if (c->n_sources == RV_OP_COUNT)
		return rv_error_set(RV_ERANGE, "one baseline per op");
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *row = &b->rows[i];

		if (strcmp(row->hardware, p->key) != 0 || row->op != s->op)
			return rv_error_set(RV_EPARSE,
			                    "%s:%u: a row for %s %s in a calibration of %s %s",
			                    baseline_file, row->line, row->hardware,
			                    rv_op_name(row->op), p->key, rv_op_name(s->op));
	}
	if ((err = rv_vec_reserve(&c->rows, &c->cap_rows, c->n_rows + b->n_rows + 1,
	                          sizeof(*c->rows))) < 0 ||
	    (err = rv_match_rows(&match, s, b, p->key)) < 0)
		return err;
	/* Rows enter in the baseline's order: the entry of each row, or -1. */
	entry_of_row = malloc((b->n_rows + 1) * sizeof(*entry_of_row));
	if (!entry_of_row) {
		free(match);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < b->n_rows; i++)
		entry_of_row[i] = -1;
	for (size_t e = 0; e < s->n_entries; e++)
		if (match[e] >= 0 && entry_of_row[match[e]] < 0)
			entry_of_row[match[e]] = (ptrdiff_t)e;
	src = &c->sources[c->n_sources++];
	memset(src, 0, sizeof(*src));
	(void)snprintf(src->file, sizeof(src->file), "%s", base_name(baseline_file));
	src->op = s->op;
	src->rows_in_file = b->n_rows;
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *row = &b->rows[i];
		const struct rv_sweep_label *label = NULL;
		struct rv_cal_row *r;

		if (entry_of_row[i] >= 0)
			label = rv_sweep_label_scoreable(&s->entries[entry_of_row[i]], p->key);
		if (!label || !rv_profile_compute(p, row->dtype))
			continue;
		r = &c->rows[c->n_rows++];
		memset(r, 0, sizeof(*r));
		r->op = row->op;
		r->shape = row->shape;
		r->dtype = row->dtype;
		r->regime = label->regime;
		r->band = rv_band_of(label->regime);
		r->latency_s = row->latency_s;
		r->energy_J = (double)NAN;
		if ((err = rv_cal_family(r->family, p, r->op, &r->shape, r->dtype)) < 0) {
			c->n_rows--;
			free(entry_of_row);
			free(match);
			return err;
		}
		/* Energy enters as validation scores it. */
		if (rv_energy_scoreable(b, row)) {
			r->energy_J = row->energy_J;
			src->energy_rows++;
			c->n_energy_rows++;
		}
		src->rows++;
	}
	free(entry_of_row);
	free(match);
	return 0;
}

/* The fit in progress: which rows, which parameters, on which profile copy. */
struct fit_ctx {
	struct rv_calibration *c;
	struct rv_profile *p;
	size_t *rows; /* indexes into c->rows */
	size_t n_rows;
	size_t *params; /* indexes into c->params */
	size_t n_params;
	int energy;
	int failed; /* a prediction failed: stop */
	/* A held-out refit (leave-one-out, leave-one-family-out): each value
	 * held at the bound past which the full fit is refused (set_params()). */
	int bounded;
	/* The first parameter the rows could not determine, as fitted before it
	 * went back to its profile value: a far-off profile value can leave the
	 * others undetermined in turn, and the message then names it. */
	const struct rv_cal_param *first_drop;
	double first_drop_value, first_drop_sigma;
};

/* The predicted latency of row r, or its energy when it runs for latency_s:
 * energy parameters are fitted on the measured latency, so that a latency
 * error is not absorbed into the power model, and judged on the predicted
 * one, as validation will see them. latency_s NAN: the energy rv_predict()
 * gives (over its own latency), bit for bit. */
static double predict_row(const struct rv_profile *p, const struct rv_cal_row *r, int energy,
                          double latency_s, int *failed)
{
	struct rv_prediction pr;
	int err = rv_predict(&pr, p, r->op, &r->shape, r->dtype);

	/* Parameters the solver tries on its way can overflow the model: a bad
	 * point (a large residual), not a failure. */
	if (err == RV_ERANGE)
		return HUGE_VAL;
	if (err < 0) {
		*failed = 1;
		return (double)NAN;
	}
	if (!energy)
		return pr.latency_s;
	return isnan(latency_s) ? pr.energy_J : pr.energy_J - pr.static_J + p->static_W * latency_s;
}

/* The root of the ties of parameter j. */
static size_t tie_root(const struct rv_calibration *c, size_t j)
{
	for (size_t hops = 0; c->params[j].tied_to && hops < RV_CAL_MAX_PARAMS; hops++)
		j = c->params[j].tied_to - 1;
	return j;
}

/* Tied parameters take the value of their root. */
static void apply_ties(struct rv_calibration *c)
{
	for (size_t j = 0; j < c->n_params; j++)
		if (c->params[j].tied_to)
			*c->params[j].prm.slot = *c->params[tie_root(c, j)].prm.slot;
}

static void set_params(struct fit_ctx *x, const gsl_vector *v)
{
	for (size_t j = 0; j < x->n_params; j++) {
		struct rv_param *prm = &x->c->params[x->params[j]].prm;
		double value = exp(gsl_vector_get(v, j));

		*prm->slot = x->bounded ? fmin(value, prm->upper) : value;
	}
	apply_ties(x->c);
}

static int residuals(const gsl_vector *v, void *arg, gsl_vector *f)
{
	struct fit_ctx *x = arg;

	set_params(x, v);
	for (size_t i = 0; i < x->n_rows; i++) {
		const struct rv_cal_row *r = &x->c->rows[x->rows[i]];
		double meas = x->energy ? r->energy_J : r->latency_s;
		double pred = predict_row(x->p, r, x->energy, r->latency_s, &x->failed);

		gsl_vector_set(f, i, isfinite(pred) && pred > 0 ? log(pred / meas) : 1e3);
	}
	return x->failed ? GSL_EDOM : GSL_SUCCESS;
}

/* Huber weights of residuals f; returns the largest change of a weight. */
static double huber_weights(const gsl_vector *f, gsl_vector *w, double *scratch)
{
	size_t n = f->size;
	double med, mad, cut, change = 0;

	for (size_t i = 0; i < n; i++)
		scratch[i] = gsl_vector_get(f, i);
	med = rv_median(scratch, n);
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(gsl_vector_get(f, i) - med);
	mad = 1.4826 * rv_median(scratch, n);
	/* Below 1% scatter every row is an inlier. */
	cut = CAL_HUBER_K * fmax(mad, 0.01);
	for (size_t i = 0; i < n; i++) {
		double r = fabs(gsl_vector_get(f, i));
		double nw = r <= cut ? 1.0 : cut / r;

		if (gsl_vector_get(w, i) > 0) { /* 0 marks a row left out */
			change = fmax(change, fabs(nw - gsl_vector_get(w, i)));
			gsl_vector_set(w, i, nw);
		}
	}
	return change;
}

/* Runs the trust-region solver from x0 with weights w; leaves the result in x0. */
static int solve(struct fit_ctx *x, gsl_vector *x0, const gsl_vector *w, gsl_matrix *covar,
                 double *chisq)
{
	gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_fdf fdf;
	gsl_multifit_nlinear_workspace *ws;
	int status, info;

	memset(&fdf, 0, sizeof(fdf));
	fdf.f = residuals;
	fdf.n = x->n_rows;
	fdf.p = x->n_params;
	fdf.params = x;
	ws = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, x->n_rows, x->n_params);
	if (!ws)
		return rv_error_set(RV_ENOMEM, "out of memory");
	status = gsl_multifit_nlinear_winit(x0, w, &fdf, ws);
	if (status == GSL_SUCCESS)
		status = gsl_multifit_nlinear_driver(500, 1e-10, 1e-10, 0.0, NULL, NULL, &info, ws);
	/* Running out of iterations or of progress still leaves the best point. */
	if (status == GSL_EMAXITER || status == GSL_ENOPROG)
		status = GSL_SUCCESS;
	if (status == GSL_SUCCESS) {
		gsl_vector_memcpy(x0, gsl_multifit_nlinear_position(ws));
		if (chisq)
			(void)gsl_blas_ddot(gsl_multifit_nlinear_residual(ws),
			                    gsl_multifit_nlinear_residual(ws), chisq);
		if (covar)
			status = gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(ws), 1e-12,
			                                    covar);
	}
	gsl_multifit_nlinear_free(ws);
	if (x->failed)
		return rv_error_wrap(RV_ERROR, "a prediction failed");
	if (status != GSL_SUCCESS)
		return rv_error_set(RV_ERROR, "the solver failed: %s", gsl_strerror(status));
	set_params(x, x0);
	return 0;
}

/* d log(prediction) / d log(value) of candidate j on each row, by a 1% step. */
static size_t sensitive_rows(struct fit_ctx *x, struct rv_param *prm, double min_s)
{
	double v0 = *prm->slot;
	size_t count = 0;

	for (size_t i = 0; i < x->n_rows && !x->failed; i++) {
		const struct rv_cal_row *r = &x->c->rows[x->rows[i]];
		double a, b;

		*prm->slot = v0;
		a = predict_row(x->p, r, x->energy, r->latency_s, &x->failed);
		*prm->slot = v0 * 1.01;
		b = predict_row(x->p, r, x->energy, r->latency_s, &x->failed);
		if (fabs(log(b / a) / log(1.01)) >= min_s)
			count++;
	}
	*prm->slot = v0;
	return count;
}

/* Adds candidate name to the fit when the rows determine it. */
/* Records prm, which too few rows move to be fitted, as kept at its profile
 * value (once; a later round may still fit it: prune_kept()). */
static void note_kept(struct rv_calibration *c, const struct rv_param *prm, size_t rows)
{
	struct rv_cal_kept *k = NULL;

	for (size_t j = 0; j < c->n_kept && !k; j++)
		if (strcmp(c->kept[j].name, prm->name) == 0)
			k = &c->kept[j];
	if (!k) {
		if (c->n_kept == RV_CAL_MAX_PARAMS)
			return;
		k = &c->kept[c->n_kept++];
		(void)snprintf(k->name, sizeof(k->name), "%s", prm->name);
		k->unit = prm->unit;
		k->value = *prm->slot;
	}
	k->sensitive_rows = rows;
}

/* Drops from the kept list what a later round fitted after all. */
static void prune_kept(struct rv_calibration *c)
{
	size_t n = 0;

	for (size_t j = 0; j < c->n_kept; j++) {
		int fitted = 0;

		for (size_t i = 0; i < c->n_params && !fitted; i++)
			fitted = strcmp(c->params[i].prm.name, c->kept[j].name) == 0;
		if (!fitted)
			c->kept[n++] = c->kept[j];
	}
	c->n_kept = n;
}

/* A call's fixed overhead is at most the fastest call of op among x's rows:
 * cp's rows_max (0 when x has no row of op). */
static void bound_by_fastest_call(const struct fit_ctx *x, struct rv_cal_param *cp, enum rv_op op)
{
	const struct rv_cal_row *fastest = NULL;
	char shape[80];

	for (size_t i = 0; i < x->n_rows; i++) {
		const struct rv_cal_row *r = &x->c->rows[x->rows[i]];

		if (r->op == op && (!fastest || r->latency_s < fastest->latency_s))
			fastest = r;
	}
	if (!fastest)
		return;
	(void)rv_shape_format(shape, sizeof(shape), &fastest->shape);
	(void)snprintf(cp->rows_max_what, sizeof(cp->rows_max_what),
	               "the fastest %s call measured (%s)", rv_op_name(op), shape);
	cp->rows_max = fastest->latency_s;
}

static int consider(struct fit_ctx *x, const char *name, int energy)
{
	struct rv_calibration *c = x->c;
	struct rv_param prm;
	double min_s = energy ? CAL_MIN_SENSITIVITY_ENERGY : CAL_MIN_SENSITIVITY_LATENCY;
	size_t rows;

	if (rv_param_resolve(&prm, x->p, name) < 0 || !(*prm.slot > 0))
		return 0; /* not a parameter here, or a penalty turned off */
	for (size_t j = 0; j < c->n_params; j++)
		if (strcmp(c->params[j].prm.name, name) == 0)
			return 0;
	if ((rows = sensitive_rows(x, &prm, min_s)) < CAL_MIN_SENSITIVE_ROWS) {
		note_kept(c, &prm, rows);
		return 0;
	}
	if (c->n_params == RV_CAL_MAX_PARAMS)
		return rv_error_set(RV_ERANGE, "more than %d parameters", RV_CAL_MAX_PARAMS);
	c->params[c->n_params].rows_max = 0;
	c->params[c->n_params].rows_max_what[0] = '\0';
	c->params[c->n_params].prm = prm;
	c->params[c->n_params].profile_value = *prm.slot;
	c->params[c->n_params].value = *prm.slot;
	c->params[c->n_params].energy = energy;
	x->params[x->n_params++] = c->n_params++;
	return 0;
}

static int choose_params(struct fit_ctx *x)
{
	struct rv_calibration *c = x->c;
	char name[96];
	int err = 0;

	if (x->energy) {
		err = consider(x, "power.static_W", 1);
		for (size_t i = 0; err == 0 && i < x->p->n_compute; i++) {
			(void)snprintf(name, sizeof(name), "power.energy_per_flop_J.%s",
			               rv_dtype_name(x->p->compute[i].dtype));
			err = consider(x, name, 1);
		}
		for (size_t i = 0; err == 0 && i < x->p->n_memory; i++) {
			(void)snprintf(name, sizeof(name), "power.energy_per_byte_J.%s",
			               rv_tier_name(x->p->memory[i].tier));
			err = consider(x, name, 1);
		}
		return err;
	}
	for (size_t s = 0; err == 0 && s < c->n_sources; s++) {
		size_t before = c->n_params;

		(void)snprintf(name, sizeof(name), "call_overhead.%s.latency_s",
		               rv_op_name(c->sources[s].op));
		err = consider(x, name, 0);
		if (err == 0 && c->n_params > before)
			bound_by_fastest_call(x, &c->params[before], c->sources[s].op);
	}
	for (size_t i = 0; err == 0 && i < x->p->n_compute; i++) {
		(void)snprintf(name, sizeof(name), "compute.%s.effective_flop_per_s",
		               rv_dtype_name(x->p->compute[i].dtype));
		err = consider(x, name, 0);
	}
	for (size_t i = 0; err == 0 && i < x->p->n_memory; i++) {
		(void)snprintf(name, sizeof(name), "memory.%s.effective_bw_Bps",
		               rv_tier_name(x->p->memory[i].tier));
		err = consider(x, name, 0);
	}
	/* The share of the shared last-level cache (the tier just inside dram) that
	 * a repeated call keeps; the private tiers keep their capacity. */
	if (err == 0 && x->p->n_memory >= 2) {
		(void)snprintf(name, sizeof(name), "memory.%s.effective_capacity_B",
		               rv_tier_name(x->p->memory[x->p->n_memory - 2].tier));
		err = consider(x, name, 0);
	}
	/* Every declared parameter of the profile (hw/params.def) in its order:
	 * one whose value is 0 is a term switched off (consider() skips it),
	 * and one fitted only where stated (gemm.pack_passes: its default 2 is
	 * not refitted) is skipped unless the profile states it. */
	for (size_t i = 0; err == 0 && i < rv_n_param_decls; i++) {
		const struct rv_param_decl *decl = &rv_param_decls[i];

		if (decl->gate == RV_PARAM_GATE_FIT_IF_STATED && !rv_param_decl_stated(decl, x->p))
			continue;
		err = consider(x, decl->name, 0);
	}
	return err;
}

/* Leave-one-family-out at the fit v (weights w): each family of the rows of
 * x withheld in turn (weight 0), what only that family determined put back
 * to its profile value and the rest refitted from v (vl: scratch), the
 * withheld rows predicted; the move of each parameter, whether fewer than
 * two remaining rows move it and whether it kept its profile value,
 * recorded in the family. */
static int lofo_stage(struct fit_ctx *x, const gsl_vector *v, gsl_vector *w, gsl_vector *vl)
{
	struct rv_calibration *c = x->c;
	size_t n = x->n_rows, np = x->n_params;
	double min_s = x->energy ? CAL_MIN_SENSITIVITY_ENERGY : CAL_MIN_SENSITIVITY_LATENCY;
	unsigned char *sens = calloc(n * np + 1, 1);
	size_t *free_params = malloc((np + 1) * sizeof(*free_params));
	gsl_vector *w0 = gsl_vector_alloc(n);
	int err = 0;

	if (!sens || !free_params || !w0) {
		free(sens);
		free(free_params);
		if (w0)
			gsl_vector_free(w0);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	gsl_vector_memcpy(w0, w);
	/* Which rows each parameter moves, at the fit. */
	for (size_t j = 0; j < np && !x->failed; j++) {
		struct rv_param *prm = &c->params[x->params[j]].prm;
		double v0 = *prm->slot;

		for (size_t i = 0; i < n && !x->failed; i++) {
			const struct rv_cal_row *r = &c->rows[x->rows[i]];
			double a, b;

			*prm->slot = v0;
			apply_ties(c);
			a = predict_row(x->p, r, x->energy, r->latency_s, &x->failed);
			*prm->slot = v0 * 1.01;
			apply_ties(c);
			b = predict_row(x->p, r, x->energy, r->latency_s, &x->failed);
			sens[i * np + j] = fabs(log(b / a) / log(1.01)) >= min_s;
		}
		*prm->slot = v0;
		apply_ties(c);
	}
	for (size_t f = 0; f < c->n_families && err == 0 && !x->failed; f++) {
		struct rv_cal_family *fam = &c->families[f];
		size_t held = 0, left = 0;

		for (size_t i = 0; i < n; i++) {
			if (c->rows[x->rows[i]].family_index == f) {
				held++;
				gsl_vector_set(w, i, 0.0);
			} else if (gsl_vector_get(w0, i) > 0) {
				left++;
			}
		}
		if (held == 0)
			continue;
		for (size_t j = 0; j < np; j++) {
			size_t moved = 0, all = 0;

			for (size_t i = 0; i < n; i++) {
				moved += sens[i * np + j] && gsl_vector_get(w, i) > 0;
				all += sens[i * np + j] && gsl_vector_get(w0, i) > 0;
			}
			fam->alone[x->params[j]] = moved < CAL_MIN_SENSITIVE_ROWS;
			/* The family is what determined it: without it, calibrate
			 * would keep the profile's value (and a parameter no row
			 * moves at the fit predicts nothing either way). */
			fam->profile_kept[x->params[j]] =
			        fam->alone[x->params[j]] && all >= CAL_MIN_SENSITIVE_ROWS;
		}
		/* Too few rows left to fit: the withheld rows get no prediction. */
		if (left > np) {
			/* The fold is calibrate without the family: what only the
			 * family determined keeps its profile value, as a value no
			 * row determines does in the fit itself; the rest is refitted
			 * from the fit. */
			struct fit_ctx xf = *x;
			size_t nf = 0;
			gsl_vector_view vf;

			xf.params = free_params;
			for (size_t j = 0; j < np; j++) {
				struct rv_cal_param *cp = &c->params[x->params[j]];

				if (fam->profile_kept[x->params[j]]) {
					*cp->prm.slot = cp->profile_value;
					continue;
				}
				gsl_vector_set(vl, nf, gsl_vector_get(v, j));
				free_params[nf++] = x->params[j];
			}
			xf.n_params = nf;
			apply_ties(c);
			vf = gsl_vector_subvector(vl, 0, nf ? nf : 1);
			err = nf ? solve(&xf, &vf.vector, w, NULL, NULL) : 0;
			x->failed = xf.failed;
			/* As the fold predicts: within its bounds (set_params()). */
			for (size_t j = 0; err == 0 && j < np; j++)
				fam->move[x->params[j]] = *c->params[x->params[j]].prm.slot /
				                                  c->params[x->params[j]].value -
				                          1;
			for (size_t i = 0; err == 0 && i < n; i++) {
				struct rv_cal_row *r = &c->rows[x->rows[i]];

				if (r->family_index != f)
					continue;
				*(x->energy ? &r->lofo_energy_J : &r->lofo_latency_s) = predict_row(
				        x->p, r, x->energy, r->lofo_latency_s, &x->failed);
			}
		} else {
			for (size_t j = 0; j < np; j++) {
				fam->alone[x->params[j]] = 1;
				fam->profile_kept[x->params[j]] = 0;
			}
		}
		gsl_vector_memcpy(w, w0);
	}
	gsl_vector_memcpy(w, w0);
	gsl_vector_free(w0);
	free(sens);
	free(free_params);
	if (err == 0 && x->failed)
		err = rv_error_set(RV_ERROR, "a prediction failed");
	return err;
}

/* Fits the chosen parameters of x (robustly), with their uncertainties, then
 * the leave-one-out and leave-one-family-out prediction of every row. Returns 1 when it dropped an
 * undetermined parameter and must run again. */
static int fit_stage(struct fit_ctx *x)
{
	struct rv_calibration *c = x->c;
	size_t n = x->n_rows, np = x->n_params;
	gsl_vector *v = NULL, *vfit = NULL, *w = NULL, *f = NULL;
	gsl_matrix *covar = NULL;
	double *scratch = NULL, chisq = 0;
	int err = 0;

	if (np == 0 || n == 0)
		return 0;
	if (n <= np)
		return rv_error_set(RV_ERROR,
		                    "%zu %s rows for %zu parameters; capture more "
		                    "calibration shapes (more rows than parameters are needed)",
		                    n, x->energy ? "energy" : "latency", np);
	v = gsl_vector_alloc(np);
	vfit = gsl_vector_alloc(np);
	w = gsl_vector_alloc(n);
	f = gsl_vector_alloc(n);
	covar = gsl_matrix_alloc(np, np);
	scratch = malloc(n * sizeof(double));
	if (!v || !vfit || !w || !f || !covar || !scratch) {
		err = rv_error_set(RV_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t j = 0; j < np; j++)
		gsl_vector_set(v, j, log(c->params[x->params[j]].value));
	gsl_vector_set_all(w, 1.0);
	for (int it = 0; it < CAL_MAX_REWEIGHTS; it++) {
		if ((err = solve(x, v, w, NULL, NULL)) < 0)
			goto out;
		(void)residuals(v, x, f);
		if (huber_weights(f, w, scratch) < 1e-6)
			break;
	}
	if ((err = solve(x, v, w, covar, &chisq)) < 0)
		goto out;
	/* A parameter the rows cannot tell apart from the others (a zero or huge
	 * variance) keeps its profile value; the rest are fitted again. */
	{
		size_t worst = np;
		double worst_var = CAL_MAX_LOG_VARIANCE;

		for (size_t j = 0; j < np; j++) {
			double var = gsl_matrix_get(covar, j, j) * chisq / (double)(n - np);

			if (!(gsl_matrix_get(covar, j, j) > 0) || !isfinite(var))
				var = HUGE_VAL;
			if (var > worst_var) {
				worst = j;
				worst_var = var;
			}
		}
		if (worst < np) {
			struct rv_cal_param *cp = &c->params[x->params[worst]];
			double fitted = exp(gsl_vector_get(v, worst));

			/* A small-dimension penalty driven to zero is a finding (there is
			 * none), not a lack of information: it is switched off. */
			if (cp->prm.allow_zero) {
				if (fitted < 1e-3 * cp->profile_value) {
					*cp->prm.slot = cp->value = 0;
					cp->switched_off = 1;
				}
			}
			if (!cp->switched_off && cp->rows_max > 0 &&
			    cp->profile_value > cp->rows_max) {
				char unit[16];

				(void)snprintf(unit, sizeof(unit), "%s%s", *cp->prm.unit ? " " : "",
				               cp->prm.unit);
				err = rv_error_set(
				        RV_ERANGE,
				        "refused: these rows do not determine %s (fitted %.3g%s "
				        "+- %.0f%%), and its profile value, %.3g%s, is above %s, "
				        "%.3g%s: state a value below that in the profile; no fit "
				        "file was written",
				        cp->prm.name, fitted, unit, 100 * sqrt(worst_var),
				        cp->profile_value, unit, cp->rows_max_what, cp->rows_max,
				        unit);
				goto out;
			}
			if (!cp->switched_off) {
				if (!x->first_drop) {
					x->first_drop = cp;
					x->first_drop_value = fitted;
					x->first_drop_sigma = sqrt(worst_var);
				}
				*cp->prm.slot = cp->value = cp->profile_value;
				cp->undetermined = 1;
			}
			for (size_t j = worst; j + 1 < np; j++)
				x->params[j] = x->params[j + 1];
			x->n_params--;
			for (size_t j = 0; j < x->n_params; j++)
				c->params[x->params[j]].value =
				        exp(gsl_vector_get(v, j < worst ? j : j + 1));
			err = 1; /* fit again with one parameter fewer */
			goto out;
		}
	}
	for (size_t j = 0; j < np; j++) {
		struct rv_cal_param *cp = &c->params[x->params[j]];
		double var = gsl_matrix_get(covar, j, j) * chisq / (double)(n - np);

		cp->value = exp(gsl_vector_get(v, j));
		cp->uncertainty = sqrt(var);
	}
	/* Fitted: every row at the fit itself (before a leave-one-out fit moves
	 * the parameters), as rv_predict() computes it from the fit file. */
	set_params(x, v);
	for (size_t i = 0; i < n; i++) {
		struct rv_cal_row *r = &c->rows[x->rows[i]];

		*(x->energy ? &r->fit_energy_J : &r->fit_latency_s) =
		        predict_row(x->p, r, x->energy, (double)NAN, &x->failed);
	}
	/* The refits that predict rows they did not see obey the physics the
	 * full fit is held to: a value past its bound (a FLOP rate above the
	 * peak, a bandwidth above the datasheet's) would predict from a machine
	 * that cannot exist; it stays at the bound instead. */
	x->bounded = 1;
	for (size_t i = 0; i < n; i++) {
		struct rv_cal_row *r = &c->rows[x->rows[i]];
		double keep = gsl_vector_get(w, i);

		/* Leave row i out: weight 0, start from the full fit. */
		gsl_vector_memcpy(vfit, v);
		gsl_vector_set(w, i, 0.0);
		err = solve(x, vfit, w, NULL, NULL);
		gsl_vector_set(w, i, keep);
		if (err < 0)
			goto out;
		*(x->energy ? &r->loo_energy_J : &r->loo_latency_s) =
		        predict_row(x->p, r, x->energy, r->loo_latency_s, &x->failed);
	}
	set_params(x, v);
	err = lofo_stage(x, v, w, vfit);
	x->bounded = 0;
	set_params(x, v);
out:
	x->bounded = 0;
	free(scratch);
	gsl_matrix_free(covar);
	gsl_vector_free(f);
	gsl_vector_free(w);
	gsl_vector_free(vfit);
	gsl_vector_free(v);
	return err;
}

/* The row's prediction of one kind: fitted, leave-one-out or leave-one-family-out. */
enum cal_kind { CAL_FIT, CAL_LOO, CAL_LOFO };
static double row_value(const struct rv_cal_row *r, int energy, enum cal_kind k)
{
	if (energy)
		return k == CAL_FIT   ? r->fit_energy_J
		       : k == CAL_LOO ? r->loo_energy_J
		                      : r->lofo_energy_J;
	return k == CAL_FIT   ? r->fit_latency_s
	       : k == CAL_LOO ? r->loo_latency_s
	                      : r->lofo_latency_s;
}

/* Median |relative error| of the predictions of kind k, and the share within
 * their band, over the rows of op (every op when op is RV_OP_COUNT) and of
 * family fam (every family when fam is SIZE_MAX). A row without a prediction
 * counts outside its band and not in the median. */
static void summarize(const struct rv_calibration *c, int energy, enum rv_op op, size_t fam,
                      enum cal_kind k, double *median, double *within)
{
	double *a = malloc((c->n_rows + 1) * sizeof(double));
	size_t n = 0, n_pred = 0, in = 0;

	*median = *within = (double)NAN;
	if (!a)
		return;
	for (size_t i = 0; i < c->n_rows; i++) {
		const struct rv_cal_row *r = &c->rows[i];
		double meas = energy ? r->energy_J : r->latency_s;
		double e = fabs(row_value(r, energy, k) / meas - 1);

		if (isnan(meas) || (op != RV_OP_COUNT && r->op != op) ||
		    (fam != SIZE_MAX && r->family_index != fam))
			continue;
		n++;
		if (isnan(e))
			continue;
		a[n_pred++] = e;
		in += e <= (energy ? r->band.energy : r->band.latency);
	}
	if (n_pred)
		*median = rv_median(a, n_pred);
	if (n)
		*within = (double)in / (double)n;
	free(a);
}

/* Chooses parameters and fits them, again at the fitted point (a term can
 * matter only once another has moved) until no new parameter enters. */
static int fit_rounds(struct fit_ctx *x)
{
	struct rv_calibration *c = x->c;
	int err = 0;

	for (int round = 0; round < 4; round++) {
		size_t before = c->n_params;

		if ((err = choose_params(x)) < 0)
			return err;
		if (round > 0 && c->n_params == before)
			break;
		while ((err = fit_stage(x)) == 1)
			;
		if (err < 0)
			return err;
	}
	return 0;
}

/* Groups the rows by (op, family), in order of first appearance. */
static int find_families(struct rv_calibration *c)
{
	c->n_families = 0;
	for (size_t i = 0; i < c->n_rows; i++) {
		struct rv_cal_row *r = &c->rows[i];
		size_t f;

		for (f = 0; f < c->n_families; f++)
			if (c->families[f].op == r->op &&
			    strcmp(c->families[f].name, r->family) == 0)
				break;
		if (f == c->n_families) {
			struct rv_cal_family *fam = &c->families[f];

			if (f == RV_CAL_MAX_FAMILIES)
				return rv_error_set(RV_ERANGE, "more than %d families of rows",
				                    RV_CAL_MAX_FAMILIES);
			memset(fam, 0, sizeof(*fam));
			fam->op = r->op;
			(void)snprintf(fam->name, sizeof(fam->name), "%s", r->family);
			for (size_t j = 0; j < RV_CAL_MAX_PARAMS; j++)
				fam->move[j] = (double)NAN;
			c->n_families++;
		}
		r->family_index = f;
		c->families[f].rows++;
		c->families[f].energy_rows += !isnan(r->energy_J);
	}
	return 0;
}

/* Whether tier i is slower than tier i + 1 outside it; a and b receive the
 * names of their effective-bandwidth parameters. */
static int out_of_order(const struct rv_profile *p, size_t i, char a[96], char b[96])
{
	if (!(p->memory[i].effective_bw_Bps < p->memory[i + 1].effective_bw_Bps))
		return 0;
	(void)snprintf(a, 96, "memory.%s.effective_bw_Bps", rv_tier_name(p->memory[i].tier));
	(void)snprintf(b, 96, "memory.%s.effective_bw_Bps", rv_tier_name(p->memory[i + 1].tier));
	return 1;
}

/* The index of parameter name among the active ones of x, or SIZE_MAX. */
static size_t active_param(const struct fit_ctx *x, const char *name)
{
	for (size_t j = 0; j < x->n_params; j++)
		if (strcmp(x->c->params[x->params[j]].prm.name, name) == 0)
			return j;
	return SIZE_MAX;
}

/* The parameter called name among all of c's, or SIZE_MAX. */
static size_t param_named(const struct rv_calibration *c, const char *name)
{
	for (size_t j = 0; j < c->n_params; j++)
		if (strcmp(c->params[j].prm.name, name) == 0)
			return j;
	return SIZE_MAX;
}

/* The parameter called name of c, made one when no row moved it (it kept
 * its profile value: the kept list has it, until prune_kept()), marked
 * undetermined; SIZE_MAX when it is none here or there is no room. */
static size_t param_or_kept(struct rv_calibration *c, struct rv_profile *p, const char *name)
{
	size_t j = param_named(c, name);
	struct rv_cal_param *cp;
	struct rv_param prm;

	if (j != SIZE_MAX || c->n_params == RV_CAL_MAX_PARAMS ||
	    rv_param_resolve(&prm, p, name) < 0)
		return j;
	cp = &c->params[c->n_params];
	memset(cp, 0, sizeof(*cp));
	cp->prm = prm;
	cp->profile_value = cp->value = *prm.slot;
	cp->undetermined = 1;
	return c->n_params++;
}

/* Where a fitted effective bandwidth is faster than that of the fitted tier
 * just inside it, holds the inner one equal to the outer (the constrained
 * optimum lies on that boundary) and returns 1: fit again. 0 when ordered
 * (or when a tier in the way is not fitted: order_undetermined() or
 * rv_param_check_order()). */
static int order_ties(struct fit_ctx *x)
{
	struct rv_calibration *c = x->c;
	const struct rv_profile *p = x->p;

	for (size_t i = 0; i + 1 < p->n_memory; i++) {
		char a[96], b[96];
		size_t ja, jb;

		if (!out_of_order(p, i, a, b))
			continue;
		ja = active_param(x, a);
		jb = active_param(x, b);
		if (ja == SIZE_MAX || jb == SIZE_MAX)
			return 0;
		c->params[x->params[ja]].tied_to = x->params[jb] + 1;
		for (size_t j = ja; j + 1 < x->n_params; j++)
			x->params[j] = x->params[j + 1];
		x->n_params--;
		apply_ties(c);
		return 1;
	}
	return 0;
}

/* Where the rows do not determine a tier's effective bandwidth (or no row
 * moves it at all) but do determine the slower one just inside it, the
 * outer tier cannot keep a faster profile value: it is held equal to the
 * inner one (bandwidths must not grow outwards), as a tie the report shows.
 * On a machine or build that runs every tier at the same speed (valgrind, a
 * sanitizer) the rows then fit instead of being refused. Returns how many
 * were held. */
static size_t order_undetermined(struct rv_calibration *c, struct rv_profile *p)
{
	size_t ties = 0;

	for (size_t i = 0; i + 1 < p->n_memory; i++) {
		char a[96], b[96];
		size_t ja, jb;

		if (!out_of_order(p, i, a, b))
			continue;
		ja = param_named(c, a);
		if (ja == SIZE_MAX || c->params[ja].undetermined)
			continue;
		jb = param_or_kept(c, p, b);
		if (jb == SIZE_MAX || !c->params[jb].undetermined)
			continue;
		c->params[jb].undetermined = 0;
		c->params[jb].tied_to = ja + 1;
		apply_ties(c);
		ties++;
	}
	return ties;
}

/* The summaries of c: overall, per op and per family. */
static void summarize_all(struct rv_calibration *c)
{
	double unused;

	summarize(c, 0, RV_OP_COUNT, SIZE_MAX, CAL_FIT, &c->lat_median_ape, &unused);
	summarize(c, 0, RV_OP_COUNT, SIZE_MAX, CAL_LOO, &c->lat_loo_median_ape,
	          &c->lat_loo_within_band);
	summarize(c, 0, RV_OP_COUNT, SIZE_MAX, CAL_LOFO, &c->lat_lofo_median_ape,
	          &c->lat_lofo_within_band);
	summarize(c, 1, RV_OP_COUNT, SIZE_MAX, CAL_FIT, &c->en_median_ape, &unused);
	summarize(c, 1, RV_OP_COUNT, SIZE_MAX, CAL_LOO, &c->en_loo_median_ape,
	          &c->en_loo_within_band);
	summarize(c, 1, RV_OP_COUNT, SIZE_MAX, CAL_LOFO, &c->en_lofo_median_ape,
	          &c->en_lofo_within_band);
	for (size_t i = 0; i < c->n_sources; i++) {
		struct rv_cal_source *src = &c->sources[i];

		summarize(c, 0, src->op, SIZE_MAX, CAL_LOO, &src->lat_loo_median_ape,
		          &src->lat_loo_within_band);
		summarize(c, 1, src->op, SIZE_MAX, CAL_LOO, &src->en_loo_median_ape,
		          &src->en_loo_within_band);
		summarize(c, 0, src->op, SIZE_MAX, CAL_LOFO, &src->lat_lofo_median_ape,
		          &src->lat_lofo_within_band);
		summarize(c, 1, src->op, SIZE_MAX, CAL_LOFO, &src->en_lofo_median_ape,
		          &src->en_lofo_within_band);
	}
	for (size_t f = 0; f < c->n_families; f++) {
		struct rv_cal_family *fam = &c->families[f];
		double within;

		summarize(c, 0, fam->op, f, CAL_LOFO, &fam->lat_median_ape, &within);
		fam->in_band = (size_t)lround(within * (double)fam->rows);
		if (fam->energy_rows) {
			summarize(c, 1, fam->op, f, CAL_LOFO, &unused, &within);
			fam->energy_in_band = (size_t)lround(within * (double)fam->energy_rows);
		}
	}
	/* A parameter that a family's withholding moves by more than its 1 sigma
	 * (in log space, as it is fitted), or leaves moving fewer than two rows, is
	 * not determined by these rows. */
	for (size_t j = 0; j < c->n_params; j++) {
		struct rv_cal_param *cp = &c->params[j];

		cp->lofo_max_move = (double)NAN;
		cp->lofo_max_family = 0;
		cp->lofo_not_determined = 0;
		if (cp->undetermined || cp->switched_off)
			continue;
		for (size_t f = 0; f < c->n_families; f++) {
			double m = c->families[f].move[j];

			if (c->families[f].alone[j])
				cp->lofo_not_determined = 1;
			if (isnan(m))
				continue;
			if (fabs(log1p(m)) > cp->uncertainty)
				cp->lofo_not_determined = 1;
			if (isnan(cp->lofo_max_move) || fabs(m) > fabs(cp->lofo_max_move)) {
				cp->lofo_max_move = m;
				cp->lofo_max_family = f;
			}
		}
	}
}

int rv_calibrate_fit(struct rv_calibration *c, struct rv_profile *p)
{
	struct fit_ctx x;
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	int err = 0;

	memset(&x, 0, sizeof(x));
	x.c = c;
	x.p = p;
	x.rows = malloc((c->n_rows + 1) * sizeof(size_t));
	x.params = malloc(RV_CAL_MAX_PARAMS * sizeof(size_t));
	if (!x.rows || !x.params) {
		err = rv_error_set(RV_ENOMEM, "out of memory");
		goto out;
	}
	if (c->n_rows == 0) {
		err = rv_error_set(RV_ERROR,
		                   "no calibration rows for %s; capture the "
		                   "shapes of its calibration sweeps first",
		                   p->key);
		goto out;
	}
	for (size_t i = 0; i < c->n_rows; i++) {
		struct rv_cal_row *r = &c->rows[i];

		r->fit_energy_J = r->loo_energy_J = r->lofo_energy_J = (double)NAN;
		r->lofo_latency_s = (double)NAN;
		x.rows[x.n_rows++] = i;
	}
	if ((err = find_families(c)) < 0)
		goto out;
	/* Stage 1: latency, its effective bandwidths ordered from the inner tier out. */
	if ((err = fit_rounds(&x)) < 0)
		goto restore;
	while ((err = order_ties(&x)) == 1) {
		while ((err = fit_stage(&x)) == 1)
			;
		if (err < 0)
			goto restore;
	}
	if (err < 0)
		goto restore;
	if (x.n_params == 0 && x.first_drop && isfinite(x.first_drop_sigma)) {
		const struct rv_cal_param *d = x.first_drop;

		err = rv_error_set(RV_ERROR,
		                   "degenerate fit: the %zu calibration rows determine no latency "
		                   "parameter of %s once %s (fitted %.3g, +/- %.0f%%) went back to "
		                   "its profile value %.3g; if that is far from this machine's, "
		                   "state a closer one in the profile, else capture shapes that "
		                   "exercise its compute, memory and per-call overhead",
		                   c->n_rows, p->key, d->prm.name, x.first_drop_value,
		                   100 * x.first_drop_sigma, d->profile_value);
		goto restore;
	}
	if (x.n_params == 0) {
		err = rv_error_set(RV_ERROR,
		                   "degenerate fit: the %zu calibration rows determine no latency "
		                   "parameter of %s; capture shapes that exercise its compute, "
		                   "memory and per-call overhead",
		                   c->n_rows, p->key);
		goto restore;
	}
	/* Stage 2: energy, on its own rows, with the latency parameters fixed. */
	x.energy = 1;
	x.n_rows = x.n_params = 0;
	for (size_t i = 0; i < c->n_rows; i++)
		if (!isnan(c->rows[i].energy_J))
			x.rows[x.n_rows++] = i;
	if (x.n_rows) {
		if ((err = fit_rounds(&x)) < 0)
			goto restore;
	}
	/* Physical or refused. A tier held equal after the fit moves the fitted
	 * rows it serves: predict them again, as rv_predict() will. */
	if (order_undetermined(c, p)) {
		int failed = 0;

		for (size_t i = 0; i < c->n_rows; i++) {
			struct rv_cal_row *r = &c->rows[i];

			r->fit_latency_s = predict_row(p, r, 0, (double)NAN, &failed);
			if (!isnan(r->fit_energy_J))
				r->fit_energy_J = predict_row(p, r, 1, (double)NAN, &failed);
		}
	}
	apply_ties(c);
	for (size_t j = 0; j < c->n_params; j++) {
		struct rv_cal_param *cp = &c->params[j];

		if (cp->tied_to) {
			const struct rv_cal_param *root = &c->params[tie_root(c, j)];

			cp->value = *cp->prm.slot;
			cp->uncertainty = root->uncertainty;
			for (size_t f = 0; f < c->n_families; f++) {
				c->families[f].move[j] = c->families[f].move[tie_root(c, j)];
				c->families[f].alone[j] = c->families[f].alone[tie_root(c, j)];
			}
		}
	}
	if (rv_param_check_order(p) < 0) {
		err = rv_error_set(RV_ERANGE,
		                   "refused: %s; the model lacks a term these rows need, or a "
		                   "baseline is wrong; no fit file was written",
		                   rv_error_last());
		goto restore;
	}
	for (size_t j = 0; j < c->n_params; j++) {
		if (c->params[j].undetermined || c->params[j].switched_off)
			continue;
		if (rv_param_check(&c->params[j].prm, c->params[j].value) < 0) {
			err = rv_error_set(RV_ERANGE,
			                   "refused: %s; the model lacks a term these rows "
			                   "need, or a baseline is wrong; no fit file was written",
			                   rv_error_last());
			goto restore;
		}
	}
	prune_kept(c);
	summarize_all(c);
	goto out;
restore:
	/* Every parameter, fitted or held equal to another, back to the value
	 * the profile had when it became one. */
	for (size_t j = 0; j < c->n_params; j++)
		*c->params[j].prm.slot = c->params[j].profile_value;
out:
	free(x.rows);
	free(x.params);
	(void)gsl_set_error_handler(old);
	return err;
}

static json_t *num_or_null(double v)
{
	/* A zero is written 0.0 whatever its sign: no file holds -0.0. */
	return isfinite(v) ? json_real(fpclassify(v) == FP_ZERO ? 0.0 : v) : json_null();
}

int rv_calibrate_render(struct rv_buf *out, const struct rv_calibration *c,
                        const struct rv_profile *p, const char *date)
{
	json_t *root = json_object(), *params = json_object(), *bases = json_array();
	json_t *resid = json_array();
	char shape[80], *text = NULL;
	int bad = !root || !params || !bases || !resid;

	for (size_t i = 0; !bad && i < c->n_sources; i++) {
		const struct rv_cal_source *s = &c->sources[i];

		bad = json_array_append_new(
		              bases, json_pack("{s:s, s:s, s:I, s:I, s:I}", "file", s->file, "op",
		                               rv_op_name(s->op), "rows_in_file",
		                               (json_int_t)s->rows_in_file, "calibration_rows",
		                               (json_int_t)s->rows, "energy_rows",
		                               (json_int_t)s->energy_rows)) != 0;
	}
	for (size_t j = 0; !bad && j < c->n_params; j++) {
		const struct rv_cal_param *cp = &c->params[j];

		if (cp->undetermined)
			continue;
		/* A penalty switched off is written as 0 (without an uncertainty). */
		bad = json_object_set_new(params, cp->prm.name,
		                          cp->switched_off
		                                  ? json_pack("{s:f, s:f}", "value", 0.0, "profile",
		                                              cp->profile_value)
		                                  : json_pack("{s:f, s:f, s:f}", "value", cp->value,
		                                              "uncertainty", cp->uncertainty,
		                                              "profile", cp->profile_value)) != 0;
	}
	for (size_t i = 0; !bad && i < c->n_rows; i++) {
		const struct rv_cal_row *r = &c->rows[i];

		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		bad = json_array_append_new(
		              resid,
		              json_pack("{s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:o, s:o, s:o, s:o, "
		                        "s:o}",
		                        "op", rv_op_name(r->op), "shape", shape, "dtype",
		                        rv_dtype_name(r->dtype), "family", r->family,
		                        "latency_measured_s", r->latency_s, "latency_fitted_s",
		                        r->fit_latency_s, "latency_loo_s", r->loo_latency_s,
		                        "latency_lofo_s", num_or_null(r->lofo_latency_s),
		                        "energy_measured_j", num_or_null(r->energy_J),
		                        "energy_fitted_j", num_or_null(r->fit_energy_J),
		                        "energy_loo_j", num_or_null(r->loo_energy_J),
		                        "energy_lofo_j", num_or_null(r->lofo_energy_J))) != 0;
	}
	if (!bad)
		bad = json_object_set_new(root, "schema", json_string(RV_FIT_SCHEMA)) ||
		      json_object_set_new(root, "hardware", json_string(p->key)) ||
		      json_object_set_new(root, "generated_by",
		                          json_string("roofval calibrate " RV_VERSION)) ||
		      json_object_set_new(root, "date", json_string(date)) ||
		      json_object_set(root, "baselines", bases) ||
		      json_object_set(root, "parameters", params) ||
		      json_object_set(root, "residuals", resid) ||
		      json_object_set_new(
		              root, "latency",
		              json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "rows",
		                        (json_int_t)c->n_rows, "median_abs_error",
		                        num_or_null(c->lat_median_ape), "loo_median_abs_error",
		                        num_or_null(c->lat_loo_median_ape), "loo_within_band",
		                        num_or_null(c->lat_loo_within_band),
		                        "lofo_median_abs_error",
		                        num_or_null(c->lat_lofo_median_ape), "lofo_within_band",
		                        num_or_null(c->lat_lofo_within_band))) ||
		      json_object_set_new(
		              root, "energy",
		              json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}", "rows",
		                        (json_int_t)c->n_energy_rows, "median_abs_error",
		                        num_or_null(c->en_median_ape), "loo_median_abs_error",
		                        num_or_null(c->en_loo_median_ape), "loo_within_band",
		                        num_or_null(c->en_loo_within_band), "lofo_median_abs_error",
		                        num_or_null(c->en_lofo_median_ape), "lofo_within_band",
		                        num_or_null(c->en_lofo_within_band)));
	if (!bad)
		text = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	json_decref(bases);
	json_decref(params);
	json_decref(resid);
	json_decref(root);
	if (!text)
		return rv_error_set(RV_ENOMEM, "out of memory while writing the fit file");
	rv_buf_puts(out, text);
	rv_buf_putc(out, '\n');
	free(text);
	return rv_buf_check(out);
}

/* The state of a parameter, in words. */
static const char *param_state(const struct rv_cal_param *cp)
{
	if (cp->switched_off)
		return "switched_off";
	if (cp->undetermined)
		return "undetermined";
	if (cp->tied_to)
		return "tied";
	return cp->lofo_not_determined ? "not_determined_by_families" : "fitted";
}

int rv_calibrate_render_report(struct rv_buf *out, const struct rv_calibration *c,
                               const struct rv_profile *p)
{
	json_t *root = json_object(), *rows = json_array(), *params = json_array();
	json_t *ops = json_array(), *fams = json_array(), *kept = json_array();
	char shape[80], *text = NULL;
	int bad = !root || !rows || !params || !ops || !fams || !kept;

	for (size_t i = 0; !bad && i < c->n_rows; i++) {
		const struct rv_cal_row *r = &c->rows[i];

		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		bad = json_array_append_new(
		              rows, json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:o, s:o, "
		                              "s:o, s:o, "
		                              "s:o}",
		                              "op", rv_op_name(r->op), "shape", shape, "dtype",
		                              rv_dtype_name(r->dtype), "family", r->family, "label",
		                              rv_regime_name(r->regime), "measured_latency_s",
		                              r->latency_s, "fitted_latency_s", r->fit_latency_s,
		                              "loo_latency_s", r->loo_latency_s, "lofo_latency_s",
		                              num_or_null(r->lofo_latency_s), "measured_energy_J",
		                              num_or_null(r->energy_J), "fitted_energy_J",
		                              num_or_null(r->fit_energy_J), "loo_energy_J",
		                              num_or_null(r->loo_energy_J), "lofo_energy_J",
		                              num_or_null(r->lofo_energy_J))) != 0;
	}
	for (size_t j = 0; !bad && j < c->n_params; j++) {
		const struct rv_cal_param *cp = &c->params[j];
		json_t *moves = json_array(), *o;

		for (size_t f = 0; moves && f < c->n_families; f++) {
			const struct rv_cal_family *fam = &c->families[f];

			if (isnan(fam->move[j]) && !fam->alone[j])
				continue;
			if (json_array_append_new(
			            moves, json_pack("{s:s, s:s, s:o, s:b, s:b}", "op",
			                             rv_op_name(fam->op), "family", fam->name,
			                             "move", num_or_null(fam->move[j]),
			                             "remaining_rows_determine", !fam->alone[j],
			                             "profile_value_kept", fam->profile_kept[j])) !=
			    0)
				bad = 1;
		}
		o = json_pack("{s:s, s:s, s:f, s:f, s:o, s:s, s:o, s:o}", "name", cp->prm.name,
		              "unit", cp->prm.unit, "profile", cp->profile_value, "value",
		              cp->undetermined ? cp->profile_value : cp->value, "uncertainty",
		              cp->undetermined || cp->switched_off ? json_null()
		                                                   : num_or_null(cp->uncertainty),
		              "state", param_state(cp), "lofo_max_move",
		              num_or_null(cp->lofo_max_move), "lofo_moves",
		              moves ? moves : json_null());
		if (o && cp->tied_to)
			bad |= json_object_set_new(
			               o, "tied_to",
			               json_string(c->params[cp->tied_to - 1].prm.name)) != 0;
		bad |= !o || json_array_append_new(params, o) != 0;
	}
	for (size_t j = 0; !bad && j < c->n_kept; j++) {
		const struct rv_cal_kept *k = &c->kept[j];

		bad = json_array_append_new(kept, json_pack("{s:s, s:s, s:f, s:I}", "name", k->name,
		                                            "unit", k->unit, "profile", k->value,
		                                            "sensitive_rows",
		                                            (json_int_t)k->sensitive_rows)) != 0;
	}
	for (size_t f = 0; !bad && f < c->n_families; f++) {
		const struct rv_cal_family *fam = &c->families[f];

		bad = json_array_append_new(
		              fams,
		              json_pack("{s:s, s:s, s:I, s:I, s:o, s:I, s:I}", "op",
		                        rv_op_name(fam->op), "family", fam->name, "rows",
		                        (json_int_t)fam->rows, "lofo_within_band",
		                        (json_int_t)fam->in_band, "lofo_median_abs_error",
		                        num_or_null(fam->lat_median_ape), "energy_rows",
		                        (json_int_t)fam->energy_rows, "energy_lofo_within_band",
		                        (json_int_t)fam->energy_in_band)) != 0;
	}
	for (size_t i = 0; !bad && i < c->n_sources; i++) {
		const struct rv_cal_source *s = &c->sources[i];

		bad = json_array_append_new(
		              ops,
		              json_pack(
		                      "{s:s, s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
		                      "s:o, s:o, s:o, s:b}",
		                      "hardware", p->key, "op", rv_op_name(s->op), "rows",
		                      (json_int_t)s->rows, "energy_rows",
		                      (json_int_t)s->energy_rows, "loo_within_band",
		                      num_or_null(s->lat_loo_within_band), "loo_median_abs_error",
		                      num_or_null(s->lat_loo_median_ape), "lofo_within_band",
		                      num_or_null(s->lat_lofo_within_band), "lofo_median_abs_error",
		                      num_or_null(s->lat_lofo_median_ape), "energy_loo_within_band",
		                      num_or_null(s->en_loo_within_band),
		                      "energy_loo_median_abs_error",
		                      num_or_null(s->en_loo_median_ape), "energy_lofo_within_band",
		                      num_or_null(s->en_lofo_within_band),
		                      "energy_lofo_median_abs_error",
		                      num_or_null(s->en_lofo_median_ape), "round_trip_min_s",
		                      s->round_trip_min_s > 0 ? json_real(s->round_trip_min_s)
		                                              : json_null(),
		                      "round_trip_max_s",
		                      s->round_trip_max_s > 0 ? json_real(s->round_trip_max_s)
		                                              : json_null(),
		                      "placements_differ",
		                      rv_round_trips_apart(s->round_trip_min_s,
		                                           s->round_trip_max_s))) != 0;
	}
	if (!bad)
		bad = json_object_set_new(root, "schema", json_string("roofval.calibration/1")) ||
		      json_object_set_new(root, "hardware", json_string(p->key)) ||
		      json_object_set(root, "rows", rows) ||
		      json_object_set(root, "parameters", params) ||
		      json_object_set(root, "kept", kept) ||
		      json_object_set(root, "families", fams) || json_object_set(root, "ops", ops);
	if (!bad)
		text = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	json_decref(rows);
	json_decref(params);
	json_decref(kept);
	json_decref(fams);
	json_decref(ops);
	json_decref(root);
	if (!text)
		return rv_error_set(RV_ENOMEM,
		                    "out of memory while writing the calibration report");
	rv_buf_puts(out, text);
	rv_buf_putc(out, '\n');
	free(text);
	return rv_buf_check(out);
}
