/* SPDX-License-Identifier: MIT */
/* Tests of the renderers behind roofval classify, predict, hw show and hw
 * list, called without argv: exact text for a fixture profile, the JSON of
 * a prediction, formats a renderer does not have, and the list's errors. */
#include <jansson.h>

#include "core/buf.h"
#include "hw/profile.h"
#include "model/classify.h"
#include "model/predict.h"
#include "report/report.h"
#include "rv_test_records.h"

static struct rv_profile *tiny_cpu(void)
{
	struct rv_profile *p;

	assert_int_equal(rv_profile_load(&p, rv_fixture_path("hardware/good/tiny_cpu.json")), 0);
	return p;
}

static void test_render__prediction_text(void **state)
{
	struct rv_profile *p = tiny_cpu();
	struct rv_buf out = RV_BUF_INIT;
	struct rv_prediction r;
	struct rv_shape s;

	(void)state;
	assert_int_equal(rv_shape_parse("64x64x64", RV_OP_MATMUL, &s), 0);
	assert_int_equal(rv_predict(&r, p, RV_OP_MATMUL, &s, RV_DTYPE_FP32), 0);
	assert_int_equal(
	        rv_report_prediction(&out, p, RV_OP_MATMUL, &s, RV_DTYPE_FP32, &r, RV_FORMAT_TEXT),
	        0);
	assert_string_equal(rv_buf_str(&out),
	                    "tiny_cpu matmul 64x64x64 fp32\n"
	                    "  latency    42 us        bound by compute\n"
	                    "  energy     91.6 uJ      static 83.9 uJ + FLOPs 5.24 uJ + bytes "
	                    "2.46 uJ\n"
	                    "  terms\n"
	                    "    overhead 1 us         per call\n"
	                    "    compute  41 us        524 kFLOP; 64x64 tiles: 1 in 1 waves; "
	                    "efficiency tile 1.000, wave 0.500, small-dim 0.800\n"
	                    "    dram     6.14 us      48 KiB at 8 GB/s\n");
	/* Appended, not replaced. */
	assert_int_equal(
	        rv_report_prediction(&out, p, RV_OP_MATMUL, &s, RV_DTYPE_FP32, &r, RV_FORMAT_TEXT),
	        0);
	assert_int_equal(strstr(rv_buf_str(&out) + 1, "tiny_cpu matmul") - rv_buf_str(&out),
	                 (long)out.len / 2);
	rv_buf_free(&out);
	rv_profile_free(p);
}

static void test_render__prediction_json(void **state)
{
	struct rv_profile *p = tiny_cpu();
	struct rv_buf out = RV_BUF_INIT;
	struct rv_prediction r;
	struct rv_shape s;
	json_error_t e;
	json_t *root;

	(void)state;
	assert_int_equal(rv_shape_parse("1000000", RV_OP_VECTOR_ADD, &s), 0);
	assert_int_equal(rv_predict(&r, p, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32), 0);
	assert_int_equal(rv_report_prediction(&out, p, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, &r,
	                                      RV_FORMAT_JSON),
	                 0);
	assert_true(out.len > 2 && out.data[0] == '{' && out.data[out.len - 1] == '\n');
	root = json_loads(rv_buf_str(&out), 0, &e);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "schema")),
	                    "roofval.predict/1");
	assert_string_equal(json_string_value(json_object_get(root, "hardware")), "tiny_cpu");
	assert_string_equal(json_string_value(json_object_get(root, "op")), "vector_add");
	assert_string_equal(json_string_value(json_object_get(root, "shape")), "1000000");
	assert_string_equal(json_string_value(json_object_get(root, "binding")), "dram");
	rv_assert_close(json_real_value(json_object_get(root, "latency_s")), r.latency_s, 0, 0);
	rv_assert_close(json_real_value(json_object_get(root, "latency_s")), 1.501e-3, 1e-12, 0);
	rv_assert_close(
	        json_real_value(json_object_get(
	                json_object_get(json_object_get(json_object_get(root, "terms"), "tiers"),
	                                "dram"),
	                "bytes")),
	        12e6, 0, 0);
	/* Sorted keys: "binding" comes first. */
	rv_assert_contains(rv_buf_str(&out),
	                   "{\n  \"binding\": \"dram\",\n  \"dtype\": \"fp32\",\n");
	json_decref(root);
	rv_buf_free(&out);
	rv_profile_free(p);
}

