/* SPDX-License-Identifier: MIT */
/* Tests of sweep files: reference round trips, unknown keys kept, errors with positions. */
#include <jansson.h>

#include "hw/profile.h"
#include "io/baseline.h"
#include "model/calibrate.h"
#include "model/classify.h"
#include "model/validate.h"
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

static uint64_t fnv1a(const char *text)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *text; text++)
		h = (h ^ (unsigned char)*text) * 0x100000001b3ULL;
	return h;
}

static struct rv_profile *shipped(const char *key, unsigned flags)
{
	struct rv_profile *p = NULL;

	if (rv_profile_find(&p, rv_profile_dir(NULL), key, flags) != 0)
		fail_msg("%s", rv_error_last());
	return p;
}

/* The generator keeps its output for a seed: the bytes the command line wrote
 * before it moved into sweep/ (sweep generate --op vector_add --seed 7
 * --targets i7_12700k --per-regime 8 --max-bytes 5e7, and --op matmul --seed
 * 11 --targets i7_12700k,h200_sxm_141gb --per-regime 2, as tests/cli/run.sh
 * runs them), by their FNV-1a hash; the same inputs give the same sweeps, and
 * another seed others. */
static void test_sweep__generate_keeps_its_output(void **state)
{
	static const struct {
		enum rv_op op;
		uint64_t seed;
		size_t per, n_targets;
		double max_B;
		size_t n[RV_PURPOSE_COUNT];
		uint64_t hash[RV_PURPOSE_COUNT];
	} cases[] = {
		{ RV_OP_VECTOR_ADD,
		  7,
		  8,
		  1,
		  5e7,
		  { 17, 10 },
		  { 0xc2c25725a62735a8ULL, 0x4c81f99fa208d985ULL } },
		{ RV_OP_MATMUL,
		  11,
		  2,
		  2,
		  1073741824.0,
		  { 14, 37 },
		  { 0x6899384c4373d301ULL, 0xf35f8077175afcf4ULL } },
	};
	struct rv_profile *t[2] = { shipped("i7_12700k", 0), shipped("h200_sxm_141gb", 0) };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rv_sweep_generate_opts o = { cases[i].op,   cases[i].seed,  cases[i].per,
			                            17179869184.0, cases[i].max_B, 0 };
		struct rv_sweep *a[RV_PURPOSE_COUNT], *b[RV_PURPOSE_COUNT];

		if (rv_sweep_generate(&o, (const struct rv_profile *const *)t, cases[i].n_targets,
		                      a) != 0)
			fail_msg("%s", rv_error_last());
		o.seed++;
		assert_int_equal(rv_sweep_generate(&o, (const struct rv_profile *const *)t,
		                                   cases[i].n_targets, b),
		                 0);
		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
			char *ta = render(a[pu]), *tb = render(b[pu]);

			assert_int_equal(a[pu]->n_entries, cases[i].n[pu]);
			if (fnv1a(ta) != cases[i].hash[pu])
				fail_msg("case %zu purpose %d changed:\n%s", i, pu, ta);
			assert_string_not_equal(ta, tb);
			assert_int_equal(a[pu]->generator_seed, (int64_t)cases[i].seed);
			free(ta);
			free(tb);
		}
		/* The purposes are disjoint. */
		for (size_t x = 0; x < a[0]->n_entries; x++)
			for (size_t y = 0; y < a[1]->n_entries; y++)
				assert_false(rv_shape_cmp(&a[0]->entries[x].shape,
				                          &a[1]->entries[y].shape) == 0 &&
				             a[0]->entries[x].dtype == a[1]->entries[y].dtype);
		for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
			rv_sweep_free(a[pu]);
			rv_sweep_free(b[pu]);
		}
	}
	{
		struct rv_sweep_generate_opts o = { RV_OP_MATMUL, 1, 0, 1, 1, 0 };
		struct rv_sweep *a[RV_PURPOSE_COUNT];

		rv_assert_error(rv_sweep_generate(&o, (const struct rv_profile *const *)t, 1, a),
		                RV_ERANGE,
		                "1 to 1000 shapes per regime or per family (one of the two)");
		o.per_regime = o.per_family = 1;
		rv_assert_error(rv_sweep_generate(&o, (const struct rv_profile *const *)t, 1, a),
		                RV_ERANGE, "(one of the two)");
		o.per_family = 0;
		o.per_regime = 1;
		rv_assert_error(rv_sweep_generate(&o, (const struct rv_profile *const *)t, 17, a),
		                RV_ERANGE, "more than 16 targets");
		assert_null(a[0]);
	}
	rv_profile_free(t[0]);
	rv_profile_free(t[1]);
}

