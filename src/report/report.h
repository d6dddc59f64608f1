/* SPDX-License-Identifier: MIT */
/* Validation reports: the records of a struct rv_validation rendered as plain
 * text for a terminal, markdown for a pull request, or JSON for tools. The
 * output is deterministic (no timestamps, no host names, fixed precision in
 * text and markdown), so golden files hold. */
#ifndef RV_REPORT_REPORT_H
#define RV_REPORT_REPORT_H

#include <stddef.h>

#include "core/buf.h"
#include "model/validate.h"

enum rv_format { RV_FORMAT_TEXT, RV_FORMAT_MARKDOWN, RV_FORMAT_JSON, RV_FORMAT_COUNT };

/* "text", "markdown" or "json". RV_EPARSE naming the known formats otherwise. */
int rv_format_parse(const char *name, enum rv_format *out);
/* The name parsed by rv_format_parse(); "?" for a value out of range. */
const char *rv_format_name(enum rv_format f);

/* Appends the report of v in format f to out. Returns 0, RV_ENOMEM when out
 * (or the report's working memory) could not grow, or RV_EPARSE for a format
 * out of range. JSON follows the schema "roofval.report/1": latencies in ms,
 * energies in J, errors and tolerances as fractions, null for a value that
 * was not measured or not scored; it ends with a newline. */
int rv_report_render(struct rv_buf *out, const struct rv_validation *v, enum rv_format f);

/* What else a report may hold. */
struct rv_report_opts {
	/* The comparison with an earlier run (rv_validation_compare()), listed as
	 * regressions and improvements; NULL: none. */
	const struct rv_comparison *against;
	const char *against_name; /* the earlier report's file, as the report names it */
	/* Text and markdown list each model's failures worst first, and the
	 * shapes several models failed side by side, up to top of each (0:
	 * all); JSON lists every record whatever top is. */
	size_t top;
};
/* rv_report_render() with o (NULL: as rv_report_render()). */
int rv_report_render_opts(struct rv_buf *out, const struct rv_validation *v, enum rv_format f,
                          const struct rv_report_opts *o);

/* Rebuilds, into *old (zeroed first; rv_validation_free() it, also on
 * failure), the records of the JSON report at path enough to compare a run
 * with it: model (a report without one is of the built-in model),
 * hardware, op, shape, dtype, regime label and measured, latency error and
 * the checks; and the report's models. RV_EPARSE, one line naming the
 * file, for a file that is not a "roofval.report/1" report; RV_EIO, RV_ENOENT
 * when it cannot be read; RV_ENOMEM. */
int rv_report_load_json(struct rv_validation *old, const char *path);
/* The same of text in memory (len bytes); path names it in messages (the
 * fuzz target's way in). A folder given as path is refused by the former
 * with a message saying so. */
int rv_report_parse_json(struct rv_validation *old, const char *text, size_t len, const char *path);

/* roofval validate past the validation: v checked (none scored is
 * RV_ENOENT, one line saying what was found and what to do), compared with
 * the report at against_path when not NULL (rv_report_load_json()), rendered
 * in format f and written to output (atomically; NULL: standard output).
 * *verdict gets the exit status: with against_path, 3 when there is a
 * regression, else 0; without, 3 when a record failed, else 0. Nothing is
 * written on an error. */
struct rv_report_gate {
	enum rv_format format;
	const char *output;       /* NULL: standard output */
	const char *against_path; /* NULL: no regression gate */
	double regression_points; /* a cell's median |error| may grow by this much */
	size_t top;               /* as in struct rv_report_opts */
};
int rv_report_validation(const struct rv_validation *v, const struct rv_report_gate *g,
                         int *verdict);
/* The same without the writing: the report appended to out (g->output
 * unused), *verdict as above. */
int rv_report_gate_render(struct rv_buf *out, const struct rv_validation *v,
                          const struct rv_report_gate *g, int *verdict);

/* The HTML report of roofval report: the validation of every baseline of
 * the default baseline folder (rv_layout_open()'s) and of each folder of
 * baseline_dirs (the i-th with the sweeps of sweep_dirs[i], the default
 * sweep folder past n_sweep_dirs; the default baseline folder given again
 * is read once), as tables, the heatmap, each target's roofline and
 * comparisons of the targets, written as output_dir/index.html with its SVG
 * files beside it (output_dir made when missing). A target is taken from
 * the first folder that has it (a note says so for later ones); each
 * profile, sweep and baseline is loaded once. The same inputs give the same
 * bytes. */
struct rv_report_html_opts {
	const char *output_dir;
	const char *const *baseline_dirs;
	size_t n_baseline_dirs;
	const char *const *sweep_dirs;
	size_t n_sweep_dirs;
	const char *hardware_dir; /* NULL: the default */
	unsigned fit_flags;       /* RV_PROFILE_FIT: profiles with their fit */
};
/* What was written. */
struct rv_report_html_result {
	size_t n_pictures, n_targets;
};
/* RV_ENOENT when there are no records to report; RV_ERANGE past
 * RV_REPORT_MAX_TARGETS targets; the loaders' and writers' errors. */
#define RV_REPORT_MAX_TARGETS 64
int rv_report_html(const struct rv_report_html_opts *o, struct rv_report_html_result *out);
/* rv_report_html() of the n_models models (rv_layout_validate_models();
 * none: the built-in model): given only predictions, the report holds that
 * model alone; with several, each model's summary, the models side by side,
 * their disagreements and a heatmap panel per model. (Not fields of struct
 * rv_report_html_opts while callers fill it by position.) */
struct rv_layout_model;
int rv_report_html_models(const struct rv_report_html_opts *o, const struct rv_layout_model *models,
                          size_t n_models, struct rv_report_html_result *out);
/* rv_report_html_models() listing each model's top worst failures and the
 * top shapes side by side, the longest tables collapsed (roofval report
 * --top; 0: all, as rv_report_html_models() does). */
int rv_report_html_top(const struct rv_report_html_opts *o, const struct rv_layout_model *models,
                       size_t n_models, size_t top, struct rv_report_html_result *out);

/* The model for one shape (roofval classify and predict), appended to out:
 * the title "<key> <op> <shape> <dtype>", then every term with the numbers
 * behind it (overhead, compute, each memory tier, GEMM tiles and waves with
 * their efficiencies, fresh pages, the energy terms) as text, or for a
 * prediction also JSON of schema roofval.predict/1 (ending with a newline).
 * A classification has text and JSON (roofval.classify/1), a prediction
 * text and JSON (roofval.predict/1). RV_EPARSE for a format the renderer does
 * not have; RV_ENOMEM. */
#include "core/dtype.h"
#include "core/op.h"
struct rv_classification;
struct rv_prediction;
int rv_report_classification(struct rv_buf *out, const struct rv_profile *p, enum rv_op op,
                             const struct rv_shape *s, enum rv_dtype d,
                             const struct rv_classification *c, enum rv_format f);
int rv_report_prediction(struct rv_buf *out, const struct rv_profile *p, enum rv_op op,
                         const struct rv_shape *s, enum rv_dtype d, const struct rv_prediction *r,
                         enum rv_format f);

/* The calibration report as text (what roofval calibrate prints), and the
 * parameter table alone (what it prints of a refused fit). RV_ENOMEM. */
struct rv_calibration;
int rv_report_calibration(struct rv_buf *out, const struct rv_calibration *c,
                          const struct rv_profile *p);
int rv_report_calibration_params(struct rv_buf *out, const struct rv_calibration *c);

#endif
