/* The cblas capture's bias copy (src/kernel/cblas_module.c, cblas_linear): one
 * memcpy of the N-element bias into each of the M rows of C, timed alone, best
 * of 31 runs after 3 warm-ups, as ns per row (docs/accuracy.md, "Round 7").
 * usage: cc -O2 results/dev-zen5/bias-copy.c -o /tmp/bias-copy && /tmp/bias-copy */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
static void copy_rows(float *y, const float *bias, size_t m, size_t n)
{
	for (size_t i = 0; i < m; i++)
		memcpy(y + i * n, bias, n * sizeof(float));
}
int main(int argc, char **argv)
{
	static const size_t ms[] = { 192, 1024, 6144, 16384 }, ns[] = { 1, 3, 8, 32, 96, 384 };
	volatile size_t scale =
	        argc > 1 ? (size_t)atoi(argv[1]) : 1; /* sizes unknown at compile time */
	printf("%6s %6s %10s %10s\n", "M", "N", "ns/row", "GB/s");
	for (size_t a = 0; a < sizeof(ms) / sizeof(ms[0]); a++)
		for (size_t b = 0; b < sizeof(ns) / sizeof(ns[0]); b++) {
			size_t m = ms[a] * scale, n = ns[b] * scale;
			float *y = malloc(sizeof(float) * m * n), *bias = malloc(sizeof(float) * n);
			double best = 1e9;
			for (size_t j = 0; j < n; j++)
				bias[j] = (float)j;
			memset(y, 0, sizeof(float) * m * n);
			for (int r = 0; r < 34; r++) {
				double t0 = now();
				copy_rows(y, bias, m, n);
				double t = now() - t0;
				if (r >= 3 && t < best)
					best = t;
			}
			printf("%6zu %6zu %10.2f %10.2f\n", m, n, best / m * 1e9,
			       m * n * sizeof(float) / best / 1e9);
			free(y);
			free(bias);
		}
	return 0;
}
