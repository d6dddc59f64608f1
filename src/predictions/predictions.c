/* SPDX-License-Identifier: MIT */
/* Predictions CSV: parse, sort, find, render; the built-in model's
 * predictions of a sweep; the predictor validation reads. */
#include "predictions/predictions.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/key.h"
#include "core/strnum.h"
#include "core/vec.h"
#include "io/csv.h"
#include "io/file.h"

static const char *const pred_cols[] = {
	"hardware", "op", "shape", "dtype", "latency_s", "energy_j"
};
#define PRED_FIXED_COLS 6
enum { COL_HW, COL_OP, COL_SHAPE, COL_DTYPE, COL_LAT, COL_ENERGY };

int rv_predictions_new(struct rv_prediction_set **out, const char *model)
{
	struct rv_prediction_set *set = calloc(1, sizeof(*set));

	*out = NULL;
	if (!set || !(set->model = rv_strdup(model ? model : ""))) {
		free(set);
		return rv_error_set(RV_ENOMEM, "out of memory");
	}
	set->sorted = 1;
	*out = set;
	return 0;
}

void rv_predictions_free(struct rv_prediction_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n_rows; i++)
		free(set->rows[i].hardware);
	for (size_t i = 0; i < set->n_extra; i++)
		free(set->extra_names[i]);
	free(set->extra_names);
	free(set->extra_values);
	free(set->rows);
	free(set->model);
	free(set);
}

/* Adds row, taking its hardware string. */
static int push(struct rv_prediction_set *set, struct rv_prediction_row *row)
{
	int err;

	row->used = 0;
	if ((err = rv_vec_push(&set->rows, &set->n_rows, &set->cap_rows, row, sizeof(*row))) < 0) {
		free(row->hardware);
		return err;
	}
	set->sorted = set->n_rows < 2;
	return 0;
}

int rv_predictions_add(struct rv_prediction_set *set, const struct rv_prediction_row *row)
{
	struct rv_prediction_row copy = *row;

	copy.extra_at = RV_PREDICTIONS_NO_EXTRA;
	copy.hardware = rv_strdup(row->hardware);
	if (!copy.hardware)
		return rv_error_set(RV_ENOMEM, "out of memory");
	return push(set, &copy);
}

static int key_cmp(const struct rv_prediction_row *a, const char *hw, enum rv_op op,
                   enum rv_dtype dtype, const struct rv_shape *shape)
{
	int c = strcmp(a->hardware, hw);

	if (!c)
		c = (int)a->op - (int)op;
	if (!c)
		c = (int)a->dtype - (int)dtype;
	if (!c)
		c = rv_shape_cmp(&a->shape, shape);
	return c;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct rv_prediction_row *a = pa, *b = pb;
	int c = key_cmp(a, b->hardware, b->op, b->dtype, &b->shape);

	return c ? c : (a->line > b->line) - (a->line < b->line);
}

int rv_predictions_sort(struct rv_prediction_set *set, const char *name)
{
	if (set->n_rows > 1)
		qsort(set->rows, set->n_rows, sizeof(*set->rows), row_cmp);
	for (size_t i = 1; i < set->n_rows; i++) {
		const struct rv_prediction_row *a = &set->rows[i - 1], *b = &set->rows[i];
		char shape[80];

		if (key_cmp(a, b->hardware, b->op, b->dtype, &b->shape) != 0)
			continue;
		(void)rv_shape_format(shape, sizeof(shape), &b->shape);
		return rv_error_set(RV_EPARSE,
		                    "%s:%u: a second prediction for %s %s %s %s (the first is on "
		                    "line %u); keep one of them",
		                    name ? name : set->model, b->line, b->hardware,
		                    rv_op_name(b->op), shape, rv_dtype_name(b->dtype), a->line);
	}
	set->sorted = 1;
	return 0;
}

