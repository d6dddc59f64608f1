/* SPDX-License-Identifier: MIT */
/* Baseline CSV: parse, render, load, save and store (the rows and their
 * schema are data/baseline's). */
#include "io/baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/vec.h"
#include "io/csv.h"
#include "io/file.h"

/* Seconds to wait for another writer of the same folder. */
#define BASELINE_LOCK_TIMEOUT_S 30.0

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
		if (strcmp(rec->field[i], rv_baseline_schema[i].name) != 0)
			return rv_error_set(
			        RV_EPARSE,
			        "%s:%u:%u: header column %zu is '%s', expected '%s'; a "
			        "baseline starts with hardware,op,shape,dtype,latency_s,"
			        "energy_j,trial_count,notes",
			        name, rec->line, rec->col[i], i + 1, rec->field[i],
			        rv_baseline_schema[i].name);
	}
	for (size_t i = RV_BASELINE_FIXED_COLS; i < rec->n; i++) {
		const char *col = rec->field[i];
		int err;

		if (*col == '\0')
			return rv_error_set(RV_EPARSE, "%s:%u:%u: header column %zu has no name",
			                    name, rec->line, rec->col[i], i + 1);
		for (size_t j = 0; j < i; j++)
			if (strcmp(rec->field[j], col) == 0)
				return rv_error_set(RV_EPARSE,
				                    "%s:%u:%u: header column '%s' appears twice",
				                    name, rec->line, rec->col[i], col);
		if ((err = rv_baseline_add_col(b, col, rv_col_find(col))) < 0)
			return err;
	}
	return 0;
}

/* Fills r from one record; messages read "name:line:col: column: what". */
static int baseline_parse_row(struct rv_baseline_row *r, const struct rv_csv_record *rec,
                              const struct rv_baseline *b, const char *name)
{
	size_t k = 0;
	int err;

	if (rec->n != RV_BASELINE_FIXED_COLS + b->n_extra)
		return rv_error_set(RV_EPARSE,
		                    "%s:%u: %zu fields, but the header has %zu columns; give every "
		                    "row one field per column (quote a field that holds a comma)",
		                    name, rec->line, rec->n, RV_BASELINE_FIXED_COLS + b->n_extra);
	r->line = rec->line;
	if (b->n_unknown) {
		r->unknown = calloc(b->n_unknown, sizeof(char *));
		if (!r->unknown)
			return rv_error_set(RV_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < rec->n; i++) {
		enum rv_col c = i < RV_BASELINE_FIXED_COLS
		                        ? (enum rv_col)i
		                        : b->extra_id[i - RV_BASELINE_FIXED_COLS];

		if (c == RV_COL_UNKNOWN) {
			r->unknown[k] = rv_strdup(rec->field[i]);
			if (!r->unknown[k++])
				return rv_error_set(RV_ENOMEM, "out of memory");
			continue;
		}
		err = rv_row_parse(r, c, rec->field[i]);
		if (err == RV_ENOMEM)
			return err;
		if (err < 0)
			return rv_error_set(err, "%s:%u:%u: %s: %s", name, rec->line, rec->col[i],
			                    rv_baseline_schema[c].name, rv_error_last());
	}
	return 0;
}

static int baseline_row_ptr_cmp(const void *pa, const void *pb)
{
	const struct rv_baseline_row *a = *(const struct rv_baseline_row *const *)pa;
	const struct rv_baseline_row *b = *(const struct rv_baseline_row *const *)pb;
	int c = rv_baseline_key_cmp(a, b);

	/* Ties only between duplicates; order them by line so messages are stable. */
	return c ? c : (a->line > b->line) - (a->line < b->line);
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
		if (rv_baseline_key_cmp(idx[i - 1], idx[i]) == 0) {
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
		struct rv_baseline_row row;

		rv_baseline_row_init(&row);
		err = rv_vec_push(&b->rows, &b->n_rows, &b->cap_rows, &row, sizeof(row));
		if (err < 0)
			goto out;
		err = baseline_parse_row(&b->rows[b->n_rows - 1], &rec, b, name);
		if (err < 0)
			goto out;
	}
	if (err < 0)
		goto out;
	/* Keep the file's own line ends; a file that has none (one line) gets CRLF. */
	b->crlf = rd.saw_crlf || !rd.saw_lf;
	err = baseline_check_unique(b, name);
	if (err == 0)
		err = rv_baseline_index(b); /* every lookup of a row in O(1) */
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

int rv_baseline_render(struct rv_buf *out, const struct rv_baseline *b)
{
	char cell[RV_ROW_CELL], shape[80];

	for (size_t i = 0; i < RV_BASELINE_FIXED_COLS; i++)
		rv_csv_put_field(out, rv_baseline_schema[i].name, i == 0);
	for (size_t i = 0; i < b->n_extra; i++)
		rv_csv_put_field(out, b->extra_cols[i], 0);
	rv_csv_end_record(out, b->crlf);
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct rv_baseline_row *r = &b->rows[i];
		size_t k = 0;

		rv_csv_put_field(out, r->hardware, 1);
		rv_csv_put_field(out, rv_op_name(r->op), 0);
		(void)rv_shape_format(shape, sizeof(shape), &r->shape);
		rv_csv_put_field(out, shape, 0);
		rv_csv_put_field(out, rv_dtype_name(r->dtype), 0);
		rv_row_format(cell, r, RV_COL_LATENCY_S);
		rv_csv_put_field(out, cell, 0);
		rv_row_format(cell, r, RV_COL_ENERGY_J);
		rv_csv_put_field(out, cell, 0);
		rv_row_format(cell, r, RV_COL_TRIAL_COUNT);
		rv_csv_put_field(out, cell, 0);
		rv_csv_put_field(out, r->notes ? r->notes : "", 0);
		for (size_t j = 0; j < b->n_extra; j++) {
			const char *text = cell;

			if (b->extra_id[j] == RV_COL_UNKNOWN) {
				text = r->unknown && r->unknown[k] ? r->unknown[k] : "";
				k++;
			} else {
				rv_row_format(cell, r, b->extra_id[j]);
			}
			rv_csv_put_field(out, text, 0);
		}
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

int rv_baseline_store(const char *path, const struct rv_baseline_row *row)
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
		err = rv_baseline_upsert(b, row);
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
