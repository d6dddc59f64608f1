/* SPDX-License-Identifier: MIT */
/* The markdown report, for a pull request: the text report's content as a
 * heading, summary and accuracy tables, the heatmap as a table and the
 * failed records as a table, with the failed checks in bold. */
#include "core/dtype.h"
#include "core/op.h"
#include "core/regime.h"
#include "model/predict.h"
#include "report/report_internal.h"

static void md_summary(struct rv_buf *b, const struct rv_summary *s)
{
	const struct rv_accuracy *a[2] = { &s->latency, &s->energy };
	const char *names[2] = { "latency", "energy" };
	char t[3][RV_REPORT_NUM_SIZE];

	rv_buf_puts(b, "## Summary\n\n"
	               "| records | passed | failed | skipped: no baseline | skipped: unsupported "
	               "| skipped: ambiguous |\n"
	               "|---:|---:|---:|---:|---:|---:|\n");
	rv_buf_printf(b, "| %zu | %zu | %zu | %zu | %zu | %zu |\n\n", s->records, s->passed,
	              s->failed, s->skipped_no_baseline, s->skipped_unsupported,
	              s->skipped_ambiguous);
	rv_buf_puts(b, "| accuracy | n | median \\|error\\| | within 10% | within 25% |\n"
	               "|---|---:|---:|---:|---:|\n");
	for (int q = 0; q < 2; q++) {
		if (a[q]->n == 0) {
			rv_buf_printf(b, "| %s | 0 | - | - | - |\n", names[q]);
			continue;
		}
		rv_report__percent(t[0], sizeof(t[0]), a[q]->median_ape, 0);
		rv_report__percent(t[1], sizeof(t[1]), a[q]->within_10, 0);
		rv_report__percent(t[2], sizeof(t[2]), a[q]->within_25, 0);
		rv_buf_printf(b, "| %s | %zu | %s | %s | %s |\n", names[q], a[q]->n, t[0], t[1],
		              t[2]);
	}
}

static void md_heatmap(struct rv_buf *b, const struct rv_cell *cells, size_t n)
{
	struct rv_report__row row;
	char text[RV_REPORT_CELL_SIZE];

	rv_buf_puts(b, "## Heatmap\n\n");
	if (n == 0) {
		rv_buf_puts(b, "No records.\n");
		return;
	}
	rv_buf_puts(b, "Records by hardware, op and regime label. `3OK`: 3 records, all passed; "
	               "`5:R1/L2`: 5 records, failed checks: 1 regime, 2 latency (R regime, L "
	               "latency, E energy; a record can fail more than one check).\n\n"
	               "| hardware | op |");
	for (int c = 0; c < RV_REPORT_COLUMNS; c++)
		rv_buf_printf(b, " %s |", rv_report__column_name[c]);
	rv_buf_puts(b, "\n|---|---|");
	for (int c = 0; c < RV_REPORT_COLUMNS; c++)
		rv_buf_puts(b, "---|");
	rv_buf_putc(b, '\n');
	for (size_t i = 0; i < n;) {
		i = rv_report__row_at(&row, cells, n, i);
		rv_buf_puts(b, "| ");
		rv_report__put_line(b, row.hardware, 1);
		rv_buf_printf(b, " | %s |", rv_op_name(row.op));
		for (int c = 0; c < RV_REPORT_COLUMNS; c++) {
			const char *bold = row.cell[c] && row.cell[c]->n_pass < row.cell[c]->n_total
			                           ? "**"
			                           : "";

			rv_report__cell_text(text, sizeof(text), row.cell[c]);
			rv_buf_printf(b, " %s%s%s |", bold, text, bold);
		}
		rv_buf_putc(b, '\n');
	}
}

/* "| predicted | measured | error (tolerance) |" of one quantity, scaled to
 * the unit of the heading; the error in bold when the check failed. */
static void md_quantity(struct rv_buf *b, double pred, double meas, double err, double tolerance,
                        int failed)
{
	char p[RV_REPORT_NUM_SIZE], m[RV_REPORT_NUM_SIZE], e[RV_REPORT_NUM_SIZE],
	        t[RV_REPORT_NUM_SIZE];
	const char *bold = failed ? "**" : "";

	rv_report__sig4(p, sizeof(p), pred);
	rv_report__sig4(m, sizeof(m), meas);
	rv_report__percent(e, sizeof(e), err, 1);
	rv_report__percent(t, sizeof(t), tolerance, 0);
	rv_buf_printf(b, " %s | %s | %s%s%s (%s) |", p, m, bold, e, bold, t);
}

static void md_failures(struct rv_buf *b, const struct rv_validation *v, const struct rv_summary *s)
{
	char shape[64], text[RV_REPORT_NUM_SIZE * 2];

	if (s->failed == 0) {
		rv_buf_puts(b, "## Failures\n\nNone.\n");
		return;
	}
	rv_buf_printf(b, "## Failures (%zu of %zu records)\n\n", s->failed, s->records);
	rv_buf_puts(b,
	            "| hardware | op | shape | dtype | regime: label -> measured "
	            "| predicted ms | measured ms | latency error (tolerance) "
	            "| predicted mJ | measured mJ | energy error (tolerance) | binding | notes |\n"
	            "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
	for (size_t i = 0; i < v->n_records; i++) {
		const struct rv_record *r = &v->records[i];
		const char *bold = r->pass_regime ? "" : "**";

		if (rv_record_passed(r))
			continue;
		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_buf_puts(b, "| ");
		rv_report__put_line(b, r->hardware, 1);
		rv_buf_printf(b, " | %s | %s | %s | %s%s -> %s%s%s |", rv_op_name(r->op), shape,
		              rv_dtype_name(r->dtype), bold, rv_regime_name(r->regime_label),
		              rv_regime_name(r->regime_measured), bold,
		              r->pass_regime && r->regime_label != r->regime_measured
		                      ? " (counts as a match)"
		                      : "");
		md_quantity(b, r->latency_pred_s * 1e3, r->latency_meas_s * 1e3, r->latency_err,
		            r->band.latency, !r->pass_latency);
		if (r->pass_energy == RV_CHECK_SKIP)
			rv_buf_puts(b, " - | - | not scored |");
		else
			md_quantity(b, r->energy_pred_J * 1e3, r->energy_meas_J * 1e3,
			            r->energy_err, r->band.energy, r->pass_energy == RV_CHECK_FAIL);
		rv_report__binding(text, sizeof(text), r);
		rv_buf_printf(b, " %s | ", text);
		rv_report__put_line(b, r->notes[0] ? r->notes : "-", 1);
		rv_buf_puts(b, " |\n");
	}
}

int rv_report__markdown(struct rv_buf *out, const struct rv_validation *v,
                        const struct rv_summary *s, const struct rv_cell *cells, size_t n_cells)
{
	rv_buf_puts(out, "# roofval validation report\n\n");
	if (v->n_sources > 0) {
		rv_buf_puts(out, "Sources:\n\n");
		for (size_t i = 0; i < v->n_sources; i++) {
			rv_buf_puts(out, "- ");
			rv_report__put_line(out, v->sources[i], 0);
			rv_buf_putc(out, '\n');
		}
		rv_buf_putc(out, '\n');
	}
	md_summary(out, s);
	rv_buf_putc(out, '\n');
	md_heatmap(out, cells, n_cells);
	rv_buf_putc(out, '\n');
	md_failures(out, v, s);
	return 0;
}
