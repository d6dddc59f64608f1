/* SPDX-License-Identifier: MIT */
/* The model for one shape, rendered: roofval classify's and predict's
 * output, every term of the prediction with the numbers behind it, as text
 * for a terminal or JSON (schemas roofval.predict/1, roofval.classify/1). */
#include "model/predict.h"

#include <jansson.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/units.h"
#include "model/classify.h"
#include "report/report.h"

/* Appends root as indented JSON with a newline, and releases it (NULL:
 * out of memory). */
static int put_json(struct rv_buf *out, json_t *root)
{
	char *text =
	        root ? json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17))
	             : NULL;

	json_decref(root);
	if (!text)
		return rv_error_set(RV_ENOMEM, "out of memory");
	rv_buf_puts(out, text);
	rv_buf_putc(out, '\n');
	free(text);
	return rv_buf_check(out);
}

/* "<key> <op> <shape> <dtype>", without a newline. */
static void title(struct rv_buf *out, const struct rv_profile *p, enum rv_op op,
                  const struct rv_shape *s, enum rv_dtype d)
{
	char shape[80];

	(void)rv_shape_format(shape, sizeof(shape), s);
	rv_buf_printf(out, "%s %s %s %s", p->key, rv_op_name(op), shape, rv_dtype_name(d));
}

static int no_format(const char *what, enum rv_format f)
{
	return rv_error_set(RV_EPARSE, "%s has no %s format", what, rv_format_name(f));
}

/* JSON of schema roofval.classify/1: the regime, the rule and every number
 * behind it (the text's, unrounded; null where the text has none). */
static int classification_json(struct rv_buf *out, const struct rv_profile *p, enum rv_op op,
                               const struct rv_shape *s, enum rv_dtype d,
                               const struct rv_classification *c)
{
	static const char *const no_rate[4] = { "compute_s", "dram_s", "ridge_flop_per_B",
		                                "l1_ridge_flop_per_B" };
	json_t *root;
	char shape[80];

	(void)rv_shape_format(shape, sizeof(shape), s);
	root = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, "
	                 "s:f, s:f, s:f}",
	                 "schema", "roofval.classify/1", "hardware", p->key, "op", rv_op_name(op),
	                 "shape", shape, "dtype", rv_dtype_name(d), "regime",
	                 rv_regime_name(c->regime), "rule", c->reason ? c->reason : "", "flop",
	                 c->flop, "working_set_B", c->working_set_B, "intensity_flop_per_B",
	                 c->intensity_flop_per_B, "compute_s", c->compute_s, "dram_s", c->dram_s,
	                 "launch_threshold_s", c->launch_threshold_s, "l1_capacity_B",
	                 c->l1_capacity_B, "llc_capacity_B", c->llc_capacity_B, "ridge_flop_per_B",
	                 c->ridge_flop_per_B, "l1_ridge_flop_per_B", c->l1_ridge_flop_per_B);
	/* Unsupported: no compute rate, so no times or ridge points (the text
	 * leaves them out too). */
	for (size_t i = 0; root && c->regime == RV_REGIME_UNSUPPORTED && i < 4; i++)
		(void)json_object_set_new(root, no_rate[i], json_null());
	return put_json(out, root);
}

