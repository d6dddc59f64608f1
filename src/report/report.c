/* SPDX-License-Identifier: MIT */
/* Report formats, dispatch, and the functions the renderers share. */
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/units.h"
#include "core/vec.h"
#include "io/file.h"
#include "model/predict.h"
#include "report/report_internal.h"

static const char *const rv_format_names[RV_FORMAT_COUNT] = {
	[RV_FORMAT_TEXT] = "text",
	[RV_FORMAT_MARKDOWN] = "markdown",
	[RV_FORMAT_JSON] = "json",
};

const enum rv_regime rv_report__column_regime[RV_REPORT_COLUMNS] = {
	RV_REGIME_ALU, RV_REGIME_L1, RV_REGIME_L2, RV_REGIME_DRAM, RV_REGIME_LAUNCH,
};

const char *const rv_report__column_name[RV_REPORT_COLUMNS] = {
	"alu", "l1", "l2", "dram", "launch",
};

int rv_format_parse(const char *name, enum rv_format *out)
{
	for (int i = 0; i < RV_FORMAT_COUNT; i++) {
		if (name && strcmp(name, rv_format_names[i]) == 0) {
			*out = (enum rv_format)i;
			return 0;
		}
	}
	return rv_error_set(RV_EPARSE, "unknown format '%s' (known: text markdown json)",
	                    name ? name : "");
}

const char *rv_format_name(enum rv_format f)
{
	return (unsigned)f < RV_FORMAT_COUNT ? rv_format_names[f] : "?";
}

int rv_report_render(struct rv_buf *out, const struct rv_validation *v, enum rv_format f)
{
	return rv_report_render_opts(out, v, f, NULL);
}

int rv_report_render_opts(struct rv_buf *out, const struct rv_validation *v, enum rv_format f,
                          const struct rv_report_opts *o)
{
	struct rv_summary s;
	struct rv_cell *cells = NULL;
	struct rv_report__side side;
	struct rv_report__ctx c;
	size_t *disagree = NULL, n_disagree = 0;
	struct rv_noise *noise = NULL;
	struct rv_report__shapes shapes;
	int err;

	memset(&side, 0, sizeof(side));
	memset(&shapes, 0, sizeof(shapes));
	if ((unsigned)f >= RV_FORMAT_COUNT)
		return rv_error_set(RV_EPARSE, "unknown report format %d", (int)f);
	memset(&c, 0, sizeof(c));
	err = rv_validation_summary(v, &s);
	if (err == 0)
		err = rv_validation_cells(v, &cells, &c.n_cells);
	if (err == 0)
		err = rv_report__side_of(&side, cells, c.n_cells);
	if (err == 0 && side.n_models > 1)
		err = rv_validation_disagreements(v, &disagree, &n_disagree);
	if (err == 0 && side.n_models > 1 && f != RV_FORMAT_JSON)
		err = rv_report__shapes_of(&shapes, v);
	if (err == 0)
		err = rv_validation_noise(v, &noise, &c.n_noise);
	c.noise = noise;
	if (err < 0) {
		rv_report__shapes_free(&shapes);
		free(noise);
		free(disagree);
		free(cells);
		rv_report__side_free(&side);
		return err;
	}
	c.v = v;
	c.s = &s;
	c.cells = cells;
	c.side = &side;
	c.disagree = disagree;
	c.n_disagree = n_disagree;
	c.against = o ? o->against : NULL;
	c.against_name = o && o->against_name ? o->against_name : "the earlier report";
	c.shapes = &shapes;
	c.top = o ? o->top : 0;
	switch (f) {
	case RV_FORMAT_TEXT:
		err = rv_report__text(out, &c);
		break;
	case RV_FORMAT_MARKDOWN:
		err = rv_report__markdown(out, &c);
		break;
	default:
		err = rv_report__json(out, &c);
		break;
	}
	free(cells);
	free(disagree);
	free(noise);
	rv_report__shapes_free(&shapes);
	rv_report__side_free(&side);
	if (err < 0)
		return err;
	return rv_buf_check(out);
}

