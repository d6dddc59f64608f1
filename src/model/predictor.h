/* SPDX-License-Identifier: MIT */
/* A performance model as validation sees it: a table of one function that
 * estimates an entry's latency, energy and regime. The built-in analytical
 * model (model/predict) is one such predictor; a predictions file or an
 * adapter command (predictions/) is another, and both get the same verdicts. */
#ifndef RV_MODEL_PREDICTOR_H
#define RV_MODEL_PREDICTOR_H

#include <stddef.h>

#include "core/dtype.h"
#include "core/op.h"
#include "core/regime.h"
#include "hw/profile.h"

/* What a model says about one entry. */
struct rv_estimate {
	double latency_s;      /* finite, > 0 */
	double energy_J;       /* finite, > 0; NAN when the model predicts none */
	enum rv_regime regime; /* the model's own regime verdict; RV_REGIME_COUNT when none */
	int binding;           /* the binding resource (rv_bound_name()); -1 when not said */
	int binding_tier;      /* the memory tier with the largest time; -1 when not said */
	/* Numbers the model gives beside its prediction (a predictions file's
	 * extra numeric columns: compute_s, memory_s, ...), n_extra of them,
	 * NAN where it gave none; borrowed from the predictor; none: 0. */
	const double *extra;
	const char *const *extra_names;
	size_t n_extra;
};

struct rv_predictor {
	const char *model; /* the model's name in reports ("roofval" for the built-in) */
	void *ctx;
	/* 0 with *out filled; RV_ENOENT when the model has no estimate for this
	 * entry (validation counts and lists it as "no prediction"); any other
	 * error stops validation. */
	int (*estimate)(void *ctx, const struct rv_profile *p, enum rv_op op,
	                const struct rv_shape *s, enum rv_dtype d, struct rv_estimate *out);
};

/* The name of the built-in model. */
#define RV_BUILTIN_MODEL "roofval"

/* The built-in analytical model as a predictor. */
extern const struct rv_predictor rv_predictor_builtin;

/* The built-in model's estimate: rv_predict() with its binding resource as
 * the regime verdict (compute: alu_bound, a tier: its level, the per-call
 * overhead: launch_bound). */
int rv_estimate_builtin(const struct rv_profile *p, enum rv_op op, const struct rv_shape *s,
                        enum rv_dtype d, struct rv_estimate *out);

#endif