struct rv_prediction_row *rv_predictions_find(const struct rv_prediction_set *set,
                                              const char *hardware, enum rv_op op,
                                              const struct rv_shape *shape, enum rv_dtype dtype)
{
	size_t lo = 0, hi = set->n_rows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(&set->rows[mid], hardware, op, dtype, shape);

		if (c == 0)
			return &set->rows[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The header's extra columns (after the fixed ones, but regime) as set's
 * extra_names. RV_ENOMEM. */
static int header_extras(struct rv_prediction_set *set, const struct rv_csv_record *rec,
                         long regime_col)
{
	size_t n = rec->n > PRED_FIXED_COLS ? rec->n - PRED_FIXED_COLS : 0;

	if (n == 0 || (n == 1 && regime_col >= 0))
		return 0;
	if (!(set->extra_names = calloc(n, sizeof(*set->extra_names))))
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = PRED_FIXED_COLS; i < rec->n; i++) {
		if ((long)i == regime_col)
			continue;
		if (!(set->extra_names[set->n_extra] = rv_strdup(rec->field[i])))
			return rv_error_set(RV_ENOMEM, "out of memory");
		set->n_extra++;
	}
	return 0;
}

/* Row r's values of the extra columns, appended to set's: each field a
 * number, or NAN (empty, or not a number). RV_ENOMEM. */
static int row_extras(struct rv_prediction_set *set, struct rv_prediction_row *r,
                      const struct rv_csv_record *rec, long regime_col)
{
	int err;

	r->extra_at = RV_PREDICTIONS_NO_EXTRA;
	if (set->n_extra == 0)
		return 0;
	if ((err = rv_vec_reserve(&set->extra_values, &set->cap_extra_values,
	                          set->n_extra_values + set->n_extra, sizeof(*set->extra_values))) <
	    0)
		return err;
	r->extra_at = set->n_extra_values;
	for (size_t i = PRED_FIXED_COLS; i < rec->n; i++) {
		double x;

		if ((long)i == regime_col)
			continue;
		if (!*rec->field[i] || rv_parse_double(rec->field[i], &x) < 0 || !isfinite(x))
			x = (double)NAN;
		set->extra_values[set->n_extra_values++] = x;
	}
	return 0;
}

static int check_header(const struct rv_csv_record *rec, const char *name, long *regime_col)
{
	*regime_col = -1;
	for (size_t i = 0; i < PRED_FIXED_COLS; i++) {
		if (i >= rec->n || strcmp(rec->field[i], pred_cols[i]) != 0)
			return rv_error_set(RV_EPARSE,
			                    "%s:%u:%u: header column %zu is '%s', expected '%s'; a "
			                    "predictions file starts with "
			                    "hardware,op,shape,dtype,latency_s,energy_j",
			                    name, rec->line, i < rec->n ? rec->col[i] : 1, i + 1,
			                    i < rec->n ? rec->field[i] : "", pred_cols[i]);
	}
	for (size_t i = PRED_FIXED_COLS; i < rec->n; i++) {
		if (*rec->field[i] == '\0')
			return rv_error_set(RV_EPARSE, "%s:%u:%u: header column %zu has no name",
			                    name, rec->line, rec->col[i], i + 1);
		for (size_t j = 0; j < i; j++)
			if (strcmp(rec->field[j], rec->field[i]) == 0)
				return rv_error_set(RV_EPARSE,
				                    "%s:%u:%u: header column '%s' appears twice",
				                    name, rec->line, rec->col[i], rec->field[i]);
		if (strcmp(rec->field[i], "regime") == 0)
			*regime_col = (long)i;
	}
	return 0;
}

/* A finite positive number of the column's unit, at least the unit's physical
 * floor (core/strnum.h: rv_num_floor; a subnormal or a -0 never passes). */
static int positive(double *out, const struct rv_csv_record *rec, int c, const char *name,
                    const char *unit, double floor_v)
{
	int err = rv_parse_double(rec->field[c], out);

	if (err == 0 && *out > 0 && *out >= floor_v)
		return 0;
	if (err == RV_ERANGE) {
		char what[256];

		(void)snprintf(what, sizeof(what), "%s", rv_error_last());
		return rv_error_set(RV_EPARSE, "%s:%u:%u: %s: %s", name, rec->line, rec->col[c],
		                    pred_cols[c], what);
	}
	if (err == 0 && *out > 0)
		return rv_error_set(RV_EPARSE,
		                    "%s:%u:%u: %s: '%s' is below %g %s, less than any hardware "
		                    "has; check its unit",
		                    name, rec->line, rec->col[c], pred_cols[c], rec->field[c],
		                    floor_v, unit);
	return rv_error_set(RV_EPARSE, "%s:%u:%u: %s: '%s' is not a finite positive number of %s%s",
	                    name, rec->line, rec->col[c], pred_cols[c], rec->field[c], unit,
	                    c == COL_ENERGY ? "; leave it empty when the model predicts none" : "");
}

/* "name:line:col: column: " + the message of the column's parser. */
static int field_error(const struct rv_csv_record *rec, size_t c, const char *col, const char *name)
{
	char what[256];

	(void)snprintf(what, sizeof(what), "%s", rv_error_last());
	return rv_error_set(RV_EPARSE, "%s:%u:%u: %s: %s", name, rec->line, rec->col[c], col, what);
}

static int parse_row(struct rv_prediction_row *r, const struct rv_csv_record *rec, size_t n_cols,
                     long regime_col, const char *name)
{
	const char *const *f = rec->field;
	int err;

	memset(r, 0, sizeof(*r));
	r->line = rec->line;
	r->energy_J = (double)NAN;
	r->regime = RV_REGIME_COUNT;
	if (rec->n != n_cols)
		return rv_error_set(RV_EPARSE,
		                    "%s:%u: %zu fields, but the header has %zu columns; give every "
		                    "row one field per column (quote a field that holds a comma)",
		                    name, rec->line, rec->n, n_cols);
	if (!rv_hw_key_valid(f[COL_HW]))
		return rv_error_set(RV_EPARSE,
		                    "%s:%u:%u: hardware: '%s' is not a hardware key (letters, "
		                    "digits, _ - .)",
		                    name, rec->line, rec->col[COL_HW], f[COL_HW]);
	if (rv_op_parse(f[COL_OP], &r->op) < 0)
		return field_error(rec, COL_OP, pred_cols[COL_OP], name);
	if (rv_shape_parse(f[COL_SHAPE], r->op, &r->shape) < 0)
		return field_error(rec, COL_SHAPE, pred_cols[COL_SHAPE], name);
	if (rv_dtype_parse(f[COL_DTYPE], &r->dtype) < 0)
		return field_error(rec, COL_DTYPE, pred_cols[COL_DTYPE], name);
	if ((err = positive(&r->latency_s, rec, COL_LAT, name, "seconds", rv_num_floor("s"))) < 0)
		return err;
	if (*f[COL_ENERGY] &&
	    (err = positive(&r->energy_J, rec, COL_ENERGY, name, "joules", rv_num_floor("J"))) < 0)
		return err;
	if (regime_col >= 0 && *f[regime_col] && rv_regime_parse(f[regime_col], &r->regime) < 0)
		return field_error(rec, (size_t)regime_col, "regime", name);
	r->hardware = rv_strdup(f[COL_HW]);
	return r->hardware ? 0 : rv_error_set(RV_ENOMEM, "out of memory");
}

int rv_predictions_parse(struct rv_prediction_set **out, const char *text, size_t len,
                         const char *name, const char *model)
{
	struct rv_csv_reader rd;
	struct rv_csv_record rec;
	struct rv_prediction_set *set = NULL;
	size_t n_cols = 0;
	long regime_col = -1;
	int err, got, header = 0;

	*out = NULL;
	if ((err = rv_csv_reader_init(&rd, text, len, name)) < 0)
		return err;
	if ((err = rv_predictions_new(&set, model)) < 0) {
		rv_csv_reader_free(&rd);
		return err;
	}
	while (err == 0 && (got = rv_csv_next(&rd, &rec)) != 0) {
		struct rv_prediction_row r;

		if (got < 0) {
			err = got;
			break;
		}
		if (!header) {
			header = 1;
			n_cols = rec.n;
			err = check_header(&rec, name, &regime_col);
			if (err == 0)
				err = header_extras(set, &rec, regime_col);
			continue;
		}
		if ((err = parse_row(&r, &rec, n_cols, regime_col, name)) == 0 &&
		    (err = row_extras(set, &r, &rec, regime_col)) < 0)
			free(r.hardware);
		if (err == 0)
			err = push(set, &r);
	}
	if (err == 0 && !header)
		err = rv_error_set(RV_EPARSE,
		                   "%s: empty; a predictions file starts with the header "
		                   "hardware,op,shape,dtype,latency_s,energy_j",
		                   name);
	if (err == 0)
		err = rv_predictions_sort(set, name);
	rv_csv_reader_free(&rd);
	if (err < 0) {
		rv_predictions_free(set);
		return err;
	}
	*out = set;
	return 0;
}

int rv_predictions_load(struct rv_prediction_set **out, const char *path, const char *model)
{
	const char *base = strrchr(path, '/');
	size_t len;
	char *text, *stem;
	int err;

	*out = NULL;
	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 4 && strcmp(base + len - 4, ".csv") == 0)
		len -= 4;
	if (!(stem = malloc(len + 1)))
		return rv_error_set(RV_ENOMEM, "out of memory");
	memcpy(stem, base, len);
	stem[len] = '\0';
	if ((err = rv_file_read(&text, &len, path)) < 0) {
		free(stem);
		return err;
	}
	err = rv_predictions_parse(out, text, len, path, model ? model : stem);
	free(stem);
	free(text);
	return err;
}