/* None scored: what was found, and what to do. */
static int nothing_scored(const struct rv_validation *v, const struct rv_summary *s)
{
	if (s->rows_found > 0 && s->skipped_no_prediction > 0)
		return rv_error_set(
		        RV_ENOENT,
		        "nothing scored: %zu entries labelled, %zu with a baseline row, "
		        "0 scored (%zu without a prediction%s); give predictions for "
		        "these entries (hardware, op, shape, dtype as the sweep has them)",
		        s->labelled, s->rows_found, s->skipped_no_prediction,
		        v->unlabelled_predictions ? ", and rows for shapes no sweep labels" : "");
	return rv_error_set(RV_ENOENT,
	                    "nothing scored: %zu entries labelled, %zu with a baseline row, 0 "
	                    "scored; capture baselines of the labelled shapes, or choose the "
	                    "targets, ops and purpose that have them (--hw, --op, --purpose)",
	                    s->labelled, s->rows_found);
}

/* "a, b" of the n names (at most 4, then "and N more"), into b. */
static void names_list(struct rv_buf *b, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n && i < 4; i++)
		rv_buf_printf(b, "%s'%s'", i ? ", " : "", names[i]);
	if (n > 4)
		rv_buf_printf(b, " and %zu more", n - 4);
	if (n == 0)
		rv_buf_puts(b, "none");
}

