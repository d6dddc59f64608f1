/* SPDX-License-Identifier: MIT */
/* The CUDA module (libroofval-cuda.so) behind the cublas kernel backend:
 * matmul through cublasGemmEx, linear through cuBLASLt with its bias
 * epilogue, and vector_add as a small CUDA kernel, in fp16, bf16, fp32 and
 * tf32 with fp32 accumulation, as frameworks run them. Timed on the device
 * with cudaEvent pairs on the kernel's own stream. Built only when CMake
 * finds the CUDA toolkit, and loaded by src/kernel/cublas.c only when a
 * capture asks for it, so that roofval starts (and validates) without
 * loading cuBLAS. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernel/cuda_module.h"
#include "kernel/kernel.h"

static const struct rv_kernel_ops cuda_module_ops;

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "kernel/cuda/cuda_ops.h"
#include "model/opcount.h"

/* cuBLASLt may use this much scratch memory to pick a faster algorithm. */
#define CUDA_WORKSPACE_B    ((size_t)32 << 20)
/* Largest shape check() compares with the host reference. */
#define CUDA_CHECK_MAX_MACS ((double)(1 << 26))

struct rv_cuda_kernel {
	struct rv_kernel base;
	size_t m, k, n;
	void *a, *b, *bias, *c, *workspace;
	cudaStream_t stream;
	cudaEvent_t ev0, ev1;
	cublasHandle_t blas;
	cublasLtHandle_t lt;
	cublasLtMatmulDesc_t desc;
	cublasLtMatrixLayout_t la, lb, lc;
	cublasLtMatmulAlgo_t algo;
	void *scrub; /* --flush-l2: a buffer twice the L2's size, made at the first flush */
	size_t scrub_B;
	int ran;
};

static int cuda_fail(cudaError_t e, const char *what)
{
	return rv_error_set(RV_ERROR, "cuda: %s: %s", what, cudaGetErrorString(e));
}

static int blas_fail(cublasStatus_t s, const char *what)
{
	return rv_error_set(RV_ERROR, "cublas: %s: status %d", what, (int)s);
}

#define CUDA_TRY(call, what)                        \
	do {                                        \
		cudaError_t e_ = (call);            \
		if (e_ != cudaSuccess)              \
			return cuda_fail(e_, what); \
	} while (0)

#define BLAS_TRY(call, what)                        \
	do {                                        \
		cublasStatus_t s_ = (call);         \
		if (s_ != CUBLAS_STATUS_SUCCESS)    \
			return blas_fail(s_, what); \
	} while (0)

static int cuda_probe(const struct rv_env *env)
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);

	(void)env;
	if (e != cudaSuccess)
		return rv_error_set(RV_ENOTSUP, "no usable CUDA device: %s", cudaGetErrorString(e));
	if (n == 0)
		return rv_error_set(RV_ENOTSUP, "no CUDA device");
	return 0;
}

static int cuda_supports(enum rv_op op, enum rv_dtype d)
{
	if (d == RV_DTYPE_TF32)
		return op != RV_OP_VECTOR_ADD;
	return d == RV_DTYPE_FP32 || d == RV_DTYPE_FP16 || d == RV_DTYPE_BF16;
}