int rv_report_classification(struct rv_buf *out, const struct rv_profile *p, enum rv_op op,
                             const struct rv_shape *s, enum rv_dtype d,
                             const struct rv_classification *c, enum rv_format f)
{
	char x[48], y[48];

	if (f == RV_FORMAT_JSON)
		return classification_json(out, p, op, s, d, c);
	if (f != RV_FORMAT_TEXT)
		return no_format("a classification", f);
	title(out, p, op, s, d);
	rv_buf_printf(out, ": %s\n  rule                %s\n", rv_regime_name(c->regime),
	              c->reason);
	rv_fmt_si(x, sizeof(x), c->flop, "FLOP");
	rv_buf_printf(out, "  work                %s\n", x);
	rv_fmt_bytes(x, sizeof(x), c->working_set_B);
	rv_buf_printf(out, "  working set         %s\n", x);
	rv_buf_printf(out, "  intensity           %.4g FLOP/B\n", c->intensity_flop_per_B);
	if (c->regime != RV_REGIME_UNSUPPORTED) {
		rv_fmt_si(x, sizeof(x), c->compute_s, "s");
		rv_fmt_si(y, sizeof(y), c->dram_s, "s");
		rv_buf_printf(out, "  compute / DRAM time %s / %s (effective rates)\n", x, y);
		rv_buf_printf(out,
		              "  ridge points        DRAM %.4g FLOP/B, L1 %.4g FLOP/B (ambiguous "
		              "within 20%%)\n",
		              c->ridge_flop_per_B, c->l1_ridge_flop_per_B);
	}
	rv_fmt_si(x, sizeof(x), c->launch_threshold_s, "s");
	rv_buf_printf(out, "  launch threshold    %s (5 x the per-call overhead)\n", x);
	rv_fmt_bytes(x, sizeof(x), c->l1_capacity_B);
	rv_fmt_bytes(y, sizeof(y), c->llc_capacity_B);
	rv_buf_printf(out, "  L1 / LLC capacity   %s / %s (ambiguous within 20%%)\n", x, y);
	return rv_buf_check(out);
}

static void prediction_text(struct rv_buf *out, const struct rv_profile *p,
                            const struct rv_prediction *r)
{
	char x[48], y[48], z[48];

	rv_fmt_si(x, sizeof(x), r->latency_s, "s");
	rv_buf_printf(out, "\n  latency    %-12s bound by %s\n", x, rv_bound_name(r->binding));
	rv_fmt_si(x, sizeof(x), r->energy_J, "J");
	rv_fmt_si(y, sizeof(y), r->static_J, "J");
	rv_fmt_si(z, sizeof(z), r->flop_J, "J");
	rv_buf_printf(out, "  energy     %-12s static %s + FLOPs %s", x, y, z);
	rv_fmt_si(x, sizeof(x), r->bytes_J, "J");
	rv_buf_printf(out, " + bytes %s\n  terms\n", x);
	rv_fmt_si(x, sizeof(x), r->overhead_s, "s");
	rv_buf_printf(out, "    overhead %-12s per call\n", x);
	rv_fmt_si(x, sizeof(x), r->compute_s, "s");
	rv_fmt_si(y, sizeof(y), r->footprint.flop, "FLOP");
	rv_buf_printf(out, "    compute  %-12s %s", x, y);
	if (r->small_kernel)
		rv_buf_printf(out, "; the small-matrix kernel's register blocks: efficiency %.3f",
		              r->eff_small);
	else if (r->tiles)
		rv_buf_printf(out,
		              "; %ux%u tiles%s: %llu in %llu waves; efficiency tile %.3f, wave "
		              "%.3f, small-dim %.3f",
		              r->tile_m, r->tile_n,
		              p->gemm.packed.n_widths ? " (the time of the packed kernel's blocks)"
		                                      : "",
		              (unsigned long long)r->tiles, (unsigned long long)r->waves,
		              r->eff_tile, r->eff_wave, r->eff_small);
	if (r->fresh_pages > 0) {
		rv_fmt_si(y, sizeof(y), r->first_touch_s, "s");
		rv_buf_printf(out, "; with %s of first touch: %.0f fresh pages of the output", y,
		              r->fresh_pages);
	}
	if (r->bias_s > 0) {
		rv_fmt_si(y, sizeof(y), r->bias_s, "s");
		rv_buf_printf(out, "; with %s of copying the bias into each row", y);
	}
	if (r->pack_s > 0) {
		rv_fmt_si(y, sizeof(y), r->pack_s, "s");
		rv_buf_printf(out, "; with %s of packing A and B into panels%s", y,
		              p->gemm.threading.kernel_call_rows ? " and calling the kernel" : "");
	}
	rv_buf_putc(out, '\n');
	if (r->handover_s > 0) {
		rv_fmt_si(x, sizeof(x), r->handover_s, "s");
		rv_buf_printf(
		        out,
		        "    handover %-12s after the body: the BLAS's call set up and handed "
		        "to its threads (gemm.threading)\n",
		        x);
	}
	for (size_t i = 0; i < p->n_memory; i++) {
		enum rv_tier t = p->memory[i].tier;

		rv_fmt_si(x, sizeof(x), r->tier_s[t], "s");
		rv_fmt_bytes(y, sizeof(y), r->tier_B[t]);
		rv_fmt_si(z, sizeof(z), p->memory[i].effective_bw_Bps, "B/s");
		rv_buf_printf(out, "    %-8s %-12s %s at %s\n", rv_tier_name(t), x, y, z);
	}
	if (r->tiles && p->gemm.overlap_norm > 0) {
		rv_fmt_si(x, sizeof(x), r->latency_s - r->overhead_s - r->handover_s, "s");
		rv_buf_printf(out,
		              "    body     %-12s max(longest term, (compute^p + dram^p)^(1/p)), "
		              "p = %g\n",
		              x, p->gemm.overlap_norm);
	}
}

