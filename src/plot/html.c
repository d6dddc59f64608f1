/* SPDX-License-Identifier: MIT */
/* The pieces of the HTML report: a page that opens from disk (no scripts, no
 * server, pictures by relative path) with the validation as tables. Numbers
 * are formatted by the report module's formatters, as in the text report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"
#include "core/op.h"
#include "core/regime.h"
#include "plot/plot.h"
#include "plot/svg.h"
#include "report/report_internal.h"

void rv_plot_html_begin(struct rv_buf *out, const char *title)
{
	rv_buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	                 "<title>");
	rv_svg_escape(out, title);
	rv_buf_puts(out,
	            "</title>\n<style>\n"
	            "body { font-family: \"DejaVu Sans\", Helvetica, Arial, sans-serif; color: "
	            "#222; max-width: 1520px; margin: 24px auto; padding: 0 16px; }\n"
	            "h2 { border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 36px; }\n"
	            "table { border-collapse: collapse; margin: 8px 0 16px; }\n"
	            "th, td { border: 1px solid #ccc; padding: 3px 8px; font-size: 13px; }\n"
	            "th { background: #f0f0f0; text-align: left; }\n"
	            "td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
	            "td.fail { background: #f6d2cd; font-weight: bold; }\n"
	            "figure { margin: 12px 0 20px; }\n"
	            "figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }\n"
	            "figcaption { color: #555; font-size: 13px; }\n"
	            "summary { cursor: pointer; margin: 8px 0; }\n"
	            "nav.toc { background: #f7f7f7; border: 1px solid #ddd; padding: 4px 16px; "
	            "display: inline-block; }\n"
	            "nav.toc ol { margin: 4px 0 8px; padding-left: 22px; }\n"
	            "figure object { max-width: 100%; height: auto; border: 1px solid #ddd; }\n"
	            "td.pos { color: #8c3a00; } td.neg { color: #1f4e99; }\n"
	            "</style>\n</head>\n<body>\n<h1>");
	rv_svg_escape(out, title);
	rv_buf_puts(out, "</h1>\n");
}

void rv_plot_html_end(struct rv_buf *out)
{
	rv_buf_puts(out, "</body>\n</html>\n");
}

void rv_plot_html_heading(struct rv_buf *out, int level, const char *text)
{
	rv_plot_html_heading_id(out, level, NULL, text);
}

void rv_plot_html_heading_id(struct rv_buf *out, int level, const char *id, const char *text)
{
	int h = level == 3 ? 3 : 2;

	rv_buf_printf(out, "<h%d", h);
	if (id) {
		rv_buf_puts(out, " id=\"");
		rv_svg_escape(out, id);
		rv_buf_putc(out, '"');
	}
	rv_buf_putc(out, '>');
	rv_svg_escape(out, text);
	rv_buf_printf(out, "</h%d>\n", h);
}

void rv_plot_html_para(struct rv_buf *out, const char *text)
{
	rv_buf_puts(out, "<p>");
	rv_svg_escape(out, text);
	rv_buf_puts(out, "</p>\n");
}

void rv_plot_html_figure(struct rv_buf *out, const char *src, const char *caption)
{
	/* An object, not an img: the picture's own hover text shows. */
	rv_buf_puts(out, "<figure><object type=\"image/svg+xml\" data=\"");
	rv_svg_escape(out, src);
	rv_buf_puts(out, "\" aria-label=\"");
	rv_svg_escape(out, caption);
	rv_buf_puts(out, "\"><img src=\"");
	rv_svg_escape(out, src);
	rv_buf_puts(out, "\" alt=\"");
	rv_svg_escape(out, caption);
	rv_buf_puts(out, "\"></object><figcaption>");
	rv_svg_escape(out, caption);
	rv_buf_puts(out, " (<a href=\"");
	rv_svg_escape(out, src);
	rv_buf_puts(out, "\">the picture alone</a>; hover over a point for its numbers)"
	                 "</figcaption></figure>\n");
}

