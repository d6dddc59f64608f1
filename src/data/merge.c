/* SPDX-License-Identifier: MIT */
/* Baselines of one target captured at different times, merged into one
 * (issue 19's noise ceiling): a machine shared with others runs whole
 * captures slower or faster for seconds at a time, so one capture can hold a
 * state that no other shows; the median over captures spread in time is the
 * ground truth a model can be held to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"
#include "core/stats.h"
#include "data/baseline.h"

/* The rows of key r in in[from..n-1], into rows (n slots): how many. */
static size_t rows_of(const struct rv_baseline_row **rows, const char **labels,
                      struct rv_baseline *const *in, const char *const *in_labels, size_t from,
                      size_t n, const struct rv_baseline_row *r)
{
	size_t k = 0;

	for (size_t j = from; j < n; j++) {
		long at = rv_baseline_find(in[j], r->hardware, r->op, &r->shape, r->dtype);

		if (at < 0)
			continue;
		rows[k] = &in[j]->rows[at];
		labels[k] = in_labels[j];
		k++;
	}
	return k;
}

/* The merged row of the k rows of one key, upserted into out. */
static int merge_key(struct rv_baseline *out, const struct rv_baseline_row **rows,
                     const char **labels, size_t k, double *lat)
{
	struct rv_baseline_row row;
	struct rv_buf notes = RV_BUF_INIT;
	double median, spread;
	size_t pick;
	int err;

	if (k == 1)
		return rv_baseline_upsert(out, rows[0]);
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
		rv_buf_printf(&notes, "%s%s", i ? ", " : "", labels[i]);
	rv_buf_printf(&notes, "), %.3g%% apart (the row is %s's)", 100 * spread, labels[pick]);
	if ((err = rv_buf_check(&notes)) == 0) {
		row.notes = notes.data;
		err = rv_baseline_upsert(out, &row);
	}
	rv_buf_free(&notes);
	return err;
}

int rv_baseline_merge(struct rv_baseline **out, struct rv_baseline *const *in,
                      const char *const *labels, size_t n, size_t *n_merged)
{
	const struct rv_baseline_row **rows = calloc(n + 1, sizeof(*rows));
	const char **row_labels = calloc(n + 1, sizeof(*row_labels));
	double *lat = calloc(n + 1, sizeof(*lat));
	struct rv_baseline *b = NULL;
	int err = rows && row_labels && lat ? rv_baseline_new(&b)
	                                    : rv_error_set(RV_ENOMEM, "out of memory");

	*out = NULL;
	*n_merged = 0;
	if (err == 0 && n > 0)
		b->crlf = in[0]->crlf;
	for (size_t i = 0; i < n && err == 0; i++) {
		for (size_t r = 0; r < in[i]->n_rows && err == 0; r++) {
			const struct rv_baseline_row *x = &in[i]->rows[r];
			size_t k;

			/* Merged already, from an earlier input that has it too. */
			if (rv_baseline_find(b, x->hardware, x->op, &x->shape, x->dtype) >= 0)
				continue;
			k = rows_of(rows, row_labels, in, labels, i, n, x);
			err = merge_key(b, rows, row_labels, k, lat);
			*n_merged += k > 1;
		}
	}
	free(rows);
	free(row_labels);
	free(lat);
	if (err < 0) {
		rv_baseline_free(b);
		return err;
	}
	rv_baseline_sort(b);
	*out = b;
	return 0;
}
