/* SPDX-License-Identifier: MIT */
/* Where and why a model is wrong: the signed latency error of every record
 * of a target against its size (FLOPs, bytes) and its operational
 * intensity, three panels on one error axis, each model in its own colour
 * and marker. */
#include "core/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "plot/plot_internal.h"
#include "report/report_internal.h"

#define PANELS     3
#define PANEL_W_PX 256.0
#define PANEL_H_PX 300.0
#define PANEL_X_PX 86.0
#define PANEL_GAP  62.0
#define PANEL_Y_PX 70.0
#define POINT_R_PX 4.0
#define MAX_KEYS   32
#define ERR_CLAMP  5.0 /* the axis spans at most 2^-5 .. 2^5 of the measurement */

/* The error axis: log2(predicted / measured) from lo to hi. */
struct err_axis {
	double lo, hi;
};

static double err_log2(double pred_s, double meas_s)
{
	return log2(pred_s / meas_s);
}

static double err_y(const struct err_axis *a, double l2)
{
	double f = (fmin(fmax(l2, a->lo), a->hi) - a->lo) / (a->hi - a->lo);

	return PANEL_Y_PX + PANEL_H_PX * (1 - f);
}

/* The x of panel k: FLOPs, bytes, operational intensity. */
static double point_x(const struct rv_plot__point *p, int k)
{
	return k == 0 ? p->flop : k == 1 ? p->bytes : p->intensity_flop_per_B;
}

static void draw_axes(struct rv_buf *b, const struct rv_svg_plot *plot, const struct err_axis *ea,
                      int k)
{
	static const double errs[] = { -0.9, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 1, 2, 4, 9 };
	static const char *const titles[PANELS] = { "FLOPs", "bytes (compulsory traffic)",
		                                    "operational intensity (FLOP/byte)" };
	const struct rv_svg_pen grid = { "#e6e6e6", 1, NULL, 0 };
	const struct rv_svg_pen frame = { "#333333", 1, NULL, 0 };
	const struct rv_svg_pen zero = { "#333333", 1.2, NULL, 0 };
	const struct rv_svg_font lab_x = { 11, NULL, RV_SVG_MIDDLE, 0, 0 };
	const struct rv_svg_font lab_y = { 11, NULL, RV_SVG_END, 0, 0 };
	const struct rv_svg_font title = { 13, NULL, RV_SVG_MIDDLE, 0, 0 };
	double bottom = plot->y_px + plot->h_px, right = plot->x_px + plot->w_px;
	int decades = plot->x.hi - plot->x.lo, step = 1;
	char label[64];

	while (step < decades && plot->w_px / ((double)decades / step) < 72)
		step++;
	for (int e = plot->x.lo; e <= plot->x.hi; e++) {
		double x = rv_svg_plot_x(plot, pow(10, e));

		if (e > plot->x.lo && e < plot->x.hi)
			rv_svg_line(b, &grid, x, plot->y_px, x, bottom);
		rv_svg_line(b, &frame, x, bottom, x, bottom + 6);
		if ((e - plot->x.lo) % step == 0) {
			rv_svg_decade_label(label, sizeof(label), e, plot->x.ticks, plot->x.unit);
			rv_svg_text(b, &lab_x, x, bottom + 19, label);
		}
	}
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		double l2 = log2(1 + errs[i]), y;

		if (l2 < ea->lo - 1e-9 || l2 > ea->hi + 1e-9)
			continue;
		y = err_y(ea, l2);
		rv_svg_line(b, fpclassify(errs[i]) == FP_ZERO ? &zero : &grid, plot->x_px, y, right,
		            y);
		rv_svg_line(b, &frame, plot->x_px - 6, y, plot->x_px, y);
		if (fpclassify(errs[i]) == FP_ZERO)
			(void)snprintf(label, sizeof(label), "0%%");
		else
			(void)snprintf(label, sizeof(label), "%+.0f%%", 100 * errs[i]);
		rv_svg_text(b, &lab_y, plot->x_px - 9, y + 4, label);
	}
	rv_svg_rect(b, plot->x_px, plot->y_px, plot->w_px, plot->h_px, NULL, &frame);
	rv_svg_text(b, &title, plot->x_px + plot->w_px / 2, bottom + 40, titles[k]);
}

