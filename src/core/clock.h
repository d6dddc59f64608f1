/* SPDX-License-Identifier: MIT */
/* The one clock of every measurement: CLOCK_MONOTONIC in seconds. Meters
 * stamp their readings with it and the capture core times with it, so their
 * times compare. */
#ifndef RV_CORE_CLOCK_H
#define RV_CORE_CLOCK_H

/* CLOCK_MONOTONIC, in seconds. */
double rv_now_s(void);
/* Sleeps s seconds (nothing when s is not above 0). */
void rv_sleep_s(double s);

#endif
