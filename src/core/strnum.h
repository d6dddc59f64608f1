/* SPDX-License-Identifier: MIT */
/* Numbers as text: strict parsing, and doubles written as the shortest text that
 * reads back to the same value, laid out as Python's repr() does (the reference
 * harness wrote its files with Python): 0.0, 5.778e-06, 6.8960000000000006e-06. */
#ifndef RV_CORE_STRNUM_H
#define RV_CORE_STRNUM_H

#include <stdint.h>

#define RV_DOUBLE_STR 32 /* enough for any double written by rv_fmt_double() */

/* Writes v into out; never fails. A zero is written 0.0 whatever its sign: no
 * file roofval writes holds -0.0. */
void rv_fmt_double(char out[RV_DOUBLE_STR], double v);

/* The number rule of every loader (baselines, sweeps, profiles, fit files,
 * predictions), for values read from text and from JSON alike:
 *  - a subnormal value (0 < |v| < 2.2250738585072014e-308, DBL_MIN) is refused:
 *    no quantity roofval reads is that small, and such a value is a unit or a
 *    corruption error, never a measurement;
 *  - -0 is 0: the sign of a zero means nothing in any quantity roofval reads, so
 *    *v becomes +0 and what is written back is 0.0. Where a positive value is
 *    required, the caller's limit (> 0, or a floor below) refuses the zero.
 * Returns 0, or RV_ERANGE with a message quoting v. */
int rv_num_check(double *v);

/* The smallest non-zero magnitude of a physical quantity that any hardware has,
 * by unit; loaders refuse a non-zero value below it (a value below is a wrong
 * unit, not a measurement). 0 for a unit without a floor (ratios, counts). */
#define RV_NUM_MIN_TIME_S   1e-12 /* a picosecond: no call, overhead or window is shorter */
#define RV_NUM_MIN_BW_Bps   1.0   /* a byte per second */
#define RV_NUM_MIN_RATE     1.0   /* one FLOP/s, one Hz */
#define RV_NUM_MIN_BYTES    1.0   /* a capacity of one byte */
#define RV_NUM_MIN_POWER_W  1e-6  /* a microwatt */
#define RV_NUM_MIN_ENERGY_J 1e-21 /* below kT ln 2 at 300 K (2.9e-21 J, Landauer's bound) */

/* The floor above for a unit written as in messages and schema: "s", "B/s",
 * "FLOP/s", "Hz", "B", "W", "J"; 0 for any other (or NULL). */
double rv_num_floor(const char *unit);

/* Whole-string parses: no surrounding space, no trailing text. They return
 * RV_EPARSE with a message naming the text when it is not a number of the
 * kind asked for, and RV_ERANGE when it overflows. rv_parse_double accepts
 * decimal and exponent notation only (no hex, inf or nan) and finite results,
 * and applies rv_num_check(): a subnormal result, or a non-zero text that
 * underflows to 0, is RV_ERANGE; "-0" reads as 0. */
int rv_parse_double(const char *s, double *out);
int rv_parse_u64(const char *s, uint64_t *out);
int rv_parse_i64(const char *s, int64_t *out);

#endif
