/* SPDX-License-Identifier: MIT */
/* The validate heatmap as a picture. Rows, columns and cell labels come from
 * the report module's heatmap functions, so the picture and the text report
 * always agree. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "plot/plot.h"
#include "plot/plot_internal.h"
#include "report/report_internal.h"

#define CELL_W_PX 112.0
#define CELL_H_PX 58.0
#define EMPTY_RGB "#f2f2f2"

/* RdYlBu: red for none passing, pale yellow for half, blue for all; told
 * apart with the common colour-vision deficiencies. */
static void rate_colour(char out[8], double rate, int *dark)
{
	static const double stops[3][3] = { { 215, 48, 39 }, { 255, 255, 191 }, { 69, 117, 180 } };
	double f = fmin(fmax(rate, 0), 1) * 2, rgb[3];
	int s = f >= 1 ? 1 : 0;

	f -= s;
	for (int i = 0; i < 3; i++)
		rgb[i] = stops[s][i] + (stops[s + 1][i] - stops[s][i]) * f;
	(void)snprintf(out, 8, "#%02x%02x%02x", (unsigned)lround(rgb[0]) & 0xffu,
	               (unsigned)lround(rgb[1]) & 0xffu, (unsigned)lround(rgb[2]) & 0xffu);
	/* Relative luminance: white text on the dark ends of the scale. */
	*dark = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] < 140;
}

static void heat_cell(struct rv_buf *b, double x, double y, const struct rv_cell *c)
{
	const struct rv_svg_pen edge = { "#ffffff", 2, NULL, 0 };
	struct rv_svg_font big = { 13, NULL, RV_SVG_MIDDLE, 1, 0 };
	struct rv_svg_font small = { 10, NULL, RV_SVG_MIDDLE, 0, 0 };
	char text[RV_REPORT_CELL_SIZE], colour[8], line[96], bias[RV_REPORT_NUM_SIZE];
	char lo[RV_REPORT_NUM_SIZE], hi[RV_REPORT_NUM_SIZE], ape[RV_REPORT_NUM_SIZE], title[512];
	int dark = 0;

	if (!c || c->n_total == 0) {
		rv_svg_rect(b, x, y, CELL_W_PX, CELL_H_PX, EMPTY_RGB, &edge);
		big.colour = "#9a9a9a";
		big.bold = 0;
		rv_svg_text(b, &big, x + CELL_W_PX / 2, y + CELL_H_PX / 2 + 5, "-");
		return;
	}
	rate_colour(colour, (double)c->n_pass / (double)c->n_total, &dark);
	rv_report__percent(lo, sizeof(lo), c->latency_bias.p25, 1);
	rv_report__percent(hi, sizeof(hi), c->latency_bias.p75, 1);
	rv_report__percent(ape, sizeof(ape), c->median_latency_ape, 0);
	(void)snprintf(title, sizeof(title),
	               "%s %s %s %s: %zu of %zu passed, %zu within the latency band; median "
	               "|latency error| %s, median signed error %+.1f%% (quartiles %s to %s)",
	               c->model, c->hardware, rv_op_name(c->op), rv_regime_name(c->regime),
	               c->n_pass, c->n_total, c->n_within_band, ape, 100 * c->latency_bias.median,
	               lo, hi);
	rv_svg_group_begin(b, title);
	rv_svg_rect(b, x, y, CELL_W_PX, CELL_H_PX, colour, &edge);
	big.colour = small.colour = dark ? "#ffffff" : "#1a1a1a";
	rv_report__cell_text(text, sizeof(text), c);
	/* Long labels ("138:R116/L122/E100") shrink to fit the cell. */
	big.size_px *= fmin(1, (CELL_W_PX - 10) / rv_svg_text_width(&big, text));
	rv_svg_text(b, &big, x + CELL_W_PX / 2, y + 19, text);
	(void)snprintf(line, sizeof(line), "%zu of %zu passed", c->n_pass, c->n_total);
	rv_svg_text(b, &small, x + CELL_W_PX / 2, y + 33, line);
	/* The bias (median signed latency error): its direction as an arrow, up
	 * for slow (the model predicts more time than measured), down for fast. */
	rv_report__bias_text(bias, sizeof(bias), c->latency_bias.median);
	(void)snprintf(line, sizeof(line), "%s %s",
	               c->latency_bias.median > 0   ? "\xE2\x96\xB2"
	               : c->latency_bias.median < 0 ? "\xE2\x96\xBC"
	                                            : "=",
	               bias);
	small.bold = 1;
	rv_svg_text(b, &small, x + CELL_W_PX / 2, y + 48, line);
	rv_svg_group_end(b);
}

