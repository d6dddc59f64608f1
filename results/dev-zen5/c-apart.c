/* C (M columns of N floats, column-major as the BLAS sees our C), updated in
 * place (c = 0.999 c + 1) REPS times, in five ways: one thread on CPU 0, one
 * on CPU 1, two on buffers of their own (half of C each), two splitting every
 * column (rows 0..N/2 and N/2..N: OpenBLAS's split of the BLAS's M), two
 * splitting the columns (0..M/2 and M/2..M: its split of the BLAS's N).
 * build: gcc -O2 -pthread c-apart.c -o c-apart; usage: c-apart M N REPS */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "threads.h"

static float *c, *c2;
static long m, n, reps;
static _Atomic long go, done;
static int mode;

static void update(float *b, long j0, long j1, long r0, long r1)
{
	for (long j = j0; j < j1; j++) {
		float *col = b + j * n;
		for (long i = r0; i < r1; i++)
			col[i] = col[i] * 0.999f + 1.0f;
	}
}

static void part(int who)
{
	switch (mode) {
	case 2:
		update(who ? c2 : c, 0, m / 2, 0, n);
		break;
	case 3:
		update(c, 0, m, who ? n / 2 : 0, who ? n : n / 2);
		break;
	case 4:
		update(c, who ? m / 2 : 0, who ? m : m / 2, 0, n);
		break;
	}
}

static void *second(void *arg)
{
	(void)arg;
	pin(1);
	for (long r = 0;; r++) {
		while (atomic_load(&go) <= r)
			;
		if (mode < 0)
			return NULL;
		part(1);
		atomic_fetch_add(&done, 1);
	}
}

static double one(int cpu)
{
	double t;
	pin(cpu);
	update(c, 0, m, 0, n);
	t = now();
	for (long r = 0; r < reps; r++)
		update(c, 0, m, 0, n);
	return (now() - t) / (double)reps;
}

static long round_no;
static double two(int md)
{
	double t;
	mode = md;
	pin(0);
	/* one untimed round to settle the lines */
	atomic_fetch_add(&go, 1);
	part(0);
	while (atomic_load(&done) <= round_no)
		;
	round_no++;
	t = now();
	for (long r = 0; r < reps; r++) {
		atomic_fetch_add(&go, 1);
		part(0);
		while (atomic_load(&done) <= round_no)
			;
		round_no++;
	}
	return (now() - t) / (double)reps;
}

int main(int argc, char **argv)
{
	pthread_t th;
	if (argc != 4 || (m = atol(argv[1])) < 2 || (n = atol(argv[2])) < 2 ||
	    (reps = atol(argv[3])) < 1)
		return 2;
	size_t bytes = (size_t)(m * n) * 4;
	c = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	c2 = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (long i = 0; i < m * n; i++)
		c[i] = c2[i] = 1.0f;
	double t0 = one(0), t1 = one(1);
	pthread_create(&th, NULL, second, NULL);
	double own = two(2), cols = two(3), halves = two(4);
	mode = -1;
	atomic_fetch_add(&go, 1);
	pthread_join(th, NULL);
	printf("%6ldx%-5ld C %7.0f KB | us: cpu0 %8.1f cpu1 %8.1f | two: own %8.1f rows-split "
	       "%8.1f "
	       "col-halves %8.1f\n",
	       m, n, bytes / 1024.0, t0 * 1e6, t1 * 1e6, own * 1e6, cols * 1e6, halves * 1e6);
	return 0;
}