/* The hardware keys of v's records, each once, into a list (borrowed). */
static int hardware_of(const struct rv_validation *v, const char ***out, size_t *n)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < v->n_records; i++) {
		const char *hw = v->records[i].hardware;
		int seen = 0;

		for (size_t k = *n; k > 0 && !seen; k--)
			seen = strcmp((*out)[k - 1], hw) == 0;
		if (!seen && rv_vec_push(out, n, &cap, &hw, sizeof(hw)) < 0) {
			free(*out);
			*out = NULL;
			return rv_error_set(RV_ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* A gate that compared nothing is an error: an earlier report with no
 * records, of other hardware, or of other models. */
static int gate_check(const struct rv_validation *old, const struct rv_validation *now,
                      const struct rv_comparison *cmp, const char *path)
{
	struct rv_buf msg = RV_BUF_INIT;
	const char **ho = NULL, **hn = NULL;
	size_t n_ho = 0, n_hn = 0, common = 0;
	int err;

	if (cmp->n_matched > 0)
		return 0;
	if (old->n_records == 0)
		return rv_error_set(RV_EPARSE,
		                    "%s holds no records (\"records\": []): the gate would compare "
		                    "nothing; give the JSON report of a run that scored records",
		                    path);
	if ((err = hardware_of(old, &ho, &n_ho)) < 0 || (err = hardware_of(now, &hn, &n_hn)) < 0) {
		free(ho);
		return err;
	}
	for (size_t i = 0; i < n_ho; i++)
		for (size_t k = 0; k < n_hn; k++)
			common += strcmp(ho[i], hn[k]) == 0;
	if (common == 0) {
		rv_buf_printf(&msg, "%s is a report of hardware ", path);
		names_list(&msg, ho, n_ho);
		rv_buf_puts(&msg, "; this run validates ");
		names_list(&msg, hn, n_hn);
		rv_buf_puts(&msg, ": no record in common; give a report of the same targets");
	} else {
		rv_buf_printf(&msg, "no record in common with %s: it scored the models ", path);
		names_list(&msg, (const char *const *)old->models, old->n_models);
		rv_buf_puts(&msg, ", this run ");
		names_list(&msg, (const char *const *)now->models, now->n_models);
		rv_buf_puts(&msg, " (records match by model, hardware, op, shape and dtype); name "
		                  "the model as the earlier run did with --model-name NAME");
	}
	free(ho);
	free(hn);
	err = rv_buf_check(&msg) < 0 ? rv_error_set(RV_ENOMEM, "out of memory")
	                             : rv_error_set(RV_EPARSE, "%s", rv_buf_str(&msg));
	rv_buf_free(&msg);
	return err;
}

int rv_report_gate_render(struct rv_buf *out, const struct rv_validation *v,
                          const struct rv_report_gate *g, int *verdict)
{
	struct rv_validation old;
	struct rv_comparison cmp;
	struct rv_report_opts o = { NULL, g->against_path, g->top };
	struct rv_summary s;
	int err;

	*verdict = 0;
	memset(&old, 0, sizeof(old));
	memset(&cmp, 0, sizeof(cmp));
	if ((err = rv_validation_summary(v, &s)) < 0)
		return err;
	if (s.records == 0)
		return nothing_scored(v, &s);
	if (g->against_path) {
		err = rv_report_load_json(&old, g->against_path);
		if (err == 0)
			err = rv_validation_compare(&old, v, g->regression_points, &cmp);
		if (err == 0)
			err = gate_check(&old, v, &cmp, g->against_path);
		o.against = &cmp;
	}
	if (err == 0)
		err = rv_report_render_opts(out, v, g->format, &o);
	if (err == 0)
		*verdict =
		        g->against_path ? (cmp.n_regressions > 0 ? 3 : 0) : (s.failed > 0 ? 3 : 0);
	rv_comparison_free(&cmp);
	rv_validation_free(&old);
	return err;
}

int rv_report_validation(const struct rv_validation *v, const struct rv_report_gate *g,
                         int *verdict)
{
	struct rv_buf out = RV_BUF_INIT;
	int err = rv_report_gate_render(&out, v, g, verdict);

	if (err == 0 && g->output)
		err = rv_file_write_output(g->output, out.data, out.len);
	else if (err == 0 && fwrite(rv_buf_str(&out), 1, out.len, stdout) != out.len)
		err = rv_error_set(RV_EIO, "cannot write the report to standard output");
	if (err < 0)
		*verdict = 0;
	rv_buf_free(&out);
	return err;
}

static int column_of(enum rv_regime r)
{
	for (int i = 0; i < RV_REPORT_COLUMNS; i++)
		if (rv_report__column_regime[i] == r)
			return i;
	return -1;
}

size_t rv_report__row_at(struct rv_report__row *row, const struct rv_cell *cells, size_t n,
                         size_t i)
{
	size_t j;

	memset(row, 0, sizeof(*row));
	if (i >= n)
		return n;
	row->model = cells[i].model;
	row->hardware = cells[i].hardware;
	row->op = cells[i].op;
	for (j = i; j < n; j++) {
		int col;

		if (cells[j].op != row->op || strcmp(cells[j].hardware, row->hardware) != 0 ||
		    strcmp(cells[j].model, row->model) != 0)
			break;
		col = column_of(cells[j].regime);
		if (col >= 0)
			row->cell[col] = &cells[j];
	}
	return j;
}

void rv_report__cell_text(char *out, size_t size, const struct rv_cell *c)
{
	static const char tags[3] = { 'R', 'L', 'E' };
	size_t fails[3], len;
	const char *sep = ":";

	if (!c || c->n_total == 0) {
		(void)snprintf(out, size, "-");
		return;
	}
	if (c->n_pass == c->n_total) {
		(void)snprintf(out, size, "%zuOK", c->n_total);
		if (c->n_suspect > 0) {
			len = strlen(out);
			(void)snprintf(out + len, size - len, " S%zu", c->n_suspect);
		}
		return;
	}
	fails[0] = c->n_fail_regime;
	fails[1] = c->n_fail_latency;
	fails[2] = c->n_fail_energy;
	(void)snprintf(out, size, "%zu", c->n_total);
	for (int i = 0; i < 3; i++) {
		if (fails[i] == 0)
			continue;
		len = strlen(out);
		(void)snprintf(out + len, size - len, "%s%c%zu", sep, tags[i], fails[i]);
		sep = "/";
	}
	if (c->n_suspect > 0) {
		len = strlen(out);
		(void)snprintf(out + len, size - len, " S%zu", c->n_suspect);
	}
}

void rv_report__sig4(char *out, size_t size, double x)
{
	long exp10;
	int decimals;

	if (!isfinite(x)) {
		(void)snprintf(out, size, "n/a");
		return;
	}
	if (fpclassify(x) == FP_ZERO) {
		(void)snprintf(out, size, "0.000");
		return;
	}
	/* The exponent after rounding to 4 digits, so 9.9996 gives "10.00"
	 * (log10 may land a hair low next to a power of ten: the rounding
	 * check moves it up). Reports print thousands of these, so no "%.3e"
	 * round trip and no "%.*f", which glibc formats the slow way. */
	exp10 = (long)floor(log10(fabs(x)));
	if (round(fabs(x) / pow(10.0, (double)(exp10 - 3))) >= 10000.0)
		exp10++;
	if (exp10 < -5 || exp10 >= 9) {
		(void)snprintf(out, size, "%.3e", x);
		return;
	}
	decimals = exp10 >= 3 ? 0 : 3 - (int)exp10;
	switch (decimals) {
	case 0:
		(void)snprintf(out, size, "%.0f", x);
		break;
	case 1:
		(void)snprintf(out, size, "%.1f", x);
		break;
	case 2:
		(void)snprintf(out, size, "%.2f", x);
		break;
	case 3:
		(void)snprintf(out, size, "%.3f", x);
		break;
	case 4:
		(void)snprintf(out, size, "%.4f", x);
		break;
	case 5:
		(void)snprintf(out, size, "%.5f", x);
		break;
	case 6:
		(void)snprintf(out, size, "%.6f", x);
		break;
	case 7:
		(void)snprintf(out, size, "%.7f", x);
		break;
	default:
		(void)snprintf(out, size, "%.8f", x);
		break;
	}
}

void rv_report__percent(char *out, size_t size, double x, int sign)
{
	if (!isfinite(x))
		(void)snprintf(out, size, "n/a");
	else if (sign)
		(void)snprintf(out, size, "%+.1f%%", 100.0 * x);
	else
		(void)snprintf(out, size, "%.1f%%", 100.0 * x);
}

void rv_report__binding(char *out, size_t size, const struct rv_record *r)
{
	if (r->binding < 0)
		(void)snprintf(out, size, "not given");
	else if (r->binding == r->binding_tier || r->binding_tier < 0)
		(void)snprintf(out, size, "%s", rv_bound_name(r->binding));
	else
		(void)snprintf(out, size, "%s (most memory time: %s)", rv_bound_name(r->binding),
		               rv_bound_name(r->binding_tier));
}

void rv_report__put_line(struct rv_buf *b, const char *s, int md)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			rv_buf_putc(b, ' ');
		else if (md && (*p == '|' || *p == '\\'))
			rv_buf_printf(b, "\\%c", *p);
		else
			rv_buf_putc(b, (char)*p);
	}
}

int rv_report__source_repeated(const struct rv_validation *v, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (strcmp(v->sources[k], v->sources[i]) == 0)
			return 1;
	return 0;
}

void rv_report__models_line(struct rv_buf *b, const struct rv_validation *v)
{
	if (v->n_models == 0 || (v->n_models == 1 && strcmp(v->models[0], RV_BUILTIN_MODEL) == 0))
		return;
	rv_buf_puts(b, v->n_models == 1 ? "model: " : "models: ");
	for (size_t i = 0; i < v->n_models; i++) {
		if (i)
			rv_buf_puts(b, ", ");
		rv_report__put_line(b, v->models[i], 0);
	}
}

size_t rv_report__within_band(const struct rv_cell *c)
{
	return c ? c->n_total - c->n_fail_latency : 0;
}

static int vs_cmp(const void *pa, const void *pb)
{
	const struct rv_report__vs *a = pa, *b = pb;
	int c = strcmp(a->hardware, b->hardware);

	if (!c)
		c = strcmp(rv_op_name(a->op), rv_op_name(b->op));
	return c ? c : (int)a->regime - (int)b->regime;
}

/* The better of two cells: more records within band, then the lower median. */
static int cell_better(const struct rv_cell *a, const struct rv_cell *b)
{
	size_t wa = rv_report__within_band(a), wb = rv_report__within_band(b);

	if (wa != wb)
		return wa > wb ? 1 : -1;
	if (a->median_latency_ape < b->median_latency_ape)
		return 1;
	return a->median_latency_ape > b->median_latency_ape ? -1 : 0;
}

int rv_report__side_of(struct rv_report__side *out, const struct rv_cell *cells, size_t n)
{
	memset(out, 0, sizeof(*out));
	out->models = calloc(n + 1, sizeof(*out->models));
	out->rows = calloc(n + 1, sizeof(*out->rows));
	if (!out->models || !out->rows)
		goto nomem;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(cells[i].model, cells[i - 1].model) != 0)
			out->models[out->n_models++] = cells[i].model;
	out->cells = calloc(n * out->n_models + 1, sizeof(*out->cells));
	if (!out->cells)
		goto nomem;
	for (size_t i = 0, m = 0; i < n; i++) {
		struct rv_report__vs *row = NULL;

		if (i > 0 && strcmp(cells[i].model, cells[i - 1].model) != 0)
			m++;
		for (size_t k = 0; k < out->n_rows && !row; k++)
			if (out->rows[k].op == cells[i].op &&
			    out->rows[k].regime == cells[i].regime &&
			    strcmp(out->rows[k].hardware, cells[i].hardware) == 0)
				row = &out->rows[k];
		if (!row) {
			row = &out->rows[out->n_rows];
			row->hardware = cells[i].hardware;
			row->op = cells[i].op;
			row->regime = cells[i].regime;
			row->cell = &out->cells[out->n_rows * out->n_models];
			out->n_rows++;
		}
		row->cell[m] = &cells[i];
	}
	for (size_t k = 0; k < out->n_rows; k++) {
		struct rv_report__vs *row = &out->rows[k];
		size_t with = 0;

		row->better = -1;
		for (size_t m = 0; m < out->n_models; m++) {
			if (!row->cell[m])
				continue;
			with++;
			if (row->better < 0 ||
			    cell_better(row->cell[m], row->cell[row->better]) > 0)
				row->better = (int)m;
		}
		/* A tie with the best, or nothing to compare, names no better model. */
		for (size_t m = 0; m < out->n_models && row->better >= 0; m++)
			if ((int)m != row->better && row->cell[m] &&
			    cell_better(row->cell[m], row->cell[row->better]) == 0)
				row->better = -1;
		if (with < 2)
			row->better = -1;
	}
	/* Row storage moves with qsort; the cell pointers point into cells[]. */
	if (out->n_rows > 1)
		qsort(out->rows, out->n_rows, sizeof(*out->rows), vs_cmp);
	return 0;
nomem:
	rv_report__side_free(out);
	return rv_error_set(RV_ENOMEM, "out of memory");
}

