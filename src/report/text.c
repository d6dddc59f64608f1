/* SPDX-License-Identifier: MIT */
/* The plain-text report, for a terminal: sources, a heatmap of verdicts per
 * (hardware, op) and regime, totals and accuracy, then each failed record.
 * Columns are padded to their widest entry and no line ends in a space. */
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "core/op.h"
#include "core/regime.h"
#include "model/predict.h"
#include "report/report_internal.h"

#define LABEL_WIDTH 9 /* "latency  ", the detail labels of a failure */

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* s left-aligned in width columns. */
static void put_left(struct rv_buf *b, const char *s, size_t width)
{
	size_t len = strlen(s);

	rv_buf_puts(b, s);
	for (; len < width; len++)
		rv_buf_putc(b, ' ');
}

/* s right-aligned in width columns. */
static void put_right(struct rv_buf *b, const char *s, size_t width)
{
	for (size_t len = strlen(s); len < width; len++)
		rv_buf_putc(b, ' ');
	rv_buf_puts(b, s);
}

static void text_heatmap(struct rv_buf *b, const struct rv_cell *cells, size_t n)
{
	size_t w_hw = strlen("hardware"), w_op = strlen("op"), w_col[RV_REPORT_COLUMNS];
	struct rv_report__row row;
	char text[RV_REPORT_CELL_SIZE];
	size_t i;

	rv_buf_puts(b, "heatmap: records by hardware, op and regime label\n");
	if (n == 0) {
		rv_buf_puts(b, "  no records\n");
		return;
	}
	for (int c = 0; c < RV_REPORT_COLUMNS; c++)
		w_col[c] = strlen(rv_report__column_name[c]);
	for (i = 0; i < n;) {
		i = rv_report__row_at(&row, cells, n, i);
		w_hw = max_size(w_hw, strlen(row.hardware));
		w_op = max_size(w_op, strlen(rv_op_name(row.op)));
		for (int c = 0; c < RV_REPORT_COLUMNS; c++) {
			rv_report__cell_text(text, sizeof(text), row.cell[c]);
			w_col[c] = max_size(w_col[c], strlen(text));
		}
	}
	rv_buf_puts(b, "  ");
	put_left(b, "hardware", w_hw + 2);
	put_left(b, "op", w_op + 2);
	for (int c = 0; c < RV_REPORT_COLUMNS; c++)
		put_left(b, rv_report__column_name[c],
		         c + 1 < RV_REPORT_COLUMNS ? w_col[c] + 2 : 0);
	rv_buf_putc(b, '\n');
	for (i = 0; i < n;) {
		i = rv_report__row_at(&row, cells, n, i);
		rv_buf_puts(b, "  ");
		put_left(b, row.hardware, w_hw + 2);
		put_left(b, rv_op_name(row.op), w_op + 2);
		for (int c = 0; c < RV_REPORT_COLUMNS; c++) {
			rv_report__cell_text(text, sizeof(text), row.cell[c]);
			put_left(b, text, c + 1 < RV_REPORT_COLUMNS ? w_col[c] + 2 : 0);
		}
		rv_buf_putc(b, '\n');
	}
	rv_buf_puts(b,
	            "  3OK = 3 records, all passed; 5:R1/L2 = 5 records, failed checks: 1 regime, "
	            "2 latency\n"
	            "  (R regime, L latency, E energy; a record can fail more than one check)\n");
}

/* The accuracy texts of one quantity: median, within 10%, within 25%. */
static void accuracy_texts(char t[3][RV_REPORT_NUM_SIZE], const struct rv_accuracy *a)
{
	rv_report__percent(t[0], RV_REPORT_NUM_SIZE, a->median_ape, 0);
	rv_report__percent(t[1], RV_REPORT_NUM_SIZE, a->within_10, 0);
	rv_report__percent(t[2], RV_REPORT_NUM_SIZE, a->within_25, 0);
}

