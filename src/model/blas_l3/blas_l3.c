/* SPDX-License-Identifier: MIT */
/* The blas_l3 executor: how a CPU BLAS's level 3 runs a GEMM
 * (model/executor.h; docs/model.md): which calls go to its small-matrix
 * kernel (timed from that kernel's register blocks) and which to one unit
 * or all (gemm.threading), how its threads split C, the packed kernel's
 * blocks (gemm.packed_kernel), its edge kernels (gemm.edge_kernels,
 * gemm.edge_quantum), its packing (traffic, and core time before the
 * kernels, no faster than the operands arrive from their tiers), a pass
 * that zeroes C first (gemm.beta_zero), a linear's bias copied into C
 * (gemm.bias_row_s, gemm.bias_Bps) and the hand-over of a call to its
 * threads (handover_s). Every coefficient comes from the profile. */
#include <math.h>
#include <stdint.h>

#include "model/executor.h"
#include "model/roofline.h"

/* The roofline core's tiers, and C's bytes of a pass that zeroes it first
 * (gemm.beta_zero), or 0. */
struct blas_tiers {
	struct rv_gemm_tiers core;
	double zero_B;
};

static void blas_tiers_of(struct blas_tiers *bt, const struct rv_profile *p, enum rv_op op,
                          double m, double n, double e, double working_set_B, double share)
{
	rv_gemm_tiers_of(&bt->core, p, m, n, e, working_set_B, share);
	bt->zero_B =
	        op == RV_OP_MATMUL && p->gemm.beta_zero != RV_BETA_ZERO_IN_KERNEL ? e * m * n : 0;
}

/* Bytes crossing out of each tier with output tile (tm, tn): the roofline
 * core's tiled GEMM (rv_gemm_tier_bytes()), and the BLAS's own passes. */
static inline __attribute__((always_inline)) void
blas_traffic(double tier_B[RV_TIER_COUNT], const struct rv_profile *p, const struct blas_tiers *bt,
             double m, double k, double n, double e, double bias_B, unsigned tm, unsigned tn,
             int packs)
{
	const struct rv_gemm_tiers *gt = &bt->core;

	for (size_t i = 0; i < p->n_memory; i++) {
		double q = rv_gemm_tier_bytes(gt, i, m, k, n, e, bias_B, tm, tn);

		/* A BLAS that zeroes C for beta = 0 in a pass of its own writes it
		 * once more (and, beyond L1, reads it for ownership first) before
		 * its kernel reads and updates it. */
		q += bt->zero_B * (i >= 1 && gt->allocates ? 2 : 1);
		/* A CPU BLAS's GEMM kernels first copy B into packed panels (written,
		 * then read again): two more passes over B beyond L1, which only a
		 * large M amortizes and which a skinny GEMM through a big weight pays
		 * in full from wherever B lives. A single-row tile is the library's
		 * matrix-vector kernel, which streams B as it is, and so does a
		 * small-matrix kernel (packs 0). */
		if (i >= 1 && p->hw_class == RV_HW_CPU && tm > 1 && packs)
			q += p->gemm.pack_passes * e * k * n;
		tier_B[p->memory[i].tier] = q * gt->miss[i];
	}
}

/* The units a CPU BLAS runs one GEMM call on, and whether it packs B
 * (gemm.threading; without it every call runs on every unit and packs; see
 * docs/model.md). */
static unsigned gemm_units(const struct rv_profile *p, enum rv_op op, double m, double k, double n,
                           int *packs)
{
	const struct rv_gemm_threading *t = &p->gemm.threading;
	double mnk = m * k * n;

	*packs = 1;
	if (!t->provenance)
		return p->compute_units;
	if (t->unpacked_max_mnk && mnk <= (double)t->unpacked_max_mnk &&
	    (op != RV_OP_LINEAR || (m * n <= (double)t->unpacked_max_mn_transposed &&
	                            k >= (double)t->unpacked_min_k_transposed))) {
		*packs = 0;
		return 1;
	}
	if (t->single_unit_max_mnk && mnk <= (double)t->single_unit_max_mnk)
		return 1;
	return p->compute_units;
}