static void test_render__classification_text(void **state)
{
	struct rv_profile *p = tiny_cpu();
	struct rv_buf out = RV_BUF_INIT;
	struct rv_classification c;
	struct rv_shape s;

	(void)state;
	assert_int_equal(rv_shape_parse("64x64x64", RV_OP_MATMUL, &s), 0);
	assert_int_equal(rv_classify(&c, p, RV_OP_MATMUL, &s, RV_DTYPE_FP32), 0);
	assert_int_equal(rv_report_classification(&out, p, RV_OP_MATMUL, &s, RV_DTYPE_FP32, &c,
	                                          RV_FORMAT_TEXT),
	                 0);
	assert_string_equal(rv_buf_str(&out),
	                    "tiny_cpu matmul 64x64x64 fp32: dram_bound\n"
	                    "  rule                the working set exceeds every cache\n"
	                    "  work                524 kFLOP\n"
	                    "  working set         48 KiB\n"
	                    "  intensity           10.67 FLOP/B\n"
	                    "  compute / DRAM time 16.4 us / 6.14 us (effective rates)\n"
	                    "  ridge points        DRAM 4 FLOP/B, L1 0 FLOP/B (ambiguous within "
	                    "20%)\n"
	                    "  launch threshold    5 us (5 x the per-call overhead)\n"
	                    "  L1 / LLC capacity   0 B / 0 B (ambiguous within 20%)\n");
	rv_buf_free(&out);
	rv_profile_free(p);
}

/* A format a renderer does not have is RV_EPARSE, and nothing is appended. */
static void test_render__no_such_format(void **state)
{
	struct rv_profile *p = tiny_cpu();
	struct rv_buf out = RV_BUF_INIT;
	struct rv_classification c;
	struct rv_prediction r;
	struct rv_shape s;

	(void)state;
	assert_int_equal(rv_shape_parse("256", RV_OP_VECTOR_ADD, &s), 0);
	assert_int_equal(rv_predict(&r, p, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32), 0);
	assert_int_equal(rv_classify(&c, p, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32), 0);
	rv_assert_error(rv_report_prediction(&out, p, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, &r,
	                                     RV_FORMAT_MARKDOWN),
	                RV_EPARSE, "a prediction has no markdown format");
	rv_assert_error(rv_report_classification(&out, p, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, &c,
	                                         RV_FORMAT_MARKDOWN),
	                RV_EPARSE, "a classification has no markdown format");
	assert_int_equal(out.len, 0);
	rv_buf_free(&out);
	rv_profile_free(p);
}

static void test_render__profile(void **state)
{
	struct rv_profile *p = tiny_cpu();
	struct rv_buf out = RV_BUF_INIT;
	char head[4200];

	(void)state;
	assert_int_equal(rv_profile_render(&out, p), 0);
	(void)snprintf(head, sizeof(head),
	               "tiny_cpu: Tiny CPU (fictional, minimal)\n  file             %s\n", p->path);
	assert_true(strncmp(rv_buf_str(&out), head, strlen(head)) == 0);
	assert_string_equal(
	        rv_buf_str(&out) + strlen(head),
	        "  class            cpu, captured with the cpu backend\n"
	        "  executor         blas_l3\n"
	        "  default dtype    fp32\n"
	        "  compute units    2 core\n"
	        "                   2 cores [datasheet]\n"
	        "  clocks           base 1 GHz, boost 2 GHz, sustained 1.5 GHz\n"
	        "                   made up [assumed]\n"
	        "  compute          dtype     peak             effective        energy/FLOP\n"
	        "                   fp32      64 GFLOP/s       32 GFLOP/s       10 pJ\n"
	        "                     2*16*2 GHz [derived]\n"
	        "  memory           tier      capacity         bandwidth        effective        "
	        "energy/byte\n"
	        "                   dram      1 GiB            10 GB/s          8 GB/s           "
	        "50 pJ\n"
	        "                     1 GiB [assumed]\n"
	        "  call overhead    1 us\n"
	        "                   made up [assumed]\n"
	        "  power            idle 1 W, static 2 W, TDP 5 W\n"
	        "                   made up [assumed]\n"
	        "  gemm             tiles 64x64; 1 per unit; half efficiency at M 0, N 0, K 16\n"
	        "                   test fixture [assumed]\n"
	        "  refittable       gemm.half_efficiency_k\n"
	        "                   and the overheads, rates, bandwidths, LLC capacity and "
	        "energies (docs/hardware-profile.md)\n");
	rv_buf_free(&out);
	rv_profile_free(p);
}

