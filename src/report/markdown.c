/* SPDX-License-Identifier: MIT */
/* The markdown report, for a pull request: the text report's content as a
 * heading, summary and accuracy tables, the heatmap as a table and the
 * failed records as a table, with the failed checks in bold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/op.h"
#include "core/regime.h"
#include "model/predict.h"
#include "report/report_internal.h"

static void md_summary(struct rv_buf *b, const struct rv_summary *s, const char *model,
                       const struct rv_validation *v)
{
	const struct rv_accuracy *a[2] = { &s->latency, &s->energy };
	const char *names[2] = { "latency", "energy" };
	char t[3][RV_REPORT_NUM_SIZE];

	rv_buf_puts(b, "## Summary");
	if (model) {
		rv_buf_puts(b, " of ");
		rv_report__put_line(b, model, 1);
	}
	rv_buf_puts(b, "\n\n");
	if (v->n_models > 0 || s->labelled > 0 || s->skipped_no_prediction > 0) {
		rv_buf_printf(b,
		              "Coverage: %zu entries labelled, %zu with a baseline row, %zu scored",
		              s->labelled, s->rows_found, s->records);
		if (s->skipped_no_prediction > 0)
			rv_buf_printf(b, ", %zu without a prediction", s->skipped_no_prediction);
		if (s->excluded_flagged > 0)
			rv_buf_printf(b, ", %zu excluded as suspect (`--exclude-flagged`)",
			              s->excluded_flagged);
		if (v->unlabelled_predictions > 0)
			rv_buf_printf(b, "; %zu predictions for shapes no sweep labels%s",
			              v->unlabelled_predictions,
			              v->n_models > 1 ? " (the files together)" : "");
		rv_buf_puts(b, ".\n\n");
	}
	rv_buf_puts(b, "| records | passed | failed | skipped: no baseline | skipped: unsupported "
	               "| skipped: ambiguous |\n"
	               "|---:|---:|---:|---:|---:|---:|\n");
	rv_buf_printf(b, "| %zu | %zu | %zu | %zu | %zu | %zu |\n\n", s->records, s->passed,
	              s->failed, s->skipped_no_baseline, s->skipped_unsupported,
	              s->skipped_ambiguous);
	if (s->regime_scored > 0 || s->regime_unstated > 0) {
		rv_buf_printf(b, "Regime: %zu of %zu stated regimes match the measurement",
		              s->regime_passed, s->regime_scored);
		if (s->regime_unstated > 0)
			rv_buf_printf(b, "; regime not stated on %zu records (not scored)",
			              s->regime_unstated);
		rv_buf_puts(b, ".\n\n");
	}
	if (s->suspect > 0 || s->suspect_energy > 0)
		rv_buf_printf(
		        b,
		        "Suspect: %zu records of rows whose latency is doubtful, %zu of them "
		        "failed (a miss there need not be the model's); %zu energies from too "
		        "short a window.\n\n",
		        s->suspect, s->suspect_failed, s->suspect_energy);
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

static void md_heatmap(struct rv_buf *b, const struct rv_cell *cells, size_t n, const char *model)
{
	struct rv_report__row row;
	char text[RV_REPORT_CELL_SIZE];

	rv_buf_puts(b, "## Heatmap");
	if (model) {
		rv_buf_puts(b, " of ");
		rv_report__put_line(b, model, 1);
	}
	rv_buf_puts(b, "\n\n");
	if (n == 0) {
		rv_buf_puts(b, "No records.\n");
		return;
	}
	rv_buf_puts(b, "Records by hardware, op and regime label. `3OK`: 3 records, all passed; "
	               "`5:R1/L2`: 5 records, failed checks: 1 regime, 2 latency (R regime, L "
	               "latency, E energy; a record can fail more than one check).");
	for (size_t i = 0; i < n; i++)
		if (cells[i].n_suspect > 0) {
			rv_buf_puts(b, " `S2`: 2 of the records are of suspect rows (busy machine, "
			               "imprecise median).");
			break;
		}
	rv_buf_puts(b, "\n\n| hardware | op |");
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

/* The regime cell of a record: its verdict's text, the label and the
 * measured regime in bold when the check failed. */
