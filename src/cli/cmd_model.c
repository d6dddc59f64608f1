/* SPDX-License-Identifier: MIT */
/* roofval classify | predict: the classifier and the model for one shape. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/units.h"
#include "hw/profile.h"
#include "io/file.h"
#include "layout/layout.h"
#include "model/classify.h"
#include "model/predict.h"
#include "predictions/predictions.h"

/* The options of classify and predict. op, shape and dtype are read after
 * the parse, with the profile: the shape's form depends on the op, and a
 * wrong one is a failure (exit 1), as a profile that is not there. */
struct model_opts {
	const char *hw, *op, *shape, *dtype, *hdir;
	int format; /* 0 text, 1 json, 2 csv (predict: every labelled entry) */
	int no_fit;
	int purpose; /* predict --format csv: -1 both */
	const char *sdir, *output;
};

static const char *const classify_formats[] = { "text", "json", NULL };
static const char *const predict_formats[] = { "text", "json", "csv", NULL };

/* clang-format off */
#define MODEL_OPTIONS(req, req_flag, formats, format_help)                                           \
	{ .name = "hw", .metavar = "KEY", .help = "hardware key or profile file (required)",   \
	  .type = RV_OPT_STRING, .offset = offsetof(struct model_opts, hw),                    \
	  .flags = RV_OPT_REQUIRED },                                                          \
	{ .name = "op", .metavar = "OP", .help = "matmul, linear or vector_add" req,           \
	  .type = RV_OPT_STRING, .offset = offsetof(struct model_opts, op),                    \
	  .flags = req_flag, .values = RV_VALUES_OP },                                         \
	{ .name = "shape", .metavar = "S", .help = "MxKxN, BxINxOUT or N" req,                 \
	  .type = RV_OPT_STRING, .offset = offsetof(struct model_opts, shape),                 \
	  .flags = req_flag },                                                                 \
	{ .name = "dtype", .metavar = "D",                                                     \
	  .help = "element type (default: the profile's default dtype)",                       \
	  .type = RV_OPT_STRING, .offset = offsetof(struct model_opts, dtype),                 \
	  .values = RV_VALUES_DTYPE },                                                         \
	{ .name = "hardware-dir", .metavar = "DIR", .help = "folder of hardware profiles",     \
	  .type = RV_OPT_STRING, .offset = offsetof(struct model_opts, hdir) },                \
	{ .name = "format", .metavar = "F", .help = format_help,                               \
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct model_opts, format),                \
	  .choices = formats },                                                                \
	{ .name = "no-fit",                                                                    \
	  .help = "ignore hardware/<key>.fit.json: the hand-edited profile alone",             \
	  .type = RV_OPT_FLAG, .offset = offsetof(struct model_opts, no_fit) }

static const struct rv_option classify_options[] = {
	MODEL_OPTIONS(" (required)", RV_OPT_REQUIRED, classify_formats, "text (default) or json"),
	{ .name = NULL },
};