int rv_predictions_render(struct rv_buf *out, const struct rv_prediction_set *set)
{
	int with_regime = 0;

	for (size_t i = 0; i < set->n_rows && !with_regime; i++)
		with_regime = set->rows[i].regime != RV_REGIME_COUNT;
	for (size_t c = 0; c < PRED_FIXED_COLS; c++)
		rv_csv_put_field(out, pred_cols[c], c == 0);
	if (with_regime)
		rv_csv_put_field(out, "regime", 0);
	rv_csv_end_record(out, 0);
	for (size_t i = 0; i < set->n_rows; i++) {
		const struct rv_prediction_row *r = &set->rows[i];
		char shape[80], lat[RV_DOUBLE_STR], en[RV_DOUBLE_STR] = "";

		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_fmt_double(lat, r->latency_s);
		if (!isnan(r->energy_J))
			rv_fmt_double(en, r->energy_J);
		rv_csv_put_field(out, r->hardware, 1);
		rv_csv_put_field(out, rv_op_name(r->op), 0);
		rv_csv_put_field(out, shape, 0);
		rv_csv_put_field(out, rv_dtype_name(r->dtype), 0);
		rv_csv_put_field(out, lat, 0);
		rv_csv_put_field(out, en, 0);
		if (with_regime)
			rv_csv_put_field(
			        out, r->regime == RV_REGIME_COUNT ? "" : rv_regime_name(r->regime),
			        0);
		rv_csv_end_record(out, 0);
	}
	return rv_buf_check(out);
}

