/* SPDX-License-Identifier: MIT */
/* Tests of the one baseline schema (data/baseline.h): every known column
 * parsed to its type, unknown columns kept, every committed baseline
 * byte-identical through a round trip, and the limits the loader enforces
 * held by a store. */
#include <dirent.h>

#include "core/path.h"
#include "data/baseline.h"
#include "io/baseline.h"
#include "rv_test.h"
#include "rv_test_baseline.h"

#define HEADER "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes"
#define ALL_EXTRA                                                                                  \
	"latency_min_s,latency_p10_s,latency_p90_s,latency_mad_s,latency_cv,energy_net_j,"         \
	"idle_power_w,energy_window_s,energy_calls,cpu_freq_hz,busy_share,sm_clock_hz,"            \
	"sm_clock_min_hz,mem_clock_hz,gpu_temp_c,power_limit_w,throttle_reasons,trials_discarded," \
	"median_rel_se,precision_target,repeats,repeat_spread"

/* The table is consistent: names found back, fixed columns first, the
 * capture's columns in the order of the docs. */
static void test_schema__table(void **state)
{
	char all[1024] = HEADER "," ALL_EXTRA, *save = NULL;
	int c = 0;

	(void)state;
	for (char *name = strtok_r(all, ",", &save); name; name = strtok_r(NULL, ",", &save), c++) {
		assert_true(c < RV_COL_N);
		assert_string_equal(rv_baseline_schema[c].name, name);
		assert_int_equal(rv_col_find(name), c);
		assert_non_null(rv_baseline_schema[c].unit);
		assert_non_null(rv_baseline_schema[c].noun);
		assert_true(rv_baseline_schema[c].offset < sizeof(struct rv_baseline_row));
	}
	assert_int_equal(c, RV_COL_N);
	assert_int_equal(rv_col_find("cv"), RV_COL_UNKNOWN);
	assert_int_equal(rv_col_find(""), RV_COL_UNKNOWN);
	/* Every required column is a fixed one. */
	for (c = RV_BASELINE_FIXED_COLS; c < RV_COL_N; c++)
		assert_false(rv_baseline_schema[c].required);
}

