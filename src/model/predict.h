/* SPDX-License-Identifier: MIT */
/* The analytical model: latency and energy of one call of an op on a target.
 *
 *   latency = overhead + max(compute, traffic_i / bandwidth_i for each tier i)
 *   energy  = static power x latency + energy/FLOP x FLOPs + sum_i energy/byte_i x traffic_i
 *
 * GEMMs (matmul, linear) run as output tiles spread over the compute units in
 * waves; compute time counts whole tiles and whole waves, and small M, N, K
 * lose efficiency as d / (d + half_d). Traffic at each tier comes from reuse:
 * the panels of A and B are re-read once per block that the inner tier holds
 * (per unit for private tiers, whole for the shared last-level cache), and a
 * tier serves nothing when the working set already fits inside the tier
 * below it (except L1, which is not relied on across calls). Every
 * coefficient comes from the profile (and its fit). Pure: no I/O. */
#ifndef RV_MODEL_PREDICT_H
#define RV_MODEL_PREDICT_H

#include <stdint.h>

#include "core/dtype.h"
#include "core/op.h"
#include "hw/profile.h"
#include "model/opcount.h"

/* What bounds a prediction: compute, a memory tier, or the per-call overhead. */
enum rv_bound {
	RV_BOUND_COMPUTE = RV_TIER_COUNT, /* values below are memory tiers (enum rv_tier) */
	RV_BOUND_OVERHEAD,
};

struct rv_prediction {
	double latency_s, energy_J;
	int binding; /* an enum rv_tier, or RV_BOUND_COMPUTE, RV_BOUND_OVERHEAD */
	/* Terms of the latency. */
	double overhead_s, compute_s;
	double tier_s[RV_TIER_COUNT]; /* 0 for tiers the profile lacks */
	double tier_B[RV_TIER_COUNT]; /* bytes crossing out of each tier per call */
	/* GEMM execution (zero for vector_add). */
	unsigned tile_m, tile_n;
	uint64_t tiles, waves;
	double eff_tile, eff_wave, eff_small; /* the efficiencies applied to compute */
	double eff_edge;                      /* panel staging of the chosen tile */
	/* New pages of the output faulted and zeroed on this call (fresh_output),
	 * and the core time they add to compute_s. */
	double fresh_pages, first_touch_s;
	/* Core time of copying a linear's bias into every row of its output
	 * before the GEMM (gemm.bias_row_s), also in compute_s. */
	double bias_s;
	/* Core time of packing both operands into the BLAS's panels before its
	 * kernels run on them (gemm.pack_Bps), and of the kernel calls that
	 * cover M (gemm.threading.kernel_call_s), also in compute_s. */
	double pack_s;
	/* Time of setting up a BLAS call that packs and of handing it to more
	 * than one unit (gemm.threading: dispatch_s, packed_call_s, the shared
	 * panels, the steps of K, a linear's C between cores, the lines of C
	 * the units share), added to the latency after the body, not in
	 * compute_s: latency_s = overhead_s + body + handover_s. */
	double handover_s;
	/* Timed from the library's small-matrix kernel's blocks
	 * (gemm.small_kernel): its tiles and waves say nothing then. */
	int small_kernel;
	/* Terms of the energy. */
	double static_J, flop_J, bytes_J;
	struct rv_footprint footprint;
};

/* Predicts op on shape s in dtype d on profile p. RV_ENOTSUP when the profile
 * lacks the dtype (the message names the dtypes it has); the errors of
 * rv_footprint_of() otherwise. */
int rv_predict(struct rv_prediction *out, const struct rv_profile *p, enum rv_op op,
               const struct rv_shape *s, enum rv_dtype d);

/* "compute", "overhead" or the tier's name. */
const char *rv_bound_name(int binding);

#endif
