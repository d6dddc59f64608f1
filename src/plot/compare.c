/* SPDX-License-Identifier: MIT */
/* Two targets on one figure: predicted against measured latency, then their
 * rooflines side by side on the same axes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/stats.h"
#include "plot/plot.h"
#include "plot/plot_internal.h"

/* Black and dark purple: apart from the regime colours of the rooflines below. */
static const char *const target_rgb[2] = { "#1B1B1B", "#7B3294" };

struct side {
	const struct rv_profile *p;
	struct rv_plot__point *pts;
	size_t n, passed;
	double median_ape;
	struct rv_plot__roofs roofs;
};

static int side_load(struct side *s, const struct rv_profile *p, const struct rv_validation *v,
                     unsigned ops)
{
	double *ape;
	int err;

	memset(s, 0, sizeof(*s));
	s->p = p;
	s->median_ape = (double)NAN;
	if ((err = rv_plot__points(&s->pts, &s->n, v, p->key, ops)) < 0)
		return err;
	if ((err = rv_plot__roofs_of(&s->roofs, p, s->pts, s->n)) < 0)
		return err;
	if (s->n == 0)
		return 0;
	ape = malloc(s->n * sizeof(*ape));
	if (!ape)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < s->n; i++) {
		ape[i] = fabs(s->pts[i].pred_s - s->pts[i].meas_s) / s->pts[i].meas_s;
		s->passed += s->pts[i].pass_latency != 0;
	}
	s->median_ape = rv_median(ape, s->n);
	free(ape);
	return 0;
}

/* The scatter of predicted against measured latency of both sides. */
static double scatter(struct rv_buf *b, const struct rv_svg_plot *plot, const struct side *sides,
                      double legend_x, double legend_y, double legend_w)
{
	const struct rv_svg_pen diag = { "#333333", 1.2, NULL, 0 };
	const struct rv_svg_pen band_pen[2] = { { "#666666", 1, "6 3", 0 },
		                                { "#666666", 1, "2 3", 0 } };
	double lo = pow(10, plot->x.lo), hi = pow(10, plot->x.hi);
	double band[2] = { HUGE_VAL, 0 };
	struct rv_svg_key keys[24];
	size_t nk = 0, per_op[RV_OP_COUNT] = { 0 };
	int models = 0;

	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < sides[s].n; i++) {
			band[0] = fmin(band[0], sides[s].pts[i].band);
			band[1] = fmax(band[1], sides[s].pts[i].band);
			per_op[sides[s].pts[i].op]++;
		}
	}
	rv_svg_axes(b, plot);
	rv_svg_line(b, &diag, rv_svg_plot_x(plot, lo), rv_svg_plot_y(plot, lo),
	            rv_svg_plot_x(plot, hi), rv_svg_plot_y(plot, hi));
	for (int k = 0; k < 2 && band[1] > 0; k++) {
		if (k == 1 && !(band[1] > band[0] + 1e-12))
			break;
		/* y = x (1 + band) and y = x (1 - band), clipped to the square. */
		rv_svg_line(b, &band_pen[k], rv_svg_plot_x(plot, lo),
		            rv_svg_plot_y(plot, lo * (1 + band[k])),
		            rv_svg_plot_x(plot, hi / (1 + band[k])), rv_svg_plot_y(plot, hi));
		rv_svg_line(b, &band_pen[k], rv_svg_plot_x(plot, lo / (1 - band[k])),
		            rv_svg_plot_y(plot, lo), rv_svg_plot_x(plot, hi),
		            rv_svg_plot_y(plot, hi * (1 - band[k])));
	}
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < sides[s].n; i++) {
			char title[RV_PLOT_POINT_TITLE];

			models |= sides[s].pts[i].model > 0;
			rv_plot__point_title(title, sizeof(title), &sides[s].pts[i], 1);
			rv_svg_group_begin(b, title);
			rv_svg_marker(b, rv_plot__op_shape(sides[s].pts[i].op),
			              rv_svg_plot_x(plot, sides[s].pts[i].meas_s),
			              rv_svg_plot_y(plot, sides[s].pts[i].pred_s), 4.5,
			              target_rgb[s], sides[s].pts[i].pass_latency);
			rv_svg_group_end(b);
		}
	}

	keys[nk] = (struct rv_svg_key){ RV_SVG_KEY_HEADING, "Targets", { 0 }, 0, NULL, 0 };
	nk++;
	for (int s = 0; s < 2; s++) {
		struct rv_svg_key *k = &keys[nk++];

		*k = (struct rv_svg_key){ RV_SVG_KEY_SWATCH, "", { 0 }, 0, target_rgb[s], 0 };
		if (sides[s].n)
			(void)snprintf(k->text, sizeof(k->text),
			               "%s: %zu %s, %zu with latency in band, median |error| "
			               "%.1f%%",
			               sides[s].p->key, sides[s].n,
			               models ? "predictions (of every model)" : "records",
			               sides[s].passed, 100 * sides[s].median_ape);
		else
			(void)snprintf(k->text, sizeof(k->text), "%s: no records", sides[s].p->key);
	}
	keys[nk++] = (struct rv_svg_key){ RV_SVG_KEY_HEADING, "Ops", { 0 }, 0, NULL, 0 };
	for (int op = 0; op < RV_OP_COUNT; op++) {
		struct rv_svg_key *k;

		if (per_op[op] == 0)
			continue;
		k = &keys[nk++];
		*k = (struct rv_svg_key){
			RV_SVG_KEY_MARKER, "", { 0 }, rv_plot__op_shape((enum rv_op)op),
			"#444444",         1
		};
		(void)snprintf(k->text, sizeof(k->text), "%s (%zu)", rv_op_name((enum rv_op)op),
		               per_op[op]);
	}
	keys[nk++] = (struct rv_svg_key){ RV_SVG_KEY_HEADING, "Lines", { 0 }, 0, NULL, 0 };
	keys[nk++] =
	        (struct rv_svg_key){ RV_SVG_KEY_LINE, "predicted = measured", diag, 0, NULL, 0 };
	for (int k = 0; k < 2 && band[1] > 0; k++) {
		struct rv_svg_key *key;

		if (k == 1 && !(band[1] > band[0] + 1e-12))
			break;
		key = &keys[nk++];
		*key = (struct rv_svg_key){ RV_SVG_KEY_LINE, "", band_pen[k], 0, NULL, 0 };
		(void)snprintf(key->text, sizeof(key->text), "\xC2\xB1%.0f%%: the %slatency band",
		               100 * band[k],
		               k                           ? "widest "
		               : band[1] > band[0] + 1e-12 ? "narrowest "
		                                           : "");
	}
	keys[nk++] = (struct rv_svg_key){ RV_SVG_KEY_MARKER,
		                          "hollow: latency outside its band",
		                          { 0 },
		                          RV_SVG_CIRCLE,
		                          "#444444",
		                          0 };
	return rv_svg_legend(b, legend_x, legend_y, legend_w, keys, nk);
}

