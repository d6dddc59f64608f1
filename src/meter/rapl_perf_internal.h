/* SPDX-License-Identifier: MIT */
/* Internals of the perf_event RAPL meter, shared with its tests: the sysfs
 * parsing, and a hook that stands in for perf_event_open(). */
#ifndef RV_METER_RAPL_PERF_INTERNAL_H
#define RV_METER_RAPL_PERF_INTERNAL_H

#include <stddef.h>

#include "core/env.h"
#include "meter/meter.h"

struct rv_rapl_perf_pmu {
	unsigned type;             /* power/type: the PMU's dynamic type number */
	unsigned long long config; /* attr.config of energy-pkg ("event=0x02" -> 0x2) */
	double scale_J;            /* joules per count, from events/energy-pkg.scale */
	size_t n_packages;
	int package_id[RV_METER_MAX_DOMAINS]; /* ascending */
	int cpu[RV_METER_MAX_DOMAINS];        /* the lowest CPU of each package */
};

/* Reads the power PMU (sys/bus/event_source/devices/power/{type,
 * events/energy-pkg, events/energy-pkg.scale, events/energy-pkg.unit,
 * format/<term>}) and the CPU topology (sys/devices/system/cpu/cpuN/topology/
 * physical_package_id) under env's root. RV_ENOENT when the PMU, its
 * energy-pkg event or the topology is absent; RV_EPARSE for a malformed
 * file; RV_ENOTSUP when the unit is not Joules. */
int rv_rapl_perf__parse(struct rv_rapl_perf_pmu *out, const struct rv_env *env);

/* For tests: fn replaces perf_event_open() and returns an fd that read()
 * gives native-endian 64-bit counts from, or -errno; NULL restores the
 * system call. Not thread-safe. */
void rv_rapl_perf__inject_open(int (*fn)(unsigned type, unsigned long long config, int cpu));

#endif
