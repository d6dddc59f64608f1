/* SPDX-License-Identifier: MIT */
/* roofval validate: score the model against committed baselines, through
 * the public API (rv_data_validate()). What is not the API's: the option
 * table (opt/), the names of the parsed choices (core/op.h, sweep/sweep.h,
 * report/report.h), the models list of the command line (rv_cli_models())
 * and the writing of the user's output path (io/file.h). */
#include <math.h>
#include <roofval/roofval.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/op.h"
#include "io/file.h"
#include "layout/layout.h"
#include "report/report.h"
#include "sweep/sweep.h"

struct validate_opts {
	const char *hw;
	int op, purpose; /* -1 when not given */
	int all;
	int format;
	const char *output, *sdir, *hdir;
	struct rv_opt_list bdir; /* the first is scored; the others are repeat captures */
	int no_fit, exclude_flagged;
	struct rv_cli_models models;
	const char *against;
	double regression_points;
	unsigned top;
};

/* clang-format off */
static const struct rv_option validate_options[] = {
	{ .name = "hw", .metavar = "KEY", .help = "hardware key",
	  .type = RV_OPT_STRING, .offset = offsetof(struct validate_opts, hw) },
	{ .name = "op", .metavar = "OP",
	  .help = "matmul, linear or vector_add (default: every op with a baseline)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct validate_opts, op),
	  .parse = rv_opt_choice_op },
	{ .name = "purpose", .metavar = "P",
	  .help = "validation (default) or calibration; with --all: both",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct validate_opts, purpose),
	  .parse = rv_opt_choice_purpose },
	{ .name = "all",
	  .help = "every hardware x op x purpose with a baseline in the baseline folder",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct validate_opts, all) },
	{ .name = "format", .metavar = "F", .help = "text (default), markdown or json",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct validate_opts, format),
	  .def = "text", .parse = rv_opt_choice_format },
	{ .name = "output", .short_name = 'o', .metavar = "FILE",
	  .help = "write the report here (atomically) instead of standard output",
	  .type = RV_OPT_STRING, .offset = offsetof(struct validate_opts, output) },
	{ .name = "baseline-dir", .metavar = "DIR",
	  .help = "baseline folder (default: $ROOFVAL_BASELINE_DIR, else the source tree's "
	          "results/baselines/); given again, each further folder is a second capture "
	          "of the same targets, read for the noise ceiling only",
	  .type = RV_OPT_LIST, .offset = offsetof(struct validate_opts, bdir) },
	{ .name = "exclude-flagged",
	  .help = "leave out rows whose latency is suspect (machine busy, median not known to "
	          "1%); the coverage counts them as excluded",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct validate_opts, exclude_flagged) },
	{ .name = "sweep-dir", .metavar = "DIR",
	  .help = "sweep folder (default: $ROOFVAL_SWEEP_DIR, else sweeps/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct validate_opts, sdir) },
	RV_CLI_HARDWARE_DIR_OPTION(struct validate_opts, hdir),
	RV_CLI_NO_FIT_OPTION(struct validate_opts, no_fit),
	RV_CLI_MODEL_OPTIONS(struct validate_opts, models),
	{ .name = "against", .metavar = "OLD.json",
	  .help = "a regression gate: compare with this earlier JSON report; exit status 3 when "
	          "a record that passed there fails now or a cell's median |error| grew past "
	          "--regression-points, else 0",
	  .type = RV_OPT_STRING, .offset = offsetof(struct validate_opts, against) },
	{ .name = "regression-points", .metavar = "P",
	  .help = "with --against: percentage points a cell's median |latency error| may grow "
	          "(default 2)",
	  .type = RV_OPT_DOUBLE, .offset = offsetof(struct validate_opts, regression_points),
	  .flags = RV_OPT_RANGE, .min = 0, .max = 100,
	  .what = "a number of percentage points" },
	RV_CLI_TOP_OPTION(struct validate_opts, top),
	{ .name = NULL },
};
/* clang-format on */