void rv_report__side_free(struct rv_report__side *s)
{
	free(s->models);
	free(s->rows);
	free(s->cells);
	memset(s, 0, sizeof(*s));
}

void rv_report__regime_text(char *out, size_t size, const struct rv_record *r)
{
	if (r->regime_model >= RV_REGIME_COUNT) {
		(void)snprintf(out, size, "not stated by the model; measured %s (label %s)",
		               rv_regime_name(r->regime_measured), rv_regime_name(r->regime_label));
		return;
	}
	(void)snprintf(out, size, "%s -> %s%s (label %s)", rv_regime_name(r->regime_model),
	               rv_regime_name(r->regime_measured),
	               r->pass_regime == RV_CHECK_PASS && r->regime_model != r->regime_measured
	                       ? ", counts as a match"
	                       : "",
	               rv_regime_name(r->regime_label));
}

void rv_report__relabel_command(char *out, size_t size, const struct rv_label_finding *f)
{
	(void)snprintf(out, size, "roofval sweep relabel --hw %s --from-baseline%s", f->hardware,
	               f->frozen ? " --force" : "");
}

void rv_report__label_counts(struct rv_buf *b, const struct rv_label_finding *f)
{
	const char *sep = "";

	for (int l = 0; l < RV_REGIME_COUNT; l++)
		for (int m = 0; m < RV_REGIME_COUNT; m++) {
			if (f->by[l][m] == 0)
				continue;
			rv_buf_printf(b, "%s%s measured %s %zu", sep,
			              rv_regime_name((enum rv_regime)l),
			              rv_regime_name((enum rv_regime)m), f->by[l][m]);
			sep = ", ";
		}
}

