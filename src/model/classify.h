/* SPDX-License-Identifier: MIT */
/* Regime classifier, with the reference harness's semantics: which resource
 * bounds an op on a target, or launch_bound, ambiguous (too close to a
 * boundary to call) or unsupported (the profile lacks the dtype). Pure. */
#ifndef RV_MODEL_CLASSIFY_H
#define RV_MODEL_CLASSIFY_H

#include "core/dtype.h"
#include "core/op.h"
#include "core/regime.h"
#include "hw/profile.h"

/* Relative half-width of the "too close to call" band around a boundary. */
#define RV_CLASSIFY_AMBIGUOUS_BAND   0.2
/* Launch-bound below this many per-call overheads of work. */
#define RV_CLASSIFY_LAUNCH_OVERHEADS 5.0

struct rv_classification {
	enum rv_regime regime;
	const char *reason; /* the rule that decided, one line */
	/* The numbers behind it (reference definitions: linear without its bias). */
	double flop;
	double working_set_B;
	double intensity_flop_per_B;
	double compute_s;           /* flop at the effective peak */
	double dram_s;              /* working set at the effective DRAM bandwidth */
	double launch_threshold_s;  /* 5 x the per-call overhead */
	double l1_capacity_B;       /* the first cache tier, 0 when the profile has none */
	double llc_capacity_B;      /* the last cache tier when there are two or more, else 0 */
	double ridge_flop_per_B;    /* effective peak / effective DRAM bandwidth */
	double l1_ridge_flop_per_B; /* effective peak / effective L1 bandwidth, 0 without L1 */
};

/* Classifies op on shape s in dtype d on profile p. An unsupported dtype is
 * a result (RV_REGIME_UNSUPPORTED), not an error; errors are those of
 * rv_footprint_of() (shape too large or of another op). */
int rv_classify(struct rv_classification *out, const struct rv_profile *p, enum rv_op op,
                const struct rv_shape *s, enum rv_dtype d);

#endif
