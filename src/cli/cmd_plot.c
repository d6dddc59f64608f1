/* SPDX-License-Identifier: MIT */
/* roofval plot (roofline, compare, heatmap) and roofval report: pictures of
 * the validation of committed baselines, as SVG (PNG through rsvg-convert),
 * and an HTML page with the tables and every picture. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/path.h"
#include "hw/profile.h"
#include "io/file.h"
#include "layout/layout.h"
#include "plot/plot.h"
#include "report/report.h"
#include "sweep/sweep.h"

/* The options of the plots and of the report; plot_check() reads them. */
struct plot_opts {
	struct rv_opt_list hw, op, bdir, sdir;
	const char *purpose, *output, *hdir;
	int png, no_fit;
	struct rv_cli_models models;
	unsigned top; /* report only */
};

/* clang-format off */
static const struct rv_option plot_options[] = {
	{ .name = "hw", .metavar = "KEY",
	  .help = "hardware key: roofline one, compare two, heatmap any (default: all)",
	  .type = RV_OPT_LIST, .offset = offsetof(struct plot_opts, hw) },
	{ .name = "op", .metavar = "OP",
	  .help = "matmul, linear or vector_add; repeat for several (default: every op)",
	  .type = RV_OPT_LIST, .offset = offsetof(struct plot_opts, op),
	  .values = RV_VALUES_OP },
	{ .name = "purpose", .metavar = "P",
	  .help = "calibration or validation records only (default: both)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct plot_opts, purpose),
	  .parse = rv_opt_choice_purpose },
	{ .name = "output", .short_name = 'o', .metavar = "FILE",
	  .help = "where the SVG goes ('-': standard output); default below",
	  .type = RV_OPT_STRING, .offset = offsetof(struct plot_opts, output) },
	{ .name = "png",
	  .help = "also write FILE.png with rsvg-convert (apt-get install librsvg2-bin)",
	  .type = RV_OPT_FLAG, .offset = offsetof(struct plot_opts, png) },
	{ .name = "baseline-dir", .metavar = "DIR",
	  .help = "baseline folder (default: $ROOFVAL_BASELINE_DIR, else results/baselines/); "
	          "compare: give one per --hw, in the same order, when they differ",
	  .type = RV_OPT_LIST, .offset = offsetof(struct plot_opts, bdir) },
	{ .name = "sweep-dir", .metavar = "DIR",
	  .help = "sweep folder (default: $ROOFVAL_SWEEP_DIR, else sweeps/); compare: one per "
	          "--hw as --baseline-dir",
	  .type = RV_OPT_LIST, .offset = offsetof(struct plot_opts, sdir) },
	RV_CLI_HARDWARE_DIR_OPTION(struct plot_opts, hdir),
	RV_CLI_NO_FIT_OPTION(struct plot_opts, no_fit),
	RV_CLI_MODEL_OPTIONS(struct plot_opts, models),
	{ .name = NULL },
};
/* clang-format on */

/* What the options of a plot say, checked. */
struct plot_args {
	enum rv_op op[RV_OP_COUNT]; /* each op given, once, in order */
	size_t n_ops;
	int purpose; /* -1: both */
};

/* The checks the table cannot make: the ops, the purpose, the folders and
 * --png. 0 to go on, else the exit status. */
static int plot_check(struct plot_args *a, const struct plot_opts *o,
                      const struct rv_opts_spec *spec, const char *name)
{
	unsigned seen = 0;
	char what[512];

	memset(a, 0, sizeof(*a));
	a->purpose = -1;
	if (o->bdir.n > 2 || o->sdir.n > 2)
		return rv_opts_usage(spec, name,
		                     "--baseline-dir and --sweep-dir go at most once per --hw, "
		                     "two at most");
	for (size_t i = 0; i < o->op.n; i++) {
		enum rv_op op;

		if (rv_op_parse(o->op.items[i], &op) < 0)
			return rv_opts_usage(spec, name, rv_error_last());
		if (!(seen & (1u << op)))
			a->op[a->n_ops++] = op;
		seen |= 1u << op;
	}
	if (o->purpose) {
		enum rv_purpose p;

		if (rv_purpose_parse(o->purpose, &p) < 0)
			return rv_opts_usage(spec, name, rv_error_last());
		a->purpose = (int)p;
	}
	if (o->png && o->output && strcmp(o->output, "-") == 0) {
		(void)snprintf(what, sizeof(what), "--png needs a file, not '-'");
		return rv_opts_usage(spec, name, what);
	}
	return 0;
}

/* Writes the picture to path (standard output for "-"), then the PNG. */
static int plot_write(const struct rv_buf *svg, const char *path, int png)
{
	char png_path[RV_PATH_MAX];
	int err;

	if ((err = rv_file_write_output(path, svg->data, svg->len)) < 0 || strcmp(path, "-") == 0)
		return err;
	printf("wrote %s\n", path);
	if (!png)
		return 0;
	if ((err = rv_plot_png_path(png_path, sizeof(png_path), path)) < 0 ||
	    (err = rv_plot_png(path, png_path)) < 0)
		return err;
	printf("wrote %s\n", png_path);
	return 0;
}