void rv_report__label_finding(struct rv_buf *b, const struct rv_label_finding *f)
{
	char cmd[RV_REPORT_RELABEL_SIZE];

	rv_buf_printf(b, "%s %s: %zu of %zu labels contradicted by the measurement: ", f->hardware,
	              rv_op_name(f->op), f->contradicted, f->checked);
	rv_report__label_counts(b, f);
	rv_report__relabel_command(cmd, sizeof(cmd), f);
	if (f->relabel_moves > 0)
		rv_buf_printf(b, "; '%s' moves %zu of them", cmd, f->relabel_moves);
	else
		rv_buf_puts(b, "; sweep relabel moves none of them");
	if (f->relabel_moves > 0 && f->relabel_moves < f->contradicted)
		rv_buf_printf(b, " and leaves %zu", f->contradicted - f->relabel_moves);
	if (f->relabel_moves < f->contradicted)
		rv_buf_puts(b, " (a measurement of ambiguous, or of dram_bound for a working set a "
		               "cache holds, moves no label)");
}

void rv_report__bias_text(char *out, size_t size, double bias)
{
	if (!isfinite(bias))
		(void)snprintf(out, size, "n/a");
	else if (bias < 0)
		(void)snprintf(out, size, "%.1f%% fast", -100.0 * bias);
	else if (bias > 0)
		(void)snprintf(out, size, "%.1f%% slow", 100.0 * bias);
	else
		(void)snprintf(out, size, "0.0%%");
}

