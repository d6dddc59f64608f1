/* SPDX-License-Identifier: MIT */
/* A fake libnvidia-ml for the tests of the nvml meters, loaded through their
 * real dlopen path (env.nvml_lib). Built twice: libfake-nvidia-ml.so exports
 * the versioned symbols of a current driver (nvmlInit_v2, ...) and the
 * energy counter; with -DFAKE_NVML_NO_ENERGY (libfake-nvidia-ml-noenergy.so)
 * it is an old driver: unversioned symbols only and no
 * nvmlDeviceGetTotalEnergyConsumption.
 *
 * Scripting, read from the environment at each nvmlInit that finds the
 * library uninitialised (an empty variable counts as unset):
 *   FAKE_NVML_INIT_FAIL=1         nvmlInit fails with NVML_ERROR_DRIVER_NOT_LOADED
 *   FAKE_NVML_DEVICES=N           GPUs (default 1, at most 16), "Fake NVML GPU <i>"
 *   FAKE_NVML_POWER_MW=P          power of GPU 0 in mW (default 300000); GPU i
 *                                 draws P + 1000 i mW, so readings tell GPUs apart
 *   FAKE_NVML_UPDATE_MS=T         energy counter period in ms (default 20): the
 *                                 counter is 1e9 mJ + power x (CLOCK_MONOTONIC
 *                                 rounded down to T), so it moves in steps
 *   FAKE_NVML_ENERGY_NOT_SUPPORTED=1  the energy call returns NOT_SUPPORTED
 *   FAKE_NVML_BACKWARDS_AFTER=N   after N energy reads the counter restarts from
 *                                 0 (as after a driver reload) and counts on
 *   FAKE_NVML_LOST_AFTER=N        after N reads (energy or power) every device
 *                                 call returns NVML_ERROR_GPU_IS_LOST
 *   FAKE_NVML_LOST_AFTER_MS=T     the same from T ms after nvmlInit on
 *   FAKE_NVML_SM_MHZ=F            SM clock (default 1980, also the default
 *                                 applications and the highest clock)
 *   FAKE_NVML_SM_LOW_EVERY=N      every N-th SM clock read gives
 *                                 FAKE_NVML_SM_LOW_MHZ (default 900) instead
 *   FAKE_NVML_REASONS=R           clock event reasons, a decimal bit mask (default 0)
 * Memory clock 2619 MHz, temperature 45 C and power limit 700 W are fixed.
 * The old-driver build exports the throttle reasons under their old name
 * (nvmlDeviceGetCurrentClocksThrottleReasons) and no default clocks.
 * Not thread-safe: the tests read from one thread. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "meter/nvml_min.h"

#define FAKE_MAX_DEVICES 16
#define FAKE_BASE_MJ     1000000000ULL /* a counter "since driver load" */

struct nvmlDevice_st {
	unsigned index;
};

static struct nvmlDevice_st fake_dev[FAKE_MAX_DEVICES];
static unsigned fake_refs; /* nvmlInit minus nvmlShutdown calls, like NVML */
static unsigned fake_devices;
static unsigned long long fake_power_mw, fake_update_ms;
static unsigned long long fake_backwards_after, fake_lost_after;
static int fake_has_backwards, fake_has_lost, fake_energy_unsupported;
static unsigned long long fake_energy_reads, fake_reads, fake_reset_step;
static int fake_reset, fake_has_lost_ms;
static unsigned long long fake_lost_ms, fake_init_ms, fake_sm_mhz, fake_sm_low_mhz;
static unsigned long long fake_sm_low_every, fake_sm_reads, fake_reasons;

/* The exported API (prototypes for -Wmissing-prototypes). */
#ifdef FAKE_NVML_NO_ENERGY
nvmlReturn_t nvmlInit(void);
nvmlReturn_t nvmlDeviceGetCount(unsigned int *count);
nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device);
#else
nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count);
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device,
                                                 unsigned long long *energy_mj);
nvmlReturn_t nvmlDeviceGetDefaultApplicationsClock(nvmlDevice_t device, int type,
                                                   unsigned int *clock_mhz);
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device,
                                                    unsigned long long *reasons);
#endif
#ifdef FAKE_NVML_NO_ENERGY
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device,
                                                       unsigned long long *reasons);
#endif
nvmlReturn_t nvmlShutdown(void);
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned int *clock_mhz);
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, int type, unsigned int *clock_mhz);
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int *temp_C);
nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit_mw);
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length);
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power_mw);
const char *nvmlErrorString(nvmlReturn_t result);