static void text_summary(struct rv_buf *b, const struct rv_summary *s)
{
	char counts[4][32], acc[2][3][RV_REPORT_NUM_SIZE];
	const struct rv_accuracy *a[2] = { &s->latency, &s->energy };
	const char *names[2] = { "latency", "energy" };
	size_t w_count = 0, w_acc[3] = { 0, 0, 0 };

	(void)snprintf(counts[0], sizeof(counts[0]), "%zu", s->records);
	(void)snprintf(counts[1], sizeof(counts[1]), "%zu", s->passed);
	(void)snprintf(counts[2], sizeof(counts[2]), "%zu", s->failed);
	(void)snprintf(counts[3], sizeof(counts[3]), "%zu",
	               s->skipped_no_baseline + s->skipped_unsupported + s->skipped_ambiguous);
	for (int i = 0; i < 4; i++)
		w_count = max_size(w_count, strlen(counts[i]));
	for (int q = 0; q < 2; q++) {
		accuracy_texts(acc[q], a[q]);
		for (int k = 0; k < 3 && a[q]->n > 0; k++)
			w_acc[k] = max_size(w_acc[k], strlen(acc[q][k]));
	}

	rv_buf_puts(b, "summary\n");
	rv_buf_puts(b, "  records  ");
	put_right(b, counts[0], w_count);
	rv_buf_puts(b, "  scored against a baseline row\n  passed   ");
	put_right(b, counts[1], w_count);
	rv_buf_puts(b, "\n  failed   ");
	put_right(b, counts[2], w_count);
	rv_buf_puts(b, "\n  skipped  ");
	put_right(b, counts[3], w_count);
	rv_buf_printf(b,
	              "  not scored: %zu without a baseline row, %zu unsupported, %zu labelled "
	              "ambiguous\n",
	              s->skipped_no_baseline, s->skipped_unsupported, s->skipped_ambiguous);
	for (int q = 0; q < 2; q++) {
		rv_buf_puts(b, "  ");
		put_left(b, names[q], LABEL_WIDTH);
		if (a[q]->n == 0) {
			rv_buf_puts(b, "not scored on any record\n");
			continue;
		}
		rv_buf_puts(b, "median |error| ");
		put_right(b, acc[q][0], w_acc[0]);
		rv_buf_puts(b, ", ");
		put_right(b, acc[q][1], w_acc[1]);
		rv_buf_puts(b, " within 10%, ");
		put_right(b, acc[q][2], w_acc[2]);
		rv_buf_printf(b, " within 25%% (n=%zu)\n", a[q]->n);
	}
}

/* Column widths of the failure blocks, over every failed record. */
struct fail_widths {
	size_t hardware, op, shape; /* of the identity line */
	size_t num, err;            /* of the numbers in the latency and energy lines */
	size_t middle;              /* of the text before the verdict */
};

enum fail_line { LINE_REGIME, LINE_LATENCY, LINE_ENERGY, LINE_COUNT };

static int energy_scored(const struct rv_record *r)
{
	return r->pass_energy != RV_CHECK_SKIP;
}

/* The text of a detail line before its verdict; numbers padded to w. */
static void fail_middle(char *out, size_t size, const struct rv_record *r, enum fail_line line,
                        const struct fail_widths *w)
{
	char pred[RV_REPORT_NUM_SIZE], meas[RV_REPORT_NUM_SIZE], err[RV_REPORT_NUM_SIZE];
	const char *unit = "ms";
	int nw = (int)w->num, ew = (int)w->err;

	if (line == LINE_REGIME) {
		(void)snprintf(out, size, "%s -> %s%s", rv_regime_name(r->regime_label),
		               rv_regime_name(r->regime_measured),
		               r->pass_regime && r->regime_label != r->regime_measured
		                       ? " (counts as a match)"
		                       : "");
		return;
	}
	if (line == LINE_ENERGY && !energy_scored(r)) {
		(void)snprintf(out, size, "not scored");
		return;
	}
	if (line == LINE_LATENCY) {
		rv_report__sig4(pred, sizeof(pred), r->latency_pred_s * 1e3);
		rv_report__sig4(meas, sizeof(meas), r->latency_meas_s * 1e3);
		rv_report__percent(err, sizeof(err), r->latency_err, 1);
	} else {
		unit = "mJ";
		rv_report__sig4(pred, sizeof(pred), r->energy_pred_J * 1e3);
		rv_report__sig4(meas, sizeof(meas), r->energy_meas_J * 1e3);
		rv_report__percent(err, sizeof(err), r->energy_err, 1);
	}
	(void)snprintf(out, size, "%*s %s predicted, %*s %s measured, error %*s", nw, pred, unit,
	               nw, meas, unit, ew, err);
}

