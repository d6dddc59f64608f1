/* C (M columns of N floats, column-major as the BLAS sees our C) updated
 * in place, c = 0.999 c + 1, by one thread, then by two threads pinned to
 * CPUs 0 and 1 that split every column between them (rows 0 to N/2 and N/2
 * to N: how OpenBLAS's threaded driver splits the BLAS's M, our N), REPS
 * times each; what the second way takes beyond half the first, per byte of
 * C (docs/accuracy.md, "Session 16").
 * build: gcc -O2 -pthread results/dev-zen5/c-halves.c -o /tmp/c-halves
 * usage: /tmp/c-halves M N REPS */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "threads.h"

static float *c;
static long m, n, reps;
static _Atomic long go, done;

/* Rows r0 to r1 of every column. */
static void update(long r0, long r1)
{
	for (long j = 0; j < m; j++) {
		float *col = c + j * n;

		for (long i = r0; i < r1; i++)
			col[i] = col[i] * 0.999f + 1.0f;
	}
}

static void *second(void *arg)
{
	(void)arg;
	pin(1);
	for (long r = 0; r < reps; r++) {
		while (atomic_load(&go) <= r)
			;
		update(n / 2, n);
		atomic_fetch_add(&done, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double t, one_s, two_s;
	pthread_t th;

	if (argc != 4 || (m = atol(argv[1])) < 1 || (n = atol(argv[2])) < 2 ||
	    (reps = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: c-halves M N REPS\n");
		return 2;
	}
	c = mmap(NULL, (size_t)(m * n) * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
	         0);
	if (c == MAP_FAILED)
		return 1;
	for (long i = 0; i < m * n; i++)
		c[i] = 1.0f;
	pin(0);
	t = now();
	for (long r = 0; r < reps; r++)
		update(0, n);
	one_s = (now() - t) / (double)reps;
	pthread_create(&th, NULL, second, NULL);
	t = now();
	for (long r = 0; r < reps; r++) {
		atomic_fetch_add(&go, 1);
		update(0, n / 2);
		while (atomic_load(&done) <= r)
			;
	}
	two_s = (now() - t) / (double)reps;
	pthread_join(th, NULL);
	printf("%6ldx%-5ld C %6.0f KB: one thread %8.1f us, two %8.1f us, two - one/2 %8.1f us, "
	       "%.3f ns/B\n",
	       m, n, (double)(m * n) * 4 / 1024, one_s * 1e6, two_s * 1e6,
	       (two_s - one_s / 2) * 1e6, (two_s - one_s / 2) * 1e9 / (double)(m * n * 4));
	return 0;
}
