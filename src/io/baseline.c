/* SPDX-License-Identifier: MIT */
/* Baseline CSV: parse, sort, render, merge and store. */
#include "io/baseline.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/strnum.h"
#include "io/csv.h"
#include "io/file.h"

static const char *const rv_baseline_cols[RV_BASELINE_FIXED_COLS] = {
	"hardware", "op", "shape", "dtype", "latency_s", "energy_j", "trial_count", "notes",
};

enum { COL_HW, COL_OP, COL_SHAPE, COL_DTYPE, COL_LAT, COL_ENERGY, COL_TRIALS, COL_NOTES };

/* Seconds to wait for another writer of the same folder. */
#define BASELINE_LOCK_TIMEOUT_S 30.0

static void baseline_row_clear(struct rv_baseline_row *r, size_t n_extra)
{
	free(r->hardware);
	free(r->notes);
	if (r->extra)
		for (size_t i = 0; i < n_extra; i++)
			free(r->extra[i]);
	free(r->extra);
	memset(r, 0, sizeof(*r));
}

void rv_baseline_free(struct rv_baseline *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_rows; i++)
		baseline_row_clear(&b->rows[i], b->n_extra);
	for (size_t i = 0; i < b->n_extra; i++)
		free(b->extra_cols[i]);
	free(b->extra_cols);
	free(b->rows);
	free(b);
}

int rv_baseline_new(struct rv_baseline **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return rv_error_set(RV_ENOMEM, "out of memory");
	(*out)->crlf = 1;
	return 0;
}

static int baseline_grow(struct rv_baseline *b)
{
	size_t cap;
	struct rv_baseline_row *rows;

	if (b->n_rows < b->cap_rows)
		return 0;
	cap = b->cap_rows ? 2 * b->cap_rows : 64;
	rows = realloc(b->rows, cap * sizeof(*rows));
	if (!rows)
		return rv_error_set(RV_ENOMEM, "out of memory");
	b->rows = rows;
	b->cap_rows = cap;
	return 0;
}