static cudaDataType_t cuda_type(enum rv_dtype d)
{
	return d == RV_DTYPE_FP16 ? CUDA_R_16F : d == RV_DTYPE_BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

static cublasComputeType_t cuda_compute(enum rv_dtype d)
{
	return d == RV_DTYPE_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

static size_t cuda_elem_B(enum rv_dtype d)
{
	return d == RV_DTYPE_FP16 || d == RV_DTYPE_BF16 ? 2 : 4;
}

static void cuda_teardown(struct rv_kernel *base)
{
	struct rv_cuda_kernel *k = (struct rv_cuda_kernel *)base;

	if (!k)
		return;
	if (k->stream)
		(void)cudaStreamSynchronize(k->stream);
	if (k->desc)
		(void)cublasLtMatmulDescDestroy(k->desc);
	if (k->la)
		(void)cublasLtMatrixLayoutDestroy(k->la);
	if (k->lb)
		(void)cublasLtMatrixLayoutDestroy(k->lb);
	if (k->lc)
		(void)cublasLtMatrixLayoutDestroy(k->lc);
	if (k->lt)
		(void)cublasLtDestroy(k->lt);
	if (k->blas)
		(void)cublasDestroy(k->blas);
	(void)cudaFree(k->a);
	(void)cudaFree(k->b);
	(void)cudaFree(k->bias);
	(void)cudaFree(k->c);
	(void)cudaFree(k->workspace);
	(void)cudaFree(k->scrub);
	if (k->ev0)
		(void)cudaEventDestroy(k->ev0);
	if (k->ev1)
		(void)cudaEventDestroy(k->ev1);
	if (k->stream)
		(void)cudaStreamDestroy(k->stream);
	free(k);
}

/* cuBLASLt plan of linear, y = x W^T + b in row-major: in cuBLAS's
 * column-major view y^T (OUT x B) = W (OUT x IN) x^T, with W stored as an
 * IN x OUT column-major matrix (so transposed) and x as IN x B; the bias
 * epilogue adds b to every column, i.e. to every output row. */
static int cuda_plan_linear(struct rv_cuda_kernel *k)
{
	cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
	cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
	cublasLtMatmulPreference_t pref = NULL;
	cublasLtMatmulHeuristicResult_t heur;
	cudaDataType_t t = cuda_type(k->base.dtype);
	size_t ws = CUDA_WORKSPACE_B;
	int found = 0;

	BLAS_TRY(cublasLtMatmulDescCreate(&k->desc, cuda_compute(k->base.dtype), CUDA_R_32F),
	         "matmul descriptor");
	BLAS_TRY(cublasLtMatmulDescSetAttribute(k->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta,
	                                        sizeof(ta)),
	         "transpose A");
	BLAS_TRY(cublasLtMatmulDescSetAttribute(k->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb,
	                                        sizeof(tb)),
	         "transpose B");
	BLAS_TRY(cublasLtMatmulDescSetAttribute(k->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi,
	                                        sizeof(epi)),
	         "bias epilogue");
	BLAS_TRY(cublasLtMatmulDescSetAttribute(k->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
	                                        &k->bias, sizeof(k->bias)),
	         "bias pointer");
	BLAS_TRY(cublasLtMatrixLayoutCreate(&k->la, t, k->k, k->n, (int64_t)k->k), "layout W");
	BLAS_TRY(cublasLtMatrixLayoutCreate(&k->lb, t, k->k, k->m, (int64_t)k->k), "layout x");
	BLAS_TRY(cublasLtMatrixLayoutCreate(&k->lc, t, k->n, k->m, (int64_t)k->n), "layout y");
	BLAS_TRY(cublasLtMatmulPreferenceCreate(&pref), "preference");
	(void)cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
	                                           &ws, sizeof(ws));
	if (cublasLtMatmulAlgoGetHeuristic(k->lt, k->desc, k->la, k->lb, k->lc, k->lc, pref, 1,
	                                   &heur, &found) != CUBLAS_STATUS_SUCCESS ||
	    found == 0) {
		(void)cublasLtMatmulPreferenceDestroy(pref);
		return rv_error_set(RV_ENOTSUP,
		                    "cublasLt has no algorithm for linear %zux%zux%zu "
		                    "%s with a bias epilogue",
		                    k->m, k->k, k->n, rv_dtype_name(k->base.dtype));
	}
	(void)cublasLtMatmulPreferenceDestroy(pref);
	k->algo = heur.algo;
	return 0;
}

static int cuda_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                      const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	struct rv_cuda_kernel *k;
	struct rv_footprint fp;
	size_t free_B = 0, total_B = 0, e = cuda_elem_B(d);
	int err;

	(void)env;
	*out = NULL;
	if (!cuda_supports(op, d))
		return rv_error_set(
		        RV_ENOTSUP,
		        "%s %s is unsupported on the cublas backend (it runs fp16, bf16, "
		        "fp32 and, for GEMMs, tf32)",
		        rv_op_name(op), rv_dtype_name(d));
	if ((err = rv_footprint_of(&fp, op, s, d)) < 0)
		return err;
	CUDA_TRY(cudaMemGetInfo(&free_B, &total_B), "cudaMemGetInfo");
	if (fp.working_set_B + CUDA_WORKSPACE_B > 0.9 * (double)free_B)
		return rv_error_set(RV_ENOMEM,
		                    "%s needs %.3g GB of device memory, %.3g GB are free; pick a "
		                    "smaller shape",
		                    rv_op_name(op), fp.working_set_B / 1e9, (double)free_B / 1e9);
	k = calloc(1, sizeof(*k));
	if (!k)
		return rv_error_set(RV_ENOMEM, "out of memory");
	rv_kernel_init(&k->base, &cuda_module_ops, op, s, d);
	k->m = op == RV_OP_VECTOR_ADD ? 1 : (size_t)s->dim[0];
	k->k = op == RV_OP_VECTOR_ADD ? 1 : (size_t)s->dim[1];
	k->n = op == RV_OP_VECTOR_ADD ? (size_t)s->dim[0] : (size_t)s->dim[2];
	*out = &k->base;
#define SETUP_TRY(call, what)                      \
	do {                                       \
		cudaError_t e_ = (call);           \
		if (e_ != cudaSuccess) {           \
			err = cuda_fail(e_, what); \
			goto fail;                 \
		}                                  \
	} while (0)
	SETUP_TRY(cudaStreamCreateWithFlags(&k->stream, cudaStreamNonBlocking), "stream");
	SETUP_TRY(cudaEventCreate(&k->ev0), "event");
	SETUP_TRY(cudaEventCreate(&k->ev1), "event");
	SETUP_TRY(cudaMalloc(&k->a, e * (op == RV_OP_VECTOR_ADD ? k->n : k->m * k->k)),
	          "cudaMalloc");
	SETUP_TRY(cudaMalloc(&k->b, e * k->k * k->n), "cudaMalloc");
	SETUP_TRY(cudaMalloc(&k->c, e * k->m * k->n), "cudaMalloc");
	if (op == RV_OP_LINEAR)
		SETUP_TRY(cudaMalloc(&k->bias, e * k->n), "cudaMalloc");
	SETUP_TRY((cudaError_t)rv_cuda_fill(d, k->a, op == RV_OP_VECTOR_ADD ? k->n : k->m * k->k,
	                                    seed, k->stream),
	          "fill");
	SETUP_TRY((cudaError_t)rv_cuda_fill(d, k->b, k->k * k->n, seed + 1, k->stream), "fill");
	SETUP_TRY((cudaError_t)rv_cuda_fill(d, k->c, k->m * k->n, seed + 2, k->stream), "fill");
	if (k->bias)
		SETUP_TRY((cudaError_t)rv_cuda_fill(d, k->bias, k->n, seed + 3, k->stream), "fill");
	if (op != RV_OP_VECTOR_ADD) {
		cublasStatus_t st = cublasCreate(&k->blas);

		if (st == CUBLAS_STATUS_SUCCESS)
			st = cublasSetStream(k->blas, k->stream);
		if (st == CUBLAS_STATUS_SUCCESS)
			st = cublasLtCreate(&k->lt);
		if (st != CUBLAS_STATUS_SUCCESS) {
			err = blas_fail(st, "handles");
			goto fail;
		}
		SETUP_TRY(cudaMalloc(&k->workspace, CUDA_WORKSPACE_B), "cudaMalloc workspace");
		if (op == RV_OP_LINEAR && (err = cuda_plan_linear(k)) < 0)
			goto fail;
	}
	SETUP_TRY(cudaStreamSynchronize(k->stream), "setup");
#undef SETUP_TRY
	return 0;
fail:
	cuda_teardown(&k->base);
	*out = NULL;
	return err;
}