/* The tiles of width t a BLAS runs along a dimension d (>= 1): whole ones,
 * and for a remainder r one more (RV_EDGES_PAD), or one per set bit of r,
 * its kernels of halving width (RV_EDGES_HALVING: OpenBLAS covers 7 columns
 * of a 16-wide kernel with its 4-, 2- and 1-wide ones, and each takes about
 * a whole tile's time: its rate grows in proportion to the width), or, with
 * edge kernels at the full rate down to quantum (gemm.edge_quantum), r
 * rounded up to it as a share of one (fractional). */
static double edge_tiles(double d, unsigned t, enum rv_gemm_edges edges, unsigned quantum)
{
	double whole = rv_floor(d / t), r = d - whole * t;
	unsigned bits = 0;

	if (quantum && r > 0)
		return whole + fmin(rv_ceil_div(r, quantum) * quantum, t) / t;
	if (edges == RV_EDGES_PAD || !(r > 0))
		return rv_ceil_div(d, t);
	for (unsigned w = 1; w < t; w <<= 1)
		bits += ((unsigned)r & w) != 0;
	return whole + bits;
}

/* What the packed kernel's blocks (gemm.packed_kernel) are timed by: K,
 * and one FMA over a block's tn rows at one slot's share of the rate. */
struct kernel_steps {
	double k, fma_s;
};

/* The packed kernel's blocks (gemm.packed_kernel) that cover d (>= 1)
 * along M over a block of rows whose FMAs take share of a whole block's (its
 * narrow edge rows; 1 otherwise), in tiles of width t: their time over a
 * whole tile's at the full rate (t FMAs a step), a fraction. Widest first; a
 * block's step takes at least one FMA latency where it is at most lat_width
 * wide, whatever its rows (that latency's share K / window_steps where K is
 * shorter: the out-of-order window overlaps neighbouring blocks' chains);
 * each block adds store_s per column. */
static double m_tiles(const struct rv_gemm *g, double d, unsigned t, const struct kernel_steps *ks,
                      double share, unsigned lat_width)
{
	const struct rv_gemm_packed_kernel *pk = &g->packed;
	double sum_s = 0, left = d;

	for (size_t i = 0; i < pk->n_widths && left > 0; i++) {
		double w = (double)pk->widths[i], blocks = rv_floor(left / w),
		       step_s = w * ks->fma_s * share;

		if (!(blocks > 0))
			continue;
		if (pk->widths[i] <= lat_width)
			step_s = fmax(step_s,
			              pk->latency_s * (pk->window_steps
			                                       ? fmin(1.0, ks->k / pk->window_steps)
			                                       : 1.0));
		sum_s += blocks * (ks->k * step_s + w * pk->store_s);
		left -= blocks * w;
	}
	return sum_s / (ks->k * t * ks->fma_s);
}

/* The packed kernel's blocks of height t that cover d (>= 1) along N: the
 * whole ones (*whole), the halving pieces of the rest (*edge), and of those
 * the ones of at most narrow_rows rows (*narrow), whose FMAs take
 * narrow_share of a whole block's. */
static void n_blocks(const struct rv_gemm *g, double d, unsigned t, double *whole, double *edge,
                     double *narrow)
{
	const struct rv_gemm_packed_kernel *pk = &g->packed;
	unsigned r;

	*edge = *narrow = 0;
	*whole = rv_floor(d / t);
	r = (unsigned)(d - *whole * t);
	for (unsigned w = 1; w < t; w <<= 1)
		if (r & w)
			*(w <= pk->narrow_rows ? narrow : edge) += 1;
}

/* The packed kernel's blocks of an M x N block of C in tiles tm x tn
 * (m_tiles(), n_blocks()): its edge pieces of N wait on the latency up to
 * edge_latency_max_width. */
static double packed_tiles(const struct rv_gemm *g, double m, double n, unsigned tm, unsigned tn,
                           const struct kernel_steps *ks)
{
	const struct rv_gemm_packed_kernel *pk = &g->packed;
	double whole, edge, narrow, tiles;

	n_blocks(g, n, tn, &whole, &edge, &narrow);
	tiles = whole * m_tiles(g, m, tm, ks, 1.0, pk->latency_max_width);
	if (edge > 0)
		tiles += edge * m_tiles(g, m, tm, ks, 1.0, pk->edge_latency_max_width);
	if (narrow > 0)
		tiles += narrow *
		         m_tiles(g, m, tm, ks, pk->narrow_share, pk->edge_latency_max_width);
	return tiles;
}

