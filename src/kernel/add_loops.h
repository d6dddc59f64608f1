/* SPDX-License-Identifier: MIT */
/* The vector_add loops the cblas module times, c = a + b, in a file of their
 * own that CMake compiles with fixed flags (rv_build_kernel_flags(): -O2)
 * whatever the build type, so that a Release, a Debug and the default build
 * measure the same machine code. */
#ifndef RV_KERNEL_ADD_LOOPS_H
#define RV_KERNEL_ADD_LOOPS_H

#include <stddef.h>

/* c[i] = a[i] + b[i] for i < n; the buffers do not overlap. */
void rv_kernel_add_f32(float *restrict c, const float *restrict a, const float *restrict b,
                       size_t n);
void rv_kernel_add_f64(double *restrict c, const double *restrict a, const double *restrict b,
                       size_t n);

#endif