/* Enqueues one call on the kernel's stream. */
static int cuda_enqueue(struct rv_cuda_kernel *k)
{
	const float one = 1.0f, zero = 0.0f;
	cudaDataType_t t = cuda_type(k->base.dtype);
	int rc;

	switch (k->base.op) {
	case RV_OP_MATMUL:
		/* Row-major C = A B is column-major C^T = B^T A^T. */
		BLAS_TRY(cublasGemmEx(k->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)k->n, (int)k->m,
		                      (int)k->k, &one, k->b, t, (int)k->n, k->a, t, (int)k->k,
		                      &zero, k->c, t, (int)k->n, cuda_compute(k->base.dtype),
		                      CUBLAS_GEMM_DEFAULT),
		         "cublasGemmEx");
		break;
	case RV_OP_LINEAR:
		BLAS_TRY(cublasLtMatmul(k->lt, k->desc, &one, k->b, k->la, k->a, k->lb, &zero, k->c,
		                        k->lc, k->c, k->lc, &k->algo, k->workspace,
		                        CUDA_WORKSPACE_B, k->stream),
		         "cublasLtMatmul");
		break;
	default:
		rc = rv_cuda_add(k->base.dtype, k->c, k->a, k->b, k->n, k->stream);
		if (rc != 0)
			return cuda_fail((cudaError_t)rc, "vector_add launch");
		break;
	}
	return 0;
}

