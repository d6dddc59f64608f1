/* SPDX-License-Identifier: MIT */
/* Tests of the pictures: the SVG writer's pieces, the roofline and heatmap of
 * a hand-built validation on the toy GPU profile against golden files, the
 * comparison, the HTML pieces and the PNG path. */
#include <math.h>
#include <unistd.h>

#include "hw/profile.h"
#include "layout/layout.h"
#include "model/predict.h"
#include "model/validate.h"
#include "plot/plot.h"
#include "plot/svg.h"
#include "report/report.h"
#include "rv_test_records.h"

struct rec_spec {
	const char *hardware;
	enum rv_op op;
	const char *shape;
	enum rv_regime label, measured;
	double latency_pred_s, latency_meas_s;
};

/* The records of the pictures: fp16, energy not measured. */
static void add_record(struct rv_validation *v, const struct rec_spec *sp)
{
	const struct rv_test_rec r = {
		sp->hardware,
		sp->op,
		sp->shape,
		RV_DTYPE_FP16,
		sp->label,
		sp->measured,
		sp->latency_pred_s,
		sp->latency_meas_s,
		0.01,
		(double)NAN,
		RV_BOUND_COMPUTE,
		RV_TIER_DRAM,
		"energy not measured",
		NULL,
	};

	rv_test_add_record(v, &r);
}

/* toy_gpu (fp16 1 TFLOP/s sustained; l1 4 TB/s, l2 1 TB/s, dram 100 GB/s)
 * with a record of each op and of each label, passes and misses, and one
 * record of another target that only the heatmap shows. */
static void sample(struct rv_validation *v)
{
	static const struct rec_spec specs[] = {
		{ "toy_gpu", RV_OP_MATMUL, "1024x1024x1024", RV_REGIME_ALU, RV_REGIME_ALU, 2.3e-3,
		  2.5e-3 },
		{ "toy_gpu", RV_OP_MATMUL, "4096x4096x4096", RV_REGIME_ALU, RV_REGIME_ALU, 0.14,
		  0.16 },
		{ "toy_gpu", RV_OP_MATMUL, "256x256x256", RV_REGIME_L2, RV_REGIME_L2, 45e-6,
		  50e-6 },
		{ "toy_gpu", RV_OP_LINEAR, "8x4096x4096", RV_REGIME_DRAM, RV_REGIME_DRAM, 0.40e-3,
		  0.36e-3 },
		{ "toy_gpu", RV_OP_LINEAR, "1x1024x1024", RV_REGIME_LAUNCH, RV_REGIME_DRAM, 22e-6,
		  30e-6 },
		{ "toy_gpu", RV_OP_VECTOR_ADD, "16777216", RV_REGIME_DRAM, RV_REGIME_DRAM, 1.0e-3,
		  1.1e-3 },
		{ "toy_gpu", RV_OP_VECTOR_ADD, "1024", RV_REGIME_LAUNCH, RV_REGIME_LAUNCH, 4e-6,
		  5e-6 },
		{ "toy_gpu", RV_OP_VECTOR_ADD, "65536", RV_REGIME_L1, RV_REGIME_LAUNCH, 3e-6,
		  9e-6 },
		{ "other<&>", RV_OP_MATMUL, "512x512x512", RV_REGIME_ALU, RV_REGIME_ALU, 1e-3,
		  1.02e-3 },
	};

	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		add_record(v, &specs[i]);
}

static struct rv_profile *toy_gpu(void)
{
	struct rv_profile *p = NULL;

	if (rv_profile_load(&p, rv_fixture_path("hardware/model/toy_gpu.json")) != 0)
		fail_msg("toy_gpu.json: %s", rv_error_last());
	return p;
}

