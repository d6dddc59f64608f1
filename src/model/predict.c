/* SPDX-License-Identifier: MIT */
/* The analytical latency and energy model. */
#include "model/predict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"

const char *rv_bound_name(int binding)
{
	if (binding == RV_BOUND_COMPUTE)
		return "compute";
	if (binding == RV_BOUND_OVERHEAD)
		return "overhead";
	return rv_tier_name((enum rv_tier)binding);
}

/* Efficiency of a dimension d that is amortised over half_d: d / (d + half_d). */
static double small_dim(double d, double half_d)
{
	return d / (d + half_d);
}

/* floor and ceil of x, bit for bit, without a call into libm (gcc inlines
 * neither without SSE4.1): below 2^52 a non-negative double converts to an
 * integer and back exactly (and +0 stays +0), and a double from 2^52 up is
 * an integer already; anything else (negative, NaN) goes to libm. */
static inline double floor_of(double x)
{
	return x >= 0 && x < 0x1p52 ? (double)(int64_t)x : floor(x);
}

static inline double ceil_of(double x)
{
	if (x >= 0 && x < 0x1p52) {
		double t = (double)(int64_t)x;

		return t < x ? t + 1 : t;
	}
	return ceil(x);
}

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

static double ceil_div(double a, double b)
{
	return ceil_of(a / b);
}

/* CPU stores allocate the line before writing it (a read for ownership), so
 * the bytes written cross each tier beyond L1 twice. GPUs write whole sectors
 * without reading them. */
static int write_allocates(const struct rv_profile *p)
{
	return p->hw_class == RV_HW_CPU;
}

/* Pages of an output of output_B that come from the OS new on every call
 * (fresh_output), or 0. */
static double fresh_pages(const struct rv_profile *p, double output_B)
{
	const struct rv_fresh_output *f = &p->fresh_output;

	if (!f->provenance || output_B < (double)f->min_B)
		return 0;
	return ceil_of(output_B / (double)f->page_B);
}

/* Whether the output's lines are read from the tiers beyond L1 before they
 * are written: a CPU's write-allocate, except into a fresh page, which the
 * kernel has just zeroed through the cache. */
static int output_allocates(const struct rv_profile *p, double output_B)
{
	return write_allocates(p) && !(fresh_pages(p, output_B) > 0);
}

/* GPUs (discrete and Jetson) run a GEMM as waves of CTAs over a shared L2. */
static int gpu_waves(const struct rv_profile *p)
{
	return p->hw_class == RV_HW_GPU || p->hw_class == RV_HW_JETSON;
}

/* Share of the traffic tier i must serve on a repeated call, given what the
 * tier inside it (i - 1) still holds from the call before (docs/model.md). */
static double miss_share(const struct rv_profile *p, size_t i, double working_set_B, double share)
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
	double tiles_n = ceil_div(n, tn), tiles = ceil_div(m, tm) * tiles_n;
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
	double tiles_n = ceil_div(n, tn), tiles = ceil_div(m, tm) * tiles_n;
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

/* What gemm_traffic() needs of each tier that no tile changes: the side of
 * the square block of C the tier inside it holds, and the share of the
 * traffic it serves (miss_share()); and whether the output allocates. */
struct gemm_tiers {
	double block[RV_TIER_COUNT], miss[RV_TIER_COUNT];
	int allocates;
	double zero_B;     /* C's bytes of a pass that zeroes it first (gemm.beta_zero), or 0 */
	int zero_llc_once; /* that pass's lines cost once at the last cache tier */
};

static void gemm_tiers_of(struct gemm_tiers *gt, const struct rv_profile *p, enum rv_op op,
                          double m, double n, double e, double working_set_B, double share)
{
	for (size_t i = 0; i < p->n_memory; i++) {
		gt->block[i] = i >= 1 ? floor_of(sqrt(block_capacity_B(p, i - 1) / (3 * e))) : 0;
		gt->miss[i] = miss_share(p, i, working_set_B, share);
	}
	gt->allocates = output_allocates(p, e * m * n);
	gt->zero_B =
	        op == RV_OP_MATMUL && p->gemm.beta_zero != RV_BETA_ZERO_IN_KERNEL ? e * m * n : 0;
	gt->zero_llc_once = p->gemm.beta_zero == RV_BETA_ZERO_PASS_LLC_ONCE;
}

