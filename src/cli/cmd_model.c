/* SPDX-License-Identifier: MIT */
/* roofval classify | predict: the classifier and the model for one shape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/buf.h"
#include "core/error.h"
#include "hw/profile.h"
#include "io/file.h"
#include "layout/layout.h"
#include "model/classify.h"
#include "model/predict.h"
#include "predictions/predictions.h"
#include "report/report.h"

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
	struct rv_layout l;
	const struct rv_profile *p;
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
};

/* The op, shape, dtype and profile (borrowed from a->l) that parsed options
 * o name; RV_OPT_RUN to go on (close a->l), else the exit status. */
static int model_load(struct model_args *a, const struct model_opts *o, const char *cmd)
{
	memset(a, 0, sizeof(*a));
	if (rv_op_parse(o->op, &a->op) < 0 || rv_shape_parse(o->shape, a->op, &a->shape) < 0 ||
	    (o->dtype && rv_dtype_parse(o->dtype, &a->dtype) < 0) ||
	    rv_layout_open(&a->l, &(struct rv_layout_dirs){ o->hdir, NULL, NULL },
	                   o->no_fit ? 0 : RV_PROFILE_FIT) < 0)
		return rv_cli_fail(cmd);
	if (rv_layout_profile(&a->l, &a->p, o->hw) < 0) {
		rv_layout_close(&a->l);
		return rv_cli_fail(cmd);
	}
	if (!o->dtype)
		a->dtype = a->p->default_dtype;
	return RV_OPT_RUN;
}

/* Prints what out holds and closes a; the exit status of err. */
static int model_done(struct model_args *a, struct rv_buf *out, int err, const char *cmd)
{
	if (err == 0)
		(void)fwrite(rv_buf_str(out), 1, out->len, stdout);
	rv_buf_free(out);
	rv_layout_close(&a->l);
	return err < 0 ? rv_cli_fail(cmd) : RV_EXIT_OK;
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
	struct rv_buf out = RV_BUF_INIT;
	int rc = rv_opts_parse(&rv_classify_spec, argc, argv, &o, NULL), err;

	if (rc != RV_OPT_RUN || (rc = model_load(&a, &o, "classify")) != RV_OPT_RUN)
		return rc;
	/* A classification is text only: --format json gives the text too. */
	err = rv_classify(&c, a.p, a.op, &a.shape, a.dtype);
	if (err == 0)
		err = rv_report_classification(&out, a.p, a.op, &a.shape, a.dtype, &c,
		                               RV_FORMAT_TEXT);
	return model_done(&a, &out, err, "classify");
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
	struct rv_buf out = RV_BUF_INIT;
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
	if (err == 0)
		err = rv_report_prediction(&out, a.p, a.op, &a.shape, a.dtype, &r,
		                           o.format == 1 ? RV_FORMAT_JSON : RV_FORMAT_TEXT);
	return model_done(&a, &out, err, "predict");
}
