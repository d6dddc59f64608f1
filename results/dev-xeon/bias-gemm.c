/* A linear as the cblas capture runs it (src/kernel/cblas_module.c: the bias
 * memcpy'd into each row of C, then cblas_sgemm NoTrans/Trans with beta 1),
 * timed whole, GEMM alone and bias copy alone: best of 7 rounds (docs/
 * accuracy.md, "Round 15"). The copy writes e*M*N bytes of C before the
 * GEMM starts, which a per-row cost alone does not carry.
 * build: gcc -O2 results/dev-xeon/bias-gemm.c -o /tmp/bias-gemm -lopenblas
 * usage: OPENBLAS_CORETYPE=SkylakeX /tmp/bias-gemm M K N THREADS */
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
	int m = atoi(argv[1]), k = atoi(argv[2]), n = atoi(argv[3]), thr = atoi(argv[4]);
	openblas_set_num_threads(thr);
	float *a = calloc((size_t)m * k, 4), *b = calloc((size_t)k * n, 4), *bias = calloc(n, 4),
	      *y = calloc((size_t)m * n, 4);
	for (size_t i = 0; i < (size_t)m * k; i++)
		a[i] = 1e-3f * (i % 7);
	double best[3] = { 1e9, 1e9, 1e9 };
	int reps = (int)(2e-3 / (1e-9 * (2.0 * m * k * n / 50 + m * n))) + 3;
	for (int r = 0; r < 7; r++) {
		for (int mode = 0; mode < 3; mode++) {
			double t0 = now();
			for (int i = 0; i < reps; i++) {
				if (mode != 1)
					for (int j = 0; j < m; j++)
						memcpy(y + (size_t)j * n, bias, n * 4);
				if (mode != 2)
					cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n,
					            k, 1.0f, a, k, b, k, 1.0f, y, n);
			}
			double t = (now() - t0) / reps;
			if (t < best[mode])
				best[mode] = t;
		}
	}
	printf("%dx%dx%d thr%d: both %.2f us, gemm %.2f us, bias %.2f us\n", m, k, n, thr,
	       best[0] * 1e6, best[1] * 1e6, best[2] * 1e6);
}