/* <td> with text, right-aligned for numbers, marked when failed. */
static void td(struct rv_buf *out, const char *text, int number, int failed)
{
	const char *cls = failed ? (number ? " class=\"n fail\"" : " class=\"fail\"")
	                         : (number ? " class=\"n\"" : "");

	rv_buf_printf(out, "<td%s>", cls);
	rv_svg_escape(out, text);
	rv_buf_puts(out, "</td>");
}

static void html_summary(struct rv_buf *out, const struct rv_summary *s, int skipped)
{
	const struct rv_accuracy *acc[2] = { &s->latency, &s->energy };
	const char *names[2] = { "latency", "energy" };
	char t[3][RV_REPORT_NUM_SIZE], num[32];

	rv_buf_puts(out, "<table>\n<tr><th>records</th><th>passed</th><th>failed</th>");
	if (skipped)
		rv_buf_puts(out, "<th>skipped: no baseline</th><th>skipped: unsupported</th>"
		                 "<th>skipped: ambiguous</th>");
	rv_buf_puts(out, "</tr>\n<tr>");
	(void)snprintf(num, sizeof(num), "%zu", s->records);
	td(out, num, 1, 0);
	(void)snprintf(num, sizeof(num), "%zu", s->passed);
	td(out, num, 1, 0);
	(void)snprintf(num, sizeof(num), "%zu", s->failed);
	td(out, num, 1, s->failed > 0);
	if (skipped) {
		(void)snprintf(num, sizeof(num), "%zu", s->skipped_no_baseline);
		td(out, num, 1, 0);
		(void)snprintf(num, sizeof(num), "%zu", s->skipped_unsupported);
		td(out, num, 1, 0);
		(void)snprintf(num, sizeof(num), "%zu", s->skipped_ambiguous);
		td(out, num, 1, 0);
	}
	rv_buf_puts(out, "</tr>\n</table>\n<table>\n<tr><th>accuracy</th><th>n</th>"
	                 "<th>median |error|</th><th>within 10%</th><th>within 25%</th></tr>\n");
	for (int q = 0; q < 2; q++) {
		rv_buf_printf(out, "<tr><td>%s</td>", names[q]);
		(void)snprintf(num, sizeof(num), "%zu", acc[q]->n);
		td(out, num, 1, 0);
		if (acc[q]->n == 0) {
			rv_buf_puts(out, "<td class=\"n\">-</td><td class=\"n\">-</td>"
			                 "<td class=\"n\">-</td></tr>\n");
			continue;
		}
		rv_report__percent(t[0], sizeof(t[0]), acc[q]->median_ape, 0);
		rv_report__percent(t[1], sizeof(t[1]), acc[q]->within_10, 0);
		rv_report__percent(t[2], sizeof(t[2]), acc[q]->within_25, 0);
		for (int i = 0; i < 3; i++)
			td(out, t[i], 1, 0);
		rv_buf_puts(out, "</tr>\n");
	}
	rv_buf_puts(out, "</table>\n");
	if (s->regime_scored > 0 || s->regime_unstated > 0) {
		rv_buf_printf(out, "<p>Regime: %zu of %zu stated regimes match the measurement",
		              s->regime_passed, s->regime_scored);
		if (s->regime_unstated > 0)
			rv_buf_printf(out, "; regime not stated on %zu records (not scored)",
			              s->regime_unstated);
		rv_buf_puts(out, ".</p>\n");
	}
}