/* The bands drawn: the narrowest and the widest latency tolerance. */
static void draw_bands(struct rv_buf *b, const struct rv_svg_plot *plot, const struct err_axis *ea,
                       const double band[2])
{
	const struct rv_svg_pen pen[2] = { { "#666666", 1, "6 3", 0 }, { "#666666", 1, "2 3", 0 } };

	for (int k = 0; k < 2 && band[1] > 0; k++) {
		if (k == 1 && !(band[1] > band[0] + 1e-12))
			break;
		for (int sgn = -1; sgn <= 1; sgn += 2) {
			double l2 = log2(1 + sgn * band[k]), y;

			if (!isfinite(l2) || l2 < ea->lo || l2 > ea->hi)
				continue;
			y = err_y(ea, l2);
			rv_svg_line(b, &pen[k], plot->x_px, y, plot->x_px + plot->w_px, y);
		}
	}
}

static struct rv_svg_key *key_add(struct rv_svg_key *keys, size_t *n, enum rv_svg_key_kind kind)
{
	struct rv_svg_key *k = &keys[*n < MAX_KEYS ? *n : MAX_KEYS - 1];

	if (*n < MAX_KEYS)
		(*n)++;
	memset(k, 0, sizeof(*k));
	k->kind = kind;
	return k;
}

static size_t legend_keys(struct rv_svg_key *keys, const struct rv_plot__point *pts, size_t n,
                          size_t n_models, const double band[2])
{
	size_t nk = 0, per_label[RV_REGIME_COUNT] = { 0 }, per_op[RV_OP_COUNT] = { 0 }, shapes = 0;
	struct rv_svg_key *k;
	char a[RV_REPORT_NUM_SIZE], z[RV_REPORT_NUM_SIZE];

	for (size_t i = 0; i < n; i++) {
		shapes += pts[i].first != 0;
		per_label[pts[i].label] += n_models == 1;
		per_op[pts[i].op] += n_models == 1;
	}
	k = key_add(keys, &nk, RV_SVG_KEY_HEADING);
	(void)snprintf(k->text, sizeof(k->text), "%zu shapes measured, %zu predictions", shapes, n);
	if (n_models > 1) {
		for (size_t m = 0; m < n_models; m++) {
			const char *name = NULL;
			size_t count = 0, within = 0;

			for (size_t i = 0; i < n; i++) {
				if (pts[i].model != m)
					continue;
				name = pts[i].rec->model;
				count++;
				within += pts[i].pass_latency != 0;
			}
			if (!name)
				continue;
			k = key_add(keys, &nk, RV_SVG_KEY_MARKER);
			k->shape = rv_plot__model_marker(m);
			k->colour = rv_plot__model_colour(m);
			k->filled = 1;
			(void)snprintf(k->text, sizeof(k->text),
			               "model %.60s (%zu, %zu within band)", name, count, within);
		}
	} else {
		for (int op = 0; op < RV_OP_COUNT; op++) {
			if (per_op[op] == 0)
				continue;
			k = key_add(keys, &nk, RV_SVG_KEY_MARKER);
			k->shape = rv_plot__op_shape((enum rv_op)op);
			k->colour = "#444444";
			k->filled = 1;
			(void)snprintf(k->text, sizeof(k->text), "%s (%zu)",
			               rv_op_name((enum rv_op)op), per_op[op]);
		}
		for (int g = 0; g < RV_REGIME_COUNT; g++) {
			if (per_label[g] == 0)
				continue;
			k = key_add(keys, &nk, RV_SVG_KEY_SWATCH);
			k->colour = rv_plot__regime_colour((enum rv_regime)g);
			(void)snprintf(k->text, sizeof(k->text), "regime label %s (%zu)",
			               rv_regime_name((enum rv_regime)g), per_label[g]);
		}
	}
	k = key_add(keys, &nk, RV_SVG_KEY_NOTE);
	(void)snprintf(k->text, sizeof(k->text),
	               "filled: latency within its band; hollow: outside. Above 0: predicted "
	               "slower than measured");
	if (band[1] > 0) {
		rv_report__percent(a, sizeof(a), band[0], 0);
		rv_report__percent(z, sizeof(z), band[1], 0);
		k = key_add(keys, &nk, RV_SVG_KEY_LINE);
		k->pen = (struct rv_svg_pen){ "#666666", 1, "6 3", 0 };
		(void)snprintf(k->text, sizeof(k->text), "the narrowest latency band, %s", a);
		if (band[1] > band[0] + 1e-12) {
			k = key_add(keys, &nk, RV_SVG_KEY_LINE);
			k->pen = (struct rv_svg_pen){ "#666666", 1, "2 3", 0 };
			(void)snprintf(k->text, sizeof(k->text), "the widest latency band, %s", z);
		}
	}
	return nk;
}

