/* SPDX-License-Identifier: MIT */
/* Baseline CSV files (results/baselines/<hw>_<op>.csv): the text of the
 * baselines of data/baseline.h. The first eight columns are fixed
 * (hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes); later
 * columns are kept through a rewrite, typed when the schema knows them, as
 * text when it does not. Rows are sorted by (op, dtype, shape as an integer
 * tuple, hardware); numbers are written as the shortest round-trip text. */
#ifndef RV_IO_BASELINE_H
#define RV_IO_BASELINE_H

#include <stddef.h>

#include "core/buf.h"
#include "data/baseline.h"

/* Parses CSV text. name labels messages, which read "name:line:col: what".
 * RV_EPARSE for a bad header, record, number or shape; RV_ERANGE for a
 * number outside the schema's limits; a repeated (hardware, op, shape,
 * dtype) is RV_EPARSE. */
int rv_baseline_parse(struct rv_baseline **out, const char *text, size_t len, const char *name);
/* Reads and parses a file (see rv_file_read() for the I/O errors). */
int rv_baseline_load(struct rv_baseline **out, const char *path);

/* Appends the CSV text of b, rows in their current order. */
int rv_baseline_render(struct rv_buf *out, const struct rv_baseline *b);
/* Sorts b and replaces path with it atomically. */
int rv_baseline_save(struct rv_baseline *b, const char *path);

/* Under the folder lock: removes the temporary files of a writer killed in
 * the middle of a save, loads path (or starts a new baseline when it does not
 * exist), upserts row (rv_baseline_upsert(): what is written is what the
 * loader accepts), sorts and saves atomically. A failure leaves the old file
 * as it was. */
int rv_baseline_store(const char *path, const struct rv_baseline_row *row);

/* The baseline folder: opt when given, else $ROOFVAL_BASELINE_DIR, else as
 * core/datadir.h resolves it (rv_dir_resolve(RV_DIR_BASELINES, opt)). */
const char *rv_baseline_dir(const char *opt);

#endif
