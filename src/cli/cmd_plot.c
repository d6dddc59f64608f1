/* SPDX-License-Identifier: MIT */
/* roofval plot (roofline, compare, heatmap) and roofval report: pictures of
 * the validation of committed baselines, as SVG (PNG through rsvg-convert),
 * and an HTML page with the tables and every picture. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/error.h"
#include "hw/profile.h"
#include "io/baseline.h"
#include "io/file.h"
#include "model/validate.h"
#include "plot/plot.h"
#include "plot/svg.h"
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
	const char *bdir[2], *sdir[2], *hdir;
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
	a->hdir = rv_profile_dir(res->value[OPT_HDIR]);
	a->fit_flags = res->value[OPT_NOFIT] ? 0 : RV_PROFILE_FIT;
	return 0;
}

/* The baseline and sweep folders of the i-th target. */
static const char *bdir_of(const struct plot_args *a, int i)
{
	return rv_baseline_dir(a->n_bdir == 0 ? NULL : a->bdir[i < a->n_bdir ? i : 0]);
}

static const char *sdir_of(const struct plot_args *a, int i)
{
	return rv_sweep_dir(a->n_sdir == 0 ? NULL : a->sdir[i < a->n_sdir ? i : 0]);
}

/* Appends the records of hw (NULL: every target) for the ops asked. */
static int load_records(struct rv_validation *v, const struct plot_args *a, const char *hw,
                        const char *bdir, const char *sdir)
{
	size_t total = 0, n;
	int err = 0;

	if (a->n_ops == 0)
		return rv_cli_validation_load(v, bdir, sdir, a->hdir, hw, -1, a->purpose,
		                              a->fit_flags, NULL);
	for (int i = 0; err == 0 && i < a->n_ops; i++) {
		err = rv_cli_validation_load(v, bdir, sdir, a->hdir, hw, (int)a->op[i], a->purpose,
		                             a->fit_flags, &n);
		total += n;
	}
	if (err == 0 && total == 0)
		err = rv_error_set(
		        RV_ENOENT,
		        "no baselines (<hw>_<op>.csv)%s%s of the ops asked in %s; capture "
		        "one on the target, or give their folder with --baseline-dir",
		        hw ? " for " : "", hw ? hw : "", bdir);
	return err;
}

/* out with ".svg" replaced by (or else followed by) ".png". */
static void png_path_of(char *png, size_t size, const char *svg)
{
	size_t len = strlen(svg);

	if (len > 4 && strcmp(svg + len - 4, ".svg") == 0)
		(void)snprintf(png, size, "%.*s.png", (int)(len - 4), svg);
	else
		(void)snprintf(png, size, "%s.png", svg);
}

