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

/* A model to score beside or instead of the built-in one: a predictions
 * CSV, or an adapter command (docs/predictions-csv.md: the entries to
 * predict on its standard input, a predictions CSV on its standard output);
 * both NULL: the built-in model. */
typedef struct rv_model {
	const char *predictions; /* a predictions CSV; the model is named after the file */
	const char *command;     /* run with /bin/sh -c; the model is named after it */
	/* (a name of one's own: rv_validate_opts' model_names) */
	double timeout_s; /* the command's time limit in seconds; 0: 60 */
} rv_model;

/* Which validation to run. Start from RV_VALIDATE_OPTS_INIT, then set what
 * you need. Its version field says which fields the caller knows, as in
 * libgit2: fields are only ever added at the end, each addition bumps the
 * version, and the library reads only the fields of the caller's version,
 * so a program built against an older roofval keeps working; a version of
 * 0 (a struct not initialised with the macro) or one newer than the
 * library's is refused. */
#define RV_VALIDATE_OPTS_VERSION 3
#define RV_VALIDATE_OPTS_INIT                       \
	{                                           \
		.version = RV_VALIDATE_OPTS_VERSION \
	}

typedef struct rv_validate_opts {
	unsigned version;    /* RV_VALIDATE_OPTS_VERSION */
	const char *hw;      /* a hardware key; NULL: every baseline's */
	const char *op;      /* "matmul", "linear", "vector_add"; NULL: every op */
	const char *purpose; /* "calibration", "validation"; NULL: both, like
	                        roofval validate --all (a sweep labelling nothing
	                        for a target is then skipped) */
	/* A predictions CSV (docs/predictions-csv.md) to validate instead of
	 * the built-in model, with exactly its rules; NULL: the built-in
	 * model. */
	const char *predictions;
	/* The models to score, in this order, instead of the built-in model or
	 * predictions (which must then be NULL): the roofval validate
	 * --predictions, --model-cmd and --with-builtin of the command line. Each
	 * command is run once with every entry it must predict. Two models of
	 * one name are RV_EPARSE. n_models 0: unused. */
	const rv_model *models;
	size_t n_models;
	/* A regression gate (roofval validate --against): the JSON report of
	 * an earlier run (roofval.report/1) to compare with; the report then
	 * says what changed, and *passed is whether nothing regressed: no
	 * record that passed there fails now and no cell's median |latency
	 * error| grew by more than regression_points percentage points (0: any
	 * growth is a regression; roofval's default is 2). NULL: no gate. */
	const char *against;
	double regression_points;
	/* Rows measured while the machine was busy or whose median is not
	 * known to the capture's precision are marked suspect in the report;
	 * non-zero leaves them out of scoring (roofval validate
	 * --exclude-flagged), counted as excluded in the coverage. */
	int exclude_flagged;
	/* Further baseline folders holding second captures of the same
	 * targets (the further --baseline-dir of roofval validate): read for
	 * the noise ceiling only (docs/accuracy.md), never scored. A folder
	 * holding none of the validated targets is RV_ENOENT naming it. */
	const char *const *repeat_baseline_dirs;
	size_t n_repeat_baseline_dirs;
	/* Version 2 on. The names of models[0 .. n_models - 1] (roofval
	 * validate --model-name), NULL or a NULL entry: the default (a
	 * predictions file's name without .csv, a command's program). A name
	 * of 64 bytes or more is refused (RV_ERANGE), never cut. */
	const char *const *model_names;
	/* Version 3. The text and markdown reports list each model's failures
	 * worst first and, with several models, the shapes a model failed side
	 * by side, up to top of each (roofval validate --top; 0: all). JSON
	 * lists every record. */
	size_t top;
} rv_validate_opts;

/* Validates what opts selects (NULL: everything) over the baselines of d
 * and renders the report in format ("text", "markdown" or "json"; NULL:
 * "text"; JSON follows the schema roofval.report/1). On success *report is
 * a NUL-terminated string owned by the caller (free() it) and, when len is
 * not NULL, *len its length. When passed is not NULL it receives 1 when
 * every scored record passed (with opts->against: when nothing regressed),
 * else 0. Errors: RV_ERANGE for an opts->version this library does not
 * know; RV_EPARSE for an unknown format, op or purpose, or both
 * predictions and models given; RV_ENOENT when there is no baseline to
 * validate (or the one asked for is missing), or when nothing could be
 * scored (the message says how many entries were labelled and measured,
 * and what to do); the loaders' errors for malformed files (a predictions
 * file's with file:line:column, an earlier report's); a model command's
 * failure or time-out; RV_ENOMEM. */
RV_API int rv_data_validate(rv_data *d, const rv_validate_opts *opts, const char *format,
                            char **report, size_t *len, int *passed);

RV_END_DECLS

#endif
