/* Shared by the measurement programs of this folder: one GEMM through
 * cblas_sgemm as roofval's cblas capture calls it (row-major; matmul: beta
 * 0; linear: the weight transposed, beta 1), and a monotonic clock. */
#ifndef OPENBLAS_CALL_H
#define OPENBLAS_CALL_H

#include <cblas.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* C (m x n) = A (m x k) B (k x n), or with lin C += A W^T for W (n x k). */
static void capture_sgemm(int m, int k, int n, int lin, const float *a, const float *b, float *c)
{
	if (lin)
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, a, k, b, k,
		            1.0f, c, n);
	else
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n,
		            0.0f, c, n);
}

#endif