/* Options to one library call, then the file. */
static int plot_run(const struct plot_opts *o, const struct plot_args *a, enum rv_plot_kind kind,
                    const struct rv_opts_spec *spec, const char *name)
{
	const struct rv_plot_opts po = {
		kind,          o->hw.items, o->hw.n,       a->op,
		a->n_ops,      a->purpose,  o->bdir.items, o->bdir.n,
		o->sdir.items, o->sdir.n,   o->hdir,       o->no_fit ? 0 : RV_PROFILE_FIT
	};
	struct rv_buf svg = RV_BUF_INIT;
	struct rv_layout_model *models;
	size_t n_models;
	char path[RV_PATH_MAX];
	int err, rc = rv_cli_models(&models, &n_models, &o->models, spec, name);

	if (rc != RV_OPT_RUN)
		return rc;
	err = rv_plot_draw_models(&svg, &po, models, n_models);
	free(models);

	if (err == 0 && !o->output)
		err = rv_plot_file_name(path, sizeof(path), kind,
		                        o->hw.n > 0 ? o->hw.items[0] : NULL,
		                        o->hw.n > 1 ? o->hw.items[1] : NULL);
	if (err == 0)
		err = plot_write(&svg, o->output ? o->output : path, o->png);
	rv_buf_free(&svg);
	return err < 0 ? rv_cli_fail(name) : RV_EXIT_OK;
}

static const struct rv_opts_spec roofline_spec = {
	"plot roofline --hw KEY [--op OP ...] [--output FILE.svg] [--png]",
	"Draw the roofline of a target: operational intensity (FLOP/byte) against FLOP/s, a roof "
	"per memory tier and per dtype from the profile's sustained numbers with their ridge "
	"points, and every measured record of the target's baselines (a marker per op, a colour "
	"per regime label, hollow when the latency missed its band) joined to its prediction (a "
	"cross). Default output: <hw>_roofline.svg in the current folder.",
	plot_options, 0, 0
};

static const struct rv_opts_spec compare_spec = {
	"plot compare --hw A --hw B [--op OP ...] [--output FILE.svg] [--png]",
	"Draw two targets on one figure: predicted against measured latency of every record "
	"(log-log, with y = x and the narrowest and widest latency bands), and both rooflines "
	"side by side on the same axes. Default output: compare_<A>_<B>.svg in the current "
	"folder.",
	plot_options, 0, 0
};

static const struct rv_opts_spec error_spec = {
	"plot error --hw KEY [--op OP ...] [--output FILE.svg] [--png]",
	"Draw where the model is wrong on a target: the signed latency error of every record "
	"against its FLOPs, its bytes and its operational intensity, one error axis (above 0: "
	"predicted slower than measured) with the narrowest and widest latency bands; with "
	"several models a colour and marker per model, each record once, hover text on every "
	"point. Default output: <hw>_error.svg in the current folder.",
	plot_options, 0, 0
};

static const struct rv_opts_spec heatmap_spec = {
	"plot heatmap [--hw KEY ...] [--op OP ...] [--output FILE.svg] [--png]",
	"Draw the validate heatmap: a row per (hardware, op), a column per regime label, cells "
	"coloured by the share of records passing every check and labelled like the text "
	"report's cells. Default: every target with a baseline, both purposes; output "
	"heatmap.svg in the current folder.",
	plot_options, 0, 0
};

/* The three plots: the parse, the checks of the kind, the picture. */
static int plot_kind(const struct rv_opts_spec *spec, enum rv_plot_kind kind, const char *name,
                     int argc, char **argv)
{
	struct plot_opts o = { 0 };
	struct plot_args a;
	int rc = rv_opts_parse(spec, argc, argv, &o, NULL);

	if (rc != RV_OPT_RUN)
		return rc;
	rc = plot_check(&a, &o, spec, name);
	if (rc == 0 && (kind == RV_PLOT_ROOFLINE || kind == RV_PLOT_ERROR) && o.hw.n != 1)
		rc = rv_opts_usage(spec, name, "give one --hw KEY (plot compare takes two)");
	if (rc == 0 && kind == RV_PLOT_COMPARE &&
	    (o.hw.n != 2 || strcmp(o.hw.items[0], o.hw.items[1]) == 0))
		rc = rv_opts_usage(spec, name, "give two different targets, --hw A --hw B");
	if (rc == 0 && kind == RV_PLOT_HEATMAP && (o.bdir.n > 1 || o.sdir.n > 1))
		rc = rv_opts_usage(spec, name, "one --baseline-dir and one --sweep-dir");
	if (rc == 0)
		rc = plot_run(&o, &a, kind, spec, name);
	rv_opts_free(spec, &o);
	return rc;
}