/* The tiles of an M x N block of C with tile tm x tn: edge_tiles() along
 * each, or the packed kernel's blocks (packed_tiles()). */
static inline double tiles_of(const struct rv_gemm *g, double m, double n, unsigned tm, unsigned tn,
                              const struct kernel_steps *ks)
{
	if (g->packed.n_widths)
		return packed_tiles(g, m, n, tm, tn, ks);
	return edge_tiles(m, tm, g->edges, g->quantum_m) *
	       edge_tiles(n, tn, g->edges, g->quantum_n);
}

/* The steps in which the BLAS's driver goes through K (gemm.threading.
 * k_step; one where the profile states none). */
static double k_steps(const struct rv_gemm *g, double k)
{
	return g->threading.k_step ? rv_ceil_div(k, (double)g->threading.k_step) : 1;
}

/* The cache lines that cross between units per call where they split N
 * (gemm.threading.split_line_B): of every row of C, the lines of one unit's
 * share (ceil(N / units) elements), at most split_lines_max, once per pass
 * over C: each step of K, and a matmul's pass that zeroes C first. */
static double split_lines(const struct rv_gemm *g, enum rv_op op, double m, double k, double n,
                          double e, unsigned units)
{
	const struct rv_gemm_threading *t = &g->threading;
	double lines = rv_ceil_div(e * rv_ceil_div(n, units), (double)t->split_line_B);
	double passes =
	        k_steps(g, k) + (op == RV_OP_MATMUL && g->beta_zero != RV_BETA_ZERO_IN_KERNEL);

	if (t->split_lines_max)
		lines = fmin(lines, (double)t->split_lines_max);
	return m * lines * passes;
}

/* The tiles of M x N when a BLAS's threaded driver cuts M into a range per
 * unit (each ceil(what is left / ranges left)) and each range into pieces of
 * ceil(range / pieces), the last what is left, each covered with edges of
 * its own (gemm.threading.m_pieces, OpenBLAS's DIVIDE_RATE): their sum over
 * every range (*all) and the most of one range (*most). */
static void piece_tiles(const struct rv_gemm *g, double m, double n, unsigned units, unsigned tm,
                        unsigned tn, const struct kernel_steps *ks, double *all, double *most)
{
	double left = m, pieces = (double)g->threading.m_pieces;

	*all = *most = 0;
	for (unsigned u = 0; u < units && left > 0; u++) {
		double range = rv_ceil_div(left, units - u), div = rv_ceil_div(range, pieces),
		       sum = 0;

		for (double r = range; r > 0; r -= div)
			sum += tiles_of(g, fmin(r, div), n, tm, tn, ks);
		left -= range;
		*all += sum;
		*most = fmax(*most, sum);
	}
}

/* How the small-matrix kernel covers d with blocks of b: size[i] x count[i],
 * whole ones, then pairs, then one. */
static void split_blocks(double d, double b, double size[3], double count[3])
{
	double whole = rv_floor(d / b), r = d - whole * b, pairs = rv_floor(r / 2);

	size[0] = b;
	size[1] = 2;
	size[2] = 1;
	count[0] = whole;
	count[1] = pairs;
	count[2] = r - 2 * pairs;
}

/* Time of covering d with the small-matrix kernel's register blocks of b
 * along it (split_blocks()). A block of rho takes steps steps, each at its
 * FLOPs (flop_per_rho rho) at rate, or one FMA's latency, whichever is
 * longer, plus block_s. */
static double blocks_s(const struct rv_gemm_small_kernel *sk, double d, double b, double steps,
                       double flop_per_rho, double rate)
{
	double rho[3], count[3], t = 0;

	split_blocks(d, b, rho, count);
	for (int i = 0; i < 3; i++)
		if (count[i] > 0)
			t += count[i] *
			     (steps * fmax(flop_per_rho * rho[i] / rate, sk->fma_latency_s) +
			      sk->block_s);
	return t;
}

/* Time of the small-matrix kernel's dot products along K (a vector of lanes
 * at a time) for cols columns of N: those and M in blocks of dot_block each
 * way (split_blocks()). */
