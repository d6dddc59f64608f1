/* SPDX-License-Identifier: MIT */
/* Tests of the core tables and functions: dtypes, ops and shapes, regimes, units, errors. */
#include "core/buf.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/near.h"
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

/* The nearest name: typos within the cap, prefixes of longer names, ties to
 * the first, nothing for far words, the word itself, empty or NULL input. */
static void test_core__nearest(void **state)
{
	static const char *const cmds[] = { "hw",       "baseline", "classify", "predict",
		                            "validate", "plot",     "report",   "calibrate",
		                            "capture",  "probe",    "kernels",  "meters",
		                            "sweep",    "version",  "help" };
	static const char *const keys[] = { "i7_12700k", "jetson_orin_nano_8gb",
		                            "jetson_orin_nx_16gb", "xeon_amx_2vcpu" };
	static const char *const ab[] = { "ab", "ba" };
	size_t n = sizeof(cmds) / sizeof(cmds[0]);
	char hint[64];

	(void)state;
	assert_int_equal(rv_near_distance("", ""), 0);
	assert_int_equal(rv_near_distance("abc", ""), 3);
	assert_int_equal(rv_near_distance("kitten", "sitting"), 3);
	assert_int_equal(rv_near_distance("valdate", "validate"), 1);  /* a deletion */
	assert_int_equal(rv_near_distance("vaildate", "validate"), 1); /* a swap */
	assert_int_equal(rv_near_cap(4), 1);
	assert_int_equal(rv_near_cap(5), 2);
	assert_int_equal(rv_near_cap(9), 3);
	assert_string_equal(rv_nearest("valdate", cmds, n), "validate");
	assert_string_equal(rv_nearest("captrue", cmds, n), "capture");
	assert_string_equal(rv_nearest("repot", cmds, n), "report");
	assert_string_equal(rv_nearest("hepl", cmds, n), "help");
	assert_null(rv_nearest("validate", cmds, n)); /* itself: nothing to suggest */
	assert_null(rv_nearest("zzzzzz", cmds, n));
	assert_null(rv_nearest("x", cmds, n)); /* one letter shares nothing */
	assert_null(rv_nearest("", cmds, n));
	assert_null(rv_nearest(NULL, cmds, n));
	assert_null(rv_nearest("plot", NULL, 0));
	/* the start of a longer key, one letter off or whole */
	assert_string_equal(rv_nearest("xeonn", keys, 4), "xeon_amx_2vcpu");
	assert_string_equal(rv_nearest("i7_12700", keys, 4), "i7_12700k");
	assert_string_equal(rv_nearest("jetson_orin_nano", keys, 4), "jetson_orin_nano_8gb");
	/* equally near: the first */
	assert_string_equal(rv_nearest("aa", ab, 2), "ab");
	/* a word longer than the table's limit is near nothing */
	{
		char big[RV_NEAR_MAX_LEN + 8];

		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		assert_null(rv_nearest(big, ab, 2));
	}
	assert_string_equal(rv_near_hint(hint, sizeof(hint), "limt",
	                                 (const char *const[]){ "limit", "trials" }, 2, "--"),
	                    "; did you mean '--limit'?");
	assert_string_equal(rv_near_hint(hint, sizeof(hint), "qqqq", cmds, n, NULL), "");
}

/* A message too long for the buffer loses the middle of its longest word,
 * so what comes after a 5000-character path (the reason) survives, on one
 * line, with the start of the path; control characters are escaped. */
static void test_core__error_middle_cut(void **state)
{
	char path[5200], esc[16];
	size_t len = 0;
	const char *m, *cut;

	(void)state;
	len += (size_t)snprintf(path, sizeof(path), "/very/long/pa");
	while (len < 5000)
		path[len++] = 'x';
	(void)snprintf(path + len, sizeof(path) - len, "/end/name.csv");
	assert_int_equal(rv_error_errno(36, "cannot open %s", path), RV_EIO);
	m = rv_error_last();
	assert_true(strlen(m) <= 1023);
	assert_true(strncmp(m, "cannot open /very/long/pa", 25) == 0);
	cut = strstr(m, "\xe2\x80\xa6");
	assert_non_null(cut);
	assert_null(strstr(cut + 3, "\xe2\x80\xa6")); /* one cut */
	assert_string_equal(m + strlen(m) - strlen("/end/name.csv: File name too long"),
	                    "/end/name.csv: File name too long");
	/* the cut is in the path: the words around it are whole */
	assert_true(strchr(cut, ' ') > cut);
	/* a long value with a sentence after it */
	assert_int_equal(rv_error_set(RV_EPARSE, "field '%s' is not a number; fix the file", path),
	                 RV_EPARSE);
	m = rv_error_last();
	assert_string_equal(m + strlen(m) - strlen("name.csv' is not a number; fix the file"),
	                    "name.csv' is not a number; fix the file");
	/* a wrap of a long message keeps both ends too */
	assert_int_equal(rv_error_wrap(RV_EPARSE, "%s", path), RV_EPARSE);
	m = rv_error_last();
	assert_true(strlen(m) <= 1023);
	assert_true(strncmp(m, "/very/long/pa", 13) == 0);
	assert_string_equal(m + strlen(m) - strlen("; fix the file"), "; fix the file");
	/* a short message is untouched; control characters escaped */
	(void)rv_error_set(RV_EPARSE, "bad\tfield\n%s", "\x1b[31m");
	assert_string_equal(rv_error_last(), "bad\\tfield\\n\\x1b[31m");
	/* the escaper alone: measures, truncates at a whole escape */
	assert_int_equal(rv_error_escape(NULL, 0, "a\nb"), 4);
	assert_int_equal(rv_error_escape(esc, 4, "a\nb"), 4);
	assert_string_equal(esc, "a\\n");
	assert_int_equal(rv_error_escape(esc, 3, "a\x01"), 5);
	assert_string_equal(esc, "a");
	/* UTF-8 letters kept whole; a byte outside a valid sequence escaped */
	(void)rv_error_set(RV_EPARSE, "--limit '1\xff' in caf\xc3\xa9 \xed\xa0\x80");
	assert_string_equal(rv_error_last(), "--limit '1\\xff' in caf\xc3\xa9 \\xed\\xa0\\x80");
	assert_int_equal(rv_utf8_len((const unsigned char *)"\xf4\x8f\xbf\xbf"), 4);
	assert_int_equal(rv_utf8_len((const unsigned char *)"\xf4\x90\x80\x80"), 0);
	assert_int_equal(rv_utf8_len((const unsigned char *)"\xc0\xaf"), 0);
	/* a value cut alone: the middle out, both ends kept, never half a UTF-8 letter */
	assert_string_equal(rv_error_cut(esc, sizeof(esc), "short"), "short");
	assert_string_equal(rv_error_cut(esc, sizeof(esc), "abcdefghijklmnopqrstuvwxyz"),
	                    "abcdef\xe2\x80\xa6uvwxyz");
	assert_int_equal(strlen(rv_error_cut(esc, sizeof(esc),
	                                     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3"
	                                     "\xa9\xc3\xa9\xc3\xa9")) %
	                         2,
	                 1);
	assert_true(strncmp(esc, "\xc3\xa9\xc3\xa9\xc3\xa9", 6) == 0);
	assert_string_equal(esc + strlen(esc) - 6, "\xc3\xa9\xc3\xa9\xc3\xa9");
	rv_error_clear();
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
		cmocka_unit_test(test_core__nearest),
		cmocka_unit_test(test_core__error_middle_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
