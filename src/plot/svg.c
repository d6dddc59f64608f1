/* SPDX-License-Identifier: MIT */
/* The SVG writer: every number printed with "%.2f", so pictures are
 * byte-for-byte reproducible. */
#include "plot/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SVG_INK              "#222222"
#define SVG_GREY             "#555555"
#define SVG_GRID             "#e4e4e4"
#define SVG_FRAME            "#444444"
#define SVG_MARKER_STROKE_PX 1.4

void rv_svg_escape(struct rv_buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		switch (*p) {
		case '&':
			rv_buf_puts(b, "&amp;");
			break;
		case '<':
			rv_buf_puts(b, "&lt;");
			break;
		case '>':
			rv_buf_puts(b, "&gt;");
			break;
		case '"':
			rv_buf_puts(b, "&quot;");
			break;
		case '\'':
			rv_buf_puts(b, "&#39;");
			break;
		default:
			/* Control bytes are not allowed in XML 1.0 text. */
			rv_buf_putc(b, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
			break;
		}
	}
}

void rv_svg_begin(struct rv_buf *b, double width_px, double height_px, const char *title)
{
	rv_buf_printf(b,
	              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.2f\" height=\"%.2f\" "
	              "viewBox=\"0 0 %.2f %.2f\" font-family=\"%s\" font-size=\"12\">\n<title>",
	              width_px, height_px, width_px, height_px, RV_SVG_FONT);
	rv_svg_escape(b, title);
	rv_buf_puts(b, "</title>\n");
	rv_svg_rect(b, 0, 0, width_px, height_px, "#ffffff", NULL);
}

void rv_svg_end(struct rv_buf *b)
{
	rv_buf_puts(b, "</svg>\n");
}

static void svg_pen(struct rv_buf *b, const struct rv_svg_pen *pen)
{
	rv_buf_printf(b, " stroke=\"%s\" stroke-width=\"%.2f\"",
	              pen->colour ? pen->colour : SVG_INK, pen->width_px);
	if (pen->dash)
		rv_buf_printf(b, " stroke-dasharray=\"%s\"", pen->dash);
	if (pen->opacity > 0 && pen->opacity < 1)
		rv_buf_printf(b, " stroke-opacity=\"%.2f\"", pen->opacity);
}

void rv_svg_line(struct rv_buf *b, const struct rv_svg_pen *pen, double x1, double y1, double x2,
                 double y2)
{
	rv_buf_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", x1, y1, x2, y2);
	svg_pen(b, pen);
	rv_buf_puts(b, "/>\n");
}

void rv_svg_polyline(struct rv_buf *b, const struct rv_svg_pen *pen, const double *x,
                     const double *y, size_t n)
{
	if (n < 2)
		return;
	rv_buf_puts(b, "<polyline points=\"");
	for (size_t i = 0; i < n; i++)
		rv_buf_printf(b, "%s%.2f,%.2f", i ? " " : "", x[i], y[i]);
	rv_buf_puts(b, "\" fill=\"none\"");
	svg_pen(b, pen);
	rv_buf_puts(b, " stroke-linejoin=\"round\"/>\n");
}

void rv_svg_rect(struct rv_buf *b, double x, double y, double w, double h, const char *fill,
                 const struct rv_svg_pen *pen)
{
	rv_buf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"",
	              x, y, w, h, fill ? fill : "none");
	if (pen)
		svg_pen(b, pen);
	rv_buf_puts(b, "/>\n");
}

void rv_svg_text(struct rv_buf *b, const struct rv_svg_font *f, double x, double y,
                 const char *text)
{
	static const char *const anchors[] = { "start", "middle", "end" };

	rv_buf_printf(b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.2f\" fill=\"%s\"", x, y,
	              f->size_px, f->colour ? f->colour : SVG_INK);
	if (f->anchor != RV_SVG_START)
		rv_buf_printf(b, " text-anchor=\"%s\"", anchors[f->anchor == RV_SVG_END ? 2 : 1]);
	if (f->bold)
		rv_buf_puts(b, " font-weight=\"bold\"");
	if (fabs(f->rotate_deg) > 1e-9)
		rv_buf_printf(b, " transform=\"rotate(%.2f %.2f %.2f)\"", f->rotate_deg, x, y);
	rv_buf_putc(b, '>');
	rv_svg_escape(b, text);
	rv_buf_puts(b, "</text>\n");
}