static int baseline_check_header(struct rv_baseline *b, const struct rv_csv_record *rec,
                                 const char *name)
{
	for (size_t i = 0; i < RV_BASELINE_FIXED_COLS; i++) {
		if (i >= rec->n)
			return rv_error_set(
			        RV_EPARSE,
			        "%s:%u: the header ends after %zu columns; a baseline "
			        "starts with hardware,op,shape,dtype,latency_s,energy_j,"
			        "trial_count,notes",
			        name, rec->line, rec->n);
		if (strcmp(rec->field[i], rv_baseline_cols[i]) != 0)
			return rv_error_set(
			        RV_EPARSE,
			        "%s:%u:%u: header column %zu is '%s', expected '%s'; a "
			        "baseline starts with hardware,op,shape,dtype,latency_s,"
			        "energy_j,trial_count,notes",
			        name, rec->line, rec->col[i], i + 1, rec->field[i],
			        rv_baseline_cols[i]);
	}
	b->n_extra = rec->n - RV_BASELINE_FIXED_COLS;
	if (b->n_extra) {
		b->extra_cols = calloc(b->n_extra, sizeof(char *));
		if (!b->extra_cols)
			return rv_error_set(RV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < b->n_extra; i++) {
		const char *col = rec->field[RV_BASELINE_FIXED_COLS + i];

		if (*col == '\0')
			return rv_error_set(RV_EPARSE, "%s:%u:%u: header column %zu has no name",
			                    name, rec->line, rec->col[RV_BASELINE_FIXED_COLS + i],
			                    RV_BASELINE_FIXED_COLS + i + 1);
		for (size_t j = 0; j < RV_BASELINE_FIXED_COLS + i; j++)
			if (strcmp(rec->field[j], col) == 0)
				return rv_error_set(
				        RV_EPARSE, "%s:%u:%u: header column '%s' appears twice",
				        name, rec->line, rec->col[RV_BASELINE_FIXED_COLS + i], col);
		b->extra_cols[i] = rv_strdup(col);
		if (!b->extra_cols[i])
			return rv_error_set(RV_ENOMEM, "out of memory");
	}
	return 0;
}

static int baseline_valid_hw(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.'))
			return 0;
	return 1;
}

/* Fills r from one record; messages read "name:line:col: column: what". */
static int baseline_parse_row(struct rv_baseline_row *r, const struct rv_csv_record *rec,
                              size_t n_extra, const char *name)
{
	const char *const *f = rec->field;
	unsigned line = rec->line;
	double v;
	int err;

#define BAD(c_, code, ...)                                                              \
	do {                                                                            \
		char what_[512];                                                        \
		(void)snprintf(what_, sizeof(what_), __VA_ARGS__);                      \
		return rv_error_set(code, "%s:%u:%u: %s: %s", name, line, rec->col[c_], \
		                    rv_baseline_cols[c_], what_);                       \
	} while (0)

	if (rec->n != RV_BASELINE_FIXED_COLS + n_extra)
		return rv_error_set(RV_EPARSE,
		                    "%s:%u: %zu fields, but the header has %zu columns; give every "
		                    "row one field per column (quote a field that holds a comma)",
		                    name, line, rec->n, RV_BASELINE_FIXED_COLS + n_extra);
	r->line = line;
	if (!baseline_valid_hw(f[COL_HW]))
		BAD(COL_HW, RV_EPARSE, "'%s' is not a hardware key (letters, digits, _ - .)",
		    f[COL_HW]);
	if (rv_op_parse(f[COL_OP], &r->op) < 0)
		BAD(COL_OP, RV_EPARSE, "%s", rv_error_last());
	if ((err = rv_shape_parse(f[COL_SHAPE], r->op, &r->shape)) < 0)
		BAD(COL_SHAPE, err, "%s", rv_error_last());
	if (rv_dtype_parse(f[COL_DTYPE], &r->dtype) < 0)
		BAD(COL_DTYPE, RV_EPARSE, "%s", rv_error_last());
	if ((err = rv_parse_double(f[COL_LAT], &r->latency_s)) < 0)
		BAD(COL_LAT, err, "%s; write seconds as a decimal number such as 1.5e-05",
		    rv_error_last());
	if (!(r->latency_s > 0) || r->latency_s > RV_BASELINE_MAX_LATENCY_S)
		BAD(COL_LAT, RV_ERANGE,
		    "%s s is not a plausible latency (0 < latency_s <= 86400); check its unit",
		    f[COL_LAT]);
	r->energy_j = (double)NAN;
	if (*f[COL_ENERGY]) {
		if ((err = rv_parse_double(f[COL_ENERGY], &v)) < 0)
			BAD(COL_ENERGY, err,
			    "%s; write joules as a decimal number, or leave the field empty when "
			    "energy was not measured",
			    rv_error_last());
		if (v < 0)
			BAD(COL_ENERGY, RV_ERANGE,
			    "%s J is negative; leave the field empty when energy was not measured",
			    f[COL_ENERGY]);
		if (v > RV_BASELINE_MAX_ENERGY_J)
			BAD(COL_ENERGY, RV_ERANGE,
			    "%s J is not a plausible energy per call (at most 1e9 J, a day at over "
			    "10 kW); check its unit",
			    f[COL_ENERGY]);
		r->energy_j = v;
	}
	if ((err = rv_parse_u64(f[COL_TRIALS], &r->trial_count)) < 0)
		BAD(COL_TRIALS, err, "%s", rv_error_last());
	if (r->trial_count == 0)
		BAD(COL_TRIALS, RV_ERANGE, "0 trials; a measured row has at least one");
#undef BAD
	r->hardware = rv_strdup(f[COL_HW]);
	r->notes = rv_strdup(f[COL_NOTES]);
	if (!r->hardware || !r->notes)
		return rv_error_set(RV_ENOMEM, "out of memory");
	if (n_extra) {
		r->extra = calloc(n_extra, sizeof(char *));
		if (!r->extra)
			return rv_error_set(RV_ENOMEM, "out of memory");
		for (size_t i = 0; i < n_extra; i++) {
			r->extra[i] = rv_strdup(f[RV_BASELINE_FIXED_COLS + i]);
			if (!r->extra[i])
				return rv_error_set(RV_ENOMEM, "out of memory");
		}
	}
	return 0;
}

static int baseline_key_cmp(const struct rv_baseline_row *a, const struct rv_baseline_row *b)
{
	int c = strcmp(rv_op_name(a->op), rv_op_name(b->op));

	if (!c)
		c = strcmp(rv_dtype_name(a->dtype), rv_dtype_name(b->dtype));
	if (!c)
		c = rv_shape_cmp(&a->shape, &b->shape);
	if (!c)
		c = strcmp(a->hardware, b->hardware);
	return c;
}

static int baseline_row_ptr_cmp(const void *pa, const void *pb)
{
	const struct rv_baseline_row *a = *(const struct rv_baseline_row *const *)pa;
	const struct rv_baseline_row *b = *(const struct rv_baseline_row *const *)pb;
	int c = baseline_key_cmp(a, b);

	/* Ties only between duplicates; order them by line so messages are stable. */
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

static int baseline_row_cmp(const void *pa, const void *pb)
{
	return baseline_key_cmp(pa, pb);
}

static int baseline_check_unique(const struct rv_baseline *b, const char *name)
{
	const struct rv_baseline_row **idx;
	int err = 0;

	if (b->n_rows < 2)
		return 0;
	idx = malloc(b->n_rows * sizeof(*idx));
	if (!idx)
		return rv_error_set(RV_ENOMEM, "out of memory");
	for (size_t i = 0; i < b->n_rows; i++)
		idx[i] = &b->rows[i];
	qsort(idx, b->n_rows, sizeof(*idx), baseline_row_ptr_cmp);
	for (size_t i = 1; i < b->n_rows && !err; i++) {
		if (baseline_key_cmp(idx[i - 1], idx[i]) == 0) {
			char shape[80];

			(void)rv_shape_format(shape, sizeof(shape), &idx[i]->shape);
			err = rv_error_set(
			        RV_EPARSE,
			        "%s:%u: a second row for %s %s %s %s (the first is on line "
			        "%u); keep one of them",
			        name, idx[i]->line, idx[i]->hardware, rv_op_name(idx[i]->op), shape,
			        rv_dtype_name(idx[i]->dtype), idx[i - 1]->line);
		}
	}
	free(idx);
	return err;
}

int rv_baseline_parse(struct rv_baseline **out, const char *text, size_t len, const char *name)
{
	struct rv_baseline *b = NULL;
	struct rv_csv_reader rd;
	struct rv_csv_record rec;
	int err;

	*out = NULL;
	err = rv_csv_reader_init(&rd, text, len, name);
	if (err < 0)
		goto out;
	err = rv_baseline_new(&b);
	if (err < 0)
		goto out;
	err = rv_csv_next(&rd, &rec);
	if (err == 0)
		err = rv_error_set(RV_EPARSE,
		                   "%s: the file is empty; a baseline starts with the header "
		                   "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes",
		                   name);
	if (err < 0)
		goto out;
	err = baseline_check_header(b, &rec, name);
	if (err < 0)
		goto out;
	while ((err = rv_csv_next(&rd, &rec)) == 1) {
		err = baseline_grow(b);
		if (err < 0)
			goto out;
		memset(&b->rows[b->n_rows], 0, sizeof(b->rows[0]));
		b->n_rows++;
		err = baseline_parse_row(&b->rows[b->n_rows - 1], &rec, b->n_extra, name);
		if (err < 0)
			goto out;
	}
	if (err < 0)
		goto out;
	/* Keep the file's own line ends; a file that has none (one line) gets CRLF. */
	b->crlf = rd.saw_crlf || !rd.saw_lf;
	err = baseline_check_unique(b, name);
	if (err < 0)
		goto out;
	*out = b;
	b = NULL;
out:
	rv_csv_reader_free(&rd);
	rv_baseline_free(b);
	return err;
}

static int baseline_parse_cb(void *out, const char *text, size_t len, const char *name)
{
	return rv_baseline_parse(out, text, len, name);
}

int rv_baseline_load(struct rv_baseline **out, const char *path)
{
	*out = NULL;
	return rv_file_load(path, baseline_parse_cb, out);
}

void rv_baseline_sort(struct rv_baseline *b)
{
	if (b->n_rows > 1)
		qsort(b->rows, b->n_rows, sizeof(b->rows[0]), baseline_row_cmp);
}

int rv_baseline_render(struct rv_buf *out, const struct rv_baseline *b)
{
	char num[RV_DOUBLE_STR], shape[80], trials[24];

	for (size_t i = 0; i < RV_BASELINE_FIXED_COLS; i++)
		rv_csv_put_field(out, rv_baseline_cols[i], i == 0);
	for (size_t i = 0; i < b->n_extra; i++)
		rv_csv_put_field(out, b->extra_cols[i], 0);
	rv_csv_end_record(out, b->crlf);
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *r = &b->rows[i];

		rv_csv_put_field(out, r->hardware, 1);
		rv_csv_put_field(out, rv_op_name(r->op), 0);
		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_csv_put_field(out, shape, 0);
		rv_csv_put_field(out, rv_dtype_name(r->dtype), 0);
		rv_fmt_double(num, r->latency_s);
		rv_csv_put_field(out, num, 0);
		if (isnan(r->energy_j))
			num[0] = '\0';
		else
			rv_fmt_double(num, r->energy_j);
		rv_csv_put_field(out, num, 0);
		(void)snprintf(trials, sizeof(trials), "%" PRIu64, r->trial_count);
		rv_csv_put_field(out, trials, 0);
		rv_csv_put_field(out, r->notes, 0);
		for (size_t j = 0; j < b->n_extra; j++)
			rv_csv_put_field(out, r->extra && r->extra[j] ? r->extra[j] : "", 0);
		rv_csv_end_record(out, b->crlf);
	}
	return rv_buf_check(out);
}

int rv_baseline_save(struct rv_baseline *b, const char *path)
{
	struct rv_buf text = RV_BUF_INIT;
	int err;

	rv_baseline_sort(b);
	err = rv_baseline_render(&text, b);
	if (err == 0)
		err = rv_file_write_atomic(path, text.data, text.len);
	rv_buf_free(&text);
	return err;
}

long rv_baseline_find(const struct rv_baseline *b, const char *hardware, enum rv_op op,
                      const struct rv_shape *shape, enum rv_dtype dtype)
{
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *r = &b->rows[i];

		if (r->op == op && r->dtype == dtype && rv_shape_cmp(&r->shape, shape) == 0 &&
		    strcmp(r->hardware, hardware) == 0)
			return (long)i;
	}
	return -1;
}

