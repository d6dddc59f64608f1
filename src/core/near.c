/* SPDX-License-Identifier: MIT */
/* Edit distance and the nearest name, for "did you mean ...?". */
#include "core/near.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

size_t rv_near_cap(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

/* The distance of a[0 .. la-1] and b[0 .. lb-1]. */
static size_t near_distance(const char *a, size_t la, const char *b, size_t lb)
{
	/* Three rows of the optimal string alignment table. */
	size_t prev2[RV_NEAR_MAX_LEN + 1], prev[RV_NEAR_MAX_LEN + 1], cur[RV_NEAR_MAX_LEN + 1];

	if (la > RV_NEAR_MAX_LEN || lb > RV_NEAR_MAX_LEN)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	prev2[0] = 0;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			size_t best = sub < del ? sub : del;

			if (ins < best)
				best = ins;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		memcpy(prev2, prev, (lb + 1) * sizeof(prev[0]));
		memcpy(prev, cur, (lb + 1) * sizeof(cur[0]));
	}
	return prev[lb];
}

size_t rv_near_distance(const char *a, const char *b)
{
	return near_distance(a, strlen(a), b, strlen(b));
}

/* How far word is from name: the distance of the whole words, or one more
 * than that of word and the start of name ("xeon" for "xeon_amx_2vcpu"). */
static size_t near_score(const char *word, size_t len, const char *name)
{
	size_t d = near_distance(word, len, name, strlen(name)), p;

	if (strlen(name) > len && (p = near_distance(word, len, name, len)) != SIZE_MAX &&
	    p + 1 < d)
		d = p + 1;
	return d;
}

const char *rv_nearest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_d, cap, len;

	if (!word || !names || !*word)
		return NULL;
	len = strlen(word);
	cap = rv_near_cap(len);
	if (cap >= len) /* a suggestion shares at least one letter */
		cap = len - 1;
	best_d = cap + 1;
	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!names[i] || strcmp(names[i], word) == 0)
			continue;
		d = near_score(word, len, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	return best;
}

char *rv_near_hint(char *out, size_t size, const char *word, const char *const *names, size_t n,
                   const char *prefix)
{
	const char *near = rv_nearest(word, names, n);

	if (size == 0)
		return out;
	out[0] = '\0';
	if (near)
		(void)snprintf(out, size, "; did you mean '%s%s'?", prefix ? prefix : "", near);
	return out;
}