int rv_plot_compare(struct rv_buf *out, const struct rv_profile *a, const struct rv_validation *va,
                    const struct rv_profile *b, const struct rv_validation *vb, unsigned ops)
{
	const double width = 1560;
	struct rv_buf body = RV_BUF_INIT;
	const struct rv_svg_font panel = { 14, NULL, RV_SVG_START, 1, 0 };
	struct side sides[2];
	/* The scatter and its legend (360 px) centred in the first row. */
	struct rv_svg_plot sp = { (1560 - 460 - 36 - 360) / 2 + 40,
		                  96,
		                  460,
		                  460,
		                  { 0, 1, RV_SVG_TICKS_SI, "s", "measured latency (s)" },
		                  { 0, 1, RV_SVG_TICKS_SI, "s", "predicted latency (s)" } };
	struct rv_svg_plot rp[2] = { { 110, 680, 400, 400, { 0 }, { 0 } },
		                     { 890, 680, 400, 400, { 0 }, { 0 } } };
	double t_min = HUGE_VAL, t_max = -HUGE_VAL, bottom;
	double x_min = HUGE_VAL, x_max = -HUGE_VAL, y_min = HUGE_VAL, y_max = -HUGE_VAL;
	char title[256], text[256];
	int err;

	memset(sides, 0, sizeof(sides));
	err = side_load(&sides[0], a, va, ops);
	if (err == 0)
		err = side_load(&sides[1], b, vb, ops);
	if (err < 0)
		goto out;
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < sides[s].n; i++) {
			t_min = fmin(t_min,
			             fmin(sides[s].pts[i].meas_s, sides[s].pts[i].pred_s) / 1.3);
			t_max = fmax(t_max,
			             fmax(sides[s].pts[i].meas_s, sides[s].pts[i].pred_s) * 1.3);
		}
		rv_plot__roofline_extent(&sides[s].roofs, sides[s].pts, sides[s].n, &x_min, &x_max,
		                         &y_min, &y_max);
	}
	if (!(t_max > t_min)) {
		t_min = 1e-6;
		t_max = 1;
	}
	rv_svg_decades(t_min, t_max, &sp.x.lo, &sp.x.hi);
	sp.y.lo = sp.x.lo;
	sp.y.hi = sp.x.hi;
	(void)snprintf(title, sizeof(title), "%s and %s compared", a->key, b->key);
	/* The body first: the legends' length sets the height of the picture. */
	rv_svg_text(&body, &panel, sp.x_px, sp.y_px - 14, "Predicted against measured latency");
	bottom = scatter(&body, &sp, sides, sp.x_px + sp.w_px + 36, sp.y_px, 360);
	/* The rooflines start below the scatter and its legend. */
	for (int s = 0; s < 2; s++)
		rp[s].y_px = fmax(sp.y_px + sp.h_px + 124, bottom + 40);
	bottom = rp[0].y_px + rp[0].h_px + 60;
	for (int s = 0; s < 2; s++) {
		rv_plot__roofline_axes(&rp[s], x_min, x_max, y_min, y_max);
		(void)snprintf(text, sizeof(text), "Roofline of %s", sides[s].p->key);
		rv_svg_text(&body, &panel, rp[s].x_px, rp[s].y_px - 14, text);
		bottom = fmax(bottom,
		              rv_plot__roofline_draw(&body, &rp[s], &sides[s].roofs, sides[s].pts,
		                                     sides[s].n, rp[s].x_px + rp[s].w_px + 24,
		                                     rp[s].y_px, 250) +
		                      12);
	}
	rv_svg_begin(out, width, bottom, title);
	rv_plot__title(out, width, title,
	               "predicted against measured latency of every record, and both rooflines "
	               "on the same axes");
	rv_buf_add(out, rv_buf_str(&body), body.len);
	rv_svg_end(out);
	err = rv_buf_check(&body);
	if (err == 0)
		err = rv_buf_check(out);
out:
	rv_buf_free(&body);
	free(sides[0].pts);
	free(sides[1].pts);
	return err;
}
