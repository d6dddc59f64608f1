/* SPDX-License-Identifier: MIT */
/* Baselines of one target captured at different times, merged into one
 * (the noise ceiling): a machine shared with others runs whole captures
 * slower or faster for seconds at a time, so one capture can hold a state
 * that no other shows; the median over captures spread in time is the
 * ground truth a model can be held to.
 *
 * The cost is linear in the rows up to a logarithm: each input's rows are
 * found through an index sorted by key, and the merged rows are appended
 * (every key once) and sorted at the end, never searched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/stats.h"
#include "core/vec.h"
#include "data/baseline.h"

/* One input: its rows sorted by key, and where each of its unknown columns
 * goes among the merged baseline's. */
struct merge_in {
	const struct rv_baseline *b;
	const struct rv_baseline_row **sorted;
	size_t *unknown_to; /* b->n_unknown entries */
};

static int row_ptr_cmp(const void *pa, const void *pb)
{
	const struct rv_baseline_row *const *a = pa, *const *b = pb;

	return rv_baseline_key_cmp(*a, *b);
}

/* The row of in with the key of r, or NULL. */
static const struct rv_baseline_row *in_find(const struct merge_in *in,
                                             const struct rv_baseline_row *r)
{
	const struct rv_baseline_row *const *at;

	if (in->b->n_rows == 0)
		return NULL;
	at = bsearch(&r, in->sorted, in->b->n_rows, sizeof(*in->sorted), row_ptr_cmp);
	return at ? *at : NULL;
}

/* The rows of key r in in[from..n-1], into rows (n slots), with the input
 * each came from in which: how many. */
static size_t rows_of(const struct rv_baseline_row **rows, size_t *which, const struct merge_in *in,
                      size_t from, size_t n, const struct rv_baseline_row *r)
{
	size_t k = 0;

	for (size_t j = from; j < n; j++) {
		const struct rv_baseline_row *at = in_find(&in[j], r);

		if (!at)
			continue;
		rows[k] = at;
		which[k] = j;
		k++;
	}
	return k;
}

/* Whether b has a column called name. */
static int has_col_named(const struct rv_baseline *b, const char *name)
{
	for (size_t i = 0; i < b->n_extra; i++)
		if (strcmp(b->extra_cols[i], name) == 0)
			return 1;
	return 0;
}

/* Gives out and its scratch twin every column of in not there yet (in
 * in's order, unknown ones too), and maps in's unknown columns to out's. */
static int add_columns(struct rv_baseline *out, struct rv_baseline *twin, struct merge_in *in)
{
	size_t u = 0;
	int err = 0;

	for (size_t c = 0; c < in->b->n_extra && err == 0; c++) {
		const char *name = in->b->extra_cols[c];
		enum rv_col id = in->b->extra_id[c];

		if (!has_col_named(out, name) && (err = rv_baseline_add_col(out, name, id)) == 0)
			err = rv_baseline_add_col(twin, name, id);
		if (err < 0 || id != RV_COL_UNKNOWN)
			continue;
		/* where this unknown column is among out's */
		for (size_t k = 0, ou = 0; k < out->n_extra; k++) {
			if (out->extra_id[k] != RV_COL_UNKNOWN)
				continue;
			if (strcmp(out->extra_cols[k], name) == 0)
				in->unknown_to[u] = ou;
			ou++;
		}
		u++;
	}
	return err;
}

/* Appends row, checked and completed by rv_baseline_upsert() into the
 * empty twin (same columns as out, so no search), to out, with the unknown
 * values of src (a row of in). */
static int append_row(struct rv_baseline *out, struct rv_baseline *twin,
                      const struct rv_baseline_row *row, const struct merge_in *in,
                      const struct rv_baseline_row *src)
{
	size_t n_extra = twin->n_extra;
	int err = rv_baseline_upsert(twin, row);

	/* Columns upsert gave the twin (repeats, repeat_spread) go to out too. */
	for (size_t c = n_extra; c < twin->n_extra && err == 0; c++)
		err = rv_baseline_add_col(out, twin->extra_cols[c], twin->extra_id[c]);
	if (err < 0)
		return err;
	for (size_t u = 0; u < in->b->n_unknown && err == 0; u++) {
		const char *v = src->unknown ? src->unknown[u] : NULL;
		char **slot = &twin->rows[0].unknown[in->unknown_to[u]];

		if (v && *v && !(*slot = rv_strdup(v)))
			err = rv_error_set(RV_ENOMEM, "out of memory");
	}
	if (err == 0)
		err = rv_vec_push(&out->rows, &out->n_rows, &out->cap_rows, &twin->rows[0],
		                  sizeof(twin->rows[0]));
	if (err == 0)
		twin->n_rows = 0; /* the row is out's now */
	return err;
}

