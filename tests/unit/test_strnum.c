/* SPDX-License-Identifier: MIT */
/* Tests of number parsing and shortest round-trip formatting (Python repr style). */
#include "core/strnum.h"
#include "data/baseline.h"
#include "rv_test.h"

static void test_strnum__repr_table(void **state)
{
	/* Expected strings are what Python's repr() prints for the same doubles. */
	static const struct {
		double v;
		const char *text;
	} cases[] = {
		{ 0.0, "0.0" },
		{ -0.0, "0.0" }, /* a written -0 never appears */
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
		if (fpclassify(v) != FP_NORMAL)
			continue; /* zeros and subnormals: test_strnum__number_rule */
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

/* The one number rule: subnormals refused, -0 read and written as 0, the
 * floors by unit. */
static void test_strnum__number_rule(void **state)
{
	char out[RV_DOUBLE_STR];
	double v;

	(void)state;
	rv_assert_error(rv_parse_double("1e-320", &v), RV_ERANGE, "'1e-320' is too small");
	rv_assert_error(rv_parse_double("-4.9e-324", &v), RV_ERANGE, "too small");
	rv_assert_error(rv_parse_double("1e-400", &v), RV_ERANGE,
	                "too small");                                        /* underflows to 0 */
	assert_int_equal(rv_parse_double("2.2250738585072014e-308", &v), 0); /* DBL_MIN: normal */
	assert_true(v > 0);
	assert_int_equal(rv_parse_double("-0", &v), 0);
	assert_true(fpclassify(v) == FP_ZERO && !signbit(v));
	assert_int_equal(rv_parse_double("-0.0e5", &v), 0);
	assert_true(!signbit(v));
	rv_fmt_double(out, v);
	assert_string_equal(out, "0.0");
	v = -0.0;
	assert_int_equal(rv_num_check(&v), 0);
	assert_true(fpclassify(v) == FP_ZERO && !signbit(v));
	v = 1e-310;
	rv_assert_error(rv_num_check(&v), RV_ERANGE, "too small for any quantity");
	v = 3.5;
	assert_int_equal(rv_num_check(&v), 0);
	rv_assert_close(v, 3.5, 0, 0);
	rv_assert_close(rv_num_floor("s"), 1e-12, 0, 0);
	rv_assert_close(rv_num_floor("B/s"), 1.0, 0, 0);
	rv_assert_close(rv_num_floor("J"), 1e-21, 0, 0);
	rv_assert_close(rv_num_floor(""), 0.0, 0, 0);
	rv_assert_close(rv_num_floor(NULL), 0.0, 0, 0);
}

/* The baseline columns under the rule: a "-0" energy is read as 0 and written
 * 0.0; a computed -0 (a row built in memory) is written 0.0 as well; a
 * subnormal computed value is refused by the limits check the writer uses. */
static void test_strnum__baseline_minus_zero_round_trip(void **state)
{
	struct rv_baseline_row r;
	char cell[RV_ROW_CELL], why[512];

	(void)state;
	rv_baseline_row_init(&r);
	assert_int_equal(rv_row_parse(&r, RV_COL_ENERGY_J, "-0"), 0);
	assert_true(!signbit(r.energy_J));
	rv_row_format(cell, &r, RV_COL_ENERGY_J);
	assert_string_equal(cell, "0.0");
	r.energy_J = -0.0;
	rv_row_format(cell, &r, RV_COL_ENERGY_J);
	assert_string_equal(cell, "0.0");
	r.energy_J = 1e-310;
	assert_int_equal(rv_row_check(&r, RV_COL_ENERGY_J, NULL, why, sizeof(why)), RV_ERANGE);
	assert_non_null(strstr(why, "too small for any energy per call"));
	r.latency_s = 5e-13;
	assert_int_equal(rv_row_check(&r, RV_COL_LATENCY_S, NULL, why, sizeof(why)), RV_ERANGE);
	r.latency_s = 1e-12;
	assert_int_equal(rv_row_check(&r, RV_COL_LATENCY_S, NULL, why, sizeof(why)), 0);
	rv_assert_error(rv_row_parse(&r, RV_COL_LATENCY_S, "-0"), RV_ERANGE,
	                "not a plausible latency");
	rv_assert_error(rv_row_parse(&r, RV_COL_IDLE_POWER_W, "1e-9"), RV_ERANGE, "below 1e-06 W");
	assert_int_equal(rv_row_parse(&r, RV_COL_IDLE_POWER_W, "0"), 0);
	/* Differences and spreads have no floor. */
	assert_int_equal(rv_row_parse(&r, RV_COL_ENERGY_NET_J, "-1e-30"), 0);
	assert_int_equal(rv_row_parse(&r, RV_COL_LATENCY_MAD_S, "1e-20"), 0);
	free(r.hardware);
	free(r.notes);
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
		cmocka_unit_test(test_strnum__number_rule),
		cmocka_unit_test(test_strnum__baseline_minus_zero_round_trip),
		cmocka_unit_test(test_strnum__parse_integers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
