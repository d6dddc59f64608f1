/* SPDX-License-Identifier: MIT */
/* The torch kernel backend: matmul, linear and vector_add through libtorch's
 * operators (at::matmul, at::linear, at::add), as a PyTorch program calls
 * them, on the CPU or a CUDA GPU. The work is done by the torch module
 * (libroofval-torch.so, see kernel/torch_module.h), which this table loads
 * with dlopen at the first probe and forwards to; without libtorch at
 * configure time there is no module, and the probe says so. */
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/build_info.h"
#include "core/error.h"
#include "kernel/kernel.h"
#include "kernel/torch_module.h"

extern const struct rv_kernel_ops rv_kernel_torch;

#ifndef RV_TORCH_MODULE_DIR /* no libtorch at configure time: no module */
#define RV_TORCH_MODULE_DIR "."
#define RV_TORCH_UNBUILT                                                                      \
	"built without libtorch (no Torch package found at configure time, RV_TORCH=OFF, or " \
	"a sanitizer build): install libtorch-dev, or give CMAKE_PREFIX_PATH a PyTorch's "    \
	"torch.utils.cmake_prefix_path, and rebuild"
#else
#define RV_TORCH_UNBUILT NULL
#endif

static struct rv_kernel_module torch_module = {
	.file = RV_TORCH_MODULE_FILE,
	.build_dir = RV_TORCH_MODULE_DIR,
	.what = "torch module",
	.var = "ROOFVAL_TORCH_MODULE",
	.sym = "rv_torch_module",
	.missing_hint = "",
	.load_hint = "is the libtorch it was built against installed?",
	.unbuilt = RV_TORCH_UNBUILT,
};

static const char *want(const struct rv_env *env)
{
	return env ? env->torch_module : NULL;
}

static int torch_probe(const struct rv_env *env)
{
	return rv_kernel_fwd_probe(&torch_module, want(env), env);
}

static int torch_supports(enum rv_op op, enum rv_dtype d)
{
	return rv_kernel_fwd_supports(&torch_module, op, d);
}

static int torch_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                       const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	return rv_kernel_fwd_setup(&rv_kernel_torch, want(env), out, env, op, s, d, seed);
}

static const char *torch_provider(void)
{
	return rv_kernel_fwd_provider(&torch_module, torch_module.unbuilt
	                                                     ? "none (built without libtorch)"
	                                                     : "none (no torch module)");
}

static const char *torch_caveat(unsigned cpu_vector_bits)
{
	return rv_kernel_fwd_caveat(&torch_module, cpu_vector_bits);
}

const struct rv_kernel_ops rv_kernel_torch = {
	.name = RV_TORCH_NAME,
	.version = RV_KERNEL_OPS_VERSION,
	.summary = RV_TORCH_SUMMARY,
	.probe = torch_probe,
	.supports = torch_supports,
	.setup = torch_setup,
	.run = rv_kernel_fwd_run,
	.check = rv_kernel_fwd_check,
	.teardown = rv_kernel_fwd_teardown,
	.provider = torch_provider,
	.caveat = torch_caveat,
	.time_run = rv_kernel_fwd_time_run,
	.flush = rv_kernel_fwd_flush,
	.module = &torch_module,
};
