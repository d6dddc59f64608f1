/* SPDX-License-Identifier: MIT */
/* What a backend may touch on this machine, and how it is configured, in one
 * struct built once at the command line's boundary (rv_env_from_process())
 * and handed to kernels, meters, the capture session and the CPU-model
 * readers: the prefix of every sysfs and procfs path (so tests run against
 * fixture trees), the NVML library and CUDA module to load, and each
 * backend's arguments. No backend reads the process environment itself. */
#ifndef RV_CORE_ENV_H
#define RV_CORE_ENV_H

#include <stddef.h>

/* The ina meter's arguments. */
struct rv_ina_args {
	/* "NAME,NAME": the rails to sum (capture --rails); NULL or "": the
	 * module's input rail, chosen by the meter. */
	const char *rails;
};

/* The fake meter's script, each setting as text (NULL or "": its default),
 * parsed by the meter's open(), whose errors name the ROOFVAL_FAKE_METER_*
 * variable the CLI takes it from. */
struct rv_fake_meter_args {
	const char *power_W;         /* synthetic power (default 50) */
	const char *range_J;         /* counter range it wraps at */
	const char *fail_after;      /* reads before a domain vanishes */
	const char *backwards_after; /* reads before the counter jumps back */
	const char *freeze_after;    /* reads before the counter stops moving */
};

/* The torch kernels' arguments. */
struct rv_torch_args {
	/* "cpu" or "cuda"; NULL or "": CUDA when the libtorch has it and a GPU
	 * is present, else the CPU. */
	const char *device;
};

/* The arguments of every backend that takes some. */
struct rv_backend_args {
	struct rv_ina_args ina;
	struct rv_fake_meter_args fake;
	struct rv_torch_args torch;
};

struct rv_env {
	const char *root;     /* prefix for sys/ and proc/ paths: "/" or a fixture tree */
	const char *nvml_lib; /* NULL: "libnvidia-ml.so.1", then "libnvidia-ml.so" */
	/* The CUDA module (libroofval-cuda.so) to load; NULL: beside the
	 * executable, one folder up, then the build folder. */
	const char *cuda_module;
	/* The cblas module (libroofval-cblas.so), searched likewise when NULL. */
	const char *cblas_module;
	/* The torch module (libroofval-torch.so), searched likewise when NULL. */
	const char *torch_module;
	/* The root meters read sysfs under (a fixture tree of RAPL zones or
	 * Jetson rails) while kernels and the capture's host readings keep
	 * root; NULL: root. rv_env_meters() gives the meters' env. */
	const char *meter_root;
	struct rv_backend_args args;
};

/* The machine itself: root "/", no override, no backend arguments. */
extern const struct rv_env rv_env_host;

/* The host's env with the test doubles and settings the process environment
 * selects, read once: ROOFVAL_METER_ROOT (meter_root), ROOFVAL_NVML_LIB,
 * ROOFVAL_CUDA_MODULE, ROOFVAL_CBLAS_MODULE, ROOFVAL_TORCH_MODULE,
 * ROOFVAL_TORCH_DEVICE, ROOFVAL_INA_RAILS and ROOFVAL_FAKE_METER_POWER_W,
 * _RANGE_J, _FAIL_AFTER, _BACKWARDS, _FREEZE_AFTER (empty counts as unset).
 * The strings stay the environment's: call it at the command line's boundary,
 * and change no variable while the env is in use. */
struct rv_env rv_env_from_process(void);

/* env as meters see it: root replaced by meter_root when that is set. */
struct rv_env rv_env_meters(const struct rv_env *env);

/* Writes root + rel (rel without a leading '/') into out: "/sys/...".
 * RV_ERANGE when it does not fit in size. */
int rv_env_path(char *out, size_t size, const struct rv_env *env, const char *rel);
/* Reads a small text file under the root (trailing newline removed) into out.
 * RV_ENOENT, RV_EPERM or RV_EIO with a message naming the path. */
int rv_env_read(char *out, size_t size, const struct rv_env *env, const char *rel);
/* Reads a decimal unsigned integer file under the root. */
int rv_env_read_u64(unsigned long long *out, const struct rv_env *env, const char *rel);
/* The first "model name" of proc/cpuinfo under the root into out; "unknown"
 * (and RV_ENOENT) when the file or the line is missing. */
int rv_env_cpu_model(const struct rv_env *env, char *out, size_t size);

#endif