static double heat_scale(struct rv_buf *b, double x, double y)
{
	const struct rv_svg_font lab = { 11, NULL, RV_SVG_MIDDLE, 0, 0 };
	const struct rv_svg_font cap = { 11, NULL, RV_SVG_START, 0, 0 };
	const double w = 24;
	char colour[8], text[16];
	int dark;

	for (int i = 0; i <= 10; i++) {
		rate_colour(colour, i / 10.0, &dark);
		rv_svg_rect(b, x + i * w, y, w, 14, colour, NULL);
		if (i % 5 == 0) {
			(void)snprintf(text, sizeof(text), "%d%%", i * 10);
			rv_svg_text(b, &lab, x + i * w + w / 2, y + 28, text);
		}
	}
	rv_svg_rect(b, x + 11 * w + 16, y, w, 14, EMPTY_RGB, NULL);
	rv_svg_text(b, &cap, x + 12 * w + 22, y + 11, "no records");
	rv_svg_text(b, &cap, x, y - 8, "share of records passing every check");
	return y + 34;
}

/* The header row at top - 8 and the rows of cells[0..n) from top; returns
 * the y under the last row. */
static double heat_panel(struct rv_buf *out, const struct rv_cell *cells, size_t n, double left,
                         double hw_w, double grid_x, double top)
{
	const struct rv_svg_font head = { 12, NULL, RV_SVG_MIDDLE, 1, 0 };
	const struct rv_svg_font row_hw = { 12, NULL, RV_SVG_START, 1, 0 };
	const struct rv_svg_font row_op = { 12, NULL, RV_SVG_START, 0, 0 };
	const struct rv_svg_pen group = { "#777777", 1, NULL, 0 };
	struct rv_report__row row;
	const char *prev_hw = NULL;
	double y = top;

	rv_svg_text(out, &row_hw, left, top - 8, "hardware");
	rv_svg_text(out, &row_hw, left + hw_w, top - 8, "op");
	for (int c = 0; c < RV_REPORT_COLUMNS; c++)
		rv_svg_text(out, &head, grid_x + (c + 0.5) * CELL_W_PX, top - 8,
		            rv_regime_name(rv_report__column_regime[c]));
	if (n == 0)
		rv_svg_text(out, &row_op, left, y + 24, "No records.");
	for (size_t i = 0; i < n;) {
		i = rv_report__row_at(&row, cells, n, i);
		if (!prev_hw || strcmp(prev_hw, row.hardware) != 0) {
			rv_svg_line(out, &group, left, y, grid_x + RV_REPORT_COLUMNS * CELL_W_PX,
			            y);
			rv_svg_text(out, &row_hw, left, y + CELL_H_PX / 2 + 5, row.hardware);
		}
		prev_hw = row.hardware;
		rv_svg_text(out, &row_op, left + hw_w, y + CELL_H_PX / 2 + 5, rv_op_name(row.op));
		for (int c = 0; c < RV_REPORT_COLUMNS; c++)
			heat_cell(out, grid_x + c * CELL_W_PX, y, row.cell[c]);
		y += CELL_H_PX;
	}
	return y;
}

/* The end of the cells of the model of cells[i]. */
static size_t model_end(const struct rv_cell *cells, size_t n, size_t i)
{
	size_t j = i;

	while (j < n && strcmp(cells[j].model, cells[i].model) == 0)
		j++;
	return j;
}

