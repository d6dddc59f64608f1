/* SPDX-License-Identifier: MIT */
/* The plain-text report, for a terminal: sources, a heatmap of verdicts per
 * (hardware, op) and regime, totals and accuracy, then each failed record.
 * Columns are padded to their widest entry and no line ends in a space. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"
#include "core/op.h"
#include "core/regime.h"
#include "core/vec.h"
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

static void text_heatmap(struct rv_buf *b, const struct rv_cell *cells, size_t n, const char *model)
{
	size_t w_hw = strlen("hardware"), w_op = strlen("op"), w_col[RV_REPORT_COLUMNS];
	struct rv_report__row row;
	char text[RV_REPORT_CELL_SIZE];
	size_t i;

	rv_buf_puts(b, "heatmap");
	if (model) {
		rv_buf_puts(b, " of ");
		rv_report__put_line(b, model, 0);
	}
	rv_buf_puts(b, ": records by hardware, op and regime label\n");
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
	            "  (R regime: the model's stated regime against the measured one; L latency, "
	            "E energy; a record can fail more than one check)\n");
	for (i = 0; i < n; i++)
		if (cells[i].n_suspect > 0) {
			rv_buf_puts(b, "  S2 = 2 of the records are of suspect rows (busy machine, "
			               "imprecise median)\n");
			break;
		}
}

/* One heatmap per model (one model: the heatmap as it always was). */
static void text_heatmaps(struct rv_buf *b, const struct rv_report__ctx *c)
{
	if (c->side->n_models <= 1) {
		text_heatmap(b, c->cells, c->n_cells, NULL);
		return;
	}
	for (size_t i = 0; i < c->n_cells;) {
		size_t j = i;

		while (j < c->n_cells && strcmp(c->cells[j].model, c->cells[i].model) == 0)
			j++;
		if (i > 0)
			rv_buf_putc(b, '\n');
		text_heatmap(b, c->cells + i, j - i, c->cells[i].model);
		i = j;
	}
}

/* The baseline rows no sweep labels, per (hardware, op, dtype): measured,
 * never scored, and how to label them. */
static void text_unlabelled_rows(struct rv_buf *b, const struct rv_validation *v)
{
	for (size_t i = 0; i < v->n_unlabelled_rows; i++) {
		const struct rv_unlabelled_rows *u = &v->unlabelled_rows[i];

		rv_buf_puts(b, "  unlabelled ");
		rv_buf_printf(b, "%zu %s row%s of ", u->rows, rv_dtype_name(u->dtype),
		              u->rows == 1 ? "" : "s");
		rv_report__put_line(b, u->hardware, 0);
		rv_buf_printf(b,
		              "_%s %s labelled by no sweep, so never scored: sweep augment --hw ",
		              rv_op_name(u->op), u->rows == 1 ? "is" : "are");
		rv_report__put_line(b, u->hardware, 0);
		rv_buf_printf(b, " --op %s labels the %s entries its sweeps list\n",
		              rv_op_name(u->op), rv_dtype_name(u->dtype));
	}
}

/* The accuracy texts of one quantity: median, within 10%, within 25%. */
static void accuracy_texts(char t[3][RV_REPORT_NUM_SIZE], const struct rv_accuracy *a)
{
	rv_report__percent(t[0], RV_REPORT_NUM_SIZE, a->median_ape, 0);
	rv_report__percent(t[1], RV_REPORT_NUM_SIZE, a->within_10, 0);
	rv_report__percent(t[2], RV_REPORT_NUM_SIZE, a->within_25, 0);
}