/* Per family (leave-one-family-out's strata): each purpose holds at most N
 * shapes of each family of rv_cal_family() on the target, calibration at
 * least one of every family met, validation every family that had two
 * candidates or more (calibration takes the first); the small dimensions
 * are there (a family with all three small), and the purposes are
 * disjoint. */
static void test_sweep__generate_per_family(void **state)
{
	struct rv_profile *x = shipped("xeon_amx_2vcpu", 0);
	struct rv_sweep_generate_opts o = {
		RV_OP_LINEAR, 20261206, 0, 4294967296.0, 268435456.0, 2
	};
	struct rv_sweep *a[RV_PURPOSE_COUNT];
	char fams[RV_PURPOSE_COUNT][128][RV_CAL_FAMILY_MAX];
	size_t count[RV_PURPOSE_COUNT][128], n_fam[RV_PURPOSE_COUNT] = { 0, 0 };
	int tiny = 0;

	(void)state;
	memset(count, 0, sizeof(count));
	if (rv_sweep_generate(&o, (const struct rv_profile *const *)&x, 1, a) != 0)
		fail_msg("%s", rv_error_last());
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
		assert_true(a[pu]->n_entries > 0);
		for (size_t i = 0; i < a[pu]->n_entries; i++) {
			const struct rv_sweep_entry *e = &a[pu]->entries[i];
			char f[RV_CAL_FAMILY_MAX];
			size_t j = 0;

			assert_int_equal(rv_cal_family(f, x, o.op, &e->shape, e->dtype), 0);
			while (j < n_fam[pu] && strcmp(fams[pu][j], f) != 0)
				j++;
			if (j == n_fam[pu]) {
				assert_true(j < 128);
				(void)snprintf(fams[pu][n_fam[pu]++], RV_CAL_FAMILY_MAX, "%s", f);
			}
			count[pu][j]++;
			tiny |= e->shape.dim[0] == 1 && e->shape.dim[1] <= 3 &&
			        e->shape.dim[2] <= 3;
			for (size_t y = 0; pu == 1 && y < a[0]->n_entries; y++)
				assert_false(rv_shape_cmp(&a[0]->entries[y].shape, &e->shape) == 0);
		}
		for (size_t j = 0; j < n_fam[pu]; j++)
			if (count[pu][j] < 1 || count[pu][j] > 2)
				fail_msg("purpose %d: %zu shapes of family %s", pu, count[pu][j],
				         fams[pu][j]);
	}
	assert_true(tiny);
	/* Linear's families: rows (M=1, M=2, M=3-7, M>=8) x small dims x size. */
	assert_true(n_fam[0] >= 30);
	/* A family of validation is one of calibration. */
	for (size_t j = 0; j < n_fam[1]; j++) {
		size_t k = 0;

		while (k < n_fam[0] && strcmp(fams[0][k], fams[1][j]) != 0)
			k++;
		assert_true(k < n_fam[0]);
	}
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++)
		rv_sweep_free(a[pu]);
	rv_profile_free(x);
}

/* Bounds that select nothing give no sweeps and say why (nothing
 * committed is replaced by less): no candidate within the bounds for a
 * target (the other one has some), candidates a target labels only
 * ambiguous or unsupported, and a purpose left without a shape. */