static void html_record(struct rv_buf *out, const struct rv_record *r, int models)
{
	char text[RV_REPORT_NUM_SIZE * 4], shape[64];

	rv_buf_puts(out, "<tr>");
	if (models)
		td(out, r->model, 0, 0);
	td(out, rv_op_name(r->op), 0, 0);
	(void)rv_shape_format(shape, sizeof(shape), &r->shape);
	td(out, shape, 0, 0);
	td(out, rv_dtype_name(r->dtype), 0, 0);
	td(out, rv_regime_name(r->regime_label), 0, 0);
	td(out, rv_regime_name(r->regime_measured), 0, r->pass_regime == RV_CHECK_FAIL);
	rv_report__sig4(text, sizeof(text), 1e3 * r->latency_pred_s);
	td(out, text, 1, 0);
	rv_report__sig4(text, sizeof(text), 1e3 * r->latency_meas_s);
	td(out, text, 1, 0);
	rv_report__percent(text, sizeof(text), r->latency_err, 1);
	td(out, text, 1, !r->pass_latency);
	rv_report__percent(text, sizeof(text), r->band.latency, 0);
	td(out, text, 1, 0);
	if (r->pass_energy == RV_CHECK_SKIP)
		(void)snprintf(text, sizeof(text), "not scored");
	else
		rv_report__percent(text, sizeof(text), r->energy_err, 1);
	td(out, text, 1, r->pass_energy == RV_CHECK_FAIL);
	rv_report__binding(text, sizeof(text), r);
	td(out, text, 0, 0);
	td(out, rv_record_passed(r) ? "pass" : "FAIL", 0, !rv_record_passed(r));
	td(out, r->notes, 0, 0);
	rv_buf_puts(out, "</tr>\n");
}