static void text_summary(struct rv_buf *b, const struct rv_summary *s, const char *model,
                         const struct rv_validation *v)
{
	char counts[4][32], acc[2][3][RV_REPORT_NUM_SIZE];
	const struct rv_accuracy *a[2] = { &s->latency, &s->energy };
	const char *names[2] = { "latency", "energy" };
	size_t w_count = 0, w_acc[3] = { 0, 0, 0 };

	(void)snprintf(counts[0], sizeof(counts[0]), "%zu", s->records);
	(void)snprintf(counts[1], sizeof(counts[1]), "%zu", s->passed);
	(void)snprintf(counts[2], sizeof(counts[2]), "%zu", s->failed);
	(void)snprintf(counts[3], sizeof(counts[3]), "%zu",
	               s->skipped_no_baseline + s->skipped_unsupported + s->skipped_ambiguous +
	                       s->skipped_no_prediction);
	for (int i = 0; i < 4; i++)
		w_count = max_size(w_count, strlen(counts[i]));
	for (int q = 0; q < 2; q++) {
		accuracy_texts(acc[q], a[q]);
		for (int k = 0; k < 3 && a[q]->n > 0; k++)
			w_acc[k] = max_size(w_acc[k], strlen(acc[q][k]));
	}

	rv_buf_puts(b, "summary");
	if (model) {
		rv_buf_puts(b, " of ");
		rv_report__put_line(b, model, 0);
	}
	rv_buf_putc(b, '\n');
	/* Coverage, when the run counted it (every run through rv_validate). */
	if (v->n_models > 0 || s->labelled > 0 || s->skipped_no_prediction > 0) {
		rv_buf_printf(
		        b, "  coverage %zu entries labelled, %zu with a baseline row, %zu scored",
		        s->labelled, s->rows_found, s->records);
		if (s->skipped_no_prediction > 0)
			rv_buf_printf(b, ", %zu without a prediction", s->skipped_no_prediction);
		if (s->excluded_flagged > 0)
			rv_buf_printf(b, ", %zu excluded as suspect (--exclude-flagged)",
			              s->excluded_flagged);
		if (!model && v->unlabelled_predictions > 0)
			rv_buf_printf(b, "; %zu predictions for shapes no sweep labels",
			              v->unlabelled_predictions);
		rv_buf_putc(b, '\n');
		if (!model)
			text_unlabelled_rows(b, v);
	}
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
	              "ambiguous",
	              s->skipped_no_baseline, s->skipped_unsupported, s->skipped_ambiguous);
	if (s->skipped_no_prediction > 0)
		rv_buf_printf(b, ", %zu without a prediction", s->skipped_no_prediction);
	rv_buf_putc(b, '\n');
	if (s->regime_scored > 0 || s->regime_unstated > 0) {
		rv_buf_puts(b, "  ");
		put_left(b, "regime", LABEL_WIDTH);
		rv_buf_printf(b, "%zu of %zu stated regimes match the measurement",
		              s->regime_passed, s->regime_scored);
		if (s->regime_unstated > 0)
			rv_buf_printf(b, "; regime not stated on %zu records (not scored)",
			              s->regime_unstated);
		rv_buf_putc(b, '\n');
	}
	if (s->suspect > 0 || s->suspect_energy > 0)
		rv_buf_printf(
		        b,
		        "  suspect  %zu records of rows whose latency is doubtful, %zu of them "
		        "failed (a miss there need not be the model's); %zu energies from too "
		        "short a window\n",
		        s->suspect, s->suspect_failed, s->suspect_energy);
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
	size_t model;               /* of the identity line, 0: one model, not shown */
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
		rv_report__regime_text(out, size, r);
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

static void fail_widths_of(struct fail_widths *w, const struct rv_validation *v, const size_t *idx,
                           size_t n, int models)
{
	char text[RV_REPORT_NUM_SIZE * 4], shape[64];

	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		const struct rv_record *r = &v->records[idx[i]];
		double nums[4] = { r->latency_pred_s * 1e3, r->latency_meas_s * 1e3,
			           r->energy_pred_J * 1e3, r->energy_meas_J * 1e3 };
		double errs[2] = { r->latency_err, r->energy_err };
		int k_nums = energy_scored(r) ? 4 : 2;

		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		if (models)
			w->model = max_size(w->model, strlen(r->model));
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
	for (size_t i = 0; i < n; i++) {
		for (int line = 0; line < LINE_COUNT; line++) {
			fail_middle(text, sizeof(text), &v->records[idx[i]], (enum fail_line)line,
			            w);
			w->middle = max_size(w->middle, strlen(text));
		}
	}
}

