// SPDX-License-Identifier: MIT
// Device code of the cublas kernel backend: an elementwise add and an input fill.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/dtype.h"
#include "kernel/cuda/cuda_ops.h"

namespace {

// The add as a framework's elementwise kernel does it (PyTorch's vectorized
// elementwise loop): 16-byte loads and stores, 16 / sizeof(T) elements per
// thread and step of a grid-stride loop, the elements past the last whole
// vector one at a time; the 3N-element traffic the model counts. Element by
// element with 2-byte accesses, an fp16 add reached only ~58% of PyTorch's
// bandwidth on an H200 (results/h200/README.md).
template <typename T> __global__ void add_kernel(T *c, const T *a, const T *b, size_t n)
{
	constexpr int per = 16 / sizeof(T);
	const size_t first = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	const size_t stride = (size_t)gridDim.x * blockDim.x;
	const size_t vectors = n / per;

	for (size_t i = first; i < vectors; i += stride) {
		uint4 x = reinterpret_cast<const uint4 *>(a)[i];
		uint4 y = reinterpret_cast<const uint4 *>(b)[i];
		uint4 z;
		const T *xs = reinterpret_cast<const T *>(&x);
		const T *ys = reinterpret_cast<const T *>(&y);
		T *zs = reinterpret_cast<T *>(&z);

#pragma unroll
		for (int j = 0; j < per; j++)
			zs[j] = xs[j] + ys[j];
		reinterpret_cast<uint4 *>(c)[i] = z;
	}
	for (size_t i = vectors * per + first; i < n; i += stride)
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

// One thread per 16-byte vector of T.
template <typename T>
int launch_add(void *c, const void *a, const void *b, size_t n, cudaStream_t s)
{
	add_kernel<<<blocks_for((n * sizeof(T) + 15) / 16), 256, 0, s>>>(
		(T *)c, (const T *)a, (const T *)b, n);
	return (int)cudaGetLastError();
}

} // namespace

// cudaMalloc aligns every buffer to 256 bytes: the 16-byte accesses need 16.
extern "C" int rv_cuda_add(int dtype, void *c, const void *a, const void *b, size_t n,
                           void *stream)
{
	cudaStream_t s = (cudaStream_t)stream;

	if (((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) % 16)
		return (int)cudaErrorMisalignedAddress;
	switch (dtype) {
	case RV_DTYPE_FP16:
		return launch_add<__half>(c, a, b, n, s);
	case RV_DTYPE_BF16:
		return launch_add<__nv_bfloat16>(c, a, b, n, s);
	default:
		return launch_add<float>(c, a, b, n, s);
	}
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
