/* SPDX-License-Identifier: MIT */
/* Meter backends: energy (cumulative counters in joules) or power (samples in
 * watts), read by the capture core. A backend only opens, reads and closes
 * and converts to SI at its boundary; windows, wraps and integration are the
 * capture core's. The list is meters.def. */
#ifndef RV_METER_METER_H
#define RV_METER_METER_H

#include <stddef.h>

#include "core/env.h"

/* 2: open() and probe() take their settings (rails, the fake's script, the
 * NVML library) from env's arguments, never from the process environment. */
#define RV_METER_OPS_VERSION 2u
#define RV_METER_MAX_DOMAINS 16

enum rv_meter_kind {
	RV_METER_ENERGY = 1, /* read() gives cumulative joules per domain */
	RV_METER_POWER = 2,  /* read() gives instantaneous watts per domain */
};

/* An instance: backends embed it as their first member. */
struct rv_meter {
	const struct rv_meter_ops *ops;
	size_t n_domains;
	char domain[RV_METER_MAX_DOMAINS][48]; /* "package-0", "VDD_IN", "gpu0" */
	double range_J[RV_METER_MAX_DOMAINS];  /* energy counters wrap at this; 0: never */
	double update_period_s;                /* how often the sensor updates; 0 when unknown */
	/* What an energy window needs from this sensor, set at open(); 0 takes
	 * the capture core's defaults (RAPL's: 0.1 s and 100 updates). */
	double min_window_s;  /* shortest window */
	unsigned min_updates; /* fewest sensor updates in a window */
	/* How long the load must run before the window opens, for a sensor
	 * whose reading is an average that lags the load (NVML's ~1 s power
	 * average on recent GPUs, an INA3221 averaging several samples). */
	double settle_s;
	char note[256]; /* caveats for the CSV notes ("perf_event: sysfs unreadable") */
};

/* The state of a device during a measurement, from a meter that can tell
 * (NVML); NAN where unknown. */
struct rv_device_state {
	double sm_clock_Hz;                  /* current SM clock */
	double sm_clock_default_Hz;          /* the clock the GPU runs at by default */
	double mem_clock_Hz;                 /* current memory clock */
	double temp_C;                       /* GPU temperature */
	double power_limit_W;                /* enforced power limit */
	unsigned long long throttle_reasons; /* NVML clock event reasons (bits) */
	int has_throttle;                    /* throttle_reasons was read */
};

/* NVML's clock event reasons that mean the clock was held down by power or
 * heat: SwPowerCap, HwSlowdown, SwThermal, HwThermal, HwPowerBrake. */
#define RV_THROTTLE_POWER_THERMAL 0xECULL

struct rv_meter_ops {
	const char *name; /* "fake", "rapl", "rapl_perf", ... */
	unsigned version; /* RV_METER_OPS_VERSION */
	enum rv_meter_kind kind;
	const char *summary;
	/* 0 when usable here, else RV_ENOTSUP / RV_EPERM / RV_ENOENT with
	 * rv_error_last() saying why and what to do. */
	int (*probe)(const struct rv_env *env);
	int (*open)(struct rv_meter **out, const struct rv_env *env);
	/* Reads every domain into values (J or W) and the time of the read
	 * (CLOCK_MONOTONIC seconds) into *t_s. RV_EIO when a domain became
	 * unreadable. */
	int (*read)(struct rv_meter *m, double *t_s, double *values);
	void (*close)(struct rv_meter *m);
	/* Optional (NULL when the sensor cannot tell): the device's clocks,
	 * temperature, power limit and throttle reasons now. Sums over domains
	 * make no sense here: the first domain's device is described. */
	int (*state)(struct rv_meter *m, struct rv_device_state *st);
};

size_t rv_meter_count(void);
const struct rv_meter_ops *rv_meter_at(size_t i);
const struct rv_meter_ops *rv_meter_find(const char *name);

/* Energy between two readings of a counter that wraps at range_J (one wrap
 * at most between readings: the caller reads often enough). */
double rv_meter_delta_J(double before_J, double after_J, double range_J);

/* Names of the bits set in NVML clock event reasons r ("SwPowerCap+HwSlowdown",
 * or "none"), into out. */
void rv_throttle_names(char *out, size_t size, unsigned long long r);

#endif
