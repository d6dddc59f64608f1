/* SPDX-License-Identifier: MIT */
/* Tests of sweep files: reference round trips, unknown keys kept, errors with positions. */
#include <jansson.h>

#include "rv_test.h"
#include "sweep/sweep.h"

static char *render(const struct rv_sweep *s)
{
	struct rv_buf out = RV_BUF_INIT;

	assert_int_equal(rv_sweep_render(&out, s), 0);
	return out.data;
}

/* Every reference sweep loads and writes back to the same JSON value; in fact
 * to the same bytes but for our final newline. */
static void test_sweep__reference_round_trip(void **state)
{
	static const char *const names[] = {
		"matmul_calibration", "matmul_validation",      "linear_calibration",
		"linear_validation",  "vector_add_calibration", "vector_add_validation",
	};
	const char *ref = rv_reference_dir();

	(void)state;
	RV_SKIP_WITHOUT_REFERENCE(ref);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[4200];
		struct rv_sweep *s;
		json_t *a, *b;
		size_t len = 0;
		char *orig, *again;

		(void)snprintf(path, sizeof(path), "%s/sweeps/%s.json", ref, names[i]);
		orig = rv_slurp(path, &len);
		assert_non_null(orig);
		if (rv_sweep_load(&s, path) != 0)
			fail_msg("%s", rv_error_last());
		assert_true(s->n_entries >= 10);
		assert_true(s->has_seed);
		again = render(s);
		a = json_loads(orig, 0, NULL);
		b = json_loads(again, 0, NULL);
		assert_non_null(a);
		assert_non_null(b);
		assert_true(json_equal(a, b));
		assert_int_equal(strlen(again), len + 1);
		assert_memory_equal(orig, again, len);
		json_decref(a);
		json_decref(b);
		free(orig);
		free(again);
		rv_sweep_free(s);
	}
}

static void test_sweep__fields_and_labels(void **state)
{
	static const char text[] =
	        "{\"op\": \"linear\", \"purpose\": \"validation\", \"generator_seed\": 7,\n"
	        " \"shapes\": [{\"shape\": [1, 128, 384], \"dtype\": \"fp16\",\n"
	        "   \"regime_per_hw\": {\"jetson_orin_nano_8gb\": \"launch_bound\", "
	        "\"h100_sxm5_80gb\": \"l2_bound\"}}]}";
	struct rv_sweep *s;
	const struct rv_sweep_label *l;

	(void)state;
	assert_int_equal(rv_sweep_parse(&s, text, strlen(text), "s.json"), 0);
	assert_int_equal(s->op, RV_OP_LINEAR);
	assert_int_equal(s->purpose, RV_PURPOSE_VALIDATION);
	assert_true(s->generator_seed == 7);
	assert_int_equal(s->n_entries, 1);
	assert_false(s->augmented_with_hardware.present);
	assert_true(s->entries[0].shape.dim[2] == 384);
	l = rv_sweep_label_for(&s->entries[0], "h100_sxm5_80gb");
	assert_non_null(l);
	assert_int_equal(l->regime, RV_REGIME_L2);
	assert_null(rv_sweep_label_for(&s->entries[0], "i7_12700k"));
	rv_sweep_free(s);
}

static void test_sweep__unknown_keys_are_kept(void **state)
{
	static const char text[] =
	        "{\"op\": \"vector_add\", \"purpose\": \"calibration\", \"note\": {\"by\": "
	        "\"x\"},\n"
	        " \"shapes\": [{\"shape\": [256], \"dtype\": \"fp32\", \"regime_per_hw\": {},\n"
	        "   \"weight\": 0.5}], \"zz\": [1, 2]}";
	struct rv_sweep *s, *s2;
	char *out, *out2;

	(void)state;
	assert_int_equal(rv_sweep_parse(&s, text, strlen(text), "s.json"), 0);
	out = render(s);
	assert_non_null(strstr(out, "\"weight\": 0.5"));
	assert_non_null(strstr(out, "\"note\": {\n    \"by\": \"x\"\n  }"));
	/* A second round trip changes nothing. */
	assert_int_equal(rv_sweep_parse(&s2, out, strlen(out), "s2.json"), 0);
	out2 = render(s2);
	assert_string_equal(out, out2);
	free(out);
	free(out2);
	rv_sweep_free(s);
	rv_sweep_free(s2);
}

