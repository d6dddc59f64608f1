/* SPDX-License-Identifier: MIT */
/* Tests of the regime classifier and the latency/energy model, against hand-computed values
 * on toy profiles with round numbers (tests/data/hardware/model). */
#include <math.h>
#include <string.h>

#include "model/classify.h"
#include "model/executor.h"
#include "model/predict.h"
#include "rv_test.h"

static struct rv_profile *toy(const char *key)
{
	char path[256];
	struct rv_profile *p;

	(void)snprintf(path, sizeof(path), "hardware/model/%s.json", key);
	if (rv_profile_load(&p, rv_fixture_path(path)) != 0)
		fail_msg("%s", rv_error_last());
	return p;
}

static void shape_of(struct rv_shape *s, enum rv_op op, const char *text)
{
	assert_int_equal(rv_shape_parse(text, op, s), 0);
}

/* toy_gpu: effective 1e12 FLOP/s, DRAM 1e11 B/s (ridge 10 FLOP/B), L1 4e12 B/s (L1 ridge
 * 0.25), overhead 1 us (launch below 5 us), L1 1 MiB, LLC (l2) 4 MiB. */
static void test_model__classify_table(void **state)
{
	static const struct {
		enum rv_op op;
		const char *shape;
		enum rv_dtype dtype;
		enum rv_regime want;
		const char *why;
	} cases[] = {
		{ RV_OP_MATMUL, "64x64x64", RV_DTYPE_FP16, RV_REGIME_LAUNCH, "0.52 us of work" },
		{ RV_OP_MATMUL, "64x2000x64", RV_DTYPE_FP16, RV_REGIME_ALU,
		  "16 us, 0.5 MiB, OI 31" },
		{ RV_OP_MATMUL, "20x8000x20", RV_DTYPE_FP16, RV_REGIME_AMBIGUOUS,
		  "OI 9.99 ~ ridge" },
		{ RV_OP_MATMUL, "16x8000x16", RV_DTYPE_FP16, RV_REGIME_AMBIGUOUS,
		  "OI 7.99 between L1 ridge and ridge" },
		{ RV_OP_VECTOR_ADD, "100000", RV_DTYPE_FP16, RV_REGIME_L1, "0.57 MiB, OI 0.167" },
		{ RV_OP_VECTOR_ADD, "500000", RV_DTYPE_FP16, RV_REGIME_L2, "2.9 MiB <= 4 MiB" },
		{ RV_OP_VECTOR_ADD, "699050", RV_DTYPE_FP16, RV_REGIME_AMBIGUOUS, "4 MiB ~ LLC" },
		{ RV_OP_VECTOR_ADD, "180000", RV_DTYPE_FP16, RV_REGIME_AMBIGUOUS, "1.03 MiB ~ L1" },
		{ RV_OP_VECTOR_ADD, "16777216", RV_DTYPE_FP16, RV_REGIME_DRAM, "96 MiB" },
		{ RV_OP_MATMUL, "4096x4096x4096", RV_DTYPE_FP16, RV_REGIME_DRAM,
		  "reference semantics: 96 MiB working set" },
		{ RV_OP_MATMUL, "64x64x64", RV_DTYPE_FP64, RV_REGIME_UNSUPPORTED, "no fp64" },
		/* linear's working set leaves out the bias, as the reference's does */
		{ RV_OP_LINEAR, "1x128x128", RV_DTYPE_FP16, RV_REGIME_LAUNCH, "tiny" },
	};
	struct rv_profile *p = toy("toy_gpu");

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rv_classification c;
		struct rv_shape s;

		shape_of(&s, cases[i].op, cases[i].shape);
		assert_int_equal(rv_classify(&c, p, cases[i].op, &s, cases[i].dtype), 0);
		if (c.regime != cases[i].want)
			fail_msg("case %zu (%s %s: %s): got %s (%s), wanted %s", i, cases[i].shape,
			         rv_dtype_name(cases[i].dtype), cases[i].why,
			         rv_regime_name(c.regime), c.reason, rv_regime_name(cases[i].want));
	}
	rv_profile_free(p);
}

