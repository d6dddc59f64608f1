/* SPDX-License-Identifier: MIT */
/* Tests of op footprints: FLOPs, bytes, working set and intensity, ours and the reference's. */
#include "model/opcount.h"
#include "rv_test.h"

static void fp_of(struct rv_footprint *f, enum rv_op op, const char *shape, enum rv_dtype d)
{
	struct rv_shape s;

	assert_int_equal(rv_shape_parse(shape, op, &s), 0);
	assert_int_equal(rv_footprint_of(f, op, &s, d), 0);
}

static void test_opcount__matmul(void **state)
{
	struct rv_footprint f;

	(void)state;
	fp_of(&f, RV_OP_MATMUL, "256x256x256", RV_DTYPE_FP32);
	rv_assert_close(f.flop, 2.0 * 256 * 256 * 256, 0, 0);
	rv_assert_close(f.input_B, 2.0 * 256 * 256 * 4, 0, 0);
	rv_assert_close(f.weight_B, 0, 0, 0);
	rv_assert_close(f.output_B, 256.0 * 256 * 4, 0, 0);
	rv_assert_close(f.working_set_B, 3.0 * 256 * 256 * 4, 0, 0);
	rv_assert_close(f.intensity_flop_per_B, 2.0 * 256 / 12, 1e-15, 0);
	rv_assert_close(f.ref_flop, f.flop, 0, 0);
	rv_assert_close(f.ref_working_set_B, f.working_set_B, 0, 0);
	/* Non-square: (MK + KN) e in, MN e out. */
	fp_of(&f, RV_OP_MATMUL, "64x512x16384", RV_DTYPE_FP16);
	rv_assert_close(f.input_B, (64.0 * 512 + 512.0 * 16384) * 2, 0, 0);
	rv_assert_close(f.output_B, 64.0 * 16384 * 2, 0, 0);
}

static void test_opcount__linear(void **state)
{
	struct rv_footprint f;

	(void)state;
	fp_of(&f, RV_OP_LINEAR, "8x1024x4096", RV_DTYPE_FP16);
	rv_assert_close(f.ref_flop, 2.0 * 8 * 1024 * 4096, 0, 0);
	rv_assert_close(f.flop, 2.0 * 8 * 1024 * 4096 + 8.0 * 4096, 0, 0);
	rv_assert_close(f.input_B, 8.0 * 1024 * 2, 0, 0);
	rv_assert_close(f.weight_B, (1024.0 * 4096 + 4096) * 2, 0, 0);
	rv_assert_close(f.output_B, 8.0 * 4096 * 2, 0, 0);
	/* The reference's working set leaves out the bias. */
	rv_assert_close(f.ref_working_set_B, f.working_set_B - 4096.0 * 2, 0, 0);
	rv_assert_close(f.ref_intensity_flop_per_B, f.ref_flop / f.ref_working_set_B, 1e-15, 0);
}

static void test_opcount__vector_add_and_small_types(void **state)
{
	struct rv_footprint f;

	(void)state;
	fp_of(&f, RV_OP_VECTOR_ADD, "1048576", RV_DTYPE_FP32);
	rv_assert_close(f.flop, 1048576, 0, 0);
	rv_assert_close(f.working_set_B, 3.0 * 1048576 * 4, 0, 0);
	rv_assert_close(f.intensity_flop_per_B, 1.0 / 12, 1e-15, 0);
	/* 4-bit elements round up to whole bytes. */
	fp_of(&f, RV_OP_VECTOR_ADD, "3", RV_DTYPE_INT4);
	rv_assert_close(f.input_B, 3, 0, 0);
	rv_assert_close(f.output_B, 2, 0, 0);
}

static void test_opcount__overflow(void **state)
{
	struct rv_footprint f;
	struct rv_shape s;

	(void)state;
	/* Every load refuses a shape whose counts overflow, before the model. */
	rv_assert_error(rv_shape_parse("1099511627776x1099511627776x16", RV_OP_MATMUL, &s),
	                RV_ERANGE, "overflow 64 bits; pick a smaller shape");
	s = (struct rv_shape){ 3, { (uint64_t)1 << 40, (uint64_t)1 << 40, 16 } };
	rv_assert_error(rv_footprint_of(&f, RV_OP_MATMUL, &s, RV_DTYPE_FP32), RV_ERANGE,
	                "overflow 64 bits");
	/* Below 2^56 (the product of the dimensions) a shape is accepted, and
	 * its footprint never overflows, however lopsided. */
	assert_int_equal(rv_shape_parse("1048576x1048576x65535", RV_OP_MATMUL, &s), 0);
	assert_int_equal(rv_footprint_of(&f, RV_OP_MATMUL, &s, RV_DTYPE_FP64), 0);
	assert_int_equal(rv_shape_parse("1099511627776x65535x1", RV_OP_LINEAR, &s), 0);
	assert_int_equal(rv_footprint_of(&f, RV_OP_LINEAR, &s, RV_DTYPE_INT64), 0);
	assert_true(rv_shape_parse("1048576x1048576x65536", RV_OP_LINEAR, &s) < 0);
	assert_int_equal(rv_shape_parse("1099511627776", RV_OP_VECTOR_ADD, &s), 0);
	assert_int_equal(rv_footprint_of(&f, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP64), 0);
	/* A shape of the wrong op is refused, not misread. */
	assert_int_equal(rv_shape_parse("1x2x3", RV_OP_MATMUL, &s), 0);
	rv_assert_error(rv_footprint_of(&f, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32), RV_EPARSE,
	                "vector_add takes 1 dimensions");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opcount__matmul),
		cmocka_unit_test(test_opcount__linear),
		cmocka_unit_test(test_opcount__vector_add_and_small_types),
		cmocka_unit_test(test_opcount__overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
