/* SPDX-License-Identifier: MIT */
/* The round trip of a cache line between two CPUs (hw/placement.h). */
#define _GNU_SOURCE
#include "hw/placement.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"

enum { BOUNCE_MAX_ROUNDS = 100000, BOUNCE_CHECK = 64 };
#define BOUNCE_STOP (~0UL)

/* The line both threads write: the caller makes it odd, the partner the
 * next even number; BOUNCE_STOP ends the partner. */
struct bounce {
	_Alignas(64) _Atomic unsigned long turn;
	int cpu;
	_Atomic int pinned; /* the partner's answer: 1 pinned, -1 not */
	_Atomic int done;   /* the partner has seen BOUNCE_STOP */
};

static int pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
}

static void *partner(void *arg)
{
	struct bounce *b = arg;
	unsigned long seen = 0, v;

	if (pin(b->cpu) != 0) {
		atomic_store(&b->pinned, -1);
		return NULL;
	}
	atomic_store(&b->pinned, 1);
	for (;;) {
		while ((v = atomic_load_explicit(&b->turn, memory_order_acquire)) == seen)
			;
		if (v == BOUNCE_STOP) {
			atomic_store(&b->done, 1);
			return NULL;
		}
		seen = v + 1;
		atomic_store_explicit(&b->turn, seen, memory_order_release);
	}
}

/* The caller's half: rounds until max_s has passed (checked every
 * BOUNCE_CHECK rounds, and while it waits), at most BOUNCE_MAX_ROUNDS; the
 * rounds done, 0 when the partner stopped answering. */
static unsigned long bounce(struct bounce *b, double max_s, double *elapsed_s)
{
	double t0 = rv_now_s();
	unsigned long i;

	for (i = 0; i < BOUNCE_MAX_ROUNDS; i++) {
		unsigned long spins = 0;

		atomic_store_explicit(&b->turn, 2 * i + 1, memory_order_release);
		while (atomic_load_explicit(&b->turn, memory_order_acquire) != 2 * i + 2)
			if (++spins % 4096 == 0 && rv_now_s() - t0 > 10 * max_s) {
				*elapsed_s = rv_now_s() - t0;
				return 0;
			}
		if ((i + 1) % BOUNCE_CHECK == 0 && rv_now_s() - t0 > max_s) {
			i++;
			break;
		}
	}
	*elapsed_s = rv_now_s() - t0;
	return i;
}

int rv_round_trips_apart(double a_s, double b_s)
{
	double lo = a_s < b_s ? a_s : b_s, hi = a_s < b_s ? b_s : a_s;

	return lo > 0 && hi > 1.5 * lo;
}

int rv_core_round_trip(double *round_trip_s, double max_s)
{
	struct bounce *b; /* a line of its own */
	cpu_set_t mine, first;
	int cpus[2], found = 0, err = 0, rc;
	unsigned long rounds;
	double elapsed_s;
	pthread_t t;

	*round_trip_s = 0;
	if (!(max_s > 0))
		return rv_error_set(RV_ERANGE, "a round trip needs a time above 0 to run");
	if ((rc = pthread_getaffinity_np(pthread_self(), sizeof(mine), &mine)) != 0)
		return rv_error_set(RV_ENOTSUP, "cannot read this thread's CPUs: %s", strerror(rc));
	for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
		if (CPU_ISSET(c, &mine))
			cpus[found++] = c;
	if (found < 2)
		return rv_error_set(RV_ENOTSUP, "this process may run on one CPU only");
	if (!(b = aligned_alloc(64, (sizeof(*b) + 63) / 64 * 64)))
		return rv_error_set(RV_ENOMEM, "out of memory");
	memset(b, 0, sizeof(*b));
	b->cpu = cpus[1];
	CPU_ZERO(&first);
	CPU_SET(cpus[0], &first);
	if ((rc = pthread_setaffinity_np(pthread_self(), sizeof(first), &first)) != 0) {
		free(b);
		return rv_error_set(RV_ENOTSUP, "cannot pin a thread to CPU %d: %s", cpus[0],
		                    strerror(rc));
	}
	if ((rc = pthread_create(&t, NULL, partner, b)) != 0) {
		err = rv_error_set(RV_ENOTSUP, "cannot start a thread: %s", strerror(rc));
		goto out;
	}
	while (atomic_load(&b->pinned) == 0)
		;
	if (atomic_load(&b->pinned) < 0) {
		(void)pthread_join(t, NULL);
		err = rv_error_set(RV_ENOTSUP, "cannot pin a thread to CPU %d", cpus[1]);
		goto out;
	}
	rounds = bounce(b, max_s, &elapsed_s);
	/* A partner that read its turn just before the caller gave up still
	 * stores its answer over BOUNCE_STOP: store it again until seen. */
	while (!atomic_load(&b->done))
		if (atomic_load_explicit(&b->turn, memory_order_acquire) != BOUNCE_STOP)
			atomic_store_explicit(&b->turn, BOUNCE_STOP, memory_order_release);
	(void)pthread_join(t, NULL);
	if (rounds == 0)
		err = rv_error_set(RV_ERROR, "CPU %d did not answer CPU %d within %.3g s (busy?)",
		                   cpus[1], cpus[0], elapsed_s);
	else
		*round_trip_s = elapsed_s / (double)rounds;
out:
	free(b);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(mine), &mine);
	return err;
}
