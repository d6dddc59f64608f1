/* SPDX-License-Identifier: MIT */
/* What a backend may touch on this machine, injectable so tests run against
 * fixture trees: the prefix of every sysfs and procfs path, and the NVML
 * library to load. */
#ifndef RV_CORE_ENV_H
#define RV_CORE_ENV_H

#include <stddef.h>

struct rv_env {
	const char *root;     /* prefix for sys/ and proc/ paths: "/" or a fixture tree */
	const char *nvml_lib; /* NULL: "libnvidia-ml.so.1", then "libnvidia-ml.so" */
};

/* The machine itself: root "/", no NVML override. */
extern const struct rv_env rv_env_host;

/* Writes root + rel (rel without a leading '/') into out: "/sys/...". */
void rv_env_path(char *out, size_t size, const struct rv_env *env, const char *rel);
/* Reads a small text file under the root (trailing newline removed) into out.
 * RV_ENOENT, RV_EPERM or RV_EIO with a message naming the path. */
int rv_env_read(char *out, size_t size, const struct rv_env *env, const char *rel);
/* Reads a decimal unsigned integer file under the root. */
int rv_env_read_u64(unsigned long long *out, const struct rv_env *env, const char *rel);

#endif
