// SPDX-License-Identifier: MIT
// Device code of the cublas kernel backend: an elementwise add and an input fill.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "core/dtype.h"
#include "kernel/cuda/cuda_ops.h"

namespace {

// One add per thread with a grid-stride loop: the 3N-element traffic the
// model counts, and how a framework's elementwise kernel is written.
template <typename T> __global__ void add_kernel(T *c, const T *a, const T *b, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		c[i] = a[i] + b[i];
}

__device__ float uniform(size_t i, uint64_t seed)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ull * (i + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return 0.5f + (float)(z >> 40) * (1.0f / 16777216.0f);
}

template <typename T> __global__ void fill_kernel(T *p, size_t n, uint64_t seed)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] = (T)uniform(i, seed);
}

unsigned blocks_for(size_t n)
{
	size_t b = (n + 255) / 256;

	return (unsigned)(b < 65535 ? (b ? b : 1) : 65535);
}

} // namespace

extern "C" int rv_cuda_add(int dtype, void *c, const void *a, const void *b, size_t n,
                           void *stream)
{
	cudaStream_t s = (cudaStream_t)stream;

	switch (dtype) {
	case RV_DTYPE_FP16:
		add_kernel<<<blocks_for(n), 256, 0, s>>>((__half *)c, (const __half *)a,
		                                         (const __half *)b, n);
		break;
	case RV_DTYPE_BF16:
		add_kernel<<<blocks_for(n), 256, 0, s>>>((__nv_bfloat16 *)c,
		                                         (const __nv_bfloat16 *)a,
		                                         (const __nv_bfloat16 *)b, n);
		break;
	default:
		add_kernel<<<blocks_for(n), 256, 0, s>>>((float *)c, (const float *)a,
		                                         (const float *)b, n);
		break;
	}
	return (int)cudaGetLastError();
}

extern "C" int rv_cuda_fill(int dtype, void *p, size_t n, uint64_t seed, void *stream)
{
	cudaStream_t s = (cudaStream_t)stream;

	switch (dtype) {
	case RV_DTYPE_FP16:
		fill_kernel<<<blocks_for(n), 256, 0, s>>>((__half *)p, n, seed);
		break;
	case RV_DTYPE_BF16:
		fill_kernel<<<blocks_for(n), 256, 0, s>>>((__nv_bfloat16 *)p, n, seed);
		break;
	default:
		fill_kernel<<<blocks_for(n), 256, 0, s>>>((float *)p, n, seed);
		break;
	}
	return (int)cudaGetLastError();
}