static void fail_widths_of(struct fail_widths *w, const struct rv_validation *v)
{
	char text[RV_REPORT_NUM_SIZE * 4], shape[64];

	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < v->n_records; i++) {
		const struct rv_record *r = &v->records[i];
		double nums[4] = { r->latency_pred_s * 1e3, r->latency_meas_s * 1e3,
			           r->energy_pred_J * 1e3, r->energy_meas_J * 1e3 };
		double errs[2] = { r->latency_err, r->energy_err };
		int k_nums = energy_scored(r) ? 4 : 2;

		if (rv_record_passed(r))
			continue;
		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		w->hardware = max_size(w->hardware, strlen(r->hardware));
		w->op = max_size(w->op, strlen(rv_op_name(r->op)));
		w->shape = max_size(w->shape, strlen(shape));
		for (int k = 0; k < k_nums; k++) {
			rv_report__sig4(text, sizeof(text), nums[k]);
			w->num = max_size(w->num, strlen(text));
		}
		for (int k = 0; k < k_nums / 2; k++) {
			rv_report__percent(text, sizeof(text), errs[k], 1);
			w->err = max_size(w->err, strlen(text));
		}
	}
	for (size_t i = 0; i < v->n_records; i++) {
		if (rv_record_passed(&v->records[i]))
			continue;
		for (int line = 0; line < LINE_COUNT; line++) {
			fail_middle(text, sizeof(text), &v->records[i], (enum fail_line)line, w);
			w->middle = max_size(w->middle, strlen(text));
		}
	}
}

static void fail_line_put(struct rv_buf *b, const struct rv_record *r, enum fail_line line,
                          const struct fail_widths *w)
{
	static const char *const labels[LINE_COUNT] = { "regime", "latency", "energy" };
	char text[RV_REPORT_NUM_SIZE * 4];
	int pass = line == LINE_REGIME    ? r->pass_regime
	           : line == LINE_LATENCY ? r->pass_latency
	                                  : r->pass_energy == RV_CHECK_PASS;

	rv_buf_puts(b, "    ");
	put_left(b, labels[line], LABEL_WIDTH);
	fail_middle(text, sizeof(text), r, line, w);
	put_left(b, text, w->middle + 2);
	if (line == LINE_ENERGY && !energy_scored(r)) {
		rv_buf_puts(b, "skip\n");
		return;
	}
	rv_buf_puts(b, pass ? "pass" : "FAIL");
	if (line == LINE_REGIME) {
		rv_buf_putc(b, '\n');
		return;
	}
	rv_report__percent(text, sizeof(text),
	                   line == LINE_LATENCY ? r->band.latency : r->band.energy, 0);
	rv_buf_printf(b, " (tolerance %s)\n", text);
}

static void text_failures(struct rv_buf *b, const struct rv_validation *v,
                          const struct rv_summary *s)
{
	struct fail_widths w;
	char shape[64], text[RV_REPORT_NUM_SIZE * 2];

	if (s->failed == 0) {
		rv_buf_puts(b, "failures: none\n");
		return;
	}
	rv_buf_printf(b, "failures (%zu of %zu records)\n", s->failed, s->records);
	fail_widths_of(&w, v);
	for (size_t i = 0; i < v->n_records; i++) {
		const struct rv_record *r = &v->records[i];

		if (rv_record_passed(r))
			continue;
		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_buf_puts(b, "\n  ");
		put_left(b, r->hardware, w.hardware + 2);
		put_left(b, rv_op_name(r->op), w.op + 2);
		put_left(b, shape, w.shape + 2);
		rv_buf_puts(b, rv_dtype_name(r->dtype));
		rv_buf_printf(b, "  failed: %s%s%s", r->pass_regime ? "" : "regime",
		              !r->pass_regime && !r->pass_latency ? ", " : "",
		              r->pass_latency ? "" : "latency");
		if (r->pass_energy == RV_CHECK_FAIL)
			rv_buf_puts(b, r->pass_regime && r->pass_latency ? "energy" : ", energy");
		rv_buf_putc(b, '\n');
		for (int line = 0; line < LINE_COUNT; line++)
			fail_line_put(b, r, (enum fail_line)line, &w);
		rv_buf_puts(b, "    ");
		put_left(b, "binding", LABEL_WIDTH);
		rv_report__binding(text, sizeof(text), r);
		rv_buf_printf(b, "%s\n", text);
		if (r->notes[0]) {
			rv_buf_puts(b, "    ");
			put_left(b, "notes", LABEL_WIDTH);
			rv_report__put_line(b, r->notes, 0);
			rv_buf_putc(b, '\n');
		}
	}
}

int rv_report__text(struct rv_buf *out, const struct rv_validation *v, const struct rv_summary *s,
                    const struct rv_cell *cells, size_t n_cells)
{
	rv_buf_puts(out, "roofval validation report\n");
	for (size_t i = 0; i < v->n_sources; i++) {
		rv_buf_puts(out, "source: ");
		rv_report__put_line(out, v->sources[i], 0);
		rv_buf_putc(out, '\n');
	}
	rv_buf_putc(out, '\n');
	text_heatmap(out, cells, n_cells);
	rv_buf_putc(out, '\n');
	text_summary(out, s);
	rv_buf_putc(out, '\n');
	text_failures(out, v, s);
	return 0;
}