/* Every known column parsed to its type, and written back as it was. */
static void test_schema__every_column_typed(void **state)
{
	const char *text =
	        HEADER "," ALL_EXTRA "\r\n"
	               "gpu1,linear,8x4096x4096,fp16,0.00012,0.5,11,\"a, b\","
	               "0.0001,0.00011,0.00013,2e-06,0.017,0.25,"
	               "35.5,0.125,1000,1800000000.0,0.5,1980000000.0,"
	               "900000000.0,2619000000.0,45.0,700.0,0x4c,3,0.0042,0.01,3,0.021\r\n";
	struct rv_baseline *b = rv_test_baseline_parse(text);
	const struct rv_baseline_row *r;
	char cell[RV_ROW_CELL], *out;
	uint64_t u;

	(void)state;
	assert_int_equal(b->n_rows, 1);
	assert_int_equal(b->n_extra, RV_COL_N - RV_BASELINE_FIXED_COLS);
	assert_int_equal(b->n_unknown, 0);
	r = &b->rows[0];
	assert_string_equal(r->hardware, "gpu1");
	assert_int_equal(r->op, RV_OP_LINEAR);
	assert_int_equal(r->shape.dim[2], 4096);
	assert_int_equal(r->dtype, RV_DTYPE_FP16);
	rv_assert_close(r->latency_s, 0.00012, 0, 0);
	rv_assert_close(r->energy_J, 0.5, 0, 0);
	assert_int_equal(r->trial_count, 11);
	assert_string_equal(r->notes, "a, b");
	rv_assert_close(r->latency_min_s, 0.0001, 0, 0);
	rv_assert_close(r->latency_p10_s, 0.00011, 0, 0);
	rv_assert_close(r->latency_p90_s, 0.00013, 0, 0);
	rv_assert_close(r->latency_mad_s, 2e-06, 0, 0);
	rv_assert_close(r->latency_cv, 0.017, 0, 0);
	rv_assert_close(r->energy_net_J, 0.25, 0, 0);
	rv_assert_close(r->idle_power_W, 35.5, 0, 0);
	rv_assert_close(r->energy_window_s, 0.125, 0, 0);
	assert_true(r->energy_calls.present);
	assert_int_equal(r->energy_calls.value, 1000);
	rv_assert_close(r->cpu_freq_Hz, 1.8e9, 0, 0);
	rv_assert_close(r->busy_share, 0.5, 0, 0);
	rv_assert_close(r->sm_clock_Hz, 1.98e9, 0, 0);
	rv_assert_close(r->sm_clock_min_Hz, 9e8, 0, 0);
	rv_assert_close(r->mem_clock_Hz, 2.619e9, 0, 0);
	rv_assert_close(r->gpu_temp_C, 45, 0, 0);
	rv_assert_close(r->power_limit_W, 700, 0, 0);
	assert_true(r->throttle_reasons.present);
	assert_int_equal(r->throttle_reasons.value, 0x4c);
	assert_true(r->trials_discarded.present);
	assert_int_equal(r->trials_discarded.value, 3);
	rv_assert_close(r->median_rel_se, 0.0042, 0, 0);
	rv_assert_close(r->precision_target, 0.01, 0, 0);
	assert_int_equal(rv_row_precision_reached(r), 1);
	assert_true(r->repeats.present);
	assert_int_equal(r->repeats.value, 3);
	rv_assert_close(r->repeat_spread, 0.021, 0, 0);
	/* The accessors, by column. */
	rv_assert_close(rv_row_value(r, RV_COL_ENERGY_WINDOW_S), 0.125, 0, 0);
	rv_assert_close(rv_row_value(r, RV_COL_ENERGY_CALLS), 1000, 0, 0);
	rv_assert_close(rv_row_value(r, RV_COL_TRIAL_COUNT), 11, 0, 0);
	assert_true(isnan(rv_row_value(r, RV_COL_NOTES)));
	assert_true(rv_row_u64(r, RV_COL_THROTTLE_REASONS, &u));
	assert_int_equal(u, 0x4c);
	assert_false(rv_row_u64(r, RV_COL_LATENCY_S, &u));
	rv_row_format(cell, r, RV_COL_THROTTLE_REASONS);
	assert_string_equal(cell, "0x4c");
	rv_row_format(cell, r, RV_COL_CPU_FREQ_HZ);
	assert_string_equal(cell, "1800000000.0");
	out = rv_test_baseline_render(b);
	assert_string_equal(out, text);
	free(out);
	rv_baseline_free(b);
}

/* Empty fields are empty values; a column the file lacks is not carried. */
static void test_schema__empty_and_absent(void **state)
{
	const char *text = HEADER ",energy_window_s,energy_calls,throttle_reasons\n"
	                          "h,matmul,1x2x3,fp32,2e-06,,11,,,,\n";
	struct rv_baseline *b = rv_test_baseline_parse(text);
	const struct rv_baseline_row *r = &b->rows[0];
	uint64_t u;
	char *out;

	(void)state;
	assert_true(isnan(r->energy_J));
	assert_true(isnan(rv_row_value(r, RV_COL_ENERGY_WINDOW_S)));
	assert_false(rv_row_u64(r, RV_COL_ENERGY_CALLS, &u));
	assert_true(rv_row_empty(r, RV_COL_THROTTLE_REASONS));
	assert_true(r->cols & RV_COL_BIT(RV_COL_ENERGY_CALLS));
	/* Not in the file: not carried, empty. */
	assert_false(r->cols & RV_COL_BIT(RV_COL_BUSY_SHARE));
	assert_true(isnan(rv_row_value(r, RV_COL_BUSY_SHARE)));
	assert_true(rv_row_empty(r, RV_COL_TRIALS_DISCARDED));
	out = rv_test_baseline_render(b);
	assert_string_equal(out, text);
	free(out);
	rv_baseline_free(b);
}

