/* SPDX-License-Identifier: MIT */
/* Numbers as text: strict parsing, and doubles written as the shortest text that
 * reads back to the same value, laid out as Python's repr() does (the reference
 * harness wrote its files with Python): 0.0, 5.778e-06, 6.8960000000000006e-06. */
#ifndef RV_CORE_STRNUM_H
#define RV_CORE_STRNUM_H

#include <stdint.h>

#define RV_DOUBLE_STR 32 /* enough for any double written by rv_fmt_double() */

/* Writes v into out; never fails. */
void rv_fmt_double(char out[RV_DOUBLE_STR], double v);

/* Whole-string parses: no surrounding space, no trailing text. They return
 * RV_EPARSE with a message naming the text when it is not a number of the
 * kind asked for, and RV_ERANGE when it overflows. rv_parse_double accepts
 * decimal and exponent notation only (no hex, inf or nan) and finite results. */
int rv_parse_double(const char *s, double *out);
int rv_parse_u64(const char *s, uint64_t *out);
int rv_parse_i64(const char *s, int64_t *out);

#endif
