/* SPDX-License-Identifier: MIT */
/* The tiled_waves executor: a GEMM as output tiles spread over the compute
 * units in waves, as cuBLAS runs it on GPUs and Jetsons (model/executor.h;
 * docs/model.md). Compute counts whole tiles and whole waves (or, where the
 * library balances its last wave over every unit, gemm.last_wave, its
 * share); small M, N, K lose efficiency as d / (d + half_d), a tile as
 * 1 / (1 + e / tm + e / tn) for its panel staging (gemm.tile_edge_overhead);
 * a GPU's DRAM serves A and B wave by wave over its shared L2; compute and
 * DRAM time combine as their p-norm where the profile states one
 * (gemm.overlap_norm). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/executor.h"
#include "model/roofline.h"

/* x^q for a whole q in 1 .. 64 by squaring (at most 11 multiplications,
 * each rounded once, against pow()'s one rounding); else pow(). */
static inline double pow_whole(double x, unsigned q)
{
	double r = 1.0;

	for (;;) {
		if (q & 1u)
			r *= x;
		if (!(q >>= 1))
			return r;
		x *= x;
	}
}

/* The p-norm (a^q + b^q)^(1/q) of compute and DRAM time (q >= 1). pow()
 * is most of a norm's cost, three calls each: for a whole q (every shipped
 * profile's: 2) the powers are multiplications and the root of q = 1, 2 or
 * 4 is exact or sqrt(), so q = 2 is sqrt(a * a + b * b), correctly rounded
 * at each step; other whole q take one pow() for the root. Within a few
 * ULP of the three pow() calls (docs/benchmarks.md). */
static double overlap_pnorm(double a, double b, double q)
{
	unsigned w = q >= 1.0 && q <= 64.0 ? (unsigned)q : 0;
	double s;

	if (w == 0 || (double)w < q) /* not whole */
		return pow(pow(a, q) + pow(b, q), 1.0 / q);
	if (w == 2)
		return sqrt(a * a + b * b);
	s = pow_whole(a, w) + pow_whole(b, w);
	if (w == 1)
		return s;
	if (w == 4)
		return sqrt(sqrt(s));
	return pow(s, 1.0 / q);
}

/* Bytes of rows (or columns) lo..hi of a dimension of size dim cut in tiles
 * of t, per unit of K and element size: edge tiles hold only what exists. */
static double span(double lo, double hi, double t, double dim)
{
	return fmax(0.0, fmin(dim, (hi + 1) * t) - lo * t);
}

/* span() in integers, for indices and sizes below 2^52, where every value it
 * computes in doubles is an exact integer: the same number. */
static inline int64_t span_int(int64_t lo, int64_t hi, int64_t t, int64_t dim)
{
	int64_t end = (hi + 1) * t < dim ? (hi + 1) * t : dim;

	return end - lo * t > 0 ? end - lo * t : 0;
}

/* DRAM bytes of A and B for a GPU GEMM, from the panels its waves touch: a
 * panel shared by a wave's CTAs crosses once, one the previous wave touched
 * is still in L2 when the wave fits; N is the raster's fast index
 * (docs/model.md). The reference form, for grids too large for the integer
 * walk below. */
static double gpu_wave_traffic_ref(double m, double k, double n, double e, unsigned tm, unsigned tn,
                                   double slots, double l2_B)
{
	double tiles_n = rv_ceil_div(n, tn), tiles = rv_ceil_div(m, tm) * tiles_n;
	double col_B = n / tiles_n; /* a column panel's width, edge spread evenly */
	double bytes = 0, pr0 = 0, pr1 = -1, pcols = 0, a;
	int prev_fits = 0;

	/* A wave covers tiles a..b: rows r0..r1 of A and, wrapping around, the
	 * next min(b - a + 1, tiles_n) columns of B after the previous wave's. */
	for (a = 0; a < tiles && a < 65536 * slots; a += slots) {
		double b = fmin(a + slots, tiles) - 1;
		double r0 = floor(a / tiles_n), r1 = floor(b / tiles_n);
		double cols = fmin(b - a + 1, tiles_n), rows = span(r0, r1, tm, m);
		double wave = rows + cols * col_B;

		if (prev_fits)
			wave -= span(fmax(r0, pr0), fmin(r1, pr1), tm, m) +
			        fmax(0.0, pcols + cols - tiles_n) * col_B;
		bytes += wave * k * e;
		prev_fits = (rows + cols * col_B) * k * e <= l2_B;
		pr0 = r0;
		pr1 = r1;
		pcols = cols;
	}
	/* Beyond 65536 waves the pattern repeats row after row: scale. */
	return a < tiles ? bytes * tiles / a : bytes;
}

