/* SPDX-License-Identifier: MIT */
/* The device code of the cublas kernel backend (cuda_ops.cu, compiled by
 * nvcc only when CMake finds CUDA): an elementwise add and an input fill.
 * dtype codes are enum rv_dtype values (fp32, fp16, bf16). */
#ifndef RV_KERNEL_CUDA_OPS_H
#define RV_KERNEL_CUDA_OPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* c = a + b over n elements on stream (a cudaStream_t); 0 or a cudaError_t. */
int rv_cuda_add(int dtype, void *c, const void *a, const void *b, size_t n, void *stream);
/* Fills n elements with values in [0.5, 1.5) from seed; 0 or a cudaError_t. */
int rv_cuda_fill(int dtype, void *p, size_t n, uint64_t seed, void *stream);

#ifdef __cplusplus
}
#endif

#endif
