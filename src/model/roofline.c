/* SPDX-License-Identifier: MIT */
/* The roofline core every executor shares (model/roofline.h). */
#include "model/roofline.h"

#include <math.h>

double rv_fresh_pages(const struct rv_profile *p, double output_B)
{
	const struct rv_fresh_output *f = &p->fresh_output;

	if (!f->provenance || output_B < (double)f->min_B)
		return 0;
	return rv_ceil(output_B / (double)f->page_B);
}

int rv_output_allocates(const struct rv_profile *p, double output_B)
{
	return rv_write_allocates(p) && !(rv_fresh_pages(p, output_B) > 0);
}

double rv_miss_share(const struct rv_profile *p, size_t i, double working_set_B, double share)
{
	double inner_B;

	if (i == 0 || !rv_profile_tier_persists(p, i - 1))
		return 1.0;
	inner_B = p->memory[i - 1].effective_capacity_B;
	/* An op on share of the units holds data only in their private caches. */
	if (i + 1 < p->n_memory)
		inner_B *= share;
	if (working_set_B <= inner_B)
		return 0.0;
	if (i + 1 < p->n_memory) /* the inner tier is private */
		return 1.0;
	return 1.0 - inner_B / working_set_B;
}

/* Capacity of tier i that one unit's blocking can use: the last cache tier
 * is shared by all units (CPU L3, GPU L2); the tiers inside it are private
 * to a unit (L1 and a CPU's L2 per core, L1 per SM). */
static double block_capacity_B(const struct rv_profile *p, size_t i)
{
	int llc = i + 2 == p->n_memory; /* the tier just inside dram */

	return llc ? p->memory[i].capacity_B : p->memory[i].capacity_B / p->compute_units;
}

void rv_gemm_tiers_of(struct rv_gemm_tiers *gt, const struct rv_profile *p, double m, double n,
                      double e, double working_set_B, double share)
{
	for (size_t i = 0; i < p->n_memory; i++) {
		gt->block[i] = i >= 1 ? rv_floor(sqrt(block_capacity_B(p, i - 1) / (3 * e))) : 0;
		gt->miss[i] = rv_miss_share(p, i, working_set_B, share);
	}
	gt->allocates = rv_output_allocates(p, e * m * n);
}

double rv_source_s(const struct rv_profile *p, const struct rv_gemm_tiers *gt, double bytes,
                   double share)
{
	double t = 0;

	for (size_t i = 1; i < p->n_memory; i++) {
		double served = gt->miss[i] - (i + 1 < p->n_memory ? gt->miss[i + 1] : 0);

		if (served > 0)
			t += bytes * served / rv_tier_bw(p, i, share);
	}
	return t;
}

double rv_body_time(struct rv_prediction *r, const struct rv_profile *p, double share)
{
	double body_s = r->compute_s;

	r->binding = RV_BOUND_COMPUTE;
	for (size_t i = 0; i < p->n_memory; i++) {
		enum rv_tier t = p->memory[i].tier;

		r->tier_s[t] = r->tier_B[t] / rv_tier_bw(p, i, share);
		if (r->tier_s[t] > body_s) {
			body_s = r->tier_s[t];
			r->binding = (int)t;
		}
	}
	return body_s;
}

void rv_first_touch(struct rv_prediction *r, const struct rv_profile *p, double units)
{
	r->fresh_pages = rv_fresh_pages(p, r->footprint.output_B);
	r->first_touch_s = r->fresh_pages * p->fresh_output.page_s / units;
}

/* A stream over the operands: each tier serves the working set (and the
 * output again beyond L1 where it allocates), its share rv_miss_share(). */
static void streaming_traffic(double tier_B[RV_TIER_COUNT], const struct rv_profile *p,
                              const struct rv_footprint *fp, double share)
{
	for (size_t i = 0; i < p->n_memory; i++) {
		double q = fp->working_set_B;

		if (i >= 1 && rv_output_allocates(p, fp->output_B))
			q += fp->output_B;
		tier_B[p->memory[i].tier] = q * rv_miss_share(p, i, fp->working_set_B, share);
	}
}

double rv_elementwise_body(struct rv_prediction *r, const struct rv_profile *p,
                           const struct rv_compute *c, const struct rv_shape *s, enum rv_dtype d)
{
	/* The framework splits an elementwise op into chunks of at least
	 * grain_elements (PyTorch's parallel_for grain) over at most max_units
	 * threads (a capture loop may run on one); each unit brings its own
	 * FLOP rate and private-cache ports. */
	const struct rv_elementwise *w = &p->elementwise;
	double n = (double)s->dim[0];
	double used = w->grain_elements ? fmax(1.0, rv_ceil(n / (double)w->grain_elements))
	                                : (double)p->compute_units;
	double share = fmin(used, (double)w->max_units) / (double)p->compute_units;

	/* The loop's own rate on its units (elementwise.unit_loop_Bps): a
	 * core issues the loads and stores of its elements at a bounded
	 * rate, whichever tier serves them; a core limit, so compute. The
	 * elements past its last whole block (elementwise.block_B) go one
	 * at a time, tail_element_s each. */
	double tail = w->block_B
	                      ? fmod(n, fmax(1.0, rv_floor((double)w->block_B / rv_dtype_bytes(d))))
	                      : 0;
	double loop_s =
	        w->unit_loop_Bps > 0
	                ? r->footprint.working_set_B * (1 - tail / n) /
	                                  (w->unit_loop_Bps * share * (double)p->compute_units) +
	                          tail * w->tail_element_s
	                : 0;

	rv_first_touch(r, p, share * p->compute_units);
	r->compute_s = fmax(r->footprint.flop / (c->effective_flop_per_s * share), loop_s) +
	               r->first_touch_s;
	streaming_traffic(r->tier_B, p, &r->footprint, share);
	return rv_body_time(r, p, share);
}