int rv_plot_error(struct rv_buf *out, const struct rv_profile *p, const struct rv_validation *v,
                  unsigned ops)
{
	const double width = PANEL_X_PX + PANELS * PANEL_W_PX + (PANELS - 1) * PANEL_GAP + 30;
	struct rv_plot__point *pts = NULL;
	struct rv_buf body = RV_BUF_INIT;
	struct err_axis ea = { -1, 1 };
	struct rv_svg_plot plot[PANELS];
	struct rv_svg_key keys[MAX_KEYS];
	double band[2] = { HUGE_VAL, 0 }, bottom;
	size_t n = 0, n_models = 1, nk, passed = 0;
	char title[256], subtitle[512], hover[RV_PLOT_POINT_TITLE];
	int err;

	if ((err = rv_plot__points(&pts, &n, v, p->key, ops)) < 0)
		return err;
	for (int k = 0; k < PANELS; k++) {
		double lo = HUGE_VAL, hi = -HUGE_VAL;

		for (size_t i = 0; i < n; i++) {
			lo = fmin(lo, point_x(&pts[i], k));
			hi = fmax(hi, point_x(&pts[i], k));
		}
		memset(&plot[k], 0, sizeof(plot[k]));
		plot[k].x_px = PANEL_X_PX + k * (PANEL_W_PX + PANEL_GAP);
		plot[k].y_px = PANEL_Y_PX;
		plot[k].w_px = PANEL_W_PX;
		plot[k].h_px = PANEL_H_PX;
		rv_svg_decades(n ? lo / 1.2 : 1, n ? hi * 1.2 : 10, &plot[k].x.lo, &plot[k].x.hi);
		plot[k].x.ticks = k == 2 ? RV_SVG_TICKS_PLAIN : RV_SVG_TICKS_SI;
		plot[k].x.unit = k == 0 ? "FLOP" : k == 1 ? "B" : "";
	}
	for (size_t i = 0; i < n; i++) {
		double l2 = err_log2(pts[i].pred_s, pts[i].meas_s);

		ea.lo = fmin(ea.lo, floor(l2));
		ea.hi = fmax(ea.hi, ceil(l2));
		band[0] = fmin(band[0], pts[i].band);
		band[1] = fmax(band[1], pts[i].band);
		n_models = pts[i].model + 1 > n_models ? pts[i].model + 1 : n_models;
		passed += pts[i].pass_latency != 0;
	}
	ea.lo = fmax(ea.lo, -ERR_CLAMP);
	ea.hi = fmin(ea.hi, ERR_CLAMP);
	for (int k = 0; k < PANELS; k++) {
		draw_axes(&body, &plot[k], &ea, k);
		draw_bands(&body, &plot[k], &ea, band);
	}
	{
		const struct rv_svg_font lab = { 13, NULL, RV_SVG_MIDDLE, 0, -90 };

		rv_svg_text(&body, &lab, 20, PANEL_Y_PX + PANEL_H_PX / 2,
		            "latency error (predicted / measured - 1)");
	}
	/* Every record once, in its panel; the hover text says which it is. */
	for (size_t i = 0; i < n; i++) {
		const char *colour = n_models > 1 ? rv_plot__model_colour(pts[i].model)
		                                  : rv_plot__regime_colour(pts[i].label);
		enum rv_svg_shape shape = n_models > 1 ? rv_plot__model_marker(pts[i].model)
		                                       : rv_plot__op_shape(pts[i].op);
		double y = err_y(&ea, err_log2(pts[i].pred_s, pts[i].meas_s));

		rv_plot__point_title(hover, sizeof(hover), &pts[i], n_models > 1);
		for (int k = 0; k < PANELS; k++) {
			rv_svg_group_begin(&body, hover);
			rv_svg_marker(&body, shape, rv_svg_plot_x(&plot[k], point_x(&pts[i], k)), y,
			              POINT_R_PX, colour, pts[i].pass_latency);
			rv_svg_group_end(&body);
		}
	}
	nk = legend_keys(keys, pts, n, n_models, band);
	bottom = rv_svg_legend(&body, PANEL_X_PX, PANEL_Y_PX + PANEL_H_PX + 62,
	                       width - PANEL_X_PX - 20, keys, nk);
	(void)snprintf(title, sizeof(title), "Latency error of %s against size and intensity",
	               p->key);
	(void)snprintf(subtitle, sizeof(subtitle),
	               "%s%s; %zu predictions, %zu with latency in band", p->name,
	               p->fit_path ? "; model with its fit" : "", n, passed);
	rv_svg_begin(out, width, bottom + 12, title);
	rv_plot__title(out, width, title, subtitle);
	rv_buf_add(out, rv_buf_str(&body), body.len);
	rv_svg_end(out);
	free(pts);
	err = rv_buf_check(&body);
	rv_buf_free(&body);
	return err < 0 ? err : rv_buf_check(out);
}
