/* SPDX-License-Identifier: MIT */
/* Tests of the core tables and helpers: dtypes, ops and shapes, regimes, units, errors. */
#include "core/buf.h"
#include "core/dtype.h"
#include "core/op.h"
#include "core/regime.h"
#include "core/units.h"
#include "rv_test.h"

static void test_core__dtype_table(void **state)
{
	static const struct {
		const char *name;
		unsigned bits;
	} cases[] = {
		{ "fp64", 64 },  { "fp32", 32 },    { "tf32", 32 },    { "fp16", 16 },
		{ "bf16", 16 },  { "fp8_e4m3", 8 }, { "fp8_e5m2", 8 }, { "int64", 64 },
		{ "int32", 32 }, { "int16", 16 },   { "int8", 8 },     { "int4", 4 },
		{ "fp4", 4 },
	};
	enum rv_dtype d;

	(void)state;
	assert_int_equal(sizeof(cases) / sizeof(cases[0]), RV_DTYPE_COUNT);
	for (size_t i = 0; i < RV_DTYPE_COUNT; i++) {
		assert_int_equal(rv_dtype_parse(cases[i].name, &d), 0);
		assert_string_equal(rv_dtype_name(d), cases[i].name);
		assert_int_equal(rv_dtype_bits(d), cases[i].bits);
		rv_assert_close(rv_dtype_bytes(d), cases[i].bits / 8.0, 0, 0);
	}
	rv_assert_error(rv_dtype_parse("float32", &d), RV_EPARSE, "unknown dtype 'float32'");
	rv_assert_error(rv_dtype_parse("FP32", &d), RV_EPARSE, "known: fp64");
}

static void test_core__shape_parse(void **state)
{
	struct rv_shape s;
	char text[80];

	(void)state;
	assert_int_equal(rv_shape_parse("64x96x1536", RV_OP_MATMUL, &s), 0);
	assert_int_equal(s.ndim, 3);
	assert_true(s.dim[0] == 64 && s.dim[1] == 96 && s.dim[2] == 1536);
	assert_int_equal(rv_shape_format(text, sizeof(text), &s), 10);
	assert_string_equal(text, "64x96x1536");
	assert_int_equal(rv_shape_parse("268435456", RV_OP_VECTOR_ADD, &s), 0);
	assert_true(s.ndim == 1 && s.dim[0] == 268435456u);
	/* Truncation behaves like snprintf. */
	assert_int_equal(rv_shape_format(text, 4, &s), 9);
	assert_string_equal(text, "268");

	rv_assert_error(rv_shape_parse("64x0x5", RV_OP_MATMUL, &s), RV_ERANGE,
	                "shape '64x0x5': dimension K is 0");
	rv_assert_error(rv_shape_parse("1x2", RV_OP_LINEAR, &s), RV_EPARSE,
	                "linear takes 3 dimensions (BxINxOUT), not 2");
	rv_assert_error(rv_shape_parse("64x64", RV_OP_VECTOR_ADD, &s), RV_EPARSE,
	                "vector_add takes 1 dimensions");
	rv_assert_error(rv_shape_parse("-1x2x3", RV_OP_MATMUL, &s), RV_EPARSE,
	                "not of the form MxKxN");
	rv_assert_error(rv_shape_parse("axbxc", RV_OP_MATMUL, &s), RV_EPARSE, "not of the form");
	rv_assert_error(rv_shape_parse("1x2x3x4", RV_OP_MATMUL, &s), RV_EPARSE, "not of the form");
	rv_assert_error(rv_shape_parse("1xx3", RV_OP_MATMUL, &s), RV_EPARSE, "not of the form");
	rv_assert_error(rv_shape_parse("", RV_OP_MATMUL, &s), RV_EPARSE, "not of the form");
	rv_assert_error(rv_shape_parse("1x2x", RV_OP_MATMUL, &s), RV_EPARSE, "not of the form");
	rv_assert_error(rv_shape_parse("1 x2x3", RV_OP_MATMUL, &s), RV_EPARSE, "not of the form");
	rv_assert_error(rv_shape_parse("99999999999999999999x1x1", RV_OP_MATMUL, &s), RV_ERANGE,
	                "does not fit in 64 bits");
	rv_assert_error(rv_shape_parse("2199023255553x1x1", RV_OP_MATMUL, &s), RV_ERANGE,
	                "dimension M = 2199023255553 is larger than 1099511627776");
}

