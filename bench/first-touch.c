/* SPDX-License-Identifier: MIT */
/* What a framework's fresh output costs a CPU GEMM or add (bench/first-touch).
 *
 * Times one call the way PyTorch's eager CPU path makes it: a row-major
 * C = A B as the column-major C^T = B^T A^T through cblas_sgemm (linear: the
 * bias copied into C, then beta 1 with the weight transposed), or a one-pass
 * add c = a + b split over OpenMP threads. With "fresh" every call gets its
 * output from malloc and frees it afterwards, as a framework that allocates
 * each output does; glibc maps an allocation of 32 MiB or more afresh on every
 * call (its mmap threshold stops growing there), so each of its pages faults
 * and is zeroed when the call first writes it. With "reused" one output
 * buffer serves every call. Prints the median of 11 timed calls after 3
 * warm-up calls, the reference harness's method.
 *
 * usage: first-touch matmul|linear M K N fresh|reused
 *        first-touch add N fresh|reused
 * Links against any CBLAS (bench/first-touch-run builds it for OpenBLAS and,
 * when installed, MKL). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The CBLAS ABI shared by OpenBLAS and MKL (lp64), declared here so that the
 * program builds against either without its header. */
enum { COL_MAJOR = 102, NO_TRANS = 111, TRANS = 112 };
void cblas_sgemm(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a,
                 int lda, const float *b, int ldb, float beta, float *c, int ldc);

#define WARMUP 3
#define TRIALS 11

static double now_s(void)
{
	struct timespec t;

	(void)clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static float *filled(size_t n, int mod)
{
	float *v = malloc(n * sizeof(float));

	for (size_t i = 0; v && i < n; i++)
		v[i] = 0.1f * (float)(i % (size_t)mod);
	return v;
}

static void usage(void)
{
	fprintf(stderr, "usage: first-touch matmul|linear M K N fresh|reused\n"
	                "       first-touch add N fresh|reused\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int add = argc == 4 && strcmp(argv[1], "add") == 0;
	int gemm = argc == 6 && (strcmp(argv[1], "matmul") == 0 || strcmp(argv[1], "linear") == 0);
	const char *mode = argv[argc - 1];
	long m = 1, k = 1, n;
	float *a, *b, *bias = NULL, *kept = NULL, *c;
	double t_s[WARMUP + TRIALS], med_s;
	int fresh;

	if (!add && !gemm)
		usage();
	if (strcmp(mode, "fresh") != 0 && strcmp(mode, "reused") != 0)
		usage();
	fresh = mode[0] == 'f';
	if (gemm) {
		m = atol(argv[2]);
		k = atol(argv[3]);
		n = atol(argv[4]);
	} else {
		n = atol(argv[2]);
	}
	if (m < 1 || k < 1 || n < 1)
		usage();
	a = filled(add ? (size_t)n : (size_t)(m * k), 7);
	b = filled(add ? (size_t)n : (size_t)(k * n), 5);
	if (gemm)
		bias = filled((size_t)n, 3);
	if (!fresh)
		kept = filled((size_t)(m * n), 2);
	if (!a || !b || (gemm && !bias) || (!fresh && !kept)) {
		fprintf(stderr, "first-touch: out of memory\n");
		return 1;
	}
	for (int r = 0; r < WARMUP + TRIALS; r++) {
		double t0 = now_s();

		c = fresh ? malloc((size_t)(m * n) * sizeof(float)) : kept;
		if (!c) {
			fprintf(stderr, "first-touch: out of memory\n");
			return 1;
		}
		if (add) {
#pragma omp parallel for schedule(static)
			for (long i = 0; i < n; i++)
				c[i] = a[i] + b[i];
		} else if (argv[1][0] == 'm') {
			cblas_sgemm(COL_MAJOR, NO_TRANS, NO_TRANS, (int)n, (int)m, (int)k, 1.0f, b,
			            (int)n, a, (int)k, 0.0f, c, (int)n);
		} else {
			for (long i = 0; i < m; i++)
				memcpy(c + i * n, bias, (size_t)n * sizeof(float));
			cblas_sgemm(COL_MAJOR, TRANS, NO_TRANS, (int)n, (int)m, (int)k, 1.0f, b,
			            (int)k, a, (int)k, 1.0f, c, (int)n);
		}
		t_s[r] = now_s() - t0;
		if (c[m * n - 1] < -1.0f) /* keeps the result alive; never true */
			puts("");
		if (fresh)
			free(c);
	}
	qsort(t_s + WARMUP, TRIALS, sizeof(double), cmp_double);
	med_s = t_s[WARMUP + TRIALS / 2];
	if (add)
		printf("add %ld %s %.1f us\n", n, mode, med_s * 1e6);
	else
		printf("%s %ldx%ldx%ld %s %.1f us %.1f GFLOP/s\n", argv[1], m, k, n, mode,
		       med_s * 1e6, 2.0 * (double)(m * n * k) / med_s * 1e-9);
	free(a);
	free(b);
	free(bias);
	free(kept);
	return 0;
}
