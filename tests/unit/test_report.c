/* SPDX-License-Identifier: MIT */
/* Tests of the report renderers: text, markdown and JSON of a hand-built
 * validation against golden files, the JSON schema, and format names. */
#include <jansson.h>

#include "model/predict.h"
#include "model/validate.h"
#include "report/report.h"
#include "report/report_internal.h"
#include "rv_test_records.h"

static void add_source(struct rv_validation *v, const char *text)
{
	v->sources = realloc(v->sources, (v->n_sources + 1) * sizeof(*v->sources));
	assert_non_null(v->sources);
	v->sources[v->n_sources] = strdup(text);
	assert_non_null(v->sources[v->n_sources]);
	v->n_sources++;
}

/* Two targets, two ops, and a record of each kind a report must show: passes,
 * failures of each check (one of them of two checks), energy not scored for
 * each reason, and a NAN measured energy. */
static void sample(struct rv_validation *v)
{
	static const struct rv_test_rec specs[] = {
		{ "cpu_test", RV_OP_MATMUL, "512x512x512", RV_DTYPE_FP32, RV_REGIME_ALU,
		  RV_REGIME_ALU, 10.0e-3, 9.5e-3, 0.50, 0.48, RV_BOUND_COMPUTE, RV_TIER_DRAM, NULL,
		  NULL },
		{ "cpu_test", RV_OP_MATMUL, "1024x1024x1024", RV_DTYPE_FP32, RV_REGIME_ALU,
		  RV_REGIME_DRAM, 80.0e-3, 100.0e-3, 4.0, 4.2, RV_BOUND_COMPUTE, RV_TIER_DRAM, NULL,
		  NULL },
		{ "cpu_test", RV_OP_MATMUL, "64x64x64", RV_DTYPE_FP32, RV_REGIME_LAUNCH,
		  RV_REGIME_LAUNCH, 12.0e-6, 10.0e-6, 2.0e-4, 0.0, RV_BOUND_OVERHEAD, RV_TIER_L1,
		  "measured energy 0: below the meter's resolution, not scored", NULL },
		{ "cpu_test", RV_OP_VECTOR_ADD, "16777216", RV_DTYPE_FP32, RV_REGIME_DRAM,
		  RV_REGIME_DRAM, 12.0e-3, 11.0e-3, 0.9, 0.6, RV_TIER_DRAM, RV_TIER_DRAM, NULL,
		  "meter caveat: rails VDD_CPU|VDD_SOC,\nsampled at 1 kHz" },
		{ "gpu_test", RV_OP_MATMUL, "4096x4096x4096", RV_DTYPE_FP16, RV_REGIME_ALU,
		  RV_REGIME_ALU, 0.2154e-3, 0.2049e-3, 0.1, (double)NAN, RV_BOUND_COMPUTE,
		  RV_TIER_L2, "energy not measured", NULL },
		{ "gpu_test", RV_OP_MATMUL, "2048x2048x2048", RV_DTYPE_FP16, RV_REGIME_L2,
		  RV_REGIME_AMBIGUOUS, 40.5e-6, 30.0e-6, 0.005, 0.004, RV_BOUND_COMPUTE, RV_TIER_L2,
		  "energy not scored: under 1 ms without a measured energy window", NULL },
		{ "gpu_test", RV_OP_VECTOR_ADD, "1024", RV_DTYPE_FP16, RV_REGIME_LAUNCH,
		  RV_REGIME_LAUNCH, 5.778e-6, 6.896e-6, 1.0e-5, 2.0e-5, RV_BOUND_OVERHEAD,
		  RV_TIER_L1, "energy not scored: under 1 ms without a measured energy window",
		  NULL },
		{ "gpu_test", RV_OP_VECTOR_ADD, "268435456", RV_DTYPE_FP16, RV_REGIME_DRAM,
		  RV_REGIME_DRAM, 0.35e-3, 0.5e-3, 0.12, 0.2, RV_TIER_DRAM, RV_TIER_DRAM, NULL,
		  NULL },
		{ "gpu_test", RV_OP_VECTOR_ADD, "67108864", RV_DTYPE_FP16, RV_REGIME_DRAM,
		  RV_REGIME_DRAM, 1.3e-3, 1.25e-3, 0.05, 0.048, RV_TIER_DRAM, RV_TIER_DRAM, NULL,
		  NULL },
	};

	memset(v, 0, sizeof(*v));
	add_source(v, "cpu_test matmul validation: sweeps/matmul_validation.json, "
	              "results/baselines/cpu_test_matmul.csv");
	add_source(v, "cpu_test vector_add validation: sweeps/vector_add_validation.json, "
	              "results/baselines/cpu_test_vector_add.csv");
	add_source(v, "gpu_test matmul validation: sweeps/matmul_validation.json, "
	              "results/baselines/gpu_test_matmul.csv");
	add_source(v, "gpu_test vector_add validation: sweeps/vector_add_validation.json, "
	              "results/baselines/gpu_test_vector_add.csv");
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		rv_test_add_record(v, &specs[i]);
	v->skipped_no_baseline = 2;
	v->skipped_unsupported = 1;
	v->skipped_ambiguous = 3;
}

