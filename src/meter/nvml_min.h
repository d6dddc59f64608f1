/* SPDX-License-Identifier: MIT */
/* Our own declarations of the few NVML types and calls the nvml meters use,
 * so that nvml.h is not needed to build and the library is only loaded (with
 * dlopen) at run time. Values as in NVML's nvml.h; the function pointer types
 * are for dlsym() results, not for linking. */
#ifndef RV_METER_NVML_MIN_H
#define RV_METER_NVML_MIN_H

/* 0 on success, else an NVML_ERROR_* code. */
typedef int nvmlReturn_t;

/* An opaque handle to one GPU, owned by the library. */
typedef struct nvmlDevice_st *nvmlDevice_t;

#define NVML_SUCCESS                  0
#define NVML_ERROR_UNINITIALIZED      1
#define NVML_ERROR_INVALID_ARGUMENT   2
#define NVML_ERROR_NOT_SUPPORTED      3
#define NVML_ERROR_NO_PERMISSION      4
#define NVML_ERROR_NOT_FOUND          6
#define NVML_ERROR_INSUFFICIENT_SIZE  7
#define NVML_ERROR_DRIVER_NOT_LOADED  9
#define NVML_ERROR_LIBRARY_NOT_FOUND  12
#define NVML_ERROR_FUNCTION_NOT_FOUND 13
#define NVML_ERROR_GPU_IS_LOST        15
#define NVML_ERROR_UNKNOWN            999

/* nvmlDeviceGetName's buffer size (NVML_DEVICE_NAME_V2_BUFFER_SIZE). */
#define NVML_DEVICE_NAME_BUFFER_SIZE 96

/* nvmlInit_v2, nvmlInit, nvmlShutdown */
typedef nvmlReturn_t (*rv_nvml_void_fn)(void);
/* nvmlDeviceGetCount_v2, nvmlDeviceGetCount */
typedef nvmlReturn_t (*rv_nvml_count_fn)(unsigned int *count);
/* nvmlDeviceGetHandleByIndex_v2, nvmlDeviceGetHandleByIndex */
typedef nvmlReturn_t (*rv_nvml_handle_fn)(unsigned int index, nvmlDevice_t *device);
/* nvmlDeviceGetName */
typedef nvmlReturn_t (*rv_nvml_name_fn)(nvmlDevice_t device, char *name, unsigned int length);
/* nvmlDeviceGetTotalEnergyConsumption: millijoules since the driver loaded (Volta+) */
typedef nvmlReturn_t (*rv_nvml_energy_fn)(nvmlDevice_t device, unsigned long long *energy_mj);
/* nvmlDeviceGetPowerUsage: milliwatts (a ~1 s average on A100/H100 and later) */
typedef nvmlReturn_t (*rv_nvml_power_fn)(nvmlDevice_t device, unsigned int *power_mw);
/* nvmlClockType_t and nvmlTemperatureSensors_t values used */
#define NVML_CLOCK_SM        1
#define NVML_CLOCK_MEM       2
#define NVML_TEMPERATURE_GPU 0
/* nvmlDeviceGetClockInfo, nvmlDeviceGetDefaultApplicationsClock,
 * nvmlDeviceGetMaxClockInfo: MHz of a clock type */
typedef nvmlReturn_t (*rv_nvml_clock_fn)(nvmlDevice_t device, int type, unsigned int *clock_mhz);
/* nvmlDeviceGetTemperature: degrees C of a sensor */
typedef nvmlReturn_t (*rv_nvml_temp_fn)(nvmlDevice_t device, int sensor, unsigned int *temp_C);
/* nvmlDeviceGetEnforcedPowerLimit: milliwatts */
typedef nvmlReturn_t (*rv_nvml_limit_fn)(nvmlDevice_t device, unsigned int *limit_mw);
/* nvmlDeviceGetCurrentClocksEventReasons (nvmlDeviceGetCurrentClocksThrottleReasons
 * before driver 535): a bit mask */
typedef nvmlReturn_t (*rv_nvml_reasons_fn)(nvmlDevice_t device, unsigned long long *reasons);
/* nvmlErrorString: a static string */
typedef const char *(*rv_nvml_error_string_fn)(nvmlReturn_t result);

#endif