/* gpu_wave_traffic_ref() with the tile, row and column indices in integers:
 * they are exact integers in its doubles too (every one below 2^52, so that
 * floor(a / tiles_n) is the integer quotient), so each wave's bytes, and
 * their sum in the same order, come out bit for bit the same; the row of a
 * wave's first tile advances by whole rows and a remainder instead of a
 * division per wave.
 *
 * Where every wave's bytes are a multiple of the element size (a column
 * panel of whole columns: tiles_n divides N; an element size a power of
 * two) and the sum stays below 2^50 bytes, every partial sum is exact, so
 * the order of the sum cannot change it. Then the waves that touch no edge
 * row repeat with the period of their first tile's column: wave w's bytes
 * depend only on (w * slots) mod tiles_n, as do the previous wave's rows
 * and whether it fitted. After one period (waves 1..P) the walk adds whole
 * periods at once and goes on from the first wave it did not cover. */
/* The longest period of interior waves' bytes that gpu_wave_traffic() keeps
 * to add again. */
#define RV_WAVE_PERIOD_MAX 256

/* Not inlined: its walk outweighs a call, and gemm_traffic(), its caller,
 * stays small enough to inline into the tile loops of gemm_body(). */
static __attribute__((noinline)) double gpu_wave_traffic(double m, double k, double n, double e,
                                                         unsigned tm, unsigned tn, double slots,
                                                         double l2_B)
{
	double tiles_n = rv_ceil_div(n, tn), tiles = rv_ceil_div(m, tm) * tiles_n;
	double col_B = n / tiles_n;
	double bytes = 0, a;
	int64_t tn_i, t_i, s_i, m_i = (int64_t)m, tm_i = tm, w, n_waves;
	int64_t r0, c0, q, rem, q1, rem1, pr1 = -1, pcols = 0, last_r, cols_full, ov_full;
	double cols_B, ov_B, period_B = 0, e_frac;
	int64_t period = 0, interior = 0;
	int prev_fits = 0, e_exp;

	if (!(tiles < 0x1p40 && slots >= 1 && slots < 0x1p31 && !((double)(int64_t)slots < slots) &&
	      m < 0x1p41))
		return gpu_wave_traffic_ref(m, k, n, e, tm, tn, slots, l2_B);
	tn_i = (int64_t)tiles_n;
	t_i = (int64_t)tiles;
	s_i = (int64_t)slots;
	n_waves = (t_i + s_i - 1) / s_i;
	if (n_waves > 65536)
		n_waves = 65536;
	q = s_i / tn_i;
	rem = s_i % tn_i;
	q1 = (s_i - 1) / tn_i;
	rem1 = (s_i - 1) % tn_i;
	last_r = (t_i - 1) / tn_i;
	cols_full = s_i < tn_i ? s_i : tn_i;
	cols_B = (double)cols_full * col_B;
	ov_full = 2 * cols_full - tn_i > 0 ? 2 * cols_full - tn_i : 0;
	ov_B = (double)ov_full * col_B;
	/* Waves 0..interior-1 are whole and end before the last row. */
	interior = last_r * tn_i >= s_i ? (last_r * tn_i - s_i) / s_i + 1 : 0;
	if (interior > n_waves)
		interior = n_waves;
	/* The period of the interior waves, where the sum is exact (looked for
	 * only where there are waves enough to skip). */
	e_frac = interior > 64 ? frexp(e, &e_exp) : 0;
	if (interior > 64 && (int64_t)n % tn_i == 0 && !(e_frac < 0.5) && !(e_frac > 0.5) &&
	    (double)n_waves * (m + n) * k * e < 0x1p50) {
		int64_t g = tn_i, h = rem;

		while (h) { /* gcd(rem, tn_i) */
			int64_t t = g % h;

			g = h;
			h = t;
		}
		period = tn_i / g;
	}
	r0 = 0;
	c0 = 0;
	w = 0;
	if (interior >= 2) {
		/* An interior wave spans q1 + 1 + bit rows (bit: its last tile is
		 * in the next row), all of its columns, and shares with the one
		 * before it q1 + bp - q - cp + 1 rows (bp: that wave's bit; cp:
		 * whether its first tile's column wrapped) and ov_full columns.
		 * Its bytes are one of eight numbers, each computed as the loop
		 * below computes them. */
		double full2[2], term[8], x;
		int fits[2], bit;
		unsigned prev; /* the wave before's bit << 1 | carry << 2 */
		int64_t carry, thr, c;

		for (int b = 0; b < 2; b++) {
			full2[b] = (double)((q1 + 1 + b) * tm_i) + cols_B;
			fits[b] = full2[b] * k * e <= l2_B;
		}
		for (int idx = 0; idx < 8; idx++) {
			int64_t d = q1 + (idx >> 1 & 1) - q - (idx >> 2) + 1;
			double shared = (double)((d > 0 ? d : 0) * tm_i) + ov_B;
			double wave = full2[idx & 1] - (fits[idx >> 1 & 1] ? shared : 0.0);

			term[idx] = wave * k * e;
		}
		/* Wave 0: nothing before it fits. */
		bit = c0 + rem1 >= tn_i;
		bytes += (full2[bit] - 0.0) * k * e;
		c0 += rem;
		carry = c0 >= tn_i;
		c0 -= carry * tn_i;
		prev = (unsigned)bit << 1 | (unsigned)carry << 2;
		/* Wave w starts at tile w * slots: row (w * slots) / tiles_n and
		 * column c0 = (w * slots) % tiles_n, which advances by rem and wraps
		 * (carry); its last tile is in the next row (bit) where c0 + rem1
		 * reaches tiles_n. Only c0 is walked; the rows are quotients. */
		thr = tn_i - rem1;
		w = 1;
		if (period > 0 && period + period < interior) {
			for (; w <= period; w++) {
				bit = c0 >= thr;
				x = term[(unsigned)bit | prev];
				bytes += x;
				period_B += x;
				c0 += rem;
				carry = c0 >= tn_i;
				c0 -= carry * tn_i;
				prev = (unsigned)bit << 1 | (unsigned)carry << 2;
			}
			/* Waves 0..period were interior; so are the next c periods,
			 * which leave c0 (and so bit and carry) as they found it. */
			c = (interior - 1 - period) / period;
			bytes += (double)c * period_B;
			w += c * period;
		}
		/* Where the sum is not known exact, every wave's bytes are added
		 * in order; but from wave 1 on they repeat with the period of c0,
		 * tiles_n / gcd(rem, tiles_n): where two periods fit, the first
		 * one's bytes are kept and added again, in the same order. */
		if (interior - w > 32) {
			int64_t g = tn_i, h = rem, np;

			while (h) { /* gcd(rem, tn_i) */
				int64_t t = g % h;

				g = h;
				h = t;
			}
			np = tn_i / g;
			if (np <= RV_WAVE_PERIOD_MAX && np + np <= interior - w) {
				double seq[RV_WAVE_PERIOD_MAX];
				int64_t j;

				for (j = 0; j < np; j++, w++) {
					bit = c0 >= thr;
					seq[j] = term[(unsigned)bit | prev];
					bytes += seq[j];
					c0 += rem;
					carry = c0 >= tn_i;
					c0 -= carry * tn_i;
					prev = (unsigned)bit << 1 | (unsigned)carry << 2;
				}
				for (; w + np <= interior; w += np)
					for (j = 0; j < np; j++)
						bytes += seq[j];
				for (j = 0; w < interior; j++, w++)
					bytes += seq[j];
			}
		}
		for (; w < interior; w++) {
			bit = c0 >= thr;
			bytes += term[(unsigned)bit | prev];
			c0 += rem;
			carry = c0 >= tn_i;
			c0 -= carry * tn_i;
			prev = (unsigned)bit << 1 | (unsigned)carry << 2;
		}
		r0 = interior * s_i / tn_i;
		c0 = interior * s_i % tn_i;
		pr1 = (interior * s_i - 1) / tn_i; /* the last interior wave's last tile */
		pcols = cols_full;
		prev_fits = fits[(interior - 1) * s_i % tn_i >= thr];
	}
	for (; w < n_waves; w++) {
		int64_t a_i = w * s_i, r1, cols, rows, ov, carry;
		double full, shared, wave;

		if (a_i + s_i <= t_i) {
			r1 = r0 + q1 + (c0 + rem1 >= tn_i);
			cols = s_i < tn_i ? s_i : tn_i;
		} else {
			r1 = last_r;
			cols = t_i - a_i < tn_i ? t_i - a_i : tn_i;
		}
		rows = span_int(r0, r1, tm_i, m_i);
		/* Every wave but the first and the last has cols_full columns and
		 * shares ov_full of them with the one before: their products with
		 * col_B are computed once. */
		full = (double)rows + (cols == cols_full ? cols_B : (double)cols * col_B);
		/* pr0 <= r0 and pr1 <= r1: the rows shared are r0..pr1. Without a
		 * fitting previous wave nothing is subtracted: full - +0 is full. */
		ov = pcols + cols - tn_i;
		ov = ov > 0 ? ov : 0;
		shared = (double)span_int(r0, pr1 < r1 ? pr1 : r1, tm_i, m_i) +
		         (ov == ov_full ? ov_B : (double)ov * col_B);
		wave = full - (prev_fits ? shared : 0.0);
		bytes += wave * k * e;
		prev_fits = full * k * e <= l2_B;
		pr1 = r1;
		pcols = cols;
		r0 += q;
		c0 += rem;
		carry = c0 >= tn_i;
		c0 -= carry * tn_i;
		r0 += carry;
	}
	a = (double)n_waves * slots;
	return a < tiles ? bytes * tiles / a : bytes;
}