static char *render(const struct rv_validation *v, enum rv_format f)
{
	struct rv_buf out = RV_BUF_INIT;
	int rc = rv_report_render(&out, v, f);

	if (rc != 0)
		fail_msg("rv_report_render(%s): %d %s", rv_format_name(f), rc, rv_error_last());
	assert_non_null(out.data);
	return out.data;
}

static void test_report__golden_text(void **state)
{
	struct rv_validation v;
	char *text;

	(void)state;
	sample(&v);
	text = render(&v, RV_FORMAT_TEXT);
	rv_check_golden(text, "report.txt", "report");
	free(text);
	rv_validation_free(&v);
}

static void test_report__golden_markdown(void **state)
{
	struct rv_validation v;
	char *text;

	(void)state;
	sample(&v);
	text = render(&v, RV_FORMAT_MARKDOWN);
	rv_check_golden(text, "report.md", "report");
	free(text);
	rv_validation_free(&v);
}

static void test_report__golden_json(void **state)
{
	struct rv_validation v;
	char *text;

	(void)state;
	sample(&v);
	text = render(&v, RV_FORMAT_JSON);
	rv_check_golden(text, "report.json", "report");
	free(text);
	rv_validation_free(&v);
}

/* Expected JSON types: s string, S string or null, i integer, r real, R real or null, b
 * boolean, B boolean or null, o object, a array. */
struct key_type {
	const char *key;
	char type;
};

static int has_type(const json_t *j, char type)
{
	switch (type) {
	case 's':
		return json_is_string(j);
	case 'S':
		return json_is_string(j) || json_is_null(j);
	case 'i':
		return json_is_integer(j);
	case 'r':
		return json_is_real(j);
	case 'R':
		return json_is_real(j) || json_is_null(j);
	case 'b':
		return json_is_boolean(j);
	case 'B':
		return json_is_boolean(j) || json_is_null(j);
	case 'o':
		return json_is_object(j);
	case 'a':
		return json_is_array(j);
	default:
		return 0;
	}
}

/* Checks that obj has exactly the keys of want, each of its type. */
static void check_keys(const json_t *obj, const char *where, const struct key_type *want, size_t n)
{
	if (!json_is_object(obj))
		fail_msg("%s is not an object", where);
	for (size_t i = 0; i < n; i++) {
		const json_t *j = json_object_get(obj, want[i].key);

		if (!j)
			fail_msg("%s lacks \"%s\"", where, want[i].key);
		if (!has_type(j, want[i].type))
			fail_msg("%s.%s is not of type '%c'", where, want[i].key, want[i].type);
	}
	if (json_object_size(obj) != n)
		fail_msg("%s has %zu keys, expected %zu", where, json_object_size(obj), n);
}