int rv_predictions_builtin(struct rv_prediction_set *set, const struct rv_profile *p,
                           const struct rv_sweep *s)
{
	size_t kept = 0;
	int err = 0;

	for (size_t i = 0; i < s->n_entries && err == 0; i++) {
		const struct rv_sweep_entry *e = &s->entries[i];
		struct rv_prediction_row r;
		struct rv_estimate est;

		if (!rv_sweep_label_scoreable(e, p->key) || !rv_profile_compute(p, e->dtype))
			continue;
		if ((err = rv_estimate_builtin(p, s->op, &e->shape, e->dtype, &est)) < 0)
			break;
		memset(&r, 0, sizeof(r));
		r.hardware = p->key;
		r.op = s->op;
		r.shape = e->shape;
		r.dtype = e->dtype;
		r.latency_s = est.latency_s;
		r.energy_J = est.energy_J > 0 ? est.energy_J : (double)NAN;
		r.regime = est.regime;
		err = rv_predictions_add(set, &r);
	}
	if (err < 0)
		return err;
	/* An entry in two sweeps (or a second call) is predicted once: the
	 * same model gives the same numbers. */
	if (set->n_rows > 1)
		qsort(set->rows, set->n_rows, sizeof(*set->rows), row_cmp);
	for (size_t i = 0; i < set->n_rows; i++) {
		struct rv_prediction_row *r = &set->rows[i];

		if (kept &&
		    key_cmp(&set->rows[kept - 1], r->hardware, r->op, r->dtype, &r->shape) == 0) {
			free(r->hardware);
			continue;
		}
		set->rows[kept++] = *r;
	}
	set->n_rows = kept;
	set->sorted = 1;
	return 0;
}

void rv_predictions_request_header(struct rv_buf *out)
{
	static const char *const cols[] = { "hardware", "op", "shape", "dtype", "profile" };

	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		rv_csv_put_field(out, cols[c], c == 0);
	rv_csv_end_record(out, 0);
}

void rv_predictions_request_row(struct rv_buf *out, const char *hardware, enum rv_op op,
                                const struct rv_shape *shape, enum rv_dtype dtype,
                                const char *profile_path)
{
	char s[80];

	(void)rv_shape_format(s, sizeof(s), shape);
	rv_csv_put_field(out, hardware, 1);
	rv_csv_put_field(out, rv_op_name(op), 0);
	rv_csv_put_field(out, s, 0);
	rv_csv_put_field(out, rv_dtype_name(dtype), 0);
	rv_csv_put_field(out, profile_path ? profile_path : "", 0);
	rv_csv_end_record(out, 0);
}

static int set_estimate(void *ctx, const struct rv_profile *p, enum rv_op op,
                        const struct rv_shape *s, enum rv_dtype d, struct rv_estimate *out)
{
	struct rv_prediction_row *r = rv_predictions_find(ctx, p->key, op, s, d);

	if (!r)
		return RV_ENOENT;
	r->used = 1;
	out->latency_s = r->latency_s;
	out->energy_J = r->energy_J;
	out->regime = r->regime;
	out->binding = -1;
	out->binding_tier = -1;
	out->extra = NULL;
	out->extra_names = NULL;
	out->n_extra = 0;
	if (r->extra_at != RV_PREDICTIONS_NO_EXTRA) {
		const struct rv_prediction_set *set = ctx;

		out->extra = set->extra_values + r->extra_at;
		out->extra_names = (const char *const *)set->extra_names;
		out->n_extra = set->n_extra;
	}
	return 0;
}

void rv_predictions_predictor(struct rv_predictor *out, struct rv_prediction_set *set)
{
	out->model = set->model;
	out->ctx = set;
	out->estimate = set_estimate;
}
