/* The cblas backend's fp32 add loop (src/kernel/add_loops.c, built as it is,
 * -O2) timed per call for n = 1 to 64 elements: the fastest of 21 rounds of
 * 200000 calls on the same buffers, as a capture's timed window runs them.
 * Shows the 64-byte blocks and the element-at-a-time tail.
 * build: gcc -O2 -I src results/dev-zen5/add-tail.c src/kernel/add_loops.c -o /tmp/add-tail */
#include <stdio.h>
#include <time.h>

#include "kernel/add_loops.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
	static float a[64], b[64], c[64];
	const long calls = 200000;

	for (int i = 0; i < 64; i++)
		a[i] = (float)i, b[i] = 1.0f;
	printf("# n  ns per call (fastest of 21 rounds of %ld calls)\n", calls);
	for (size_t n = 1; n <= 64; n++) {
		double best = 1e9;

		for (int r = 0; r < 21; r++) {
			double t0 = now_s();

			for (long i = 0; i < calls; i++) {
				rv_kernel_add_f32(c, a, b, n);
				__asm__ volatile("" ::: "memory");
			}
			double t = (now_s() - t0) / (double)calls;
			best = t < best ? t : best;
		}
		printf("%3zu %6.2f\n", n, best * 1e9);
	}
	return 0;
}
