/* SPDX-License-Identifier: MIT */
/* Baseline CSV files (results/baselines/<hw>_<op>.csv): the measured latency and
 * energy of each (hardware, op, shape, dtype). The first eight columns are fixed
 * (hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes); later columns
 * are kept through a rewrite. Rows are sorted by (op, dtype, shape as an integer
 * tuple, hardware); numbers are written as the shortest round-trip text. */
#ifndef RV_IO_BASELINE_H
#define RV_IO_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/dtype.h"
#include "core/op.h"

#define RV_BASELINE_FIXED_COLS 8

/* Longest accepted latency: anything above a day is a unit mistake. */
#define RV_BASELINE_MAX_LATENCY_S 86400.0
/* Largest accepted energy per call: a day at over 10 kW. */
#define RV_BASELINE_MAX_ENERGY_J  1e9

struct rv_baseline_row {
	char *hardware;
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
	double latency_s;     /* finite, > 0 */
	double energy_j;      /* finite, >= 0; NAN when not measured (empty field) */
	uint64_t trial_count; /* >= 1 */
	char *notes;          /* "" when empty */
	char **extra;         /* one string per extra column of the baseline */
	unsigned line;        /* line in the file it was read from; 0 for a new row */
};

struct rv_baseline {
	char **extra_cols; /* names of the columns after notes */
	size_t n_extra;
	struct rv_baseline_row *rows;
	size_t n_rows, cap_rows;
	int crlf; /* line ends: CRLF (1) or LF (0); new files use CRLF */
};

/* An empty baseline (no rows, no extra columns, CRLF line ends). */
int rv_baseline_new(struct rv_baseline **out);
/* Parses CSV text. name labels messages, which read "name:line:col: what".
 * RV_EPARSE for a bad header, record, number or shape; RV_ERANGE for an
 * implausible number; a repeated (hardware, op, shape, dtype) is RV_EPARSE. */
int rv_baseline_parse(struct rv_baseline **out, const char *text, size_t len, const char *name);
/* Reads and parses a file (see rv_file_read() for the I/O errors). */
int rv_baseline_load(struct rv_baseline **out, const char *path);
void rv_baseline_free(struct rv_baseline *b);

/* Sorts rows by (op, dtype, shape, hardware). */
void rv_baseline_sort(struct rv_baseline *b);
/* Appends the CSV text of b, rows in their current order. */
int rv_baseline_render(struct rv_buf *out, const struct rv_baseline *b);
/* Sorts b and replaces path with it atomically. */
int rv_baseline_save(struct rv_baseline *b, const char *path);

/* Adds row, or replaces the row with the same (hardware, op, shape, dtype).
 * row->extra holds n_extra values named by extra_cols; columns b lacks are
 * appended to b, and b's columns the row lacks are left empty. Copies
 * everything it keeps. RV_ENOMEM. */
int rv_baseline_upsert(struct rv_baseline *b, const struct rv_baseline_row *row,
                       const char *const *extra_cols, size_t n_extra);
/* Under the folder lock: removes the temporary files of a writer killed in
 * the middle of a save, loads path (or starts a new baseline when it does not
 * exist), upserts row, sorts and saves atomically. A failure leaves the old
 * file as it was. */
int rv_baseline_store(const char *path, const struct rv_baseline_row *row,
                      const char *const *extra_cols, size_t n_extra);

/* The baseline folder: opt when given, else $ROOFVAL_BASELINE_DIR, else as
 * core/datadir.h resolves it (rv_dir_resolve(RV_DIR_BASELINES, opt)). */
const char *rv_baseline_dir(const char *opt);

/* Index of the row with this key, or -1. */
long rv_baseline_find(const struct rv_baseline *b, const char *hardware, enum rv_op op,
                      const struct rv_shape *shape, enum rv_dtype dtype);

#endif
