/* SPDX-License-Identifier: MIT */
/* Human-readable quantities. */
#include "core/units.h"

#include <math.h>
#include <stdio.h>

void rv_fmt_si(char *out, size_t size, double v, const char *unit)
{
	static const char *const up[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const down[] = { "", "m", "u", "n", "p", "f" };
	double a = fabs(v);
	int i = 0;

	if (!isfinite(v) || fpclassify(v) == FP_ZERO) {
		(void)snprintf(out, size, "%g %s", v, unit);
		return;
	}
	if (a >= 1) {
		while (a >= 999.5 && i < 6) {
			a /= 1000;
			v /= 1000;
			i++;
		}
		(void)snprintf(out, size, "%.3g %s%s", v, up[i], unit);
		return;
	}
	while (a < 0.9995 && i < 5) {
		a *= 1000;
		v *= 1000;
		i++;
	}
	(void)snprintf(out, size, "%.3g %s%s", v, down[i], unit);
}

void rv_fmt_bytes(char *out, size_t size, double bytes)
{
	static const char *const iec[] = { "TiB", "GiB", "MiB", "KiB" };

	for (int i = 0; i < 4; i++) {
		double unit = ldexp(1.0, 10 * (4 - i));

		if (bytes < unit)
			continue;
		/* Only the largest unit that fits, and only for whole 1/64ths of it. */
		if (fmod(bytes, unit / 64) < 0.5) {
			(void)snprintf(out, size, "%.4g %s", bytes / unit, iec[i]);
			return;
		}
		break;
	}
	rv_fmt_si(out, size, bytes, "B");
}