static size_t count(const char *haystack, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(haystack, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_plot__escape(void **state)
{
	struct rv_buf b = RV_BUF_INIT;

	(void)state;
	rv_svg_escape(&b, "a<b & \"c\" 'd'>\tµ\x01");
	assert_string_equal(rv_buf_str(&b), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt; µ ");
	rv_buf_free(&b);
}

static void test_plot__decades(void **state)
{
	static const struct {
		double min, max;
		int lo, hi;
	} cases[] = {
		{ 0.083, 300, -2, 3 },
		{ 1, 1000, 0, 3 },
		{ 5, 5, 0, 1 },
		{ 2e-6, 0.9, -6, 0 },
	};
	static const struct {
		int exp10;
		enum rv_svg_ticks ticks;
		const char *unit, *want;
	} labels[] = {
		{ 0, RV_SVG_TICKS_PLAIN, "", "1" },
		{ -2, RV_SVG_TICKS_PLAIN, "", "0.01" },
		{ 3, RV_SVG_TICKS_PLAIN, "", "1000" },
		{ 6, RV_SVG_TICKS_PLAIN, "", "1e6" },
		{ -5, RV_SVG_TICKS_PLAIN, "", "1e-5" },
		{ -6, RV_SVG_TICKS_SI, "s", "1 µs" },
		{ -4, RV_SVG_TICKS_SI, "s", "100 µs" },
		{ -1, RV_SVG_TICKS_SI, "s", "100 ms" },
		{ 0, RV_SVG_TICKS_SI, "s", "1 s" },
		{ 10, RV_SVG_TICKS_SI, "FLOP/s", "10 GFLOP/s" },
		{ 12, RV_SVG_TICKS_SI, "FLOP/s", "1 TFLOP/s" },
		{ 30, RV_SVG_TICKS_SI, "B", "1e30 B" },
	};
	char text[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int lo, hi;

		rv_svg_decades(cases[i].min, cases[i].max, &lo, &hi);
		assert_int_equal(lo, cases[i].lo);
		assert_int_equal(hi, cases[i].hi);
	}
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		rv_svg_decade_label(text, sizeof(text), labels[i].exp10, labels[i].ticks,
		                    labels[i].unit);
		assert_string_equal(text, labels[i].want);
	}
}

static void test_plot__shapes(void **state)
{
	const struct rv_svg_pen dashed = { "#123456", 1.5, "6 3", 0.5 };
	const struct rv_svg_font f = { 12, NULL, RV_SVG_END, 1, -90 };
	const double xs[] = { 1, 2.005, 3 }, ys[] = { 4, 5, 6.333 };
	struct rv_buf b = RV_BUF_INIT;

	(void)state;
	rv_svg_marker(&b, RV_SVG_CIRCLE, 10, 20, 4, "#ff0000", 1);
	rv_svg_marker(&b, RV_SVG_SQUARE, 10, 20, 4, "#ff0000", 0);
	rv_svg_marker(&b, RV_SVG_TRIANGLE, 10, 20, 4, "#ff0000", 1);
	rv_svg_marker(&b, RV_SVG_DIAMOND, 10, 20, 4, "#ff0000", 1);
	rv_svg_marker(&b, RV_SVG_CROSS, 10, 20, 4, "#ff0000", 1);
	rv_svg_polyline(&b, &dashed, xs, ys, 3);
	rv_svg_polyline(&b, &dashed, xs, ys, 1);
	rv_svg_text(&b, &f, 5, 6, "x<y");
	assert_non_null(strstr(rv_buf_str(&b), "<circle cx=\"10.00\" cy=\"20.00\" r=\"4.00\" "
	                                       "fill=\"#ff0000\""));
	assert_non_null(strstr(rv_buf_str(&b), "<rect x=\"6.40\" y=\"16.40\" width=\"7.20\" "
	                                       "height=\"7.20\" fill=\"none\""));
	assert_int_equal(count(rv_buf_str(&b), "<polygon"), 2);
	/* A cross is never filled. */
	assert_non_null(strstr(rv_buf_str(&b), "<path d=\"M6.80,16.80 L13.20,23.20 M6.80,23.20 "
	                                       "L13.20,16.80\" fill=\"none\""));
	assert_int_equal(count(rv_buf_str(&b), "<polyline"), 1);
	assert_non_null(strstr(rv_buf_str(&b), "points=\"1.00,4.00 2.00,5.00 3.00,6.33\" "
	                                       "fill=\"none\" stroke=\"#123456\" "
	                                       "stroke-width=\"1.50\" stroke-dasharray=\"6 3\" "
	                                       "stroke-opacity=\"0.50\""));
	assert_non_null(strstr(rv_buf_str(&b), "text-anchor=\"end\" font-weight=\"bold\" "
	                                       "transform=\"rotate(-90.00 5.00 6.00)\">x&lt;y"
	                                       "</text>"));
	rv_buf_free(&b);
}

static void test_plot__legend_wraps(void **state)
{
	struct rv_svg_key keys[2];
	struct rv_buf b = RV_BUF_INIT;
	double bottom;

	(void)state;
	memset(keys, 0, sizeof(keys));
	keys[0].kind = RV_SVG_KEY_HEADING;
	(void)snprintf(keys[0].text, sizeof(keys[0].text), "Heading");
	keys[1].kind = RV_SVG_KEY_SWATCH;
	keys[1].colour = "#00ff00";
	(void)snprintf(keys[1].text, sizeof(keys[1].text),
	               "a rather long legend entry that cannot fit on one line of this legend");
	bottom = rv_svg_legend(&b, 0, 0, 200, keys, 2);
	/* One heading line, then the entry on three lines of about 172 px. */
	assert_int_equal(count(rv_buf_str(&b), "<text"), 4);
	rv_assert_close(bottom, 16 + 16 + 2 * 14, 0, 1e-9);
	rv_buf_free(&b);
}

static void test_plot__golden_roofline(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_validation v;
	struct rv_buf a = RV_BUF_INIT, b = RV_BUF_INIT;

	(void)state;
	sample(&v);
	assert_int_equal(rv_plot_roofline(&a, p, &v, RV_PLOT_ALL_OPS), 0);
	assert_int_equal(rv_plot_roofline(&b, p, &v, RV_PLOT_ALL_OPS), 0);
	assert_string_equal(rv_buf_str(&a), rv_buf_str(&b));
	rv_check_golden(rv_buf_str(&a), "roofline.svg", "plot");
	/* Every toy_gpu record, none of the other target. */
	assert_non_null(strstr(rv_buf_str(&a), "Measured points (8)"));
	assert_null(strstr(rv_buf_str(&a), "other"));
	assert_non_null(strstr(rv_buf_str(&a), "dram 100 GB/s, ridge 10 FLOP/B"));
	assert_non_null(strstr(rv_buf_str(&a), "fp16 peak 1 TFLOP/s"));
	rv_buf_free(&a);
	rv_buf_free(&b);
	rv_validation_free(&v);
	rv_profile_free(p);
}

static void test_plot__roofline_ops(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;

	(void)state;
	sample(&v);
	assert_int_equal(rv_plot_roofline(&out, p, &v, 1u << RV_OP_VECTOR_ADD), 0);
	assert_non_null(strstr(rv_buf_str(&out), "Measured points (3)"));
	assert_non_null(strstr(rv_buf_str(&out), "vector_add (3)"));
	assert_null(strstr(rv_buf_str(&out), "matmul ("));
	/* Nothing to plot is a picture of the roofs alone. */
	rv_buf_reset(&out);
	v.n_records = 0;
	assert_int_equal(rv_plot_roofline(&out, p, &v, RV_PLOT_ALL_OPS), 0);
	assert_non_null(strstr(rv_buf_str(&out), "none for this target"));
	rv_buf_free(&out);
	rv_validation_free(&v);
	rv_profile_free(p);
}

static void test_plot__golden_heatmap(void **state)
{
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;

	(void)state;
	sample(&v);
	assert_int_equal(rv_plot_heatmap(&out, &v), 0);
	rv_check_golden(rv_buf_str(&out), "heatmap.svg", "plot");
	/* Cells as the text report labels them; the hardware name escaped. */
	assert_non_null(strstr(rv_buf_str(&out), ">2:L1<"));
	assert_non_null(strstr(rv_buf_str(&out), ">1OK<"));
	assert_non_null(strstr(rv_buf_str(&out), ">other&lt;&amp;&gt;<"));
	/* The sign of each cell's bias: the dram linear predicted 11.1% slow, the
	 * l1 add 66.7% fast, the two alu matmuls -8% and -12.5% (median -10.25%). */
	rv_assert_contains(rv_buf_str(&out), ">\xE2\x96\xB2 11.1% slow<");
	rv_assert_contains(rv_buf_str(&out), ">\xE2\x96\xBC 66.7% fast<");
	rv_assert_contains(rv_buf_str(&out), ">\xE2\x96\xBC 10.2% fast<");
	/* A cell's hover text: its counts and the spread of its errors. */
	rv_assert_contains(rv_buf_str(&out),
	                   "<g><title>roofval toy_gpu linear dram_bound: 1 of 1 passed, 1 within "
	                   "the latency band; median |latency error| 11.1%, median signed error "
	                   "+11.1% (quartiles +11.1% to +11.1%)</title>");
	rv_buf_reset(&out);
	v.n_records = 0;
	assert_int_equal(rv_plot_heatmap(&out, &v), 0);
	assert_non_null(strstr(rv_buf_str(&out), "No records."));
	rv_buf_free(&out);
	rv_validation_free(&v);
}

/* sample()'s records again as a second model, "mine", 50% slow: the
 * validation of two models over the same measurements. */
static void two_models(struct rv_validation *v)
{
	size_t n;

	sample(v);
	n = v->n_records;
	assert_int_equal(rv_validation_add_model(v, RV_BUILTIN_MODEL), 0);
	assert_int_equal(rv_validation_add_model(v, "mine"), 0);
	for (size_t i = 0; i < n; i++) {
		struct rv_record r = v->records[i];

		(void)snprintf(r.model, sizeof(r.model), "mine");
		r.latency_pred_s *= 1.5;
		r.latency_err = (r.latency_pred_s - r.latency_meas_s) / r.latency_meas_s;
		r.pass_latency = fabs(r.latency_err) <= r.band.latency;
		v->records = realloc(v->records, (v->n_records + 1) * sizeof(*v->records));
		assert_non_null(v->records);
		v->records[v->n_records++] = r;
	}
	v->cap_records = v->n_records;
}

/* The markers of an SVG, of any shape, that sit in a titled group: every
 * marker of a point, none of the roofs' (lines) and of the ridges. */
static size_t titled(const char *svg)
{
	return count(svg, "<g><title>");
}

static void test_plot__roofline_models(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;
	const char *svg;

	(void)state;
	two_models(&v);
	assert_int_equal(rv_plot_roofline(&out, p, &v, RV_PLOT_ALL_OPS), 0);
	svg = rv_buf_str(&out);
	/* Each measurement once (8), each model's prediction of it (16). */
	rv_assert_contains(svg, "Measured points (8)");
	rv_assert_contains(svg, "matmul (3)");
	rv_assert_contains(svg, "8 shapes measured, 16 predictions of 2 models");
	assert_int_equal(titled(svg), 8 + 16);
	/* The models apart: a glyph and a colour each, in the legend and on the points. */
	rv_assert_contains(svg, ">roofval (8, ");
	rv_assert_contains(svg, ">mine (8, ");
	assert_int_equal(count(svg, "<title>mine: toy_gpu "), 8);
	assert_true(count(svg, "stroke=\"#7B3294\"") >= 16); /* mine's joins and glyphs */
	/* A measurement's hover text holds every model's prediction. */
	rv_assert_contains(svg, "<title>roofval: toy_gpu matmul 1024x1024x1024 fp16 (alu_bound): "
	                        "measured 2.500 ms, predicted 2.300 ms, error -8.0%, pass; mine: "
	                        "predicted 3.450 ms, error +38.0%, FAIL</title>");
	rv_buf_free(&out);
	rv_validation_free(&v);
	rv_profile_free(p);
}

static void test_plot__titled_points(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;

	(void)state;
	sample(&v);
	/* One model: a title on each of the 8 measured points and 8 predictions. */
	assert_int_equal(rv_plot_roofline(&out, p, &v, RV_PLOT_ALL_OPS), 0);
	assert_int_equal(titled(rv_buf_str(&out)), 16);
	rv_assert_contains(rv_buf_str(&out),
	                   "<title>toy_gpu vector_add 65536 fp16 (l1_bound): measured 0.009000 "
	                   "ms, predicted 0.003000 ms, error -66.7%, FAIL</title>");
	rv_buf_reset(&out);
	assert_int_equal(rv_plot_compare(&out, p, &v, p, &v, RV_PLOT_ALL_OPS), 0);
	assert_int_equal(titled(rv_buf_str(&out)), 16 + 16 + 16); /* the scatter, two rooflines */
	rv_buf_free(&out);
	rv_validation_free(&v);
	rv_profile_free(p);
}

static void test_plot__error(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_validation v;
	struct rv_buf a = RV_BUF_INIT, b = RV_BUF_INIT;
	const char *svg;

	(void)state;
	sample(&v);
	assert_int_equal(rv_plot_error(&a, p, &v, RV_PLOT_ALL_OPS), 0);
	assert_int_equal(rv_plot_error(&b, p, &v, RV_PLOT_ALL_OPS), 0);
	assert_string_equal(rv_buf_str(&a), rv_buf_str(&b));
	svg = rv_buf_str(&a);
	/* Three panels of the 8 toy_gpu records, each point titled. */
	assert_int_equal(titled(svg), 3 * 8);
	rv_assert_contains(svg, ">FLOPs<");
	rv_assert_contains(svg, ">bytes (compulsory traffic)<");
	rv_assert_contains(svg, ">operational intensity (FLOP/byte)<");
	rv_assert_contains(svg, ">8 shapes measured, 8 predictions<");
	rv_assert_contains(svg, ">the narrowest latency band, 10.0%<");
	rv_assert_contains(svg, ">the widest latency band, 30.0%<");
	assert_null(strstr(svg, "other"));
	rv_buf_free(&a);
	/* Two models: each its colour and marker, each measurement counted once. */
	rv_validation_free(&v);
	two_models(&v);
	assert_int_equal(rv_plot_error(&b, p, &v, RV_PLOT_ALL_OPS), 0);
	svg = rv_buf_str(&b);
	svg = strstr(svg, "</svg>\n") + strlen("</svg>\n"); /* the second picture in b */
	assert_int_equal(titled(svg), 3 * 16);
	rv_assert_contains(svg, ">8 shapes measured, 16 predictions<");
	rv_assert_contains(svg, ">model roofval (8, ");
	rv_assert_contains(svg, ">model mine (8, ");
	assert_int_equal(count(svg, "<title>mine: "), 3 * 8);
	/* mine is drawn in squares of its colour, roofval in circles of its own. */
	assert_true(count(svg, "<rect ") > 3 * 8);
	assert_true(count(svg, "stroke=\"#7B3294\"") >= 3 * 8);
	rv_buf_free(&b);
	rv_validation_free(&v);
	rv_profile_free(p);
}

static void test_plot__html_tables(void **state)
{
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;
	const char *html, *a, *b;

	(void)state;
	two_models(&v);
	/* Each model's failures worst first: roofval's 3, the -66.7% first. */
	assert_int_equal(rv_plot_html_worst(&out, &v, 2), 0);
	html = rv_buf_str(&out);
	rv_assert_contains(html, "<h3>roofval</h3>");
	rv_assert_contains(html, "<h3>mine</h3>");
	a = strstr(html, "<td class=\"n fail neg\">-66.7%</td>");
	b = strstr(html, "<td class=\"n neg\">-26.7%</td>"); /* failed its regime only */
	assert_true(a && b && a < b);
	/* --top 2: the third collapsed. */
	rv_assert_contains(html, "<details>\n<summary>the other 1 failures</summary>");
	rv_buf_reset(&out);
	/* A model's own numbers (a predictions file's extra columns) beside its error. */
	v.extras = calloc(2, sizeof(*v.extras));
	assert_non_null(v.extras);
	v.extras[0] = (struct rv_extra){ "compute_s", 1.5e-6 };
	v.extras[1] = (struct rv_extra){ "memory_s", 9e-6 };
	v.n_extras = v.cap_extras = 2;
	for (size_t i = 0; i < v.n_records; i++)
		if (v.records[i].op == RV_OP_VECTOR_ADD && v.records[i].shape.dim[0] == 65536 &&
		    strcmp(v.records[i].model, "mine") == 0)
			v.records[i].n_extra = 2;
	assert_int_equal(rv_plot_html_worst(&out, &v, 0), 0);
	rv_assert_contains(rv_buf_str(&out), "<th>the model's own numbers</th>");
	rv_assert_contains(rv_buf_str(&out), "<td>compute_s 1.5e-06, memory_s 9e-06</td>");
	assert_int_equal(count(rv_buf_str(&out), "<td>compute_s"), 1);
	rv_buf_reset(&out);
	/* The shapes side by side: a row each, both models' cells, the largest
	 * disagreement first. */
	assert_int_equal(rv_plot_html_shapes(&out, &v, 0), 0);
	html = rv_buf_str(&out);
	rv_assert_contains(html, "<th>roofval: predicted ms</th><th>error</th><th>verdict</th>"
	                         "<th>mine: predicted ms</th>");
	assert_null(strstr(html, "<details>"));
	/* The shapes a model fails (all but the 1024 add, which both pass): the
	 * 16777216 add (-9.1% and +36.4%, 45.5 points apart) before the 4096
	 * matmul (-12.5% and +31.2%, 43.8 points). */
	a = strstr(html, "<td>16777216</td>");
	b = strstr(html, "<td>4096x4096x4096</td>");
	assert_true(a && b && a < b);
	assert_int_equal(count(html, "<tr><td>toy_gpu</td>"), 7);
	assert_null(strstr(html, "<td>1024</td>"));
	rv_buf_reset(&out);
	/* Where and why per cell: mine's bias is slow on every cell, in its colour. */
	assert_int_equal(rv_plot_html_why(&out, &v), 0);
	rv_assert_contains(rv_buf_str(&out), "<th>model</th><th>hardware</th>");
	rv_assert_contains(rv_buf_str(&out), "<td>mine</td><td>toy_gpu</td><td>linear</td>"
	                                     "<td>dram_bound</td>");
	rv_assert_contains(rv_buf_str(&out), "<td class=\"n pos\">66.7% slow</td>");
	rv_buf_reset(&out);
	/* One model: nothing. */
	v.n_models = 1;
	assert_int_equal(rv_plot_html_shapes(&out, &v, 0), 0);
	assert_int_equal(out.len, 0);
	v.n_models = 2;
	rv_buf_free(&out);
	rv_validation_free(&v);
}

static void test_plot__compare(void **state)
{
	struct rv_profile *p = toy_gpu(), *q = NULL;
	struct rv_validation v;
	struct rv_buf a = RV_BUF_INIT, b = RV_BUF_INIT;

	(void)state;
	if (rv_profile_load(&q, rv_fixture_path("hardware/model/toy_cpu.json")) != 0)
		fail_msg("toy_cpu.json: %s", rv_error_last());
	sample(&v);
	assert_int_equal(rv_plot_compare(&a, p, &v, q, &v, RV_PLOT_ALL_OPS), 0);
	assert_int_equal(rv_plot_compare(&b, p, &v, q, &v, RV_PLOT_ALL_OPS), 0);
	assert_string_equal(rv_buf_str(&a), rv_buf_str(&b));
	assert_non_null(strstr(rv_buf_str(&a), "Roofline of toy_gpu"));
	assert_non_null(strstr(rv_buf_str(&a), "Roofline of toy_cpu"));
	assert_non_null(strstr(rv_buf_str(&a), "toy_cpu: no records"));
	/* Bands of the records: alu 10% the narrowest, launch 30% the widest. */
	assert_non_null(strstr(rv_buf_str(&a), "±10%: the narrowest latency band"));
	assert_non_null(strstr(rv_buf_str(&a), "±30%: the widest latency band"));
	assert_int_equal(count(rv_buf_str(&a), "<svg"), 1);
	rv_buf_free(&a);
	rv_buf_free(&b);
	rv_validation_free(&v);
	rv_profile_free(p);
	rv_profile_free(q);
}

static void test_plot__html(void **state)
{
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;

	(void)state;
	sample(&v);
	rv_plot_html_begin(&out, "a <report>");
	rv_plot_html_heading(&out, 2, "toy & co");
	rv_plot_html_figure(&out, "toy_gpu_roofline.svg", "the \"roofline\"");
	assert_int_equal(rv_plot_html_validation(&out, &v, "toy_gpu"), 0);
	rv_plot_html_end(&out);
	assert_non_null(strstr(rv_buf_str(&out), "<title>a &lt;report&gt;</title>"));
	assert_non_null(strstr(rv_buf_str(&out), "<h2>toy &amp; co</h2>"));
	assert_non_null(strstr(rv_buf_str(&out), "<img src=\"toy_gpu_roofline.svg\" alt=\"the "
	                                         "&quot;roofline&quot;\">"));
	/* 8 records of toy_gpu; the 4096 matmul, the 65536 and 1x1024x1024 ones fail. */
	assert_non_null(strstr(rv_buf_str(&out), "every record (8, 3 failed)"));
	assert_int_equal(count(rv_buf_str(&out), "<td class=\"fail\">FAIL</td>"), 3);
	assert_null(strstr(rv_buf_str(&out), "512x512x512"));
	assert_non_null(strstr(rv_buf_str(&out), "</html>\n"));
	rv_buf_free(&out);
	rv_validation_free(&v);
}

static void test_plot__png(void **state)
{
	char svg_path[4200], png_path[4200], *saved = NULL;
	const char *dir = rv_scratch_dir("plot_png");
	const char *path = getenv("PATH");
	struct rv_buf out = RV_BUF_INIT;
	unsigned char *png;
	size_t len = 0;
	int rc;

	(void)state;
	(void)snprintf(svg_path, sizeof(svg_path), "%s/h.svg", dir);
	(void)snprintf(png_path, sizeof(png_path), "%s/h.png", dir);
	rv_svg_begin(&out, 40, 30, "tiny");
	rv_svg_marker(&out, RV_SVG_CIRCLE, 20, 15, 5, "#0072B2", 1);
	rv_svg_end(&out);
	rv_spit(svg_path, rv_buf_str(&out));
	rv_buf_free(&out);
	/* Without rsvg-convert on PATH: a clear error saying what to install. */
	saved = path ? strdup(path) : NULL;
	assert_int_equal(setenv("PATH", dir, 1), 0);
	rc = rv_plot_png(svg_path, png_path);
	assert_int_equal(setenv("PATH", saved ? saved : "/usr/bin:/bin", 1), 0);
	free(saved);
	rv_assert_error(rc, RV_ENOTSUP, "apt-get install librsvg2-bin");
	assert_int_equal(access(png_path, F_OK), -1);
	if (system("rsvg-convert --version >/dev/null 2>&1") != 0) {
		print_message(
		        "[  SKIPPED ] rsvg-convert is not installed; PNG output not tested\n");
		skip();
	}
	assert_int_equal(rv_plot_png(svg_path, png_path), 0);
	png = (unsigned char *)rv_slurp(png_path, &len);
	assert_non_null(png);
	assert_true(len > 8 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
	free(png);
	rv_spit(svg_path, "<svg");
	rv_assert_error(rv_plot_png(svg_path, png_path), RV_EIO, "rsvg-convert failed on");
}

static void test_plot__heatmap_panels(void **state)
{
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;
	size_t n;

	(void)state;
	sample(&v);
	n = v.n_records;
	for (size_t i = 0; i < n; i++) {
		struct rv_record r = v.records[i];

		(void)snprintf(r.model, sizeof(r.model), "other");
		r.pass_latency = 0;
		v.records = realloc(v.records, (v.n_records + 1) * sizeof(*v.records));
		assert_non_null(v.records);
		v.records[v.n_records++] = r;
	}
	v.cap_records = v.n_records;
	assert_int_equal(rv_plot_heatmap(&out, &v), 0);
	rv_assert_contains(rv_buf_str(&out), ">model: roofval<");
	rv_assert_contains(rv_buf_str(&out), ">model: other<");
	rv_assert_contains(rv_buf_str(&out), "records by model, hardware, op and regime label");
	rv_buf_free(&out);
	rv_validation_free(&v);
}

/* plot and report of a model's predictions, beside the built-in model. */
static void test_plot__draw_models(void **state)
{
	const char *ref = rv_reference_dir(), *dir;
	char bdir[4200], sdir[4200], csv[4200], out[4200];
	const char *hws[] = { "i7_12700k" }, *bdirs[1], *sdirs[1];
	struct rv_layout_model models[2];
	struct rv_buf svg = RV_BUF_INIT;
	struct rv_report_html_result done;
	char *page;

	(void)state;
	RV_SKIP_WITHOUT_REFERENCE(ref);
	dir = rv_scratch_dir("plot_draw_models");
	(void)snprintf(bdir, sizeof(bdir), "%s/baselines", ref);
	(void)snprintf(sdir, sizeof(sdir), "%s/sweeps", ref);
	(void)snprintf(csv, sizeof(csv), "%s/mine.csv", dir);
	(void)snprintf(out, sizeof(out), "%s/report", dir);
	rv_spit(csv, "hardware,op,shape,dtype,latency_s,energy_j\n"
	             "i7_12700k,matmul,64x64x64,fp32,6e-06,\n");
	bdirs[0] = bdir;
	sdirs[0] = sdir;
	memset(models, 0, sizeof(models));
	models[1].predictions = csv;
	/* Given only the predictions, the picture holds that model alone. */
	assert_int_equal(rv_plot_draw_models(&svg,
	                                     &(struct rv_plot_opts){ RV_PLOT_HEATMAP, hws, 1, NULL,
	                                                             0, RV_PURPOSE_CALIBRATION,
	                                                             bdirs, 1, sdirs, 1, NULL, 0 },
	                                     models + 1, 1),
	                 0);
	rv_assert_contains(rv_buf_str(&svg), ">1OK<");
	assert_null(strstr(rv_buf_str(&svg), ">model: "));
	rv_buf_reset(&svg);
	/* With the built-in model: a panel each. */
	assert_int_equal(rv_plot_draw_models(&svg,
	                                     &(struct rv_plot_opts){ RV_PLOT_HEATMAP, hws, 1, NULL,
	                                                             0, RV_PURPOSE_CALIBRATION,
	                                                             bdirs, 1, sdirs, 1, NULL, 0 },
	                                     models, 2),
	                 0);
	rv_assert_contains(rv_buf_str(&svg), ">model: roofval<");
	rv_assert_contains(rv_buf_str(&svg), ">model: mine<");
	rv_buf_free(&svg);
	assert_int_equal(rv_report_html_top(
	                         &(struct rv_report_html_opts){ out, bdirs, 1, sdirs, 1, NULL, 0 },
	                         models, 2, 1, &done),
	                 0);
	(void)snprintf(out, sizeof(out), "%s/report/index.html", dir);
	page = rv_slurp(out, NULL);
	assert_non_null(page);
	rv_assert_contains(page, "Models side by side");
	rv_assert_contains(page, "<th>model</th>");
	/* The shapes side by side, with an anchor in the contents; with --top 1
	 * the worst failure of each model shown, the others collapsed. */
	rv_assert_contains(page, "<li><a href=\"#shapes\">Shapes side by side</a></li>");
	rv_assert_contains(page, "<h2 id=\"shapes\">");
	rv_assert_contains(page, "<summary>the other ");
	rv_assert_contains(page, "<object type=\"image/svg+xml\" data=\"heatmap.svg\"");
	free(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plot__escape),
		cmocka_unit_test(test_plot__decades),
		cmocka_unit_test(test_plot__shapes),
		cmocka_unit_test(test_plot__legend_wraps),
		cmocka_unit_test(test_plot__golden_roofline),
		cmocka_unit_test(test_plot__roofline_ops),
		cmocka_unit_test(test_plot__golden_heatmap),
		cmocka_unit_test(test_plot__heatmap_panels),
		cmocka_unit_test(test_plot__draw_models),
		cmocka_unit_test(test_plot__roofline_models),
		cmocka_unit_test(test_plot__titled_points),
		cmocka_unit_test(test_plot__error),
		cmocka_unit_test(test_plot__html_tables),
		cmocka_unit_test(test_plot__compare),
		cmocka_unit_test(test_plot__html),
		cmocka_unit_test(test_plot__png),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
