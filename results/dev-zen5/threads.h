/* What the standalone measurements of results/dev-zen5 share (core-pingpong.c,
 * c-halves.c, c-apart.c): pinning the calling thread to one CPU (0 or
 * pthread_setaffinity_np()'s error) and the monotonic clock in seconds. */
#ifndef DEV_ZEN5_THREADS_H
#define DEV_ZEN5_THREADS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <time.h>

static inline int pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
}

static inline double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