/* Every optional part of a profile is shown when present. */
static void test_render__profile_optional(void **state)
{
	struct rv_profile *p;
	struct rv_buf out = RV_BUF_INIT;

	(void)state;
	assert_int_equal(rv_profile_load(&p, rv_fixture_path("hardware/good/tiny_gpu.json")), 0);
	assert_int_equal(rv_profile_render(&out, p), 0);
	rv_assert_contains(rv_buf_str(&out),
	                   "tiny_gpu: Tiny GPU (fictional, every optional field)\n");
	rv_assert_contains(rv_buf_str(&out), "\n  operating point  ");
	rv_assert_contains(rv_buf_str(&out), "\n  notes            ");
	rv_buf_free(&out);
	rv_profile_free(p);
}

static void count_error(void *arg, int err)
{
	assert_true(err < 0);
	rv_assert_contains(rv_error_last(), "broken.json");
	++*(int *)arg;
}

static void test_render__profile_list(void **state)
{
	struct rv_buf out = RV_BUF_INIT;
	const char *dir;
	char path[4200], *text;
	int n_errors = 0;

	(void)state;
	assert_int_equal(rv_profile_list_render(&out, rv_fixture_path("hardware/good"), NULL, NULL),
	                 0);
	assert_string_equal(rv_buf_str(&out),
	                    "key                    class        capture  dtype    name\n"
	                    "tiny_cpu               cpu          cpu      fp32     Tiny CPU "
	                    "(fictional, minimal)\n"
	                    "tiny_gpu               gpu          cuda     fp16     Tiny GPU "
	                    "(fictional, every optional field)\n");
	rv_buf_reset(&out);

	/* A profile that does not load is said and left out; the others are listed. */
	dir = rv_scratch_dir("render_list");
	text = rv_slurp(rv_fixture_path("hardware/good/tiny_cpu.json"), NULL);
	assert_non_null(text);
	(void)snprintf(path, sizeof(path), "%s/tiny_cpu.json", dir);
	rv_spit(path, text);
	free(text);
	(void)snprintf(path, sizeof(path), "%s/broken.json", dir);
	rv_spit(path, "{\"schema\": \"roofval.hardware/1\", \"key\": \"broken\", \"nmae\": 1}\n");
	assert_int_equal(rv_profile_list_render(&out, dir, count_error, &n_errors), RV_EPARSE);
	assert_int_equal(n_errors, 1);
	assert_string_equal(rv_buf_str(&out),
	                    "key                    class        capture  dtype    name\n"
	                    "tiny_cpu               cpu          cpu      fp32     Tiny CPU "
	                    "(fictional, minimal)\n");
	rv_buf_reset(&out);

	/* An empty folder, and one that is not there: nothing appended. */
	dir = rv_scratch_dir("render_list_empty");
	rv_assert_error(rv_profile_list_render(&out, dir, count_error, &n_errors), RV_ENOENT,
	                "no profiles (*.json) in ");
	rv_assert_error(rv_profile_list_render(&out, "/nonexistent", count_error, &n_errors),
	                RV_ENOENT, "cannot read the hardware folder /nonexistent");
	assert_int_equal(n_errors, 1);
	assert_int_equal(out.len, 0);
	rv_buf_free(&out);
}

/* Four failures in sweep order, errors -20%, +60%, -45%, +30%, and a pass:
 * the worst is the second, then the third. */
static void failures(struct rv_validation *v)
{
	static const double pred_s[] = { 8e-3, 16e-3, 5.5e-3, 13e-3, 10.1e-3 };

	memset(v, 0, sizeof(*v));
	for (int i = 0; i < 5; i++) {
		char shape[32];
		const struct rv_test_rec r = {
			"cpu_test",       RV_OP_MATMUL, shape, RV_DTYPE_FP32, RV_REGIME_ALU,
			RV_REGIME_ALU,    pred_s[i],    10e-3, 1.0,           1.0,
			RV_BOUND_COMPUTE, RV_TIER_DRAM, NULL,  NULL
		};

		(void)snprintf(shape, sizeof(shape), "%dx64x64", 64 * (i + 1));
		rv_test_add_record(v, &r);
	}
}

