/* SPDX-License-Identifier: MIT */
/* Where the host keeps two CPUs (hw/placement.c): the round trip of a cache
 * line between them, and the one rule that says two of those differ. */
#ifndef RV_HW_PLACEMENT_H
#define RV_HW_PLACEMENT_H

/* The round trip of one cache line between the first two CPUs this process
 * may run on (hw/placement.c): a thread pinned to each, taking turns to
 * write a counter the other waits for, for about max_s (at most 100000
 * rounds; a partner that stops answering for 10 max_s is an error); the caller's own
 * affinity is restored. It tells how far apart the host placed them: on a
 * 2-vCPU Zen 5 guest about 450 ns across CCDs, 120 ns nearer, and a
 * multi-threaded BLAS call there moves with it. RV_ENOTSUP, saying why,
 * where fewer than two CPUs are allowed or a thread cannot be pinned. */
int rv_core_round_trip(double *round_trip_s, double max_s);
/* Whether two round trips (0: not measured) say the CPUs were placed
 * differently: both measured, the larger more than 1.5 times the other.
 * The one rule of a capture's note, baseline merge's and validate's. */
int rv_round_trips_apart(double a_s, double b_s);

#endif
