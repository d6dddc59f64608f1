/* SPDX-License-Identifier: MIT */
/* roofval calibrate: fit a target's model parameters on its calibration rows. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/path.h"
#include "core/strnum.h"
#include "core/units.h"
#include "hw/profile.h"
#include "io/file.h"
#include "layout/layout.h"
#include "model/calibrate.h"
#include "report/report.h"

struct cal_opts {
	const char *hw, *bdir, *sdir, *hdir, *output;
	int op; /* -1: every op with a baseline */
	int dry_run;
	int format; /* 0 text, 1 json */
};

static const char *const cal_formats[] = { "text", "json", NULL };

/* clang-format off */
static const struct rv_option cal_options[] = {
	{ .name = "hw", .metavar = "KEY", .help = "hardware key (required)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct cal_opts, hw),
	  .flags = RV_OPT_REQUIRED },
	{ .name = "op", .metavar = "OP",
	  .help = "fit on one op's rows only (default: every op with a baseline)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct cal_opts, op),
	  .parse = rv_opt_choice_op },
	{ .name = "baseline-dir", .metavar = "DIR",
	  .help = "baseline folder (default: $ROOFVAL_BASELINE_DIR, else results/baselines/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct cal_opts, bdir) },
	{ .name = "sweep-dir", .metavar = "DIR",
	  .help = "sweep folder (default: $ROOFVAL_SWEEP_DIR, else sweeps/)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct cal_opts, sdir) },
	RV_CLI_HARDWARE_DIR_OPTION(struct cal_opts, hdir),
	{ .name = "dry-run", .help = "print the fit, write nothing",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct cal_opts, dry_run) },
	{ .name = "format", .metavar = "F",
	  .help = "text (default) or json (the report on stdout; the fit file as usual)",
	  .type = RV_OPT_CHOICE, .offset = offsetof(struct cal_opts, format),
	  .choices = cal_formats },
	{ .name = "output", .short_name = 'o', .metavar = "FILE",
	  .help = "write the fit here (default: hardware/<key>.fit.json)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct cal_opts, output) },
	{ .name = NULL },
};
/* clang-format on */

const struct rv_opts_spec rv_calibrate_spec = {
	"calibrate --hw KEY [--op OP] [--format F] [--dry-run]",
	"Fit the model parameters of a target on the baseline rows of its calibration sweeps "
	"only, and write them to hardware/<key>.fit.json.",
	cal_options, 0, 0
};

/* YYYY-MM-DD of $SOURCE_DATE_EPOCH when set (reproducible output), else of
 * today (UTC). A value that is not a date (not a count of seconds since
 * 1970 up to the year 9999) is refused, not written as some other date. */
static int fit_date(char out[16])
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	int64_t epoch;
	time_t t = time(NULL);
	struct tm tm;

	if (env && *env) {
		if (rv_parse_i64(env, &epoch) < 0 || epoch < 0 || epoch > 253402300799LL) {
			char cut[96];

			return rv_error_set(
			        RV_EPARSE,
			        "SOURCE_DATE_EPOCH is '%s', not a date in seconds since "
			        "1970 (as 'date +%%s' prints it); fix it or unset it",
			        rv_error_cut(cut, sizeof(cut), env));
		}
		t = (time_t)epoch;
	}
	if (!gmtime_r(&t, &tm))
		return rv_error_set(RV_ERANGE, "cannot tell the date of %lld s", (long long)t);
	(void)strftime(out, 16, "%Y-%m-%d", &tm);
	return 0;
}

int rv_cmd_calibrate(int argc, char **argv)
{
	struct cal_opts o = { .op = -1 };
	struct rv_calibration c;
	struct rv_profile *p = NULL;
	struct rv_buf out = RV_BUF_INIT, report = RV_BUF_INIT;
	struct rv_layout layout;
	char fit_path[RV_PATH_MAX], date[16];
	FILE *say;
	int rc = rv_opts_parse(&rv_calibrate_spec, argc, argv, &o, NULL), err;

	if (rc != RV_OPT_RUN)
		return rc;
	memset(&c, 0, sizeof(c));
	/* The date the fit is stamped with, known good before any work. */
	if (fit_date(date) < 0)
		return rv_cli_fail("calibrate");
	err = rv_layout_open(&layout, &(struct rv_layout_dirs){ o.hdir, o.sdir, o.bdir }, 0);
	if (err == 0)
		err = rv_layout_calibrate(&layout, &c, &p, o.hw, o.op);
	/* A refused fit still shows its parameters: they say what went wrong. */
	/* With --output -, standard output is the fit's: the report goes to stderr. */
	say = o.output && strcmp(o.output, "-") == 0 ? stderr : stdout;
	if (err == RV_ERANGE && c.n_params && rv_report_calibration_params(&report, &c) == 0)
		(void)fwrite(rv_buf_str(&report), 1, report.len, say);
	if (err == 0) {
		err = o.format == 1 ? rv_calibrate_render_report(&report, &c, p)
		                    : rv_report_calibration(&report, &c, p);
		if (err == 0)
			(void)fwrite(rv_buf_str(&report), 1, report.len, say);
		if (err == 0)
			err = rv_calibrate_render(&out, &c, p, date);
	}
	if (err == 0 && !o.dry_run) {
		/* --output is the user's path ('-': standard output); the fit file
		 * of the hardware folder is replaced under its writers' lock. */
		if (o.output)
			err = rv_path_fmt(fit_path, sizeof(fit_path), "%s", o.output);
		else
			err = rv_layout_fit_path(&layout, fit_path, sizeof(fit_path), p->key);
		if (err == 0)
			err = o.output ? rv_file_write_output(fit_path, out.data, out.len)
			               : rv_file_replace(fit_path, out.data, out.len);
		if (err == 0 && strcmp(fit_path, "-") != 0)
			fprintf(o.format == 1 ? stderr : stdout, "\nwrote %s\n", fit_path);
	} else if (err == 0) {
		fprintf(o.format == 1 ? stderr : stdout, "\ndry run: nothing written\n");
	}
	rv_layout_close(&layout);
	rv_buf_free(&out);
	rv_buf_free(&report);
	rv_calibration_free(&c);
	rv_profile_free(p);
	return err < 0 ? rv_cli_fail("calibrate") : RV_EXIT_OK;
}
