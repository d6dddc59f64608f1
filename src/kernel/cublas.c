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

#ifdef RV_CUDA_MODULE_DIR

static struct rv_kernel_module cuda_module = {
	.file = RV_CUDA_MODULE_FILE,
	.build_dir = RV_CUDA_MODULE_DIR,
	.what = "CUDA module",
	.var = "ROOFVAL_CUDA_MODULE",
	.sym = "rv_cuda_module",
	.missing_hint = "",
};

/* Loads the module once, from where env says (the first call decides; NULL:
 * the places searched by default); 0, or RV_ENOTSUP saying why. */
static int module_load(const struct rv_env *env)
{
	return rv_kernel_module_load(&cuda_module, env ? env->cuda_module : NULL);
}

static int carry(int err)
{
	return rv_kernel_module_carry(&cuda_module, err);
}

static int cuda_probe(const struct rv_env *env)
{
	int err = driver_check();

	if (err < 0)
		return err;
	err = module_load(env);

	return err < 0 ? err : carry(cuda_module.impl->probe(env));
}

static int cuda_supports(enum rv_op op, enum rv_dtype d)
{
	return module_load(NULL) == 0 && cuda_module.impl->supports(op, d);
}

static int cuda_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                      const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	int err = module_load(env);

	*out = NULL;
	return err < 0 ? err : carry(cuda_module.impl->setup(out, env, op, s, d, seed));
}

/* The calls below come after a setup that succeeded: the module is loaded. */
static int cuda_run(struct rv_kernel *k, uint64_t iters)
{
	return carry(cuda_module.impl->run(k, iters));
}

static int cuda_check(struct rv_kernel *k, double *max_rel_err)
{
	return carry(cuda_module.impl->check(k, max_rel_err));
}

static void cuda_teardown(struct rv_kernel *k)
{
	if (k)
		cuda_module.impl->teardown(k);
}

static int cuda_time_run(struct rv_kernel *k, uint64_t iters, double *seconds)
{
	return carry(cuda_module.impl->time_run(k, iters, seconds));
}

static int cuda_flush(struct rv_kernel *k)
{
	return carry(cuda_module.impl->flush(k));
}

static const char *cuda_provider(void)
{
	return module_load(NULL) == 0 ? cuda_module.impl->provider() : "none (no CUDA module)";
}

#else /* no CUDA toolkit: no module */

static int cuda_probe(const struct rv_env *env)
{
	(void)env;
	if (driver_check() < 0)
		return rv_error_set(RV_ENOTSUP,
		                    "built without CUDA (no CUDA toolkit at configure time), and "
		                    "no NVIDIA driver on this machine");
	return rv_error_set(RV_ENOTSUP, "built without CUDA (no CUDA toolkit at configure time)");
}

static int cuda_supports(enum rv_op op, enum rv_dtype d)
{
	(void)op;
	(void)d;
	return 0;
}

static int cuda_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                      const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	(void)env;
	(void)op;
	(void)s;
	(void)d;
	(void)seed;
	*out = NULL;
	return cuda_probe(NULL);
}

static int cuda_run(struct rv_kernel *k, uint64_t iters)
{
	(void)k;
	(void)iters;
	return cuda_probe(NULL);
}

static int cuda_check(struct rv_kernel *k, double *max_rel_err)
{
	(void)k;
	*max_rel_err = (double)NAN;
	return cuda_probe(NULL);
}

static void cuda_teardown(struct rv_kernel *k)
{
	(void)k;
}

static const char *cuda_provider(void)
{
	return "none (built without CUDA)";
}

#define cuda_time_run NULL
#define cuda_flush    NULL

#endif

const struct rv_kernel_ops rv_kernel_cublas = {
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
