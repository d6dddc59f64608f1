/* One GEMM through cblas_sgemm as the cblas capture calls it (row-major;
 * matmul: beta 0; "l": linear, the weight transposed, beta 1): the best of
 * 22 calls after 3 warm-ups, in us. Threads from OPENBLAS_NUM_THREADS.
 * usage: cc -O2 results/dev-zen5/openblas-gemm.c -o /tmp/openblas-gemm -lopenblas &&
 *        OPENBLAS_NUM_THREADS=2 /tmp/openblas-gemm M K N [l]
 * (results/dev-zen5/openblas-threads.sh runs the grid of docs/accuracy.md) */
#include <stdio.h>
#include <stdlib.h>

#include "openblas-call.h"

int main(int argc, char **argv)
{
	int m, k, n, lin;
	float *a, *b, *c;
	double best = 1e9;

	if (argc < 4)
		return 2;
	m = atoi(argv[1]);
	k = atoi(argv[2]);
	n = atoi(argv[3]);
	lin = argc > 4 && argv[4][0] == 'l';
	a = calloc((size_t)m * k, 4);
	b = calloc((size_t)k * n, 4);
	c = calloc((size_t)m * n, 4);
	if (!a || !b || !c)
		return 1;
	for (long i = 0; i < (long)m * k; i++)
		a[i] = 1e-3f * (i % 7);
	for (long i = 0; i < (long)k * n; i++)
		b[i] = 1e-3f * (i % 5);
	for (int r = 0; r < 25; r++) {
		double t0 = now(), t;

		capture_sgemm(m, k, n, lin, a, b, c);
		t = now() - t0;
		if (r > 2 && t < best)
			best = t;
	}
	printf("%d %d %d %.3f\n", m, k, n, best * 1e6);
	return 0;
}