double rv_svg_text_width(const struct rv_svg_font *f, const char *text)
{
	size_t chars = 0;

	/* Count characters, not bytes: UTF-8 continuation bytes are 10xxxxxx. */
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if ((*p & 0xc0) != 0x80)
			chars++;
	return (double)chars * f->size_px * (f->bold ? 0.65 : 0.6);
}

void rv_svg_marker(struct rv_buf *b, enum rv_svg_shape shape, double x, double y, double r_px,
                   const char *colour, int filled)
{
	const char *fill =
	        filled && shape != RV_SVG_CROSS && shape != RV_SVG_PLUS && shape != RV_SVG_STAR
	                ? colour
	                : "none";
	double h, s, d;

	switch (shape) {
	case RV_SVG_SQUARE:
		/* Sides of 1.8 r: about the area of the circle, so no op looks heavier. */
		s = 0.9 * r_px;
		rv_buf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"",
		              x - s, y - s, 2 * s, 2 * s);
		break;
	case RV_SVG_TRIANGLE:
		/* Equilateral, pointing up, centred on its centroid, of the circle's area. */
		s = 2.69 * r_px;
		h = s * 0.8660254037844386;
		rv_buf_printf(b, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\"", x,
		              y - 2 * h / 3, x - s / 2, y + h / 3, x + s / 2, y + h / 3);
		break;
	case RV_SVG_DIAMOND:
		d = 1.25 * r_px;
		rv_buf_printf(b, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f\"", x,
		              y - d, x + d, y, x, y + d, x - d, y);
		break;
	case RV_SVG_CROSS:
		d = 0.8 * r_px;
		rv_buf_printf(b, "<path d=\"M%.2f,%.2f L%.2f,%.2f M%.2f,%.2f L%.2f,%.2f\"", x - d,
		              y - d, x + d, y + d, x - d, y + d, x + d, y - d);
		break;
	case RV_SVG_PLUS:
		d = 1.1 * r_px;
		rv_buf_printf(b, "<path d=\"M%.2f,%.2f L%.2f,%.2f M%.2f,%.2f L%.2f,%.2f\"", x - d,
		              y, x + d, y, x, y - d, x, y + d);
		break;
	case RV_SVG_STAR:
		d = 0.8 * r_px;
		h = 1.1 * r_px;
		rv_buf_printf(b,
		              "<path d=\"M%.2f,%.2f L%.2f,%.2f M%.2f,%.2f L%.2f,%.2f M%.2f,%.2f "
		              "L%.2f,%.2f\"",
		              x - d, y - d, x + d, y + d, x - d, y + d, x + d, y - d, x, y - h, x,
		              y + h);
		break;
	default:
		rv_buf_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"", x, y, r_px);
		break;
	}
	rv_buf_printf(b, " fill=\"%s\" stroke=\"%s\" stroke-width=\"%.2f\"/>\n", fill, colour,
	              SVG_MARKER_STROKE_PX);
}

void rv_svg_group_begin(struct rv_buf *b, const char *title)
{
	rv_buf_puts(b, "<g><title>");
	rv_svg_escape(b, title);
	rv_buf_puts(b, "</title>\n");
}

void rv_svg_group_end(struct rv_buf *b)
{
	rv_buf_puts(b, "</g>\n");
}

void rv_svg_decades(double min, double max, int *lo, int *hi)
{
	double a = min > 0 && isfinite(min) ? log10(min) : 0;
	double z = max > 0 && isfinite(max) ? log10(max) : a + 1;

	*lo = (int)floor(a);
	*hi = (int)ceil(z);
	if (*hi <= *lo)
		*hi = *lo + 1;
}