void rv_report__rate_text(char *out, size_t size, enum rv_rate r, double x)
{
	if (!isfinite(x)) {
		(void)snprintf(out, size, "n/a");
		return;
	}
	rv_fmt_si(out, size, x,
	          r == RV_RATE_FLOP_PER_S    ? "FLOP/s"
	          : r == RV_RATE_BYTES_PER_S ? "B/s"
	                                     : "s");
}

int rv_report__shows_noise(const struct rv_report__ctx *c)
{
	return c->v->n_models > 0 || c->v->n_repeats > 0;
}

void rv_report__noise_text(char *out, size_t size, const struct rv_noise *n)
{
	char ceil[RV_REPORT_NUM_SIZE], scat[RV_REPORT_NUM_SIZE];
	int len;

	rv_report__percent(ceil, sizeof(ceil), n->ceiling, 0);
	rv_report__percent(scat, sizeof(scat), n->scatter, 0);
	if (n->n_pairs == 0)
		len = snprintf(out, size, "no repeat measurements");
	else
		len = snprintf(
		        out, size,
		        "%s of %zu pairs (%zu repeat captures, %zu matmul/linear), scatter %s",
		        ceil, n->n_pairs, n->n_kind[RV_REPEAT_CAPTURES],
		        n->n_kind[RV_REPEAT_MATMUL_LINEAR], scat);
	if (n->agree_records > 0 && len > 0 && (size_t)len < size)
		len += snprintf(out + len, size - (size_t)len,
		                "; within band of its other captures' median: %zu of %zu records",
		                n->agree_within, n->agree_records);
	if (rv_noise_placements_differ(n) && len > 0 && (size_t)len < size)
		(void)snprintf(out + len, size - (size_t)len,
		               "; the captures saw their CPUs placed apart (core round trip %.0f "
		               "to %.0f ns in their manifests): multi-threaded rows differ between "
		               "placements, so read them per placement",
		               n->round_trip_min_s * 1e9, n->round_trip_max_s * 1e9);
}

int rv_report__any_suspect(const struct rv_validation *v)
{
	for (size_t i = 0; i < v->n_records; i++)
		if (v->records[i].suspect)
			return 1;
	return 0;
}
