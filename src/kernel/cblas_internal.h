/* SPDX-License-Identifier: MIT */
/* The cblas kernel's instance, for its unit tests: they reach the buffers to
 * check alignment and to corrupt a result on purpose. Nothing else uses it.
 * The instances are made by the cblas module (kernel/cblas_module.h); the
 * functions below forward to it, loading it as a probe does. */
#ifndef RV_KERNEL_CBLAS_INTERNAL_H
#define RV_KERNEL_CBLAS_INTERNAL_H

#include <stddef.h>

#include "kernel/kernel.h"

/* Buffers are row-major, 64-byte aligned, of fp32 or fp64 elements (base.dtype).
 *   op          m    k    n     a          b           bias      c
 *   matmul      M    K    N     A (MxK)    B (KxN)     NULL      C (MxN)
 *   linear      B    IN   OUT   x (BxIN)   W (OUTxIN)  b (OUT)   y (BxOUT)
 *   vector_add  1    1    N     a (N)      b (N)       NULL      c (N)      */
struct rv_cblas_kernel {
	struct rv_kernel base;
	size_t m, k, n;
	void *a, *b, *bias, *c;
	size_t cap[4];    /* bytes held by a, b, bias and c (pooled buffers may be larger) */
	size_t filled[4]; /* elements of each holding its input pattern (0 for c) */
	uint64_t seed;    /* the inputs' generator seed */
	int ran;          /* run() has completed once: c holds a result */
};

/* Frees the buffers the cblas kernel keeps between setups (nothing when the
 * module is not loaded). */
void rv_kernel_cblas__release(void);
/* The cblas_sgemm the module's kernels call, or NULL when the module cannot
 * be loaded (rv_error_last() says why). */
const void *rv_kernel_cblas__sgemm(void);

#endif