void rv_svg_decade_label(char *out, size_t size, int exp10, enum rv_svg_ticks ticks,
                         const char *unit)
{
	static const char *const prefix[] = { "f", "p", "n", "µ", "m", "",
		                              "k", "M", "G", "T", "P", "E" };
	int k, m;

	if (ticks == RV_SVG_TICKS_PLAIN) {
		if (exp10 >= 0 && exp10 <= 5)
			(void)snprintf(out, size, "%.0f", pow(10, exp10));
		else if (exp10 < 0 && exp10 >= -4)
			(void)snprintf(out, size, "%.*f", -exp10, pow(10, exp10));
		else
			(void)snprintf(out, size, "1e%d", exp10);
		return;
	}
	/* Floor division: the prefix of 10^-4 is µ (10^-6), with mantissa 100. */
	k = exp10 >= 0 ? exp10 / 3 : -((-exp10 + 2) / 3);
	m = exp10 - 3 * k;
	if (k < -5 || k > 6) {
		(void)snprintf(out, size, "1e%d %s", exp10, unit ? unit : "");
		return;
	}
	(void)snprintf(out, size, "%s %s%s",
	               m == 0   ? "1"
	               : m == 1 ? "10"
	                        : "100",
	               prefix[k + 5], unit ? unit : "");
}

static double axis_frac(const struct rv_svg_axis *a, double v)
{
	return (log10(v) - a->lo) / (double)(a->hi - a->lo);
}

double rv_svg_plot_x(const struct rv_svg_plot *p, double v)
{
	return p->x_px + p->w_px * axis_frac(&p->x, v);
}

double rv_svg_plot_y(const struct rv_svg_plot *p, double v)
{
	return p->y_px + p->h_px * (1 - axis_frac(&p->y, v));
}

/* Every how many decades a label fits: labels need about min_px each. */
static int label_step(int decades, double length_px, double min_px)
{
	int step = 1;

	while (step < decades && length_px / ((double)decades / step) < min_px)
		step++;
	return step;
}

void rv_svg_axes(struct rv_buf *b, const struct rv_svg_plot *p)
{
	const struct rv_svg_pen grid = { SVG_GRID, 1, NULL, 0 };
	const struct rv_svg_pen tick = { SVG_FRAME, 1, NULL, 0 };
	const struct rv_svg_font lab_x = { 11, SVG_INK, RV_SVG_MIDDLE, 0, 0 };
	const struct rv_svg_font lab_y = { 11, SVG_INK, RV_SVG_END, 0, 0 };
	struct rv_svg_font title = { 13, SVG_INK, RV_SVG_MIDDLE, 0, 0 };
	double right = p->x_px + p->w_px, bottom = p->y_px + p->h_px, widest = 0;
	char label[64];
	int step_x, step_y;

	step_x = label_step(p->x.hi - p->x.lo, p->w_px, 56);
	step_y = label_step(p->y.hi - p->y.lo, p->h_px, 28);
	for (int e = p->x.lo; e <= p->x.hi; e++) {
		double x = rv_svg_plot_x(p, pow(10, e));

		if (e > p->x.lo && e < p->x.hi)
			rv_svg_line(b, &grid, x, p->y_px, x, bottom);
	}
	for (int e = p->y.lo; e <= p->y.hi; e++) {
		double y = rv_svg_plot_y(p, pow(10, e));

		if (e > p->y.lo && e < p->y.hi)
			rv_svg_line(b, &grid, p->x_px, y, right, y);
	}
	rv_svg_rect(b, p->x_px, p->y_px, p->w_px, p->h_px, NULL, &tick);
	for (int e = p->x.lo; e <= p->x.hi; e++) {
		double x = rv_svg_plot_x(p, pow(10, e));

		rv_svg_line(b, &tick, x, bottom, x, bottom + 6);
		for (int m = 2; m <= 9 && e < p->x.hi; m++) {
			double xm = rv_svg_plot_x(p, m * pow(10, e));

			rv_svg_line(b, &tick, xm, bottom, xm, bottom + 3);
		}
		if ((e - p->x.lo) % step_x == 0) {
			rv_svg_decade_label(label, sizeof(label), e, p->x.ticks, p->x.unit);
			rv_svg_text(b, &lab_x, x, bottom + 19, label);
		}
	}
	for (int e = p->y.lo; e <= p->y.hi; e++) {
		double y = rv_svg_plot_y(p, pow(10, e));

		rv_svg_line(b, &tick, p->x_px - 6, y, p->x_px, y);
		for (int m = 2; m <= 9 && e < p->y.hi; m++) {
			double ym = rv_svg_plot_y(p, m * pow(10, e));

			rv_svg_line(b, &tick, p->x_px - 3, ym, p->x_px, ym);
		}
		if ((e - p->y.lo) % step_y == 0) {
			rv_svg_decade_label(label, sizeof(label), e, p->y.ticks, p->y.unit);
			rv_svg_text(b, &lab_y, p->x_px - 9, y + 4, label);
			widest = fmax(widest, rv_svg_text_width(&lab_y, label));
		}
	}
	if (p->x.title)
		rv_svg_text(b, &title, p->x_px + p->w_px / 2, bottom + 40, p->x.title);
	if (p->y.title) {
		title.rotate_deg = -90;
		rv_svg_text(b, &title, p->x_px - 9 - widest - 12, p->y_px + p->h_px / 2,
		            p->y.title);
	}
}

