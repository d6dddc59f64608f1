/* SPDX-License-Identifier: MIT */
/* roofval plot (roofline, compare, heatmap) and roofval report: pictures of
 * the validation of committed baselines, as SVG (PNG through rsvg-convert),
 * and an HTML page with the tables and every picture. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/error.h"
#include "core/path.h"
#include "hw/profile.h"
#include "io/file.h"
#include "plot/plot.h"
#include "report/report.h"
#include "sweep/sweep.h"

enum { OPT_HW, OPT_OP, OPT_PURPOSE, OPT_OUTPUT, OPT_PNG, OPT_BDIR, OPT_SDIR, OPT_HDIR, OPT_NOFIT };

static const struct rv_opt plot_opts[] = {
	{ "hw", 0, "KEY", "hardware key: roofline one, compare two, heatmap any (default: all)" },
	{ "op", 0, "OP", "matmul, linear or vector_add; repeat for several (default: every op)" },
	{ "purpose", 0, "P", "calibration or validation records only (default: both)" },
	{ "output", 'o', "FILE", "where the SVG goes ('-': standard output); default below" },
	{ "png", 0, NULL, "also write FILE.png with rsvg-convert (apt-get install librsvg2-bin)" },
	{ "baseline-dir", 0, "DIR",
	  "baseline folder (default: $ROOFVAL_BASELINE_DIR, else results/baselines/); compare: "
	  "give one per --hw, in the same order, when they differ" },
	{ "sweep-dir", 0, "DIR",
	  "sweep folder (default: $ROOFVAL_SWEEP_DIR, else sweeps/); compare: one per --hw as "
	  "--baseline-dir" },
	{ "hardware-dir", 0, "DIR",
	  "hardware folder (default: $ROOFVAL_HARDWARE_DIR, else hardware/)" },
	{ "no-fit", 0, NULL, "ignore hardware/<key>.fit.json: the hand-edited profile alone" },
	{ NULL, 0, NULL, NULL },
};

#define MAX_VALUES 16

/* Every value given to --name, in order: rv_opt_parse() keeps only the last.
 * Reads "--name VALUE" and "--name=VALUE" (after rv_opt_parse() accepted
 * argv, so each such option has its value). Returns the count, or -1 when
 * there are more than max. */
static int opt_values(const char **out, int max, int argc, char **argv, const char *name)
{
	size_t len = strlen(name);
	int n = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *value;

		if (strcmp(a, "--") == 0)
			break;
		if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, len) != 0)
			continue;
		if (a[2 + len] == '=')
			value = a + 3 + len;
		else if (a[2 + len] == '\0' && i + 1 < argc)
			value = argv[++i];
		else
			continue;
		if (n == max)
			return -1;
		out[n++] = value;
	}
	return n;
}

static int plot_usage(const struct rv_cmd_spec *spec, const char *what)
{
	fprintf(stderr, "roofval: %s\nusage: roofval %s [options]\n", what, spec->usage);
	return RV_EXIT_USAGE;
}

/* The options every plot shares, checked. */
struct plot_args {
	const char *hw[MAX_VALUES];
	int n_hw;
	enum rv_op op[RV_OP_COUNT];
	int n_ops;
	unsigned ops; /* bits of the ops, RV_PLOT_ALL_OPS when none was given */
	int purpose;  /* -1: both */
	const char *bdir[2], *sdir[2], *hdir; /* as given (NULL: the default) */
	int n_bdir, n_sdir;
	unsigned fit_flags;
	const char *output;
	int png;
};