static void test_sweep__bad_inputs(void **state)
{
	static const struct {
		const char *text;
		int code;
		const char *msg;
	} cases[] = {
		{ "{\"op\": \"matmul\",\n \"purpose\": \"x\", \"shapes\": []}", RV_EPARSE,
		  "s.json:2:13: purpose: unknown purpose 'x'" },
		{ "{\"op\": \"conv\", \"purpose\": \"calibration\", \"shapes\": []}", RV_EPARSE,
		  "s.json:1:8: op: unknown op 'conv'" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\"}", RV_EPARSE,
		  "s.json:1:1: missing required key 'shapes'" },
		{ "[1, 2]", RV_EPARSE, "s.json:1:1: a sweep is a JSON object" },
		{ "{\"op\": \"matmul\", \"op\": \"linear\"}", RV_EPARSE, "duplicate object key" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [\n"
		  "  {\"shape\": [64, 64], \"dtype\": \"fp32\", \"regime_per_hw\": {}}]}",
		  RV_EPARSE,
		  "s.json:2:13: shapes[0].shape: expected an array of 3 positive integers" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [\n"
		  "  {\"shape\": [64, 0, 64], \"dtype\": \"fp32\", \"regime_per_hw\": {}}]}",
		  RV_ERANGE, "shapes[0].shape: dimension 2 is not a positive integer" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [\n"
		  "  {\"shape\": [64, 64, 64], \"dtype\": \"fp33\", \"regime_per_hw\": {}}]}",
		  RV_EPARSE, "s.json:2:36: shapes[0].dtype: unknown dtype 'fp33'" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [\n"
		  "  {\"shape\": [64, 64, 64], \"dtype\": \"fp32\",\n"
		  "   \"regime_per_hw\": {\"i7\": \"fast\"}}]}",
		  RV_EPARSE, "s.json:3:28: shapes[0].regime_per_hw.i7: unknown regime 'fast'" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [\n"
		  "  {\"shape\": [64, 64, 64], \"dtype\": \"fp32\", \"regime_per_hw\": {}},\n"
		  "  {\"shape\": [64, 64, 64], \"dtype\": \"fp32\", \"regime_per_hw\": {}}]}",
		  RV_EPARSE, "s.json:3:3: shapes[1]: repeats shapes[0] (64x64x64 fp32)" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [\n"
		  "  {\"shape\": [64, 64, 64], \"regime_per_hw\": {}}]}",
		  RV_EPARSE, "s.json:2:3: shapes[0]: missing required key 'dtype'" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"generator_seed\": \"7\", "
		  "\"shapes\": []}",
		  RV_EPARSE, "generator_seed: expected an integer, not a string" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [],\n"
		  " \"augmented_with_hardware\": [\"ok\", 3]}",
		  RV_EPARSE, "s.json:2:36: augmented_with_hardware[1]: expected a hardware key" },
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [\n"
		  "  {\"shape\": [99999999999999999999, 1, 1]}]}",
		  RV_EPARSE, "too big integer" },
		{ "{\"op\": \"matmul\",", RV_EPARSE, "s.json:1:16:" },
		{ "", RV_EPARSE, "s.json:1:1: the file is empty" },
		/* Positions are found for keys written with escapes too. */
		{ "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [\n"
		  "  {\"shape\": [64, 64, 64], \"dtype\": \"fp32\",\n"
		  "   \"regime_per_hw\": {\"\\u0069\\u0037\": \"fast\"}}]}",
		  RV_EPARSE, "s.json:3:38: shapes[0].regime_per_hw.i7: unknown regime 'fast'" },
		{ "{\"op\": \"m\\u0061tmul\", \"purpose\": \"calibration\", \"shapes\": [],\n "
		  "\"x\\u00e9\": 1, \"shapes\": 2}",
		  RV_EPARSE, "duplicate object key" },
	};
	struct rv_sweep *s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = rv_sweep_parse(&s, cases[i].text, strlen(cases[i].text), "s.json");

		if (rc != cases[i].code || !strstr(rv_error_last(), cases[i].msg))
			fail_msg("case %zu: got %d '%s', wanted %d '%s'", i, rc, rv_error_last(),
			         cases[i].code, cases[i].msg);
		assert_null(s);
	}
}

static void test_sweep__save_is_atomic_and_reloads(void **state)
{
	static const char text[] = "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": "
	                           "[{\"shape\": [2, 3, 4], \"dtype\": \"fp32\", "
	                           "\"regime_per_hw\": {\"h\": \"alu_bound\"}}]}";
	const char *dir = rv_scratch_dir("sweep_save");
	char path[4200];
	struct rv_sweep *s, *s2;

	(void)state;
	(void)snprintf(path, sizeof(path), "%s/matmul_calibration.json", dir);
	assert_int_equal(rv_sweep_parse(&s, text, strlen(text), "s.json"), 0);
	assert_int_equal(rv_sweep_save(s, path), 0);
	assert_int_equal(rv_sweep_load(&s2, path), 0);
	assert_int_equal(s2->n_entries, 1);
	assert_int_equal(s2->entries[0].labels[0].regime, RV_REGIME_ALU);
	rv_sweep_free(s);
	rv_sweep_free(s2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep__reference_round_trip),
		cmocka_unit_test(test_sweep__fields_and_labels),
		cmocka_unit_test(test_sweep__unknown_keys_are_kept),
		cmocka_unit_test(test_sweep__bad_inputs),
		cmocka_unit_test(test_sweep__save_is_atomic_and_reloads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