static void test_report__json_schema(void **state)
{
	static const struct key_type root_keys[] = {
		{ "schema", 's' },         { "summary", 'o' }, { "sources", 'a' }, { "cells", 'a' },
		{ "records", 'a' },        { "models", 'a' },  { "missing", 'a' }, { "noise", 'a' },
		{ "repeat_folders", 'i' }, { "labels", 'a' },
	};
	static const struct key_type summary_keys[] = {
		{ "records", 'i' },
		{ "passed", 'i' },
		{ "failed", 'i' },
		{ "skipped_no_baseline", 'i' },
		{ "skipped_unsupported", 'i' },
		{ "skipped_ambiguous", 'i' },
		{ "energy_scored", 'i' },
		{ "labelled", 'i' },
		{ "rows_found", 'i' },
		{ "skipped_no_prediction", 'i' },
		{ "unlabelled_predictions", 'i' },
		{ "unlabelled_rows", 'a' },
		{ "suspect", 'i' },
		{ "suspect_energy", 'i' },
		{ "suspect_failed", 'i' },
		{ "excluded_flagged", 'i' },
		{ "regime_scored", 'i' },
		{ "regime_passed", 'i' },
		{ "regime_unstated", 'i' },
		{ "latency", 'o' },
		{ "energy", 'o' },
	};
	static const struct key_type accuracy_keys[] = {
		{ "n", 'i' },
		{ "median_ape", 'R' },
		{ "within_10", 'r' },
		{ "within_25", 'r' },
	};
	static const struct key_type cell_keys[] = {
		{ "hardware", 's' },       { "op", 's' },
		{ "regime", 's' },         { "n_total", 'i' },
		{ "n_pass", 'i' },         { "n_fail_regime", 'i' },
		{ "n_fail_latency", 'i' }, { "n_fail_energy", 'i' },
		{ "model", 's' },          { "median_latency_ape", 'R' },
		{ "n_suspect", 'i' },      { "n_regime_unstated", 'i' },
		{ "n_within_band", 'i' },  { "latency_bias", 'o' },
		{ "rate", 'o' },
	};
	static const struct key_type record_keys[] = {
		{ "model", 's' },
		{ "regime_model", 'S' },
		{ "hardware", 's' },
		{ "op", 's' },
		{ "shape", 's' },
		{ "dtype", 's' },
		{ "regime_predicted", 's' },
		{ "latency_predicted_ms", 'r' },
		{ "energy_predicted_j", 'r' },
		{ "regime_measured", 's' },
		{ "latency_measured_ms", 'r' },
		{ "energy_measured_j", 'R' },
		{ "latency_error", 'r' },
		{ "energy_error", 'R' },
		{ "pass_regime", 'B' },
		{ "label_agrees", 'b' },
		{ "extra", 'o' },
		{ "pass_latency", 'b' },
		{ "pass_energy", 'B' },
		{ "pass", 'b' },
		{ "tolerance_latency", 'r' },
		{ "tolerance_energy", 'r' },
		{ "bottleneck_layer", 'S' },
		{ "binding_tier", 'S' },
		{ "notes", 's' },
		{ "suspect", 'a' },
		{ "suspect_why", 's' },
	};
	struct rv_validation v;
	json_error_t jerr;
	json_t *root, *summary, *arr, *rec;
	char *text, where[64];
	size_t i;

	(void)state;
	sample(&v);
	text = render(&v, RV_FORMAT_JSON);
	assert_int_equal(text[strlen(text) - 1], '\n');
	root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		fail_msg("the JSON report does not parse: %d:%d: %s", jerr.line, jerr.column,
		         jerr.text);
	check_keys(root, "report", root_keys, sizeof(root_keys) / sizeof(root_keys[0]));
	assert_string_equal(json_string_value(json_object_get(root, "schema")), "roofval.report/1");

	summary = json_object_get(root, "summary");
	check_keys(summary, "summary", summary_keys,
	           sizeof(summary_keys) / sizeof(summary_keys[0]));
	check_keys(json_object_get(summary, "latency"), "summary.latency", accuracy_keys,
	           sizeof(accuracy_keys) / sizeof(accuracy_keys[0]));
	check_keys(json_object_get(summary, "energy"), "summary.energy", accuracy_keys,
	           sizeof(accuracy_keys) / sizeof(accuracy_keys[0]));
	assert_int_equal(json_integer_value(json_object_get(summary, "records")), 9);
	assert_int_equal(json_integer_value(json_object_get(summary, "skipped_ambiguous")), 3);
	/* Energy scored on 5 records: the NAN, the 0 J and the short ones are not. */
	assert_int_equal(json_integer_value(json_object_get(summary, "energy_scored")), 5);

	arr = json_object_get(root, "sources");
	assert_int_equal(json_array_size(arr), 4);
	json_array_foreach(arr, i, rec) assert_true(json_is_string(rec));

	arr = json_object_get(root, "cells");
	assert_true(json_array_size(arr) > 0);
	json_array_foreach(arr, i, rec)
	{
		(void)snprintf(where, sizeof(where), "cells[%zu]", i);
		check_keys(rec, where, cell_keys, sizeof(cell_keys) / sizeof(cell_keys[0]));
	}

	arr = json_object_get(root, "records");
	assert_int_equal(json_array_size(arr), v.n_records);
	json_array_foreach(arr, i, rec)
	{
		(void)snprintf(where, sizeof(where), "records[%zu]", i);
		check_keys(rec, where, record_keys, sizeof(record_keys) / sizeof(record_keys[0]));
	}
	/* Record 2 (64x64x64, 0 J) has energy skipped: null, not false. */
	rec = json_array_get(arr, 2);
	assert_string_equal(json_string_value(json_object_get(rec, "shape")), "64x64x64");
	assert_true(json_is_null(json_object_get(rec, "pass_energy")));
	assert_true(json_is_null(json_object_get(rec, "energy_error")));
	assert_true(json_is_true(json_object_get(rec, "pass")));
	/* Record 4 has a NAN measured energy: null. */
	rec = json_array_get(arr, 4);
	assert_true(json_is_null(json_object_get(rec, "energy_measured_j")));
	assert_true(json_is_null(json_object_get(rec, "pass_energy")));
	/* Record 3 failed energy only: false, and the record fails. */
	rec = json_array_get(arr, 3);
	assert_true(json_is_false(json_object_get(rec, "pass_energy")));
	assert_true(json_is_false(json_object_get(rec, "pass")));
	assert_string_equal(json_string_value(json_object_get(rec, "bottleneck_layer")), "dram");
	rv_assert_close(json_real_value(json_object_get(rec, "latency_predicted_ms")), 12.0, 1e-12,
	                0);

	json_decref(root);
	free(text);
	rv_validation_free(&v);
}