/* The bandwidth of tier i for an op on share (0, 1] of the units. A
 * private tier (inside the last level cache: a core's L1 and L2, an SM's
 * L1) has a port per unit, so an op on fewer units reaches that share of its
 * aggregate bandwidth; the shared tiers serve whoever asks. */
static double tier_bw(const struct rv_profile *p, size_t i, double share)
{
	return p->memory[i].effective_bw_Bps * (i + 2 < p->n_memory ? share : 1.0);
}

/* The least time of reading bytes of the operands from the tiers that serve
 * them on a repeated call (gt->miss): each tier beyond L1 its share, at its
 * bandwidth for the call (tier_bw()). A copy runs no faster than what it
 * copies arrives. */
static double source_s(const struct rv_profile *p, const struct gemm_tiers *gt, double bytes,
                       double share)
{
	double t = 0;

	for (size_t i = 1; i < p->n_memory; i++) {
		double served = gt->miss[i] - (i + 1 < p->n_memory ? gt->miss[i + 1] : 0);

		if (served > 0)
			t += bytes * served / tier_bw(p, i, share);
	}
	return t;
}

/* Bytes of a GEMM (M x K) * (K x N) crossing out of each tier with output
 * tile (tm, tn). L1 feeds the tile's panels to the registers, so it serves A
 * once per tile column and B once per tile row. Each outer tier serves the
 * tier inside it, which holds a square block of C with its panels (3 b^2
 * elements of the inner tier's capacity, at least one tile): A is re-read
 * once per block column, B once per block row. C is written once (twice
 * beyond L1 where writes allocate); the bias is read once. */