static const struct rv_option predict_options[] = {
	MODEL_OPTIONS(" (required but with --format csv)", 0, predict_formats,
	              "text (default), json, or csv: the predictions of every entry the sweeps "
	              "label for the target (docs/predictions-csv.md)"),
	{ .name = "purpose", .metavar = "P",
	  .help = "--format csv: the calibration or validation sweeps only (default: both)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct model_opts, purpose),
	  .parse = rv_opt_choice_purpose },
	{ .name = "sweep-dir", .metavar = "DIR", .help = "--format csv: the sweep folder",
	  .type = RV_OPT_STRING, .offset = offsetof(struct model_opts, sdir) },
	{ .name = "output", .short_name = 'o', .metavar = "FILE",
	  .help = "--format csv: write the predictions here (atomically; - for standard output)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct model_opts, output) },
	{ .name = NULL },
};
/* clang-format on */

struct model_args {
	struct rv_profile *p;
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
	int json;
};

/* The op, shape, dtype and profile that parsed options o name; RV_OPT_RUN to
 * go on (free a->p), else the exit status. */
static int model_load(struct model_args *a, const struct model_opts *o, const char *cmd)
{
	memset(a, 0, sizeof(*a));
	a->json = o->format == 1;
	if (rv_op_parse(o->op, &a->op) < 0 || rv_shape_parse(o->shape, a->op, &a->shape) < 0 ||
	    (o->dtype && rv_dtype_parse(o->dtype, &a->dtype) < 0) ||
	    rv_profile_find(&a->p, rv_profile_dir(o->hdir), o->hw, o->no_fit ? 0 : RV_PROFILE_FIT) <
	            0)
		return rv_cli_fail(cmd);
	if (!o->dtype)
		a->dtype = a->p->default_dtype;
	return RV_OPT_RUN;
}

static void title(const struct model_args *a)
{
	char shape[80];

	(void)rv_shape_format(shape, sizeof(shape), &a->shape);
	printf("%s %s %s %s", a->p->key, rv_op_name(a->op), shape, rv_dtype_name(a->dtype));
}

const struct rv_opts_spec rv_classify_spec = {
	"classify --hw KEY --op OP --shape S [--dtype D]",
	"Classify one shape's regime on a target and show the numbers behind it.", classify_options,
	0, 0
};

int rv_cmd_classify(int argc, char **argv)
{
	struct model_opts o = { 0 };
	struct model_args a;
	struct rv_classification c;
	char x[48], y[48];
	int rc = rv_opts_parse(&rv_classify_spec, argc, argv, &o, NULL);

	if (rc != RV_OPT_RUN || (rc = model_load(&a, &o, "classify")) != RV_OPT_RUN)
		return rc;
	if (rv_classify(&c, a.p, a.op, &a.shape, a.dtype) < 0) {
		rv_profile_free(a.p);
		return rv_cli_fail("classify");
	}
	title(&a);
	printf(": %s\n  rule                %s\n", rv_regime_name(c.regime), c.reason);
	rv_fmt_si(x, sizeof(x), c.flop, "FLOP");
	printf("  work                %s\n", x);
	rv_fmt_bytes(x, sizeof(x), c.working_set_B);
	printf("  working set         %s\n", x);
	printf("  intensity           %.4g FLOP/B\n", c.intensity_flop_per_B);
	if (c.regime != RV_REGIME_UNSUPPORTED) {
		rv_fmt_si(x, sizeof(x), c.compute_s, "s");
		rv_fmt_si(y, sizeof(y), c.dram_s, "s");
		printf("  compute / DRAM time %s / %s (effective rates)\n", x, y);
		printf("  ridge points        DRAM %.4g FLOP/B, L1 %.4g FLOP/B (ambiguous within "
		       "20%%)\n",
		       c.ridge_flop_per_B, c.l1_ridge_flop_per_B);
	}
	rv_fmt_si(x, sizeof(x), c.launch_threshold_s, "s");
	printf("  launch threshold    %s (5 x the per-call overhead)\n", x);
	rv_fmt_bytes(x, sizeof(x), c.l1_capacity_B);
	rv_fmt_bytes(y, sizeof(y), c.llc_capacity_B);
	printf("  L1 / LLC capacity   %s / %s (ambiguous within 20%%)\n", x, y);
	rv_profile_free(a.p);
	return RV_EXIT_OK;
}

static void predict_text(const struct model_args *a, const struct rv_prediction *r)
{
	char x[48], y[48], z[48];

	title(a);
	rv_fmt_si(x, sizeof(x), r->latency_s, "s");
	printf("\n  latency    %-12s bound by %s\n", x, rv_bound_name(r->binding));
	rv_fmt_si(x, sizeof(x), r->energy_j, "J");
	rv_fmt_si(y, sizeof(y), r->static_j, "J");
	rv_fmt_si(z, sizeof(z), r->flop_j, "J");
	printf("  energy     %-12s static %s + FLOPs %s", x, y, z);
	rv_fmt_si(x, sizeof(x), r->bytes_j, "J");
	printf(" + bytes %s\n  terms\n", x);
	rv_fmt_si(x, sizeof(x), r->overhead_s, "s");
	printf("    overhead %-12s per call\n", x);
	rv_fmt_si(x, sizeof(x), r->compute_s, "s");
	rv_fmt_si(y, sizeof(y), r->footprint.flop, "FLOP");
	printf("    compute  %-12s %s", x, y);
	if (r->tiles)
		printf("; %ux%u tiles: %llu in %llu waves; efficiency tile %.3f, wave %.3f, "
		       "small-dim %.3f",
		       r->tile_m, r->tile_n, (unsigned long long)r->tiles,
		       (unsigned long long)r->waves, r->eff_tile, r->eff_wave, r->eff_small);
	if (r->fresh_pages > 0) {
		rv_fmt_si(y, sizeof(y), r->first_touch_s, "s");
		printf("; with %s of first touch: %.0f fresh pages of the output", y,
		       r->fresh_pages);
	}
	printf("\n");
	for (size_t i = 0; i < a->p->n_memory; i++) {
		enum rv_tier t = a->p->memory[i].tier;

		rv_fmt_si(x, sizeof(x), r->tier_s[t], "s");
		rv_fmt_bytes(y, sizeof(y), r->tier_B[t]);
		rv_fmt_si(z, sizeof(z), a->p->memory[i].effective_bw_Bps, "B/s");
		printf("    %-8s %-12s %s at %s\n", rv_tier_name(t), x, y, z);
	}
	if (r->tiles && a->p->gemm.overlap_norm > 0) {
		rv_fmt_si(x, sizeof(x), r->latency_s - r->overhead_s, "s");
		printf("    body     %-12s max(longest term, (compute^p + dram^p)^(1/p)), p = %g\n",
		       x, a->p->gemm.overlap_norm);
	}
}

static int predict_json(const struct model_args *a, const struct rv_prediction *r)
{
	json_t *root, *tiers = json_object();
	char shape[80], *text;

	(void)rv_shape_format(shape, sizeof(shape), &a->shape);
	for (size_t i = 0; tiers && i < a->p->n_memory; i++) {
		enum rv_tier t = a->p->memory[i].tier;

		(void)json_object_set_new(
		        tiers, rv_tier_name(t),
		        json_pack("{s:f, s:f}", "time_s", r->tier_s[t], "bytes", r->tier_B[t]));
	}
	root = json_pack(
	        "{s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:s, s:{s:f, s:f, s:o}, "
	        "s:{s:i, s:i, s:I, s:I, s:f, s:f, s:f}, s:{s:f, s:f, s:f}, "
	        "s:{s:f, s:f, s:f, s:f}}",
	        "schema", "roofval.predict/1", "hardware", a->p->key, "op", rv_op_name(a->op),
	        "shape", shape, "dtype", rv_dtype_name(a->dtype), "latency_s", r->latency_s,
	        "energy_j", r->energy_j, "binding", rv_bound_name(r->binding), "terms",
	        "overhead_s", r->overhead_s, "compute_s", r->compute_s, "tiers", tiers, "gemm",
	        "tile_m", (int)r->tile_m, "tile_n", (int)r->tile_n, "tiles", (json_int_t)r->tiles,
	        "waves", (json_int_t)r->waves, "eff_tile", r->eff_tile, "eff_wave", r->eff_wave,
	        "eff_small", r->eff_small, "energy_terms", "static_j", r->static_j, "flop_j",
	        r->flop_j, "bytes_j", r->bytes_j, "footprint", "flop", r->footprint.flop,
	        "working_set_B", r->footprint.working_set_B, "intensity_flop_per_B",
	        r->footprint.intensity_flop_per_B, "weight_B", r->footprint.weight_B);
	if (root)
		(void)json_object_set_new(json_object_get(root, "terms"), "first_touch",
		                          json_pack("{s:f, s:f}", "pages", r->fresh_pages, "time_s",
		                                    r->first_touch_s));
	text = root ? json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17))
	            : NULL;
	json_decref(root);
	if (!text)
		return rv_error_set(RV_ENOMEM, "out of memory");
	printf("%s\n", text);
	free(text);
	return 0;
}

