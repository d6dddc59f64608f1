/* SPDX-License-Identifier: MIT */
/* The measurement core shared by every backend: warm-up, timed trials and
 * their statistics, and an energy window long enough for the meter's
 * sensor, aligned on counter updates, with idle power measured just before. */
#ifndef RV_CAPTURE_CAPTURE_H
#define RV_CAPTURE_CAPTURE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/env.h"
#include "data/baseline.h"
#include "kernel/kernel.h"
#include "meter/meter.h"

struct rv_capture_opts {
	unsigned warmup;     /* untimed calls first (default 3) */
	unsigned trials;     /* timed calls, odd (default 11; at least that many) */
	double min_window_s; /* energy window; 0: what the meter's sensor needs */
	uint64_t seed;       /* input generator seed */
	int flush_cache;     /* flush the device cache before each trial (--flush-l2) */
	/* More trials, two at a time, until the median's standard error is
	 * under this share of it (0: exactly trials) */
	double precision;
};

#define RV_CAPTURE_OPTS_DEFAULT        \
	{                              \
		3, 11, 0.0, 1, 0, 0.01 \
	}

/* Extra baseline columns a capture writes after notes, in this order: the
 * first RV_CAPTURE_N_HOST_EXTRA always, the rest (the device's clocks,
 * temperature, power limit, throttle reasons and discarded trials) when the
 * meter reads the device's state. */
#define RV_CAPTURE_N_HOST_EXTRA 11
#define RV_CAPTURE_N_EXTRA      18
extern const enum rv_col rv_capture_extra_cols[RV_CAPTURE_N_EXTRA];

struct rv_capture_result {
	double latency_s; /* median of the trials */
	double min_s, p10_s, p90_s, mad_s, cv;
	unsigned trials;
	double energy_j;     /* gross energy per call; NAN when not measured */
	double energy_net_j; /* energy_j minus idle power over the call; NAN */
	double idle_w;       /* power before the shape; NAN */
	double window_s;     /* the energy window; 0 without energy */
	uint64_t window_calls;
	double cpu_freq_hz; /* NAN when unknown */
	double busy_share;  /* share of CPU time other processes used during the shape; NAN */
	double kernel_s;    /* wall time spent inside the kernel's run() */
	/* From a meter that reads the device's state (has_device): */
	int has_device;
	double sm_clock_hz;                             /* median SM clock after the kept trials */
	double sm_clock_min_hz;                         /* lowest SM clock seen over the trials */
	double mem_clock_hz, gpu_temp_c, power_limit_w; /* temperature: the highest */
	unsigned long long throttle_reasons;            /* every reason seen (OR) */
	int has_throttle;
	unsigned trials_discarded; /* run under the SM clock floor, replaced */
	char notes[768];           /* every missing or doubtful number explained */
};

/* Measures op on shape s in dtype d with kernel backend k (setup, warm-up,
 * trials, energy window with meter m when it is not NULL, teardown). A meter
 * failure is not an error: energy stays NAN and notes say why. Errors are the
 * kernel's (RV_ENOTSUP, RV_ENOMEM before allocating, RV_ERANGE). stop, when
 * not NULL, is polled so that a signal can cut a long window short. */
int rv_capture_one(struct rv_capture_result *out, const struct rv_env *env,
                   const struct rv_kernel_ops *k, struct rv_meter *m, const char *meter_note,
                   enum rv_op op, const struct rv_shape *s, enum rv_dtype d,
                   const struct rv_capture_opts *o, volatile const sig_atomic_t *stop);

/* Sets the extra columns of row from r, typed, and marks them carried
 * (row->cols); returns how many (RV_CAPTURE_N_HOST_EXTRA, or
 * RV_CAPTURE_N_EXTRA with the device's state). */
size_t rv_capture_extra(struct rv_baseline_row *row, const struct rv_capture_result *r);

#endif
