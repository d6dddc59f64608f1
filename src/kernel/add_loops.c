/* SPDX-License-Identifier: MIT */
/* The vector_add loops of the cblas module, compiled with fixed flags (see
 * kernel/add_loops.h). One pass, c = a + b: each element read and written
 * once, the 3N elements of traffic opcount assumes and what a framework's
 * elementwise add does. cblas_?copy + cblas_?axpy would take two passes (5N
 * elements). The fixed 64-byte inner loop is what gcc -O2 (its "very cheap"
 * vectoriser, which refuses loops needing a scalar epilogue) turns into
 * vector adds; restrict tells it the buffers do not overlap. */
#include "kernel/add_loops.h"

void rv_kernel_add_f32(float *restrict c, const float *restrict a, const float *restrict b,
                       size_t n)
{
	size_t i = 0;

	for (; i + 16 <= n; i += 16)
		for (size_t j = 0; j < 16; j++)
			c[i + j] = a[i + j] + b[i + j];
	for (; i < n; i++)
		c[i] = a[i] + b[i];
}

void rv_kernel_add_f64(double *restrict c, const double *restrict a, const double *restrict b,
                       size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		for (size_t j = 0; j < 8; j++)
			c[i + j] = a[i + j] + b[i + j];
	for (; i < n; i++)
		c[i] = a[i] + b[i];
}