static void test_sweep__generate_selects_something(void **state)
{
	struct rv_profile *t[2] = { shipped("i7_12700k", 0), shipped("h200_sxm_141gb", 0) };
	struct rv_profile *x = shipped("xeon_amx_2vcpu", 0);
	struct rv_sweep_generate_opts o = { RV_OP_MATMUL, 1, 4, 1, 1073741824.0, 0 };
	struct rv_sweep *a[RV_PURPOSE_COUNT];

	(void)state;
	rv_assert_error(rv_sweep_generate(&o, (const struct rv_profile *const *)t, 1, a), RV_ERANGE,
	                "no candidate shape of matmul fits --max-flop 1 and --max-bytes "
	                "1073741824 for i7_12700k; raise the bounds");
	assert_null(a[0]);
	assert_null(a[1]);
	/* 64x64x64 takes 48 KiB in fp32, 24 KiB in fp16: only the h200 has one. */
	o.max_flop = 17179869184.0;
	o.max_working_set_B = 30000;
	rv_assert_error(rv_sweep_generate(&o, (const struct rv_profile *const *)t, 2, a), RV_ERANGE,
	                "no candidate shape of matmul fits --max-flop 17179869184 and --max-bytes "
	                "30000 for i7_12700k; raise the bounds");
	assert_null(a[0]);
	assert_int_equal(rv_sweep_generate(&o, (const struct rv_profile *const *)t + 1, 1, a),
	                 RV_ERANGE);
	rv_assert_contains(rv_error_last(), "leave none for the validation sweep; raise the "
	                                    "bounds or lower --per-regime");
	assert_null(a[1]);
	o.max_flop = 1e6;
	o.max_working_set_B = 1073741824.0;
	rv_assert_error(rv_sweep_generate(&o, (const struct rv_profile *const *)&x, 1, a),
	                RV_ERANGE,
	                "are all ambiguous or unsupported for xeon_amx_2vcpu; raise the bounds");
	rv_assert_error(rv_sweep_generate(&o, (const struct rv_profile *const *)t, 1, a), RV_ERANGE,
	                "the 4 candidate shapes of matmul within --max-flop 1000000 and "
	                "--max-bytes 1073741824 leave none for the validation sweep");
	/* A little more and both purposes get shapes. */
	o.max_flop = 3e6;
	assert_int_equal(rv_sweep_generate(&o, (const struct rv_profile *const *)t, 1, a), 0);
	assert_true(a[0]->n_entries > 0 && a[1]->n_entries > 0);
	rv_sweep_free(a[0]);
	rv_sweep_free(a[1]);
	rv_profile_free(t[0]);
	rv_profile_free(t[1]);
	rv_profile_free(x);
}

/* Augment labels the entries in the target's default dtype that it has no
 * label for, keeps every other label, and a second run changes nothing. */