static void md_regime(struct rv_buf *b, const struct rv_record *r)
{
	char text[256];
	const char *bold = r->pass_regime == RV_CHECK_FAIL ? "**" : "";

	rv_report__regime_text(text, sizeof(text), r);
	rv_buf_puts(b, bold);
	rv_report__put_line(b, text, 1);
	rv_buf_puts(b, bold);
}

/* One model's failures (or, models set, every model's) worst first: top of
 * them (0: all) as a table, the rest counted. */
static int md_failures(struct rv_buf *b, const struct rv_validation *v, const struct rv_summary *s,
                       int models, size_t top)
{
	char shape[64], text[RV_REPORT_NUM_SIZE * 2];
	size_t *idx = NULL, n = 0, shown;
	int err;

	if (s->failed == 0) {
		rv_buf_puts(b, "## Failures\n\nNone.\n");
		return 0;
	}
	if ((err = rv_report__worst_first(v, NULL, &idx, &n)) < 0)
		return err;
	shown = rv_report__shown(n, top);
	rv_buf_printf(b, "## Failures (%zu of %zu records)\n\nWorst first, by \\|latency error\\|",
	              s->failed, s->records);
	if (shown < n)
		rv_buf_printf(b, "; the %zu worst (`--top 0` lists them all)", shown);
	rv_buf_puts(b, ".\n\n");
	if (models)
		rv_buf_puts(b, "| model ");
	rv_buf_puts(
	        b, "| hardware | op | shape | dtype | regime "
	           "| predicted ms | measured ms | latency error (tolerance) "
	           "| predicted mJ | measured mJ | energy error (tolerance) | binding | notes |\n");
	if (models)
		rv_buf_puts(b, "|---");
	rv_buf_puts(b, "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
	for (size_t i = 0; i < shown; i++) {
		const struct rv_record *r = &v->records[idx[i]];

		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		if (models) {
			rv_buf_puts(b, "| ");
			rv_report__put_line(b, r->model, 1);
			rv_buf_putc(b, ' ');
		}
		rv_buf_puts(b, "| ");
		rv_report__put_line(b, r->hardware, 1);
		rv_buf_printf(b, " | %s | %s | %s | ", rv_op_name(r->op), shape,
		              rv_dtype_name(r->dtype));
		md_regime(b, r);
		rv_buf_puts(b, " |");
		md_quantity(b, r->latency_pred_s * 1e3, r->latency_meas_s * 1e3, r->latency_err,
		            r->band.latency, !r->pass_latency);
		if (r->pass_energy == RV_CHECK_SKIP)
			rv_buf_puts(b, " - | - | not scored |");
		else
			md_quantity(b, r->energy_pred_J * 1e3, r->energy_meas_J * 1e3,
			            r->energy_err, r->band.energy, r->pass_energy == RV_CHECK_FAIL);
		rv_report__binding(text, sizeof(text), r);
		rv_buf_printf(b, " %s | ", text);
		if (r->suspect) {
			rv_buf_puts(b, "**suspect**: ");
			rv_report__put_line(b, r->suspect_why, 1);
			rv_buf_puts(b, r->notes[0] ? "; " : "");
		}
		rv_report__put_line(b, r->notes[0] || r->suspect ? r->notes : "-", 1);
		rv_buf_puts(b, " |\n");
	}
	if (shown < n)
		rv_buf_printf(b, "\n... and %zu more\n", n - shown);
	free(idx);
	return 0;
}

/* Each model's failures worst first, a row each, top of them. */
static int md_worst(struct rv_buf *b, const struct rv_report__ctx *c)
{
	const struct rv_validation *v = c->v;

	for (size_t m = 0; m < v->n_models; m++) {
		size_t *idx = NULL, n = 0, shown;
		char shape[64], num[3][RV_REPORT_NUM_SIZE], what[100], bind[100];
		int err = rv_report__worst_first(v, v->models[m], &idx, &n);

		if (err < 0)
			return err;
		shown = rv_report__shown(n, c->top);
		rv_buf_puts(b, "\n## Worst first: ");
		rv_report__put_line(b, v->models[m], 1);
		if (n == 0) {
			rv_buf_puts(b, "\n\nNo failures.\n");
			free(idx);
			continue;
		}
		rv_buf_printf(b, "\n\n%zu failures by \\|latency error\\|", n);
		if (shown < n)
			rv_buf_printf(b, "; the %zu worst (`--top 0` lists them all)", shown);
		rv_buf_puts(b, ".\n\n| # | hardware | op | shape | dtype | regime | predicted ms | "
		               "measured ms | latency error | failed | binding |\n"
		               "|---:|---|---|---|---|---|---:|---:|---:|---|---|\n");
		for (size_t i = 0; i < shown; i++) {
			const struct rv_record *r = &v->records[idx[i]];

			(void)rv_shape_format(shape, sizeof(shape), &r->shape);
			rv_report__sig4(num[0], sizeof(num[0]), r->latency_pred_s * 1e3);
			rv_report__sig4(num[1], sizeof(num[1]), r->latency_meas_s * 1e3);
			rv_report__percent(num[2], sizeof(num[2]), r->latency_err, 1);
			rv_report__failed_checks(what, sizeof(what), r);
			rv_report__binding(bind, sizeof(bind), r);
			rv_buf_printf(b, "| %zu | ", i + 1);
			rv_report__put_line(b, r->hardware, 1);
			rv_buf_printf(b, " | %s | %s | %s | ", rv_op_name(r->op), shape,
			              rv_dtype_name(r->dtype));
			md_regime(b, r);
			rv_buf_printf(b, " | %s | %s | %s%s%s | %s | %s |\n", num[0], num[1],
			              r->pass_latency ? "" : "**", num[2],
			              r->pass_latency ? "" : "**", what, bind);
		}
		if (shown < n)
			rv_buf_printf(b, "\n... and %zu more\n", n - shown);
		free(idx);
	}
	return 0;
}

/* The shapes a model failed, a row each with every model's prediction and
 * verdict, the largest disagreement first. */
static void md_shapes(struct rv_buf *b, const struct rv_report__ctx *c)
{
	const struct rv_validation *v = c->v;
	const struct rv_report__shapes *sh = c->shapes;
	size_t shown = rv_report__shown(sh->n, c->top);
	char shape[64], num[RV_REPORT_NUM_SIZE], what[100];

	rv_buf_puts(b, "\n## Failures side by side\n\n");
	if (sh->n == 0) {
		rv_buf_puts(b, "None: no shape that a model failed has records of two models.\n");
		return;
	}
	rv_buf_printf(b,
	              "%zu shapes a model failed, a row each with every model's predicted ms, "
	              "latency error and verdict, the largest disagreement first (apart: the "
	              "largest latency error minus the smallest)",
	              sh->n);
	if (shown < sh->n)
		rv_buf_printf(b, "; the first %zu (`--top 0` lists them all)", shown);
	rv_buf_puts(b, ".\n\n| hardware | op | shape | dtype | regime label | measured ms |");
	for (size_t m = 0; m < v->n_models; m++) {
		rv_buf_putc(b, ' ');
		rv_report__put_line(b, v->models[m], 1);
		rv_buf_puts(b, " |");
	}
	rv_buf_puts(b, " apart |\n|---|---|---|---|---|---:|");
	for (size_t m = 0; m < v->n_models; m++)
		rv_buf_puts(b, "---|");
	rv_buf_puts(b, "---:|\n");
	for (size_t k = 0; k < shown; k++) {
		const struct rv_report__shape *e = &sh->shape[k];
		const struct rv_record *r0 = &v->records[e->rec[0]];

		(void)rv_shape_format(shape, sizeof(shape), &r0->shape);
		rv_report__sig4(num, sizeof(num), r0->latency_meas_s * 1e3);
		rv_buf_puts(b, "| ");
		rv_report__put_line(b, r0->hardware, 1);
		rv_buf_printf(b, " | %s | %s | %s | %s | %s |", rv_op_name(r0->op), shape,
		              rv_dtype_name(r0->dtype), rv_regime_name(r0->regime_label), num);
		for (size_t m = 0, j = 0; m < v->n_models; m++) {
			const struct rv_record *r = NULL;

			for (size_t q = j; q < e->n_rec && !r; q++)
				if (strcmp(v->records[e->rec[q]].model, v->models[m]) == 0) {
					r = &v->records[e->rec[q]];
					j = q + 1;
				}
			if (!r) {
				rv_buf_puts(b, " - |");
				continue;
			}
			rv_report__sig4(num, sizeof(num), r->latency_pred_s * 1e3);
			rv_buf_printf(b, " %s ms, ", num);
			rv_report__percent(num, sizeof(num), r->latency_err, 1);
			if (rv_record_passed(r)) {
				rv_buf_printf(b, "%s pass |", num);
			} else {
				rv_report__failed_checks(what, sizeof(what), r);
				rv_buf_printf(b, "%s **FAIL** %s |", num, what);
			}
		}
		rv_report__percent(num, sizeof(num), e->spread, 0);
		rv_buf_printf(b, " %s |\n", num);
	}
	if (shown < sh->n)
		rv_buf_printf(b, "\n... and %zu more\n", sh->n - shown);
}

/* Per cell: its bias and quartiles, and the rate its predictions imply
 * against the one measured. */
static void md_why(struct rv_buf *b, const struct rv_report__ctx *c)
{
	int models = c->side->n_models > 1;

	if (c->n_cells == 0)
		return;
	rv_buf_puts(b, "\n## Where and why\n\nPer cell: records within band, median "
	               "\\|latency error\\|, the median signed error (fast: the model predicts "
	               "less time than measured) with its quartiles, and the rate the "
	               "predictions imply against the one the measurements achieve (median, "
	               "quartiles).\n\n");
	rv_buf_puts(b, models ? "| model | hardware |" : "| hardware |");
	rv_buf_puts(b, " op | regime | within band | median \\|error\\| | bias (quartiles) | "
	               "the model assumes | measured |\n");
	rv_buf_puts(b, models ? "|---|---|" : "|---|");
	rv_buf_puts(b, "---|---|---:|---:|---|---:|---|\n");
	for (size_t i = 0; i < c->n_cells; i++) {
		const struct rv_cell *cl = &c->cells[i];
		char ape[RV_REPORT_NUM_SIZE], bias[RV_REPORT_NUM_SIZE], lo[RV_REPORT_NUM_SIZE],
		        hi[RV_REPORT_NUM_SIZE], m[RV_REPORT_NUM_SIZE], q1[RV_REPORT_NUM_SIZE],
		        mm[RV_REPORT_NUM_SIZE], q3[RV_REPORT_NUM_SIZE];

		rv_buf_puts(b, "| ");
		if (models) {
			rv_report__put_line(b, cl->model, 1);
			rv_buf_puts(b, " | ");
		}
		rv_report__put_line(b, cl->hardware, 1);
		rv_report__percent(ape, sizeof(ape), cl->median_latency_ape, 0);
		rv_report__bias_text(bias, sizeof(bias), cl->latency_bias.median);
		rv_report__percent(lo, sizeof(lo), cl->latency_bias.p25, 1);
		rv_report__percent(hi, sizeof(hi), cl->latency_bias.p75, 1);
		rv_buf_printf(b, " | %s | %s | %zu/%zu | %s | %s (%s to %s) |", rv_op_name(cl->op),
		              rv_regime_name(cl->regime), cl->n_within_band, cl->n_total, ape, bias,
		              lo, hi);
		if (cl->rate == RV_RATE_NONE) {
			rv_buf_puts(b, " - | - |\n");
			continue;
		}
		rv_report__rate_text(m, sizeof(m), cl->rate, cl->rate_model.median);
		rv_report__rate_text(mm, sizeof(mm), cl->rate, cl->rate_measured.median);
		rv_report__rate_text(q1, sizeof(q1), cl->rate, cl->rate_measured.p25);
		rv_report__rate_text(q3, sizeof(q3), cl->rate, cl->rate_measured.p75);
		rv_buf_printf(b, " %s%s | %s (%s to %s) |\n", m,
		              cl->rate == RV_RATE_SECONDS ? " per call" : "", mm, q1, q3);
	}
}

/* The labels the measurements contradict: the sweep's finding, no model's. */
static void md_labels(struct rv_buf *b, const struct rv_validation *v)
{
	size_t n = 0;

	for (size_t i = 0; i < v->n_labels; i++)
		n += v->labels[i].contradicted > 0;
	if (n == 0)
		return;
	rv_buf_puts(b, "\n## Labels the measurement contradicts\n\nA finding about the sweep, "
	               "charged to no model.\n\n");
	for (size_t i = 0; i < v->n_labels; i++) {
		struct rv_buf line = RV_BUF_INIT;

		if (v->labels[i].contradicted == 0)
			continue;
		rv_report__label_finding(&line, &v->labels[i]);
		rv_buf_puts(b, "- ");
		rv_report__put_line(b, rv_buf_str(&line), 1);
		rv_buf_putc(b, '\n');
		rv_buf_free(&line);
	}
}

static void md_missing(struct rv_buf *b, const struct rv_validation *v)
{
	size_t shown = v->n_missing < RV_REPORT_MISSING_MAX ? v->n_missing : RV_REPORT_MISSING_MAX;
	char shape[64];

	if (v->n_missing == 0)
		return;
	rv_buf_printf(b,
	              "\n## Without a prediction (%zu entries with a baseline row)\n\n"
	              "| model | hardware | op | shape | dtype |\n|---|---|---|---|---|\n",
	              v->n_missing);
	for (size_t i = 0; i < shown; i++) {
		const struct rv_missing *m = &v->missing[i];

		(void)rv_shape_format(shape, sizeof(shape), &m->shape);
		rv_buf_puts(b, "| ");
		rv_report__put_line(b, m->model, 1);
		rv_buf_puts(b, " | ");
		rv_report__put_line(b, m->hardware, 1);
		rv_buf_printf(b, " | %s | %s | %s |\n", rv_op_name(m->op), shape,
		              rv_dtype_name(m->dtype));
	}
	if (v->n_missing > shown)
		rv_buf_printf(b, "\n... and %zu more (--format json lists them all)\n",
		              v->n_missing - shown);
}

static void md_suspects(struct rv_buf *b, const struct rv_validation *v)
{
	size_t n = 0, shown = 0;
	char shape[64];

	for (size_t i = 0; i < v->n_records; i++)
		n += v->records[i].suspect != 0;
	if (n == 0)
		return;
	rv_buf_printf(b,
	              "\n## Suspect records (%zu)\n\nScored, unless `--exclude-flagged` leaves "
	              "their rows out.\n\n| model | hardware | op | shape | dtype | verdict | "
	              "why |\n|---|---|---|---|---|---|---|\n",
	              n);
	for (size_t i = 0; i < v->n_records && shown < RV_REPORT_MISSING_MAX; i++) {
		const struct rv_record *r = &v->records[i];

		if (!r->suspect)
			continue;
		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_buf_puts(b, "| ");
		rv_report__put_line(b, r->model, 1);
		rv_buf_puts(b, " | ");
		rv_report__put_line(b, r->hardware, 1);
		rv_buf_printf(b, " | %s | %s | %s | %s | ", rv_op_name(r->op), shape,
		              rv_dtype_name(r->dtype), rv_record_passed(r) ? "pass" : "FAIL");
		rv_report__put_line(b, r->suspect_why, 1);
		rv_buf_puts(b, " |\n");
		shown++;
	}
	if (n > shown)
		rv_buf_printf(b, "\n... and %zu more (--format json lists them all)\n", n - shown);
}

static void md_noise(struct rv_buf *b, const struct rv_report__ctx *c)
{
	char text[RV_REPORT_NOISE_TEXT_SIZE], pass[RV_REPORT_NUM_SIZE];

	rv_buf_puts(b, "\n## Noise ceiling\n\nThe share of paired records (two captures of one "
	               "target, or the matmul and linear of one GEMM) that one prediction could "
	               "pass, beside the model's records within the latency band.\n\n"
	               "| model | hardware | op | ceiling | model within band |\n"
	               "|---|---|---|---|---:|\n");
	for (size_t i = 0; i < c->n_noise; i++) {
		const struct rv_noise *n = &c->noise[i];

		rv_report__noise_text(text, sizeof(text), n);
		rv_report__percent(
		        pass, sizeof(pass),
		        n->records ? (double)n->within_band / (double)n->records : (double)NAN, 0);
		rv_buf_puts(b, "| ");
		rv_report__put_line(b, n->model, 1);
		rv_buf_puts(b, " | ");
		rv_report__put_line(b, n->hardware, 1);
		rv_buf_printf(b, " | %s | %s | %zu of %zu (%s) |\n", rv_op_name(n->op), text,
		              n->within_band, n->records, pass);
	}
}

static void md_side(struct rv_buf *b, const struct rv_report__ctx *c)
{
	const struct rv_report__side *sd = c->side;
	const struct rv_validation *v = c->v;
	char pct[RV_REPORT_NUM_SIZE], shape[64];
	size_t groups = 0, shown = 0;

	rv_buf_puts(b, "\n## Models side by side\n\nRecords within the latency band of their "
	               "total, and the median |latency error|, per hardware, op and regime "
	               "label. Better: more records within band, then the lower median.\n\n"
	               "| hardware | op | regime |");
	for (size_t m = 0; m < sd->n_models; m++) {
		rv_buf_putc(b, ' ');
		rv_report__put_line(b, sd->models[m], 1);
		rv_buf_puts(b, " |");
	}
	rv_buf_puts(b, " better |\n|---|---|---|");
	for (size_t m = 0; m < sd->n_models; m++)
		rv_buf_puts(b, "---:|");
	rv_buf_puts(b, "---|\n");
	for (size_t k = 0; k < sd->n_rows; k++) {
		const struct rv_report__vs *vs = &sd->rows[k];

		rv_buf_puts(b, "| ");
		rv_report__put_line(b, vs->hardware, 1);
		rv_buf_printf(b, " | %s | %s |", rv_op_name(vs->op), rv_regime_name(vs->regime));
		for (size_t m = 0; m < sd->n_models; m++) {
			const struct rv_cell *cl = vs->cell[m];

			if (!cl) {
				rv_buf_puts(b, " - |");
				continue;
			}
			rv_report__percent(pct, sizeof(pct), cl->median_latency_ape, 0);
			rv_buf_printf(b, " %zu/%zu %s |", rv_report__within_band(cl), cl->n_total,
			              pct);
		}
		rv_buf_puts(b, " ");
		rv_report__put_line(b, vs->better >= 0 ? sd->models[vs->better] : "-", 1);
		rv_buf_puts(b, " |\n");
	}
	for (size_t k = 0; k < c->shapes->n; k++)
		groups += c->shapes->shape[k].mixed != 0;
	if (groups == 0) {
		rv_buf_puts(b, "\n## Disagreements\n\nNone: on every entry the models pass or fail "
		               "alike.\n");
		return;
	}
	rv_buf_printf(b,
	              "\n## Disagreements (%zu entries)\n\nEntries that one model passes and "
	              "another fails, with each model's latency error, the largest disagreement "
	              "first.\n\n"
	              "| hardware | op | shape | dtype | verdicts |\n|---|---|---|---|---|\n",
	              groups);
	for (size_t k = 0; k < c->shapes->n && shown < RV_REPORT_MISSING_MAX; k++) {
		const struct rv_report__shape *e = &c->shapes->shape[k];
		const struct rv_record *r = &v->records[e->rec[0]];

		if (!e->mixed)
			continue;
		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_buf_puts(b, "| ");
		rv_report__put_line(b, r->hardware, 1);
		rv_buf_printf(b, " | %s | %s | %s |", rv_op_name(r->op), shape,
		              rv_dtype_name(r->dtype));
		for (size_t i = 0; i < e->n_rec; i++) {
			const struct rv_record *q = &v->records[e->rec[i]];

			rv_report__percent(pct, sizeof(pct), q->latency_err, 1);
			rv_buf_puts(b, i ? ", " : " ");
			rv_report__put_line(b, q->model, 1);
			rv_buf_printf(b, " %s (%s)", rv_record_passed(q) ? "pass" : "**FAIL**",
			              pct);
		}
		rv_buf_puts(b, " |\n");
		shown++;
	}
	if (groups > shown)
		rv_buf_printf(b, "\n... and %zu more (--format json lists them all)\n",
		              groups - shown);
}

static void md_against(struct rv_buf *b, const struct rv_report__ctx *c)
{
	const struct rv_comparison *cmp = c->against;
	char a[RV_REPORT_NUM_SIZE], z[RV_REPORT_NUM_SIZE], shape[64];

	rv_buf_puts(b, "\n## Against ");
	rv_report__put_line(b, c->against_name, 1);
	rv_buf_printf(b,
	              "\n\n%zu records in both, %zu of the earlier run not validated now; cells "
	              "change past %.1f points of median \\|latency error\\|: ",
	              cmp->n_matched, cmp->n_old_only, cmp->points);
	if (cmp->n_regressions == 0)
		rv_buf_puts(b, "no regressions");
	else
		rv_buf_printf(b, "**%zu regressions**", cmp->n_regressions);
	rv_buf_printf(b, ", %zu improvements.\n", cmp->n_improvements);
	if (cmp->n_changes == 0)
		return;
	rv_buf_puts(b, "\n| change | model | hardware | op | shape or regime | dtype | what |\n"
	               "|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < cmp->n_changes; i++) {
		const struct rv_change *ch = &cmp->changes[i];
		int rec = ch->kind == RV_CHANGE_RECORD;

		rv_buf_printf(b, "| %s | ", ch->regression ? "**regression**" : "improvement");
		rv_report__put_line(b, ch->model, 1);
		rv_buf_puts(b, " | ");
		rv_report__put_line(b, ch->hardware, 1);
		(void)rv_shape_format(shape, sizeof(shape), &ch->shape);
		rv_report__percent(a, sizeof(a), ch->old_value, rec);
		rv_report__percent(z, sizeof(z), ch->new_value, rec);
		if (rec)
			rv_buf_printf(b,
			              " | %s | %s | %s | %s, now %s (latency error %s -> %s) |\n",
			              rv_op_name(ch->op), shape, rv_dtype_name(ch->dtype),
			              ch->regression ? "passed" : "failed",
			              ch->regression ? "fails" : "passes", a, z);
		else
			rv_buf_printf(b, " | %s | %s | - | median \\|latency error\\| %s -> %s |\n",
			              rv_op_name(ch->op), rv_regime_name(ch->regime), a, z);
	}
}

int rv_report__markdown(struct rv_buf *out, const struct rv_report__ctx *c)
{
	const struct rv_validation *v = c->v;
	int several = c->side->n_models > 1 || v->n_models > 1;

	rv_buf_puts(out, "# roofval validation report\n\n");
	if (v->n_models > 1 || (v->n_models == 1 && strcmp(v->models[0], RV_BUILTIN_MODEL) != 0)) {
		rv_report__models_line(out, v);
		rv_buf_puts(out, "\n\n");
	}
	if (v->n_sources > 0) {
		rv_buf_puts(out, "Sources:\n\n");
		for (size_t i = 0; i < v->n_sources; i++) {
			if (rv_report__source_repeated(v, i))
				continue;
			rv_buf_puts(out, "- ");
			rv_report__put_line(out, v->sources[i], 0);
			rv_buf_putc(out, '\n');
		}
		rv_buf_putc(out, '\n');
	}
	if (!several) {
		md_summary(out, c->s, NULL, v);
	} else {
		for (size_t m = 0; m < v->n_models; m++) {
			struct rv_summary s;
			int err = rv_validation_summary_of(v, v->models[m], &s);

			if (err < 0)
				return err;
			if (m)
				rv_buf_putc(out, '\n');
			md_summary(out, &s, v->models[m], v);
		}
	}
	md_missing(out, v);
	md_suspects(out, v);
	md_why(out, c);
	md_labels(out, v);
	if (rv_report__shows_noise(c))
		md_noise(out, c);
	rv_buf_putc(out, '\n');
	if (c->side->n_models <= 1) {
		md_heatmap(out, c->cells, c->n_cells, NULL);
	} else {
		for (size_t i = 0; i < c->n_cells;) {
			size_t j = i;

			while (j < c->n_cells && strcmp(c->cells[j].model, c->cells[i].model) == 0)
				j++;
			if (i > 0)
				rv_buf_putc(out, '\n');
			md_heatmap(out, c->cells + i, j - i, c->cells[i].model);
			i = j;
		}
		md_side(out, c);
	}
	if (c->against)
		md_against(out, c);
	if (c->side->n_models > 1) {
		int err = md_worst(out, c);

		if (err == 0)
			md_shapes(out, c);
		return err;
	}
	rv_buf_putc(out, '\n');
	return md_failures(out, v, c->s, several, c->top);
}
