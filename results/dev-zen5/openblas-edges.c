/* OpenBLAS's edge kernels (docs/accuracy.md, "Round 7 on the Zen 5 VM"):
 * the one-thread rate of a row-major C = A.B through cblas_sgemm, as the
 * cblas capture calls it for matmul, with one dimension d from 1 to 32 and
 * the other two at 1024 and 256: PyTorch's N = d (the BLAS's m, its kernel's
 * 16-wide side) and PyTorch's M = d (the BLAS's n). Best of 22 calls after 3
 * warm-ups.
 * usage: cc -O2 results/dev-zen5/openblas-edges.c -o /tmp/openblas-edges -lopenblas &&
 *        OPENBLAS_NUM_THREADS=1 /tmp/openblas-edges */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
static double rate(int m, int k, int n)
{
	float *a = calloc((size_t)m * k, 4), *b = calloc((size_t)k * n, 4),
	      *c = calloc((size_t)m * n, 4);
	double best = 1e9;
	for (long i = 0; i < (long)m * k; i++)
		a[i] = 1e-3f * (i % 7);
	for (long i = 0; i < (long)k * n; i++)
		b[i] = 1e-3f * (i % 5);
	for (int r = 0; r < 25; r++) {
		double t0 = now();
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n,
		            0.0f, c, n);
		double t = now() - t0;
		if (r > 2 && t < best)
			best = t;
	}
	free(a);
	free(b);
	free(c);
	return 2.0 * m * k * n / best / 1e9;
}
int main(void)
{
	static const int ds[] = { 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32 };
	double full = rate(1024, 256, 1024);
	printf("1024x256x1024: %.1f GFLOP/s\n%4s %22s %22s\n", full, "d", "N = d: GFLOP/s (share)",
	       "M = d: GFLOP/s (share)");
	for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
		double rn = rate(1024, 256, ds[i]), rm = rate(ds[i], 256, 1024);
		printf("%4d %14.1f (%.2f) %14.1f (%.2f)\n", ds[i], rn, rn / full, rm, rm / full);
	}
	return 0;
}