/* The variable's value, or def when it is unset, empty or not a number. */
static unsigned long long fake_env(const char *var, unsigned long long def, int *has)
{
	const char *s = getenv(var);
	char *end;
	unsigned long long v;

	if (has)
		*has = 0;
	if (!s || !*s)
		return def;
	v = strtoull(s, &end, 10);
	if (*end)
		return def;
	if (has)
		*has = 1;
	return v;
}

static unsigned long long fake_power_of(nvmlDevice_t device)
{
	return fake_power_mw + 1000ULL * device->index;
}

static unsigned long long fake_now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000ULL +
	       (unsigned long long)ts.tv_nsec / 1000000ULL;
}

static nvmlReturn_t fake_init(void)
{
	if (fake_refs == 0) {
		if (fake_env("FAKE_NVML_INIT_FAIL", 0, NULL) != 0)
			return NVML_ERROR_DRIVER_NOT_LOADED;
		fake_devices = (unsigned)fake_env("FAKE_NVML_DEVICES", 1, NULL);
		if (fake_devices > FAKE_MAX_DEVICES)
			fake_devices = FAKE_MAX_DEVICES;
		for (unsigned i = 0; i < FAKE_MAX_DEVICES; i++)
			fake_dev[i].index = i;
		fake_power_mw = fake_env("FAKE_NVML_POWER_MW", 300000, NULL);
		fake_update_ms = fake_env("FAKE_NVML_UPDATE_MS", 20, NULL);
		if (fake_update_ms == 0)
			fake_update_ms = 1;
		fake_energy_unsupported = fake_env("FAKE_NVML_ENERGY_NOT_SUPPORTED", 0, NULL) != 0;
		fake_backwards_after =
		        fake_env("FAKE_NVML_BACKWARDS_AFTER", 0, &fake_has_backwards);
		fake_lost_after = fake_env("FAKE_NVML_LOST_AFTER", 0, &fake_has_lost);
		fake_lost_ms = fake_env("FAKE_NVML_LOST_AFTER_MS", 0, &fake_has_lost_ms);
		fake_sm_mhz = fake_env("FAKE_NVML_SM_MHZ", 1980, NULL);
		fake_sm_low_mhz = fake_env("FAKE_NVML_SM_LOW_MHZ", 900, NULL);
		fake_sm_low_every = fake_env("FAKE_NVML_SM_LOW_EVERY", 0, NULL);
		fake_reasons = fake_env("FAKE_NVML_REASONS", 0, NULL);
		fake_init_ms = fake_now_ms();
		fake_energy_reads = fake_reads = fake_sm_reads = 0;
		fake_reset = 0;
		fake_reset_step = 0;
	}
	fake_refs++;
	return NVML_SUCCESS;
}

/* NVML_SUCCESS when device is one of ours and usable. */
static nvmlReturn_t fake_check(nvmlDevice_t device)
{
	if (fake_refs == 0)
		return NVML_ERROR_UNINITIALIZED;
	if (!device || device < fake_dev || device >= fake_dev + fake_devices)
		return NVML_ERROR_INVALID_ARGUMENT;
	if ((fake_has_lost && fake_reads >= fake_lost_after) ||
	    (fake_has_lost_ms && fake_now_ms() - fake_init_ms >= fake_lost_ms))
		return NVML_ERROR_GPU_IS_LOST;
	return NVML_SUCCESS;
}

static nvmlReturn_t fake_count(unsigned int *count)
{
	if (fake_refs == 0)
		return NVML_ERROR_UNINITIALIZED;
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	*count = fake_devices;
	return NVML_SUCCESS;
}

static nvmlReturn_t fake_handle(unsigned int index, nvmlDevice_t *device)
{
	if (fake_refs == 0)
		return NVML_ERROR_UNINITIALIZED;
	if (!device || index >= fake_devices)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (fake_has_lost && fake_reads >= fake_lost_after)
		return NVML_ERROR_GPU_IS_LOST;
	*device = &fake_dev[index];
	return NVML_SUCCESS;
}

#ifdef FAKE_NVML_NO_ENERGY
nvmlReturn_t nvmlInit(void)
{
	return fake_init();
}

nvmlReturn_t nvmlDeviceGetCount(unsigned int *count)
{
	return fake_count(count);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device)
{
	return fake_handle(index, device);
}
#else
nvmlReturn_t nvmlInit_v2(void)
{
	return fake_init();
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count)
{
	return fake_count(count);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
	return fake_handle(index, device);
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *energy_mj)
{
	nvmlReturn_t rc = fake_check(device);
	unsigned long long step;

	if (rc != NVML_SUCCESS)
		return rc;
	if (!energy_mj)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (fake_energy_unsupported)
		return NVML_ERROR_NOT_SUPPORTED;
	fake_reads++;
	fake_energy_reads++;
	step = fake_now_ms() / fake_update_ms;
	if (fake_has_backwards && !fake_reset && fake_energy_reads > fake_backwards_after) {
		fake_reset = 1;
		fake_reset_step = step;
	}
	/* mW x ms = uJ; / 1000 = mJ. */
	if (fake_reset)
		*energy_mj =
		        fake_power_of(device) * (step - fake_reset_step) * fake_update_ms / 1000ULL;
	else
		*energy_mj = FAKE_BASE_MJ + fake_power_of(device) * step * fake_update_ms / 1000ULL;
	return NVML_SUCCESS;
}
#endif