/* Writes the picture to path (standard output for "-"), then the PNG. */
static int plot_write(const struct rv_buf *svg, const char *path, int png)
{
	char png_path[PATH_MAX + 8];
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
	png_path_of(png_path, sizeof(png_path), path);
	if ((err = rv_plot_png(path, png_path)) < 0)
		return err;
	printf("wrote %s\n", png_path);
	return 0;
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
	struct rv_validation v;
	struct rv_profile *p = NULL;
	struct rv_buf svg = RV_BUF_INIT;
	char path[PATH_MAX];
	int rc = rv_opt_parse(&spec, argc, argv, &res), err;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if ((rc = plot_args(&a, &spec, &res, argc, argv, "plot roofline")) != 0)
		return rc;
	if (a.n_hw != 1)
		return plot_usage(&spec,
		                  "plot roofline: give one --hw KEY (plot compare takes two)");
	memset(&v, 0, sizeof(v));
	err = rv_profile_find(&p, a.hdir, a.hw[0], a.fit_flags);
	if (err == 0)
		err = load_records(&v, &a, a.hw[0], bdir_of(&a, 0), sdir_of(&a, 0));
	if (err == 0)
		err = rv_plot_roofline(&svg, p, &v, a.ops);
	(void)snprintf(path, sizeof(path), "%s_roofline.svg", a.hw[0]);
	if (err == 0)
		err = plot_write(&svg, a.output ? a.output : path, a.png);
	rv_buf_free(&svg);
	rv_validation_free(&v);
	rv_profile_free(p);
	return err < 0 ? rv_cli_fail("plot roofline") : RV_EXIT_OK;
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
	struct rv_validation v[2];
	struct rv_profile *p[2] = { NULL, NULL };
	struct rv_buf svg = RV_BUF_INIT;
	char path[PATH_MAX];
	int rc = rv_opt_parse(&spec, argc, argv, &res), err = 0;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if ((rc = plot_args(&a, &spec, &res, argc, argv, "plot compare")) != 0)
		return rc;
	if (a.n_hw != 2 || strcmp(a.hw[0], a.hw[1]) == 0)
		return plot_usage(&spec, "plot compare: give two different targets, --hw A --hw B");
	memset(v, 0, sizeof(v));
	for (int i = 0; i < 2 && err == 0; i++) {
		err = rv_profile_find(&p[i], a.hdir, a.hw[i], a.fit_flags);
		if (err == 0)
			err = load_records(&v[i], &a, a.hw[i], bdir_of(&a, i), sdir_of(&a, i));
	}
	if (err == 0)
		err = rv_plot_compare(&svg, p[0], &v[0], p[1], &v[1], a.ops);
	(void)snprintf(path, sizeof(path), "compare_%s_%s.svg", a.hw[0], a.hw[1]);
	if (err == 0)
		err = plot_write(&svg, a.output ? a.output : path, a.png);
	rv_buf_free(&svg);
	for (int i = 0; i < 2; i++) {
		rv_validation_free(&v[i]);
		rv_profile_free(p[i]);
	}
	return err < 0 ? rv_cli_fail("plot compare") : RV_EXIT_OK;
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
	struct rv_validation v;
	struct rv_buf svg = RV_BUF_INIT;
	int rc = rv_opt_parse(&spec, argc, argv, &res), err = 0;

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	if ((rc = plot_args(&a, &spec, &res, argc, argv, "plot heatmap")) != 0)
		return rc;
	if (a.n_bdir > 1 || a.n_sdir > 1)
		return plot_usage(&spec, "plot heatmap: one --baseline-dir and one --sweep-dir");
	memset(&v, 0, sizeof(v));
	if (a.n_hw == 0)
		err = load_records(&v, &a, NULL, bdir_of(&a, 0), sdir_of(&a, 0));
	for (int i = 0; i < a.n_hw && err == 0; i++)
		err = load_records(&v, &a, a.hw[i], bdir_of(&a, 0), sdir_of(&a, 0));
	if (err == 0)
		err = rv_plot_heatmap(&svg, &v);
	if (err == 0)
		err = plot_write(&svg, a.output ? a.output : "heatmap.svg", a.png);
	rv_buf_free(&svg);
	rv_validation_free(&v);
	return err < 0 ? rv_cli_fail("plot heatmap") : RV_EXIT_OK;
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

#define REPORT_MAX_SETS    (MAX_VALUES + 1)
#define REPORT_MAX_TARGETS 64
/* Every pair is compared up to this many targets; beyond, each with the next. */
#define REPORT_ALL_PAIRS   4

struct report {
	struct rv_validation v; /* the records of every set, a target from one set only */
	char hw[REPORT_MAX_TARGETS][sizeof(((struct rv_record *)0)->hardware)];
	struct rv_profile *profile[REPORT_MAX_TARGETS];
	size_t n_hw;
	struct rv_buf notes; /* one paragraph per line */
};

static int report_has_hw(const struct report *r, const char *hw)
{
	for (size_t i = 0; i < r->n_hw; i++)
		if (strcmp(r->hw[i], hw) == 0)
			return 1;
	return 0;
}

/* Moves the records and sources of set into r, but the records of a target
 * that an earlier set already brought (noted). */
static int report_take(struct report *r, struct rv_validation *set, const char *bdir)
{
	size_t first = r->n_hw;
	struct rv_record *grown;

	for (size_t i = 0; i < set->n_records; i++) {
		const char *hw = set->records[i].hardware;
		int earlier = 0;

		for (size_t j = 0; j < first; j++)
			earlier |= strcmp(r->hw[j], hw) == 0;
		if (earlier) {
			if (i == 0 || strcmp(set->records[i - 1].hardware, hw) != 0)
				rv_buf_printf(&r->notes,
				              "The baselines of %s in %s are left out: an earlier "
				              "folder has them.\n",
				              hw, bdir);
			continue;
		}
		if (!report_has_hw(r, hw)) {
			if (r->n_hw == REPORT_MAX_TARGETS)
				return rv_error_set(RV_ERANGE, "more than %d targets in one report",
				                    REPORT_MAX_TARGETS);
			(void)snprintf(r->hw[r->n_hw++], sizeof(r->hw[0]), "%s", hw);
		}
		if (r->v.n_records == r->v.cap_records) {
			size_t cap = r->v.cap_records ? 2 * r->v.cap_records : 64;

			grown = realloc(r->v.records, cap * sizeof(*grown));
			if (!grown)
				return rv_error_set(RV_ENOMEM, "out of memory");
			r->v.records = grown;
			r->v.cap_records = cap;
		}
		r->v.records[r->v.n_records++] = set->records[i];
	}
	for (size_t i = 0; i < set->n_sources; i++) {
		char **sources = realloc(r->v.sources, (r->v.n_sources + 1) * sizeof(*sources));

		if (!sources)
			return rv_error_set(RV_ENOMEM, "out of memory");
		r->v.sources = sources;
		r->v.sources[r->v.n_sources++] = set->sources[i];
		set->sources[i] = NULL;
	}
	r->v.skipped_no_baseline += set->skipped_no_baseline;
	r->v.skipped_unsupported += set->skipped_unsupported;
	r->v.skipped_ambiguous += set->skipped_ambiguous;
	return 0;
}

/* Writes svg to dir/name. */
static int report_file(const char *dir, const char *name, const struct rv_buf *data)
{
	char path[PATH_MAX + 256];
	int err = rv_buf_check(data);

	(void)snprintf(path, sizeof(path), "%s/%s", dir, name);
	return err < 0 ? err : rv_file_write_atomic(path, data->data, data->len);
}

static int report_pictures(struct report *r, struct rv_buf *html, const char *dir, size_t *n_pics)
{
	struct rv_buf svg = RV_BUF_INIT;
	char name[256], caption[512];
	int err;

	rv_plot_html_heading(html, 2, "Heatmap");
	err = rv_plot_heatmap(&svg, &r->v);
	if (err == 0)
		err = report_file(dir, "heatmap.svg", &svg);
	rv_plot_html_figure(html, "heatmap.svg",
	                    "Records by hardware, op and regime label, coloured by the share "
	                    "passing every check.");
	(*n_pics)++;
	for (size_t i = 0; i < r->n_hw && err == 0; i++) {
		const struct rv_profile *p = r->profile[i];

		(void)snprintf(caption, sizeof(caption), "%s: %s", p->key, p->name);
		rv_plot_html_heading(html, 2, caption);
		rv_buf_reset(&svg);
		err = rv_plot_roofline(&svg, p, &r->v, RV_PLOT_ALL_OPS);
		(void)snprintf(name, sizeof(name), "%s_roofline.svg", p->key);
		if (err == 0)
			err = report_file(dir, name, &svg);
		(void)snprintf(caption, sizeof(caption),
		               "Roofline of %s: measured points (a marker per op, a colour per "
		               "regime label, hollow when the latency missed its band) joined to "
		               "their predictions (crosses).",
		               p->key);
		rv_plot_html_figure(html, name, caption);
		(*n_pics)++;
		if (err == 0)
			err = rv_plot_html_validation(html, &r->v, p->key);
	}
	if (r->n_hw > 1 && err == 0)
		rv_plot_html_heading(html, 2, "Comparisons");
	for (size_t i = 0; i + 1 < r->n_hw && err == 0; i++) {
		for (size_t j = i + 1; j < r->n_hw && err == 0; j++) {
			if (r->n_hw > REPORT_ALL_PAIRS && j != i + 1)
				break;
			rv_buf_reset(&svg);
			err = rv_plot_compare(&svg, r->profile[i], &r->v, r->profile[j], &r->v,
			                      RV_PLOT_ALL_OPS);
			(void)snprintf(name, sizeof(name), "compare_%s_%s.svg", r->hw[i], r->hw[j]);
			if (err == 0)
				err = report_file(dir, name, &svg);
			(void)snprintf(caption, sizeof(caption),
			               "%s and %s: predicted against measured latency, and both "
			               "rooflines.",
			               r->hw[i], r->hw[j]);
			rv_plot_html_figure(html, name, caption);
			(*n_pics)++;
		}
	}
	rv_buf_free(&svg);
	return err;
}

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
	const char *bdirs[MAX_VALUES], *sdirs[MAX_VALUES], *dir;
	const char *set_b[REPORT_MAX_SETS], *set_s[REPORT_MAX_SETS], *hdir;
	struct report r;
	struct rv_buf html = RV_BUF_INIT;
	struct stat committed;
	int have_committed;
	unsigned fit_flags;
	size_t n_sets = 1, n_pics = 0;
	int n_b, n_s, err = 0;
	int rc = rv_opt_parse(&spec, argc, argv, &res);

	if (rc)
		return rc == 1 ? RV_EXIT_OK : rc;
	dir = res.value[ROPT_OUTPUT];
	if (!dir || !*dir)
		return plot_usage(&spec, "report: --output DIR is required");
	n_b = opt_values(bdirs, MAX_VALUES, argc, argv, "baseline-dir");
	n_s = opt_values(sdirs, MAX_VALUES, argc, argv, "sweep-dir");
	if (n_b < 0 || n_s < 0)
		return plot_usage(&spec, "report: too many --baseline-dir or --sweep-dir options");
	if (n_s > n_b)
		return plot_usage(&spec, "report: a --sweep-dir goes with a --baseline-dir");
	hdir = rv_profile_dir(res.value[ROPT_HDIR]);
	fit_flags = res.value[ROPT_NOFIT] ? 0 : RV_PROFILE_FIT;
	set_b[0] = rv_baseline_dir(NULL);
	set_s[0] = rv_sweep_dir(NULL);
	have_committed = stat(set_b[0], &committed) == 0;
	for (int i = 0; i < n_b; i++) {
		struct stat st;

		/* The committed folder given again is already in. */
		if (have_committed && stat(bdirs[i], &st) == 0 && st.st_dev == committed.st_dev &&
		    st.st_ino == committed.st_ino)
			continue;
		set_b[n_sets] = bdirs[i];
		set_s[n_sets++] = rv_sweep_dir(i < n_s ? sdirs[i] : NULL);
	}

	memset(&r, 0, sizeof(r));
	for (size_t s = 0; s < n_sets && err == 0; s++) {
		struct rv_validation set;
		size_t n_base = 0;

		memset(&set, 0, sizeof(set));
		err = rv_cli_validation_load(&set, set_b[s], set_s[s], hdir, NULL, -1, -1,
		                             fit_flags, &n_base);
		if (err == RV_ENOENT && s == 0 && n_base == 0) {
			/* A checkout without baselines still reports the folders given. */
			rv_buf_printf(&r.notes, "No baselines in %s.\n", set_b[s]);
			err = 0;
		} else if (err == 0 && n_base == 0) {
			rv_buf_printf(&r.notes, "No baselines in %s.\n", set_b[s]);
		}
		if (err == 0)
			err = report_take(&r, &set, set_b[s]);
		/* Sources moved out are NULL; records were copied. */
		rv_validation_free(&set);
	}
	if (err == 0 && r.v.n_records == 0)
		err = rv_error_set(RV_ENOENT,
		                   "no records to report: no baselines in %s%s; give a folder "
		                   "with --baseline-dir",
		                   set_b[0], n_sets > 1 ? " or the folders given" : "");
	for (size_t i = 0; i < r.n_hw && err == 0; i++)
		err = rv_profile_find(&r.profile[i], hdir, r.hw[i], fit_flags);
	if (err == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST)
		err = rv_error_errno(errno, "cannot make the folder %s", dir);
	if (err == 0) {
		rv_plot_html_begin(&html, "roofval validation report");
		rv_buf_printf(&html,
		              "<details>\n<summary>%zu baselines and sweeps validated (calibration "
		              "and validation records)</summary>\n<ul>\n",
		              r.v.n_sources);
		for (size_t i = 0; i < r.v.n_sources; i++) {
			rv_buf_puts(&html, "<li>");
			rv_svg_escape(&html, r.v.sources[i]);
			rv_buf_puts(&html, "</li>\n");
		}
		rv_buf_puts(&html, "</ul>\n</details>\n");
		for (const char *p = rv_buf_str(&r.notes); *p;) {
			size_t len = strcspn(p, "\n");
			char line[1024];

			(void)snprintf(line, sizeof(line), "%.*s", (int)len, p);
			rv_plot_html_para(&html, line);
			p += len + (p[len] == '\n');
		}
		rv_plot_html_heading(&html, 2, "Summary");
		err = rv_plot_html_validation(&html, &r.v, NULL);
	}
	if (err == 0)
		err = report_pictures(&r, &html, dir, &n_pics);
	if (err == 0) {
		rv_plot_html_end(&html);
		err = report_file(dir, "index.html", &html);
	}
	if (err == 0)
		printf("wrote %s/index.html with %zu pictures of %zu targets\n", dir, n_pics,
		       r.n_hw);
	rv_buf_free(&html);
	rv_buf_free(&r.notes);
	for (size_t i = 0; i < r.n_hw; i++)
		rv_profile_free(r.profile[i]);
	rv_validation_free(&r.v);
	return err < 0 ? rv_cli_fail("report") : RV_EXIT_OK;
}