static int plot_roofline(int argc, char **argv)
{
	return plot_kind(&roofline_spec, RV_PLOT_ROOFLINE, "plot roofline", argc, argv);
}

static int plot_compare(int argc, char **argv)
{
	return plot_kind(&compare_spec, RV_PLOT_COMPARE, "plot compare", argc, argv);
}

static int plot_error(int argc, char **argv)
{
	return plot_kind(&error_spec, RV_PLOT_ERROR, "plot error", argc, argv);
}

static int plot_heatmap(int argc, char **argv)
{
	return plot_kind(&heatmap_spec, RV_PLOT_HEATMAP, "plot heatmap", argc, argv);
}

/* clang-format off */
const struct rv_cmd rv_plot_cmds[] = {
	{ "roofline", plot_roofline, "A target's roofline with its measured and predicted points", &roofline_spec, NULL },
	{ "compare",  plot_compare,  "Two targets: predicted against measured latency, and rooflines", &compare_spec, NULL },
	{ "heatmap",  plot_heatmap,  "The validate heatmap as a picture", &heatmap_spec, NULL },
	{ "error",    plot_error,    "A target's signed latency errors against size and intensity", &error_spec, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};
/* clang-format on */

int rv_cmd_plot(int argc, char **argv)
{
	return rv_cli_dispatch("plot", rv_plot_cmds, argc, argv);
}

/* roofval report. */

/* clang-format off */
static const struct rv_option report_options[] = {
	{ .name = "output", .short_name = 'o', .metavar = "DIR",
	  .help = "folder for index.html and its pictures (made when missing)",
	  .type = RV_OPT_STRING, .offset = offsetof(struct plot_opts, output) },
	{ .name = "baseline-dir", .metavar = "DIR",
	  .help = "a baseline folder to add to the committed one ($ROOFVAL_BASELINE_DIR, else "
	          "results/baselines/); repeat for several",
	  .type = RV_OPT_LIST, .offset = offsetof(struct plot_opts, bdir) },
	{ .name = "sweep-dir", .metavar = "DIR",
	  .help = "the sweeps of the n-th --baseline-dir (default: $ROOFVAL_SWEEP_DIR, else "
	          "sweeps/)",
	  .type = RV_OPT_LIST, .offset = offsetof(struct plot_opts, sdir) },
	RV_CLI_HARDWARE_DIR_OPTION(struct plot_opts, hdir),
	RV_CLI_NO_FIT_OPTION(struct plot_opts, no_fit),
	RV_CLI_MODEL_OPTIONS(struct plot_opts, models),
	RV_CLI_TOP_OPTION(struct plot_opts, top),
	{ .name = NULL },
};
/* clang-format on */

const struct rv_opts_spec rv_report_spec = {
	"report --output DIR [--baseline-dir DIR [--sweep-dir DIR]] ...",
	"Write DIR/index.html: the validation of every committed baseline (and of every baseline "
	"folder given, the n-th --sweep-dir with the n-th --baseline-dir) as tables, the "
	"heatmap, each target's roofline and comparisons of the targets, as SVG files beside "
	"it. Opens from disk; the same inputs give the same bytes.",
	report_options, 0, 0
};

int rv_cmd_report(int argc, char **argv)
{
	struct plot_opts o = { 0 };
	struct rv_report_html_opts ro;
	struct rv_report_html_result done;
	struct rv_layout_model *models = NULL;
	size_t n_models = 0;
	int rc = rv_opts_parse(&rv_report_spec, argc, argv, &o, NULL);

	if (rc != RV_OPT_RUN)
		return rc;
	if (!o.output || !*o.output)
		rc = rv_opts_usage(&rv_report_spec, "report", "--output DIR is required");
	else if (o.sdir.n > o.bdir.n)
		rc = rv_opts_usage(&rv_report_spec, "report",
		                   "a --sweep-dir goes with a --baseline-dir");
	if (rc == RV_OPT_RUN)
		rc = rv_cli_models(&models, &n_models, &o.models, &rv_report_spec, "report");
	if (rc == RV_OPT_RUN) {
		ro = (struct rv_report_html_opts){ o.output,
			                           o.bdir.items,
			                           o.bdir.n,
			                           o.sdir.items,
			                           o.sdir.n,
			                           o.hdir,
			                           o.no_fit ? 0 : RV_PROFILE_FIT };
		if (rv_report_html_top(&ro, models, n_models, o.top, &done) < 0) {
			rc = rv_cli_fail("report");
		} else {
			printf("wrote %s/index.html with %zu pictures of %zu targets\n",
			       ro.output_dir, done.n_pictures, done.n_targets);
			rc = RV_EXIT_OK;
		}
	}
	free(models);
	rv_opts_free(&rv_report_spec, &o);
	return rc;
}
