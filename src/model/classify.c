/* SPDX-License-Identifier: MIT */
/* The regime classifier. */
#include "model/classify.h"

#include <math.h>

#include "model/opcount.h"

/* Strictly inside (1 - band, 1 + band) times boundary. */
static int near(double x, double boundary)
{
	return boundary > 0 && x > boundary * (1 - RV_CLASSIFY_AMBIGUOUS_BAND) &&
	       x < boundary * (1 + RV_CLASSIFY_AMBIGUOUS_BAND);
}

int rv_classify(struct rv_classification *out, const struct rv_profile *p, enum rv_op op,
                const struct rv_shape *s, enum rv_dtype d)
{
	const struct rv_compute *c = rv_profile_compute(p, d);
	const struct rv_memory_tier *dram = &p->memory[p->n_memory - 1];
	struct rv_classification r = { 0 };
	struct rv_footprint fp;
	size_t n_cache = p->n_memory - 1; /* tiers before dram */
	int err = rv_footprint_of(&fp, op, s, d);

	if (err < 0)
		return err;
	r.flop = fp.ref_flop;
	r.working_set_B = fp.ref_working_set_B;
	r.intensity_flop_per_B = fp.ref_intensity_flop_per_B;
	r.launch_threshold_s = RV_CLASSIFY_LAUNCH_OVERHEADS * p->op_overhead_s[op];
	if (n_cache >= 1)
		r.l1_capacity_B = p->memory[0].capacity_B;
	if (n_cache >= 2)
		r.llc_capacity_B = p->memory[n_cache - 1].capacity_B;
	if (!c) {
		r.regime = RV_REGIME_UNSUPPORTED;
		r.reason = "the profile has no compute entry for this dtype";
		*out = r;
		return 0;
	}
	r.compute_s = r.flop / c->effective_flop_per_s;
	r.dram_s = r.working_set_B / dram->effective_bw_Bps;
	r.ridge_flop_per_B = c->effective_flop_per_s / dram->effective_bw_Bps;
	if (n_cache >= 1)
		r.l1_ridge_flop_per_B = c->effective_flop_per_s / p->memory[0].effective_bw_Bps;

	if (fmax(r.compute_s, r.dram_s) < r.launch_threshold_s) {
		r.regime = RV_REGIME_LAUNCH;
		r.reason = "compute and DRAM times are both under 5 x the per-call overhead";
	} else if (near(r.working_set_B, r.l1_capacity_B) ||
	           near(r.working_set_B, r.llc_capacity_B)) {
		r.regime = RV_REGIME_AMBIGUOUS;
		r.reason = "the working set is within 20% of a cache capacity";
	} else if (n_cache >= 1 && r.working_set_B <= r.l1_capacity_B) {
		if (near(r.intensity_flop_per_B, r.ridge_flop_per_B)) {
			r.regime = RV_REGIME_AMBIGUOUS;
			r.reason = "fits in L1; intensity within 20% of the DRAM ridge point";
		} else if (r.intensity_flop_per_B > r.ridge_flop_per_B) {
			r.regime = RV_REGIME_ALU;
			r.reason = "fits in L1; intensity above the ridge point";
		} else if (r.intensity_flop_per_B < r.l1_ridge_flop_per_B &&
		           !near(r.intensity_flop_per_B, r.l1_ridge_flop_per_B)) {
			r.regime = RV_REGIME_L1;
			r.reason = "fits in L1; intensity below the L1 ridge point";
		} else {
			r.regime = RV_REGIME_AMBIGUOUS;
			r.reason = "fits in L1; intensity between the L1 and DRAM ridge points";
		}
	} else if (r.llc_capacity_B > 0 && r.working_set_B <= r.llc_capacity_B) {
		r.regime = RV_REGIME_L2;
		r.reason = "the working set fits in the last-level cache";
	} else {
		r.regime = RV_REGIME_DRAM;
		r.reason = "the working set exceeds every cache";
	}
	*out = r;
	return 0;
}