/* No records: every format still renders, and JSON has null medians. */
static void test_report__empty(void **state)
{
	struct rv_validation v;
	json_t *root, *lat;
	char *text;

	(void)state;
	memset(&v, 0, sizeof(v));
	v.skipped_no_baseline = 4;
	text = render(&v, RV_FORMAT_TEXT);
	assert_non_null(strstr(text, "no records"));
	assert_non_null(strstr(text, "latency  not scored on any record"));
	assert_non_null(strstr(text, "failures: none"));
	free(text);
	text = render(&v, RV_FORMAT_MARKDOWN);
	assert_non_null(strstr(text, "No records."));
	free(text);
	text = render(&v, RV_FORMAT_JSON);
	root = json_loads(text, 0, NULL);
	assert_non_null(root);
	lat = json_object_get(json_object_get(root, "summary"), "latency");
	assert_true(json_is_null(json_object_get(lat, "median_ape")));
	assert_int_equal(json_integer_value(json_object_get(lat, "n")), 0);
	assert_int_equal(json_array_size(json_object_get(root, "records")), 0);
	json_decref(root);
	free(text);
}

/* Text that is not UTF-8 still gives valid JSON; control characters never
 * break a text or markdown line. */
static void test_report__odd_text(void **state)
{
	struct rv_validation v;
	json_t *root;
	char *text;

	(void)state;
	sample(&v);
	(void)snprintf(v.records[1].notes, sizeof(v.records[1].notes), "caf\xe9 | x\r\ny");
	text = render(&v, RV_FORMAT_JSON);
	root = json_loads(text, 0, NULL);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(
	                            json_array_get(json_object_get(root, "records"), 1), "notes")),
	                    "caf? | x\r\ny");
	json_decref(root);
	free(text);
	text = render(&v, RV_FORMAT_TEXT);
	assert_non_null(strstr(text, "notes    caf\xe9 | x  y\n"));
	free(text);
	text = render(&v, RV_FORMAT_MARKDOWN);
	assert_non_null(strstr(text, "| caf\xe9 \\| x  y |\n"));
	free(text);
	rv_validation_free(&v);
}