static int plot_args(struct plot_args *a, const struct rv_cmd_spec *spec,
                     const struct rv_opt_result *res, int argc, char **argv, const char *name)
{
	const char *ops[MAX_VALUES];
	char what[512];
	int n;

	memset(a, 0, sizeof(*a));
	a->purpose = -1;
	a->n_hw = opt_values(a->hw, MAX_VALUES, argc, argv, "hw");
	n = opt_values(ops, MAX_VALUES, argc, argv, "op");
	a->n_bdir = opt_values(a->bdir, 2, argc, argv, "baseline-dir");
	a->n_sdir = opt_values(a->sdir, 2, argc, argv, "sweep-dir");
	if (a->n_hw < 0 || n < 0)
		return plot_usage(spec, "too many --hw or --op options");
	if (a->n_bdir < 0 || a->n_sdir < 0)
		return plot_usage(spec, "--baseline-dir and --sweep-dir go at most once per --hw, "
		                        "two at most");
	for (int i = 0; i < n; i++) {
		enum rv_op op;

		if (rv_op_parse(ops[i], &op) < 0) {
			(void)snprintf(what, sizeof(what), "%s: %s", name, rv_error_last());
			return plot_usage(spec, what);
		}
		if (!(a->ops & (1u << op)))
			a->op[a->n_ops++] = op;
		a->ops |= 1u << op;
	}
	if (res->value[OPT_PURPOSE]) {
		enum rv_purpose p;

		if (rv_purpose_parse(res->value[OPT_PURPOSE], &p) < 0) {
			(void)snprintf(what, sizeof(what), "%s: %s", name, rv_error_last());
			return plot_usage(spec, what);
		}
		a->purpose = (int)p;
	}
	a->output = res->value[OPT_OUTPUT];
	a->png = res->value[OPT_PNG] != NULL;
	if (a->png && a->output && strcmp(a->output, "-") == 0) {
		(void)snprintf(what, sizeof(what), "%s: --png needs a file, not '-'", name);
		return plot_usage(spec, what);
	}
	a->hdir = res->value[OPT_HDIR];
	a->fit_flags = res->value[OPT_NOFIT] ? 0 : RV_PROFILE_FIT;
	return 0;
}

/* Writes the picture to path (standard output for "-"), then the PNG. */
static int plot_write(const struct rv_buf *svg, const char *path, int png)
{
	char png_path[RV_PATH_MAX];
	int err;

	if (strcmp(path, "-") == 0) {
		(void)fwrite(rv_buf_str(svg), 1, svg->len, stdout);
		return 0;
	}
	if ((err = rv_file_write_atomic(path, svg->data, svg->len)) < 0)
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
static int plot_run(const struct plot_args *a, enum rv_plot_kind kind, const char *name)
{
	const struct rv_plot_opts o = {
		kind,       a->hw,       (size_t)a->n_hw,   a->op,   (size_t)a->n_ops,
		a->purpose, a->bdir,     (size_t)a->n_bdir, a->sdir, (size_t)a->n_sdir,
		a->hdir,    a->fit_flags
	};
	struct rv_buf svg = RV_BUF_INIT;
	char path[RV_PATH_MAX];
	int err = rv_plot_draw(&svg, &o);

	if (err == 0 && !a->output)
		err = rv_plot_file_name(path, sizeof(path), kind, a->n_hw > 0 ? a->hw[0] : NULL,
		                        a->n_hw > 1 ? a->hw[1] : NULL);
	if (err == 0)
		err = plot_write(&svg, a->output ? a->output : path, a->png);
	rv_buf_free(&svg);
	return err < 0 ? rv_cli_fail(name) : RV_EXIT_OK;
}

static int plot_roofline(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"plot roofline --hw KEY [--op OP ...] [--output FILE.svg] [--png]",
		"Draw the roofline of a target: operational intensity (FLOP/byte) against FLOP/s, "
		"a roof per memory tier and per dtype from the profile's sustained numbers with "
		"their ridge points, and every measured record of the target's baselines (a marker "
		"per op, a colour per regime label, hollow when the latency missed its band) "
		"joined to its prediction (a cross). Default output: <hw>_roofline.svg in the "
		"current folder.",
		plot_opts, 0, 0
	};
	struct rv_opt_result res;
	struct plot_args a;
	int rc = rv_opt_parse(&spec, argc, argv, &res);

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if ((rc = plot_args(&a, &spec, &res, argc, argv, "plot roofline")) != 0)
		return rc;
	if (a.n_hw != 1)
		return plot_usage(&spec,
		                  "plot roofline: give one --hw KEY (plot compare takes two)");
	return plot_run(&a, RV_PLOT_ROOFLINE, "plot roofline");
}

static int plot_compare(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"plot compare --hw A --hw B [--op OP ...] [--output FILE.svg] [--png]",
		"Draw two targets on one figure: predicted against measured latency of every "
		"record (log-log, with y = x and the narrowest and widest latency bands), and both "
		"rooflines side by side on the same axes. Default output: compare_<A>_<B>.svg in "
		"the current folder.",
		plot_opts, 0, 0
	};
	struct rv_opt_result res;
	struct plot_args a;
	int rc = rv_opt_parse(&spec, argc, argv, &res);

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if ((rc = plot_args(&a, &spec, &res, argc, argv, "plot compare")) != 0)
		return rc;
	if (a.n_hw != 2 || strcmp(a.hw[0], a.hw[1]) == 0)
		return plot_usage(&spec, "plot compare: give two different targets, --hw A --hw B");
	return plot_run(&a, RV_PLOT_COMPARE, "plot compare");
}

