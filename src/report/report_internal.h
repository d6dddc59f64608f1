/* SPDX-License-Identifier: MIT */
/* Shared by the renderers of src/report/: the heatmap layout, number and
 * cell formatting, and the three renderers that rv_report_render() calls. */
#ifndef RV_REPORT_REPORT_INTERNAL_H
#define RV_REPORT_REPORT_INTERNAL_H

#include <stddef.h>

#include "core/buf.h"
#include "core/op.h"
#include "core/regime.h"
#include "model/validate.h"

/* The regimes shown as heatmap columns, in order, and their short headers
 * ("alu", "l1", "l2", "dram", "launch"). Records of other labels are not
 * scored, so they have no column. */
#define RV_REPORT_COLUMNS 5
extern const enum rv_regime rv_report__column_regime[RV_REPORT_COLUMNS];
extern const char *const rv_report__column_name[RV_REPORT_COLUMNS];

/* One heatmap row: a (hardware, op) with its cell per column (NULL: no records). */
struct rv_report__row {
	const char *hardware; /* borrowed from the cells */
	enum rv_op op;
	const struct rv_cell *cell[RV_REPORT_COLUMNS];
};

/* Fills row from the cells starting at index i of cells (sorted by hardware,
 * op, regime) and returns the index of the first cell of the next row. */
size_t rv_report__row_at(struct rv_report__row *row, const struct rv_cell *cells, size_t n,
                         size_t i);

/* Text of a heatmap cell: "-" (no records, c NULL or empty), "3OK" (all 3
 * passed), or "12:R1/L3/E1" (12 records; failed checks of regime, latency,
 * energy, non-zero parts only). */
#define RV_REPORT_CELL_SIZE 96
void rv_report__cell_text(char *out, size_t size, const struct rv_cell *c);

/* x with 4 significant digits in fixed notation ("1.235", "0.005778",
 * "12346"), "%.3e" beyond 1e-5 .. 1e9, "n/a" when x is not finite. */
#define RV_REPORT_NUM_SIZE 48
void rv_report__sig4(char *out, size_t size, double x);
/* A fraction as a percentage with one decimal: "+23.5%" when sign is set,
 * else "23.5%"; "n/a" when x is not finite. */
void rv_report__percent(char *out, size_t size, double x, int sign);

/* What bounds record r: "dram" when the binding resource is the memory
 * tier with the most time, else "compute (most memory time: dram)". */
void rv_report__binding(char *out, size_t size, const struct rv_record *r);

/* Appends s on one line: CR, LF, tabs and other control bytes become spaces;
 * with md set, "|" and "\" are escaped for a markdown table cell. */
void rv_report__put_line(struct rv_buf *b, const char *s, int md);

/* The renderers: s and cells are those of v (rv_validation_summary() and
 * rv_validation_cells()). They return 0 or RV_ENOMEM. */
int rv_report__text(struct rv_buf *out, const struct rv_validation *v, const struct rv_summary *s,
                    const struct rv_cell *cells, size_t n_cells);
int rv_report__markdown(struct rv_buf *out, const struct rv_validation *v,
                        const struct rv_summary *s, const struct rv_cell *cells, size_t n_cells);
int rv_report__json(struct rv_buf *out, const struct rv_validation *v, const struct rv_summary *s,
                    const struct rv_cell *cells, size_t n_cells);

#endif
