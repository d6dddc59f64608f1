/* SPDX-License-Identifier: MIT */
/* The JSON report ("schema": "roofval.report/1") for tools: every record and
 * cell with raw numbers, latencies in ms, energies in J, errors and
 * tolerances as fractions. A value that is NaN or infinite (not measured,
 * not scored) is written as null: JSON has no NaN. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/dtype.h"
#include "core/error.h"
#include "core/op.h"
#include "core/regime.h"
#include "core/vec.h"
#include "io/file.h"
#include "model/predict.h"
#include "report/report.h"
#include "report/report_internal.h"

#define REPORT_SCHEMA "roofval.report/1"

/* Building the tree stops caring about individual failures: any NULL or
 * failed insertion sets *bad, and the whole report then fails as RV_ENOMEM. */
static void put(json_t *obj, const char *key, json_t *value, int *bad)
{
	/* json_object_set_new() releases value on failure and rejects NULL. */
	if (json_object_set_new(obj, key, value) != 0)
		*bad = 1;
}

static void append(json_t *arr, json_t *value, int *bad)
{
	if (json_array_append_new(arr, value) != 0)
		*bad = 1;
}

static json_t *number(double x)
{
	/* A zero is written 0.0 whatever its sign: no file holds -0.0. */
	return isfinite(x) ? json_real(fpclassify(x) == FP_ZERO ? 0.0 : x) : json_null();
}

static json_t *count(size_t n)
{
	return json_integer((json_int_t)n);
}

/* jansson accepts only UTF-8; text from a CSV may be otherwise, so bytes
 * beyond ASCII become "?" when s as given is refused. */
