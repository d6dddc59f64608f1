/* SPDX-License-Identifier: MIT */
/* Suspect rows: a busy machine, a median not known to the precision target,
 * an energy from a window shorter than the sensor needs. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/baseline.h"

double rv_row_median_rse(const struct rv_baseline_row *r)
{
	double mad = rv_row_value(r, RV_COL_LATENCY_MAD_S);

	if (!isfinite(mad) || r->trial_count < 1 || !(r->latency_s > 0))
		return (double)NAN;
	/* The standard error of a median from the MAD, for a normal spread, as
	 * capture's --precision rule computes it. */
	return 1.2533 * 1.4826 * mad / (sqrt((double)r->trial_count) * r->latency_s);
}

int rv_row_energy_scoreable(const struct rv_baseline_row *r)
{
	double window_s = rv_row_value(r, RV_COL_ENERGY_WINDOW_S);

	if (!isfinite(r->energy_J) || !(r->energy_J > 0))
		return 0;
	return r->latency_s >= RV_ROW_ENERGY_MIN_WINDOW_S ||
	       (isfinite(window_s) && window_s >= RV_ROW_ENERGY_MIN_WINDOW_S);
}

int rv_row_suspect(const struct rv_baseline_row *r, unsigned *why_mask)
{
	double busy = rv_row_value(r, RV_COL_BUSY_SHARE), rse = rv_row_median_rse(r);
	unsigned why = 0;

	if (isfinite(busy) && busy > RV_ROW_BUSY_SHARE_MAX)
		why |= RV_SUSPECT_BUSY;
	if (isfinite(rse) && rse > RV_ROW_PRECISION_MAX)
		why |= RV_SUSPECT_IMPRECISE;
	/* Measured (not 0, not empty), yet from too short a window. */
	if (isfinite(r->energy_J) && r->energy_J > 0 && !rv_row_energy_scoreable(r))
		why |= RV_SUSPECT_ENERGY;
	if (why_mask)
		*why_mask = why;
	return why != 0;
}

void rv_row_suspect_text(char *out, size_t size, const struct rv_baseline_row *r, unsigned mask)
{
	size_t len = 0;

	if (size == 0)
		return;
	out[0] = '\0';
	if (mask & RV_SUSPECT_BUSY) {
		(void)snprintf(out + len, size - len,
		               "machine busy: %.0f%% of the CPU used by others (over %.0f%%)",
		               100 * rv_row_value(r, RV_COL_BUSY_SHARE),
		               100 * RV_ROW_BUSY_SHARE_MAX);
		len = strlen(out);
	}
	if ((mask & RV_SUSPECT_IMPRECISE) && len < size) {
		(void)snprintf(out + len, size - len, "%smedian known to %.2g%%, not %.2g%%",
		               len ? "; " : "", 100 * rv_row_median_rse(r),
		               100 * RV_ROW_PRECISION_MAX);
		len = strlen(out);
	}
	if ((mask & RV_SUSPECT_ENERGY) && len < size)
		(void)snprintf(out + len, size - len,
		               "%senergy from a window under %.2g ms (the sensor's need)",
		               len ? "; " : "", 1e3 * RV_ROW_ENERGY_MIN_WINDOW_S);
}