/* Index of the extra column called name, adding it when absent; -1 when out of memory. */
static long baseline_extra_col(struct rv_baseline *b, const char *name)
{
	char **cols, *copy;

	for (size_t i = 0; i < b->n_extra; i++)
		if (strcmp(b->extra_cols[i], name) == 0)
			return (long)i;
	/* Widen every row first, so a failure leaves b consistent. */
	for (size_t i = 0; i < b->n_rows; i++) {
		char **extra = realloc(b->rows[i].extra, (b->n_extra + 1) * sizeof(char *));

		if (!extra)
			return -1;
		extra[b->n_extra] = NULL;
		b->rows[i].extra = extra;
	}
	cols = realloc(b->extra_cols, (b->n_extra + 1) * sizeof(char *));
	if (!cols)
		return -1;
	b->extra_cols = cols;
	copy = rv_strdup(name);
	if (!copy)
		return -1;
	b->extra_cols[b->n_extra] = copy;
	return (long)b->n_extra++;
}

int rv_baseline_upsert(struct rv_baseline *b, const struct rv_baseline_row *row,
                       const char *const *extra_cols, size_t n_extra)
{
	struct rv_baseline_row r = *row;
	long at;
	int err;

	for (size_t i = 0; i < n_extra; i++)
		if (baseline_extra_col(b, extra_cols[i]) < 0)
			return rv_error_set(RV_ENOMEM, "out of memory");
	r.hardware = rv_strdup(row->hardware);
	r.notes = rv_strdup(row->notes ? row->notes : "");
	r.extra = b->n_extra ? calloc(b->n_extra, sizeof(char *)) : NULL;
	r.line = 0;
	if (!r.hardware || !r.notes || (b->n_extra && !r.extra))
		goto oom;
	for (size_t i = 0; i < n_extra; i++) {
		long col = baseline_extra_col(b, extra_cols[i]);

		free(r.extra[col]);
		r.extra[col] = rv_strdup(row->extra[i] ? row->extra[i] : "");
		if (!r.extra[col])
			goto oom;
	}
	at = rv_baseline_find(b, row->hardware, row->op, &row->shape, row->dtype);
	if (at >= 0) {
		baseline_row_clear(&b->rows[at], b->n_extra);
		b->rows[at] = r;
		return 0;
	}
	err = baseline_grow(b);
	if (err < 0) {
		baseline_row_clear(&r, b->n_extra);
		return err;
	}
	b->rows[b->n_rows++] = r;
	return 0;
oom:
	baseline_row_clear(&r, b->n_extra);
	return rv_error_set(RV_ENOMEM, "out of memory");
}

int rv_baseline_store(const char *path, const struct rv_baseline_row *row,
                      const char *const *extra_cols, size_t n_extra)
{
	struct rv_file_lock lk;
	struct rv_baseline *b = NULL;
	int err;

	err = rv_file_lock(&lk, path, BASELINE_LOCK_TIMEOUT_S);
	if (err < 0)
		return err;
	/* A writer killed in the middle of a save left its temporary file. */
	(void)rv_file_remove_stale_temps(path);
	err = rv_baseline_load(&b, path);
	if (err == RV_ENOENT)
		err = rv_baseline_new(&b);
	if (err == 0)
		err = rv_baseline_upsert(b, row, extra_cols, n_extra);
	if (err == 0)
		err = rv_baseline_save(b, path);
	rv_baseline_free(b);
	rv_file_unlock(&lk);
	return err;
}

const char *rv_baseline_dir(const char *opt)
{
	return rv_dir_resolve(RV_DIR_BASELINES, opt);
}
