/* SPDX-License-Identifier: MIT */
/* The JSON report ("schema": "roofval.report/1") for tools: every record and
 * cell with raw numbers, latencies in ms, energies in J, errors and
 * tolerances as fractions. A value that is NaN or infinite (not measured,
 * not scored) is written as null: JSON has no NaN. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"
#include "core/op.h"
#include "core/regime.h"
#include "model/predict.h"
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
	return isfinite(x) ? json_real(x) : json_null();
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

static json_t *summary(const struct rv_summary *s, int *bad)
{
	json_t *o = json_object();

	put(o, "records", count(s->records), bad);
	put(o, "passed", count(s->passed), bad);
	put(o, "failed", count(s->failed), bad);
	put(o, "skipped_no_baseline", count(s->skipped_no_baseline), bad);
	put(o, "skipped_unsupported", count(s->skipped_unsupported), bad);
	put(o, "skipped_ambiguous", count(s->skipped_ambiguous), bad);
	put(o, "energy_scored", count(s->energy_scored), bad);
	put(o, "latency", accuracy(&s->latency, bad), bad);
	put(o, "energy", accuracy(&s->energy, bad), bad);
	return o;
}

static json_t *cell(const struct rv_cell *c, int *bad)
{
	json_t *o = json_object();

	put(o, "hardware", string(c->hardware), bad);
	put(o, "op", string(rv_op_name(c->op)), bad);
	put(o, "regime", string(rv_regime_name(c->regime)), bad);
	put(o, "n_total", count(c->n_total), bad);
	put(o, "n_pass", count(c->n_pass), bad);
	put(o, "n_fail_regime", count(c->n_fail_regime), bad);
	put(o, "n_fail_latency", count(c->n_fail_latency), bad);
	put(o, "n_fail_energy", count(c->n_fail_energy), bad);
	return o;
}

static json_t *record(const struct rv_record *r, int *bad)
{
	json_t *o = json_object();
	char shape[64];

	(void)rv_shape_format(shape, sizeof(shape), &r->shape);
	put(o, "hardware", string(r->hardware), bad);
	put(o, "op", string(rv_op_name(r->op)), bad);
	put(o, "shape", string(shape), bad);
	put(o, "dtype", string(rv_dtype_name(r->dtype)), bad);
	put(o, "regime_predicted", string(rv_regime_name(r->regime_label)), bad);
	put(o, "regime_measured", string(rv_regime_name(r->regime_measured)), bad);
	put(o, "latency_predicted_ms", number(r->latency_pred_s * 1e3), bad);
	put(o, "latency_measured_ms", number(r->latency_meas_s * 1e3), bad);
	put(o, "energy_predicted_j", number(r->energy_pred_J), bad);
	put(o, "energy_measured_j", number(r->energy_meas_J), bad);
	put(o, "latency_error", number(r->latency_err), bad);
	put(o, "energy_error", number(r->energy_err), bad);
	put(o, "pass_regime", json_boolean(r->pass_regime), bad);
	put(o, "pass_latency", json_boolean(r->pass_latency), bad);
	put(o, "pass_energy", check(r->pass_energy), bad);
	put(o, "pass", json_boolean(rv_record_passed(r)), bad);
	put(o, "tolerance_latency", number(r->band.latency), bad);
	put(o, "tolerance_energy", number(r->band.energy), bad);
	put(o, "bottleneck_layer", string(rv_bound_name(r->binding)), bad);
	put(o, "binding_tier", string(rv_bound_name(r->binding_tier)), bad);
	put(o, "notes", string(r->notes), bad);
	return o;
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
		json_t *o = record(&v->records[i], &bad);
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

int rv_report__json(struct rv_buf *out, const struct rv_validation *v, const struct rv_summary *s,
                    const struct rv_cell *cells, size_t n_cells)
{
	/* The records go where this empty array is written. */
	static const char placeholder[] = "\n  \"records\": []";
	json_t *root = json_object(), *sources = json_array(), *jcells = json_array(),
	       *records = json_array();
	char *text = NULL, *at;
	int bad = 0, err;

	put(root, "schema", string(REPORT_SCHEMA), &bad);
	put(root, "summary", summary(s, &bad), &bad);
	for (size_t i = 0; i < v->n_sources; i++)
		append(sources, string(v->sources[i]), &bad);
	put(root, "sources", sources, &bad);
	for (size_t i = 0; i < n_cells; i++)
		append(jcells, cell(&cells[i], &bad), &bad);
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
