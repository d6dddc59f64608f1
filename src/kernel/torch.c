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

#ifdef RV_TORCH_MODULE_DIR

static struct rv_kernel_module torch_module = {
	.file = RV_TORCH_MODULE_FILE,
	.build_dir = RV_TORCH_MODULE_DIR,
	.what = "torch module",
	.var = "ROOFVAL_TORCH_MODULE",
	.sym = "rv_torch_module",
	.missing_hint = "",
	.load_hint = "is the libtorch it was built against installed?",
};

/* Loads the module once, from where env says (the first call decides; NULL:
 * the places searched by default); 0, or RV_ENOTSUP saying why. */
static int module_load(const struct rv_env *env)
{
	return rv_kernel_module_load(&torch_module, env ? env->torch_module : NULL);
}

static int carry(int err)
{
	return rv_kernel_module_carry(&torch_module, err);
}

static int torch_probe(const struct rv_env *env)
{
	int err = module_load(env);

	return err < 0 ? err : carry(torch_module.impl->probe(env));
}

static int torch_supports(enum rv_op op, enum rv_dtype d)
{
	return module_load(NULL) == 0 && torch_module.impl->supports(op, d);
}

static int torch_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                       const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	int err = module_load(env);

	*out = NULL;
	if (err < 0)
		return err;
	err = carry(torch_module.impl->setup(out, env, op, s, d, seed));
	/* Calls through the instance's ops come back here, to carry the
	 * module's messages over (the module never reads its ops). */
	if (err == 0)
		(*out)->ops = &rv_kernel_torch;
	return err;
}

/* The calls below come after a setup that succeeded: the module is loaded. */
static int torch_run(struct rv_kernel *k, uint64_t iters)
{
	return carry(torch_module.impl->run(k, iters));
}

static int torch_check(struct rv_kernel *k, double *max_rel_err)
{
	return carry(torch_module.impl->check(k, max_rel_err));
}

static void torch_teardown(struct rv_kernel *k)
{
	if (k)
		torch_module.impl->teardown(k);
}

static int torch_time_run(struct rv_kernel *k, uint64_t iters, double *seconds)
{
	return carry(torch_module.impl->time_run(k, iters, seconds));
}

static int torch_flush(struct rv_kernel *k)
{
	return carry(torch_module.impl->flush(k));
}

static const char *torch_provider(void)
{
	return module_load(NULL) == 0 ? torch_module.impl->provider() : "none (no torch module)";
}

#else /* no libtorch at configure time: no module */

static int torch_probe(const struct rv_env *env)
{
	(void)env;
	return rv_error_set(RV_ENOTSUP,
	                    "built without libtorch (no Torch package found at configure time, "
	                    "RV_TORCH=OFF, or a sanitizer build): install libtorch-dev, or give "
	                    "CMAKE_PREFIX_PATH a PyTorch's torch.utils.cmake_prefix_path, and "
	                    "rebuild");
}

static int torch_supports(enum rv_op op, enum rv_dtype d)
{
	(void)op;
	(void)d;
	return 0;
}

static int torch_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                       const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	(void)env;
	(void)op;
	(void)s;
	(void)d;
	(void)seed;
	*out = NULL;
	return torch_probe(NULL);
}

static int torch_run(struct rv_kernel *k, uint64_t iters)
{
	(void)k;
	(void)iters;
	return torch_probe(NULL);
}

static int torch_check(struct rv_kernel *k, double *max_rel_err)
{
	(void)k;
	*max_rel_err = (double)NAN;
	return torch_probe(NULL);
}

static void torch_teardown(struct rv_kernel *k)
{
	(void)k;
}

static int torch_time_run(struct rv_kernel *k, uint64_t iters, double *seconds)
{
	(void)k;
	(void)iters;
	*seconds = (double)NAN;
	return torch_probe(NULL);
}

static const char *torch_provider(void)
{
	return "none (built without libtorch)";
}

#define torch_flush NULL

#endif

const struct rv_kernel_ops rv_kernel_torch = {
	.name = RV_TORCH_NAME,
	.version = RV_KERNEL_OPS_VERSION,
	.summary = RV_TORCH_SUMMARY,
	.probe = torch_probe,
	.supports = torch_supports,
	.setup = torch_setup,
	.run = torch_run,
	.check = torch_check,
	.teardown = torch_teardown,
	.provider = torch_provider,
	.time_run = torch_time_run,
	.flush = torch_flush,
};
