/* One GEMM through cblas_sgemm as the cblas capture calls it (row-major;
 * matmul: beta 0; "l": linear, the weight transposed, beta 1), timed call
 * by call: R calls after 3 warm-ups (default 101), the minimum, 10th
 * percentile, median and 90th percentile in us. Threads from
 * OPENBLAS_NUM_THREADS.
 * usage: cc -O2 results/dev-zen5/openblas-calls.c -o /tmp/openblas-calls -lopenblas &&
 *        OPENBLAS_NUM_THREADS=2 /tmp/openblas-calls M K N [R] [l]
 * (results/dev-zen5/openblas-narrow-n.sh runs the grid of docs/accuracy.md) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "openblas-call.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int m, k, n, r, lin;
	float *a, *b, *c;
	double *t;

	if (argc < 4)
		return 2;
	m = atoi(argv[1]);
	k = atoi(argv[2]);
	n = atoi(argv[3]);
	r = argc > 4 ? atoi(argv[4]) : 101;
	lin = argc > 5 && argv[5][0] == 'l';
	a = calloc((size_t)m * k, 4);
	b = calloc((size_t)k * n, 4);
	c = calloc((size_t)m * n, 4);
	t = calloc((size_t)r, sizeof(*t));
	if (!a || !b || !c || !t || r < 1)
		return 1;
	for (long i = 0; i < (long)m * k; i++)
		a[i] = 0.5f + 0.1f * (i % 7);
	for (long i = 0; i < (long)k * n; i++)
		b[i] = 0.5f + 0.1f * (i % 5);
	for (int i = -3; i < r; i++) {
		double t0 = now();

		capture_sgemm(m, k, n, lin, a, b, c);
		if (i >= 0)
			t[i] = (now() - t0) * 1e6;
	}
	qsort(t, (size_t)r, sizeof(*t), cmp);
	printf("%dx%dx%d%s min %.3f p10 %.3f median %.3f p90 %.3f\n", m, k, n, lin ? " linear" : "",
	       t[0], t[r / 10], t[r / 2], t[9 * r / 10]);
	return 0;
}