static double dot_s(const struct rv_gemm_small_kernel *sk, double m, double k, double cols,
                    double lanes, double rate)
{
	double rows[3], count[3], steps = rv_ceil(k / lanes), t = 0;

	split_blocks(cols, sk->dot_block, rows, count);
	for (int i = 0; i < 3; i++)
		if (count[i] > 0)
			t += count[i] *
			     blocks_s(sk, m, sk->dot_block, steps, 2.0 * lanes * rows[i], rate);
	/* Each output's vector of partial sums reduced to one (dot_output_s). */
	return t + m * cols * sk->dot_output_s;
}

/* Time of M x K x N on the library's small-matrix kernel (gemm.small_kernel)
 * at one unit's FLOP rate: N in strips of each block's width, widest first,
 * and what is left in one strip of the narrowest, its lanes masked, each
 * strip's M in blocks of its rows (K steps of the strip's FLOPs); but a tail
 * of at most dot_max_rows columns of N with K >= dot_min_k as dot products
 * (dot_s()), its columns of B first copied transposed (dot_copy_s per
 * element of K), and all of N so where B is transposed as stored (a
 * linear's weight: both operands run along K, nothing copied). */
static double small_kernel_s(const struct rv_gemm_small_kernel *sk, double m, double k, double n,
                             double rate, int transposed)
{
	double left = n, total_s = 0, lanes = sk->block_n[sk->n_blocks - 1];

	if (transposed && sk->dot_block)
		return dot_s(sk, m, k, n, lanes, rate);
	for (size_t b = 0; b < sk->n_blocks && left > 0; b++) {
		double w = sk->block_n[b];
		double strips = rv_floor(left / w);

		if (b + 1 == sk->n_blocks && left > strips * w) {
			double tail = left - strips * w;

			if (sk->dot_block && tail <= sk->dot_max_rows && k >= sk->dot_min_k)
				total_s += dot_s(sk, m, k, tail, lanes, rate) + k * sk->dot_copy_s;
			else
				strips += 1;
		}
		if (strips > 0)
			total_s += strips * blocks_s(sk, m, sk->block_m[b], k, 2.0 * w, rate);
		left -= strips * w;
	}
	return total_s;
}

