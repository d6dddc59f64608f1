/* SPDX-License-Identifier: MIT */
/* Numbers for people: SI prefixes (1.44 TFLOP/s, 5.78 us) and binary sizes
 * (48 KiB). Inside the program every quantity is in SI base units; only
 * printing converts. */
#ifndef RV_CORE_UNITS_H
#define RV_CORE_UNITS_H

#include <stddef.h>

/* v with an SI prefix and unit, 3 significant digits: "1.44 TFLOP/s". */
void rv_fmt_si(char *out, size_t size, double v, const char *unit);
/* A byte count with a binary prefix when it is a whole number of KiB, MiB,
 * GiB or TiB, else with an SI prefix: "48 KiB", "80 GB". */
void rv_fmt_bytes(char *out, size_t size, double bytes);

#endif
