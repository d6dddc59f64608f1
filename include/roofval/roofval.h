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
 * ASCII) and NUL-terminated. A handle (rv_data) may be used by one thread at
 * a time; different handles may be used by different threads at once. */
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