static char *render_top(const struct rv_validation *v, enum rv_format f, size_t top)
{
	struct rv_buf out = RV_BUF_INIT;
	const struct rv_report_opts o = { NULL, NULL, top };

	assert_int_equal(rv_report_render_opts(&out, v, f, &o), 0);
	return out.data;
}

/* Where needle first is in text, past from (asserted found). */
static size_t at(const char *text, const char *needle, size_t from)
{
	const char *p = strstr(text + from, needle);

	if (!p)
		fail_msg("no \"%s\" in the report (from %zu)", needle, from);
	return (size_t)(p - text);
}

static void test_render__worst_first(void **state)
{
	struct rv_validation v;
	char *text;
	size_t from;

	(void)state;
	failures(&v);
	/* Text: the blocks by |latency error|, not in sweep order. */
	text = render_top(&v, RV_FORMAT_TEXT, 0);
	from = at(text, "failures (4 of 5 records), worst first by |latency error|\n", 0);
	from = at(text, "  cpu_test  matmul  128x64x64", from);
	from = at(text, "  cpu_test  matmul  192x64x64", from);
	from = at(text, "  cpu_test  matmul  256x64x64", from);
	(void)at(text, "  cpu_test  matmul  64x64x64", from);
	assert_null(strstr(text, "320x64x64")); /* the pass */
	free(text);
	/* --top 2: the two worst, the others counted. */
	text = render_top(&v, RV_FORMAT_TEXT, 2);
	(void)at(text, ": the 2 worst (--top 0 lists them all)\n", 0);
	(void)at(text, "  ... and 2 more\n", 0);
	assert_null(strstr(text, "256x64x64"));
	free(text);
	/* Markdown alike. */
	text = render_top(&v, RV_FORMAT_MARKDOWN, 3);
	from = at(text, "Worst first, by \\|latency error\\|; the 3 worst", 0);
	from = at(text, "| 128x64x64 |", from);
	from = at(text, "| 192x64x64 |", from);
	(void)at(text, "| 256x64x64 |", from);
	assert_null(strstr(text, "| 64x64x64 |"));
	(void)at(text, "\n... and 1 more\n", 0);
	free(text);
	rv_validation_free(&v);
}

/* Markdown has the text report's where and why per cell and the labels the
 * measurement contradicts. */
static void test_render__markdown_why(void **state)
{
	struct rv_validation v;
	struct rv_label_finding f;
	char *text;

	(void)state;
	failures(&v);
	memset(&f, 0, sizeof(f));
	(void)snprintf(f.hardware, sizeof(f.hardware), "orin");
	f.op = RV_OP_MATMUL;
	f.checked = 204;
	f.contradicted = 41;
	f.by[RV_REGIME_DRAM][RV_REGIME_AMBIGUOUS] = 38;
	f.by[RV_REGIME_ALU][RV_REGIME_DRAM] = 3;
	f.relabel_moves = 3;
	v.labels = malloc(sizeof(f));
	assert_non_null(v.labels);
	v.labels[0] = f;
	v.n_labels = v.cap_labels = 1;
	text = render_top(&v, RV_FORMAT_MARKDOWN, 0);
	/* Errors -45%, -20%, +1%, +30%, +60%: the median predicts 1.0% slow. */
	(void)at(text, "\n## Where and why\n", 0);
	(void)at(text, "| cpu_test | matmul | alu_bound | 1/5 | ", 0);
	(void)at(text, " | 1.0% slow (", 0);
	(void)at(text, "\n## Labels the measurement contradicts\n", 0);
	(void)at(text,
	         "- orin matmul: 41 of 204 labels contradicted by the measurement: alu_bound "
	         "measured dram_bound 3, dram_bound measured ambiguous 38; 'roofval sweep "
	         "relabel --hw orin --from-baseline' moves 3 of them and leaves 38",
	         0);
	free(text);
	rv_validation_free(&v);
}

