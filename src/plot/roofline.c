/* SPDX-License-Identifier: MIT */
/* The roofline picture: roofs from the profile's sustained numbers, points
 * from the validation records, and the shared pieces of every picture. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/units.h"
#include "model/opcount.h"
#include "plot/plot.h"
#include "plot/plot_internal.h"
#include "report/report_internal.h"

#define ROOF_PX     1.8
#define POINT_R_PX  4.5
#define CROSS_R_PX  4.0
#define JOIN_PX     0.8
#define CEILING_RGB "#D55E00"
#define MAX_KEYS    48

const char *rv_plot__regime_colour(enum rv_regime r)
{
	switch (r) {
	case RV_REGIME_ALU:
		return "#D55E00"; /* vermillion */
	case RV_REGIME_L1:
		return "#E69F00"; /* orange */
	case RV_REGIME_L2:
		return "#009E73"; /* bluish green */
	case RV_REGIME_DRAM:
		return "#0072B2"; /* blue */
	case RV_REGIME_LAUNCH:
		return "#CC79A7"; /* reddish purple */
	default:
		return "#7F7F7F";
	}
}

const char *rv_plot__tier_colour(enum rv_tier t)
{
	/* The tier's regime colour, so a dram_bound point is drawn like the dram roof. */
	switch (t) {
	case RV_TIER_L1:
		return rv_plot__regime_colour(RV_REGIME_L1);
	case RV_TIER_L2:
		return rv_plot__regime_colour(RV_REGIME_L2);
	case RV_TIER_DRAM:
		return rv_plot__regime_colour(RV_REGIME_DRAM);
	default:
		return "#8C8C8C"; /* l3 has no regime label of its own */
	}
}

enum rv_svg_shape rv_plot__op_shape(enum rv_op op)
{
	switch (op) {
	case RV_OP_LINEAR:
		return RV_SVG_SQUARE;
	case RV_OP_VECTOR_ADD:
		return RV_SVG_TRIANGLE;
	default:
		return RV_SVG_CIRCLE;
	}
}

int rv_plot__has_op(unsigned ops, enum rv_op op)
{
	return ops == RV_PLOT_ALL_OPS || (ops & (1u << op)) != 0;
}

const char *rv_plot__model_colour(size_t m)
{
	/* Dark tones, apart from the regime colours of the measurements. */
	static const char *const rgb[] = { "#1B1B1B", "#7B3294", "#8C510A", "#01665E" };

	return rgb[m % (sizeof(rgb) / sizeof(rgb[0]))];
}

enum rv_svg_shape rv_plot__model_marker(size_t m)
{
	static const enum rv_svg_shape shape[] = { RV_SVG_CIRCLE, RV_SVG_SQUARE, RV_SVG_TRIANGLE,
		                                   RV_SVG_DIAMOND };

	return shape[m % (sizeof(shape) / sizeof(shape[0]))];
}

enum rv_svg_shape rv_plot__model_glyph(size_t m)
{
	static const enum rv_svg_shape shape[] = { RV_SVG_CROSS, RV_SVG_PLUS, RV_SVG_STAR,
		                                   RV_SVG_DIAMOND };

	return shape[m % (sizeof(shape) / sizeof(shape[0]))];
}

size_t rv_plot__n_models(const struct rv_validation *v)
{
	return v->n_models > 1 ? v->n_models : 1;
}

static size_t model_index(const struct rv_validation *v, const char *model)
{
	for (size_t m = 0; m < v->n_models; m++)
		if (strcmp(v->models[m], model) == 0)
			return m;
	return 0;
}

void rv_plot__point_title(char *out, size_t size, const struct rv_plot__point *p, int models)
{
	const struct rv_record *r = p->rec;
	char shape[64], meas[RV_REPORT_NUM_SIZE], pred[RV_REPORT_NUM_SIZE], err[RV_REPORT_NUM_SIZE];

	(void)rv_shape_format(shape, sizeof(shape), &r->shape);
	rv_report__sig4(meas, sizeof(meas), r->latency_meas_s * 1e3);
	rv_report__sig4(pred, sizeof(pred), r->latency_pred_s * 1e3);
	rv_report__percent(err, sizeof(err), r->latency_err, 1);
	(void)snprintf(out, size,
	               "%s%s%s %s %s %s (%s): measured %s ms, predicted %s ms, error %s, %s",
	               models ? r->model : "", models ? ": " : "", r->hardware, rv_op_name(r->op),
	               shape, rv_dtype_name(r->dtype), rv_regime_name(r->regime_label), meas, pred,
	               err, rv_record_passed(r) ? "pass" : "FAIL");
}