static int plot_heatmap(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"plot heatmap [--hw KEY ...] [--op OP ...] [--output FILE.svg] [--png]",
		"Draw the validate heatmap: a row per (hardware, op), a column per regime label, "
		"cells coloured by the share of records passing every check and labelled like "
		"the text report's cells. Default: every target with a baseline, both purposes; "
		"output heatmap.svg in the current folder.",
		plot_opts, 0, 0
	};
	struct rv_opt_result res;
	struct plot_args a;
	int rc = rv_opt_parse(&spec, argc, argv, &res);

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if ((rc = plot_args(&a, &spec, &res, argc, argv, "plot heatmap")) != 0)
		return rc;
	if (a.n_bdir > 1 || a.n_sdir > 1)
		return plot_usage(&spec, "plot heatmap: one --baseline-dir and one --sweep-dir");
	return plot_run(&a, RV_PLOT_HEATMAP, "plot heatmap");
}

/* clang-format off */
static const struct rv_cmd plot_cmds[] = {
	{ "roofline", plot_roofline, "A target's roofline with its measured and predicted points" },
	{ "compare",  plot_compare,  "Two targets: predicted against measured latency, and rooflines" },
	{ "heatmap",  plot_heatmap,  "The validate heatmap as a picture" },
	{ NULL, NULL, NULL },
};
/* clang-format on */

int rv_cmd_plot(int argc, char **argv)
{
	return rv_cli_dispatch("plot", plot_cmds, argc, argv);
}

/* roofval report. */

enum { ROPT_OUTPUT, ROPT_BDIR, ROPT_SDIR, ROPT_HDIR, ROPT_NOFIT };

static const struct rv_opt report_opts[] = {
	{ "output", 'o', "DIR", "folder for index.html and its pictures (made when missing)" },
	{ "baseline-dir", 0, "DIR",
	  "a baseline folder to add to the committed one ($ROOFVAL_BASELINE_DIR, else "
	  "results/baselines/); repeat for several" },
	{ "sweep-dir", 0, "DIR",
	  "the sweeps of the n-th --baseline-dir (default: $ROOFVAL_SWEEP_DIR, else sweeps/)" },
	{ "hardware-dir", 0, "DIR",
	  "hardware folder (default: $ROOFVAL_HARDWARE_DIR, else hardware/)" },
	{ "no-fit", 0, NULL, "ignore hardware/<key>.fit.json: the hand-edited profile alone" },
	{ NULL, 0, NULL, NULL },
};

int rv_cmd_report(int argc, char **argv)
{
	static const struct rv_cmd_spec spec = {
		"report --output DIR [--baseline-dir DIR [--sweep-dir DIR]] ...",
		"Write DIR/index.html: the validation of every committed baseline (and of every "
		"baseline folder given, the n-th --sweep-dir with the n-th --baseline-dir) as "
		"tables, the heatmap, each target's roofline and comparisons of the targets, as "
		"SVG files beside it. Opens from disk; the same inputs give the same bytes.",
		report_opts, 0, 0
	};
	struct rv_opt_result res;
	const char *bdirs[MAX_VALUES], *sdirs[MAX_VALUES];
	struct rv_report_html_opts o;
	struct rv_report_html_result done;
	int n_b, n_s;
	int rc = rv_opt_parse(&spec, argc, argv, &res);

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if (!res.value[ROPT_OUTPUT] || !*res.value[ROPT_OUTPUT])
		return plot_usage(&spec, "report: --output DIR is required");
	n_b = opt_values(bdirs, MAX_VALUES, argc, argv, "baseline-dir");
	n_s = opt_values(sdirs, MAX_VALUES, argc, argv, "sweep-dir");
	if (n_b < 0 || n_s < 0)
		return plot_usage(&spec, "report: too many --baseline-dir or --sweep-dir options");
	if (n_s > n_b)
		return plot_usage(&spec, "report: a --sweep-dir goes with a --baseline-dir");
	o = (struct rv_report_html_opts){ res.value[ROPT_OUTPUT],
		                          bdirs,
		                          (size_t)n_b,
		                          sdirs,
		                          (size_t)n_s,
		                          res.value[ROPT_HDIR],
		                          res.value[ROPT_NOFIT] ? 0 : RV_PROFILE_FIT };
	if (rv_report_html(&o, &done) < 0)
		return rv_cli_fail("report");
	printf("wrote %s/index.html with %zu pictures of %zu targets\n", o.output_dir,
	       done.n_pictures, done.n_targets);
	return RV_EXIT_OK;
}
