/* SPDX-License-Identifier: MIT */
#include "core/clock.h"

#include <time.h>

double rv_now_s(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void rv_sleep_s(double s)
{
	struct timespec ts;

	if (!(s > 0))
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	(void)nanosleep(&ts, NULL);
}