static json_t *string(const char *s)
{
	json_t *j = json_string(s);
	char *copy;

	if (j)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static json_t *check(enum rv_check c)
{
	return c == RV_CHECK_SKIP ? json_null() : json_boolean(c == RV_CHECK_PASS);
}

static json_t *accuracy(const struct rv_accuracy *a, int *bad)
{
	json_t *o = json_object();

	put(o, "n", count(a->n), bad);
	put(o, "median_ape", a->n > 0 ? number(a->median_ape) : json_null(), bad);
	put(o, "within_10", number(a->within_10), bad);
	put(o, "within_25", number(a->within_25), bad);
	return o;
}

static json_t *summary(const struct rv_summary *s, const struct rv_validation *v, int *bad)
{
	json_t *o = json_object();

	put(o, "labelled", count(s->labelled), bad);
	put(o, "rows_found", count(s->rows_found), bad);
	put(o, "skipped_no_prediction", count(s->skipped_no_prediction), bad);
	if (v) {
		json_t *rows = json_array();

		put(o, "unlabelled_predictions", count(v->unlabelled_predictions), bad);
		for (size_t i = 0; rows && i < v->n_unlabelled_rows; i++) {
			const struct rv_unlabelled_rows *u = &v->unlabelled_rows[i];
			json_t *r = json_object();

			put(r, "hardware", json_string(u->hardware), bad);
			put(r, "op", json_string(rv_op_name(u->op)), bad);
			put(r, "dtype", json_string(rv_dtype_name(u->dtype)), bad);
			put(r, "rows", count(u->rows), bad);
			if (!r || json_array_append_new(rows, r) != 0)
				*bad = 1;
		}
		put(o, "unlabelled_rows", rows, bad);
	}

	put(o, "records", count(s->records), bad);
	put(o, "passed", count(s->passed), bad);
	put(o, "failed", count(s->failed), bad);
	put(o, "skipped_no_baseline", count(s->skipped_no_baseline), bad);
	put(o, "skipped_unsupported", count(s->skipped_unsupported), bad);
	put(o, "skipped_ambiguous", count(s->skipped_ambiguous), bad);
	put(o, "energy_scored", count(s->energy_scored), bad);
	put(o, "regime_scored", count(s->regime_scored), bad);
	put(o, "regime_passed", count(s->regime_passed), bad);
	put(o, "regime_unstated", count(s->regime_unstated), bad);
	put(o, "suspect", count(s->suspect), bad);
	put(o, "suspect_energy", count(s->suspect_energy), bad);
	put(o, "suspect_failed", count(s->suspect_failed), bad);
	put(o, "excluded_flagged", count(s->excluded_flagged), bad);
	put(o, "latency", accuracy(&s->latency, bad), bad);
	put(o, "energy", accuracy(&s->energy, bad), bad);
	return o;
}

static json_t *spread(const struct rv_spread *x, int *bad)
{
	json_t *o = json_object();

	put(o, "p25", number(x->p25), bad);
	put(o, "median", number(x->median), bad);
	put(o, "p75", number(x->p75), bad);
	return o;
}

static const char *rate_unit(enum rv_rate r)
{
	switch (r) {
	case RV_RATE_FLOP_PER_S:
		return "FLOP/s";
	case RV_RATE_BYTES_PER_S:
		return "B/s";
	case RV_RATE_SECONDS:
		return "s";
	default:
		return NULL;
	}
}

static json_t *cell(const struct rv_cell *c, int *bad)
{
	json_t *o = json_object(), *rate = json_object();
	const char *unit = rate_unit(c->rate);

	put(o, "model", string(c->model), bad);
	put(o, "hardware", string(c->hardware), bad);
	put(o, "op", string(rv_op_name(c->op)), bad);
	put(o, "regime", string(rv_regime_name(c->regime)), bad);
	put(o, "median_latency_ape", number(c->median_latency_ape), bad);
	put(o, "n_total", count(c->n_total), bad);
	put(o, "n_pass", count(c->n_pass), bad);
	put(o, "n_fail_regime", count(c->n_fail_regime), bad);
	put(o, "n_fail_latency", count(c->n_fail_latency), bad);
	put(o, "n_fail_energy", count(c->n_fail_energy), bad);
	put(o, "n_suspect", count(c->n_suspect), bad);
	put(o, "n_regime_unstated", count(c->n_regime_unstated), bad);
	put(o, "n_within_band", count(c->n_within_band), bad);
	put(o, "latency_bias", spread(&c->latency_bias, bad), bad);
	put(rate, "unit", unit ? string(unit) : json_null(), bad);
	put(rate, "measured", spread(&c->rate_measured, bad), bad);
	put(rate, "model", spread(&c->rate_model, bad), bad);
	put(o, "rate", rate, bad);
	return o;
}

/* The reasons of a suspect row, by name. */
static json_t *suspect_reasons(unsigned mask, int *bad)
{
	json_t *a = json_array();

	if (mask & RV_SUSPECT_BUSY)
		append(a, string("busy"), bad);
	if (mask & RV_SUSPECT_IMPRECISE)
		append(a, string("imprecise"), bad);
	if (mask & RV_SUSPECT_ENERGY)
		append(a, string("energy_window"), bad);
	return a;
}

static json_t *record(const struct rv_record *r, const struct rv_validation *v, int *bad)
{
	json_t *o = json_object(), *extra = json_object();
	char shape[64];

	(void)rv_shape_format(shape, sizeof(shape), &r->shape);
	put(o, "model", string(r->model), bad);
	put(o, "hardware", string(r->hardware), bad);
	put(o, "op", string(rv_op_name(r->op)), bad);
	put(o, "shape", string(shape), bad);
	put(o, "dtype", string(rv_dtype_name(r->dtype)), bad);
	put(o, "regime_predicted", string(rv_regime_name(r->regime_label)), bad);
	put(o, "regime_measured", string(rv_regime_name(r->regime_measured)), bad);
	put(o, "regime_model",
	    r->regime_model < RV_REGIME_COUNT ? string(rv_regime_name(r->regime_model))
	                                      : json_null(),
	    bad);
	put(o, "latency_predicted_ms", number(r->latency_pred_s * 1e3), bad);
	put(o, "latency_measured_ms", number(r->latency_meas_s * 1e3), bad);
	put(o, "energy_predicted_j", number(r->energy_pred_J), bad);
	put(o, "energy_measured_j", number(r->energy_meas_J), bad);
	put(o, "latency_error", number(r->latency_err), bad);
	put(o, "energy_error", number(r->energy_err), bad);
	put(o, "pass_regime", check(r->pass_regime), bad);
	put(o, "label_agrees", json_boolean(r->label_agrees), bad);
	for (size_t i = 0; i < r->n_extra && r->extra_at + i < v->n_extras; i++) {
		const struct rv_extra *x = &v->extras[r->extra_at + i];

		put(extra, x->name, number(x->value), bad);
	}
	put(o, "extra", extra, bad);
	put(o, "pass_latency", json_boolean(r->pass_latency), bad);
	put(o, "pass_energy", check(r->pass_energy), bad);
	put(o, "pass", json_boolean(rv_record_passed(r)), bad);
	put(o, "tolerance_latency", number(r->band.latency), bad);
	put(o, "tolerance_energy", number(r->band.energy), bad);
	put(o, "bottleneck_layer",
	    r->binding >= 0 ? string(rv_bound_name(r->binding)) : json_null(), bad);
	put(o, "binding_tier",
	    r->binding_tier >= 0 ? string(rv_bound_name(r->binding_tier)) : json_null(), bad);
	put(o, "notes", string(r->notes), bad);
	put(o, "suspect", suspect_reasons(r->suspect, bad), bad);
	put(o, "suspect_why", string(r->suspect_why), bad);
	return o;
}

static json_t *noise(const struct rv_report__ctx *c, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < c->n_noise && !*bad; i++) {
		const struct rv_noise *n = &c->noise[i];
		json_t *o = json_object();

		put(o, "model", string(n->model), bad);
		put(o, "hardware", string(n->hardware), bad);
		put(o, "op", string(rv_op_name(n->op)), bad);
		put(o, "pairs", count(n->n_pairs), bad);
		put(o, "pairs_captures", count(n->n_kind[RV_REPEAT_CAPTURES]), bad);
		put(o, "pairs_matmul_linear", count(n->n_kind[RV_REPEAT_MATMUL_LINEAR]), bad);
		put(o, "scatter", number(n->scatter), bad);
		put(o, "ceiling", number(n->ceiling), bad);
		put(o, "records", count(n->records), bad);
		put(o, "within_band", count(n->within_band), bad);
		put(o, "passed", count(n->passed), bad);
		put(o, "agree_records", count(n->agree_records), bad);
		put(o, "agree_within", count(n->agree_within), bad);
		put(o, "round_trip_min_s",
		    n->round_trip_min_s > 0 ? number(n->round_trip_min_s) : json_null(), bad);
		put(o, "round_trip_max_s",
		    n->round_trip_max_s > 0 ? number(n->round_trip_max_s) : json_null(), bad);
		put(o, "placements_differ", json_boolean(rv_noise_placements_differ(n)), bad);
		put(o, "note", n->n_pairs ? json_null() : string("no repeat measurements"), bad);
		append(a, o, bad);
	}
	return a;
}

