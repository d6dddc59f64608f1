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
 *   memory.<tier>.effective_capacity_B      capacity a repeated call keeps (<= capacity_B)
 *   power.static_W                          (<= tdp_W)
 *   power.energy_per_flop_J.<dtype>, power.energy_per_byte_J.<tier>
 *   and every row of hw/params.def (rv_param_decls) */
struct rv_param {
	char name[80];
	double *slot;           /* the profile field it sets */
	double upper;           /* values must be > 0 and <= upper */
	const char *upper_what; /* what upper is, for messages ("the datasheet peak") */
	const char *unit;
	int allow_zero; /* 0 is valid (a small-dimension penalty switched off) */
};

/* The physical limits of a declared parameter (hw/params.def). */
enum rv_param_bound {
	RV_PARAM_HALF,         /* a half point or panel cost: >= 0, no upper bound */
	RV_PARAM_PASSES,       /* passes over B: 0 to 4 */
	RV_PARAM_FIXED,        /* a fixed time per call, block or page: 0 to 1 ms */
	RV_PARAM_FMA,          /* an FMA's latency: above 0, at most 1 us */
	RV_PARAM_RATE,         /* one unit's loop rate: above 0, at most its share of L1's bw_Bps */
	RV_PARAM_RATE_OR_ZERO, /* the same, or 0 */
	RV_PARAM_BIAS_ROW,     /* a time per row of C: 0 to 10 us */
};
/* When a declared parameter is one of a profile (hw/params.def). */
enum rv_param_gate { RV_PARAM_GATE_ALWAYS, RV_PARAM_GATE_STATED, RV_PARAM_GATE_FIT_IF_STATED };
/* The type of the profile member that says a parameter is stated. */
enum rv_param_type { RV_PARAM_T_DOUBLE, RV_PARAM_T_U64, RV_PARAM_T_INT, RV_PARAM_T_STRING };
/* A parameter of every profile (else its owner is an enum rv_executor). */
#define RV_PARAM_CORE (-1)

/* A model parameter as hw/params.def declares it. */
struct rv_param_decl {
	int owner; /* RV_PARAM_CORE or the enum rv_executor whose profiles have it */
	const char *name, *unit, *source;
	size_t offset; /* of the double in struct rv_profile that it sets */
	enum rv_param_bound bound;
	enum rv_param_gate gate;
	size_t gate_offset; /* of the member that says it is stated */
	enum rv_param_type gate_type;
};

/* The rows of hw/params.def, in its order. */
extern const struct rv_param_decl rv_param_decls[];
extern const size_t rv_n_param_decls;
/* Whether p states decl's gate member (a number above 0, a string). */
int rv_param_decl_stated(const struct rv_param_decl *decl, const struct rv_profile *p);
/* Whether decl is a parameter of p: its owner is p's executor (or every
 * profile's) and its gate holds. */
int rv_param_decl_applies(const struct rv_param_decl *decl, const struct rv_profile *p);

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

/* Whether there is a fit file at path: 1 when something is there (what it
 * is, a FIFO say, is for rv_fit_apply()'s reader to refuse; nothing here
 * opens it, so nothing waits), 0 when nothing is, RV_ENOENT naming it for a
 * symbolic link to nothing (a broken fit is not "no fit"). */
int rv_fit_present(const char *path);
/* Reads a fit file and sets its parameters on p (strictly: unknown keys,
 * another hardware's fit, unknown parameter names and unphysical values are
 * RV_EPARSE/RV_ERANGE with file:line:column; effective memory parameters out
 * of order, rv_param_check_order(), RV_ERANGE at "parameters"). Records path in p->fit_path. */
int rv_fit_apply(struct rv_profile *p, const char *path);
/* Same, from text in memory (the file is not read when text is not NULL);
 * path names it in messages and in p->fit_path. */
int rv_fit_apply_text(struct rv_profile *p, const char *text, size_t len, const char *path);

#endif
