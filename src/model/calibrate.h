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
#define RV_CAL_FAMILY_MAX 48

/* A row's family: what leave-one-family-out withholds at once, within one op.
 *   matmul      "small:<dims> <size>"          dims: those of M, K, N that are
 *                                              <= 128 ("-": none), e.g. "small:MK large"
 *   linear      "<rows> small:<dims> <size>"   rows: M=1, M=2, M=3-7 or M>=8 (M =
 *                                              the batch B, K = IN, N = OUT)
 *   vector_add  "<size>"
 * size: the work at the datasheet peaks, max(FLOP / peak FLOP rate of the
 * dtype, compulsory bytes / DRAM bw_Bps), against the profile's per-call
 * overhead of the op: "launch" below 1x, "small" below 30x, else "large".
 * RV_EPARSE/RV_ERANGE when the shape does not fit op. */
#define RV_CAL_SMALL_DIM  128
#define RV_CAL_SMALL_WORK 1.0
#define RV_CAL_LARGE_WORK 30.0
int rv_cal_family(char out[RV_CAL_FAMILY_MAX], const struct rv_profile *p, enum rv_op op,
                  const struct rv_shape *s, enum rv_dtype d);

struct rv_cal_row {
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
	enum rv_regime regime; /* the row's calibration label */
	struct rv_band band;   /* of that label */
	double latency_s;      /* measured */
	double energy_J;       /* measured; NAN when the row does not take part in the energy fit */
	char family[RV_CAL_FAMILY_MAX]; /* rv_cal_family() on the hand-edited profile */
	size_t family_index;            /* into rv_calibration.families */
	/* Results. Energies are those over the fitted (or leave-one-out, or
	 * leave-one-family-out) latency, as validation predicts them; the energy
	 * fit itself uses the measured one. The fitted values are exactly what
	 * rv_predict() gives on the profile with the fit file applied. LOFO: the
	 * fit without the row's whole family (NAN when too few rows remain). */
	double fit_latency_s, loo_latency_s, lofo_latency_s;
	double fit_energy_J, loo_energy_J, lofo_energy_J; /* NAN for rows without energy */
};

struct rv_cal_param {
	struct rv_param prm;
	double profile_value; /* before the fit */
	double value;         /* fitted */
	double uncertainty;   /* relative standard error (1 sigma) */
	int energy;           /* an energy parameter (fitted second) */
	int undetermined;     /* the rows could not determine it: it keeps profile_value */
	int switched_off;     /* a small-dimension penalty the rows drove to 0: value 0 */
	/* The most the rows allow it, whatever they fit (a call's fixed
	 * overhead: the fastest call of its op measured), and what that is; 0
	 * and "" when they set none. An undetermined parameter whose profile
	 * value is above it is refused, not kept. */
	double rows_max;
	char rows_max_what[160];
	/* Held equal to params[tied_to - 1] (0: not tied): an effective bandwidth
	 * fitted faster than the next tier in, so that the order holds. */
	size_t tied_to;
	/* Leave-one-family-out: the largest |relative move| of the value when a
	 * family is withheld, and that family (index into families); not_determined:
	 * some family's withholding moves it by more than its 1 sigma, or leaves
	 * fewer than two rows that it moves ("not determined by these rows"). */
	double lofo_max_move;
	size_t lofo_max_family;
	int lofo_not_determined;
};

#define RV_CAL_MAX_FAMILIES 128
struct rv_cal_family {
	enum rv_op op;
	char name[RV_CAL_FAMILY_MAX];
	size_t rows, in_band;               /* LOFO latency within band */
	size_t energy_rows, energy_in_band; /* rows with energy */
	double lat_median_ape;              /* LOFO median |error|; NAN without predictions */
	/* Per parameter (index into params): relative move of the value with this
	 * family withheld (NAN: not fitted in that stage), whether fewer than
	 * two of the remaining rows move it, and whether the fold kept its
	 * profile value for that reason (the family was what determined it, as
	 * calibrate without the family would keep it). */
	double move[RV_CAL_MAX_PARAMS];
	int alone[RV_CAL_MAX_PARAMS];
	int profile_kept[RV_CAL_MAX_PARAMS];
};