int rv_plot_html_validation(struct rv_buf *out, const struct rv_validation *v, const char *hw)
{
	struct rv_validation sub;
	struct rv_summary s;
	size_t n = 0;
	int err;

	/* The records of hw, borrowed: a validation of their own for the summary. */
	memset(&sub, 0, sizeof(sub));
	if (v->n_records > 0) {
		sub.records = malloc(v->n_records * sizeof(*sub.records));
		if (!sub.records)
			return rv_error_set(RV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < v->n_records; i++)
		if (!hw || strcmp(v->records[i].hardware, hw) == 0)
			sub.records[n++] = v->records[i];
	sub.n_records = sub.cap_records = n;
	if (!hw) {
		sub.skipped_no_baseline = v->skipped_no_baseline;
		sub.skipped_unsupported = v->skipped_unsupported;
		sub.skipped_ambiguous = v->skipped_ambiguous;
	}
	err = rv_validation_summary(&sub, &s);
	if (err < 0) {
		free(sub.records);
		return err;
	}
	html_summary(out, &s, hw == NULL);
	if (hw && n > 0) {
		rv_buf_printf(out,
		              "<details>\n<summary>every record (%zu, %zu failed)</summary>\n"
		              "<table>\n<tr>%s<th>op</th><th>shape</th><th>dtype</th><th>regime "
		              "label</th><th>measured regime</th><th>predicted ms</th>"
		              "<th>measured ms</th><th>latency error</th><th>tolerance</th>"
		              "<th>energy error</th><th>binding</th><th>verdict</th><th>notes</th>"
		              "</tr>\n",
		              n, s.failed, v->n_models > 1 ? "<th>model</th>" : "");
		for (size_t i = 0; i < n; i++)
			html_record(out, &sub.records[i], v->n_models > 1);
		rv_buf_puts(out, "</table>\n</details>\n");
	}
	free(sub.records);
	return rv_buf_check(out);
}

int rv_plot_html_models(struct rv_buf *out, const struct rv_validation *v)
{
	struct rv_cell *cells = NULL;
	struct rv_report__side side;
	size_t n_cells = 0, *idx = NULL, n_idx = 0, groups;
	char text[RV_REPORT_NUM_SIZE * 4];
	int err;

	memset(&side, 0, sizeof(side));
	if (v->n_models < 2)
		return 0;
	for (size_t m = 0; m < v->n_models; m++) {
		struct rv_summary s;

		if ((err = rv_validation_summary_of(v, v->models[m], &s)) < 0)
			return err;
		rv_plot_html_heading(out, 3, v->models[m]);
		html_summary(out, &s, 0);
	}
	err = rv_validation_cells(v, &cells, &n_cells);
	if (err == 0)
		err = rv_report__side_of(&side, cells, n_cells);
	if (err == 0)
		err = rv_validation_disagreements(v, &idx, &n_idx);
	if (err < 0)
		goto done;
	rv_plot_html_heading(out, 3, "Models side by side");
	rv_plot_html_para(out, "Records within the latency band of their total and the median "
	                       "|latency error| per hardware, op and regime label; the better "
	                       "model has more records within band, then the lower median.");
	rv_buf_puts(out, "<table>\n<tr><th>hardware</th><th>op</th><th>regime</th>");
	for (size_t m = 0; m < side.n_models; m++) {
		rv_buf_puts(out, "<th>");
		rv_svg_escape(out, side.models[m]);
		rv_buf_puts(out, "</th>");
	}
	rv_buf_puts(out, "<th>better</th></tr>\n");
	for (size_t k = 0; k < side.n_rows; k++) {
		const struct rv_report__vs *vs = &side.rows[k];

		rv_buf_puts(out, "<tr>");
		td(out, vs->hardware, 0, 0);
		td(out, rv_op_name(vs->op), 0, 0);
		td(out, rv_regime_name(vs->regime), 0, 0);
		for (size_t m = 0; m < side.n_models; m++) {
			const struct rv_cell *c = vs->cell[m];
			char pct[RV_REPORT_NUM_SIZE];

			if (!c) {
				td(out, "-", 1, 0);
				continue;
			}
			rv_report__percent(pct, sizeof(pct), c->median_latency_ape, 0);
			(void)snprintf(text, sizeof(text), "%zu/%zu %s", rv_report__within_band(c),
			               c->n_total, pct);
			td(out, text, 1, 0);
		}
		td(out, vs->better >= 0 ? side.models[vs->better] : "-", 0, 0);
		rv_buf_puts(out, "</tr>\n");
	}
	rv_buf_puts(out, "</table>\n");
	rv_plot_html_heading(out, 3, "Disagreements");
	groups = 0;
	for (size_t i = 0; i < n_idx; i++)
		groups += i == 0 ||
		          !rv_record_same_entry(&v->records[idx[i - 1]], &v->records[idx[i]]);
	if (groups == 0) {
		rv_plot_html_para(out, "None: on every entry the models pass or fail alike.");
	} else {
		(void)snprintf(text, sizeof(text),
		               "%zu entries that one model passes and another fails: marked "
		               "\"differ\" among the shapes side by side.",
		               groups);
		rv_buf_puts(out, "<p>");
		rv_svg_escape(out, text);
		rv_buf_puts(out, " <a href=\"#shapes\">Shapes side by side</a></p>\n");
	}
done:
	free(cells);
	free(idx);
	rv_report__side_free(&side);
	return err < 0 ? err : rv_buf_check(out);
}

/* A signed error as a cell: coloured by its direction (slow: predicted
 * longer than measured), bold when its check failed. */
static void td_signed(struct rv_buf *out, double err, int failed)
{
	char text[RV_REPORT_NUM_SIZE];

	rv_report__percent(text, sizeof(text), err, 1);
	rv_buf_printf(out, "<td class=\"n%s%s\">", failed ? " fail" : "",
	              !isfinite(err) ? ""
	              : err > 0      ? " pos"
	              : err < 0      ? " neg"
	                             : "");
	rv_svg_escape(out, text);
	rv_buf_puts(out, "</td>");
}

static void worst_header(struct rv_buf *out)
{
	rv_buf_puts(out, "<table>\n<tr><th>#</th><th>hardware</th><th>op</th><th>shape</th>"
	                 "<th>dtype</th><th>regime label</th><th>measured regime</th>"
	                 "<th>predicted ms</th><th>measured ms</th><th>latency error</th>"
	                 "<th>tolerance</th><th>failed</th><th>binding</th><th>notes</th>"
	                 "<th>the model's own numbers</th></tr>\n");
}

/* A record's extra numbers (a predictions file's extra columns): "compute_s
 * 1.2e-05, memory_s 3e-06"; "" without. */
static void extras_text(char *out, size_t size, const struct rv_validation *v,
                        const struct rv_record *r)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t k = 0; k < r->n_extra && r->extra_at + k < v->n_extras && len < size; k++) {
		const struct rv_extra *e = &v->extras[r->extra_at + k];

		(void)snprintf(out + len, size - len, "%s%s %.4g", k ? ", " : "", e->name,
		               e->value);
		len += strlen(out + len);
	}
}

