/* OpenBLAS with beta = 0 against beta = 1, and a memset of C (docs/accuracy.md, "A quiet Zen 5 VM"):
 * best of 15 calls of cblas_sgemm, row-major as the cblas capture calls it.
 * usage: cc -O2 results/dev-zen5/openblas-beta.c -o /tmp/openblas-beta -lopenblas && /tmp/openblas-beta M K N */
#include <cblas.h>
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
int main(int argc, char **argv)
{
	int m = atoi(argv[1]), k = atoi(argv[2]), n = atoi(argv[3]);
	float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n),
	      *c = malloc(sizeof(float) * m * n);
	for (long i = 0; i < (long)m * k; i++)
		a[i] = 1e-3f * (i % 7);
	for (long i = 0; i < (long)k * n; i++)
		b[i] = 1e-3f * (i % 5);
	memset(c, 0, sizeof(float) * m * n);
	const char *nm[] = { "beta0", "beta1", "memset", "memset+beta1" };
	for (int mode = 0; mode < 4; mode++) {
		double best = 1e9;
		for (int r = 0; r < 15; r++) {
			double t0 = now();
			if (mode == 0)
				cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1,
				            a, k, b, n, 0, c, n);
			if (mode == 1)
				cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1,
				            a, k, b, n, 1, c, n);
			if (mode >= 2)
				memset(c, 0, sizeof(float) * m * n);
			if (mode == 3)
				cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1,
				            a, k, b, n, 1, c, n);
			double t = now() - t0;
			if (t < best)
				best = t;
		}
		printf("%dx%dx%d %-13s %.3f ms\n", m, k, n, nm[mode], best * 1e3);
	}
}
