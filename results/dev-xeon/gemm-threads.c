/* cblas_sgemm as the capture's matmul calls it (row-major NN, beta 0) or
 * with beta 1, best of 7 rounds, on THREADS threads (docs/accuracy.md,
 * "Round 15": a call on two threads that splits every row of C).
 * build: gcc -O2 results/dev-xeon/gemm-threads.c -o /tmp/gemm-threads -lopenblas
 * usage: OPENBLAS_CORETYPE=SkylakeX /tmp/gemm-threads M K N THREADS [BETA] */
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
int main(int argc, char **argv)
{
	int m = atoi(argv[1]), k = atoi(argv[2]), n = atoi(argv[3]), thr = atoi(argv[4]);
	float beta = argc > 5 ? atof(argv[5]) : 0;
	openblas_set_num_threads(thr);
	float *a = calloc((size_t)m * k, 4), *b = calloc((size_t)k * n, 4),
	      *y = calloc((size_t)m * n, 4);
	double best = 1e9;
	int reps = (int)(3e-3 / (1e-9 * (2.0 * m * k * n / 50 + m * n))) + 3;
	for (int r = 0; r < 7; r++) {
		double t0 = now();
		for (int i = 0; i < reps; i++)
			cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k,
			            b, n, beta, y, n);
		double t = (now() - t0) / reps;
		if (t < best)
			best = t;
	}
	printf("%dx%dx%d thr%d beta%g: %.2f us\n", m, k, n, thr, beta, best * 1e6);
}
