/* SPDX-License-Identifier: MIT */
/* The meter registry, built from meters.def, and counter deltas with wraparound. */
#include "meter/meter.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/near.h"

#define RV_METER(name) extern const struct rv_meter_ops rv_meter_##name;
#include "meter/meters.def"
#undef RV_METER

static const struct rv_meter_ops *const rv_meters[] = {
#define RV_METER(name) &rv_meter_##name,
#include "meter/meters.def"
#undef RV_METER
};

size_t rv_meter_count(void)
{
	return sizeof(rv_meters) / sizeof(rv_meters[0]);
}

const struct rv_meter_ops *rv_meter_at(size_t i)
{
	return i < rv_meter_count() ? rv_meters[i] : NULL;
}

const struct rv_meter_ops *rv_meter_find(const char *name)
{
	const char *names[sizeof(rv_meters) / sizeof(rv_meters[0])];
	char known[256] = "", near[96];
	size_t i, len = 0;

	for (i = 0; i < rv_meter_count(); i++) {
		if (name && strcmp(rv_meters[i]->name, name) == 0)
			return rv_meters[i];
		names[i] = rv_meters[i]->name;
		if (len < sizeof(known))
			len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
			                        i ? ", " : "", rv_meters[i]->name);
	}
	(void)rv_near_hint(near, sizeof(near), name, names, rv_meter_count(), NULL);
	(void)rv_error_set(RV_ENOENT, "no meter called '%s' (known meters: %s)%s",
	                   name ? name : "(null)", known, near);
	return NULL;
}

double rv_meter_delta_J(double before_J, double after_J, double range_J)
{
	double d_J = after_J - before_J;

	if (d_J >= 0.0)
		return d_J;
	/* A counter that went down passed its wrap point once (the caller reads
	 * often enough for no more): what it lacked to the top, plus its new value. */
	if (range_J > 0.0)
		return d_J + range_J;
	/* A counter that never wraps went backwards (a reset, a driver reload):
	 * no energy can be inferred. */
	return (double)NAN;
}

void rv_throttle_names(char *out, size_t size, unsigned long long r)
{
	static const char *const names[] = {
		"GpuIdle",
		"ApplicationsClocksSetting",
		"SwPowerCap",
		"HwSlowdown",
		"SyncBoost",
		"SwThermalSlowdown",
		"HwThermalSlowdown",
		"HwPowerBrakeSlowdown",
		"DisplayClockSetting",
	};
	size_t len = 0, n = sizeof(names) / sizeof(names[0]);

	if (size == 0)
		return;
	out[0] = '\0';
	for (size_t i = 0; i < 64 && len < size; i++) {
		if (!(r & (1ULL << i)))
			continue;
		if (i < n)
			len += (size_t)snprintf(out + len, size - len, "%s%s", len ? "+" : "",
			                        names[i]);
		else
			len += (size_t)snprintf(out + len, size - len, "%sbit%zu", len ? "+" : "",
			                        i);
	}
	if (!out[0])
		(void)snprintf(out, size, "none");
}
