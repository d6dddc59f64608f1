/* SPDX-License-Identifier: MIT */
/* Fitted model parameters: the names calibration fits (and a fit file sets),
 * where each lives in a profile, and its physical bounds; and the generated
 * fit file hardware/<key>.fit.json (schema roofval.fit/1) that overrides the
 * hand-edited profile's values when predict and validate load it. */
#ifndef RV_HW_FIT_H
#define RV_HW_FIT_H

#include "hw/profile.h"

#define RV_FIT_SCHEMA "roofval.fit/1"

/* A named model parameter of a profile. Names:
 *   call_overhead.<op>.latency_s            per-call overhead of one op
 *   compute.<dtype>.effective_flop_per_s    sustained rate (<= the datasheet peak)
 *   memory.<tier>.effective_bw_Bps          sustained bandwidth (<= the tier's bw_Bps)
 *   gemm.half_efficiency_m | _n | _k        small-dimension half points
 *   gemm.tile_edge_overhead                 per-tile panel-loading cost
 *   gemm.pack_passes                        CPU passes over B for packing (<= 4)
 *   memory.<tier>.effective_capacity_B      capacity a repeated call keeps (<= capacity_B)
 *   power.static_W                          (<= tdp_W)
 *   power.energy_per_flop_J.<dtype>, power.energy_per_byte_J.<tier> */
struct rv_param {
	char name[80];
	double *slot;           /* the profile field it sets */
	double upper;           /* values must be > 0 and <= upper */
	const char *upper_what; /* what upper is, for messages ("the datasheet peak") */
	const char *unit;
	int allow_zero; /* 0 is valid (a small-dimension penalty switched off) */
};

/* Resolves name on p. RV_ENOENT for a name that is not a parameter of p (an
 * unknown form, op, dtype or tier the profile lacks). */
int rv_param_resolve(struct rv_param *out, struct rv_profile *p, const char *name);
/* RV_ERANGE naming the parameter, value and bound when value is not
 * physical: not finite, not positive, or above its upper bound. */
int rv_param_check(const struct rv_param *prm, double value);
/* RV_ERANGE naming both parameters and their values when p's effective
 * memory parameters are not ordered from the inner tier out: effective
 * bandwidths must not grow outwards (l1 >= l2 >= l3 >= dram) and effective
 * capacities must not shrink outwards (l1 <= l2 <= l3 <= dram). */
int rv_param_check_order(const struct rv_profile *p);

/* Reads a fit file and sets its parameters on p (strictly: unknown keys,
 * another hardware's fit, unknown parameter names and unphysical values are
 * RV_EPARSE/RV_ERANGE with file:line:column; effective memory parameters out
 * of order, rv_param_check_order(), RV_ERANGE at "parameters"). Records path in p->fit_path. */
int rv_fit_apply(struct rv_profile *p, const char *path);
/* Same, from text in memory (the file is not read when text is not NULL);
 * path names it in messages and in p->fit_path. */
int rv_fit_apply_text(struct rv_profile *p, const char *text, size_t len, const char *path);

#endif
