/* SPDX-License-Identifier: MIT */
/* Calibration: fit a profile's free model parameters to the baseline rows of
 * its calibration sweep only, by robust nonlinear least squares (GSL) on
 * log(predicted / measured), then energy parameters on the rows whose energy
 * was measured well. Parameters stay physical or the fit is refused. */
#ifndef RV_MODEL_CALIBRATE_H
#define RV_MODEL_CALIBRATE_H

#include <stddef.h>

#include "core/buf.h"
#include "data/baseline.h"
#include "hw/fit.h"
#include "hw/profile.h"
#include "model/validate.h"
#include "sweep/sweep.h"

#define RV_CAL_MAX_PARAMS 32

struct rv_cal_row {
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
	enum rv_regime regime; /* the row's calibration label */
	struct rv_band band;   /* of that label */
	double latency_s;      /* measured */
	double energy_J;       /* measured; NAN when the row does not take part in the energy fit */
	/* Results. Energies are those over the fitted (or leave-one-out) latency,
	 * as validation predicts them; the energy fit itself uses the measured one. */
	double fit_latency_s, loo_latency_s;
	double fit_energy_J, loo_energy_J; /* NAN for rows without energy */
};

struct rv_cal_param {
	struct rv_param prm;
	double profile_value; /* before the fit */
	double value;         /* fitted */
	double uncertainty;   /* relative standard error (1 sigma) */
	int energy;           /* an energy parameter (fitted second) */
	int undetermined;     /* the rows could not determine it: it keeps profile_value */
	int switched_off;     /* a small-dimension penalty the rows drove to 0: value 0 */
};

struct rv_cal_source {
	char file[256]; /* base name of the baseline file */
	enum rv_op op;
	size_t rows_in_file, rows, energy_rows;
	/* Leave-one-out over this op's rows: median |relative error| and the
	 * share within band (NAN without rows). */
	double lat_loo_median_ape, lat_loo_within_band;
	double en_loo_median_ape, en_loo_within_band;
};

struct rv_calibration {
	struct rv_cal_row *rows;
	size_t n_rows, cap_rows, n_energy_rows;
	struct rv_cal_param params[RV_CAL_MAX_PARAMS];
	size_t n_params;
	struct rv_cal_source sources[RV_OP_COUNT];
	size_t n_sources;
	/* Summary: median |relative error| in-sample and leave-one-out, and the
	 * share of leave-one-out predictions within their label's band. */
	double lat_median_ape, lat_loo_median_ape, lat_loo_within_band;
	double en_median_ape, en_loo_median_ape, en_loo_within_band;
};

/* Adds the rows of baseline b whose (shape, dtype) the calibration sweep s
 * labels for p and scores (rv_sweep_label_scoreable(); dtypes p lacks left
 * out), each with its energy when rv_energy_scoreable(). Rows of
 * any other sweep never enter. baseline_file names b in the fit file. */
int rv_calibrate_add(struct rv_calibration *c, const struct rv_profile *p, const struct rv_sweep *s,
                     const struct rv_baseline *b, const char *baseline_file);

/* Chooses the parameters the rows determine, fits them, sets the fitted
 * values into p and fills the results. RV_ERANGE (refused) when a fitted
 * value is not physical; RV_ERROR when there are no more rows than
 * parameters or the fit is degenerate. p is left unchanged on failure. */
int rv_calibrate_fit(struct rv_calibration *c, struct rv_profile *p);

/* The fit file (schema roofval.fit/1), deterministic: sorted keys, date as
 * given (YYYY-MM-DD). */
int rv_calibrate_render(struct rv_buf *out, const struct rv_calibration *c,
                        const struct rv_profile *p, const char *date);

/* Leave-one-out within band of the rows of one (op, regime label). */
struct rv_cal_group {
	enum rv_op op;
	enum rv_regime regime;
	size_t rows, in_band;               /* latency */
	size_t energy_rows, energy_in_band; /* rows with energy */
};
/* The groups of the rows of source s of c that have rows, in regime order,
 * into out; returns their number. */
size_t rv_calibration_groups(const struct rv_calibration *c, size_t s,
                             struct rv_cal_group out[RV_REGIME_COUNT]);

void rv_calibration_free(struct rv_calibration *c);

#endif
