/* SPDX-License-Identifier: MIT */
/* The one statistics file: sorting, medians, nearest-rank percentiles and the
 * robust summary of a set of samples (median, MAD, mean, spread). Every
 * median in roofval (trials, residuals, errors, update intervals) is
 * computed here, with one convention: the mean of the two middle values of
 * an even count. */
#ifndef RV_CORE_STATS_H
#define RV_CORE_STATS_H

#include <stddef.h>

/* qsort comparator of doubles (ascending; NaN compares equal to anything). */
int rv_cmp_double(const void *a, const void *b);
/* Sorts x ascending in place. */
void rv_sort_doubles(double *x, size_t n);
/* Median of sorted x; NAN when n == 0. */
double rv_median_sorted(const double *x, size_t n);
/* Median of x (sorted in place); NAN when n == 0. */
double rv_median(double *x, size_t n);
/* The rule that combines repeated measurements of one thing (capture
 * --repeat, baseline merge): their median, their spread (max - min) /
 * median, and the index of the first one nearest the median, whose other
 * figures stand for the set. x is not changed; n >= 1 and every x > 0.
 * RV_ENOMEM. */
int rv_median_nearest(const double *x, size_t n, double *median, double *spread, size_t *pick);
/* Nearest-rank percentile (p in [0, 1]) of sorted x, n >= 1. */
double rv_rank_sorted(const double *x, size_t n, double p);

/* Robust statistics of n samples. */
struct rv_stats {
	double median, min, p10, p90, mad, mean, cv;
};
/* Fills out from the n samples of x (sorted in place): every field 0 when
 * n == 0; mad NAN when memory runs out; cv NAN when the mean is not > 0. */
void rv_stats_of(struct rv_stats *out, double *x, size_t n);

#endif