static json_t *labels(const struct rv_validation *v, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->n_labels && !*bad; i++) {
		const struct rv_label_finding *f = &v->labels[i];
		json_t *o = json_object(), *by = json_array();
		char cmd[RV_REPORT_RELABEL_SIZE];

		if (f->checked == 0)
			continue;
		put(o, "hardware", string(f->hardware), bad);
		put(o, "op", string(rv_op_name(f->op)), bad);
		put(o, "checked", count(f->checked), bad);
		put(o, "contradicted", count(f->contradicted), bad);
		for (int l = 0; l < RV_REGIME_COUNT; l++)
			for (int m = 0; m < RV_REGIME_COUNT; m++) {
				json_t *one;

				if (f->by[l][m] == 0)
					continue;
				one = json_object();
				put(one, "label", string(rv_regime_name((enum rv_regime)l)), bad);
				put(one, "measured", string(rv_regime_name((enum rv_regime)m)),
				    bad);
				put(one, "n", count(f->by[l][m]), bad);
				append(by, one, bad);
			}
		put(o, "by", by, bad);
		put(o, "relabel_moves", count(f->relabel_moves), bad);
		rv_report__relabel_command(cmd, sizeof(cmd), f);
		put(o, "relabel_command", f->relabel_moves ? string(cmd) : json_null(), bad);
		append(a, o, bad);
	}
	return a;
}