static void test_sweep__augment_labels_a_new_target(void **state)
{
	static const char text[] =
	        "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": ["
	        "{\"shape\": [1, 1, 1], \"dtype\": \"fp32\", "
	        "\"regime_per_hw\": {\"other\": \"alu_bound\"}},"
	        "{\"shape\": [4096, 4096, 4096], \"dtype\": \"fp32\", "
	        "\"regime_per_hw\": {}},"
	        "{\"shape\": [64, 64, 64], \"dtype\": \"fp16\", "
	        "\"regime_per_hw\": {\"other\": \"l2_bound\"}}]}";
	struct rv_profile *p = shipped("xeon_amx_2vcpu", 0);
	size_t added = 0, count[RV_REGIME_COUNT] = { 0 }, total = 0;
	const struct rv_sweep_label *l;
	struct rv_sweep *s;

	(void)state;
	if (rv_sweep_parse(&s, text, sizeof(text) - 1, "t.json") != 0)
		fail_msg("%s", rv_error_last());
	assert_int_equal(p->default_dtype, RV_DTYPE_FP32);
	assert_int_equal(rv_sweep_augment(s, p, &added, count), 1);
	assert_int_equal(added, 2);
	for (int g = 0; g < RV_REGIME_COUNT; g++)
		total += count[g];
	assert_int_equal(total, 2);
	assert_non_null(rv_sweep_label_for(&s->entries[0], p->key));
	assert_non_null(l = rv_sweep_label_for(&s->entries[1], p->key));
	assert_int_equal(count[l->regime] >= 1, 1);
	assert_null(rv_sweep_label_for(&s->entries[2], p->key)); /* fp16: not its dtype */
	l = rv_sweep_label_for(&s->entries[0], "other");
	assert_int_equal(l->regime, RV_REGIME_ALU);
	assert_int_equal(rv_sweep_label_for(&s->entries[2], "other")->regime, RV_REGIME_L2);
	assert_int_equal(s->augmented_with_hardware.n, 1);
	assert_string_equal(s->augmented_with_hardware.items[0], p->key);
	added = 0;
	assert_int_equal(rv_sweep_augment(s, p, &added, count), 0);
	assert_int_equal(added, 0);
	rv_sweep_free(s);
	rv_profile_free(p);
}

/* Relabel follows the committed baseline where it is conclusive, freezes the
 * sweep for the target, refuses a frozen sweep and relabels it with force. */
static void test_sweep__relabel_freezes_and_force_overrides(void **state)
{
	struct rv_profile *p = shipped("xeon_amx_2vcpu", RV_PROFILE_FIT);
	struct rv_sweep_relabelled r;
	struct rv_baseline *b = NULL;
	struct rv_sweep *s = NULL;
	enum rv_regime *was;
	char path[4200];
	size_t flipped = 0;

	(void)state;
	(void)snprintf(path, sizeof(path), "%s/matmul_calibration.json", rv_sweep_dir(NULL));
	if (rv_sweep_load(&s, path) != 0)
		fail_msg("%s", rv_error_last());
	(void)snprintf(path, sizeof(path), "%s/xeon_amx_2vcpu_matmul.csv", rv_baseline_dir(NULL));
	if (rv_baseline_load(&b, path) != 0)
		fail_msg("%s", rv_error_last());
	/* The committed sweep is frozen for the target. */
	assert_true(rv_sweep_frozen(s, p->key));
	rv_assert_error(rv_sweep_relabel(s, p, b, 0, &r), RV_ERROR,
	                "the labels of xeon_amx_2vcpu already follow a baseline");
	/* Unfrozen, it relabels and freezes again. */
	for (size_t i = 0; i < s->augmented_with_hardware_from_baseline.n; i++)
		free(s->augmented_with_hardware_from_baseline.items[i]);
	s->augmented_with_hardware_from_baseline.n = 0;
	assert_false(rv_sweep_frozen(s, p->key));
	assert_true(rv_sweep_relabel(s, p, b, 0, &r) >= 0);
	assert_true(r.checked > 0);
	assert_true(rv_sweep_frozen(s, p->key));
	free(r.changes);
	/* Every label now follows its conclusive row: flip them all, and a
	 * forced relabel turns each conclusive one back. */
	was = calloc(s->n_entries, sizeof(*was));
	assert_non_null(was);
	for (size_t i = 0; i < s->n_entries; i++) {
		for (size_t j = 0; j < s->entries[i].n_labels; j++) {
			struct rv_sweep_label *l = &s->entries[i].labels[j];

			if (strcmp(l->hw, p->key) != 0 || l->regime == RV_REGIME_UNSUPPORTED)
				continue;
			was[i] = l->regime;
			l->regime = l->regime == RV_REGIME_DRAM ? RV_REGIME_ALU : RV_REGIME_DRAM;
			flipped++;
		}
	}
	assert_true(flipped > 0);
	rv_assert_error(rv_sweep_relabel(s, p, b, 0, &r), RV_ERROR, "pass --force");
	assert_int_equal(rv_sweep_relabel(s, p, b, 1, &r), 1);
	assert_true(r.n_changes >= 1);
	for (size_t c = 0; c < r.n_changes; c++) {
		size_t i = 0;

		while (i < s->n_entries &&
		       !(rv_shape_cmp(&s->entries[i].shape, &r.changes[c].shape) == 0 &&
		         s->entries[i].dtype == r.changes[c].dtype))
			i++;
		assert_true(i < s->n_entries);
		assert_int_equal(r.changes[c].to, was[i]);
		assert_int_equal(rv_sweep_label_for(&s->entries[i], p->key)->regime, was[i]);
		assert_true(r.changes[c].measured_s > 0);
	}
	free(r.changes);
	free(was);
	rv_baseline_free(b);
	rv_sweep_free(s);
	rv_profile_free(p);
}

/* Adds a measured row (hw, vector_add, n, fp32, latency_s) to b. */
static void add_row(struct rv_baseline *b, char *hw, const char *n, double latency_s)
{
	struct rv_baseline_row r;

	rv_baseline_row_init(&r);
	r.hardware = hw;
	r.op = RV_OP_VECTOR_ADD;
	r.dtype = RV_DTYPE_FP32;
	r.latency_s = latency_s;
	r.trial_count = 1;
	assert_int_equal(rv_shape_parse(n, RV_OP_VECTOR_ADD, &r.shape), 0);
	if (rv_baseline_upsert(b, &r) != 0)
		fail_msg("%s", rv_error_last());
}

/* Relabel respects the footprint: a vector_add whose working set fits in L1
 * (192 KiB of i7_12700k's 512 KiB), measured at 90% of the DRAM bandwidth
 * (which rv_measured_regime() alone calls dram_bound), keeps its l1_bound
 * label; the same measurement rate on a shape larger than every cache moves
 * its label to dram_bound, so the rule is the footprint, not a refusal of
 * dram_bound. */
static void test_sweep__relabel_respects_the_footprint(void **state)
{
	static const char text[] =
	        "{\"op\": \"vector_add\", \"purpose\": \"calibration\", \"shapes\": ["
	        "{\"shape\": [16384], \"dtype\": \"fp32\", \"regime_per_hw\": "
	        "{\"i7_12700k\": \"l1_bound\"}}, "
	        "{\"shape\": [16777216], \"dtype\": \"fp32\", \"regime_per_hw\": "
	        "{\"i7_12700k\": \"l1_bound\"}}]}";
	struct rv_profile *p = shipped("i7_12700k", 0);
	char hw[] = "i7_12700k";
	struct rv_sweep_relabelled r;
	struct rv_classification c;
	struct rv_baseline *b = NULL;
	struct rv_sweep *s = NULL;
	struct rv_shape small;
	enum rv_regime measured;
	double dram_Bps = p->memory[p->n_memory - 1].bw_Bps, small_s, big_s;

	(void)state;
	p->op_overhead_s[RV_OP_VECTOR_ADD] = 1e-9; /* nothing here is launch-bound */
	p->published_op_overhead_s[RV_OP_VECTOR_ADD] = 1e-9;
	if (rv_sweep_parse(&s, text, sizeof(text) - 1, "footprint.json") != 0)
		fail_msg("%s", rv_error_last());
	assert_int_equal(rv_shape_parse("16384", RV_OP_VECTOR_ADD, &small), 0);
	assert_int_equal(rv_classify(&c, p, RV_OP_VECTOR_ADD, &small, RV_DTYPE_FP32), 0);
	assert_true(c.working_set_B <= c.l1_capacity_B);
	small_s = c.working_set_B / (0.9 * dram_Bps);
	big_s = 12.0 * 16777216 / (0.9 * dram_Bps);
	/* The measurement alone looks dram-bound. */
	assert_int_equal(rv_measured_regime(&measured, p, RV_OP_VECTOR_ADD, &small, RV_DTYPE_FP32,
	                                    small_s, p->published_op_overhead_s[RV_OP_VECTOR_ADD]),
	                 0);
	assert_int_equal(measured, RV_REGIME_DRAM);
	assert_int_equal(rv_baseline_new(&b), 0);
	add_row(b, hw, "16384", small_s);
	add_row(b, hw, "16777216", big_s);
	assert_int_equal(rv_sweep_relabel(s, p, b, 1, &r), 1);
	assert_int_equal(r.checked, 2);
	assert_int_equal(r.n_changes, 1);
	assert_int_equal(r.changes[0].shape.dim[0], 16777216);
	assert_int_equal(r.changes[0].to, RV_REGIME_DRAM);
	assert_int_equal(rv_sweep_label_for(&s->entries[0], "i7_12700k")->regime, RV_REGIME_L1);
	assert_int_equal(rv_sweep_label_for(&s->entries[1], "i7_12700k")->regime, RV_REGIME_DRAM);
	free(r.changes);
	rv_baseline_free(b);
	rv_sweep_free(s);
	rv_profile_free(p);
}

/* Relabel finds each entry's row whatever the order of the baseline's rows
 * and of the sweep's entries, and ignores rows of other hardware. */
static void test_sweep__relabel_finds_rows_in_any_order(void **state)
{
	struct rv_profile *p = shipped("i7_12700k", 0);
	struct rv_sweep_relabelled r;
	struct rv_baseline *b = NULL;
	struct rv_sweep *s = NULL;
	static const char *const n[] = { "33554432", "16777216", "50331648", "25165824" };
	char hw[] = "i7_12700k", other[] = "other_cpu";
	char text[2048];
	size_t len = 0;
	double dram_Bps = p->memory[p->n_memory - 1].bw_Bps;

	(void)state;
	len += (size_t)snprintf(text + len, sizeof(text) - len,
	                        "{\"op\": \"vector_add\", \"purpose\": \"validation\", "
	                        "\"shapes\": [");
	for (int i = 0; i < 4; i++)
		len += (size_t)snprintf(
		        text + len, sizeof(text) - len,
		        "%s{\"shape\": [%s], \"dtype\": \"fp32\", \"regime_per_hw\": "
		        "{\"i7_12700k\": \"alu_bound\"}}",
		        i ? ", " : "", n[i]);
	len += (size_t)snprintf(text + len, sizeof(text) - len, "]}");
	if (rv_sweep_parse(&s, text, len, "order.json") != 0)
		fail_msg("%s", rv_error_last());
	assert_int_equal(rv_baseline_new(&b), 0);
	/* Rows in another order; the other target's row of each shape is slow. */
	for (int i = 3; i >= 0; i--) {
		add_row(b, other, n[i], 10.0);
		add_row(b, hw, n[i], 12.0 * strtod(n[i], NULL) / (0.9 * dram_Bps));
	}
	assert_int_equal(rv_sweep_relabel(s, p, b, 1, &r), 1);
	assert_int_equal(r.checked, 4);
	assert_int_equal(r.n_changes, 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(rv_sweep_label_for(&s->entries[i], "i7_12700k")->regime,
		                 RV_REGIME_DRAM);
	free(r.changes);
	rv_baseline_free(b);
	rv_sweep_free(s);
	rv_profile_free(p);
}

/* A sweep past 1 MiB, parsed a batch of entries at a time: the same sweep
 * (rendered byte for byte) as the whole parse, unknown keys and the entries
 * of every batch included; and any error in it gives the whole parse's
 * message, line and column. */
static void test_sweep__large_parsed_in_batches(void **state)
{
	struct rv_buf text = RV_BUF_INIT, a = RV_BUF_INIT, b = RV_BUF_INIT;
	struct rv_sweep *chunked, *whole;
	char whole_msg[1024];
	const size_t n = 12000;

	(void)state;
	rv_buf_puts(&text, "{ \"op\" : \"matmul\", \"purpose\": \"validation\", \"note\": "
	                   "{\"x\": [1, \"]\"]},\n  \"shapes\": [\n");
	for (size_t i = 0; i < n; i++)
		rv_buf_printf(
		        &text,
		        "  {\"shape\": [%zu, %zu, 8], \"dtype\": \"fp16\", \"regime_per_hw\": "
		        "{\"toy_cpu\": \"l2_bound\", \"other\": \"dram_bound\"}%s}%s\n",
		        i % 1000 + 1, i / 1000 + 1, i % 7 ? "" : ", \"tag\": \"a,}\\\"]\"",
		        i + 1 < n ? "," : "");
	rv_buf_puts(&text, "  ], \"generator_seed\": 7 }\n");
	assert_int_equal(rv_buf_check(&text), 0);
	assert_true(text.len > ((size_t)1 << 20));
	assert_int_equal(rv_sweep_parse_batched(&chunked, text.data, text.len, "big.json"), 1);
	assert_int_equal(rv_sweep_parse_whole(&whole, text.data, text.len, "big.json"), 0);
	assert_int_equal(chunked->n_entries, n);
	assert_int_equal(rv_sweep_render(&a, chunked), 0);
	assert_int_equal(rv_sweep_render(&b, whole), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	rv_sweep_free(chunked);
	rv_sweep_free(whole);
	rv_buf_free(&a);
	rv_buf_free(&b);
	/* Errors far into the file: a duplicate entry, a bad dtype, a trailing comma. */
	static const char *const breaks[][2] = {
		{ "[5, 3, 8], \"dtype\": \"fp16\"", "[4, 3, 8], \"dtype\": \"fp16\"" },
		{ "[5, 3, 8], \"dtype\": \"fp16\"", "[5, 3, 8], \"dtype\": \"fp17\"" },
		{ "}\n  ], \"generator_seed\"", "},\n  ], \"generator_seed\"" },
	};
	for (size_t k = 0; k < sizeof(breaks) / sizeof(breaks[0]); k++) {
		char *copy = malloc(text.len + 8), *at;
		size_t len;

		assert_non_null(copy);
		memcpy(copy, text.data, text.len + 1);
		at = strstr(copy, breaks[k][0]);
		assert_non_null(at);
		memmove(at + strlen(breaks[k][1]), at + strlen(breaks[k][0]),
		        strlen(at + strlen(breaks[k][0])) + 1);
		memcpy(at, breaks[k][1], strlen(breaks[k][1]));
		len = strlen(copy);
		assert_true(rv_sweep_parse_whole(&whole, copy, len, "big.json") < 0);
		(void)snprintf(whole_msg, sizeof(whole_msg), "%s", rv_error_last());
		assert_non_null(strstr(whole_msg, "big.json:"));
		assert_int_equal(rv_sweep_parse_batched(&chunked, copy, len, "big.json"), 0);
		assert_true(rv_sweep_parse(&chunked, copy, len, "big.json") < 0);
		assert_string_equal(rv_error_last(), whole_msg);
		free(copy);
	}
	rv_buf_free(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep__reference_round_trip),
		cmocka_unit_test(test_sweep__fields_and_labels),
		cmocka_unit_test(test_sweep__unknown_keys_are_kept),
		cmocka_unit_test(test_sweep__bad_inputs),
		cmocka_unit_test(test_sweep__save_is_atomic_and_reloads),
		cmocka_unit_test(test_sweep__generate_keeps_its_output),
		cmocka_unit_test(test_sweep__generate_per_family),
		cmocka_unit_test(test_sweep__generate_selects_something),
		cmocka_unit_test(test_sweep__augment_labels_a_new_target),
		cmocka_unit_test(test_sweep__relabel_freezes_and_force_overrides),
		cmocka_unit_test(test_sweep__relabel_respects_the_footprint),
		cmocka_unit_test(test_sweep__relabel_finds_rows_in_any_order),
		cmocka_unit_test(test_sweep__large_parsed_in_batches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
