/* SPDX-License-Identifier: MIT */
/* roofval classify | predict: the classifier and the model for one shape,
 * through the public API (rv_hw_classify_report(), rv_hw_predict_report(),
 * rv_data_predictions()); the option table (opt/), the name of the parsed
 * purpose (sweep/sweep.h) and the writing of the user's output path
 * (io/file.h) are the command line's. */
#include <roofval/roofval.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "io/file.h"
#include "sweep/sweep.h"

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
	RV_CLI_HARDWARE_DIR_OPTION(struct model_opts, hdir),                                   \
	{ .name = "format", .metavar = "F", .help = format_help,                               \
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct model_opts, format),                \
	  .choices = formats },                                                                \
	RV_CLI_NO_FIT_OPTION(struct model_opts, no_fit)

static const struct rv_option classify_options[] = {
	MODEL_OPTIONS(" (required)", RV_OPT_REQUIRED, classify_formats, "text (default) or json"),
	{ .name = NULL },
};

static const struct rv_option predict_options[] = {
	MODEL_OPTIONS(" (required but with --format csv)", 0, predict_formats,
	              "text (default), json (the terms: docs/predict-json.md), or csv: the "
	              "predictions of every entry the sweeps label for the target "
	              "(docs/predictions-csv.md)"),
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
	rv_data *d;
	const rv_hw *hw;
	rv_dims shape;
};

/* The shape and profile (borrowed from a->d) that parsed options o name;
 * RV_OPT_RUN to go on (rv_data_free(a->d) after), else the exit status. The
 * op and dtype are checked first, as they were given. */
static int model_load(struct model_args *a, const struct model_opts *o, const char *cmd)
{
	memset(a, 0, sizeof(*a));
	if (rv_dims_parse(&a->shape, o->op, o->shape) < 0 ||
	    rv_data_open_flags(&a->d, o->hdir, NULL, NULL, o->no_fit ? RV_DATA_NO_FIT : 0) < 0)
		return rv_cli_fail(cmd);
	if (rv_data_hw(a->d, o->hw, &a->hw) < 0) {
		rv_data_free(a->d);
		return rv_cli_fail(cmd);
	}
	return RV_OPT_RUN;
}

/* Prints the report (when err is 0), frees it and a; the exit status. */
static int model_done(struct model_args *a, char *report, size_t len, int err, const char *cmd)
{
	if (err == 0)
		err = rv_file_write_output(NULL, report, len);
	free(report);
	rv_data_free(a->d);
	return err < 0 ? rv_cli_fail(cmd) : RV_EXIT_OK;
}

const struct rv_opts_spec rv_classify_spec = {
	"classify --hw KEY --op OP --shape S [--dtype D] [--format text|json]",
	"Classify one shape's regime on a target and show the numbers behind it.", classify_options,
	0, 0
};

int rv_cmd_classify(int argc, char **argv)
{
	struct model_opts o = { 0 };
	struct model_args a;
	char *report = NULL;
	size_t len = 0;
	int rc = rv_opts_parse(&rv_classify_spec, argc, argv, &o, NULL), err;

	if (rc != RV_OPT_RUN || (rc = model_load(&a, &o, "classify")) != RV_OPT_RUN)
		return rc;
	err = rv_hw_classify_report(a.hw, o.op, o.dtype, &a.shape, classify_formats[o.format],
	                            &report, &len);
	return model_done(&a, report, len, err, "classify");
}

/* predict --format csv: the built-in model's predictions of every entry the
 * sweeps label for the target. */
static int predict_csv(const struct model_opts *o)
{
	rv_data *d = NULL;
	char *csv = NULL;
	size_t len = 0;
	int err = rv_data_open_flags(&d, o->hdir, o->sdir, NULL, o->no_fit ? RV_DATA_NO_FIT : 0);

	if (err == 0)
		err = rv_data_predictions(
		        d, o->hw, o->op,
		        o->purpose >= 0 ? rv_purpose_name((enum rv_purpose)o->purpose) : NULL, &csv,
		        &len);
	if (err == 0)
		err = rv_file_write_output(o->output, csv, len);
	free(csv);
	rv_data_free(d);
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
	char *report = NULL;
	size_t len = 0;
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
	err = rv_hw_predict_report(a.hw, o.op, o.dtype, &a.shape, predict_formats[o.format],
	                           &report, &len);
	return model_done(&a, report, len, err, "predict");
}
