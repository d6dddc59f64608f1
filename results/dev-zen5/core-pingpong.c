/* The round trip of one cache line between CPU 0 and CPU 1: two pinned
 * threads take turns writing a counter that the other waits for, 2 million
 * times. On this 2-vCPU guest it tells where the host has placed the two
 * vCPUs: about 450 ns when they sit on different CCDs (no shared L3, every
 * line crossing the fabric), about 120 ns nearer (docs/accuracy.md,
 * "Session 16"). build: gcc -O2 -pthread results/dev-zen5/core-pingpong.c -o /tmp/core-pingpong */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>

#include "threads.h"

static _Atomic long turn __attribute__((aligned(64)));
enum { ROUNDS = 2000000 };

static void *other(void *arg)
{
	(void)arg;
	if (pin(1) != 0)
		return NULL;
	for (long i = 0; i < ROUNDS; i++) {
		while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 1)
			;
		atomic_store_explicit(&turn, 2 * i + 2, memory_order_release);
	}
	return NULL;
}

int main(void)
{
	struct timespec a, b;
	pthread_t t;

	if (pin(0) != 0 || pthread_create(&t, NULL, other, NULL) != 0) {
		fprintf(stderr, "core-pingpong: cannot pin two threads to CPUs 0 and 1\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < ROUNDS; i++) {
		atomic_store_explicit(&turn, 2 * i + 1, memory_order_release);
		while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 2)
			;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	pthread_join(t, NULL);
	printf("core-to-core round trip %.1f ns\n",
	       ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / ROUNDS);
	return 0;
}
