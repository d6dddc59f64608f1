/* SPDX-License-Identifier: MIT */
/* A model's predictions: one row per (hardware, op, shape, dtype) with the
 * predicted latency, energy and, optionally, the model's own regime verdict.
 * They come from a predictions CSV (docs/predictions-csv.md), from an adapter
 * command that reads the entries to predict on its standard input and writes
 * a predictions CSV on its standard output, or from the built-in model.
 * Validation reads them through a struct rv_predictor, so any model gets the
 * same verdicts. */
#ifndef RV_PREDICTIONS_PREDICTIONS_H
#define RV_PREDICTIONS_PREDICTIONS_H

#include <stddef.h>

#include "core/buf.h"
#include "core/dtype.h"
#include "core/op.h"
#include "core/regime.h"
#include "hw/profile.h"
#include "model/predictor.h"
#include "sweep/sweep.h"

struct rv_prediction_row {
	char *hardware;
	enum rv_op op;
	struct rv_shape shape;
	enum rv_dtype dtype;
	double latency_s;      /* finite, > 0 */
	double energy_J;       /* finite, > 0; NAN when the model predicts none */
	enum rv_regime regime; /* the model's own verdict; RV_REGIME_COUNT when not given */
	unsigned line;         /* line of the file it came from; 0 when made here */
	int used;              /* set when validation looked it up */
	/* Its values of the set's extra columns: set->extra_values[extra_at]
	 * on; RV_PREDICTIONS_NO_EXTRA when it has none. */
	size_t extra_at;
};
#define RV_PREDICTIONS_NO_EXTRA ((size_t)-1)

struct rv_prediction_set {
	char *model; /* the model's name (a file's name without .csv) */
	struct rv_prediction_row *rows;
	size_t n_rows, cap_rows;
	int sorted; /* rows sorted by key: rv_predictions_find() may search */
	/* The file's columns after the six fixed ones other than regime (the
	 * model's own numbers: compute_s, memory_s, ...), n_extra of them, and
	 * each parsed row's values of them (NAN where a field is empty or not a
	 * number), n_extra per row. */
	char **extra_names;
	size_t n_extra;
	double *extra_values;
	size_t n_extra_values, cap_extra_values;
};

/* An empty set for the model called model. RV_ENOMEM. */
int rv_predictions_new(struct rv_prediction_set **out, const char *model);
void rv_predictions_free(struct rv_prediction_set *set);
/* Parses a predictions CSV; name labels messages "name:line:col: what".
 * Columns after the fixed ones other than regime are kept as the model's
 * extra numbers (validation puts their finite values into its records).
 * RV_EPARSE for a bad header, record, key field, a number that is not a
 * finite positive number, an unknown regime, or a second row with the same
 * key. */
int rv_predictions_parse(struct rv_prediction_set **out, const char *text, size_t len,
                         const char *name, const char *model);
/* Reads and parses a file; the model is called model, or when it is NULL
 * after the file (its base name without .csv). I/O errors as rv_file_read(). */
int rv_predictions_load(struct rv_prediction_set **out, const char *path, const char *model);
/* Adds a copy of row (hardware copied). RV_EPARSE for a duplicate key once
 * sorted (see rv_predictions_sort()), RV_ENOMEM. */
int rv_predictions_add(struct rv_prediction_set *set, const struct rv_prediction_row *row);
/* Sorts the rows by (hardware, op, dtype, shape); RV_EPARSE naming both
 * lines when two rows share a key. */
int rv_predictions_sort(struct rv_prediction_set *set, const char *name);
/* The row of this key, or NULL (the set must be sorted). */
struct rv_prediction_row *rv_predictions_find(const struct rv_prediction_set *set,
                                              const char *hardware, enum rv_op op,
                                              const struct rv_shape *shape, enum rv_dtype dtype);
/* Appends the set as a predictions CSV (LF line ends; a regime column only
 * when some row has a regime). */
int rv_predictions_render(struct rv_buf *out, const struct rv_prediction_set *set);

/* The built-in model's predictions for every entry sweep s labels (and can
 * score) for profile p, added to set. */
int rv_predictions_builtin(struct rv_prediction_set *set, const struct rv_profile *p,
                           const struct rv_sweep *s);

/* The entries to predict, as an adapter reads them on its standard input:
 * header hardware,op,shape,dtype,profile then one row per entry. */
void rv_predictions_request_header(struct rv_buf *out);
void rv_predictions_request_row(struct rv_buf *out, const char *hardware, enum rv_op op,
                                const struct rv_shape *shape, enum rv_dtype dtype,
                                const char *profile_path);
/* Runs command through /bin/sh -c with request on its standard input and
 * parses its standard output as a predictions CSV for the model called
 * model. RV_ERROR when it cannot start, exits non-zero (its last line of
 * standard error quoted), is killed, or runs past timeout_s (it is then
 * killed); the parser's errors, naming the command, for malformed output. */
int rv_predictions_from_command(struct rv_prediction_set **out, const char *command,
                                const struct rv_buf *request, double timeout_s, const char *model);

/* A predictor over set: validation looks each entry up in it (and marks the
 * rows it used). */
void rv_predictions_predictor(struct rv_predictor *out, struct rv_prediction_set *set);

#endif