static void worst_row(struct rv_buf *out, const struct rv_validation *v, const struct rv_record *r,
                      size_t rank)
{
	char text[RV_REPORT_NUM_SIZE * 4], shape[64];

	rv_buf_puts(out, "<tr>");
	(void)snprintf(text, sizeof(text), "%zu", rank);
	td(out, text, 1, 0);
	td(out, r->hardware, 0, 0);
	td(out, rv_op_name(r->op), 0, 0);
	(void)rv_shape_format(shape, sizeof(shape), &r->shape);
	td(out, shape, 0, 0);
	td(out, rv_dtype_name(r->dtype), 0, 0);
	td(out, rv_regime_name(r->regime_label), 0, 0);
	td(out, rv_regime_name(r->regime_measured), 0, r->pass_regime == RV_CHECK_FAIL);
	rv_report__sig4(text, sizeof(text), 1e3 * r->latency_pred_s);
	td(out, text, 1, 0);
	rv_report__sig4(text, sizeof(text), 1e3 * r->latency_meas_s);
	td(out, text, 1, 0);
	td_signed(out, r->latency_err, !r->pass_latency);
	rv_report__percent(text, sizeof(text), r->band.latency, 0);
	td(out, text, 1, 0);
	rv_report__failed_checks(text, sizeof(text), r);
	td(out, text, 0, 1);
	rv_report__binding(text, sizeof(text), r);
	td(out, text, 0, 0);
	td(out, r->notes, 0, 0);
	extras_text(text, sizeof(text), v, r);
	td(out, text, 0, 0);
	rv_buf_puts(out, "</tr>\n");
}

int rv_plot_html_worst(struct rv_buf *out, const struct rv_validation *v, size_t top)
{
	size_t n_models = v->n_models > 0 ? v->n_models : 1;

	for (size_t m = 0; m < n_models; m++) {
		const char *model = v->n_models > 0 ? v->models[m] : NULL;
		size_t *idx = NULL, n = 0, shown;
		char line[RV_MODEL_NAME_MAX + 160];
		int err = rv_report__worst_first(v, model, &idx, &n);

		if (err < 0)
			return err;
		shown = rv_report__shown(n, top);
		if (v->n_models > 1)
			rv_plot_html_heading(out, 3, model);
		if (n == 0) {
			rv_plot_html_para(out, "No failures.");
			free(idx);
			continue;
		}
		(void)snprintf(line, sizeof(line),
		               "%zu failures, ranked by |latency error| (a positive error: the "
		               "model predicts slower than measured)%s",
		               n,
		               shown < n ? "; the worst first, the others collapsed below" : ".");
		rv_plot_html_para(out, line);
		worst_header(out);
		for (size_t i = 0; i < n; i++) {
			if (i == shown) {
				rv_buf_printf(out,
				              "</table>\n<details>\n<summary>the other %zu "
				              "failures</summary>\n",
				              n - shown);
				worst_header(out);
			}
			worst_row(out, v, &v->records[idx[i]], i + 1);
		}
		rv_buf_puts(out, shown < n ? "</table>\n</details>\n" : "</table>\n");
		free(idx);
	}
	return rv_buf_check(out);
}

static void shapes_header(struct rv_buf *out, const struct rv_validation *v)
{
	rv_buf_puts(out, "<table>\n<tr><th>hardware</th><th>op</th><th>shape</th><th>dtype</th>"
	                 "<th>regime label</th><th>measured ms</th>");
	for (size_t m = 0; m < v->n_models; m++) {
		rv_buf_puts(out, "<th>");
		rv_svg_escape(out, v->models[m]);
		rv_buf_puts(out, ": predicted ms</th><th>error</th><th>verdict</th>");
	}
	rv_buf_puts(out, "<th>predictions apart</th><th>verdicts</th></tr>\n");
}