/* Columns the schema does not know are kept as text, wherever they sit. */
static void test_schema__unknown_columns_kept(void **state)
{
	const char *text = HEADER ",future,latency_cv,\"odd, name\"\r\n"
	                          "h,matmul,1x2x3,fp32,2e-06,,11,,x y,0.5,\"1,2\"\r\n"
	                          "h,matmul,1x2x4,fp32,3e-06,,11,,,,\r\n";
	struct rv_baseline *b = rv_test_baseline_parse(text);
	struct rv_baseline_row row;
	char *out;

	(void)state;
	assert_int_equal(b->n_extra, 3);
	assert_int_equal(b->n_unknown, 2);
	assert_int_equal(b->extra_id[0], RV_COL_UNKNOWN);
	assert_int_equal(b->extra_id[1], RV_COL_LATENCY_CV);
	assert_int_equal(b->extra_id[2], RV_COL_UNKNOWN);
	assert_string_equal(b->rows[0].unknown[0], "x y");
	assert_string_equal(b->rows[0].unknown[1], "1,2");
	rv_assert_close(b->rows[0].latency_cv, 0.5, 0, 0);
	out = rv_test_baseline_render(b);
	assert_string_equal(out, text);
	free(out);
	/* A new row leaves the unknown columns empty; a new known column is appended. */
	rv_baseline_row_init(&row);
	row.hardware = (char *)(uintptr_t) "h";
	row.op = RV_OP_MATMUL;
	assert_int_equal(rv_shape_parse("1x2x5", RV_OP_MATMUL, &row.shape), 0);
	row.dtype = RV_DTYPE_FP32;
	row.latency_s = 4e-06;
	row.trial_count = 3;
	row.idle_power_W = 12.5;
	row.cols = RV_COL_BIT(RV_COL_IDLE_POWER_W);
	assert_int_equal(rv_baseline_upsert(b, &row), 0);
	rv_baseline_sort(b);
	out = rv_test_baseline_render(b);
	assert_string_equal(out, HEADER ",future,latency_cv,\"odd, name\",idle_power_w\r\n"
	                                "h,matmul,1x2x3,fp32,2e-06,,11,,x y,0.5,\"1,2\",\r\n"
	                                "h,matmul,1x2x4,fp32,3e-06,,11,,,,,\r\n"
	                                "h,matmul,1x2x5,fp32,4e-06,,3,,,,,12.5\r\n");
	free(out);
	rv_baseline_free(b);
}

/* Every committed baseline (results/baselines and the reference files) is
 * the same bytes after a load, sort and render. */
static int round_trip_dir(const char *dir)
{
	struct dirent *de;
	DIR *dh = opendir(dir);
	int files = 0;

	assert_non_null(dh);
	while ((de = readdir(dh)) != NULL) {
		char path[RV_PATH_MAX], *orig, *again;
		size_t len = strlen(de->d_name);
		struct rv_baseline *b;

		if (len < 4 || strcmp(de->d_name + len - 4, ".csv") != 0)
			continue;
		assert_int_equal(rv_path_join(path, sizeof(path), dir, de->d_name), 0);
		orig = rv_slurp(path, NULL);
		assert_non_null(orig);
		if (rv_baseline_load(&b, path) != 0)
			fail_msg("%s: %s", path, rv_error_last());
		assert_true(b->n_rows > 0);
		rv_baseline_sort(b);
		again = rv_test_baseline_render(b);
		if (strcmp(orig, again) != 0)
			fail_msg("%s changed in a round trip", path);
		rv_baseline_free(b);
		free(orig);
		free(again);
		files++;
	}
	(void)closedir(dh);
	return files;
}

static void test_schema__committed_round_trip(void **state)
{
	char dir[RV_PATH_MAX];

	(void)state;
	assert_int_equal(
	        rv_path_join(dir, sizeof(dir), RV_TEST_DATA_DIR, "../../results/baselines"), 0);
	assert_true(round_trip_dir(dir) >= 3);
}

