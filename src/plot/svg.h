/* SPDX-License-Identifier: MIT */
/* A small SVG writer into an rv_buf: shapes, text, markers, log-log axes with
 * decade ticks, and legends. Coordinates are in px and printed with "%.2f",
 * text is XML-escaped, and nothing depends on the time or the machine, so the
 * same input gives the same bytes and golden files hold. */
#ifndef RV_PLOT_SVG_H
#define RV_PLOT_SVG_H

#include <stddef.h>

#include "core/buf.h"

/* Fonts tried in order; DejaVu Sans is what Debian's rsvg-convert finds. */
#define RV_SVG_FONT "DejaVu Sans, Helvetica, Arial, sans-serif"

/* Appends s with &, <, >, " and ' escaped and control bytes as spaces, for
 * text and attribute values of SVG and HTML. */
void rv_svg_escape(struct rv_buf *b, const char *s);

/* Opens a document width_px x height_px on a white background; title goes
 * in <title> (what a viewer shows as the name of the picture). */
void rv_svg_begin(struct rv_buf *b, double width_px, double height_px, const char *title);
void rv_svg_end(struct rv_buf *b);

/* How a line is drawn: colour "#rrggbb", width in px, dash pattern ("6 3";
 * NULL: solid), opacity (0 is taken as 1: opaque). */
struct rv_svg_pen {
	const char *colour;
	double width_px;
	const char *dash;
	double opacity;
};

void rv_svg_line(struct rv_buf *b, const struct rv_svg_pen *pen, double x1, double y1, double x2,
                 double y2);
/* A polyline through n points (x[i], y[i]); nothing for n < 2. */
void rv_svg_polyline(struct rv_buf *b, const struct rv_svg_pen *pen, const double *x,
                     const double *y, size_t n);
/* A rectangle filled with fill (NULL: none), outlined with pen (NULL: none). */
void rv_svg_rect(struct rv_buf *b, double x, double y, double w, double h, const char *fill,
                 const struct rv_svg_pen *pen);

enum rv_svg_anchor { RV_SVG_START, RV_SVG_MIDDLE, RV_SVG_END };

struct rv_svg_font {
	double size_px;
	const char *colour; /* NULL: near black */
	enum rv_svg_anchor anchor;
	int bold;
	double rotate_deg; /* about (x, y); -90 reads bottom to top */
};

/* Text with its baseline at y, anchored at x. */
void rv_svg_text(struct rv_buf *b, const struct rv_svg_font *f, double x, double y,
                 const char *text);
/* An estimate of the width of text in f, in px (DejaVu Sans: about 0.6 em a
 * character), for layout only. */
double rv_svg_text_width(const struct rv_svg_font *f, const char *text);

enum rv_svg_shape {
	RV_SVG_CIRCLE,
	RV_SVG_SQUARE,
	RV_SVG_TRIANGLE,
	RV_SVG_DIAMOND,
	RV_SVG_CROSS, /* an x, never filled */
	RV_SVG_PLUS,  /* a +, never filled */
	RV_SVG_STAR,  /* an x over a +, never filled */
	RV_SVG_SHAPE_COUNT
};

/* A marker centred on (x, y), r_px from the centre to its edge, outlined in
 * colour and filled with it when filled is set (else hollow: no fill). */
void rv_svg_marker(struct rv_buf *b, enum rv_svg_shape shape, double x, double y, double r_px,
                   const char *colour, int filled);

/* A group of shapes with hover text: a viewer shows title (escaped) over
 * whatever is drawn between rv_svg_group_begin() and rv_svg_group_end(). */
void rv_svg_group_begin(struct rv_buf *b, const char *title);
void rv_svg_group_end(struct rv_buf *b);

/* Log-log axes. An axis covers the decades 10^lo .. 10^hi (lo < hi). Tick
 * labels are plain numbers ("0.01", "100", "1e+06") or SI-prefixed with a
 * unit ("10 GFLOP/s", "100 µs"). */
enum rv_svg_ticks { RV_SVG_TICKS_PLAIN, RV_SVG_TICKS_SI };

struct rv_svg_axis {
	int lo, hi;
	enum rv_svg_ticks ticks;
	const char *unit;  /* after the SI prefix of a tick label */
	const char *title; /* the axis title, with its unit: "latency (s)" */
};

/* A plot area: its top-left corner and size in px, and its two axes. */
struct rv_svg_plot {
	double x_px, y_px, w_px, h_px;
	struct rv_svg_axis x, y;
};

/* The smallest decades [10^*lo, 10^*hi] holding [min, max] (both > 0 and
 * finite), at least one decade wide. */
void rv_svg_decades(double min, double max, int *lo, int *hi);
/* The label of tick 10^exp10 on an axis with these ticks and unit. */
void rv_svg_decade_label(char *out, size_t size, int exp10, enum rv_svg_ticks ticks,
                         const char *unit);
/* Data value (> 0) to px. */
double rv_svg_plot_x(const struct rv_svg_plot *p, double v);
double rv_svg_plot_y(const struct rv_svg_plot *p, double v);
/* Draws the frame, a light grid at each decade, major ticks with labels at
 * each decade, minor ticks at 2..9 and the two axis titles. */
void rv_svg_axes(struct rv_buf *b, const struct rv_svg_plot *p);

/* Legend entries, drawn top down in a column. */
enum rv_svg_key_kind {
	RV_SVG_KEY_HEADING, /* bold text */
	RV_SVG_KEY_LINE,    /* a line sample in pen */
	RV_SVG_KEY_MARKER,  /* shape in colour, filled or hollow */
	RV_SVG_KEY_PAIR,   /* a hollow circle joined to a cross: a prediction and its measurement */
	RV_SVG_KEY_SWATCH, /* a square of colour */
	RV_SVG_KEY_NOTE    /* grey text, no sample */
};

#define RV_SVG_KEY_TEXT 112

struct rv_svg_key {
	enum rv_svg_key_kind kind;
	char text[RV_SVG_KEY_TEXT];
	struct rv_svg_pen pen;   /* LINE */
	enum rv_svg_shape shape; /* MARKER */
	const char *colour;      /* MARKER, PAIR, SWATCH */
	int filled;              /* MARKER */
};

/* Draws keys from (x, y) down in a column w_px wide, wrapping long text at
 * spaces; returns the y below the last entry. */
double rv_svg_legend(struct rv_buf *b, double x, double y, double w_px,
                     const struct rv_svg_key *keys, size_t n);

#endif