int rv_plot__points(struct rv_plot__point **out, size_t *n, const struct rv_validation *v,
                    const char *hw, unsigned ops)
{
	struct rv_plot__point *pts = NULL;
	size_t k = 0, *order = NULL;
	const struct rv_record *prev = NULL;
	int err;

	*out = NULL;
	*n = 0;
	if ((err = rv_validation_by_entry(v, &order)) < 0)
		return err;
	pts = malloc((v->n_records + 1) * sizeof(*pts));
	if (!pts) {
		free(order);
		return rv_error_set(RV_ENOMEM, "out of memory for %zu plot points", v->n_records);
	}
	for (size_t i = 0; i < v->n_records; i++) {
		const struct rv_record *r = &v->records[order[i]];
		struct rv_footprint fp;

		if (strcmp(r->hardware, hw) != 0 || !rv_plot__has_op(ops, r->op))
			continue;
		if (!(isfinite(r->latency_meas_s) && r->latency_meas_s > 0 &&
		      isfinite(r->latency_pred_s) && r->latency_pred_s > 0))
			continue;
		if (rv_footprint_of(&fp, r->op, &r->shape, r->dtype) < 0 || !(fp.flop > 0) ||
		    !(fp.intensity_flop_per_B > 0))
			continue;
		pts[k].rec = r;
		pts[k].model = model_index(v, r->model);
		pts[k].first = !prev || !rv_record_same_entry(prev, r);
		pts[k].op = r->op;
		pts[k].dtype = r->dtype;
		pts[k].label = r->regime_label;
		pts[k].intensity_flop_per_B = fp.intensity_flop_per_B;
		pts[k].flop = fp.flop;
		pts[k].bytes = fp.working_set_B;
		pts[k].meas_s = r->latency_meas_s;
		pts[k].pred_s = r->latency_pred_s;
		pts[k].band = r->band.latency;
		pts[k].pass_latency = r->pass_latency;
		prev = r;
		k++;
	}
	free(order);
	*out = pts;
	*n = k;
	return 0;
}

int rv_plot__roofs_of(struct rv_plot__roofs *r, const struct rv_profile *p,
                      const struct rv_plot__point *pts, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->profile = p;
	for (size_t i = 0; i < p->n_memory; i++) {
		if (!(p->memory[i].effective_bw_Bps > 0))
			continue;
		r->tier[r->n_tiers] = p->memory[i].tier;
		r->bw_Bps[r->n_tiers++] = p->memory[i].effective_bw_Bps;
	}
	for (size_t i = 0; i < p->n_compute; i++) {
		const struct rv_compute *c = &p->compute[i];
		int wanted = c->dtype == p->default_dtype;

		for (size_t j = 0; j < n && !wanted; j++)
			wanted = pts[j].dtype == c->dtype;
		if (!wanted || !(c->effective_flop_per_s > 0))
			continue;
		if (c->dtype == p->default_dtype)
			r->primary = r->n_ceilings;
		r->dtype[r->n_ceilings] = c->dtype;
		r->peak_flop_per_s[r->n_ceilings++] = c->effective_flop_per_s;
	}
	if (r->n_tiers == 0 || r->n_ceilings == 0)
		return rv_error_set(RV_ERANGE, "%s: no sustained bandwidth or peak to draw a roof",
		                    p->key);
	return 0;
}

static double roofs_top(const struct rv_plot__roofs *r)
{
	double top = 0;

	for (size_t c = 0; c < r->n_ceilings; c++)
		top = fmax(top, r->peak_flop_per_s[c]);
	return top;
}

static double roofs_fastest(const struct rv_plot__roofs *r)
{
	double bw = 0;

	for (size_t t = 0; t < r->n_tiers; t++)
		bw = fmax(bw, r->bw_Bps[t]);
	return bw;
}