static int cuda_run(struct rv_kernel *base, uint64_t iters)
{
	struct rv_cuda_kernel *k = (struct rv_cuda_kernel *)base;
	int err;

	for (uint64_t i = 0; i < iters; i++)
		if ((err = cuda_enqueue(k)) < 0)
			return err;
	CUDA_TRY(cudaGetLastError(), "launch");
	CUDA_TRY(cudaStreamSynchronize(k->stream), "synchronize");
	k->ran = 1;
	return 0;
}

/* The device time of iters calls: an event pair around them on the stream. */
static int cuda_time_run(struct rv_kernel *base, uint64_t iters, double *seconds)
{
	struct rv_cuda_kernel *k = (struct rv_cuda_kernel *)base;
	float ms = 0;
	int err;

	CUDA_TRY(cudaEventRecord(k->ev0, k->stream), "event record");
	for (uint64_t i = 0; i < iters; i++)
		if ((err = cuda_enqueue(k)) < 0)
			return err;
	CUDA_TRY(cudaEventRecord(k->ev1, k->stream), "event record");
	CUDA_TRY(cudaEventSynchronize(k->ev1), "event synchronize");
	CUDA_TRY(cudaEventElapsedTime(&ms, k->ev0, k->ev1), "event elapsed time");
	*seconds = 1e-3 * (double)ms;
	k->ran = 1;
	return 0;
}

/* Evicts the inputs from L2: writes a buffer twice its size on the kernel's
 * stream, so the next event pair starts after it and does not time it. */
static int cuda_flush(struct rv_kernel *base)
{
	struct rv_cuda_kernel *k = (struct rv_cuda_kernel *)base;

	if (!k->scrub) {
		int dev = 0, l2_B = 0;

		CUDA_TRY(cudaGetDevice(&dev), "flush: device");
		CUDA_TRY(cudaDeviceGetAttribute(&l2_B, cudaDevAttrL2CacheSize, dev),
		         "flush: L2 size");
		k->scrub_B = 2 * (size_t)(l2_B > 0 ? l2_B : 64 << 20);
		CUDA_TRY(cudaMalloc(&k->scrub, k->scrub_B), "flush: buffer");
	}
	CUDA_TRY(cudaMemsetAsync(k->scrub, 0x5a, k->scrub_B, k->stream), "flush: memset");
	return 0;
}

/* fp16 and bf16 bits to float on the host. */
static double half_bits(uint16_t h, enum rv_dtype d)
{
	uint32_t bits;
	float f;

	if (d == RV_DTYPE_BF16) {
		bits = (uint32_t)h << 16;
	} else {
		uint32_t sign = (uint32_t)(h >> 15) << 31, ex = (h >> 10) & 0x1f, man = h & 0x3ff;

		if (ex == 0) /* subnormals do not occur in our [0.5, 1.5) inputs or results */
			bits = sign;
		else if (ex == 31)
			bits = sign | 0x7f800000u | (man << 13);
		else
			bits = sign | ((ex + 112) << 23) | (man << 13);
	}
	memcpy(&f, &bits, sizeof(f));
	return (double)f;
}

static int cuda_copy_back(double *out, const void *dev, size_t n, enum rv_dtype d)
{
	size_t e = cuda_elem_B(d);
	unsigned char *host = malloc(n * e);

	if (!host)
		return rv_error_set(RV_ENOMEM, "out of memory");
	if (cudaMemcpy(host, dev, n * e, cudaMemcpyDeviceToHost) != cudaSuccess) {
		free(host);
		return rv_error_set(RV_ERROR, "cuda: copying a result back failed");
	}
	for (size_t i = 0; i < n; i++) {
		if (e == 2) {
			uint16_t h;

			memcpy(&h, host + 2 * i, 2);
			out[i] = half_bits(h, d);
		} else {
			float f;

			memcpy(&f, host + 4 * i, 4);
			out[i] = (double)f;
		}
	}
	free(host);
	return 0;
}