/* The fields of c that gemm_body() sets for a tile, into r. */
static void take_tile(struct rv_prediction *r, const struct rv_prediction *c)
{
	r->compute_s = c->compute_s;
	r->tile_m = c->tile_m;
	r->tile_n = c->tile_n;
	r->tiles = c->tiles;
	r->waves = c->waves;
	r->eff_tile = c->eff_tile;
	r->eff_wave = c->eff_wave;
	r->eff_small = c->eff_small;
	r->eff_edge = c->eff_edge;
	memcpy(r->tier_B, c->tier_B, sizeof(r->tier_B));
	memcpy(r->tier_s, c->tier_s, sizeof(r->tier_s));
	r->binding = c->binding;
}

/* GPUs (discrete and Jetson) run a GEMM as waves of CTAs over a shared L2. */
static int gpu_waves(const struct rv_profile *p)
{
	return p->hw_class == RV_HW_GPU || p->hw_class == RV_HW_JETSON;
}

/* Bytes crossing out of each tier with output tile (tm, tn): a GPU's DRAM
 * serves A and B wave by wave (gpu_wave_traffic()), then C and the bias
 * once; every other tier as the roofline core's tiled GEMM
 * (rv_gemm_tier_bytes()). */
static inline __attribute__((always_inline)) void
waves_traffic(double tier_B[RV_TIER_COUNT], const struct rv_profile *p,
              const struct rv_gemm_tiers *gt, double m, double k, double n, double e, double bias_B,
              unsigned tm, unsigned tn)
{
	for (size_t i = 0; i < p->n_memory; i++) {
		double q;

		if (gpu_waves(p) && i >= 1 && i + 1 == p->n_memory)
			q = gpu_wave_traffic(m, k, n, e, tm, tn,
			                     (double)p->compute_units * p->gemm.tiles_per_unit,
			                     p->memory[i - 1].effective_capacity_B) +
			    e * m * n + bias_B;
		else
			q = rv_gemm_tier_bytes(gt, i, m, k, n, e, bias_B, tm, tn);
		tier_B[p->memory[i].tier] = q * gt->miss[i];
	}
}