void rv_plot__roofline_extent(const struct rv_plot__roofs *r, const struct rv_plot__point *pts,
                              size_t n, double *x_min, double *x_max, double *y_min, double *y_max)
{
	for (size_t t = 0; t < r->n_tiers; t++) {
		for (size_t c = 0; c < r->n_ceilings; c++) {
			double ridge = r->peak_flop_per_s[c] / r->bw_Bps[t];

			*x_min = fmin(*x_min, ridge / 4);
			*x_max = fmax(*x_max, ridge * 2);
			*y_max = fmax(*y_max, r->peak_flop_per_s[c] * 1.2);
			/* Without points, room for the roofs to rise into view. */
			if (n == 0)
				*y_min = fmin(*y_min, r->peak_flop_per_s[c] / 1000);
		}
	}
	for (size_t i = 0; i < n; i++) {
		double x = pts[i].intensity_flop_per_B;
		double lo = pts[i].flop / fmax(pts[i].meas_s, pts[i].pred_s);
		double hi = pts[i].flop / fmin(pts[i].meas_s, pts[i].pred_s);

		*x_min = fmin(*x_min, x / 1.2);
		*x_max = fmax(*x_max, x * 1.2);
		*y_min = fmin(*y_min, lo / 1.2);
		*y_max = fmax(*y_max, hi * 1.2);
	}
}

void rv_plot__roofline_axes(struct rv_svg_plot *plot, double x_min, double x_max, double y_min,
                            double y_max)
{
	rv_svg_decades(x_min, x_max, &plot->x.lo, &plot->x.hi);
	rv_svg_decades(y_min, y_max, &plot->y.lo, &plot->y.hi);
	plot->x.ticks = RV_SVG_TICKS_PLAIN;
	plot->x.unit = "";
	plot->x.title = "operational intensity (FLOP/byte)";
	plot->y.ticks = RV_SVG_TICKS_SI;
	plot->y.unit = "FLOP/s";
	plot->y.title = "performance (FLOP/s)";
}

