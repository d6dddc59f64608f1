/* SPDX-License-Identifier: MIT */
/* Pictures of a validation: the roofline of a target with its measured and
 * predicted points, two targets compared, the validate heatmap, all as SVG
 * into an rv_buf (plot/svg.h), and the pieces of an HTML report. The output
 * depends only on the arguments, so golden files hold. */
#ifndef RV_PLOT_PLOT_H
#define RV_PLOT_PLOT_H

#include <stddef.h>

#include "core/buf.h"
#include "core/op.h"
#include "hw/profile.h"
#include "model/validate.h"

/* A set of ops as bits (1u << enum rv_op); 0 stands for every op. */
#define RV_PLOT_ALL_OPS 0u

/* The roofline of profile p: operational intensity (FLOP/byte) against
 * FLOP/s, log-log. A roof per memory tier (effective bandwidth x intensity)
 * up to the effective peak of each dtype drawn (the default dtype and every
 * dtype of the records), ridge points where they meet, and for each record
 * of v for p->key whose op is in ops: the measured point (a marker per op, a
 * colour per regime label, hollow when latency missed its band) and the
 * predicted point (a cross) joined to it. Records of other targets are
 * ignored. Returns 0, RV_ENOMEM, or RV_ERANGE when p has no compute or
 * memory entry to draw. */
int rv_plot_roofline(struct rv_buf *out, const struct rv_profile *p, const struct rv_validation *v,
                     unsigned ops);

/* Two targets on one figure: predicted against measured latency of every
 * record of both (log-log, with y = x and the narrowest and widest latency
 * bands), then the two rooflines side by side on common axes. va and vb may
 * be the same validation. Errors as rv_plot_roofline(). */
int rv_plot_compare(struct rv_buf *out, const struct rv_profile *a, const struct rv_validation *va,
                    const struct rv_profile *b, const struct rv_validation *vb, unsigned ops);

/* Where the model is wrong: the signed latency error of every record of v
 * for p->key whose op is in ops, against its FLOPs, its bytes (the
 * compulsory traffic) and its operational intensity, three panels on one
 * error axis (predicted / measured on a log scale, labelled as the error,
 * clipped at 32 times either way) with the narrowest and widest latency
 * bands. Each record is drawn once per panel, with hover text (<title>):
 * with one model a marker per op and a colour per regime label, with
 * several a colour and marker per model; filled when the latency is within
 * its band. RV_ENOMEM. */
int rv_plot_error(struct rv_buf *out, const struct rv_profile *p, const struct rv_validation *v,
                  unsigned ops);

/* The validate heatmap as a picture: a row per (hardware, op), a column per
 * regime label, cells coloured by pass rate and labelled as the text
 * report's cells ("12:R1/L3") with the pass count; with records of several
 * models, one panel per model, one under the other. RV_ENOMEM. */
int rv_plot_heatmap(struct rv_buf *out, const struct rv_validation *v);

/* Renders the SVG file svg_path to a PNG at png_path (written atomically)
 * with rsvg-convert. RV_ENOTSUP when rsvg-convert is not on PATH (the
 * message says how to install it), RV_EIO when it fails. */
int rv_plot_png(const char *svg_path, const char *png_path);

/* HTML report pieces (UTF-8, no scripts, relative links only). */
void rv_plot_html_begin(struct rv_buf *out, const char *title);
void rv_plot_html_end(struct rv_buf *out);
/* <h2>/<h3> (level 2 or 3) and a paragraph, escaped. */
void rv_plot_html_heading(struct rv_buf *out, int level, const char *text);
/* The same with an anchor: id (NULL: none), escaped, for links to it. */
void rv_plot_html_heading_id(struct rv_buf *out, int level, const char *id, const char *text);
void rv_plot_html_para(struct rv_buf *out, const char *text);
/* A picture (an <object>, so its hover text shows), src relative to the
 * page, with a link to it alone. */
void rv_plot_html_figure(struct rv_buf *out, const char *src, const char *caption);
/* Tables of the records of v for hardware hw (every record when hw is NULL):
 * summary and accuracy, then every record with its checks, failed ones
 * marked. RV_ENOMEM. */
