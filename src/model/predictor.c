/* SPDX-License-Identifier: MIT */
#include "model/predictor.h"

#include "model/predict.h"

/* The regime a binding resource stands for. */
static enum rv_regime regime_of_binding(int binding)
{
	switch (binding) {
	case RV_BOUND_COMPUTE:
		return RV_REGIME_ALU;
	case RV_BOUND_OVERHEAD:
		return RV_REGIME_LAUNCH;
	case RV_TIER_L1:
		return RV_REGIME_L1;
	case RV_TIER_L2:
	case RV_TIER_L3:
		return RV_REGIME_L2; /* the reference's l2_bound: any cache beyond L1 */
	case RV_TIER_DRAM:
		return RV_REGIME_DRAM;
	default:
		return RV_REGIME_AMBIGUOUS;
	}
}

int rv_estimate_builtin(const struct rv_profile *p, enum rv_op op, const struct rv_shape *s,
                        enum rv_dtype d, struct rv_estimate *out)
{
	struct rv_prediction pred;
	int err = rv_predict(&pred, p, op, s, d);

	if (err < 0)
		return err;
	out->extra = NULL;
	out->extra_names = NULL;
	out->n_extra = 0;
	out->latency_s = pred.latency_s;
	out->energy_J = pred.energy_J;
	out->binding = pred.binding;
	out->regime = regime_of_binding(pred.binding);
	out->binding_tier = p->n_memory ? (int)p->memory[0].tier : -1;
	for (size_t t = 0; t < p->n_memory; t++)
		if (pred.tier_s[p->memory[t].tier] > pred.tier_s[out->binding_tier])
			out->binding_tier = (int)p->memory[t].tier;
	return 0;
}

static int builtin_estimate(void *ctx, const struct rv_profile *p, enum rv_op op,
                            const struct rv_shape *s, enum rv_dtype d, struct rv_estimate *out)
{
	(void)ctx;
	return rv_estimate_builtin(p, op, s, d, out);
}

const struct rv_predictor rv_predictor_builtin = { RV_BUILTIN_MODEL, NULL, builtin_estimate };