#define JSON_DUMP_FLAGS (JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(17))

/* Appends the records as the array jansson would write at depth 1, one
 * record tree at a time: a tree of every record would take several KiB per
 * record (half a GiB for 100,000). */
static int json_records(struct rv_buf *out, const struct rv_validation *v)
{
	if (v->n_records == 0) {
		rv_buf_puts(out, "[]");
		return 0;
	}
	rv_buf_putc(out, '[');
	for (size_t i = 0; i < v->n_records; i++) {
		int bad = 0;
		json_t *o = record(&v->records[i], v, &bad);
		char *text = bad ? NULL : json_dumps(o, JSON_DUMP_FLAGS);

		json_decref(o);
		if (!text)
			return rv_error_set(RV_ENOMEM,
			                    "out of memory while building the JSON report");
		rv_buf_puts(out, i ? ",\n    " : "\n    ");
		for (const char *c = text; *c; c++) {
			rv_buf_putc(out, *c);
			if (*c == '\n')
				rv_buf_puts(out, "    ");
		}
		free(text);
	}
	rv_buf_puts(out, "\n  ]");
	return 0;
}

/* An entry's identity: hardware, op, shape, dtype. */
static void entry(json_t *o, const char *hw, enum rv_op op, const struct rv_shape *sh,
                  enum rv_dtype dtype, int *bad)
{
	char shape[64];

	(void)rv_shape_format(shape, sizeof(shape), sh);
	put(o, "hardware", string(hw), bad);
	put(o, "op", string(rv_op_name(op)), bad);
	put(o, "shape", string(shape), bad);
	put(o, "dtype", string(rv_dtype_name(dtype)), bad);
}

static json_t *missing(const struct rv_validation *v, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->n_missing && !*bad; i++) {
		const struct rv_missing *m = &v->missing[i];
		json_t *o = json_object();

		put(o, "model", string(m->model), bad);
		entry(o, m->hardware, m->op, &m->shape, m->dtype, bad);
		append(a, o, bad);
	}
	return a;
}

static json_t *side_by_side(const struct rv_report__side *sd, int *bad)
{
	json_t *a = json_array();

	for (size_t k = 0; k < sd->n_rows && !*bad; k++) {
		const struct rv_report__vs *vs = &sd->rows[k];
		json_t *o = json_object(), *models = json_array();

		put(o, "hardware", string(vs->hardware), bad);
		put(o, "op", string(rv_op_name(vs->op)), bad);
		put(o, "regime", string(rv_regime_name(vs->regime)), bad);
		put(o, "better", vs->better >= 0 ? string(sd->models[vs->better]) : json_null(),
		    bad);
		for (size_t m = 0; m < sd->n_models; m++) {
			const struct rv_cell *c = vs->cell[m];
			json_t *one = json_object();

			put(one, "model", string(sd->models[m]), bad);
			put(one, "n_total", count(c ? c->n_total : 0), bad);
			put(one, "within_band", count(rv_report__within_band(c)), bad);
			put(one, "n_pass", count(c ? c->n_pass : 0), bad);
			put(one, "median_latency_ape",
			    c ? number(c->median_latency_ape) : json_null(), bad);
			append(models, one, bad);
		}
		put(o, "models", models, bad);
		append(a, o, bad);
	}
	return a;
}

static json_t *disagreements(const struct rv_report__ctx *c, int *bad)
{
	const struct rv_validation *v = c->v;
	json_t *a = json_array();

	for (size_t i = 0; i < c->n_disagree && !*bad;) {
		const struct rv_record *r = &v->records[c->disagree[i]];
		json_t *o = json_object(), *recs = json_array();

		entry(o, r->hardware, r->op, &r->shape, r->dtype, bad);
		for (; i < c->n_disagree && rv_record_same_entry(r, &v->records[c->disagree[i]]);
		     i++) {
			const struct rv_record *q = &v->records[c->disagree[i]];
			json_t *one = json_object();

			put(one, "model", string(q->model), bad);
			put(one, "pass", json_boolean(rv_record_passed(q)), bad);
			put(one, "latency_error", number(q->latency_err), bad);
			append(recs, one, bad);
		}
		put(o, "records", recs, bad);
		append(a, o, bad);
	}
	return a;
}