int rv_plot_html_validation(struct rv_buf *out, const struct rv_validation *v, const char *hw);
/* With records of several models: each model's summary, the models side by
 * side per (hardware, op, regime label) with the better one, and how many
 * entries they disagree on (rv_plot_html_shapes() lists them, under the
 * anchor "shapes"); nothing for one model. RV_ENOMEM. */
int rv_plot_html_models(struct rv_buf *out, const struct rv_validation *v);

/* Each model's failures worst first (ranked by |latency error|), the top of
 * them in a table (0: all), the others collapsed under it. RV_ENOMEM. */
int rv_plot_html_worst(struct rv_buf *out, const struct rv_validation *v, size_t top);
/* With records of several models: the shapes a model failed, a row each
 * with every model's prediction, error and verdict, the largest
 * disagreement first; the top of them shown (0: all), the others
 * collapsed. Nothing for one model. RV_ENOMEM. */
int rv_plot_html_shapes(struct rv_buf *out, const struct rv_validation *v, size_t top);

/* Where and why, per (model, hardware, op, regime) cell: records within
 * band, median |latency error|, the bias (median signed error) with its
 * quartiles, and the rate the predictions imply against the one measured.
 * RV_ENOMEM. */
int rv_plot_html_why(struct rv_buf *out, const struct rv_validation *v);
/* The labels the measurements contradict, per (hardware, op), with the
 * relabel command that would fix them (v->labels). RV_ENOMEM. */
int rv_plot_html_labels(struct rv_buf *out, const struct rv_validation *v);

/* A plot of committed baselines, as roofval plot draws it. */
struct rv_layout_model;
enum rv_plot_kind { RV_PLOT_ROOFLINE, RV_PLOT_COMPARE, RV_PLOT_HEATMAP, RV_PLOT_ERROR };

struct rv_plot_opts {
	enum rv_plot_kind kind;
	/* The targets: one for a roofline or an error plot, two for a comparison, any for a
	 * heatmap (none: every target with a baseline). */
	const char *const *hw;
	size_t n_hw;
	const enum rv_op *ops; /* the ops to draw, each once; none: every op */
	size_t n_ops;
	int purpose; /* an enum rv_purpose, or -1: both */
	/* The folders of the i-th target: baseline_dirs[i] (the first when
	 * there are fewer; the default of rv_layout_open() when none), and so
	 * for sweep_dirs. A heatmap reads one of each. */
	const char *const *baseline_dirs;
	size_t n_baseline_dirs;
	const char *const *sweep_dirs;
	size_t n_sweep_dirs;
	const char *hardware_dir; /* NULL: the default */
	unsigned fit_flags;       /* RV_PROFILE_FIT: profiles with their fit */
};

/* Validates the baselines o asks for (each profile, sweep and baseline
 * loaded once, through a layout per folder set) and draws the plot of
 * o->kind into out. RV_ERROR when o->n_hw does not fit the kind; RV_ENOENT
 * when a target has no baseline of the ops asked; the loaders' errors. */
int rv_plot_draw(struct rv_buf *out, const struct rv_plot_opts *o);
/* rv_plot_draw() of the n_models models (rv_layout_validate_models(); none:
 * the built-in model): given only predictions, the plot holds that model
 * alone; the heatmap gets a panel per model. (Not fields of struct
 * rv_plot_opts while callers fill it by position.) */
int rv_plot_draw_models(struct rv_buf *out, const struct rv_plot_opts *o,
                        const struct rv_layout_model *models, size_t n_models);

/* The file name a plot goes to by default: <hw>_roofline.svg,
 * compare_<a>_<b>.svg, heatmap.svg, <hw>_error.svg. RV_ERANGE when it does not fit. */
int rv_plot_file_name(char *out, size_t size, enum rv_plot_kind kind, const char *a, const char *b);

/* The PNG file beside the SVG file svg_path: its ".svg" replaced by, or
 * else followed by, ".png". RV_ERANGE when it does not fit in size. */
int rv_plot_png_path(char *out, size_t size, const char *svg_path);

#endif
