/* SPDX-License-Identifier: MIT */
/* Shared by the pictures of src/plot/: colours and markers, the points of a
 * validation, and the roofline panel that the roofline and the comparison
 * both draw. */
#ifndef RV_PLOT_PLOT_INTERNAL_H
#define RV_PLOT_PLOT_INTERNAL_H

#include <stddef.h>

#include "core/buf.h"
#include "core/dtype.h"
#include "core/op.h"
#include "core/regime.h"
#include "hw/profile.h"
#include "model/validate.h"
#include "plot/svg.h"

/* Okabe-Ito colours, told apart with the common colour-vision deficiencies. */
const char *rv_plot__regime_colour(enum rv_regime r);
const char *rv_plot__tier_colour(enum rv_tier t);
/* matmul a circle, linear a square, vector_add a triangle. */
enum rv_svg_shape rv_plot__op_shape(enum rv_op op);
/* Whether op is in the set ops (RV_PLOT_ALL_OPS: every op). */
int rv_plot__has_op(unsigned ops, enum rv_op op);

/* Several models on one picture: model m (its index among the models of
 * the validation) in its own colour (apart from the regime colours), with
 * its own filled marker (circle, square, triangle, diamond) and its own
 * glyph for a prediction drawn beside a measurement (x, +, star, ring). */
const char *rv_plot__model_colour(size_t m);
enum rv_svg_shape rv_plot__model_marker(size_t m);
enum rv_svg_shape rv_plot__model_glyph(size_t m);
/* The models of v a picture tells apart: v->n_models, at least 1. */
size_t rv_plot__n_models(const struct rv_validation *v);

/* A record as a point. */
struct rv_plot__point {
	const struct rv_record *rec; /* borrowed from the validation */
	size_t model;                /* the record's model: its index in v->models (0: none) */
	int first;                   /* the first point of its entry: its measurement is drawn */
	enum rv_op op;
	enum rv_dtype dtype;
	enum rv_regime label;
	double intensity_flop_per_B;
	double flop;
	double bytes; /* the compulsory traffic (model/opcount's working set) */
	double meas_s, pred_s;
	double band; /* latency tolerance, a fraction */
	int pass_latency;
};

/* The records of v for hardware hw whose op is in ops, an entry's records
 * (one per model) next to each other, the first of them marked: entries in
 * the order of rv_validation_by_entry(); records without a finite positive
 * latency are left out. free() the array. RV_ENOMEM. */
int rv_plot__points(struct rv_plot__point **out, size_t *n, const struct rv_validation *v,
                    const char *hw, unsigned ops);

/* The roofs of a target: sustained bandwidth per memory tier and sustained
 * peak per dtype drawn (the default dtype and the dtypes of the points, in
 * profile order). */
struct rv_plot__roofs {
	const struct rv_profile *profile;
	enum rv_tier tier[RV_TIER_COUNT];
	double bw_Bps[RV_TIER_COUNT];
	size_t n_tiers;
	enum rv_dtype dtype[RV_DTYPE_COUNT];
	double peak_flop_per_s[RV_DTYPE_COUNT];
	size_t n_ceilings;
	size_t primary; /* the ceiling of the default dtype, for the ridges in the legend */
};

/* RV_ERANGE when the profile has nothing to draw. */
int rv_plot__roofs_of(struct rv_plot__roofs *r, const struct rv_profile *p,
                      const struct rv_plot__point *pts, size_t n);
/* Widens [*x_min, *x_max] x [*y_min, *y_max] (start them at HUGE_VAL,
 * -HUGE_VAL) to hold the points, the predictions and every ridge. */
void rv_plot__roofline_extent(const struct rv_plot__roofs *r, const struct rv_plot__point *pts,
                              size_t n, double *x_min, double *x_max, double *y_min, double *y_max);
/* Axis settings of a roofline on the decades holding that extent. */
void rv_plot__roofline_axes(struct rv_svg_plot *plot, double x_min, double x_max, double y_min,
                            double y_max);
/* Draws the roofs, ridges and points in plot, and the legend at (legend_x,
 * legend_y), legend_w wide; returns the y below the legend. */
double rv_plot__roofline_draw(struct rv_buf *b, const struct rv_svg_plot *plot,
                              const struct rv_plot__roofs *r, const struct rv_plot__point *pts,
                              size_t n, double legend_x, double legend_y, double legend_w);

/* Hover text of point p: its model (with several), entry, regime label,
 * measured and predicted latency, error and verdict. */
#define RV_PLOT_POINT_TITLE 320
void rv_plot__point_title(char *out, size_t size, const struct rv_plot__point *p, int models);

/* Title and subtitle at the top of a figure w_px wide. */
void rv_plot__title(struct rv_buf *b, double w_px, const char *title, const char *subtitle);

#endif