const struct rv_opts_spec rv_validate_spec = {
	"validate (--hw KEY [--op OP] | --all) [--purpose P] [--format F] "
	"[--output FILE] [--against OLD.json] [--top N]",
	"Predict every labelled shape of a sweep, compare with the baseline and "
	"score each record in the band of its regime. Exit status 3 when a "
	"record fails (with --against: when a regression is found); 1 when no "
	"record could be scored.",
	validate_options, 0, 0
};

/* The models of the command line (rv_cli_models()) as the API's; NULL out
 * of memory. */
static rv_model *api_models(const struct rv_layout_model *m, size_t n)
{
	rv_model *out = calloc(n ? n : 1, sizeof(*out));

	for (size_t i = 0; out && i < n; i++)
		out[i] = (rv_model){ m[i].predictions, m[i].command, m[i].timeout_s };
	return out;
}

int rv_cmd_validate(int argc, char **argv)
{
	/* regression_points NAN: not given (2 with --against). */
	struct validate_opts o = { .op = -1, .purpose = -1, .regression_points = (double)NAN };
	rv_validate_opts vo = RV_VALIDATE_OPTS_INIT;
	rv_data *d = NULL;
	rv_model *list = NULL;
	const char **names = NULL;
	struct rv_layout_model *models = NULL;
	size_t n_models = 0, len = 0;
	char *report = NULL;
	int rc = rv_opts_parse(&rv_validate_spec, argc, argv, &o, NULL), err = 0, passed = 1;

	if (rc != RV_OPT_RUN)
		return rc;
	if (!o.all == !o.hw) {
		rv_opts_free(&rv_validate_spec, &o);
		return rv_opts_usage(&rv_validate_spec, "validate",
		                     "give either --hw KEY or --all");
	}
	if (!isnan(o.regression_points) && !o.against) {
		rv_opts_free(&rv_validate_spec, &o);
		return rv_opts_usage(&rv_validate_spec, "validate",
		                     "--regression-points goes with --against OLD.json");
	}
	if (isnan(o.regression_points))
		o.regression_points = 2.0;
	rc = rv_cli_models(&models, &n_models, &o.models, &rv_validate_spec, "validate");
	if (rc != RV_OPT_RUN) {
		rv_opts_free(&rv_validate_spec, &o);
		return rc;
	}
	vo.hw = o.hw;
	vo.op = o.op >= 0 ? rv_op_name((enum rv_op)o.op) : NULL;
	/* Without --all and --purpose: the validation sweeps. */
	vo.purpose = o.purpose >= 0 ? rv_purpose_name((enum rv_purpose)o.purpose)
	             : o.all        ? NULL
	                            : rv_purpose_name(RV_PURPOSE_VALIDATION);
	vo.n_models = n_models;
	if (n_models > 0 && !(vo.models = list = api_models(models, n_models)))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	if (err == 0 && n_models > 0 && !(names = calloc(n_models, sizeof(*names))))
		err = rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; err == 0 && i < n_models; i++)
		names[i] = models[i].name;
	vo.model_names = names;
	vo.against = o.against;
	vo.regression_points = o.regression_points;
	vo.exclude_flagged = o.exclude_flagged;
	vo.top = o.top;
	if (o.bdir.n > 1) {
		vo.repeat_baseline_dirs = (const char *const *)o.bdir.items + 1;
		vo.n_repeat_baseline_dirs = o.bdir.n - 1;
	}
	if (err == 0)
		err = rv_data_open_flags(&d, o.hdir, o.sdir, o.bdir.n ? o.bdir.items[0] : NULL,
		                         o.no_fit ? RV_DATA_NO_FIT : 0);
	if (err == 0)
		err = rv_data_validate(d, &vo, rv_format_name((enum rv_format)o.format), &report,
		                       &len, &passed);
	if (err == 0)
		err = rv_file_write_output(o.output, report, len);
	free(report);
	rv_data_free(d);
	free(list);
	free(names);
	free(models);
	rv_opts_free(&rv_validate_spec, &o);
	if (err < 0)
		return rv_cli_fail("validate");
	return passed ? RV_EXIT_OK : RV_EXIT_MISMATCH;
}
