/* SPDX-License-Identifier: MIT */
/* libroofval: the public API of roofval, a validator of performance models
 * of matmul, linear and vector_add kernels against measured baselines.
 *
 *   #include <roofval/roofval.h>       (cc $(pkg-config --cflags --libs roofval))
 *
 *   roofval/error.h     error codes and the thread-local message
 *   roofval/data.h      the data folders: profiles, sweeps, baselines
 *   roofval/predict.h   the built-in model: one shape or a batch of shapes
 *   roofval/validate.h  validation against baselines, rendered as a report
 *
 * Conventions: functions return 0 or a negative RV_E* code (roofval/error.h);
 * outputs are written through pointers only on success; units are in names
 * (latency_s in seconds, energy_J in joules); strings are UTF-8 (in practice
 * ASCII) and NUL-terminated. A NULL where a function needs a pointer (a
 * handle, an output, an input without a default) is an error, never a
 * crash: RV_ERROR with a message naming the function and the argument (a
 * NULL hardware key is RV_EPARSE, as an empty one); the functions that
 * return a string return NULL for a NULL handle, with the message set.
 *
 * Threads: a handle (rv_data) may be shared by any number of threads at
 * once, every function on it included, and so may the rv_hw it hands out:
 * the profiles, sweeps and baselines it caches are loaded under a lock,
 * once each, and never moved or changed until rv_data_free(), which no
 * other thread may be running on it. Different handles are independent.
 * The error message is per thread (roofval/error.h). */
#ifndef ROOFVAL_ROOFVAL_H
#define ROOFVAL_ROOFVAL_H

#include <roofval/common.h>
#include <roofval/data.h>
#include <roofval/error.h>
#include <roofval/predict.h>
#include <roofval/validate.h>
#include <roofval/version.h>

RV_BEGIN_DECLS

/* The version of the loaded library, "MAJOR.MINOR.PATCH" (compare with
 * RV_VERSION_STRING, the headers' version). Static storage. */
RV_API const char *rv_version(void);

RV_END_DECLS

#endif