/* failures() as model "a", and again as model "b" with other predictions
 * (all five fail): the shapes apart by 0, 120, 30, 5 and 100 points. */
static void two_models(struct rv_validation *v)
{
	static const double b_pred_s[] = { 8e-3, 4e-3, 8.5e-3, 12.5e-3, 20.1e-3 };

	failures(v);
	assert_int_equal(rv_validation_add_model(v, "a"), 0);
	assert_int_equal(rv_validation_add_model(v, "b"), 0);
	for (size_t i = 0; i < 5; i++) {
		struct rv_record r = v->records[i];

		(void)snprintf(v->records[i].model, sizeof(r.model), "a");
		(void)snprintf(r.model, sizeof(r.model), "b");
		r.latency_pred_s = b_pred_s[i];
		r.latency_err = (r.latency_pred_s - r.latency_meas_s) / r.latency_meas_s;
		r.pass_latency = fabs(r.latency_err) <= r.band.latency;
		v->records = realloc(v->records, (v->n_records + 1) * sizeof(*v->records));
		assert_non_null(v->records);
		v->records[v->n_records++] = r;
	}
	v->cap_records = v->n_records;
}

static void test_render__side_by_side(void **state)
{
	struct rv_validation v;
	char *text;
	size_t from, a, b;

	(void)state;
	two_models(&v);
	text = render_top(&v, RV_FORMAT_TEXT, 0);
	/* Each model's failures worst first, in a table of its own. */
	from = at(text, "\nworst first of a: 4 failures by |latency error|\n", 0);
	from = at(text, "\nworst first of b: 5 failures by |latency error|\n", from);
	from = at(text, "cpu_test matmul 128x64x64 fp32", from); /* b: -60% */
	(void)at(text, "cpu_test matmul 320x64x64 fp32", from);  /* b: +101% */
	/* Then one block per shape, the largest disagreement first, every
	 * model's line of a shape next to the other's. */
	from = at(text, "\nfailures side by side: 5 shapes a model failed", 0);
	a = at(text, "\n  cpu_test matmul 128x64x64 fp32", from);
	b = at(text, "\n  cpu_test matmul 320x64x64 fp32", from);
	assert_true(a < b);
	b = at(text, "\n  cpu_test matmul 192x64x64 fp32", b);
	b = at(text, "\n  cpu_test matmul 256x64x64 fp32", b);
	(void)at(text, "\n  cpu_test matmul 64x64x64 fp32", b);
	from = at(text, "\n    a  16.00 ms  error +60.0%", a);
	assert_int_equal(at(text, "\n    b  4.000 ms  error -60.0%", a),
	                 from + strcspn(text + from + 1, "\n") + 1);
	(void)at(text, "predictions 120.0% of it apart", a);
	free(text);
	/* --top 1: one shape side by side. */
	text = render_top(&v, RV_FORMAT_TEXT, 1);
	(void)at(text, "; the first 1 (--top 0 lists them all)\n", 0);
	(void)at(text, "\n  ... and 4 more\n", at(text, "failures side by side", 0));
	free(text);
	/* Markdown: a row per shape with both models' cells, in the same order. */
	text = render_top(&v, RV_FORMAT_MARKDOWN, 0);
	from = at(text, "## Failures side by side\n", 0);
	from = at(text,
	          "| cpu_test | matmul | 128x64x64 | fp32 | alu_bound | 10.00 | 16.00 ms, "
	          "+60.0% **FAIL** latency | 4.000 ms, -60.0% **FAIL** latency | 120.0% |",
	          from);
	(void)at(text, "| 320x64x64 |", from);
	(void)at(text, "## Worst first: b\n", 0);
	free(text);
	rv_validation_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render__prediction_text),
		cmocka_unit_test(test_render__prediction_json),
		cmocka_unit_test(test_render__classification_text),
		cmocka_unit_test(test_render__no_such_format),
		cmocka_unit_test(test_render__profile),
		cmocka_unit_test(test_render__profile_optional),
		cmocka_unit_test(test_render__profile_list),
		cmocka_unit_test(test_render__worst_first),
		cmocka_unit_test(test_render__side_by_side),
		cmocka_unit_test(test_render__markdown_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