static void test_report__format_parse(void **state)
{
	static const char *const names[RV_FORMAT_COUNT] = { "text", "markdown", "json" };
	struct rv_buf out = RV_BUF_INIT;
	struct rv_validation v;
	enum rv_format f;

	(void)state;
	for (int i = 0; i < RV_FORMAT_COUNT; i++) {
		assert_int_equal(rv_format_parse(names[i], &f), 0);
		assert_int_equal(f, i);
		assert_string_equal(rv_format_name(f), names[i]);
	}
	rv_assert_error(rv_format_parse("html", &f), RV_EPARSE,
	                "unknown format 'html' (known: text markdown json)");
	rv_assert_error(rv_format_parse("JSON", &f), RV_EPARSE, "'JSON'");
	rv_assert_error(rv_format_parse("", &f), RV_EPARSE, "known: text markdown json");
	rv_assert_error(rv_format_parse(NULL, &f), RV_EPARSE, "known: text markdown json");
	assert_string_equal(rv_format_name(RV_FORMAT_COUNT), "?");
	memset(&v, 0, sizeof(v));
	rv_assert_error(rv_report_render(&out, &v, RV_FORMAT_COUNT), RV_EPARSE, "format");
	assert_int_equal(out.len, 0);
	rv_buf_free(&out);
}

/* Four significant digits: rounding that carries into the next power of
 * ten, powers of ten themselves, both ends of the fixed range, and the
 * exponent form outside it; each against "%.3e" read back as the rule. */
static void test_report__sig4(void **state)
{
	static const struct {
		double x;
		const char *text;
	} cases[] = {
		{ 9.9996, "10.00" },
		{ 999.96, "1000" },
		{ 1000, "1000" },
		{ 0.001, "0.001000" },
		{ 0.00099996, "0.001000" },
		{ 1e-5, "0.00001000" },
		{ 9.99996e-6, "0.00001000" },
		{ 1e-6, "1.000e-06" },
		{ 123456789, "123456789" },
		{ 999999999.6, "1.000e+09" },
		{ 1e9, "1.000e+09" },
		{ -2.5e-3, "-0.002500" },
		{ 0.1, "0.1000" },
		{ 3.14159, "3.142" },
		{ 0, "0.000" },
	};
	char out[RV_REPORT_NUM_SIZE];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rv_report__sig4(out, sizeof(out), cases[i].x);
		if (strcmp(out, cases[i].text) != 0)
			fail_msg("sig4(%.17g) = \"%s\", wanted \"%s\"", cases[i].x, out,
			         cases[i].text);
	}
	/* Every power of ten and its neighbours give what the "%.3e" rule gives:
	 * the exponent of the number rounded to 4 digits picks the decimals. */
	for (int e = -7; e <= 10; e++) {
		for (int k = -2; k <= 2; k++) {
			double x = pow(10.0, e) * (1.0 + k * 1e-5);
			char ref[64];
			long exp10;

			(void)snprintf(ref, sizeof(ref), "%.3e", x);
			exp10 = strtol(strchr(ref, 'e') + 1, NULL, 10);
			if (exp10 >= -5 && exp10 < 9)
				(void)snprintf(ref, sizeof(ref), "%.*f",
				               exp10 >= 3 ? 0 : 3 - (int)exp10, x);
			rv_report__sig4(out, sizeof(out), x);
			assert_string_equal(out, ref);
		}
	}
}

/* A second model beside sample()'s: every record of the built-in model
 * again, 40% slow, without a binding and with its own regime verdict, and
 * entries it has no prediction for. */
static void two_models(struct rv_validation *v)
{
	size_t n;

	sample(v);
	n = v->n_records;
	assert_int_equal(rv_validation_add_model(v, RV_BUILTIN_MODEL), 0);
	assert_int_equal(rv_validation_add_model(v, "slow"), 0);
	for (size_t i = 0; i < n; i++) {
		struct rv_record r = v->records[i];

		(void)snprintf(r.model, sizeof(r.model), "slow");
		r.latency_pred_s *= 1.4;
		r.latency_err = (r.latency_pred_s - r.latency_meas_s) / r.latency_meas_s;
		r.pass_latency = fabs(r.latency_err) <= r.band.latency;
		r.binding = r.binding_tier = -1;
		r.regime_model = RV_REGIME_DRAM;
		r.pass_regime = rv_regime_matches(RV_REGIME_DRAM, r.regime_measured)
		                        ? RV_CHECK_PASS
		                        : RV_CHECK_FAIL;
		v->records = realloc(v->records, (v->n_records + 1) * sizeof(*v->records));
		assert_non_null(v->records);
		v->records[v->n_records++] = r;
	}
	for (int i = 0; i < 23; i++) {
		struct rv_missing m;

		memset(&m, 0, sizeof(m));
		(void)snprintf(m.model, sizeof(m.model), "slow");
		(void)snprintf(m.hardware, sizeof(m.hardware), "cpu_test");
		m.op = RV_OP_VECTOR_ADD;
		m.shape.ndim = 1;
		m.shape.dim[0] = 1000 + (uint64_t)i;
		m.dtype = RV_DTYPE_FP32;
		v->missing = realloc(v->missing, (v->n_missing + 1) * sizeof(*v->missing));
		assert_non_null(v->missing);
		v->missing[v->n_missing++] = m;
	}
	v->cap_records = v->n_records;
	v->cap_missing = v->n_missing;
}