static int cuda_check(struct rv_kernel *base, double *max_rel_err)
{
	struct rv_cuda_kernel *k = (struct rv_cuda_kernel *)base;
	enum rv_dtype d = base->dtype;
	size_t na = base->op == RV_OP_VECTOR_ADD ? k->n : k->m * k->k;
	double *a = NULL, *b = NULL, *c = NULL, *bias = NULL, worst = 0, tol;
	int err;

	if (!k->ran)
		return rv_error_set(RV_ERROR, "check() before run()");
	if ((double)k->m * (double)k->k * (double)k->n > CUDA_CHECK_MAX_MACS)
		return rv_error_set(RV_ENOTSUP, "too large to check on the host");
	a = malloc(na * sizeof(double));
	b = malloc(k->k * k->n * sizeof(double));
	c = malloc(k->m * k->n * sizeof(double));
	bias = malloc((k->n + 1) * sizeof(double));
	err = !a || !b || !c || !bias ? rv_error_set(RV_ENOMEM, "out of memory") : 0;
	if (err == 0)
		err = cuda_copy_back(a, k->a, na, d);
	if (err == 0)
		err = cuda_copy_back(b, k->b, k->k * k->n, d);
	if (err == 0)
		err = cuda_copy_back(c, k->c, k->m * k->n, d);
	if (err == 0 && k->bias)
		err = cuda_copy_back(bias, k->bias, k->n, d);
	for (size_t i = 0; err == 0 && i < k->m; i++) {
		for (size_t j = 0; j < k->n; j++) {
			double ref = 0;

			if (base->op == RV_OP_VECTOR_ADD) {
				ref = a[j] + b[j];
			} else if (base->op == RV_OP_MATMUL) {
				for (size_t p = 0; p < k->k; p++)
					ref += a[i * k->k + p] * b[p * k->n + j];
			} else { /* linear: x (B x IN), W (OUT x IN) */
				for (size_t p = 0; p < k->k; p++)
					ref += a[i * k->k + p] * b[j * k->k + p];
				ref += bias[j];
			}
			worst = fmax(worst, fabs(c[i * k->n + j] - ref) / fabs(ref));
		}
	}
	/* The output is rounded to its dtype (2^-8 bf16, 2^-11 fp16); tf32 inputs
	 * keep 10 mantissa bits; positive inputs keep sums free of cancellation. */
	tol = d == RV_DTYPE_BF16   ? 1e-2
	      : d == RV_DTYPE_FP16 ? 2e-3
	      : d == RV_DTYPE_TF32 ? 3e-3
	                           : 1e-5 * sqrt((double)k->k + 1);
	*max_rel_err = worst;
	if (err == 0 && !(worst <= tol))
		err = rv_error_set(RV_ERANGE, "cublas result off by %.3g (tolerance %.3g)", worst,
		                   tol);
	free(a);
	free(b);
	free(c);
	free(bias);
	return err;
}

static const char *cuda_provider(void)
{
	static char text[256];
	struct cudaDeviceProp prop;
	int rt = 0, drv = 0, dev = 0, blas = 0;
	cublasHandle_t h;

	(void)cudaRuntimeGetVersion(&rt);
	(void)cudaDriverGetVersion(&drv);
	if (cudaGetDevice(&dev) != cudaSuccess ||
	    cudaGetDeviceProperties(&prop, dev) != cudaSuccess)
		(void)snprintf(prop.name, sizeof(prop.name), "no device");
	if (cublasCreate(&h) == CUBLAS_STATUS_SUCCESS) {
		(void)cublasGetVersion(h, &blas);
		(void)cublasDestroy(h);
	}
	(void)snprintf(text, sizeof(text), "cuBLAS %d (CUDA runtime %d, driver %d) on %.160s", blas,
	               rt, drv, prop.name);
	return text;
}

static const struct rv_kernel_ops cuda_module_ops = {
	.name = RV_CUBLAS_NAME,
	.version = RV_KERNEL_OPS_VERSION,
	.summary = RV_CUBLAS_SUMMARY,
	.probe = cuda_probe,
	.supports = cuda_supports,
	.setup = cuda_setup,
	.run = cuda_run,
	.check = cuda_check,
	.teardown = cuda_teardown,
	.provider = cuda_provider,
	.time_run = cuda_time_run,
	.flush = cuda_flush,
};

const struct rv_kernel_ops *rv_cuda_module_ops(void)
{
	return &cuda_module_ops;
}

const char *rv_cuda_module_error(void)
{
	return rv_error_last();
}
