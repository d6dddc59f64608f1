/* SPDX-License-Identifier: MIT */
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int rv_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void rv_sort_doubles(double *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof(*x), rv_cmp_double);
}

double rv_median_sorted(const double *x, size_t n)
{
	if (n == 0)
		return (double)NAN;
	return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

double rv_median(double *x, size_t n)
{
	rv_sort_doubles(x, n);
	return rv_median_sorted(x, n);
}

int rv_median_nearest(const double *x, size_t n, double *median, double *spread, size_t *pick)
{
	double *s = malloc(n * sizeof(*s)), best = HUGE_VAL;

	if (!s)
		return rv_error_set(RV_ENOMEM, "out of memory");
	memcpy(s, x, n * sizeof(*s));
	*median = rv_median(s, n);
	*spread = (s[n - 1] - s[0]) / *median;
	free(s);
	*pick = 0;
	for (size_t i = 0; i < n; i++)
		if (fabs(x[i] - *median) < best) {
			best = fabs(x[i] - *median);
			*pick = i;
		}
	return 0;
}

double rv_rank_sorted(const double *x, size_t n, double p)
{
	double r = ceil(p * (double)n) - 1;

	if (r < 0)
		r = 0;
	if (r > (double)(n - 1))
		r = (double)(n - 1);
	return x[(size_t)r];
}

void rv_stats_of(struct rv_stats *out, double *x, size_t n)
{
	double *dev, var = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	rv_sort_doubles(x, n);
	out->min = x[0];
	out->median = rv_median_sorted(x, n);
	out->p10 = rv_rank_sorted(x, n, 0.10);
	out->p90 = rv_rank_sorted(x, n, 0.90);
	for (size_t i = 0; i < n; i++)
		out->mean += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		var += (x[i] - out->mean) * (x[i] - out->mean) / (double)n;
	out->cv = out->mean > 0 ? sqrt(var) / out->mean : (double)NAN;
	dev = malloc(n * sizeof(*dev));
	if (!dev) {
		out->mad = (double)NAN;
		return;
	}
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(x[i] - out->median);
	out->mad = rv_median(dev, n);
	free(dev);
}
