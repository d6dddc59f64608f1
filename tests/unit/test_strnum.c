/* SPDX-License-Identifier: MIT */
/* Tests of number parsing and shortest round-trip formatting (Python repr style). */
#include "core/strnum.h"
#include "rv_test.h"

static void test_strnum__repr_table(void **state)
{
	/* Expected strings are what Python's repr() prints for the same doubles. */
	static const struct {
		double v;
		const char *text;
	} cases[] = {
		{ 0.0, "0.0" },
		{ -0.0, "-0.0" },
		{ 1.0, "1.0" },
		{ 11.0, "11.0" },
		{ 0.5, "0.5" },
		{ 0.1, "0.1" },
		{ 5.778e-06, "5.778e-06" },
		{ 6.8960000000000006e-06, "6.8960000000000006e-06" },
		{ 6.346000000000001e-06, "6.346000000000001e-06" },
		{ 0.011851818181818182, "0.011851818181818182" },
		{ 0.0001, "0.0001" },
		{ 1e-05, "1e-05" },
		{ 1.5e-05, "1.5e-05" },
		{ 123456.0, "123456.0" },
		{ 1e15, "1000000000000000.0" },
		{ 1234567890123456.0, "1234567890123456.0" },
		{ 1e16, "1e+16" },
		{ 1.2345678901234567e16, "1.2345678901234568e+16" },
		{ 1e100, "1e+100" },
		{ 1.7976931348623157e308, "1.7976931348623157e+308" },
		{ 5e-324, "5e-324" },
		{ -2.5e-07, "-2.5e-07" },
		{ 0.30000000000000004, "0.30000000000000004" },
		{ 7.511965909090909, "7.511965909090909" },
	};
	char out[RV_DOUBLE_STR];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rv_fmt_double(out, cases[i].v);
		assert_string_equal(out, cases[i].text);
	}
	rv_fmt_double(out, (double)NAN);
	assert_string_equal(out, "nan");
	rv_fmt_double(out, -HUGE_VAL);
	assert_string_equal(out, "-inf");
}

static void test_strnum__round_trip_random(void **state)
{
	uint64_t x = 0x9E3779B97F4A7C15u;
	char out[RV_DOUBLE_STR];

	(void)state;
	for (int i = 0; i < 200000; i++) {
		double v, back;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(&v, &x, sizeof(v));
		if (!isfinite(v))
			continue;
		rv_fmt_double(out, v);
		assert_int_equal(rv_parse_double(out, &back), 0);
		assert_memory_equal(&v, &back, sizeof(v));
	}
}

static void test_strnum__parse_double(void **state)
{
	double v;

	(void)state;
	assert_int_equal(rv_parse_double("5.778e-06", &v), 0);
	rv_assert_close(v, 5.778e-06, 0, 0);
	assert_int_equal(rv_parse_double("-3", &v), 0);
	rv_assert_close(v, -3, 0, 0);
	rv_assert_error(rv_parse_double("", &v), RV_EPARSE, "empty");
	rv_assert_error(rv_parse_double("abc", &v), RV_EPARSE, "'abc' is not a number");
	rv_assert_error(rv_parse_double("nan", &v), RV_EPARSE, "not a number");
	rv_assert_error(rv_parse_double("inf", &v), RV_EPARSE, "not a number");
	rv_assert_error(rv_parse_double("0x1p3", &v), RV_EPARSE, "not a number");
	rv_assert_error(rv_parse_double(" 1", &v), RV_EPARSE, "not a number");
	rv_assert_error(rv_parse_double("1 ", &v), RV_EPARSE, "not a number");
	rv_assert_error(rv_parse_double("1.2.3", &v), RV_EPARSE, "not a number");
	rv_assert_error(rv_parse_double("1e999", &v), RV_ERANGE, "out of range");
}

static void test_strnum__parse_integers(void **state)
{
	uint64_t u;
	int64_t i;

	(void)state;
	assert_int_equal(rv_parse_u64("18446744073709551615", &u), 0);
	assert_true(u == UINT64_MAX);
	rv_assert_error(rv_parse_u64("18446744073709551616", &u), RV_ERANGE, "64 bits");
	rv_assert_error(rv_parse_u64("-1", &u), RV_EPARSE, "non-negative integer");
	rv_assert_error(rv_parse_u64("1.0", &u), RV_EPARSE, "non-negative integer");
	rv_assert_error(rv_parse_u64("", &u), RV_EPARSE, "empty");
	assert_int_equal(rv_parse_i64("-9223372036854775808", &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(rv_parse_i64("9223372036854775807", &i), 0);
	assert_true(i == INT64_MAX);
	rv_assert_error(rv_parse_i64("9223372036854775808", &i), RV_ERANGE, "64 bits");
	rv_assert_error(rv_parse_i64("12a", &i), RV_EPARSE, "not an integer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strnum__repr_table),
		cmocka_unit_test(test_strnum__round_trip_random),
		cmocka_unit_test(test_strnum__parse_double),
		cmocka_unit_test(test_strnum__parse_integers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