static void test_model__classify_numbers(void **state)
{
	struct rv_profile *p = toy("toy_gpu");
	struct rv_classification c;
	struct rv_shape s;

	(void)state;
	shape_of(&s, RV_OP_MATMUL, "64x2000x64");
	assert_int_equal(rv_classify(&c, p, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(c.flop, 16384000, 0, 0);
	rv_assert_close(c.working_set_B, 520192, 0, 0);
	rv_assert_close(c.compute_s, 1.6384e-5, 1e-12, 0);
	rv_assert_close(c.dram_s, 5.20192e-6, 1e-12, 0);
	rv_assert_close(c.launch_threshold_s, 5e-6, 1e-12, 0);
	rv_assert_close(c.ridge_flop_per_B, 10, 1e-12, 0);
	rv_assert_close(c.l1_ridge_flop_per_B, 0.25, 1e-12, 0);
	rv_assert_close(c.l1_capacity_B, 1048576, 0, 0);
	rv_assert_close(c.llc_capacity_B, 4194304, 0, 0);
	rv_profile_free(p);
}

static void test_model__predict_gemm_terms(void **state)
{
	struct rv_profile *p = toy("toy_gpu");
	struct rv_prediction r;
	struct rv_shape s;

	(void)state;
	/* 256^3 fp16: 16 tiles of 64x64 in 4 waves over 4 SMs at 1e12 / 4 each. */
	shape_of(&s, RV_OP_MATMUL, "256x256x256");
	assert_int_equal(rv_predict(&r, p, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(r.tiles, 16);
	assert_int_equal(r.waves, 4);
	rv_assert_close(r.eff_tile, 1, 0, 0);
	rv_assert_close(r.eff_wave, 1, 0, 0);
	rv_assert_close(r.compute_s, 3.3554432e-05, 1e-12, 0);
	/* L1 feeds each 64x64 tile its panels: 2 B x (MK x 4 + KN x 4 + MN) ... */
	rv_assert_close(r.tier_B[RV_TIER_L1], 1179648, 0, 0);
	/* ... and L2 feeds each SM's L1 (1 MiB / 4 SMs) blocks of side
	 * floor(sqrt(262144 / 6)) = 209: 2 B x (MK x 2 + KN x 2 + MN) ... */
	rv_assert_close(r.tier_B[RV_TIER_L2], 655360, 0, 0);
	/* ... and nothing from DRAM: the 384 KiB working set stays in the 4 MiB L2. */
	rv_assert_close(r.tier_B[RV_TIER_DRAM], 0, 0, 0);
	assert_int_equal(r.binding, RV_BOUND_COMPUTE);
	rv_assert_close(r.latency_s, 3.4554432e-05, 1e-12, 0);
	rv_assert_close(r.energy_J, 0.000381589120, 1e-12, 0);
	assert_string_equal(rv_bound_name(r.binding), "compute");

	/* A partial last wave: 5 tiles on 4 SMs take 2 waves. */
	shape_of(&s, RV_OP_MATMUL, "320x64x64");
	assert_int_equal(rv_predict(&r, p, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(r.waves, 2);
	rv_assert_close(r.eff_wave, 5.0 / 8, 1e-15, 0);
	rv_assert_close(r.compute_s, 2 * 2.0 * 64 * 64 * 64 / 0.25e12, 1e-12, 0);
	/* A partial tile: 100x64 pads to 128x64. */
	shape_of(&s, RV_OP_MATMUL, "100x64x64");
	assert_int_equal(rv_predict(&r, p, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.eff_tile, 100.0 / 128, 1e-15, 0);
	rv_profile_free(p);
}

static void test_model__predict_streaming(void **state)
{
	struct rv_profile *gpu = toy("toy_gpu"), *cpu = toy("toy_cpu");
	struct rv_prediction r;
	struct rv_shape s;

	(void)state;
	/* 2^26 fp16 adds: 384 MiB, of which all but the 4 MiB held in L2 come from DRAM. */
	shape_of(&s, RV_OP_VECTOR_ADD, "67108864");
	assert_int_equal(rv_predict(&r, gpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.tier_B[RV_TIER_DRAM], 398458880, 1e-12, 0);
	assert_int_equal(r.binding, RV_TIER_DRAM);
	rv_assert_close(r.latency_s, 0.0039855888, 1e-12, 0);
	rv_assert_close(r.energy_J, 0.045115545216, 1e-12, 0);
	assert_int_equal(r.tiles, 0);
	/* On a CPU the stores allocate their lines: the output crosses DRAM twice. */
	assert_int_equal(rv_predict(&r, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.tier_B[RV_TIER_DRAM], 531278506.6666667, 1e-12, 0);
	rv_assert_close(r.latency_s, 0.005313785066666667, 1e-12, 0);
	/* Tiny work is bound by the per-call overhead. */
	shape_of(&s, RV_OP_VECTOR_ADD, "256");
	assert_int_equal(rv_predict(&r, gpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(r.binding, RV_BOUND_OVERHEAD);
	assert_string_equal(rv_bound_name(r.binding), "overhead");
	rv_profile_free(gpu);
	rv_profile_free(cpu);
}

/* The shared last-level cache keeps its effective capacity of a larger working
 * set; an elementwise op on fewer units reaches their share of the private
 * tiers' bandwidth and capacity and of the FLOP rate. */
static void test_model__predict_llc_capacity_and_elementwise_units(void **state)
{
	struct rv_profile *cpu = toy("toy_cpu");
	struct rv_prediction r;
	struct rv_shape s;

	(void)state;
	/* 384 MiB of fp16 adds (512 MiB with write-allocate) of which L2 keeps 2 MiB. */
	cpu->memory[1].effective_capacity_B = 2097152;
	shape_of(&s, RV_OP_VECTOR_ADD, "67108864");
	assert_int_equal(rv_predict(&r, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.tier_B[RV_TIER_DRAM], 536870912.0 * (1 - 2097152.0 / 402653184), 1e-12,
	                0);
	/* 65536 adds fit in L1: 393216 B at 4e12 B/s on all 4 cores, 4x longer on one. */
	shape_of(&s, RV_OP_VECTOR_ADD, "65536");
	assert_int_equal(rv_predict(&r, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.tier_s[RV_TIER_L1], 9.8304e-08, 1e-12, 0);
	cpu->elementwise.max_units = 1;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.tier_s[RV_TIER_L1], 3.93216e-07, 1e-12, 0);
	rv_assert_close(r.compute_s, 2.62144e-07, 1e-12, 0);
	/* One core holds data in its own quarter of L1 only (256 KiB): the 384 KiB
	 * working set and the write-allocated output now come from L2; on all
	 * four cores none of it did. */
	rv_assert_close(r.tier_B[RV_TIER_L2], 524288, 1e-12, 0);
	cpu->elementwise.max_units = 4;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.tier_B[RV_TIER_L2], 0, 0, 0);
	/* A grain of 32768 elements puts 65536 adds on 2 of the 4 cores. */
	cpu->elementwise.grain_elements = 32768;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.tier_s[RV_TIER_L1], 1.96608e-07, 1e-12, 0);
	rv_profile_free(cpu);
}

/* An output that the framework allocates afresh (fresh_output) costs each new
 * page's fault and zeroing as core time, on the units the op runs on, and
 * skips the write-allocate read of its lines; a smaller output costs
 * nothing more. */
static void test_model__predict_fresh_output(void **state)
{
	struct rv_profile *cpu = toy("toy_cpu");
	struct rv_prediction plain, fresh;
	struct rv_shape s;

	(void)state;
	cpu->memory[1].effective_capacity_B = 2097152;
	shape_of(&s, RV_OP_VECTOR_ADD, "67108864"); /* a 128 MiB fp16 output */
	assert_int_equal(rv_predict(&plain, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	assert_true(plain.fresh_pages <= 0);
	cpu->fresh_output.provenance = strdup("test [assumed]");
	assert_non_null(cpu->fresh_output.provenance);
	cpu->fresh_output.min_B = 33554432;
	cpu->fresh_output.page_B = 4096;
	cpu->fresh_output.page_s = 1e-6;
	assert_int_equal(rv_predict(&fresh, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(fresh.fresh_pages, 32768, 0, 0);
	rv_assert_close(fresh.first_touch_s, 32768 * 1e-6 / 4, 1e-12, 0); /* 4 cores */
	rv_assert_close(fresh.compute_s, plain.compute_s + fresh.first_touch_s, 1e-12, 0);
	/* 384 MiB of inputs and output, no longer 512 MiB, of which L2 keeps 2 MiB. */
	rv_assert_close(fresh.tier_B[RV_TIER_DRAM], 402653184.0 * (1 - 2097152.0 / 402653184),
	                1e-12, 0);
	rv_assert_close(plain.tier_B[RV_TIER_DRAM], 536870912.0 * (1 - 2097152.0 / 402653184),
	                1e-12, 0);
	/* On one core the same pages take four times as long. */
	cpu->elementwise.max_units = 1;
	assert_int_equal(rv_predict(&fresh, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(fresh.first_touch_s, 32768 * 1e-6, 1e-12, 0);
	/* A GEMM waits for the pages of its 32 MiB output too. */
	shape_of(&s, RV_OP_MATMUL, "4096x64x4096");
	assert_int_equal(rv_predict(&fresh, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(fresh.fresh_pages, 8192, 0, 0);
	rv_assert_close(fresh.first_touch_s, 8192 * 1e-6 / 4, 1e-12, 0);
	cpu->fresh_output.page_s = 2e-6;
	assert_int_equal(rv_predict(&plain, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(plain.compute_s - fresh.compute_s, 8192 * 1e-6 / 4, 1e-9, 0);
	/* 32 MiB less one element: malloc hands the same memory back each call. */
	shape_of(&s, RV_OP_VECTOR_ADD, "16777215");
	assert_int_equal(rv_predict(&fresh, cpu, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP16), 0);
	assert_true(fresh.fresh_pages <= 0);
	assert_true(fresh.first_touch_s <= 0);
	rv_profile_free(cpu);
}

/* A CPU BLAS's packing of B adds pack_passes passes over B (K x N) at every
 * tier beyond L1, in the share that tier serves: 2 unless the profile says. */
static void test_model__predict_pack_passes(void **state)
{
	struct rv_profile *cpu = toy("toy_cpu");
	struct rv_prediction two, half;
	struct rv_shape s;

	(void)state;
	rv_assert_close(cpu->gemm.pack_passes, 2, 0, 0);
	assert_false(cpu->gemm.pack_passes_set);
	/* 512x1024x1024 fp16: a 5 MiB working set, beyond L1 (1 MiB) and L2 (4 MiB). */
	shape_of(&s, RV_OP_MATMUL, "512x1024x1024");
	assert_int_equal(rv_predict(&two, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	cpu->gemm.pack_passes = 0.5;
	assert_int_equal(rv_predict(&half, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(half.tile_m, two.tile_m);
	rv_assert_close(two.tier_B[RV_TIER_L1], half.tier_B[RV_TIER_L1], 0, 0);
	rv_assert_close(two.tier_B[RV_TIER_L2] - half.tier_B[RV_TIER_L2], 1.5 * 2 * 1024 * 1024,
	                1e-12, 0);
	rv_assert_close(two.tier_B[RV_TIER_DRAM] - half.tier_B[RV_TIER_DRAM],
	                1.5 * 2 * 1024 * 1024 * (1 - 4194304.0 / two.footprint.working_set_B), 1e-9,
	                0);
	rv_profile_free(cpu);
}

/* gemm.last_wave: toy_gpu (4 SMs, one 64x64 tile each) runs 320x64x64 as 5
 * tiles, two waves; a whole last wave takes a wave's time (compute of 2
 * waves), a balanced one its share (1.25 waves); 256x64x64 (4 tiles, one
 * full wave) is the same either way. */
static void test_model__predict_last_wave(void **state)
{
	struct rv_profile *gpu = toy("toy_gpu");
	struct rv_prediction whole, balanced;
	struct rv_shape s;

	(void)state;
	assert_int_equal(gpu->gemm.last_wave, RV_LAST_WAVE_WHOLE);
	shape_of(&s, RV_OP_MATMUL, "320x64x64");
	assert_int_equal(rv_predict(&whole, gpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	gpu->gemm.last_wave = RV_LAST_WAVE_BALANCED;
	assert_int_equal(rv_predict(&balanced, gpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(whole.tiles, 5);
	assert_int_equal(whole.waves, 2);
	assert_int_equal(balanced.waves, 2);
	rv_assert_close(whole.compute_s, 2 * 2.0 * 64 * 64 * 64 / (1e12 / 4), 1e-12, 0);
	rv_assert_close(balanced.compute_s / whole.compute_s, 1.25 / 2, 1e-12, 0);
	rv_assert_close(whole.eff_wave, 5.0 / 8, 1e-12, 0);
	rv_assert_close(balanced.eff_wave, 1, 1e-12, 0);
	shape_of(&s, RV_OP_MATMUL, "256x64x64");
	assert_int_equal(rv_predict(&balanced, gpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	gpu->gemm.last_wave = RV_LAST_WAVE_WHOLE;
	assert_int_equal(rv_predict(&whole, gpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(balanced.compute_s, whole.compute_s, 0, 0);
	rv_profile_free(gpu);
}

/* gemm.threading: a call of at most single_unit_max_mnk multiply-adds runs on
 * one unit (its share of the FLOP rate and of the private tiers); one of at
 * most unpacked_max_mnk runs the small-matrix kernel: one unit, no packing
 * traffic, no tile quantization, only the small-K efficiency (a linear only
 * when M*N is at most unpacked_max_mn_transposed and K at least
 * unpacked_min_k_transposed); a call that packs adds packed_call_s; a
 * call on several units splits C into slabs from split_n_from. toy_cpu: 4 units,
 * 1e12 FLOP/s, half_efficiency_k 64, tiles 128x128 and 64x64. */
static void test_model__predict_threading(void **state)
{
	struct rv_profile *cpu = toy("toy_cpu");
	struct rv_prediction all, one, lin, r;
	struct rv_shape s;

	(void)state;
	assert_null(cpu->gemm.threading.provenance);
	/* 256x64x256: 16 tiles of 64x64 (4 waves on 4 units, 16 on one). */
	shape_of(&s, RV_OP_MATMUL, "256x64x256");
	assert_int_equal(rv_predict(&all, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	cpu->gemm.threading.provenance = strdup("test [assumed]");
	cpu->gemm.threading.single_unit_max_mnk = 4194304;
	assert_int_equal(rv_predict(&one, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(one.tile_m, all.tile_m);
	rv_assert_close(one.compute_s, 4 * all.compute_s, 1e-12, 0);
	rv_assert_close(one.tier_s[RV_TIER_L1], 4 * all.tier_s[RV_TIER_L1], 1e-12, 0);
	rv_assert_close(one.tier_s[RV_TIER_DRAM], all.tier_s[RV_TIER_DRAM], 1e-12, 0);
	/* 200x64x200 in the small-matrix kernel: 5.12 MFLOP on one unit
	 * (2.5e11 FLOP/s) at k / (k + 64) = 0.5, whatever the tiles. */
	cpu->gemm.threading.unpacked_max_mnk = 4194304;
	shape_of(&s, RV_OP_MATMUL, "200x64x200");
	assert_int_equal(rv_predict(&one, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(one.compute_s, 4.096e-05, 1e-12, 0);
	rv_assert_close(one.eff_tile, 1, 0, 0);
	rv_assert_close(one.eff_small, 0.5, 1e-12, 0);
	/* 512x1024x1024 (a 5 MiB working set): unpacked, L2 serves two passes
	 * over B (2 MiB of fp16) fewer; a linear of that size packs unless its
	 * M*N is allowed too. */
	cpu->gemm.threading.unpacked_max_mnk = 0;
	shape_of(&s, RV_OP_MATMUL, "512x1024x1024");
	assert_int_equal(rv_predict(&all, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	cpu->gemm.threading.unpacked_max_mnk = 1073741824;
	assert_int_equal(rv_predict(&one, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(one.tile_m, all.tile_m);
	rv_assert_close(all.tier_B[RV_TIER_L2] - one.tier_B[RV_TIER_L2], 2 * 2 * 1048576.0, 1e-12,
	                0);
	shape_of(&s, RV_OP_LINEAR, "512x1024x1024");
	cpu->gemm.threading.unpacked_max_mn_transposed = 1200;
	assert_int_equal(rv_predict(&lin, cpu, RV_OP_LINEAR, &s, RV_DTYPE_FP16), 0);
	assert_true(lin.eff_tile > 0 && lin.waves > 1);
	rv_assert_close(lin.compute_s, all.compute_s, 1e-12, 0);
	cpu->gemm.threading.unpacked_max_mn_transposed = 524288;
	assert_int_equal(rv_predict(&one, cpu, RV_OP_LINEAR, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(lin.tier_B[RV_TIER_L2] - one.tier_B[RV_TIER_L2], 2 * 2 * 1048576.0, 1e-12,
	                0);
	/* ... and only from K = unpacked_min_k_transposed (K 1024 here). */
	cpu->gemm.threading.unpacked_min_k_transposed = 1025;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_LINEAR, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.compute_s, lin.compute_s, 1e-12, 0);
	cpu->gemm.threading.unpacked_min_k_transposed = 1024;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_LINEAR, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.compute_s, one.compute_s, 1e-12, 0);
	/* A call that packs pays packed_call_s; the small-matrix kernel not. */
	cpu->gemm.threading.packed_call_s = 1e-6;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_LINEAR, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.latency_s, one.latency_s, 1e-12, 0);
	cpu->gemm.threading.unpacked_min_k_transposed = 1025;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_LINEAR, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.latency_s, lin.latency_s + 1e-6, 1e-12, 0);
	/* split_n_from: each of the 4 units gets a slab of C, N / 4 wide from
	 * N = 4 on: 2048x64x100 runs 32 64x64 tiles on each (2048 rows by 25
	 * columns; 16 of 128x128, each 4 times the work), where its 16 tiles of
	 * 128x128 dealt in waves take 4. */
	cpu->gemm.threading.unpacked_max_mnk = 0;
	cpu->gemm.threading.packed_call_s = 0;
	shape_of(&s, RV_OP_MATMUL, "2048x64x100");
	assert_int_equal(rv_predict(&all, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	cpu->gemm.threading.split_n_from = 4;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(all.tile_m, 128);
	assert_int_equal(all.waves, 4);
	assert_int_equal(r.tile_m, 64);
	assert_int_equal(r.waves, 32);
	rv_assert_close(r.compute_s, 2 * all.compute_s, 1e-12, 0);
	/* Below it the units split M: 32768x64x3, 128 tiles of 64 rows each
	 * (not 512, all of M, as a split of N would leave each). */
	shape_of(&s, RV_OP_MATMUL, "32768x64x3");
	assert_int_equal(rv_predict(&r, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(r.waves, 128);
	/* gemm.pack_Bps: a call that packs adds A's and B's bytes over the rate
	 * times its units to compute (2048x64x100 fp16 on 4 units: 2 x (2048 x
	 * 64 + 64 x 100) B at 1e9 B/s per unit); the small-matrix kernel not. */
	shape_of(&s, RV_OP_MATMUL, "2048x64x100");
	assert_int_equal(rv_predict(&all, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	cpu->gemm.pack_Bps = 1e9;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.pack_s, 2.0 * (2048 * 64 + 64 * 100) / (1e9 * 4), 1e-12, 0);
	rv_assert_close(r.compute_s, all.compute_s + r.pack_s, 1e-12, 0);
	cpu->gemm.threading.unpacked_max_mnk = 1073741824;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.pack_s, 0, 0, 0);
	cpu->gemm.pack_Bps = 0;
	rv_profile_free(cpu);
}

/* gemm.small_kernel: the unpacked call's time from its register blocks
 * (toy_cpu, 4 units at 1e12 FLOP/s: one unit 2.5e11 FLOP/s), worked by
 * hand. Blocks [4, 64], [6, 32], [6, 16], FMA latency 1 ns, 2 ns a block. */
static void test_model__predict_small_kernel(void **state)
{
	struct rv_profile *cpu = toy("toy_cpu");
	struct rv_gemm_small_kernel *sk = &cpu->gemm.small;
	struct rv_prediction r, dot, lin;
	struct rv_shape s;
	/* K steps of 2 w rho FLOPs at one unit's rate, or the latency. */
#define STEP(w, rho) fmax(2.0 * (w) * (rho) / 2.5e11, 1e-9)

	(void)state;
	cpu->gemm.threading.provenance = strdup("test [assumed]");
	cpu->gemm.threading.unpacked_max_mnk = 4194304;
	cpu->gemm.threading.unpacked_max_mn_transposed = 4194304;
	sk->provenance = strdup("test [assumed]");
	sk->n_blocks = 3;
	memcpy(sk->block_m, (unsigned[]){ 4, 6, 6 }, 3 * sizeof(unsigned));
	memcpy(sk->block_n, (unsigned[]){ 64, 32, 16 }, 3 * sizeof(unsigned));
	sk->fma_latency_s = 1e-9;
	sk->block_s = 2e-9;
	/* 5 x 10 x 100: N = 64 + 32 + 4 (a masked strip of 16, K < dot_min_k
	 * when a dot tail is described); the 64 strip covers M = 5 with a
	 * block of 4 and one row, the others with two pairs and one row: 8
	 * blocks. */
	shape_of(&s, RV_OP_MATMUL, "5x10x100");
	double want = 10 * STEP(64, 4) + 10 * STEP(64, 1) + 2 * 10 * STEP(32, 2) +
	              10 * STEP(32, 1) + 2 * 10 * STEP(16, 2) + 10 * STEP(16, 1) + 8 * 2e-9;
	assert_int_equal(rv_predict(&r, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.compute_s, want, 1e-12, 0);
	rv_assert_close(r.eff_small, 2.0 * 5 * 10 * 100 / 2.5e11 / want, 1e-12, 0);
	sk->dot_max_rows = 8;
	sk->dot_min_k = 32;
	sk->dot_block = 4;
	assert_int_equal(rv_predict(&dot, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(dot.compute_s, r.compute_s, 1e-12, 0);
	/* 5 x 40 x 100: the tail of 4 columns as dot products, K in 3 vectors
	 * of 16: one block of 4 columns over M = 5 in a block of 4 and a row. */
	shape_of(&s, RV_OP_MATMUL, "5x40x100");
	want = 40 * STEP(64, 4) + 40 * STEP(64, 1) + 2 * 40 * STEP(32, 2) + 40 * STEP(32, 1) +
	       3 * STEP(16, 4 * 4) + 3 * STEP(16, 4) + 7 * 2e-9;
	assert_int_equal(rv_predict(&dot, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(dot.compute_s, want, 1e-12, 0);
	/* Each of its 5 x 4 outputs reduced: dot_output_s each. */
	sk->dot_output_s = 3e-9;
	assert_int_equal(rv_predict(&dot, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(dot.compute_s, want + 20 * 3e-9, 1e-12, 0);
	sk->dot_output_s = 0;
	/* Its 4 columns of B first copied transposed: dot_copy_s per element of
	 * K, 40 of them. */
	sk->dot_copy_s = 5e-10;
	assert_int_equal(rv_predict(&dot, cpu, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(dot.compute_s, want + 40 * 5e-10, 1e-12, 0);
	/* A linear (its weight transposed as stored) runs all of N so, and
	 * copies nothing: 3 x 40 x 6: a block of 4 columns and a pair, M = 3 in
	 * a pair and a row. */
	shape_of(&s, RV_OP_LINEAR, "3x40x6");
	want = 3 * (STEP(16, 4 * 2) + STEP(16, 4) + STEP(16, 2 * 2) + STEP(16, 2)) + 4 * 2e-9;
	assert_int_equal(rv_predict(&lin, cpu, RV_OP_LINEAR, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(lin.compute_s - lin.bias_s - lin.first_touch_s, want, 1e-12, 0);
#undef STEP
	rv_profile_free(cpu);
}

/* A GPU's DRAM serves A and B wave by wave, CTAs in raster order along N:
 * toy_gpu runs 4 CTAs of 64x64 at once over a 4 MiB L2. */
static void test_model__predict_gpu_waves_and_overlap(void **state)
{
	struct rv_profile *p = toy("toy_gpu");
	struct rv_prediction r;
	struct rv_shape s;
	double ws, body;

	(void)state;
	/* 128x16384x256 fp16: 2 waves, each one row of A (64 rows) and all 4
	 * column panels of B, 10 MiB of panels that outgrow the L2, so the
	 * second wave reads B again: 2 x (64 + 256) x 16384 x 2 B, and C. */
	shape_of(&s, RV_OP_MATMUL, "128x16384x256");
	assert_int_equal(rv_predict(&r, p, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(r.waves, 2);
	ws = r.footprint.working_set_B;
	rv_assert_close(ws, 12648448, 0, 0);
	rv_assert_close(r.tier_B[RV_TIER_DRAM],
	                (2.0 * 320 * 16384 * 2 + 65536) * (1 - 4194304 / ws), 1e-12, 0);
	/* 4096x512x256: 64 waves of one row each, whose 320 KiB of panels stay in
	 * the L2 for the next wave: B crosses once, A once, then C. */
	shape_of(&s, RV_OP_MATMUL, "4096x512x256");
	assert_int_equal(rv_predict(&r, p, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	ws = r.footprint.working_set_B;
	rv_assert_close(r.tier_B[RV_TIER_DRAM], ws * (1 - 4194304 / ws), 1e-12, 0);
	/* With an overlap norm of 2, the body is at least sqrt(compute^2 + dram^2). */
	shape_of(&s, RV_OP_MATMUL, "128x16384x256");
	p->gemm.overlap_norm = 2;
	assert_int_equal(rv_predict(&r, p, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	body = r.latency_s - r.overhead_s;
	rv_assert_close(body, hypot(r.compute_s, r.tier_s[RV_TIER_DRAM]), 1e-12, 0);
	assert_true(body > r.compute_s && body > r.tier_s[RV_TIER_DRAM]);
	rv_profile_free(p);
}

static void test_model__predict_tile_choice_and_small_k(void **state)
{
	struct rv_profile *p = toy("toy_cpu");
	struct rv_prediction r;
	struct rv_shape s;

	(void)state;
	/* Two tiles offered: 64x64 beats 128x128 on a 64x64 output; K = 1024 with
	 * half_k = 64 runs at 1024 / 1088 of the rate. */
	shape_of(&s, RV_OP_MATMUL, "64x1024x64");
	assert_int_equal(rv_predict(&r, p, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(r.tile_m, 64);
	rv_assert_close(r.eff_small, 1024.0 / 1088, 1e-15, 0);
	rv_assert_close(r.compute_s, 3.5651584e-05, 1e-12, 0);
	rv_profile_free(p);
}

static void test_model__predict_linear_and_errors(void **state)
{
	struct rv_profile *p = toy("toy_gpu");
	struct rv_prediction r, m;
	struct rv_shape s;

	(void)state;
	/* linear B x IN x OUT is the GEMM (B, IN, OUT) plus a bias: more FLOPs and bytes. */
	shape_of(&s, RV_OP_LINEAR, "256x256x256");
	assert_int_equal(rv_predict(&r, p, RV_OP_LINEAR, &s, RV_DTYPE_FP16), 0);
	assert_int_equal(rv_predict(&m, p, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
	rv_assert_close(r.tier_B[RV_TIER_L1] - m.tier_B[RV_TIER_L1], 256 * 2, 0, 0);
	rv_assert_close(r.footprint.flop - m.footprint.flop, 256 * 256, 0, 0);
	rv_assert_close(r.compute_s, m.compute_s, 0, 0);
	/* An unsupported dtype is an error that names what the profile has. */
	rv_assert_error(rv_predict(&r, p, RV_OP_LINEAR, &s, RV_DTYPE_FP64), RV_ENOTSUP,
	                "fp64 is unsupported on toy_gpu (its profile lists fp16)");
	rv_profile_free(p);
}

/* Every shipped profile predicts a finite, positive latency and energy for
 * a range of shapes of every op in its default dtype, and the binding
 * resource is one it has. */
/* A profile's executor defaults by class (blas_l3 for cpu, tiled_waves
 * otherwise); every executor of hw/executors.def has its ops table, of this
 * version, under its name. */
static void test_model__executors(void **state)
{
	struct rv_profile *cpu = toy("toy_cpu"), *gpu = toy("toy_gpu");

	(void)state;
	assert_int_equal(cpu->executor, RV_EXECUTOR_BLAS_L3);
	assert_int_equal(gpu->executor, RV_EXECUTOR_TILED_WAVES);
	assert_string_equal(rv_executor_name(RV_EXECUTOR_BLAS_L3), "blas_l3");
	assert_string_equal(rv_executor_name(RV_EXECUTOR_TILED_WAVES), "tiled_waves");
	for (int x = 0; x < RV_EXECUTOR_COUNT; x++) {
		const struct rv_executor_ops *ops = rv_executor_ops((enum rv_executor)x);

		assert_non_null(ops);
		assert_int_equal(ops->version, RV_EXECUTOR_OPS_VERSION);
		assert_string_equal(ops->name, rv_executor_name((enum rv_executor)x));
		assert_non_null(ops->gemm);
		assert_non_null(ops->elementwise);
	}
	rv_profile_free(cpu);
	rv_profile_free(gpu);
}

static void test_model__shipped_profiles_are_sane(void **state)
{
	static const char *const keys[] = { "i7_12700k",
		                            "h100_sxm5_80gb",
		                            "h200_sxm_141gb",
		                            "jetson_orin_nano_8gb",
		                            "jetson_orin_nx_16gb",
		                            "jetson_orin_agx_64gb",
		                            "kpu_t64" };
	static const char *const gemms[] = { "1x128x128", "64x64x64", "1024x1024x1024",
		                             "4096x64x16384", "8192x8192x8192" };
	static const char *const adds[] = { "256", "1048576", "268435456" };

	(void)state;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		struct rv_profile *p;

		assert_int_equal(rv_profile_find(&p, rv_profile_dir(NULL), keys[k], 0), 0);
		for (int op = 0; op < RV_OP_COUNT; op++) {
			const char *const *list = op == RV_OP_VECTOR_ADD ? adds : gemms;
			size_t n = op == RV_OP_VECTOR_ADD ? 3 : 5;
			double prev_s = 0;

			for (size_t i = 0; i < n; i++) {
				struct rv_prediction r;
				struct rv_shape s;

				shape_of(&s, (enum rv_op)op, list[i]);
				assert_int_equal(
				        rv_predict(&r, p, (enum rv_op)op, &s, p->default_dtype), 0);
				assert_true(isfinite(r.latency_s) && r.latency_s > 0);
				assert_true(isfinite(r.energy_J) && r.energy_J > 0);
				assert_true(r.latency_s >= p->call_overhead_s);
				/* More work never takes less time (the lists grow). */
				if (op == RV_OP_VECTOR_ADD || i >= 2)
					assert_true(r.latency_s >= prev_s);
				prev_s = r.latency_s;
			}
		}
		rv_profile_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model__classify_table),
		cmocka_unit_test(test_model__classify_numbers),
		cmocka_unit_test(test_model__predict_gemm_terms),
		cmocka_unit_test(test_model__predict_streaming),
		cmocka_unit_test(test_model__predict_llc_capacity_and_elementwise_units),
		cmocka_unit_test(test_model__predict_fresh_output),
		cmocka_unit_test(test_model__predict_pack_passes),
		cmocka_unit_test(test_model__predict_last_wave),
		cmocka_unit_test(test_model__predict_threading),
		cmocka_unit_test(test_model__predict_small_kernel),
		cmocka_unit_test(test_model__predict_gpu_waves_and_overlap),
		cmocka_unit_test(test_model__predict_tile_choice_and_small_k),
		cmocka_unit_test(test_model__predict_linear_and_errors),
		cmocka_unit_test(test_model__executors),
		cmocka_unit_test(test_model__shipped_profiles_are_sane),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