static void shapes_row(struct rv_buf *out, const struct rv_validation *v,
                       const struct rv_report__shape *e)
{
	const struct rv_record *r0 = &v->records[e->rec[0]];
	char text[RV_REPORT_NUM_SIZE * 4], shape[64];

	rv_buf_puts(out, "<tr>");
	td(out, r0->hardware, 0, 0);
	td(out, rv_op_name(r0->op), 0, 0);
	(void)rv_shape_format(shape, sizeof(shape), &r0->shape);
	td(out, shape, 0, 0);
	td(out, rv_dtype_name(r0->dtype), 0, 0);
	td(out, rv_regime_name(r0->regime_label), 0, 0);
	rv_report__sig4(text, sizeof(text), 1e3 * r0->latency_meas_s);
	td(out, text, 1, 0);
	/* A column group per model, in model order; a model without a record: dashes. */
	for (size_t m = 0, k = 0; m < v->n_models; m++) {
		const struct rv_record *r = NULL;

		for (size_t j = k; j < e->n_rec && !r; j++)
			if (strcmp(v->records[e->rec[j]].model, v->models[m]) == 0) {
				r = &v->records[e->rec[j]];
				k = j + 1;
			}
		if (!r) {
			rv_buf_puts(out, "<td class=\"n\">-</td><td class=\"n\">-</td><td>-</td>");
			continue;
		}
		rv_report__sig4(text, sizeof(text), 1e3 * r->latency_pred_s);
		td(out, text, 1, 0);
		td_signed(out, r->latency_err, !r->pass_latency);
		if (rv_record_passed(r)) {
			td(out, "pass", 0, 0);
		} else {
			char what[80];

			rv_report__failed_checks(what, sizeof(what), r);
			(void)snprintf(text, sizeof(text), "FAIL %s", what);
			td(out, text, 0, 1);
		}
	}
	rv_report__percent(text, sizeof(text), e->spread, 0);
	td(out, text, 1, 0);
	td(out, e->mixed ? "differ" : "all fail", 0, 0);
	rv_buf_puts(out, "</tr>\n");
}

int rv_plot_html_shapes(struct rv_buf *out, const struct rv_validation *v, size_t top)
{
	struct rv_report__shapes sh;
	size_t shown;
	char line[256];
	int err;

	if (v->n_models < 2)
		return 0;
	if ((err = rv_report__shapes_of(&sh, v)) < 0)
		return err;
	shown = rv_report__shown(sh.n, top);
	if (sh.n == 0) {
		rv_plot_html_para(out, "No shape that a model failed has records of two models.");
		rv_report__shapes_free(&sh);
		return rv_buf_check(out);
	}
	(void)snprintf(line, sizeof(line),
	               "%zu shapes a model failed, a row each with every model's prediction, "
	               "the largest disagreement first (predictions apart: the largest latency "
	               "error minus the smallest)%s",
	               sh.n, shown < sh.n ? "; the others collapsed below" : ".");
	rv_plot_html_para(out, line);
	shapes_header(out, v);
	for (size_t k = 0; k < sh.n; k++) {
		if (k == shown) {
			rv_buf_printf(
			        out,
			        "</table>\n<details>\n<summary>the other %zu shapes</summary>\n",
			        sh.n - shown);
			shapes_header(out, v);
		}
		shapes_row(out, v, &sh.shape[k]);
	}
	rv_buf_puts(out, shown < sh.n ? "</table>\n</details>\n" : "</table>\n");
	rv_report__shapes_free(&sh);
	return rv_buf_check(out);
}