static json_t *against(const struct rv_report__ctx *c, int *bad)
{
	const struct rv_comparison *cmp = c->against;
	json_t *o = json_object(), *changes = json_array();

	put(o, "report", string(c->against_name), bad);
	put(o, "points", number(cmp->points), bad);
	put(o, "matched", count(cmp->n_matched), bad);
	put(o, "old_only", count(cmp->n_old_only), bad);
	put(o, "new_only", count(cmp->n_new_only), bad);
	put(o, "regressions", count(cmp->n_regressions), bad);
	put(o, "improvements", count(cmp->n_improvements), bad);
	for (size_t i = 0; i < cmp->n_changes && !*bad; i++) {
		const struct rv_change *ch = &cmp->changes[i];
		json_t *one = json_object();

		put(one, "kind", string(ch->kind == RV_CHANGE_RECORD ? "record" : "cell"), bad);
		put(one, "regression", json_boolean(ch->regression), bad);
		put(one, "model", string(ch->model), bad);
		if (ch->kind == RV_CHANGE_RECORD) {
			entry(one, ch->hardware, ch->op, &ch->shape, ch->dtype, bad);
			put(one, "old_latency_error", number(ch->old_value), bad);
			put(one, "new_latency_error", number(ch->new_value), bad);
		} else {
			put(one, "hardware", string(ch->hardware), bad);
			put(one, "op", string(rv_op_name(ch->op)), bad);
			put(one, "old_median_latency_ape", number(ch->old_value), bad);
			put(one, "new_median_latency_ape", number(ch->new_value), bad);
		}
		put(one, "regime", string(rv_regime_name(ch->regime)), bad);
		append(changes, one, bad);
	}
	put(o, "changes", changes, bad);
	return o;
}

int rv_report__json(struct rv_buf *out, const struct rv_report__ctx *c)
{
	/* The records go where this empty array is written. */
	static const char placeholder[] = "\n  \"records\": []";
	const struct rv_validation *v = c->v;
	json_t *root = json_object(), *sources = json_array(), *jcells = json_array(),
	       *records = json_array(), *models = json_array();
	char *text = NULL, *at;
	int bad = 0, err;

	put(root, "schema", string(REPORT_SCHEMA), &bad);
	put(root, "summary", summary(c->s, v, &bad), &bad);
	for (size_t i = 0; i < v->n_sources; i++)
		if (!rv_report__source_repeated(v, i))
			append(sources, string(v->sources[i]), &bad);
	put(root, "sources", sources, &bad);
	for (size_t i = 0; i < v->n_models; i++)
		append(models, string(v->models[i]), &bad);
	put(root, "models", models, &bad);
	put(root, "missing", missing(v, &bad), &bad);
	if (v->n_models > 1) {
		json_t *by = json_array();

		for (size_t m = 0; m < v->n_models && !bad; m++) {
			struct rv_summary s;
			json_t *one;

			if (rv_validation_summary_of(v, v->models[m], &s) < 0) {
				bad = 1;
				break;
			}
			one = summary(&s, NULL, &bad);
			put(one, "model", string(v->models[m]), &bad);
			append(by, one, &bad);
		}
		put(root, "by_model", by, &bad);
	}
	if (c->side->n_models > 1) {
		put(root, "side_by_side", side_by_side(c->side, &bad), &bad);
		put(root, "disagreements", disagreements(c, &bad), &bad);
	}
	if (c->against)
		put(root, "against", against(c, &bad), &bad);
	put(root, "noise", noise(c, &bad), &bad);
	put(root, "labels", labels(v, &bad), &bad);
	put(root, "repeat_folders", count(v->repeat_folders), &bad);
	for (size_t i = 0; i < c->n_cells; i++)
		append(jcells, cell(&c->cells[i], &bad), &bad);
	put(root, "cells", jcells, &bad);
	put(root, "records", records, &bad);
	if (!bad)
		text = json_dumps(root, JSON_DUMP_FLAGS);
	json_decref(root);
	if (!text)
		return rv_error_set(RV_ENOMEM, "out of memory while building the JSON report");
	/* Keys are sorted, so "records" comes once, at the top level, after "cells". */
	at = strstr(text, placeholder);
	if (!at) {
		free(text);
		return rv_error_set(RV_ERROR, "internal error: no records in the JSON report");
	}
	at += sizeof(placeholder) - 3; /* at the "[]" */
	rv_buf_add(out, text, (size_t)(at - text));
	err = json_records(out, v);
	if (err == 0) {
		rv_buf_puts(out, at + 2);
		rv_buf_putc(out, '\n');
	}
	free(text);
	return err;
}