static void test_report__several_models(void **state)
{
	struct rv_validation v;
	char *text, buf[512];
	const char *line;
	json_t *root;
	json_error_t jerr;

	(void)state;
	two_models(&v);
	text = render(&v, RV_FORMAT_TEXT);
	rv_assert_contains(text, "models: roofval, slow\n");
	rv_assert_contains(text, "heatmap of roofval: ");
	rv_assert_contains(text, "heatmap of slow: ");
	rv_assert_contains(text, "summary of slow\n");
	rv_assert_contains(text, "23 without a prediction");
	rv_assert_contains(text, "without a prediction (23 entries with a baseline row)");
	rv_assert_contains(text, "  ... and 3 more (--format json lists them all)\n");
	rv_assert_contains(text, "models side by side");
	rv_assert_contains(text, "disagreements: ");
	rv_assert_contains(text, "  dram_bound -> alu_bound (label alu_bound)");
	/* The slow model says nothing of its binding: no binding line for it. */
	line = strstr(text, "\nfailures side by side: ");
	assert_non_null(line);
	line = strstr(line, "\n    slow ");
	assert_non_null(line);
	(void)snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(line + 1, "\n"), line + 1);
	assert_null(strstr(buf, "binding"));
	free(text);
	text = render(&v, RV_FORMAT_MARKDOWN);
	rv_assert_contains(text, "## Models side by side");
	rv_assert_contains(text, "## Disagreements (");
	rv_assert_contains(text, "## Worst first: slow\n");
	rv_assert_contains(text, "## Failures side by side\n");
	rv_assert_contains(text, "| not given |");
	free(text);
	text = render(&v, RV_FORMAT_JSON);
	root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	assert_non_null(root);
	assert_int_equal(json_array_size(json_object_get(root, "missing")), 23);
	assert_int_equal(json_array_size(json_object_get(root, "by_model")), 2);
	assert_true(json_array_size(json_object_get(root, "side_by_side")) > 0);
	assert_true(json_array_size(json_object_get(root, "disagreements")) > 0);
	assert_int_equal(json_array_size(json_object_get(root, "models")), 2);
	json_decref(root);
	free(text);
	rv_validation_free(&v);
}

static void test_report__load_json(void **state)
{
	const char *dir = rv_scratch_dir("report_load_json");
	char path[4200], bad[4200];
	struct rv_validation v, old;
	struct rv_comparison c;
	char *text;

	(void)state;
	two_models(&v);
	text = render(&v, RV_FORMAT_JSON);
	(void)snprintf(path, sizeof(path), "%s/old.json", dir);
	rv_spit(path, text);
	free(text);
	assert_int_equal(rv_report_load_json(&old, path), 0);
	assert_int_equal(old.n_records, v.n_records);
	assert_int_equal(old.n_models, 2);
	for (size_t i = 0; i < v.n_records; i++) {
		assert_string_equal(old.records[i].model, v.records[i].model);
		assert_true(rv_record_same_entry(&old.records[i], &v.records[i]));
		assert_int_equal(old.records[i].regime_label, v.records[i].regime_label);
		assert_int_equal(rv_record_passed(&old.records[i]),
		                 rv_record_passed(&v.records[i]));
		rv_assert_close(old.records[i].latency_err, v.records[i].latency_err, 1e-15, 0);
	}
	/* A report compared with itself has no change. */
	assert_int_equal(rv_validation_compare(&old, &v, 2.0, &c), 0);
	assert_int_equal(c.n_changes, 0);
	assert_int_equal(c.n_matched, v.n_records);
	rv_comparison_free(&c);
	rv_validation_free(&old);
	/* Strict: anything else is one clear error. */
	(void)snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	rv_spit(bad, "{\"schema\": \"roofval.report/2\", \"records\": []}");
	rv_assert_error(rv_report_load_json(&old, bad), RV_EPARSE, "not a roofval.report/1 report");
	rv_validation_free(&old);
	rv_spit(bad, "[1, 2");
	rv_assert_error(rv_report_load_json(&old, bad), RV_EPARSE, "not a roofval.report/1 report");
	rv_validation_free(&old);
	rv_spit(bad, "{\"schema\": \"roofval.report/1\", \"records\": [{\"hardware\": \"x\"}]}");
	rv_assert_error(rv_report_load_json(&old, bad), RV_EPARSE, "record 1 lacks");
	rv_validation_free(&old);
	(void)snprintf(bad, sizeof(bad), "%s/absent.json", dir);
	rv_assert_error(rv_report_load_json(&old, bad), RV_ENOENT, "absent.json");
	rv_validation_free(&old);
	rv_validation_free(&v);
}

