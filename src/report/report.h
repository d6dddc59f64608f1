/* SPDX-License-Identifier: MIT */
/* Validation reports: the records of a struct rv_validation rendered as plain
 * text for a terminal, markdown for a pull request, or JSON for tools. The
 * output is deterministic (no timestamps, no host names, fixed precision in
 * text and markdown), so golden files hold. */
#ifndef RV_REPORT_REPORT_H
#define RV_REPORT_REPORT_H

#include "core/buf.h"
#include "model/validate.h"

enum rv_format { RV_FORMAT_TEXT, RV_FORMAT_MARKDOWN, RV_FORMAT_JSON, RV_FORMAT_COUNT };

/* "text", "markdown" or "json". RV_EPARSE naming the known formats otherwise. */
int rv_format_parse(const char *name, enum rv_format *out);
/* The name parsed by rv_format_parse(); "?" for a value out of range. */
const char *rv_format_name(enum rv_format f);

/* Appends the report of v in format f to out. Returns 0, RV_ENOMEM when out
 * (or the report's working memory) could not grow, or RV_EPARSE for a format
 * out of range. JSON follows the schema "roofval.report/1": latencies in ms,
 * energies in J, errors and tolerances as fractions, null for a value that
 * was not measured or not scored; it ends with a newline. */
int rv_report_render(struct rv_buf *out, const struct rv_validation *v, enum rv_format f);

#endif