/* The merged row of the k rows of one key (rows[i] from in[which[i]]),
 * appended to out. */
static int merge_key(struct rv_baseline *out, struct rv_baseline *twin,
                     const struct rv_baseline_row **rows, const size_t *which, size_t k,
                     const struct merge_in *in, const char *const *labels, double *lat)
{
	struct rv_baseline_row row;
	struct rv_buf notes = RV_BUF_INIT;
	double median, spread;
	size_t pick;
	int err;

	if (k == 1)
		return append_row(out, twin, rows[0], &in[which[0]], rows[0]);
	for (size_t i = 0; i < k; i++)
		lat[i] = rows[i]->latency_s;
	if ((err = rv_median_nearest(lat, k, &median, &spread, &pick)) < 0)
		return err;
	row = *rows[pick];
	row.latency_s = median;
	row.repeats.value = k;
	row.repeats.present = 1;
	row.repeat_spread = spread;
	row.cols |= RV_COL_BIT(RV_COL_REPEATS) | RV_COL_BIT(RV_COL_REPEAT_SPREAD);
	rv_buf_printf(&notes, "%s%smedian of %zu captures (", row.notes, *row.notes ? "; " : "", k);
	for (size_t i = 0; i < k; i++)
		rv_buf_printf(&notes, "%s%s", i ? ", " : "", labels[which[i]]);
	rv_buf_printf(&notes, "), %.3g%% apart (the row is %s's)", 100 * spread,
	              labels[which[pick]]);
	if ((err = rv_buf_check(&notes)) == 0) {
		row.notes = notes.data;
		err = append_row(out, twin, &row, &in[which[pick]], rows[pick]);
	}
	rv_buf_free(&notes);
	return err;
}

/* Each input's sorted index and unknown-column map; out's columns. */
static int merge_prepare(struct merge_in *mi, struct rv_baseline *out, struct rv_baseline *twin,
                         struct rv_baseline *const *in, size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && err == 0; i++) {
		mi[i].b = in[i];
		mi[i].sorted = calloc(in[i]->n_rows + 1, sizeof(*mi[i].sorted));
		mi[i].unknown_to = calloc(in[i]->n_unknown + 1, sizeof(*mi[i].unknown_to));
		if (!mi[i].sorted || !mi[i].unknown_to)
			return rv_error_set(RV_ENOMEM, "out of memory");
		for (size_t r = 0; r < in[i]->n_rows; r++)
			mi[i].sorted[r] = &in[i]->rows[r];
		if (in[i]->n_rows > 1)
			qsort(mi[i].sorted, in[i]->n_rows, sizeof(*mi[i].sorted), row_ptr_cmp);
		err = add_columns(out, twin, &mi[i]);
	}
	return err;
}

int rv_baseline_merge(struct rv_baseline **out, struct rv_baseline *const *in,
                      const char *const *labels, size_t n, size_t *n_merged)
{
	const struct rv_baseline_row **rows = calloc(n + 1, sizeof(*rows));
	size_t *which = calloc(n + 1, sizeof(*which));
	double *lat = calloc(n + 1, sizeof(*lat));
	struct merge_in *mi = calloc(n + 1, sizeof(*mi));
	struct rv_baseline *b = NULL, *twin = NULL;
	int err = rows && which && lat && mi ? rv_baseline_new(&b)
	                                     : rv_error_set(RV_ENOMEM, "out of memory");

	*out = NULL;
	*n_merged = 0;
	if (err == 0)
		err = rv_baseline_new(&twin);
	if (err == 0 && n > 0)
		b->crlf = in[0]->crlf;
	if (err == 0)
		err = merge_prepare(mi, b, twin, in, n);
	for (size_t i = 0; i < n && err == 0; i++) {
		for (size_t r = 0; r < in[i]->n_rows && err == 0; r++) {
			const struct rv_baseline_row *x = &in[i]->rows[r];
			size_t k, j;

			/* Merged already, from an earlier input that has it too. */
			for (j = 0; j < i && !in_find(&mi[j], x); j++)
				;
			if (j < i)
				continue;
			k = rows_of(rows, which, mi, i, n, x);
			err = merge_key(b, twin, rows, which, k, mi, labels, lat);
			*n_merged += k > 1;
		}
	}
	for (size_t i = 0; mi && i < n; i++) {
		free(mi[i].sorted);
		free(mi[i].unknown_to);
	}
	free(mi);
	free(rows);
	free(which);
	free(lat);
	rv_baseline_free(twin);
	if (err < 0) {
		rv_baseline_free(b);
		return err;
	}
	rv_baseline_sort(b);
	*out = b;
	return 0;
}