/* A string member of o, or NULL. */
static const char *member_string(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Rebuilds record i of a report's records from o. */
static int load_record(struct rv_record *r, json_t *o, const char *path, size_t i)
{
	const char *model = member_string(o, "model"), *hw = member_string(o, "hardware"),
	           *op = member_string(o, "op"), *shape = member_string(o, "shape"),
	           *dtype = member_string(o, "dtype"),
	           *label = member_string(o, "regime_predicted"),
	           *meas = member_string(o, "regime_measured");
	json_t *err = json_object_get(o, "latency_error"), *pass = json_object_get(o, "pass");
	json_t *pr = json_object_get(o, "pass_regime"), *pl = json_object_get(o, "pass_latency"),
	       *pe = json_object_get(o, "pass_energy");

	memset(r, 0, sizeof(*r));
	if (!json_is_object(o) || !hw || !op || !shape || !dtype || !label ||
	    !json_is_number(err) || !json_is_boolean(pass))
		return rv_error_set(RV_EPARSE,
		                    "%s: record %zu lacks hardware, op, shape, dtype, "
		                    "regime_predicted, latency_error or pass: not a %s report",
		                    path, i + 1, REPORT_SCHEMA);
	if (rv_op_parse(op, &r->op) < 0 || rv_shape_parse(shape, r->op, &r->shape) < 0 ||
	    rv_dtype_parse(dtype, &r->dtype) < 0 || rv_regime_parse(label, &r->regime_label) < 0) {
		char why[256];

		(void)snprintf(why, sizeof(why), "%s", rv_error_last());
		return rv_error_set(RV_EPARSE, "%s: record %zu: %s", path, i + 1, why);
	}
	r->regime_measured = r->regime_label;
	if (meas && rv_regime_parse(meas, &r->regime_measured) < 0)
		r->regime_measured = RV_REGIME_AMBIGUOUS;
	if (strlen(model ? model : RV_BUILTIN_MODEL) >= sizeof(r->model) ||
	    strlen(hw) >= sizeof(r->hardware))
		return rv_error_set(RV_EPARSE, "%s: record %zu: a model or hardware name too long",
		                    path, i + 1);
	(void)snprintf(r->model, sizeof(r->model), "%s", model ? model : RV_BUILTIN_MODEL);
	(void)snprintf(r->hardware, sizeof(r->hardware), "%s", hw);
	r->regime_model = RV_REGIME_COUNT;
	r->binding = r->binding_tier = -1;
	r->latency_err = json_number_value(err);
	r->energy_err = (double)NAN;
	r->latency_pred_s = r->latency_meas_s = r->energy_pred_J = r->energy_meas_J = (double)NAN;
	r->band = rv_band_of(r->regime_label);
	/* The checks as the report has them; pass alone when it lacks them. */
	r->pass_regime = json_is_null(pr) ? RV_CHECK_SKIP
	                 : json_is_boolean(pr)
	                         ? (json_is_true(pr) ? RV_CHECK_PASS : RV_CHECK_FAIL)
	                         : (json_is_true(pass) ? RV_CHECK_PASS : RV_CHECK_FAIL);
	r->pass_latency = json_is_boolean(pl) ? json_is_true(pl) : json_is_true(pass);
	r->pass_energy = json_is_boolean(pe) ? (json_is_true(pe) ? RV_CHECK_PASS : RV_CHECK_FAIL)
	                                     : RV_CHECK_SKIP;
	if (rv_record_passed(r) != json_is_true(pass)) {
		/* The summary verdict decides: checks that disagree with it are the report's. */
		r->pass_latency = json_is_true(pass);
		r->pass_regime = json_is_true(pass) ? RV_CHECK_PASS : RV_CHECK_FAIL;
		r->pass_energy = RV_CHECK_SKIP;
	}
	return 0;
}

int rv_report_parse_json(struct rv_validation *old, const char *text, size_t len, const char *path)
{
	json_error_t jerr;
	json_t *root, *records, *models;
	const char *schema;
	int err = 0;

	memset(old, 0, sizeof(*old));
	root = json_loadb(text, len, 0, &jerr);
	if (!root)
		return rv_error_set(RV_EPARSE, "%s:%d:%d: not a %s report: %s", path, jerr.line,
		                    jerr.column, REPORT_SCHEMA, jerr.text);
	schema = member_string(root, "schema");
	records = json_object_get(root, "records");
	if (!schema || strcmp(schema, REPORT_SCHEMA) != 0 || !json_is_array(records)) {
		err = rv_error_set(RV_EPARSE, "%s: not a %s report (%s)", path, REPORT_SCHEMA,
		                   !schema                              ? "no \"schema\""
		                   : strcmp(schema, REPORT_SCHEMA) != 0 ? "another \"schema\""
		                                                        : "no \"records\" array");
		json_decref(root);
		return err;
	}
	models = json_object_get(root, "models");
	/* The models, the report's list first, then those of the records, each
	 * once: by sorting (rv_validation_add_models()), as a report may hold
	 * tens of thousands of them. */
	if (json_is_array(models) && json_array_size(models) > 0) {
		size_t n_list = json_array_size(models), n = 0, bad = 0;
		const char **names = malloc(n_list * sizeof(*names));
		size_t *at = malloc(n_list * sizeof(*at));

		if (!names || !at)
			err = rv_error_set(RV_ENOMEM, "out of memory reading %s", path);
		for (size_t i = 0; err == 0 && i < n_list; i++)
			if (json_string_value(json_array_get(models, i))) {
				at[n] = i;
				names[n++] = json_string_value(json_array_get(models, i));
			}
		if (err == 0 && (err = rv_validation_add_models(old, names, n, &bad)) == RV_ERANGE)
			err = rv_error_set(RV_EPARSE,
			                   "%s: models[%zu]: a model name of %zu bytes: "
			                   "not a report roofval wrote",
			                   path, at[bad], strlen(names[bad]));
		free(names);
		free(at);
	}
	for (size_t i = 0; i < json_array_size(records) && err == 0; i++) {
		struct rv_record r;

		err = load_record(&r, json_array_get(records, i), path, i);
		if (err == 0 && r.model[0] == '\0')
			err = rv_error_set(RV_EPARSE, "%s: record %zu: an empty model name", path,
			                   i + 1);
		if (err == 0)
			err = rv_vec_push(&old->records, &old->n_records, &old->cap_records, &r,
			                  sizeof(r));
	}
	if (err == 0 && old->n_records > 0) {
		const char **names = malloc(old->n_records * sizeof(*names));
		size_t n = 0;

		if (!names)
			err = rv_error_set(RV_ENOMEM, "out of memory reading %s", path);
		for (size_t i = 0; names && i < old->n_records; i++)
			if (i == 0 || strcmp(old->records[i - 1].model, old->records[i].model) != 0)
				names[n++] = old->records[i].model;
		if (names)
			err = rv_validation_add_models(old, names, n, NULL);
		free(names);
	}
	json_decref(root);
	return err;
}

int rv_report_load_json(struct rv_validation *old, const char *path)
{
	struct stat st;
	char *text, why[512];
	size_t len;
	int err;

	memset(old, 0, sizeof(*old));
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return rv_error_set(RV_EPARSE,
		                    "%s is a folder, not a JSON report: give the report file "
		                    "(validate --format json -o FILE wrote it)",
		                    path);
	if ((err = rv_file_read(&text, &len, path)) < 0) {
		(void)snprintf(why, sizeof(why), "%s", rv_error_last());
		return rv_error_set(err, "cannot read the earlier report: %s", why);
	}
	err = rv_report_parse_json(old, text, len, path);
	free(text);
	return err;
}
