/* SPDX-License-Identifier: MIT */
/* Validation: the model's predictions for the labelled entries of the
 * sweeps, scored against the measured baselines of the layout, rendered as
 * the report roofval validate prints. */
#ifndef ROOFVAL_VALIDATE_H
#define ROOFVAL_VALIDATE_H

#include <roofval/common.h>
#include <roofval/data.h>
#include <stddef.h>

RV_BEGIN_DECLS

/* Which validation to run. Zero-initialise it, then set what you need. */
typedef struct rv_validate_opts {
	const char *hw;      /* a hardware key; NULL: every baseline's */
	const char *op;      /* "matmul", "linear", "vector_add"; NULL: every op */
	const char *purpose; /* "calibration", "validation"; NULL: both, like
	                        roofval validate --all (a sweep labelling nothing
	                        for a target is then skipped) */
	/* A predictions CSV (docs/predictions-csv.md) to validate instead of
	 * the built-in model, with exactly its rules; NULL: the built-in
	 * model. */
	const char *predictions;
} rv_validate_opts;

/* Validates what opts selects (NULL: everything) over the baselines of d
 * and renders the report in format ("text", "markdown" or "json"; NULL:
 * "text"; JSON follows the schema roofval.report/1). On success *report is
 * a NUL-terminated string owned by the caller (free() it) and, when len is
 * not NULL, *len its length. When passed is not NULL it receives 1 when
 * every scored record passed, else 0. Errors: RV_EPARSE for an unknown
 * format, op or purpose; RV_ENOENT when there is no baseline to validate
 * (or the one asked for is missing); the loaders' errors for malformed
 * files (a predictions file's with file:line:column); RV_ENOMEM. */
RV_API int rv_data_validate(rv_data *d, const rv_validate_opts *opts, const char *format,
                            char **report, size_t *len, int *passed);

RV_END_DECLS

#endif
