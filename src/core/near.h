/* SPDX-License-Identifier: MIT */
/* The nearest name to a mistyped word, for "did you mean ...?" in messages:
 * commands, options, hardware keys, meters, ops and dtypes all go through
 * this one function, so every suggestion follows the same rule. */
#ifndef RV_CORE_NEAR_H
#define RV_CORE_NEAR_H

#include <stddef.h>

/* The largest edit distance a suggestion may be from a word of len
 * characters: 1 up to 4 characters, 2 up to 8, else 3. */
size_t rv_near_cap(size_t len);

/* The edit distance of a and b: insertions, deletions, substitutions and
 * swaps of two neighbours each count 1 (optimal string alignment). Words
 * longer than RV_NEAR_MAX_LEN count as far from everything (SIZE_MAX). */
#define RV_NEAR_MAX_LEN 64
size_t rv_near_distance(const char *a, const char *b);

/* The name of names[0 .. n-1] nearest to word: by rv_near_distance() to
 * the whole name, or one more than that to its first strlen(word) letters
 * (so "xeon" finds "xeon_amx_2vcpu"). It is given when within
 * rv_near_cap(strlen(word)) (and below strlen(word)) and not
 * word itself; the first of equally near
 * ones; NULL when none is near enough (or word or names is NULL). NULL
 * entries of names are skipped. */
const char *rv_nearest(const char *word, const char *const *names, size_t n);

/* "; did you mean 'NAME'?" for the name rv_nearest() finds, else "", into
 * out (size bytes, always terminated); returns out. A prefix ("--" for an
 * option) goes before the name. */
char *rv_near_hint(char *out, size_t size, const char *word, const char *const *names, size_t n,
                   const char *prefix);

#endif