/* GEMM compute and traffic with the tile that finishes first. */
static double waves_gemm(struct rv_prediction *r, const struct rv_profile *p,
                         const struct rv_compute *c, const struct rv_shape *s, enum rv_op op,
                         double e)
{
	const struct rv_gemm *g = &p->gemm;
	double m = (double)s->dim[0], k = (double)s->dim[1], n = (double)s->dim[2];
	double bias_B = op == RV_OP_LINEAR ? r->footprint.weight_B - e * k * n : 0;
	/* Every call runs on every unit. */
	double slots = (double)p->compute_units * g->tiles_per_unit;
	double eff_small = rv_small_dim(m, g->half_m) * rv_small_dim(n, g->half_n) *
	                   rv_small_dim(k, g->half_k);
	double best_s = HUGE_VAL;
	/* Two predictions that take turns as the candidate and the best so far:
	 * each candidate sets every field that a tile changes (the others stay
	 * r's), so neither is copied per tile. */
	struct rv_prediction buf[2], *cand = &buf[0], *best = NULL;
	/* With a p-norm (below), each tile's fields (take_tile()) are kept, and
	 * its traffic, body time and norm (overlap_pnorm()) computed afterwards,
	 * tiles in the order of their compute time, only for a tile that can
	 * still win. */
	struct rv_prediction all[RV_GEMM_MAX_TILES];
	double pre[RV_GEMM_MAX_TILES];
	size_t order[RV_GEMM_MAX_TILES], n_kept = 0, best_t = SIZE_MAX;
	int pnorm = g->overlap_norm > 0 && g->n_tiles <= RV_GEMM_MAX_TILES;
	struct rv_gemm_tiers gt;

	rv_gemm_tiers_of(&gt, p, m, n, e, r->footprint.working_set_B, 1.0);
	rv_first_touch(r, p, p->compute_units);
	buf[0] = *r;
	buf[1] = *r;

	for (size_t t = 0; t < g->n_tiles; t++) {
		unsigned tm = g->tile_m[t], tn = g->tile_n[t];
		double tiles = rv_ceil_div(m, tm) * rv_ceil_div(n, tn);
		double waves = rv_ceil_div(tiles, slots);
		/* A partial last wave takes a whole wave's time, unless the library
		 * balances it over every slot (gemm.last_wave). */
		double wave_time = g->last_wave == RV_LAST_WAVE_BALANCED ? tiles / slots : waves;
		double body_s;

		/* A single-row tile is a matrix-vector kernel: libraries use it for a
		 * single row only. */
		if (tm == 1 && m > 1 && g->n_tiles > 1)
			continue;
		/* A tile's work grows with its area and the cost of staging its panels
		 * with its edges, so a small tile runs at 1 / (1 + e / tm + e / tn) of
		 * the rate. Each wave takes one tile's time on one slot, whose share of
		 * the effective peak is 1 / slots. */
		double eff_edge = 1.0 / (1.0 + g->tile_edge / tm + g->tile_edge / tn);

		if (pnorm) { /* the tiers the profile lacks stay r's */
			cand = &all[t];
			memcpy(cand->tier_B, r->tier_B, sizeof(r->tier_B));
			memcpy(cand->tier_s, r->tier_s, sizeof(r->tier_s));
		}
		cand->compute_s = wave_time * (2.0 * tm * tn * k) /
		                          (c->effective_flop_per_s / slots) /
		                          (eff_small * eff_edge) +
		                  r->first_touch_s;
		cand->tile_m = tm;
		cand->tile_n = tn;
		cand->tiles = (uint64_t)rv_ceil(tiles);
		cand->waves = (uint64_t)rv_ceil(waves);
		cand->eff_tile = m * n / (tiles * tm * tn);
		cand->eff_wave = tiles / (wave_time * slots);
		cand->eff_small = eff_small;
		cand->eff_edge = eff_edge;
		if (pnorm) { /* its traffic below, only if it can still win */
			pre[t] = cand->compute_s;
			order[n_kept++] = t;
			continue;
		}
		/* Its body time is at least its compute time (or NaN with it): a
		 * tile whose compute time does not beat the best cannot win, and
		 * its traffic (a GPU's wave walk) is not needed. */
		if (!(cand->compute_s < best_s))
			continue;
		waves_traffic(cand->tier_B, p, &gt, m, k, n, e, bias_B, tm, tn);
		body_s = rv_body_time(cand, p, 1.0);
		if (body_s < best_s) {
			best_s = body_s;
			best = cand;
			cand = cand == &buf[0] ? &buf[1] : &buf[0];
		}
	}
	if (!pnorm) {
		if (best)
			*r = *best;
		return best_s;
	}
	/* The tiles by compute time (NaN first), stably: a lower bound of their
	 * body time (rv_body_time() starts from it; it is NaN only where that
	 * is) and so of fmax(body, norm). */
	for (size_t i = 1; i < n_kept; i++) {
		size_t x = order[i], j = i;

		while (j > 0 &&
		       (isnan(pre[x]) ? !isnan(pre[order[j - 1]]) : pre[x] < pre[order[j - 1]])) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
	/* Compute and DRAM time overlap fully (max) only when one of them
	 * dominates; near the balance point the two contend: a CTA whose
	 * operands have not arrived issues no MMAs, and with a few CTAs per SM
	 * the others cannot cover the wait, while the wave's CTAs start their K
	 * loops (loads first) and end them (MMAs and the store of C) together.
	 * A p-norm of the two keeps both limits (p = 1: their sum, no overlap;
	 * a large p: their max) and costs most, 2^(1/p), where they are equal.
	 * The first tile of the least fmax(body, norm) below HUGE_VAL wins: the
	 * least (time, index). A tile whose compute time, or then body time, is
	 * already past the best so far cannot be it: its traffic (the GPU wave
	 * walk) and norm are skipped. */
	for (size_t i = 0; i < n_kept; i++) {
		size_t t = order[i];
		double q = g->overlap_norm, dram_s, f;

		if (!isnan(pre[t]) && (pre[t] > best_s || (pre[t] >= best_s && t > best_t)))
			continue;
		waves_traffic(all[t].tier_B, p, &gt, m, k, n, e, bias_B, all[t].tile_m,
		              all[t].tile_n);
		pre[t] = rv_body_time(&all[t], p, 1.0);
		if (!isnan(pre[t]) && (pre[t] > best_s || (pre[t] >= best_s && t > best_t)))
			continue;
		dram_s = all[t].tier_s[p->memory[p->n_memory - 1].tier];
		f = fmax(pre[t], overlap_pnorm(all[t].compute_s, dram_s, q));
		if (f < best_s ||
		    (best_t != SIZE_MAX && f <= best_s && f >= best_s && t < best_t)) {
			best_s = f;
			best_t = t;
		}
	}
	if (best_t != SIZE_MAX)
		take_tile(r, &all[best_t]);
	return best_s;
}

const struct rv_executor_ops rv_executor_tiled_waves = {
	.name = "tiled_waves",
	.version = RV_EXECUTOR_OPS_VERSION,
	.gemm = waves_gemm,
	.elementwise = rv_elementwise_body,
};