int rv_plot_html_why(struct rv_buf *out, const struct rv_validation *v)
{
	struct rv_cell *cells = NULL;
	size_t n = 0;
	int models = v->n_models > 1, err = rv_validation_cells(v, &cells, &n);

	if (err < 0)
		return err;
	rv_plot_html_para(out, "Per cell: records within band, the median |latency error|, the "
	                       "median signed error (the bias; fast: the model predicts less "
	                       "time than measured) with its quartiles, and the rate the "
	                       "model's predictions imply for these records against the rate "
	                       "the measurements achieve (median and quartiles): FLOP/s on "
	                       "alu_bound rows, bytes/s on memory-bound rows, seconds per call "
	                       "on launch-bound rows.");
	rv_buf_printf(out,
	              "<table>\n<tr>%s<th>hardware</th><th>op</th><th>regime</th>"
	              "<th>within band</th><th>median |error|</th><th>bias</th>"
	              "<th>quartiles</th><th>the model assumes</th><th>measured</th>"
	              "<th>measured quartiles</th></tr>\n",
	              models ? "<th>model</th>" : "");
	for (size_t i = 0; i < n; i++) {
		const struct rv_cell *c = &cells[i];
		char a[RV_REPORT_NUM_SIZE], z[RV_REPORT_NUM_SIZE], text[RV_REPORT_NUM_SIZE * 3];

		rv_buf_puts(out, "<tr>");
		if (models)
			td(out, c->model, 0, 0);
		td(out, c->hardware, 0, 0);
		td(out, rv_op_name(c->op), 0, 0);
		td(out, rv_regime_name(c->regime), 0, 0);
		(void)snprintf(text, sizeof(text), "%zu/%zu", c->n_within_band, c->n_total);
		td(out, text, 1, c->n_within_band < c->n_total);
		rv_report__percent(text, sizeof(text), c->median_latency_ape, 0);
		td(out, text, 1, 0);
		rv_report__bias_text(text, sizeof(text), c->latency_bias.median);
		rv_buf_printf(out, "<td class=\"n%s\">",
		              c->latency_bias.median > 0   ? " pos"
		              : c->latency_bias.median < 0 ? " neg"
		                                           : "");
		rv_svg_escape(out, text);
		rv_buf_puts(out, "</td>");
		rv_report__percent(a, sizeof(a), c->latency_bias.p25, 1);
		rv_report__percent(z, sizeof(z), c->latency_bias.p75, 1);
		(void)snprintf(text, sizeof(text), "%s to %s", a, z);
		td(out, text, 1, 0);
		if (c->rate == RV_RATE_NONE) {
			rv_buf_puts(out, "<td>-</td><td>-</td><td>-</td></tr>\n");
			continue;
		}
		rv_report__rate_text(a, sizeof(a), c->rate, c->rate_model.median);
		(void)snprintf(text, sizeof(text), "%s%s", a,
		               c->rate == RV_RATE_SECONDS ? " per call" : "");
		td(out, text, 1, 0);
		rv_report__rate_text(a, sizeof(a), c->rate, c->rate_measured.median);
		td(out, a, 1, 0);
		rv_report__rate_text(a, sizeof(a), c->rate, c->rate_measured.p25);
		rv_report__rate_text(z, sizeof(z), c->rate, c->rate_measured.p75);
		(void)snprintf(text, sizeof(text), "%s to %s", a, z);
		td(out, text, 1, 0);
		rv_buf_puts(out, "</tr>\n");
	}
	rv_buf_puts(out, "</table>\n");
	free(cells);
	return rv_buf_check(out);
}

int rv_plot_html_labels(struct rv_buf *out, const struct rv_validation *v)
{
	rv_plot_html_para(out, "A finding about the sweep, charged to no model: labels the "
	                       "measurement does not match.");
	rv_buf_puts(out, "<ul>\n");
	for (size_t i = 0; i < v->n_labels; i++) {
		struct rv_buf line = RV_BUF_INIT;

		if (v->labels[i].contradicted == 0)
			continue;
		rv_report__label_finding(&line, &v->labels[i]);
		rv_buf_puts(out, "<li>");
		rv_svg_escape(out, rv_buf_str(&line));
		rv_buf_puts(out, "</li>\n");
		rv_buf_free(&line);
	}
	rv_buf_puts(out, "</ul>\n");
	return rv_buf_check(out);
}