static double blas_gemm(struct rv_prediction *r, const struct rv_profile *p,
                        const struct rv_compute *c, const struct rv_shape *s, enum rv_op op,
                        double e)
{
	const struct rv_gemm *g = &p->gemm;
	/* matmul (M, K, N); linear (B, IN, OUT) is the same GEMM with a bias. */
	double m = (double)s->dim[0], k = (double)s->dim[1], n = (double)s->dim[2];
	double bias_B = op == RV_OP_LINEAR ? r->footprint.weight_B - e * k * n : 0;
	int packs;
	/* A call on fewer units gets their share of the FLOP rate and of the
	 * private tiers' ports (body_time), as an elementwise op does. */
	unsigned units = gemm_units(p, op, m, k, n, &packs);
	double share = (double)units / (double)p->compute_units;
	double slots = (double)units * g->tiles_per_unit;
	/* Handing a call to the BLAS's other threads (waking them, and the
	 * partition's synchronisation) before any of them computes: a fixed
	 * time per call on more than one unit (gemm.threading.dispatch_s), and
	 * the panels of our A that they share, packed and waited for, at
	 * gemm.threading.shared_pack_Bps, a hand-over of each step of K after
	 * the first (gemm.threading.k_step_s), and for a linear the other
	 * units' share of C, crossing to them from the core where the bias
	 * copy wrote it and back (gemm.threading.bias_handoff_Bps). */
	double dispatch_s = 0;
	/* A small-matrix kernel (packs 0) works on the operands in place with
	 * masked edges: no micro-tile quantization and no packing to amortize
	 * over M or N; its K loop still fills and drains the pipeline. On this
	 * VM's OpenBLAS, 6 x 1024 x N linears run at 156 to 164 GFLOP/s on one
	 * thread for N from 16 to 128, and K = 32, 64, 256 at 0.33, 0.57, 0.88
	 * of K = 1024's rate. */
	double eff_small = packs ? rv_small_dim(m, g->half_m) * rv_small_dim(n, g->half_n) *
	                                   rv_small_dim(k, g->half_k)
	                         : rv_small_dim(k, g->half_k);
	/* Where the profile describes that kernel's register blocks, its time
	 * comes from them instead (its efficiency the share of it that the
	 * FLOPs take at the unit's rate). */
	double small_s = 0;
	double best_s = HUGE_VAL;
	/* Two predictions that take turns as the candidate and the best so far:
	 * each candidate sets every field that a tile changes (the others stay
	 * r's), so neither is copied per tile. */
	struct rv_prediction buf[2], *cand = &buf[0], *best = NULL;
	struct blas_tiers bt;

	/* A call that packs first takes the library's buffer and sets up its
	 * driver (gemm.threading.packed_call_s), which the small-matrix kernel
	 * does not. */
	if (packs)
		dispatch_s = g->threading.packed_call_s;
	if (units > 1) {
		dispatch_s += g->threading.dispatch_s;
		if (g->threading.shared_pack_Bps > 0 && n >= (double)g->threading.shared_pack_min_n)
			dispatch_s += e * m * k / g->threading.shared_pack_Bps;
		dispatch_s += (k_steps(g, k) - 1) * g->threading.k_step_s;
		if (g->threading.split_line_B && n >= (double)g->threading.split_n_from)
			dispatch_s +=
			        split_lines(g, op, m, k, n, e, units) * g->threading.split_line_s;
		if (op == RV_OP_LINEAR && g->threading.bias_handoff_Bps > 0)
			dispatch_s += 2.0 * (units - 1) / units * e * m * n /
			              g->threading.bias_handoff_Bps;
	}
	if (!packs && g->small.n_blocks) {
		double unit_rate = c->effective_flop_per_s * share;

		small_s = small_kernel_s(&g->small, m, k, n, unit_rate, op == RV_OP_LINEAR);
		eff_small = 2.0 * m * n * k / unit_rate / small_s;
		r->small_kernel = 1;
	}
	blas_tiers_of(&bt, p, op, m, n, e, r->footprint.working_set_B, share);
	rv_first_touch(r, p, units);
	/* A linear's bias copied into each of the M rows of C before the call,
	 * row by row on the calling thread (gemm.bias_row_s), writing C's bytes
	 * at gemm.bias_Bps, or at one unit's share of the inner tier's
	 * bandwidth where C fits in its share of that tier: core time. */
	r->bias_s = 0;
	if (op == RV_OP_LINEAR) {
		double c_B = e * m * n, bias_Bps = g->bias_Bps;

		if (bias_Bps > 0 && p->n_memory > 1 &&
		    !(rv_miss_share(p, 1, c_B, 1.0 / p->compute_units) > 0))
			bias_Bps = p->memory[0].effective_bw_Bps / p->compute_units;
		r->bias_s = m * g->bias_row_s + (bias_Bps > 0 ? c_B / bias_Bps : 0);
	}
	/* A CPU BLAS that packs copies A (M x K) and B (K x N) into its panels,
	 * each unit its share, before its kernels read them: core time, at
	 * gemm.pack_Bps per unit, which the kernels wait for; and it covers
	 * each unit's share of M kernel call by kernel call, each copying its
	 * slice of A and entering the kernel, once per step of K (gemm.
	 * threading.kernel_call_s). */
	r->pack_s = 0;
	if (packs && g->pack_Bps > 0 && p->hw_class == RV_HW_CPU) {
		/* a linear's weight, stored transposed, at its own rate where the
		 * profile states one (gemm.pack_transposed_Bps) */
		double b_Bps = op == RV_OP_LINEAR && g->pack_transposed_Bps > 0
		                       ? g->pack_transposed_Bps
		                       : g->pack_Bps;

		r->pack_s = fmax((e * m * k / g->pack_Bps + e * k * n / b_Bps) / units,
		                 rv_source_s(p, &bt.core, e * (m * k + k * n), share));
	}
	if (packs && g->threading.kernel_call_rows)
		r->pack_s +=
		        rv_ceil_div(rv_ceil_div(m, units), (double)g->threading.kernel_call_rows) *
		        k_steps(g, k) * g->threading.kernel_call_s;
	buf[0] = *r;
	buf[1] = *r;

	for (size_t t = 0; t < g->n_tiles; t++) {
		unsigned tm = g->tile_m[t], tn = g->tile_n[t];
		/* one FMA of a tile's tn rows, at one slot's share of the rate,
		 * for the packed kernel's blocks */
		struct kernel_steps ks = {
			k, g->packed.n_widths ? 2.0 * tn / (c->effective_flop_per_s * share / slots)
			                      : 0
		};
		double tiles = tiles_of(g, m, n, tm, tn, &ks);
		/* Edge kernels at the full rate, or blocks timed by the packed
		 * kernel: a fraction of tiles, summed over the slots. */
		int fractional = g->quantum_m || g->packed.n_widths;
		double waves = fractional ? tiles / slots : rv_ceil_div(tiles, slots);

		/* A BLAS that partitions C among its threads (gemm.threading.
		 * split_n_from) gives each unit a slab: N's share from that N on,
		 * else M's, each slab's edges its own. */
		if (units > 1 && g->threading.split_n_from) {
			int split_n = n >= (double)g->threading.split_n_from;
			double slab = split_n ? tiles_of(g, m, rv_ceil_div(n, units), tm, tn, &ks)
			                      : tiles_of(g, rv_ceil_div(m, units), n, tm, tn, &ks);

			tiles = fmin(tiles, slab * units);
			/* With M in pieces, every piece has edges of its own. */
			if (g->threading.m_pieces) {
				double sum, most;

				piece_tiles(g, m, split_n ? rv_ceil_div(n, units) : n, units, tm,
				            tn, &ks, &sum, &most);
				slab = split_n ? sum : most;
				tiles = split_n ? slab * units : sum;
			}
			waves = fractional ? slab / g->tiles_per_unit
			                   : rv_ceil_div(slab, g->tiles_per_unit);
		}
		/* A partial last wave takes a whole wave's time. */
		double wave_time = waves;
		double body_s;

		/* A single-row tile is a matrix-vector kernel: libraries use it for a
		 * single row only. */
		if (tm == 1 && m > 1 && g->n_tiles > 1)
			continue;
		/* A tile's work grows with its area and the cost of staging its panels
		 * with its edges, so a small tile runs at 1 / (1 + e / tm + e / tn) of
		 * the rate. Each wave takes one tile's time on one slot, whose share of
		 * the effective peak is 1 / slots. */
		double eff_edge = packs ? 1.0 / (1.0 + g->tile_edge / tm + g->tile_edge / tn) : 1.0;

		cand->compute_s =
		        (packs ? wave_time * (2.0 * tm * tn * k) /
		                         (c->effective_flop_per_s * share / slots) /
		                         (eff_small * eff_edge)
		         : small_s > 0 ? small_s
		                       : 2.0 * m * n * k / (c->effective_flop_per_s * share) /
		                                 eff_small) +
		        r->first_touch_s + r->bias_s + r->pack_s;
		cand->tile_m = tm;
		cand->tile_n = tn;
		cand->tiles = (uint64_t)rv_ceil(tiles);
		cand->waves = (uint64_t)rv_ceil(waves);
		cand->eff_tile = packs ? m * n / (tiles * tm * tn) : 1.0;
		cand->eff_wave = packs ? tiles / (wave_time * slots) : 1.0;
		cand->eff_small = eff_small;
		cand->eff_edge = eff_edge;
		/* Its body time is at least its compute time (or NaN with it): a
		 * tile whose compute time does not beat the best cannot win, and
		 * its traffic is not needed. */
		if (!(cand->compute_s < best_s))
			continue;
		blas_traffic(cand->tier_B, p, &bt, m, k, n, e, bias_B, tm, tn, packs);
		body_s = rv_body_time(cand, p, share);
		if (body_s < best_s) {
			best_s = body_s;
			best = cand;
			cand = cand == &buf[0] ? &buf[1] : &buf[0];
		}
	}
	if (best)
		*r = *best;
	r->handover_s = dispatch_s;
	return best_s + dispatch_s;
}

const struct rv_executor_ops rv_executor_blas_l3 = {
	.name = "blas_l3",
	.version = RV_EXECUTOR_OPS_VERSION,
	.gemm = blas_gemm,
	.elementwise = rv_elementwise_body,
};