nvmlReturn_t nvmlShutdown(void)
{
	if (fake_refs == 0)
		return NVML_ERROR_UNINITIALIZED;
	fake_refs--;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length)
{
	nvmlReturn_t rc = fake_check(device);
	int n;

	if (rc != NVML_SUCCESS)
		return rc;
	if (!name)
		return NVML_ERROR_INVALID_ARGUMENT;
	n = snprintf(name, length, "Fake NVML GPU %u", device->index);
	return n < 0 || (unsigned)n >= length ? NVML_ERROR_INSUFFICIENT_SIZE : NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power_mw)
{
	nvmlReturn_t rc = fake_check(device);

	if (rc != NVML_SUCCESS)
		return rc;
	if (!power_mw)
		return NVML_ERROR_INVALID_ARGUMENT;
	fake_reads++;
	*power_mw = (unsigned)fake_power_of(device);
	return NVML_SUCCESS;
}

/* A clock in MHz: SM (scripted to drop), memory, or others at the SM's. */
static nvmlReturn_t fake_clock(nvmlDevice_t device, int type, unsigned int *mhz, int current)
{
	nvmlReturn_t rc = fake_check(device);

	if (rc != NVML_SUCCESS)
		return rc;
	if (!mhz)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (type == NVML_CLOCK_MEM) {
		*mhz = 2619;
		return NVML_SUCCESS;
	}
	*mhz = (unsigned)fake_sm_mhz;
	if (current && type == NVML_CLOCK_SM && fake_sm_low_every &&
	    ++fake_sm_reads % fake_sm_low_every == 0)
		*mhz = (unsigned)fake_sm_low_mhz;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned int *clock_mhz)
{
	return fake_clock(device, type, clock_mhz, 1);
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, int type, unsigned int *clock_mhz)
{
	return fake_clock(device, type, clock_mhz, 0);
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int *temp_C)
{
	nvmlReturn_t rc = fake_check(device);

	if (rc != NVML_SUCCESS)
		return rc;
	if (!temp_C || sensor != NVML_TEMPERATURE_GPU)
		return NVML_ERROR_INVALID_ARGUMENT;
	*temp_C = 45;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *limit_mw)
{
	nvmlReturn_t rc = fake_check(device);

	if (rc != NVML_SUCCESS)
		return rc;
	if (!limit_mw)
		return NVML_ERROR_INVALID_ARGUMENT;
	*limit_mw = 700000;
	return NVML_SUCCESS;
}

static nvmlReturn_t fake_get_reasons(nvmlDevice_t device, unsigned long long *reasons)
{
	nvmlReturn_t rc = fake_check(device);

	if (rc != NVML_SUCCESS)
		return rc;
	if (!reasons)
		return NVML_ERROR_INVALID_ARGUMENT;
	*reasons = fake_reasons;
	return NVML_SUCCESS;
}

#ifdef FAKE_NVML_NO_ENERGY
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device,
                                                       unsigned long long *reasons)
{
	return fake_get_reasons(device, reasons);
}
#else
nvmlReturn_t nvmlDeviceGetDefaultApplicationsClock(nvmlDevice_t device, int type,
                                                   unsigned int *clock_mhz)
{
	return fake_clock(device, type, clock_mhz, 0);
}

nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device,
                                                    unsigned long long *reasons)
{
	return fake_get_reasons(device, reasons);
}
#endif

/* NVML's own texts for the codes the fake returns. */
const char *nvmlErrorString(nvmlReturn_t result)
{
	switch (result) {
	case NVML_SUCCESS:
		return "Success";
	case NVML_ERROR_UNINITIALIZED:
		return "Uninitialized";
	case NVML_ERROR_INVALID_ARGUMENT:
		return "Invalid Argument";
	case NVML_ERROR_NOT_SUPPORTED:
		return "Not Supported";
	case NVML_ERROR_INSUFFICIENT_SIZE:
		return "Insufficient Size";
	case NVML_ERROR_DRIVER_NOT_LOADED:
		return "Driver Not Loaded";
	case NVML_ERROR_GPU_IS_LOST:
		return "GPU is lost";
	default:
		return "Unknown Error";
	}
}