struct rv_cal_source {
	char file[256]; /* base name of the baseline file */
	enum rv_op op;
	size_t rows_in_file, rows, energy_rows;
	/* Leave-one-out over this op's rows: median |relative error| and the
	 * share within band (NAN without rows). */
	double lat_loo_median_ape, lat_loo_within_band;
	double en_loo_median_ape, en_loo_within_band;
	/* The same, leave-one-family-out. */
	double lat_lofo_median_ape, lat_lofo_within_band;
	double en_lofo_median_ape, en_lofo_within_band;
	/* The least and the most core_round_trip_s that the capture records of
	 * the baseline's manifest state (0 and 0: none; rv_layout_round_trips()):
	 * far apart (rv_round_trips_apart()), its multi-threaded rows mix the
	 * host's placements of the CPUs, and the report says so. */
	double round_trip_min_s, round_trip_max_s;
};

/* A parameter of the profile that calibration considered and did not fit:
 * fewer than two rows move it, so it keeps its profile value. */
struct rv_cal_kept {
	char name[80];
	const char *unit;
	double value;          /* the profile's */
	size_t sensitive_rows; /* rows it moves */
};

struct rv_calibration {
	struct rv_cal_row *rows;
	size_t n_rows, cap_rows, n_energy_rows;
	struct rv_cal_param params[RV_CAL_MAX_PARAMS];
	size_t n_params;
	struct rv_cal_kept kept[RV_CAL_MAX_PARAMS];
	size_t n_kept;
	struct rv_cal_source sources[RV_OP_COUNT];
	size_t n_sources;
	struct rv_cal_family families[RV_CAL_MAX_FAMILIES];
	size_t n_families;
	/* Summary: median |relative error| in-sample and leave-one-out, and the
	 * share of leave-one-out predictions within their label's band. */
	double lat_median_ape, lat_loo_median_ape, lat_loo_within_band;
	double en_median_ape, en_loo_median_ape, en_loo_within_band;
	double lat_lofo_median_ape, lat_lofo_within_band;
	double en_lofo_median_ape, en_lofo_within_band;
};

/* Adds the rows of baseline b whose (shape, dtype) the calibration sweep s
 * labels for p and scores (rv_sweep_label_scoreable(); dtypes p lacks left
 * out), each with its energy when rv_energy_scoreable(). Rows of
 * any other sweep never enter. baseline_file names b in the fit file. */
int rv_calibrate_add(struct rv_calibration *c, const struct rv_profile *p, const struct rv_sweep *s,
                     const struct rv_baseline *b, const char *baseline_file);

/* Chooses the parameters the rows determine, fits them, sets the fitted
 * values into p and fills the results: leave-one-out, and leave-one-family-out
 * (each family withheld in turn, the rest refitted from the fit). An effective
 * bandwidth fitted faster than the next fitted tier in is held equal to it
 * (tied_to) and the fit repeated. RV_ERANGE (refused) when a fitted value is
 * not physical or the effective memory parameters are out of order
 * (rv_param_check_order()); RV_ERROR when there are no more rows than
 * parameters or the fit is degenerate. p is left unchanged on failure. */
int rv_calibrate_fit(struct rv_calibration *c, struct rv_profile *p);

/* The fit file (schema roofval.fit/1), deterministic: sorted keys, date as
 * given (YYYY-MM-DD). */
int rv_calibrate_render(struct rv_buf *out, const struct rv_calibration *c,
                        const struct rv_profile *p, const char *date);

/* The calibration report as JSON (schema roofval.calibration/1), what
 * `calibrate --format json` prints: rows (op, shape, dtype, family, measured,
 * fitted, LOO and LOFO latency and energy), parameters (profile, value,
 * uncertainty, state, LOFO moves per family), families and per-op summaries. */
int rv_calibrate_render_report(struct rv_buf *out, const struct rv_calibration *c,
                               const struct rv_profile *p);

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