static const char *ceiling_dash(size_t c)
{
	static const char *const dash[] = { NULL, "8 4", "2 3", "8 3 2 3" };

	return dash[c % (sizeof(dash) / sizeof(dash[0]))];
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

static void roof_legend(struct rv_svg_key *keys, size_t *nk, const struct rv_plot__roofs *r)
{
	double primary = r->peak_flop_per_s[r->primary];
	struct rv_svg_key *k;
	char num[48];

	k = key_add(keys, nk, RV_SVG_KEY_HEADING);
	(void)snprintf(k->text, sizeof(k->text), "Roofs (sustained)");
	for (size_t t = 0; t < r->n_tiers; t++) {
		k = key_add(keys, nk, RV_SVG_KEY_LINE);
		k->pen = (struct rv_svg_pen){ rv_plot__tier_colour(r->tier[t]), ROOF_PX, NULL, 0 };
		rv_fmt_si(num, sizeof(num), r->bw_Bps[t], "B/s");
		(void)snprintf(k->text, sizeof(k->text), "%s %s, ridge %.3g FLOP/B",
		               rv_tier_name(r->tier[t]), num, primary / r->bw_Bps[t]);
	}
	for (size_t c = 0; c < r->n_ceilings; c++) {
		k = key_add(keys, nk, RV_SVG_KEY_LINE);
		k->pen = (struct rv_svg_pen){ CEILING_RGB, ROOF_PX, ceiling_dash(c), 0 };
		rv_fmt_si(num, sizeof(num), r->peak_flop_per_s[c], "FLOP/s");
		(void)snprintf(k->text, sizeof(k->text), "%s peak %s", rv_dtype_name(r->dtype[c]),
		               num);
	}
	k = key_add(keys, nk, RV_SVG_KEY_MARKER);
	k->shape = RV_SVG_DIAMOND;
	k->colour = "#333333";
	k->filled = 1;
	if (r->n_ceilings > 1)
		(void)snprintf(k->text, sizeof(k->text),
		               "ridge point: a roof meets a peak (ridges above: at the %s peak)",
		               rv_dtype_name(r->dtype[r->primary]));
	else
		(void)snprintf(k->text, sizeof(k->text), "ridge point: a roof meets the peak");
}

/* The models among the points: one more than the largest index. */
static size_t points_models(const struct rv_plot__point *pts, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		m = pts[i].model + 1 > m ? pts[i].model + 1 : m;
	return m ? m : 1;
}

static void point_legend(struct rv_svg_key *keys, size_t *nk, const struct rv_plot__point *pts,
                         size_t n)
{
	size_t per_op[RV_OP_COUNT] = { 0 }, per_label[RV_REGIME_COUNT] = { 0 }, missed = 0,
	       measured = 0, n_models = points_models(pts, n);
	struct rv_svg_key *k;

	for (size_t i = 0; i < n; i++) {
		missed += !pts[i].pass_latency;
		if (!pts[i].first)
			continue;
		measured++;
		per_op[pts[i].op]++;
		per_label[pts[i].label]++;
	}
	k = key_add(keys, nk, RV_SVG_KEY_HEADING);
	(void)snprintf(k->text, sizeof(k->text), "Measured points (%zu)", measured);
	if (n == 0) {
		k = key_add(keys, nk, RV_SVG_KEY_NOTE);
		(void)snprintf(k->text, sizeof(k->text), "none for this target");
		return;
	}
	for (int op = 0; op < RV_OP_COUNT; op++) {
		if (per_op[op] == 0)
			continue;
		k = key_add(keys, nk, RV_SVG_KEY_MARKER);
		k->shape = rv_plot__op_shape((enum rv_op)op);
		k->colour = "#444444";
		k->filled = 1;
		(void)snprintf(k->text, sizeof(k->text), "%s (%zu)", rv_op_name((enum rv_op)op),
		               per_op[op]);
	}
	k = key_add(keys, nk, RV_SVG_KEY_HEADING);
	(void)snprintf(k->text, sizeof(k->text), "Colour: regime label");
	for (int g = 0; g < RV_REGIME_COUNT; g++) {
		if (per_label[g] == 0)
			continue;
		k = key_add(keys, nk, RV_SVG_KEY_SWATCH);
		k->colour = rv_plot__regime_colour((enum rv_regime)g);
		(void)snprintf(k->text, sizeof(k->text), "%s (%zu)",
		               rv_regime_name((enum rv_regime)g), per_label[g]);
	}
	if (n_models > 1) {
		/* A glyph and a colour per model; the measurement drawn once. */
		k = key_add(keys, nk, RV_SVG_KEY_HEADING);
		(void)snprintf(k->text, sizeof(k->text), "Predictions, joined to the measurement");
		for (size_t m = 0; m < n_models; m++) {
			size_t count = 0, within = 0;
			const char *name = NULL;

			for (size_t i = 0; i < n; i++) {
				if (pts[i].model != m)
					continue;
				name = pts[i].rec->model;
				count++;
				within += pts[i].pass_latency != 0;
			}
			if (!name)
				continue;
			k = key_add(keys, nk, RV_SVG_KEY_MARKER);
			k->shape = rv_plot__model_glyph(m);
			k->colour = rv_plot__model_colour(m);
			(void)snprintf(k->text, sizeof(k->text), "%.60s (%zu, %zu within band)",
			               name, count, within);
		}
		return;
	}
	k = key_add(keys, nk, RV_SVG_KEY_HEADING);
	(void)snprintf(k->text, sizeof(k->text), "Prediction");
	k = key_add(keys, nk, RV_SVG_KEY_MARKER);
	k->shape = RV_SVG_CIRCLE;
	k->colour = "#444444";
	k->filled = 1;
	(void)snprintf(k->text, sizeof(k->text), "latency within its band (%zu)", n - missed);
	k = key_add(keys, nk, RV_SVG_KEY_MARKER);
	k->shape = RV_SVG_CIRCLE;
	k->colour = "#444444";
	k->filled = 0;
	(void)snprintf(k->text, sizeof(k->text), "latency outside its band (%zu)", missed);
	k = key_add(keys, nk, RV_SVG_KEY_PAIR);
	k->colour = "#444444";
	(void)snprintf(k->text, sizeof(k->text), "predicted (x), joined to its measurement");
}

/* Hover text of a measured point: the entry and every model's prediction of it. */
static void measured_title(char *out, size_t size, const struct rv_plot__point *pts, size_t n,
                           size_t i, int models)
{
	size_t len;

	rv_plot__point_title(out, size, &pts[i], models);
	if (!models)
		return;
	/* "model: entry (label): measured ..." of the first; the others' predictions after. */
	for (size_t j = i + 1; j < n && !pts[j].first; j++) {
		char pred[RV_REPORT_NUM_SIZE], err[RV_REPORT_NUM_SIZE];

		len = strlen(out);
		rv_report__sig4(pred, sizeof(pred), pts[j].pred_s * 1e3);
		rv_report__percent(err, sizeof(err), pts[j].rec->latency_err, 1);
		(void)snprintf(out + len, size - len, "; %s: predicted %s ms, error %s, %s",
		               pts[j].rec->model, pred, err,
		               rv_record_passed(pts[j].rec) ? "pass" : "FAIL");
	}
}

double rv_plot__roofline_draw(struct rv_buf *b, const struct rv_svg_plot *plot,
                              const struct rv_plot__roofs *r, const struct rv_plot__point *pts,
                              size_t n, double legend_x, double legend_y, double legend_w)
{
	double x_lo = pow(10, plot->x.lo), x_hi = pow(10, plot->x.hi);
	double y_lo = pow(10, plot->y.lo), top = roofs_top(r), fastest = roofs_fastest(r);
	struct rv_svg_key keys[MAX_KEYS];
	size_t nk = 0;
	int models = points_models(pts, n) > 1;
	char title[RV_PLOT_POINT_TITLE * 2];

	rv_svg_axes(b, plot);
	/* A memory roof rises until the highest peak; each peak starts where the
	 * fastest tier reaches it. Slower tiers cross the lower peaks: a kernel
	 * streaming from them is bound there first. */
	for (size_t t = 0; t < r->n_tiers; t++) {
		const struct rv_svg_pen pen = { rv_plot__tier_colour(r->tier[t]), ROOF_PX, NULL,
			                        0 };
		double bw = r->bw_Bps[t];
		double x0 = fmax(x_lo, y_lo / bw), x1 = fmin(x_hi, top / bw);

		if (x1 > x0)
			rv_svg_line(b, &pen, rv_svg_plot_x(plot, x0), rv_svg_plot_y(plot, bw * x0),
			            rv_svg_plot_x(plot, x1), rv_svg_plot_y(plot, bw * x1));
	}
	for (size_t c = 0; c < r->n_ceilings; c++) {
		const struct rv_svg_pen pen = { CEILING_RGB, ROOF_PX, ceiling_dash(c), 0 };
		double peak = r->peak_flop_per_s[c];
		double x0 = fmax(x_lo, peak / fastest);

		if (x0 < x_hi)
			rv_svg_line(b, &pen, rv_svg_plot_x(plot, x0), rv_svg_plot_y(plot, peak),
			            rv_svg_plot_x(plot, x_hi), rv_svg_plot_y(plot, peak));
	}
	for (size_t t = 0; t < r->n_tiers; t++) {
		for (size_t c = 0; c < r->n_ceilings; c++) {
			double ridge = r->peak_flop_per_s[c] / r->bw_Bps[t];

			if (ridge > x_lo && ridge < x_hi)
				rv_svg_marker(b, RV_SVG_DIAMOND, rv_svg_plot_x(plot, ridge),
				              rv_svg_plot_y(plot, r->peak_flop_per_s[c]), 3.5,
				              "#333333", 1);
		}
	}
	/* Joins and predictions under the measured markers, so no marker is
	 * hidden; with several models each in its colour and glyph. */
	for (size_t i = 0; i < n; i++) {
		const char *colour = models ? rv_plot__model_colour(pts[i].model)
		                            : rv_plot__regime_colour(pts[i].label);
		const struct rv_svg_pen pen = { colour, JOIN_PX, NULL, 0.7 };
		double x = rv_svg_plot_x(plot, pts[i].intensity_flop_per_B);

		rv_svg_line(b, &pen, x, rv_svg_plot_y(plot, pts[i].flop / pts[i].meas_s), x,
		            rv_svg_plot_y(plot, pts[i].flop / pts[i].pred_s));
	}
	for (size_t i = 0; i < n; i++) {
		const char *colour = models ? rv_plot__model_colour(pts[i].model)
		                            : rv_plot__regime_colour(pts[i].label);

		rv_plot__point_title(title, sizeof(title), &pts[i], models);
		rv_svg_group_begin(b, title);
		rv_svg_marker(b, models ? rv_plot__model_glyph(pts[i].model) : RV_SVG_CROSS,
		              rv_svg_plot_x(plot, pts[i].intensity_flop_per_B),
		              rv_svg_plot_y(plot, pts[i].flop / pts[i].pred_s), CROSS_R_PX, colour,
		              0);
		rv_svg_group_end(b);
	}
	/* Each measurement once, whatever the number of models. */
	for (size_t i = 0; i < n; i++) {
		if (!pts[i].first)
			continue;
		measured_title(title, sizeof(title), pts, n, i, models);
		rv_svg_group_begin(b, title);
		rv_svg_marker(b, rv_plot__op_shape(pts[i].op),
		              rv_svg_plot_x(plot, pts[i].intensity_flop_per_B),
		              rv_svg_plot_y(plot, pts[i].flop / pts[i].meas_s), POINT_R_PX,
		              rv_plot__regime_colour(pts[i].label), models || pts[i].pass_latency);
		rv_svg_group_end(b);
	}
	roof_legend(keys, &nk, r);
	point_legend(keys, &nk, pts, n);
	return rv_svg_legend(b, legend_x, legend_y, legend_w, keys, nk);
}

void rv_plot__title(struct rv_buf *b, double w_px, const char *title, const char *subtitle)
{
	const struct rv_svg_font tf = { 17, NULL, RV_SVG_MIDDLE, 1, 0 };
	const struct rv_svg_font sf = { 12, "#555555", RV_SVG_MIDDLE, 0, 0 };

	rv_svg_text(b, &tf, w_px / 2, 26, title);
	if (subtitle)
		rv_svg_text(b, &sf, w_px / 2, 45, subtitle);
}

int rv_plot_roofline(struct rv_buf *out, const struct rv_profile *p, const struct rv_validation *v,
                     unsigned ops)
{
	const double width = 1000;
	struct rv_buf body = RV_BUF_INIT;
	struct rv_svg_plot plot = {
		118, 64, 560, 500, { 0, 1, 0, NULL, NULL }, { 0, 1, 0, NULL, NULL }
	};
	struct rv_plot__point *pts = NULL;
	struct rv_plot__roofs roofs;
	double x_min = HUGE_VAL, x_max = -HUGE_VAL, y_min = HUGE_VAL, y_max = -HUGE_VAL;
	char title[256], subtitle[512];
	size_t n = 0, passed = 0, shapes = 0, n_models = 0;
	double bottom;
	int err;

	if ((err = rv_plot__points(&pts, &n, v, p->key, ops)) < 0)
		return err;
	if ((err = rv_plot__roofs_of(&roofs, p, pts, n)) < 0) {
		free(pts);
		return err;
	}
	for (size_t i = 0; i < n; i++) {
		passed += pts[i].pass_latency != 0;
		shapes += pts[i].first != 0;
		n_models = pts[i].model + 1 > n_models ? pts[i].model + 1 : n_models;
	}
	rv_plot__roofline_extent(&roofs, pts, n, &x_min, &x_max, &y_min, &y_max);
	rv_plot__roofline_axes(&plot, x_min, x_max, y_min, y_max);
	(void)snprintf(title, sizeof(title), "Roofline of %s", p->key);
	if (n_models > 1)
		(void)snprintf(subtitle, sizeof(subtitle),
		               "%s%s; %zu shapes measured, %zu predictions of %zu models, %zu with "
		               "latency in band",
		               p->name, p->fit_path ? "; model with its fit" : "", shapes, n,
		               n_models, passed);
	else
		(void)snprintf(subtitle, sizeof(subtitle),
		               "%s%s; %zu records, %zu with latency in band", p->name,
		               p->fit_path ? "; model with its fit" : "", n, passed);
	/* The body first: the legend's length sets the height of the picture. */
	bottom = rv_plot__roofline_draw(&body, &plot, &roofs, pts, n, plot.x_px + plot.w_px + 30,
	                                plot.y_px, width - (plot.x_px + plot.w_px + 30) - 12);
	bottom = fmax(bottom + 12, plot.y_px + plot.h_px + 60);
	rv_svg_begin(out, width, bottom, title);
	rv_plot__title(out, width, title, subtitle);
	rv_buf_add(out, rv_buf_str(&body), body.len);
	rv_svg_end(out);
	free(pts);
	err = rv_buf_check(&body);
	rv_buf_free(&body);
	return err < 0 ? err : rv_buf_check(out);
}