static void fail_line_put(struct rv_buf *b, const struct rv_record *r, enum fail_line line,
                          const struct fail_widths *w)
{
	static const char *const labels[LINE_COUNT] = { "regime", "latency", "energy" };
	char text[RV_REPORT_NUM_SIZE * 4];
	int pass = line == LINE_REGIME    ? r->pass_regime == RV_CHECK_PASS
	           : line == LINE_LATENCY ? r->pass_latency
	                                  : r->pass_energy == RV_CHECK_PASS;

	rv_buf_puts(b, "    ");
	put_left(b, labels[line], LABEL_WIDTH);
	fail_middle(text, sizeof(text), r, line, w);
	put_left(b, text, w->middle + 2);
	if ((line == LINE_ENERGY && !energy_scored(r)) ||
	    (line == LINE_REGIME && r->pass_regime == RV_CHECK_SKIP)) {
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

/* The failed records, worst first (rv_report__worst_first()), top of them
 * (0: all), each as a block of its checks. */
static int text_failures(struct rv_buf *b, const struct rv_validation *v,
                         const struct rv_summary *s, int models, size_t top)
{
	struct fail_widths w;
	char shape[64], text[RV_REPORT_NUM_SIZE * 2];
	size_t *idx = NULL, n = 0, shown;
	int err;

	if (s->failed == 0) {
		rv_buf_puts(b, "failures: none\n");
		return 0;
	}
	if ((err = rv_report__worst_first(v, NULL, &idx, &n)) < 0)
		return err;
	shown = rv_report__shown(n, top);
	rv_buf_printf(b, "failures (%zu of %zu records), worst first by |latency error|", s->failed,
	              s->records);
	if (shown < n)
		rv_buf_printf(b, ": the %zu worst (--top 0 lists them all)", shown);
	rv_buf_putc(b, '\n');
	fail_widths_of(&w, v, idx, shown, models);
	for (size_t i = 0; i < shown; i++) {
		const struct rv_record *r = &v->records[idx[i]];

		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_buf_puts(b, "\n  ");
		if (models)
			put_left(b, r->model, w.model + 2);
		put_left(b, r->hardware, w.hardware + 2);
		put_left(b, rv_op_name(r->op), w.op + 2);
		put_left(b, shape, w.shape + 2);
		rv_buf_puts(b, rv_dtype_name(r->dtype));
		rv_report__failed_checks(text, sizeof(text), r);
		rv_buf_printf(b, "  failed: %s\n", text);
		for (int line = 0; line < LINE_COUNT; line++)
			fail_line_put(b, r, (enum fail_line)line, &w);
		/* The binding resource, when the model said it. */
		if (r->binding >= 0) {
			rv_buf_puts(b, "    ");
			put_left(b, "binding", LABEL_WIDTH);
			rv_report__binding(text, sizeof(text), r);
			rv_buf_printf(b, "%s\n", text);
		}
		if (r->suspect) {
			rv_buf_puts(b, "    ");
			put_left(b, "suspect", LABEL_WIDTH);
			rv_report__put_line(b, r->suspect_why, 0);
			rv_buf_putc(b, '\n');
		}
		if (r->notes[0]) {
			rv_buf_puts(b, "    ");
			put_left(b, "notes", LABEL_WIDTH);
			rv_report__put_line(b, r->notes, 0);
			rv_buf_putc(b, '\n');
		}
	}
	if (shown < n)
		rv_buf_printf(b, "\n  ... and %zu more\n", n - shown);
	free(idx);
	return 0;
}

/* A table of text cells, columns padded to their widest, no trailing space. */
#define TABLE_COLUMNS 8
#define TABLE_CELL    160
struct table {
	char (*cell)[TABLE_COLUMNS][TABLE_CELL];
	size_t n, cap;
	int bad;
};

static char (*table_row(struct table *t))[TABLE_CELL]
{
	char row[TABLE_COLUMNS][TABLE_CELL];

	memset(row, 0, sizeof(row));
	if (t->bad || rv_vec_push(&t->cell, &t->n, &t->cap, &row, sizeof(row)) < 0) {
		t->bad = 1;
		return NULL;
	}
	return t->cell[t->n - 1];
}

static int table_put(struct rv_buf *b, struct table *t, const char *indent)
{
	size_t w[TABLE_COLUMNS] = { 0 };
	int err = t->bad ? rv_error_set(RV_ENOMEM, "out of memory") : 0;

	for (size_t i = 0; i < t->n; i++)
		for (int c = 0; c < TABLE_COLUMNS; c++)
			w[c] = max_size(w[c], strlen(t->cell[i][c]));
	for (size_t i = 0; i < t->n && err == 0; i++) {
		int last = TABLE_COLUMNS - 1;

		while (last > 0 && !t->cell[i][last][0])
			last--;
		rv_buf_puts(b, indent);
		for (int c = 0; c <= last; c++) {
			if (!w[c])
				continue;
			put_left(b, t->cell[i][c], c < last ? w[c] + 2 : 0);
		}
		rv_buf_putc(b, '\n');
	}
	free(t->cell);
	memset(t, 0, sizeof(*t));
	return err;
}

/* "<hardware> <op> <shape> <dtype>" cells of an entry, from column at. */
static void entry_cells(char (*row)[TABLE_CELL], int at, const char *hw, enum rv_op op,
                        const struct rv_shape *shape, enum rv_dtype dtype)
{
	(void)snprintf(row[at], TABLE_CELL, "%s", hw);
	(void)snprintf(row[at + 1], TABLE_CELL, "%s", rv_op_name(op));
	(void)rv_shape_format(row[at + 2], TABLE_CELL, shape);
	(void)snprintf(row[at + 3], TABLE_CELL, "%s", rv_dtype_name(dtype));
}

static int text_missing(struct rv_buf *b, const struct rv_validation *v)
{
	struct table t = { 0 };
	size_t shown = v->n_missing < RV_REPORT_MISSING_MAX ? v->n_missing : RV_REPORT_MISSING_MAX;
	int err;

	if (v->n_missing == 0)
		return 0;
	rv_buf_printf(b, "\nwithout a prediction (%zu entries with a baseline row)\n",
	              v->n_missing);
	for (size_t i = 0; i < shown; i++) {
		const struct rv_missing *m = &v->missing[i];
		char(*row)[TABLE_CELL] = table_row(&t);

		if (!row)
			break;
		(void)snprintf(row[0], TABLE_CELL, "%s", m->model);
		entry_cells(row, 1, m->hardware, m->op, &m->shape, m->dtype);
	}
	err = table_put(b, &t, "  ");
	if (v->n_missing > shown)
		rv_buf_printf(b, "  ... and %zu more (--format json lists them all)\n",
		              v->n_missing - shown);
	return err;
}

static int text_suspects(struct rv_buf *b, const struct rv_validation *v)
{
	struct table t = { 0 };
	size_t n = 0, shown = 0;

	for (size_t i = 0; i < v->n_records; i++)
		n += v->records[i].suspect != 0;
	if (n == 0)
		return 0;
	rv_buf_printf(b,
	              "\nsuspect records (%zu; scored, unless --exclude-flagged leaves their "
	              "rows out)\n",
	              n);
	for (size_t i = 0; i < v->n_records && shown < RV_REPORT_MISSING_MAX; i++) {
		const struct rv_record *r = &v->records[i];
		char(*row)[TABLE_CELL];

		if (!r->suspect || !(row = table_row(&t)))
			continue;
		(void)snprintf(row[0], TABLE_CELL, "%s", r->model);
		entry_cells(row, 1, r->hardware, r->op, &r->shape, r->dtype);
		(void)snprintf(row[5], TABLE_CELL, "%s", rv_record_passed(r) ? "pass" : "FAIL");
		(void)snprintf(row[6], TABLE_CELL, "%s", r->suspect_why);
		shown++;
	}
	if (table_put(b, &t, "  ") < 0)
		return rv_error_set(RV_ENOMEM, "out of memory");
	if (n > shown)
		rv_buf_printf(b, "  ... and %zu more (--format json lists them all)\n", n - shown);
	return 0;
}

/* Per cell: its bias and spread, and what the errors imply, one line each. */
static int text_why(struct rv_buf *b, const struct rv_report__ctx *c)
{
	struct table t = { 0 };
	int models = c->side->n_models > 1;

	if (c->n_cells == 0)
		return 0;
	rv_buf_puts(b, "\nwhere and why, per cell: records within band, median |latency error|, "
	               "the median signed error (fast: predicts less time than measured) with "
	               "its quartiles, and the rate the predictions imply against the one "
	               "measured (median, quartiles)\n");
	for (size_t i = 0; i < c->n_cells; i++) {
		const struct rv_cell *cl = &c->cells[i];
		char(*row)[TABLE_CELL] = table_row(&t);
		char ape[RV_REPORT_NUM_SIZE], bias[RV_REPORT_NUM_SIZE], lo[RV_REPORT_NUM_SIZE],
		        hi[RV_REPORT_NUM_SIZE], m[RV_REPORT_NUM_SIZE], q1[RV_REPORT_NUM_SIZE],
		        mm[RV_REPORT_NUM_SIZE], q3[RV_REPORT_NUM_SIZE];
		int k = 0;

		if (!row)
			break;
		if (models)
			(void)snprintf(row[k++], TABLE_CELL, "%s", cl->model);
		(void)snprintf(row[k++], TABLE_CELL, "%s", cl->hardware);
		(void)snprintf(row[k++], TABLE_CELL, "%s", rv_op_name(cl->op));
		(void)snprintf(row[k++], TABLE_CELL, "%s", rv_regime_name(cl->regime));
		rv_report__percent(ape, sizeof(ape), cl->median_latency_ape, 0);
		(void)snprintf(row[k++], TABLE_CELL, "%zu/%zu within band, %s", cl->n_within_band,
		               cl->n_total, ape);
		rv_report__bias_text(bias, sizeof(bias), cl->latency_bias.median);
		rv_report__percent(lo, sizeof(lo), cl->latency_bias.p25, 1);
		rv_report__percent(hi, sizeof(hi), cl->latency_bias.p75, 1);
		(void)snprintf(row[k++], TABLE_CELL, "predicts %s (%s to %s)", bias, lo, hi);
		if (cl->rate == RV_RATE_NONE)
			continue;
		rv_report__rate_text(m, sizeof(m), cl->rate, cl->rate_model.median);
		rv_report__rate_text(mm, sizeof(mm), cl->rate, cl->rate_measured.median);
		rv_report__rate_text(q1, sizeof(q1), cl->rate, cl->rate_measured.p25);
		rv_report__rate_text(q3, sizeof(q3), cl->rate, cl->rate_measured.p75);
		(void)snprintf(row[k], TABLE_CELL,
		               "model assumes %.24s%s, measured %.24s (%.24s to %.24s)", m,
		               cl->rate == RV_RATE_SECONDS ? " per call" : "", mm, q1, q3);
	}
	return table_put(b, &t, "  ");
}

/* The labels the measurements contradict: the sweep's finding, no model's. */
static void text_labels(struct rv_buf *b, const struct rv_validation *v)
{
	size_t n = 0;

	for (size_t i = 0; i < v->n_labels; i++)
		n += v->labels[i].contradicted > 0;
	if (n == 0)
		return;
	rv_buf_puts(b, "\nlabels the measurement contradicts (a finding about the sweep, "
	               "charged to no model)\n");
	for (size_t i = 0; i < v->n_labels; i++) {
		const struct rv_label_finding *f = &v->labels[i];

		if (f->contradicted == 0)
			continue;
		rv_buf_puts(b, "  ");
		rv_report__label_finding(b, f);
		rv_buf_putc(b, '\n');
	}
}

static void text_noise(struct rv_buf *b, const struct rv_report__ctx *c)
{
	char text[RV_REPORT_NOISE_TEXT_SIZE], pass[RV_REPORT_NUM_SIZE];

	rv_buf_puts(b, "\nnoise ceiling: the share of paired records one prediction could pass, "
	               "beside the records within the latency band\n");
	for (size_t i = 0; i < c->n_noise; i++) {
		const struct rv_noise *n = &c->noise[i];

		rv_report__noise_text(text, sizeof(text), n);
		rv_report__percent(
		        pass, sizeof(pass),
		        n->records ? (double)n->within_band / (double)n->records : (double)NAN, 0);
		rv_buf_puts(b, "  ");
		if (c->v->n_models > 1)
			rv_buf_printf(b, "%s  ", n->model);
		rv_buf_printf(b, "%s %s: %s%s; model %zu of %zu within band (%s)\n", n->hardware,
		              rv_op_name(n->op), n->n_pairs ? "ceiling " : "", text, n->within_band,
		              n->records, pass);
	}
}

static void cell_vs_text(char *out, size_t size, const struct rv_cell *c)
{
	char pct[RV_REPORT_NUM_SIZE];

	if (!c) {
		(void)snprintf(out, size, "-");
		return;
	}
	rv_report__percent(pct, sizeof(pct), c->median_latency_ape, 0);
	(void)snprintf(out, size, "%zu/%zu %s", rv_report__within_band(c), c->n_total, pct);
}

static int text_side(struct rv_buf *b, const struct rv_report__ctx *c)
{
	const struct rv_report__side *sd = c->side;
	struct table t = { 0 };
	char(*row)[TABLE_CELL];
	size_t n_models = sd->n_models < TABLE_COLUMNS - 4 ? sd->n_models : TABLE_COLUMNS - 4;
	int err;

	rv_buf_puts(b, "\nmodels side by side: records within the latency band of their total, "
	               "median |latency error|\n");
	if (sd->n_models > n_models)
		rv_buf_printf(b, "  (the first %zu of %zu models; --format json has them all)\n",
		              n_models, sd->n_models);
	if ((row = table_row(&t)) != NULL) {
		(void)snprintf(row[0], TABLE_CELL, "hardware");
		(void)snprintf(row[1], TABLE_CELL, "op");
		(void)snprintf(row[2], TABLE_CELL, "regime");
		for (size_t m = 0; m < n_models; m++)
			(void)snprintf(row[3 + m], TABLE_CELL, "%s", sd->models[m]);
		(void)snprintf(row[3 + n_models], TABLE_CELL, "better");
	}
	for (size_t k = 0; k < sd->n_rows && (row = table_row(&t)) != NULL; k++) {
		const struct rv_report__vs *vs = &sd->rows[k];

		(void)snprintf(row[0], TABLE_CELL, "%s", vs->hardware);
		(void)snprintf(row[1], TABLE_CELL, "%s", rv_op_name(vs->op));
		(void)snprintf(row[2], TABLE_CELL, "%s", rv_regime_name(vs->regime));
		for (size_t m = 0; m < n_models; m++)
			cell_vs_text(row[3 + m], TABLE_CELL, vs->cell[m]);
		(void)snprintf(row[3 + n_models], TABLE_CELL, "%s",
		               vs->better >= 0 ? sd->models[vs->better] : "-");
	}
	if ((err = table_put(b, &t, "  ")) < 0)
		return err;
	rv_buf_puts(b, "  better: more records within band, then the lower median; - for a tie "
	               "or one model\n");
	return 0;
}

/* "A pass (+3.0%), B FAIL (latency -40.0%)" of one entry's records. */
static void verdicts_text(char *out, size_t size, const struct rv_validation *v, const size_t *idx,
                          size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t k = 0; k < n && len < size; k++) {
		const struct rv_record *r = &v->records[idx[k]];
		char pct[RV_REPORT_NUM_SIZE];

		rv_report__percent(pct, sizeof(pct), r->latency_err, 1);
		(void)snprintf(out + len, size - len, "%s%s %s (%s)", k ? ", " : "", r->model,
		               rv_record_passed(r) ? "pass" : "FAIL", pct);
		len += strlen(out + len);
	}
}

/* The entries one model passes and another fails, the largest disagreement
 * first (the shapes side by side whose verdicts differ). */
static int text_disagreements(struct rv_buf *b, const struct rv_report__ctx *c)
{
	const struct rv_validation *v = c->v;
	const struct rv_report__shapes *sh = c->shapes;
	struct table t = { 0 };
	size_t groups = 0, shown = 0;
	int err;

	for (size_t k = 0; k < sh->n; k++)
		groups += sh->shape[k].mixed != 0;
	if (groups == 0) {
		rv_buf_puts(b, "\ndisagreements: none (on every entry the models pass or fail "
		               "alike)\n");
		return 0;
	}
	rv_buf_printf(b,
	              "\ndisagreements: %zu entries that one model passes and another fails, "
	              "the largest disagreement first (latency error in brackets)\n",
	              groups);
	for (size_t k = 0; k < sh->n && shown < RV_REPORT_MISSING_MAX; k++) {
		const struct rv_report__shape *e = &sh->shape[k];
		const struct rv_record *r;
		char(*row)[TABLE_CELL];

		if (!e->mixed)
			continue;
		if (!(row = table_row(&t)))
			break;
		r = &v->records[e->rec[0]];
		entry_cells(row, 0, r->hardware, r->op, &r->shape, r->dtype);
		verdicts_text(row[4], TABLE_CELL, v, e->rec, e->n_rec);
		shown++;
	}
	err = table_put(b, &t, "  ");
	if (groups > shown)
		rv_buf_printf(b, "  ... and %zu more (--format json lists them all)\n",
		              groups - shown);
	return err;
}

/* The regime cell of a record: its regime verdict's text. */
static void regime_cell(char *out, size_t size, const struct rv_record *r)
{
	rv_report__regime_text(out, size, r);
}

/* Each model's failures worst first, a row each, top of them. */
static int text_worst(struct rv_buf *b, const struct rv_report__ctx *c)
{
	const struct rv_validation *v = c->v;
	int err = 0;

	for (size_t m = 0; m < v->n_models && err == 0; m++) {
		struct table t = { 0 };
		size_t *idx = NULL, n = 0, shown;
		char(*row)[TABLE_CELL];

		if ((err = rv_report__worst_first(v, v->models[m], &idx, &n)) < 0)
			return err;
		shown = rv_report__shown(n, c->top);
		rv_buf_puts(b, "\nworst first of ");
		rv_report__put_line(b, v->models[m], 0);
		if (n == 0) {
			rv_buf_puts(b, ": no failures\n");
			free(idx);
			continue;
		}
		rv_buf_printf(b, ": %zu failures by |latency error|", n);
		if (shown < n)
			rv_buf_printf(b, ", the %zu worst (--top 0 lists them all)", shown);
		rv_buf_putc(b, '\n');
		if ((row = table_row(&t)) != NULL) {
			(void)snprintf(row[0], TABLE_CELL, "#");
			(void)snprintf(row[1], TABLE_CELL, "entry");
			(void)snprintf(row[2], TABLE_CELL, "regime");
			(void)snprintf(row[3], TABLE_CELL, "predicted ms");
			(void)snprintf(row[4], TABLE_CELL, "measured ms");
			(void)snprintf(row[5], TABLE_CELL, "error");
			(void)snprintf(row[6], TABLE_CELL, "failed");
		}
		for (size_t i = 0; i < shown && (row = table_row(&t)) != NULL; i++) {
			const struct rv_record *r = &v->records[idx[i]];
			char shape[64];

			(void)rv_shape_format(shape, sizeof(shape), &r->shape);
			(void)snprintf(row[0], TABLE_CELL, "%zu", i + 1);
			(void)snprintf(row[1], TABLE_CELL, "%s %s %s %s", r->hardware,
			               rv_op_name(r->op), shape, rv_dtype_name(r->dtype));
			regime_cell(row[2], TABLE_CELL, r);
			rv_report__sig4(row[3], TABLE_CELL, r->latency_pred_s * 1e3);
			rv_report__sig4(row[4], TABLE_CELL, r->latency_meas_s * 1e3);
			rv_report__percent(row[5], TABLE_CELL, r->latency_err, 1);
			rv_report__failed_checks(row[6], TABLE_CELL, r);
		}
		free(idx);
		if ((err = table_put(b, &t, "  ")) < 0)
			return err;
		if (shown < n)
			rv_buf_printf(b, "  ... and %zu more\n", n - shown);
	}
	return err;
}

/* The shapes a model failed, each with every model's prediction and
 * verdict, the largest disagreement first. */
static int text_shapes(struct rv_buf *b, const struct rv_report__ctx *c)
{
	const struct rv_validation *v = c->v;
	const struct rv_report__shapes *sh = c->shapes;
	size_t shown = rv_report__shown(sh->n, c->top);
	char text[RV_REPORT_NUM_SIZE * 4], shape[64];
	int err = 0;

	if (sh->n == 0) {
		rv_buf_puts(b, "\nfailures side by side: none (no shape that a model failed has "
		               "records of two models)\n");
		return 0;
	}
	rv_buf_printf(b,
	              "\nfailures side by side: %zu shapes a model failed, each with every "
	              "model's prediction, the models' largest disagreement first",
	              sh->n);
	if (shown < sh->n)
		rv_buf_printf(b, "; the first %zu (--top 0 lists them all)", shown);
	rv_buf_putc(b, '\n');
	for (size_t k = 0; k < shown && err == 0; k++) {
		const struct rv_report__shape *e = &sh->shape[k];
		const struct rv_record *r0 = &v->records[e->rec[0]];
		struct table t = { 0 };

		(void)rv_shape_format(shape, sizeof(shape), &r0->shape);
		rv_report__sig4(text, sizeof(text), r0->latency_meas_s * 1e3);
		rv_buf_printf(b, "\n  %s %s %s %s  %s  measured %s ms", r0->hardware,
		              rv_op_name(r0->op), shape, rv_dtype_name(r0->dtype),
		              rv_regime_name(r0->regime_label), text);
		if (isfinite(e->spread)) {
			rv_report__percent(text, sizeof(text), e->spread, 0);
			rv_buf_printf(b, "  predictions %s of it apart", text);
		}
		rv_buf_putc(b, '\n');
		for (size_t i = 0; i < e->n_rec; i++) {
			const struct rv_record *r = &v->records[e->rec[i]];
			char(*row)[TABLE_CELL] = table_row(&t), num[RV_REPORT_NUM_SIZE], what[100];

			if (!row)
				break;
			(void)snprintf(row[0], TABLE_CELL, "%s", r->model);
			rv_report__sig4(num, sizeof(num), r->latency_pred_s * 1e3);
			(void)snprintf(row[1], TABLE_CELL, "%s ms", num);
			rv_report__percent(num, sizeof(num), r->latency_err, 1);
			(void)snprintf(row[2], TABLE_CELL, "error %s", num);
			if (rv_record_passed(r)) {
				(void)snprintf(row[3], TABLE_CELL, "pass");
			} else {
				rv_report__failed_checks(what, sizeof(what), r);
				(void)snprintf(row[3], TABLE_CELL, "FAIL %s", what);
			}
			regime_cell(row[4], TABLE_CELL, r);
			if (r->binding >= 0) {
				rv_report__binding(what, sizeof(what), r);
				(void)snprintf(row[5], TABLE_CELL, "binding %s", what);
			}
		}
		err = table_put(b, &t, "    ");
	}
	if (err == 0 && shown < sh->n)
		rv_buf_printf(b, "\n  ... and %zu more\n", sh->n - shown);
	return err;
}

static void change_cells(char (*row)[TABLE_CELL], const struct rv_change *ch)
{
	char a[RV_REPORT_NUM_SIZE], z[RV_REPORT_NUM_SIZE];

	(void)snprintf(row[0], TABLE_CELL, "%s", ch->regression ? "regression" : "improvement");
	(void)snprintf(row[1], TABLE_CELL, "%s", ch->model);
	if (ch->kind == RV_CHANGE_RECORD) {
		entry_cells(row, 2, ch->hardware, ch->op, &ch->shape, ch->dtype);
		rv_report__percent(a, sizeof(a), ch->old_value, 1);
		rv_report__percent(z, sizeof(z), ch->new_value, 1);
		(void)snprintf(row[6], TABLE_CELL, "%s, now %s (latency error %s -> %s)",
		               ch->regression ? "passed" : "failed",
		               ch->regression ? "fails" : "passes", a, z);
		return;
	}
	(void)snprintf(row[2], TABLE_CELL, "%s", ch->hardware);
	(void)snprintf(row[3], TABLE_CELL, "%s", rv_op_name(ch->op));
	(void)snprintf(row[4], TABLE_CELL, "%s", rv_regime_name(ch->regime));
	rv_report__percent(a, sizeof(a), ch->old_value, 0);
	rv_report__percent(z, sizeof(z), ch->new_value, 0);
	(void)snprintf(row[6], TABLE_CELL, "median |latency error| %s -> %s", a, z);
}

static int text_against(struct rv_buf *b, const struct rv_report__ctx *c)
{
	const struct rv_comparison *cmp = c->against;
	struct table t = { 0 };

	rv_buf_puts(b, "\nagainst ");
	rv_report__put_line(b, c->against_name, 0);
	rv_buf_printf(b,
	              ": %zu records compared (in both), %zu of the earlier run not validated "
	              "now, %zu of this run not in it; cells change past %.1f points of median "
	              "|latency error|\n",
	              cmp->n_matched, cmp->n_old_only, cmp->n_new_only, cmp->points);
	if (cmp->n_regressions == 0)
		rv_buf_puts(b, "  no regressions");
	else
		rv_buf_printf(b, "  %zu regressions", cmp->n_regressions);
	rv_buf_printf(b, ", %zu improvements\n", cmp->n_improvements);
	for (size_t i = 0; i < cmp->n_changes; i++) {
		char(*row)[TABLE_CELL] = table_row(&t);

		if (!row)
			break;
		change_cells(row, &cmp->changes[i]);
	}
	return table_put(b, &t, "  ");
}

int rv_report__text(struct rv_buf *out, const struct rv_report__ctx *c)
{
	const struct rv_validation *v = c->v;
	int several = c->side->n_models > 1 || v->n_models > 1, err = 0;

	rv_buf_puts(out, "roofval validation report\n");
	if (v->n_models > 1 || (v->n_models == 1 && strcmp(v->models[0], RV_BUILTIN_MODEL) != 0)) {
		rv_report__models_line(out, v);
		rv_buf_putc(out, '\n');
	}
	for (size_t i = 0; i < v->n_sources; i++) {
		if (rv_report__source_repeated(v, i))
			continue;
		rv_buf_puts(out, "source: ");
		rv_report__put_line(out, v->sources[i], 0);
		rv_buf_putc(out, '\n');
	}
	rv_buf_putc(out, '\n');
	text_heatmaps(out, c);
	rv_buf_putc(out, '\n');
	if (!several) {
		text_summary(out, c->s, NULL, v);
	} else {
		for (size_t m = 0; m < v->n_models && err == 0; m++) {
			struct rv_summary s;

			if ((err = rv_validation_summary_of(v, v->models[m], &s)) < 0)
				return err;
			if (m)
				rv_buf_putc(out, '\n');
			text_summary(out, &s, v->models[m], v);
		}
		if (v->unlabelled_predictions > 0)
			rv_buf_printf(out,
			              "  %zu predictions for shapes no sweep labels (the files "
			              "together)\n",
			              v->unlabelled_predictions);
		text_unlabelled_rows(out, v);
	}
	if ((err = text_missing(out, v)) < 0 || (err = text_suspects(out, v)) < 0 ||
	    (err = text_why(out, c)) < 0)
		return err;
	text_labels(out, v);
	if (rv_report__shows_noise(c))
		text_noise(out, c);
	if (c->side->n_models > 1 &&
	    ((err = text_side(out, c)) < 0 || (err = text_disagreements(out, c)) < 0))
		return err;
	if (c->against && (err = text_against(out, c)) < 0)
		return err;
	if (c->side->n_models > 1)
		return (err = text_worst(out, c)) < 0 ? err : text_shapes(out, c);
	rv_buf_putc(out, '\n');
	return text_failures(out, v, c->s, several, c->top);
}