static void test_schema__reference_round_trip(void **state)
{
	const char *ref = rv_reference_dir();
	char dir[RV_PATH_MAX];

	(void)state;
	RV_SKIP_WITHOUT_REFERENCE(ref);
	assert_int_equal(rv_path_join(dir, sizeof(dir), ref, "baselines"), 0);
	assert_int_equal(round_trip_dir(dir), 6);
}

/* A known extra column outside its limits, or not of its type, is refused
 * with the file, line, column and what to do. */
static void test_schema__loader_limits(void **state)
{
	static const struct {
		const char *col, *value;
		int code;
		const char *msg;
	} cases[] = {
		{ "idle_power_w", "2e6", RV_ERANGE,
		  "b.csv:2:32: idle_power_w: 2e6 W is not a plausible idle power (0 <= "
		  "idle_power_w "
		  "<= 1e6 W); check its unit" },
		{ "idle_power_w", "-1", RV_ERANGE,
		  "idle_power_w: -1 W is negative; leave the field empty when it was not "
		  "measured" },
		{ "busy_share", "1.5", RV_ERANGE,
		  "busy_share: 1.5 is not a plausible share (0 <= busy_share <= 1)" },
		{ "latency_min_s", "1e6", RV_ERANGE,
		  "latency_min_s: 1e6 s is not a plausible latency" },
		{ "gpu_temp_c", "-300", RV_ERANGE,
		  "gpu_temp_c: -300 C is not a plausible temperature" },
		{ "energy_net_j", "-2e9", RV_ERANGE,
		  "energy_net_j: -2e9 J is not a plausible net" },
		{ "latency_cv", "abc", RV_EPARSE,
		  "latency_cv: 'abc' is not a number; write a decimal number, or leave" },
		{ "energy_calls", "1.5", RV_EPARSE,
		  "energy_calls: '1.5' is not a non-negative integer; write a non-negative "
		  "integer" },
		{ "throttle_reasons", "4", RV_EPARSE,
		  "throttle_reasons: '4' is not a hexadecimal number; write 0x and hexadecimal "
		  "digits" },
		{ "throttle_reasons", "0x", RV_EPARSE, "'0x' is not a hexadecimal number" },
		{ "throttle_reasons", "0x12345678123456789", RV_EPARSE,
		  "not a hexadecimal number" },
		{ "trials_discarded", "-1", RV_EPARSE, "trials_discarded: '-1' is not" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512];
		struct rv_baseline *b;
		int rc;

		(void)snprintf(text, sizeof(text),
		               HEADER ",%s\nh,matmul,1x2x3,fp32,2e-06,,11,,%s\n", cases[i].col,
		               cases[i].value);
		rc = rv_baseline_parse(&b, text, strlen(text), "b.csv");
		if (rc != cases[i].code || !strstr(rv_error_last(), cases[i].msg))
			fail_msg("case %zu: got %d '%s', wanted %d '%s'", i, rc, rv_error_last(),
			         cases[i].code, cases[i].msg);
		assert_null(b);
	}
}

static struct rv_baseline_row host_row(const char *shape)
{
	struct rv_baseline_row r;

	rv_baseline_row_init(&r);
	r.hardware = (char *)(uintptr_t) "host";
	r.op = RV_OP_MATMUL;
	assert_int_equal(rv_shape_parse(shape, RV_OP_MATMUL, &r.shape), 0);
	r.dtype = RV_DTYPE_FP32;
	r.latency_s = 1e-05;
	r.trial_count = 11;
	r.notes = (char *)(uintptr_t) "meter ok";
	return r;
}

/* A writer never writes what its loader refuses: an optional value outside
 * the limits is written empty with a note; a required one is refused. */
