/* SPDX-License-Identifier: MIT */
/* The roofline core that every executor shares: the hierarchy of memory
 * tiers (what each serves on a repeated call, its bandwidth for a call on a
 * share of the units), the body time max(compute, traffic_i / bandwidth_i),
 * fresh output pages, the traffic of a tiled GEMM at one tier, and an
 * elementwise op's body. rv_predict() (model/predict.c) adds the call
 * overhead and the energy terms around the executor's body. Pure: no I/O.
 *
 * The numeric functions are inline and bit for bit what the model has always
 * computed (tests/golden/predictions/). */
#ifndef RV_MODEL_ROOFLINE_H
#define RV_MODEL_ROOFLINE_H

#include <math.h>
#include <stdint.h>

#include "hw/profile.h"
#include "model/predict.h"

/* Efficiency of a dimension d that is amortised over half_d: d / (d + half_d). */
static inline double rv_small_dim(double d, double half_d)
{
	return d / (d + half_d);
}

/* floor and ceil of x, bit for bit, without a call into libm (gcc inlines
 * neither without SSE4.1): below 2^52 a non-negative double converts to an
 * integer and back exactly (and +0 stays +0), and a double from 2^52 up is
 * an integer already; anything else (negative, NaN) goes to libm. */
static inline double rv_floor(double x)
{
	return x >= 0 && x < 0x1p52 ? (double)(int64_t)x : floor(x);
}

static inline double rv_ceil(double x)
{
	if (x >= 0 && x < 0x1p52) {
		double t = (double)(int64_t)x;

		return t < x ? t + 1 : t;
	}
	return ceil(x);
}

static inline double rv_ceil_div(double a, double b)
{
	return rv_ceil(a / b);
}

/* CPU stores allocate the line before writing it (a read for ownership), so
 * the bytes written cross each tier beyond L1 twice. GPUs write whole sectors
 * without reading them. */
static inline int rv_write_allocates(const struct rv_profile *p)
{
	return p->hw_class == RV_HW_CPU;
}

/* Pages of an output of output_B that come from the OS new on every call
 * (fresh_output), or 0. */
double rv_fresh_pages(const struct rv_profile *p, double output_B);
/* Whether the output's lines are read from the tiers beyond L1 before they
 * are written: a CPU's write-allocate, except into a fresh page, which the
 * kernel has just zeroed through the cache. */
int rv_output_allocates(const struct rv_profile *p, double output_B);
/* Share of the traffic tier i must serve on a repeated call, given what the
 * tier inside it (i - 1) still holds from the call before (docs/model.md),
 * for an op on share (0, 1] of the units. */
double rv_miss_share(const struct rv_profile *p, size_t i, double working_set_B, double share);

/* The bandwidth of tier i for an op on share (0, 1] of the units. A
 * private tier (inside the last level cache: a core's L1 and L2, an SM's
 * L1) has a port per unit, so an op on fewer units reaches that share of its
 * aggregate bandwidth; the shared tiers serve whoever asks. */
static inline double rv_tier_bw(const struct rv_profile *p, size_t i, double share)
{
	return p->memory[i].effective_bw_Bps * (i + 2 < p->n_memory ? share : 1.0);
}

/* Fills the memory terms and the body time max(compute, tiers) of r, for an
 * op that runs on share (0, 1] of the units (rv_tier_bw()). */
double rv_body_time(struct rv_prediction *r, const struct rv_profile *p, double share);
/* Core time of the fresh pages of r's output, on units of them: faulting and
 * zeroing a page is core work, added to compute (docs/model.md). */
void rv_first_touch(struct rv_prediction *r, const struct rv_profile *p, double units);

/* What a tiled GEMM's traffic needs of each tier that no tile changes: the
 * side of the square block of C the tier inside it holds, and the share of
 * the traffic it serves (rv_miss_share()); and whether the output
 * allocates. */
struct rv_gemm_tiers {
	double block[RV_TIER_COUNT], miss[RV_TIER_COUNT];
	int allocates;
};

void rv_gemm_tiers_of(struct rv_gemm_tiers *gt, const struct rv_profile *p, double m, double n,
                      double e, double working_set_B, double share);

/* Bytes of a GEMM (M x K) * (K x N) crossing out of tier i with output tile
 * (tm, tn), before its share rv_gemm_tiers.miss. L1 feeds the tile's panels
 * to the registers, so it serves A once per tile column and B once per tile
 * row. Each outer tier serves the tier inside it, which holds a square block
 * of C with its panels (3 b^2 elements of the inner tier's capacity, at
 * least one tile): A is re-read once per block column, B once per block
 * row. C is written once (twice beyond L1 where writes allocate); the bias
 * is read once. */
static inline __attribute__((always_inline)) double
rv_gemm_tier_bytes(const struct rv_gemm_tiers *gt, size_t i, double m, double k, double n, double e,
                   double bias_B, unsigned tm, unsigned tn)
{
	double bm = tm, bn = tn, q;

	if (i >= 1) {
		/* fmax(tm, fmin(b, m)): b is a finite floor, >= +0, m >= 1. */
		double b = gt->block[i];

		bm = b < m ? b : m;
		bm = bm > tm ? bm : tm;
		bn = b < n ? b : n;
		bn = bn > tn ? bn : tn;
	}
	q = e * (m * k * rv_ceil_div(n, bn) + k * n * rv_ceil_div(m, bm) + m * n) + bias_B;
	if (i >= 1 && gt->allocates)
		q += e * m * n;
	return q;
}

/* The least time of reading bytes of the operands from the tiers that serve
 * them on a repeated call (gt->miss): each tier beyond L1 its share, at its
 * bandwidth for the call (rv_tier_bw()). A copy runs no faster than what it
 * copies arrives. */
double rv_source_s(const struct rv_profile *p, const struct rv_gemm_tiers *gt, double bytes,
                   double share);

/* The body time of an elementwise op (vector_add) of s in dtype d on its
 * units (profile object elementwise), filling r's compute and memory terms. */
double rv_elementwise_body(struct rv_prediction *r, const struct rv_profile *p,
                           const struct rv_compute *c, const struct rv_shape *s, enum rv_dtype d);

#endif
