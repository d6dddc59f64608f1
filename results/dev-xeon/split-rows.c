/* Two threads writing C (M rows of N floats, zeroed then updated) each
 * its half of every row (how OpenBLAS's threaded driver splits a row-major
 * C whose N is at least 4), against each its half of the rows, and against
 * one thread writing all of it: best of 200 rounds (docs/accuracy.md,
 * "Round 15").
 * build: gcc -O2 -pthread results/dev-xeon/split-rows.c -o /tmp/split-rows
 * usage: /tmp/split-rows M N THREADS [1: row slabs] */
#define _GNU_SOURCE
#include <pthread.h>
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
static int rows, cols, nthr, reps, contiguous;
static float *c;
static pthread_barrier_t bar;
static void work(int id)
{
	int rw =
	        contiguous
	                ? rows
	                : rows; /* rows = our M (BLAS n), cols = our N (BLAS m): col-major stride cols */
	int c0 = contiguous ? 0 : id * cols / nthr, c1 = contiguous ? cols : (id + 1) * cols / nthr;
	int r0 = contiguous ? id * rows / nthr : 0, r1 = contiguous ? (id + 1) * rows / nthr : rows;
	for (int r = r0; r < r1; r++) {
		float *p = c + (size_t)r * cols;
		memset(p + c0, 0, (c1 - c0) * 4);
	}
	for (int r = r0; r < r1; r++) {
		float *p = c + (size_t)r * cols;
		for (int j = c0; j < c1; j++)
			p[j] += 1.0f;
	}
	(void)rw;
}
static void *th(void *arg)
{
	int id = (int)(long)arg;
	for (int i = 0; i < reps; i++) {
		pthread_barrier_wait(&bar);
		work(id);
		pthread_barrier_wait(&bar);
	}
	return 0;
}
int main(int argc, char **argv)
{
	rows = atoi(argv[1]);
	cols = atoi(argv[2]);
	nthr = atoi(argv[3]);
	contiguous = argc > 4 ? atoi(argv[4]) : 0;
	reps = 200;
	c = aligned_alloc(4096, (size_t)rows * cols * 4);
	memset(c, 0, (size_t)rows * cols * 4);
	pthread_barrier_init(&bar, 0, nthr);
	pthread_t t[8];
	for (int i = 1; i < nthr; i++)
		pthread_create(&t[i], 0, th, (void *)(long)i);
	double best = 1e9;
	for (int i = 0; i < reps; i++) {
		pthread_barrier_wait(&bar);
		double t0 = now();
		work(0);
		pthread_barrier_wait(&bar);
		double d = now() - t0;
		if (d < best)
			best = d;
	}
	printf("%dx%d thr%d %s: %.1f us (%.3f ns/el)\n", rows, cols, nthr,
	       contiguous ? "row-slabs" : "col-halves", best * 1e6, best * 1e9 / rows / cols);
}