/* predict --format csv: the built-in model's predictions of every entry the
 * sweeps label for the target. */
static int predict_csv(const struct model_opts *o)
{
	struct rv_layout l;
	struct rv_prediction_set *set = NULL;
	struct rv_buf out = RV_BUF_INIT;
	int op = -1, err;

	if (o->op && rv_op_parse(o->op, (enum rv_op *)&op) < 0)
		return rv_cli_fail("predict");
	err = rv_layout_open(&l, &(struct rv_layout_dirs){ o->hdir, o->sdir, NULL },
	                     o->no_fit ? 0 : RV_PROFILE_FIT);
	if (err == 0)
		err = rv_predictions_new(&set, RV_BUILTIN_MODEL);
	if (err == 0)
		err = rv_layout_predict(&l, set, o->hw, op, o->purpose);
	if (err == 0)
		err = rv_predictions_render(&out, set);
	if (err == 0)
		err = rv_file_write_output(o->output, out.data, out.len);
	rv_buf_free(&out);
	rv_predictions_free(set);
	rv_layout_close(&l);
	return err < 0 ? rv_cli_fail("predict") : RV_EXIT_OK;
}

const struct rv_opts_spec rv_predict_spec = {
	"predict --hw KEY (--op OP --shape S [--dtype D] [--format text|json] | "
	"--format csv [--op OP] [--purpose P] [-o FILE])",
	"Predict latency and energy of one shape on a target, with the terms "
	"behind them; or, with --format csv, the built-in model's predictions of "
	"every entry the sweeps label for the target.",
	predict_options, 0, 0
};

int rv_cmd_predict(int argc, char **argv)
{
	struct model_opts o = { .purpose = -1 };
	struct model_args a;
	struct rv_prediction r;
	int rc = rv_opts_parse(&rv_predict_spec, argc, argv, &o, NULL), err;

	if (rc != RV_OPT_RUN)
		return rc;
	if (o.format == 2)
		return predict_csv(&o);
	if (!o.op || !o.shape)
		return rv_opts_usage(&rv_predict_spec, "predict",
		                     !o.op ? "--op is required" : "--shape is required");
	if ((rc = model_load(&a, &o, "predict")) != RV_OPT_RUN)
		return rc;
	err = rv_predict(&r, a.p, a.op, &a.shape, a.dtype);
	if (err == 0) {
		if (a.json)
			err = predict_json(&a, &r);
		else
			predict_text(&a, &r);
	}
	rv_profile_free(a.p);
	return err < 0 ? rv_cli_fail("predict") : RV_EXIT_OK;
}