static void test_report__nothing_scored(void **state)
{
	struct rv_validation v;
	struct rv_report_gate g = { RV_FORMAT_TEXT, NULL, NULL, 2.0, 0 };
	int verdict = -1;

	(void)state;
	memset(&v, 0, sizeof(v));
	assert_int_equal(rv_validation_add_model(&v, "m"), 0);
	v.labelled = v.rows_found = 4;
	v.model_counts[0].labelled = v.model_counts[0].rows_found = 4;
	rv_assert_error(rv_report_validation(&v, &g, &verdict), RV_ENOENT,
	                "nothing scored: 4 entries labelled, 4 with a baseline row, 0 scored");
	assert_int_equal(verdict, 0);
	rv_validation_free(&v);
}

/* The labels the measurement contradicts: the sweep's finding, once per
 * (hardware, op), with the relabel command, in text and JSON. */
static void test_report__label_findings(void **state)
{
	struct rv_validation v;
	struct rv_label_finding f;
	json_t *root, *labels;
	json_error_t jerr;
	char *text;

	(void)state;
	sample(&v);
	memset(&f, 0, sizeof(f));
	(void)snprintf(f.hardware, sizeof(f.hardware), "orin");
	f.op = RV_OP_MATMUL;
	f.checked = 204;
	f.contradicted = 41;
	f.by[RV_REGIME_DRAM][RV_REGIME_AMBIGUOUS] = 38;
	f.by[RV_REGIME_ALU][RV_REGIME_DRAM] = 3;
	f.relabel_moves = 3;
	f.frozen = 1;
	v.labels = malloc(sizeof(f));
	assert_non_null(v.labels);
	v.labels[0] = f;
	v.n_labels = v.cap_labels = 1;
	text = render(&v, RV_FORMAT_TEXT);
	rv_assert_contains(text, "  orin matmul: 41 of 204 labels contradicted by the measurement: "
	                         "alu_bound measured dram_bound 3, dram_bound measured ambiguous "
	                         "38; 'roofval sweep relabel --hw orin --from-baseline --force' "
	                         "moves 3 of them and leaves 38");
	free(text);
	text = render(&v, RV_FORMAT_JSON);
	root = json_loads(text, 0, &jerr);
	assert_non_null(root);
	labels = json_object_get(root, "labels");
	assert_int_equal(json_array_size(labels), 1);
	assert_int_equal(
	        json_integer_value(json_object_get(json_array_get(labels, 0), "contradicted")), 41);
	assert_string_equal(
	        json_string_value(json_object_get(json_array_get(labels, 0), "relabel_command")),
	        "roofval sweep relabel --hw orin --from-baseline --force");
	json_decref(root);
	free(text);
	rv_validation_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report__sig4),
		cmocka_unit_test(test_report__golden_text),
		cmocka_unit_test(test_report__golden_markdown),
		cmocka_unit_test(test_report__golden_json),
		cmocka_unit_test(test_report__json_schema),
		cmocka_unit_test(test_report__empty),
		cmocka_unit_test(test_report__odd_text),
		cmocka_unit_test(test_report__format_parse),
		cmocka_unit_test(test_report__several_models),
		cmocka_unit_test(test_report__label_findings),
		cmocka_unit_test(test_report__load_json),
		cmocka_unit_test(test_report__nothing_scored),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