static inline __attribute__((always_inline)) void
gemm_traffic(double tier_B[RV_TIER_COUNT], const struct rv_profile *p, const struct gemm_tiers *gt,
             double m, double k, double n, double e, double bias_B, unsigned tm, unsigned tn,
             int packs)
{
	for (size_t i = 0; i < p->n_memory; i++) {
		double bm = tm, bn = tn, q;

		/* A GPU's DRAM serves A and B wave by wave (below), then C and the
		 * bias once. */
		if (gpu_waves(p) && i >= 1 && i + 1 == p->n_memory) {
			q = gpu_wave_traffic(m, k, n, e, tm, tn,
			                     (double)p->compute_units * p->gemm.tiles_per_unit,
			                     p->memory[i - 1].effective_capacity_B) +
			    e * m * n + bias_B;
			tier_B[p->memory[i].tier] = q * gt->miss[i];
			continue;
		}
		if (i >= 1) {
			/* fmax(tm, fmin(b, m)): b is a finite floor, >= +0, m >= 1. */
			double b = gt->block[i];

			bm = b < m ? b : m;
			bm = bm > tm ? bm : tm;
			bn = b < n ? b : n;
			bn = bn > tn ? bn : tn;
		}
		q = e * (m * k * ceil_div(n, bn) + k * n * ceil_div(m, bm) + m * n) + bias_B;
		if (i >= 1 && gt->allocates)
			q += e * m * n;
		/* A BLAS that zeroes C for beta = 0 in a pass of its own writes it
		 * once more (and, beyond L1, reads it for ownership first) before
		 * its kernel reads and updates it; where the profile says so, its
		 * lines cost once where the last cache tier serves them. */
		q += gt->zero_B *
		     (i >= 1 && gt->allocates && !(gt->zero_llc_once && i + 2 == p->n_memory) ? 2
		                                                                              : 1);
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

static void streaming_traffic(double tier_B[RV_TIER_COUNT], const struct rv_profile *p,
                              const struct rv_footprint *fp, double share)
{
	for (size_t i = 0; i < p->n_memory; i++) {
		double q = fp->working_set_B;

		if (i >= 1 && output_allocates(p, fp->output_B))
			q += fp->output_B;
		tier_B[p->memory[i].tier] = q * miss_share(p, i, fp->working_set_B, share);
	}
}

/* Fills the memory terms and the body time max(compute, tiers) of r, for an
 * op that runs on share (0, 1] of the units (tier_bw()). */
static double body_time(struct rv_prediction *r, const struct rv_profile *p, double share)
{
	double body_s = r->compute_s;

	r->binding = RV_BOUND_COMPUTE;
	for (size_t i = 0; i < p->n_memory; i++) {
		enum rv_tier t = p->memory[i].tier;

		r->tier_s[t] = r->tier_B[t] / tier_bw(p, i, share);
		if (r->tier_s[t] > body_s) {
			body_s = r->tier_s[t];
			r->binding = (int)t;
		}
	}
	return body_s;
}

/* Core time of the fresh pages of r's output, on units of them: faulting and
 * zeroing a page is core work, added to compute (docs/model.md). */
static void first_touch(struct rv_prediction *r, const struct rv_profile *p, double units)
{
	r->fresh_pages = fresh_pages(p, r->footprint.output_B);
	r->first_touch_s = r->fresh_pages * p->fresh_output.page_s / units;
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
	double whole = floor_of(d / t), r = d - whole * t;
	unsigned bits = 0;

	if (quantum && r > 0)
		return whole + fmin(ceil_div(r, quantum) * quantum, t) / t;
	if (edges == RV_EDGES_PAD || !(r > 0))
		return ceil_div(d, t);
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
		double w = (double)pk->widths[i], blocks = floor_of(left / w),
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
	*whole = floor_of(d / t);
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
	return g->threading.k_step ? ceil_div(k, (double)g->threading.k_step) : 1;
}

/* The cache lines that cross between units per call where they split N
 * (gemm.threading.split_line_B): of every row of C, the lines of one unit's
 * share (ceil(N / units) elements), at most split_lines_max, once per pass
 * over C: each step of K, and a matmul's pass that zeroes C first. */
static double split_lines(const struct rv_gemm *g, enum rv_op op, double m, double k, double n,
                          double e, unsigned units)
{
	const struct rv_gemm_threading *t = &g->threading;
	double lines = ceil_div(e * ceil_div(n, units), (double)t->split_line_B);
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
		double range = ceil_div(left, units - u), div = ceil_div(range, pieces), sum = 0;

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
	double whole = floor_of(d / b), r = d - whole * b, pairs = floor_of(r / 2);

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
	double rows[3], count[3], steps = ceil_of(k / lanes), t = 0;

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
		double strips = floor_of(left / w);

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

/* GEMM compute and traffic with the tile that finishes first. */
static double gemm_body(struct rv_prediction *r, const struct rv_profile *p,
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
	double eff_small =
	        packs ? small_dim(m, g->half_m) * small_dim(n, g->half_n) * small_dim(k, g->half_k)
	              : small_dim(k, g->half_k);
	/* Where the profile describes that kernel's register blocks, its time
	 * comes from them instead (its efficiency the share of it that the
	 * FLOPs take at the unit's rate). */
	double small_s = 0;
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
	struct gemm_tiers gt;

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
	gemm_tiers_of(&gt, p, op, m, n, e, r->footprint.working_set_B, share);
	first_touch(r, p, units);
	/* A linear's bias copied into each of the M rows of C before the call,
	 * row by row on the calling thread (gemm.bias_row_s), writing C's bytes
	 * at gemm.bias_Bps, or at one unit's share of the inner tier's
	 * bandwidth where C fits in its share of that tier: core time. */
	r->bias_s = 0;
	if (op == RV_OP_LINEAR) {
		double c_B = e * m * n, bias_Bps = g->bias_Bps;

		if (bias_Bps > 0 && p->n_memory > 1 &&
		    !(miss_share(p, 1, c_B, 1.0 / p->compute_units) > 0))
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
		                 source_s(p, &gt, e * (m * k + k * n), share));
	}
	if (packs && g->threading.kernel_call_rows)
		r->pack_s += ceil_div(ceil_div(m, units), (double)g->threading.kernel_call_rows) *
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
		double waves = fractional ? tiles / slots : ceil_div(tiles, slots);

		/* A BLAS that partitions C among its threads (gemm.threading.
		 * split_n_from) gives each unit a slab: N's share from that N on,
		 * else M's, each slab's edges its own. */
		if (units > 1 && g->threading.split_n_from) {
			int split_n = n >= (double)g->threading.split_n_from;
			double slab = split_n ? tiles_of(g, m, ceil_div(n, units), tm, tn, &ks)
			                      : tiles_of(g, ceil_div(m, units), n, tm, tn, &ks);

			tiles = fmin(tiles, slab * units);
			/* With M in pieces, every piece has edges of its own. */
			if (g->threading.m_pieces) {
				double sum, most;

				piece_tiles(g, m, split_n ? ceil_div(n, units) : n, units, tm, tn,
				            &ks, &sum, &most);
				slab = split_n ? sum : most;
				tiles = split_n ? slab * units : sum;
			}
			waves = fractional ? slab / g->tiles_per_unit
			                   : ceil_div(slab, g->tiles_per_unit);
		}
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
		double eff_edge = packs ? 1.0 / (1.0 + g->tile_edge / tm + g->tile_edge / tn) : 1.0;

		if (pnorm) { /* the tiers the profile lacks stay r's */
			cand = &all[t];
			memcpy(cand->tier_B, r->tier_B, sizeof(r->tier_B));
			memcpy(cand->tier_s, r->tier_s, sizeof(r->tier_s));
		}
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
		cand->tiles = (uint64_t)ceil_of(tiles);
		cand->waves = (uint64_t)ceil_of(waves);
		cand->eff_tile = packs ? m * n / (tiles * tm * tn) : 1.0;
		cand->eff_wave = packs ? tiles / (wave_time * slots) : 1.0;
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
		gemm_traffic(cand->tier_B, p, &gt, m, k, n, e, bias_B, tm, tn, packs);
		body_s = body_time(cand, p, share);
		/* Compute and DRAM time overlap fully (max) only when one of them
		 * dominates; near the balance point the two contend: a CTA whose
		 * operands have not arrived issues no MMAs, and with a few CTAs per
		 * SM the others cannot cover the wait, while the wave's CTAs start
		 * their K loops (loads first) and end them (MMAs and the store of C)
		 * together. A p-norm of the two keeps both limits (p = 1: their sum,
		 * no overlap; a large p: their max) and costs most, 2^(1/p), where
		 * they are equal. */
		if (g->overlap_norm > 0 && !(body_s >= best_s)) { /* else fmax() >= best_s */
			double dram_s = cand->tier_s[p->memory[p->n_memory - 1].tier],
			       q = g->overlap_norm;

			body_s = fmax(body_s, overlap_pnorm(cand->compute_s, dram_s, q));
		}
		if (body_s < best_s) {
			best_s = body_s;
			best = cand;
			cand = cand == &buf[0] ? &buf[1] : &buf[0];
		}
	}
	if (!pnorm) {
		if (best)
			*r = *best;
		r->handover_s = dispatch_s;
		return best_s + dispatch_s;
	}
	/* The tiles by compute time (NaN first), stably: a lower bound of their
	 * body time (body_time() starts from it; it is NaN only where that is)
	 * and so of fmax(body, norm). */
	for (size_t i = 1; i < n_kept; i++) {
		size_t x = order[i], j = i;

		while (j > 0 &&
		       (isnan(pre[x]) ? !isnan(pre[order[j - 1]]) : pre[x] < pre[order[j - 1]])) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
	/* The loop above without a norm picks the first tile of the least
	 * fmax(body, norm) below HUGE_VAL: the least (time, index). A tile
	 * whose compute time, or then body time, is already past the best so
	 * far cannot be it: its traffic (the GPU wave walk) and norm are
	 * skipped. */
	for (size_t i = 0; i < n_kept; i++) {
		size_t t = order[i];
		double q = g->overlap_norm, dram_s, f;

		if (!isnan(pre[t]) && (pre[t] > best_s || (pre[t] >= best_s && t > best_t)))
			continue;
		gemm_traffic(all[t].tier_B, p, &gt, m, k, n, e, bias_B, all[t].tile_m,
		             all[t].tile_n, packs);
		pre[t] = body_time(&all[t], p, share);
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
	r->handover_s = dispatch_s;
	return best_s + dispatch_s;
}

int rv_predict(struct rv_prediction *out, const struct rv_profile *p, enum rv_op op,
               const struct rv_shape *s, enum rv_dtype d)
{
	const struct rv_compute *c = rv_profile_compute(p, d);
	struct rv_prediction r;
	double e = rv_dtype_bytes(d), body_s;
	int err;

	memset(&r, 0, sizeof(r));
	err = rv_footprint_of(&r.footprint, op, s, d);
	if (err < 0)
		return err;
	if (!c) {
		struct rv_buf have = RV_BUF_INIT;

		for (size_t i = 0; i < p->n_compute; i++)
			rv_buf_printf(&have, " %s", rv_dtype_name(p->compute[i].dtype));
		err = rv_error_set(RV_ENOTSUP, "%s is unsupported on %s (its profile lists%s)",
		                   rv_dtype_name(d), p->key, rv_buf_str(&have));
		rv_buf_free(&have);
		return err;
	}
	if (op == RV_OP_VECTOR_ADD) {
		/* The framework splits an elementwise op into chunks of at least
		 * grain_elements (PyTorch's parallel_for grain) over at most max_units
		 * threads (a capture loop may run on one); each unit brings its own
		 * FLOP rate and private-cache ports. */
		const struct rv_elementwise *w = &p->elementwise;
		double n = (double)s->dim[0];
		double used = w->grain_elements ? fmax(1.0, ceil_of(n / (double)w->grain_elements))
		                                : (double)p->compute_units;
		double share = fmin(used, (double)w->max_units) / (double)p->compute_units;

		/* The loop's own rate on its units (elementwise.unit_loop_Bps): a
		 * core issues the loads and stores of its elements at a bounded
		 * rate, whichever tier serves them; a core limit, so compute. The
		 * elements past its last whole block (elementwise.block_B) go one
		 * at a time, tail_element_s each. */
		double tail = w->block_B ? fmod(n, fmax(1.0, floor_of((double)w->block_B /
		                                                      rv_dtype_bytes(d))))
		                         : 0;
		double loop_s = w->unit_loop_Bps > 0 ? r.footprint.working_set_B * (1 - tail / n) /
		                                                       (w->unit_loop_Bps * share *
		                                                        (double)p->compute_units) +
		                                               tail * w->tail_element_s
		                                     : 0;

		first_touch(&r, p, share * p->compute_units);
		r.compute_s = fmax(r.footprint.flop / (c->effective_flop_per_s * share), loop_s) +
		              r.first_touch_s;
		streaming_traffic(r.tier_B, p, &r.footprint, share);
		body_s = body_time(&r, p, share);
	} else {
		body_s = gemm_body(&r, p, c, s, op, e);
	}
	r.overhead_s = p->op_overhead_s[op];
	r.latency_s = r.overhead_s + body_s;
	if (r.overhead_s > body_s)
		r.binding = RV_BOUND_OVERHEAD;

	r.static_J = p->static_W * r.latency_s;
	r.flop_J = c->energy_per_flop_J * r.footprint.flop;
	for (size_t i = 0; i < p->n_memory; i++)
		r.bytes_J += p->memory[i].energy_per_byte_J * r.tier_B[p->memory[i].tier];
	r.energy_J = r.static_J + r.flop_J + r.bytes_J;
	/* Every value of a profile or fit is finite and positive, but extreme ones
	 * (1e-300 B/s, 1e308 J per FLOP) overflow: never hand on infinities. */
	if (!isfinite(r.latency_s) || !isfinite(r.energy_J) || !(r.latency_s > 0)) {
		char shape[80];

		(void)rv_shape_format(shape, sizeof(shape), s);
		return rv_error_set(
		        RV_ERANGE,
		        "%s %s %s on %s: the model gives %g s and %g J; a value of %s%s "
		        "is out of any physical range: fix it (roofval hw show %s "
		        "prints them all)",
		        rv_op_name(op), shape, rv_dtype_name(d), p->key, r.latency_s, r.energy_J,
		        p->path ? p->path : p->key, p->fit_path ? " or its fit" : "", p->key);
	}
	*out = r;
	return 0;
}