static void test_core__shape_order(void **state)
{
	struct rv_shape a, b;

	(void)state;
	assert_int_equal(rv_shape_parse("64x64x128", RV_OP_MATMUL, &a), 0);
	assert_int_equal(rv_shape_parse("64x96x64", RV_OP_MATMUL, &b), 0);
	/* Integer tuples, not text: 128 > 96 but (64, 64, .) < (64, 96, .). */
	assert_true(rv_shape_cmp(&a, &b) < 0);
	assert_true(rv_shape_cmp(&b, &a) > 0);
	assert_int_equal(rv_shape_cmp(&a, &a), 0);
}

static void test_core__ops_and_regimes(void **state)
{
	enum rv_op op;
	enum rv_regime r;

	(void)state;
	for (int i = 0; i < RV_OP_COUNT; i++) {
		assert_int_equal(rv_op_parse(rv_op_name((enum rv_op)i), &op), 0);
		assert_int_equal(op, i);
	}
	assert_string_equal(rv_op_dim_name(RV_OP_LINEAR, 1), "IN");
	rv_assert_error(rv_op_parse("conv2d", &op), RV_EPARSE, "unknown op 'conv2d'");
	for (int i = 0; i < RV_REGIME_COUNT; i++) {
		assert_int_equal(rv_regime_parse(rv_regime_name((enum rv_regime)i), &r), 0);
		assert_int_equal(r, i);
	}
	assert_int_equal(rv_regime_parse("launch_bound", &r), 0);
	assert_int_equal(r, RV_REGIME_LAUNCH);
	rv_assert_error(rv_regime_parse("compute_bound", &r), RV_EPARSE,
	                "unknown regime 'compute_bound'");
}

static void test_core__units(void **state)
{
	char out[48];

	(void)state;
	rv_fmt_si(out, sizeof(out), 1.44e12, "FLOP/s");
	assert_string_equal(out, "1.44 TFLOP/s");
	rv_fmt_si(out, sizeof(out), 5.778e-06, "s");
	assert_string_equal(out, "5.78 us");
	rv_fmt_si(out, sizeof(out), 0.0, "J");
	assert_string_equal(out, "0 J");
	rv_fmt_si(out, sizeof(out), 999.9, "W");
	assert_string_equal(out, "1 kW");
	rv_fmt_bytes(out, sizeof(out), 48 * 1024.0);
	assert_string_equal(out, "48 KiB");
	rv_fmt_bytes(out, sizeof(out), 1.25 * 1024 * 1024);
	assert_string_equal(out, "1.25 MiB");
	rv_fmt_bytes(out, sizeof(out), 80e9);
	assert_string_equal(out, "80 GB");
}

static void test_core__errors_and_buffers(void **state)
{
	struct rv_buf b = RV_BUF_INIT;

	(void)state;
	assert_int_equal(rv_error_set(RV_EPARSE, "bad %d", 7), RV_EPARSE);
	assert_string_equal(rv_error_last(), "bad 7");
	assert_int_equal(rv_error_wrap(RV_EPARSE, "file.csv"), RV_EPARSE);
	assert_string_equal(rv_error_last(), "file.csv: bad 7");
	assert_int_equal(rv_error_errno(2, "cannot open %s", "x"), RV_ENOENT);
	assert_string_equal(rv_error_last(), "cannot open x: No such file or directory");
	assert_int_equal(rv_error_errno(13, "x"), RV_EPERM);
	assert_int_equal(rv_error_errno(28, "x"), RV_EIO);
	rv_error_clear();
	assert_string_equal(rv_error_last(), "");

	assert_string_equal(rv_buf_str(&b), "");
	for (int i = 0; i < 1000; i++)
		rv_buf_printf(&b, "%d,", i);
	rv_buf_puts(&b, "end");
	assert_int_equal(rv_buf_check(&b), 0);
	assert_true(strncmp(b.data, "0,1,2,", 6) == 0);
	assert_string_equal(b.data + b.len - 3, "end");
	rv_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core__dtype_table),
		cmocka_unit_test(test_core__shape_parse),
		cmocka_unit_test(test_core__shape_order),
		cmocka_unit_test(test_core__ops_and_regimes),
		cmocka_unit_test(test_core__units),
		cmocka_unit_test(test_core__errors_and_buffers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