#define PANEL_TITLE_PX 30.0 /* a model's name above its panel */
#define PANEL_GAP_PX   24.0 /* between one panel's last row and the next title */

int rv_plot_heatmap(struct rv_buf *out, const struct rv_validation *v)
{
	const struct rv_svg_font row_hw = { 12, NULL, RV_SVG_START, 1, 0 };
	const struct rv_svg_font row_op = { 12, NULL, RV_SVG_START, 0, 0 };
	const struct rv_svg_font note = { 11, "#555555", RV_SVG_START, 0, 0 };
	const struct rv_svg_font title = { 13, NULL, RV_SVG_START, 1, 0 };
	struct rv_cell *cells = NULL;
	struct rv_report__row row;
	size_t n_cells = 0, n_rows = 0, n_panels = 0;
	double hw_w = rv_svg_text_width(&row_hw, "hardware"),
	       op_w = rv_svg_text_width(&row_op, "vector_add");
	double left = 20, top = 92, width, height, grid_x, y;
	int err;

	if ((err = rv_validation_cells(v, &cells, &n_cells)) < 0)
		return err;
	for (size_t i = 0; i < n_cells;) {
		i = rv_report__row_at(&row, cells, n_cells, i);
		hw_w = fmax(hw_w, rv_svg_text_width(&row_hw, row.hardware));
		op_w = fmax(op_w, rv_svg_text_width(&row_op, rv_op_name(row.op)));
		n_rows++;
	}
	for (size_t i = 0; i < n_cells; i = model_end(cells, n_cells, i))
		n_panels++;
	hw_w += 18;
	op_w += 18;
	grid_x = left + hw_w + op_w;
	width = fmax(grid_x + RV_REPORT_COLUMNS * CELL_W_PX + 20, 760);
	/* The scale and the three notes below the grid take 140 px. */
	height = top + (double)(n_rows ? n_rows : 1) * CELL_H_PX + 140;
	if (n_panels > 1)
		height += (double)n_panels * PANEL_TITLE_PX + (double)(n_panels - 1) * PANEL_GAP_PX;
	rv_svg_begin(out, width, height, "Validation heatmap");
	rv_plot__title(out, width, "Validation heatmap",
	               n_panels > 1 ? "records by model, hardware, op and regime label, coloured "
	                              "by the share that passed every check"
	                            : "records by hardware, op and regime label, coloured by the "
	                              "share that passed every check");
	if (n_panels <= 1) {
		y = heat_panel(out, cells, n_cells, left, hw_w, grid_x, top);
	} else {
		y = top - 8; /* where the one panel's header would be */
		for (size_t i = 0; i < n_cells;) {
			size_t j = model_end(cells, n_cells, i);
			char text[RV_MODEL_NAME_MAX + 16];

			(void)snprintf(text, sizeof(text), "model: %s", cells[i].model);
			rv_svg_text(out, &title, left, y + 14, text);
			y = heat_panel(out, cells + i, j - i, left, hw_w, grid_x,
			               y + PANEL_TITLE_PX + 8);
			i = j;
			if (i < n_cells)
				y += PANEL_GAP_PX - 8;
		}
	}
	y = heat_scale(out, left, y + 36);
	rv_svg_text(out, &note, left, y + 14,
	            "3OK: 3 records, all passed. 12:R1/L3: 12 records, failed checks: 1 regime, 3 "
	            "latency");
	rv_svg_text(out, &note, left, y + 30,
	            "(R regime, L latency, E energy; a record can fail more than one check).");
	rv_svg_text(out, &note, left, y + 46,
	            "\xE2\x96\xB2 12.5% slow: the median signed latency error (the model predicts "
	            "more time than measured); \xE2\x96\xBC 31.0% fast: less.");
	rv_svg_end(out);
	free(cells);
	return rv_buf_check(out);
}