static int prediction_json(struct rv_buf *out, const struct rv_profile *p, enum rv_op op,
                           const struct rv_shape *s, enum rv_dtype d, const struct rv_prediction *r)
{
	json_t *root, *tiers = json_object();
	char shape[80];

	(void)rv_shape_format(shape, sizeof(shape), s);
	for (size_t i = 0; tiers && i < p->n_memory; i++) {
		enum rv_tier t = p->memory[i].tier;

		(void)json_object_set_new(
		        tiers, rv_tier_name(t),
		        json_pack("{s:f, s:f}", "time_s", r->tier_s[t], "bytes", r->tier_B[t]));
	}
	root = json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:s, s:{s:f, s:f, s:o}, "
	                 "s:{s:i, s:i, s:I, s:I, s:f, s:f, s:f}, s:{s:f, s:f, s:f}, "
	                 "s:{s:f, s:f, s:f, s:f}}",
	                 "schema", "roofval.predict/1", "hardware", p->key, "op", rv_op_name(op),
	                 "shape", shape, "dtype", rv_dtype_name(d), "latency_s", r->latency_s,
	                 "energy_j", r->energy_J, "binding", rv_bound_name(r->binding), "terms",
	                 "overhead_s", r->overhead_s, "compute_s", r->compute_s, "tiers", tiers,
	                 "gemm", "tile_m", (int)r->tile_m, "tile_n", (int)r->tile_n, "tiles",
	                 (json_int_t)r->tiles, "waves", (json_int_t)r->waves, "eff_tile",
	                 r->eff_tile, "eff_wave", r->eff_wave, "eff_small", r->eff_small,
	                 "energy_terms", "static_j", r->static_J, "flop_j", r->flop_J, "bytes_j",
	                 r->bytes_J, "footprint", "flop", r->footprint.flop, "working_set_B",
	                 r->footprint.working_set_B, "intensity_flop_per_B",
	                 r->footprint.intensity_flop_per_B, "weight_B", r->footprint.weight_B);
	if (root) {
		json_t *terms = json_object_get(root, "terms");

		(void)json_object_set_new(terms, "first_touch",
		                          json_pack("{s:f, s:f}", "pages", r->fresh_pages, "time_s",
		                                    r->first_touch_s));
		(void)json_object_set_new(terms, "bias_copy_s", json_real(r->bias_s));
		(void)json_object_set_new(terms, "packing_s", json_real(r->pack_s));
		(void)json_object_set_new(terms, "handover_s", json_real(r->handover_s));
		(void)json_object_set_new(terms, "small_kernel", json_boolean(r->small_kernel));
	}
	return put_json(out, root);
}

int rv_report_prediction(struct rv_buf *out, const struct rv_profile *p, enum rv_op op,
                         const struct rv_shape *s, enum rv_dtype d, const struct rv_prediction *r,
                         enum rv_format f)
{
	switch (f) {
	case RV_FORMAT_TEXT:
		title(out, p, op, s, d);
		prediction_text(out, p, r);
		return rv_buf_check(out);
	case RV_FORMAT_JSON:
		return prediction_json(out, p, op, s, d, r);
	default:
		return no_format("a prediction", f);
	}
}
