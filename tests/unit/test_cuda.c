/* SPDX-License-Identifier: MIT */
/* The cublas kernel against its host reference on small shapes of every op and dtype. It
 * needs a GPU: without one it exits 77, which ctest reports as skipped with the reason. */
#include "kernel/kernel.h"
#include "rv_test.h"

static const struct rv_kernel_ops *cublas(void)
{
	const struct rv_kernel_ops *k = rv_kernel_find("cublas");

	assert_non_null(k);
	return k;
}

static void check_one(enum rv_op op, const char *shape, enum rv_dtype d)
{
	const struct rv_kernel_ops *k = cublas();
	struct rv_kernel *inst;
	struct rv_shape s;
	double worst;

	assert_int_equal(rv_shape_parse(shape, op, &s), 0);
	if (k->setup(&inst, &rv_env_host, op, &s, d, 3) != 0)
		fail_msg("setup %s %s %s: %s", rv_op_name(op), shape, rv_dtype_name(d),
		         rv_error_last());
	assert_int_equal(k->run(inst, 2), 0);
	if (k->check(inst, &worst) != 0)
		fail_msg("%s %s %s: %s", rv_op_name(op), shape, rv_dtype_name(d), rv_error_last());
	print_message("%-10s %-12s %-5s max relative error %.3g\n", rv_op_name(op), shape,
	              rv_dtype_name(d), worst);
	k->teardown(inst);
}

static void test_cuda__results_match_the_host(void **state)
{
	static const enum rv_dtype dtypes[] = { RV_DTYPE_FP32, RV_DTYPE_TF32, RV_DTYPE_FP16,
		                                RV_DTYPE_BF16 };
	static const char *const gemms[] = { "1x64x64", "64x64x64", "96x200x130", "256x128x512" };

	(void)state;
	for (size_t d = 0; d < sizeof(dtypes) / sizeof(dtypes[0]); d++) {
		for (size_t i = 0; i < sizeof(gemms) / sizeof(gemms[0]); i++) {
			check_one(RV_OP_MATMUL, gemms[i], dtypes[d]);
			check_one(RV_OP_LINEAR, gemms[i], dtypes[d]);
		}
		if (dtypes[d] != RV_DTYPE_TF32) {
			/* whole 16-byte vectors, a tail after them, a tail alone */
			check_one(RV_OP_VECTOR_ADD, "1000", dtypes[d]);
			check_one(RV_OP_VECTOR_ADD, "1048579", dtypes[d]);
			check_one(RV_OP_VECTOR_ADD, "3", dtypes[d]);
		}
	}
}

static void test_cuda__device_timing(void **state)
{
	const struct rv_kernel_ops *k = cublas();
	struct rv_kernel *inst;
	struct rv_shape s;
	double t1, t10;

	(void)state;
	assert_non_null(k->time_run);
	assert_int_equal(rv_shape_parse("1024x1024x1024", RV_OP_MATMUL, &s), 0);
	assert_int_equal(k->setup(&inst, &rv_env_host, RV_OP_MATMUL, &s, RV_DTYPE_FP16, 1), 0);
	assert_int_equal(k->run(inst, 3), 0);
	assert_int_equal(k->time_run(inst, 1, &t1), 0);
	assert_int_equal(k->time_run(inst, 10, &t10), 0);
	print_message("1024^3 fp16: %.3g s per call, %.3g s for 10\n", t1, t10);
	assert_true(t1 > 0 && t10 > 5 * t1 && t10 < 20 * t1);
	k->teardown(inst);
}

static void test_cuda__unsupported_dtype(void **state)
{
	struct rv_kernel *inst;
	struct rv_shape s;

	(void)state;
	assert_int_equal(rv_shape_parse("64x64x64", RV_OP_MATMUL, &s), 0);
	rv_assert_error(cublas()->setup(&inst, &rv_env_host, RV_OP_MATMUL, &s, RV_DTYPE_FP64, 1),
	                RV_ENOTSUP, "fp64 is unsupported on the cublas backend");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cuda__unsupported_dtype),
		cmocka_unit_test(test_cuda__results_match_the_host),
		cmocka_unit_test(test_cuda__device_timing),
	};

	const struct rv_kernel_ops *k = rv_kernel_find("cublas");

	if (!k || k->probe(&rv_env_host) != 0) {
		printf("[  SKIPPED ] cublas: %s\n", rv_error_last());
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
