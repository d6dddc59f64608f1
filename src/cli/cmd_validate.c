/* SPDX-License-Identifier: MIT */
/* roofval validate: score the model against committed baselines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "io/file.h"
#include "layout/layout.h"
#include "model/validate.h"
#include "report/report.h"

enum {
	OPT_HW,
	OPT_OP,
	OPT_PURPOSE,
	OPT_ALL,
	OPT_FORMAT,
	OPT_OUTPUT,
	OPT_BDIR,
	OPT_SDIR,
	OPT_HDIR,
	OPT_NOFIT
};

static const struct rv_opt validate_opts[] = {
	{ "hw", 0, "KEY", "hardware key" },
	{ "op", 0, "OP", "matmul, linear or vector_add (default: every op with a baseline)" },
	{ "purpose", 0, "P", "validation (default) or calibration; with --all: both" },
	{ "all", 0, NULL, "every hardware x op x purpose with a baseline in the baseline folder" },
	{ "format", 0, "F", "text (default), markdown or json" },
	{ "output", 'o', "FILE", "write the report here (atomically) instead of standard output" },
	{ "baseline-dir", 0, "DIR",
	  "baseline folder (default: $ROOFVAL_BASELINE_DIR, else the "
	  "source tree's results/baselines/)" },
	{ "sweep-dir", 0, "DIR", "sweep folder (default: $ROOFVAL_SWEEP_DIR, else sweeps/)" },
	{ "hardware-dir", 0, "DIR",
	  "hardware folder (default: $ROOFVAL_HARDWARE_DIR, else "
	  "hardware/)" },
	{ "no-fit", 0, NULL, "ignore the fit files: validate the hand-edited profiles alone" },
	{ NULL, 0, NULL, NULL },
};

static int validate_usage(const struct rv_cmd_spec *spec, const char *what)
{
	fprintf(stderr, "roofval: validate: %s\nusage: roofval %s\n", what, spec->usage);
	return RV_EXIT_USAGE;
}

int rv_cmd_validate(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"validate (--hw KEY [--op OP] | --all) [--purpose P] [--format F] [--output FILE]",
		"Predict every labelled shape of a sweep, compare with the baseline and score each "
		"record in the band of its regime. Exit status 3 when a record fails.",
		validate_opts, 0, 0
	};
	struct rv_opt_result res;
	struct rv_validation v;
	struct rv_buf out = RV_BUF_INIT;
	struct rv_summary sum = { 0 };
	enum rv_format format = RV_FORMAT_TEXT;
	enum rv_purpose purpose = RV_PURPOSE_VALIDATION;
	enum rv_op op = RV_OP_MATMUL;
	struct rv_layout layout;
	struct rv_layout_filter filter = { NULL, -1, -1 };
	int rc = rv_opt_parse(&spec, argc, argv, &res), err = 0;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[OPT_ALL] == !res.value[OPT_HW])
		return validate_usage(&spec, "give either --hw KEY or --all");
	if (res.value[OPT_FORMAT] && rv_format_parse(res.value[OPT_FORMAT], &format) < 0)
		return validate_usage(&spec, rv_error_last());
	if (res.value[OPT_PURPOSE] && rv_purpose_parse(res.value[OPT_PURPOSE], &purpose) < 0)
		return validate_usage(&spec, rv_error_last());
	if (res.value[OPT_OP] && rv_op_parse(res.value[OPT_OP], &op) < 0)
		return validate_usage(&spec, rv_error_last());
	filter.hw = res.value[OPT_HW];
	filter.op = res.value[OPT_OP] ? (int)op : -1;
	filter.purpose = res.value[OPT_ALL] && !res.value[OPT_PURPOSE] ? -1 : (int)purpose;
	memset(&v, 0, sizeof(v));
	err = rv_layout_open(&layout,
	                     &(struct rv_layout_dirs){ res.value[OPT_HDIR], res.value[OPT_SDIR],
	                                               res.value[OPT_BDIR] },
	                     res.value[OPT_NOFIT] ? 0 : RV_PROFILE_FIT);
	if (err == 0)
		err = rv_layout_validate(&layout, &v, &filter, NULL);
	rv_layout_close(&layout);
	if (err == 0)
		err = rv_report_render(&out, &v, format);
	if (err == 0 && res.value[OPT_OUTPUT])
		err = rv_file_write_atomic(res.value[OPT_OUTPUT], out.data, out.len);
	else if (err == 0)
		(void)fwrite(rv_buf_str(&out), 1, out.len, stdout);
	if (err == 0)
		err = rv_validation_summary(&v, &sum);
	rv_buf_free(&out);
	rv_validation_free(&v);
	if (err < 0)
		return rv_cli_fail("validate");
	return sum.failed ? RV_EXIT_MISMATCH : RV_EXIT_OK;
}