/* Splits text into lines of at most width_px in font f, at spaces; returns
 * the number of lines, each NUL-terminated in lines[i]. */
#define KEY_MAX_LINES 4
static int key_wrap(char lines[KEY_MAX_LINES][RV_SVG_KEY_TEXT], const char *text,
                    const struct rv_svg_font *f, double width_px)
{
	int n = 0;
	const char *p = text;

	while (*p && n < KEY_MAX_LINES) {
		size_t fit = 0, len = strlen(p);

		/* Longest prefix ending at a space (or the end) that fits. */
		for (size_t i = 1; i <= len; i++) {
			if (i < len && p[i] != ' ')
				continue;
			(void)snprintf(lines[n], RV_SVG_KEY_TEXT, "%.*s", (int)i, p);
			if (fit > 0 && rv_svg_text_width(f, lines[n]) > width_px)
				break;
			fit = i;
		}
		if (n == KEY_MAX_LINES - 1)
			fit = len;
		(void)snprintf(lines[n++], RV_SVG_KEY_TEXT, "%.*s", (int)fit, p);
		p += fit;
		while (*p == ' ')
			p++;
	}
	return n;
}

double rv_svg_legend(struct rv_buf *b, double x, double y, double w_px,
                     const struct rv_svg_key *keys, size_t n)
{
	const double line_px = 16, sample_px = 28;
	char lines[KEY_MAX_LINES][RV_SVG_KEY_TEXT];

	for (size_t i = 0; i < n; i++) {
		const struct rv_svg_key *k = &keys[i];
		struct rv_svg_font f = { 11, SVG_INK, RV_SVG_START, 0, 0 };
		double tx = x + sample_px, cy = y + line_px / 2 - 1;
		int n_lines;

		switch (k->kind) {
		case RV_SVG_KEY_HEADING:
			if (i > 0)
				y += 8;
			cy = y + line_px / 2 - 1;
			f.size_px = 12;
			f.bold = 1;
			tx = x;
			break;
		case RV_SVG_KEY_NOTE:
			f.colour = SVG_GREY;
			tx = x;
			break;
		case RV_SVG_KEY_LINE:
			rv_svg_line(b, &k->pen, x + 2, cy, x + sample_px - 6, cy);
			break;
		case RV_SVG_KEY_MARKER:
			rv_svg_marker(b, k->shape, x + sample_px / 2 - 3, cy, 4.5, k->colour,
			              k->filled);
			break;
		case RV_SVG_KEY_PAIR: {
			const struct rv_svg_pen join = { k->colour, 0.8, NULL, 0.7 };

			rv_svg_line(b, &join, x + 6, cy, x + sample_px - 9, cy);
			rv_svg_marker(b, RV_SVG_CIRCLE, x + 6, cy, 3.5, k->colour, 1);
			rv_svg_marker(b, RV_SVG_CROSS, x + sample_px - 9, cy, 4, k->colour, 0);
			break;
		}
		case RV_SVG_KEY_SWATCH:
			rv_svg_rect(b, x + 4, cy - 6, 14, 12, k->colour, NULL);
			break;
		}
		n_lines = key_wrap(lines, k->text, &f, w_px - (tx - x));
		for (int l = 0; l < n_lines; l++)
			rv_svg_text(b, &f, tx, y + 12 + l * 14, lines[l]);
		y += line_px + (n_lines > 1 ? (n_lines - 1) * 14 : 0);
	}
	return y;
}