static void test_schema__store_holds_limits(void **state)
{
	const char *dir = rv_scratch_dir("schema_store");
	char path[RV_PATH_MAX], *text;
	struct rv_baseline_row r = host_row("64x64x64");
	struct rv_baseline *b;

	(void)state;
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "host_matmul.csv"), 0);
	r.energy_J = 2e9;
	r.idle_power_W = -3;
	r.busy_share = 0.25;
	r.latency_cv = (double)INFINITY;
	r.energy_calls.value = 7;
	r.energy_calls.present = 1;
	r.cols = RV_COL_BIT(RV_COL_IDLE_POWER_W) | RV_COL_BIT(RV_COL_ENERGY_CALLS) |
	         RV_COL_BIT(RV_COL_BUSY_SHARE) | RV_COL_BIT(RV_COL_LATENCY_CV);
	assert_int_equal(rv_baseline_store(path, &r), 0);
	text = rv_slurp(path, NULL);
	assert_non_null(text);
	assert_string_equal(text, HEADER ",latency_cv,idle_power_w,energy_calls,busy_share\r\n"
	                                 "host,matmul,64x64x64,fp32,1e-05,,11,\"meter ok; "
	                                 "energy_j: 2000000000.0 J is not a plausible energy "
	                                 "per call (at most 1e9 J, a day at over 10 kW); check "
	                                 "its unit; written empty; latency_cv: inf is not a "
	                                 "plausible coefficient of variation (latency_cv >= 0); "
	                                 "written empty; idle_power_w: -3.0 W is "
	                                 "negative; leave the field empty when it was not "
	                                 "measured; written empty\",,,7,0.25\r\n");
	free(text);
	/* What was written loads. */
	assert_int_equal(rv_baseline_load(&b, path), 0);
	assert_true(isnan(b->rows[0].energy_J));
	rv_baseline_free(b);
	/* A latency outside the limits, or no trial: no row, the file as it was. */
	text = rv_slurp(path, NULL);
	r = host_row("32x32x32");
	r.latency_s = 1e300;
	rv_assert_error(rv_baseline_store(path, &r), RV_ERANGE,
	                "latency_s: 1e+300 s is not a plausible latency (1e-12 s <= latency_s "
	                "<= 86400 s); check its unit; the row is not written");
	r = host_row("32x32x32");
	r.latency_s = (double)NAN;
	rv_assert_error(rv_baseline_store(path, &r), RV_ERANGE, "latency_s: nan s is not");
	r = host_row("32x32x32");
	r.trial_count = 0;
	rv_assert_error(rv_baseline_store(path, &r), RV_ERANGE,
	                "trial_count: 0 trials; a measured row has at least one");
	r = host_row("32x32x32");
	r.hardware = (char *)(uintptr_t) "two words";
	rv_assert_error(rv_baseline_store(path, &r), RV_EPARSE,
	                "hardware: 'two words' is not a hardware key");
	{
		char *after = rv_slurp(path, NULL);

		assert_string_equal(text, after);
		free(after);
	}
	free(text);
}

/* A row that does not carry a column the baseline has leaves it empty,
 * whatever its field holds. */
static void test_schema__uncarried_is_empty(void **state)
{
	struct rv_baseline *b =
	        rv_test_baseline_parse(HEADER ",latency_cv\n"
	                                      "host,matmul,1x1x1,fp32,1e-06,,1,,0.5\n");
	struct rv_baseline_row r = host_row("1x1x1");
	char *out;

	(void)state;
	r.latency_cv = 0.75; /* not carried: ignored */
	assert_int_equal(rv_baseline_upsert(b, &r), 0);
	out = rv_test_baseline_render(b);
	assert_string_equal(out,
	                    HEADER ",latency_cv\nhost,matmul,1x1x1,fp32,1e-05,,11,meter ok,\n");
	free(out);
	rv_baseline_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema__table),
		cmocka_unit_test(test_schema__every_column_typed),
		cmocka_unit_test(test_schema__empty_and_absent),
		cmocka_unit_test(test_schema__unknown_columns_kept),
		cmocka_unit_test(test_schema__committed_round_trip),
		cmocka_unit_test(test_schema__reference_round_trip),
		cmocka_unit_test(test_schema__loader_limits),
		cmocka_unit_test(test_schema__store_holds_limits),
		cmocka_unit_test(test_schema__uncarried_is_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
