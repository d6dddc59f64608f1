/* SPDX-License-Identifier: MIT */
/* The cublas kernel backend: matmul through cublasGemmEx, linear through
 * cuBLASLt with its bias epilogue, and vector_add as a small CUDA kernel on
 * NVIDIA GPUs. The work is done by the CUDA module (libroofval-cuda.so, see
 * kernel/cuda_module.h), which this table loads with dlopen at the first
 * probe and forwards to; without the CUDA toolkit at configure time there is
 * no module, and the probe says so. */
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/build_info.h"
#include "core/error.h"
#include "core/path.h"
#include "kernel/cuda_module.h"
#include "kernel/kernel.h"

extern const struct rv_kernel_ops rv_kernel_cublas;

/* 0 when the NVIDIA driver's libcuda.so.1 loads here (a GPU's driver, on a
 * desktop, a server or a Jetson alike), else RV_ENOTSUP saying plainly that
 * there is no driver: the CUDA runtime's own message for it ("CUDA driver
 * version is insufficient") reads as if a driver were there. */
static int driver_check(void)
{
	void *dl = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
	const char *e;

	if (dl) {
		(void)dlclose(dl);
		return 0;
	}
	e = dlerror();
	return rv_error_set(RV_ENOTSUP,
	                    "no NVIDIA driver on this machine (%s); cublas runs on NVIDIA GPUs",
	                    e ? e : "libcuda.so.1 does not load");
}

#ifndef RV_CUDA_MODULE_DIR /* no CUDA toolkit at configure time: no module */
#define RV_CUDA_MODULE_DIR "."
#define RV_CUDA_UNBUILT    "built without CUDA (no CUDA toolkit at configure time)"
#else
#define RV_CUDA_UNBUILT NULL
#endif

static struct rv_kernel_module cuda_module = {
	.file = RV_CUDA_MODULE_FILE,
	.build_dir = RV_CUDA_MODULE_DIR,
	.what = "CUDA module",
	.var = "ROOFVAL_CUDA_MODULE",
	.sym = "rv_cuda_module",
	.missing_hint = "",
	.unbuilt = RV_CUDA_UNBUILT,
};

static const char *want(const struct rv_env *env)
{
	return env ? env->cuda_module : NULL;
}

/* The driver first: without it the module cannot run whatever its state. */
static int cuda_probe(const struct rv_env *env)
{
	int err = driver_check();

	if (err < 0 && cuda_module.unbuilt)
		return rv_error_set(RV_ENOTSUP, "%s, and no NVIDIA driver on this machine",
		                    cuda_module.unbuilt);
	return err < 0 ? err : rv_kernel_fwd_probe(&cuda_module, want(env), env);
}

static int cuda_supports(enum rv_op op, enum rv_dtype d)
{
	return rv_kernel_fwd_supports(&cuda_module, op, d);
}

static int cuda_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                      const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	return rv_kernel_fwd_setup(&rv_kernel_cublas, want(env), out, env, op, s, d, seed);
}

static const char *cuda_provider(void)
{
	return rv_kernel_fwd_provider(&cuda_module, cuda_module.unbuilt
	                                                    ? "none (built without CUDA)"
	                                                    : "none (no CUDA module)");
}

const struct rv_kernel_ops rv_kernel_cublas = {
	.name = RV_CUBLAS_NAME,
	.version = RV_KERNEL_OPS_VERSION,
	.summary = RV_CUBLAS_SUMMARY,
	.probe = cuda_probe,
	.supports = cuda_supports,
	.setup = cuda_setup,
	.run = rv_kernel_fwd_run,
	.check = rv_kernel_fwd_check,
	.teardown = rv_kernel_fwd_teardown,
	.provider = cuda_provider,
	.time_run = rv_kernel_fwd_time_run,
	.flush = rv_kernel_fwd_flush,
	.module = &cuda_module,
};
