/* SPDX-License-Identifier: MIT */
/* The cblas kernel backend: matmul, linear and vector_add in fp32 and fp64 on
 * the CPU through OpenBLAS. The work is done by the cblas module
 * (libroofval-cblas.so, see kernel/cblas_module.h), which this table loads
 * with dlopen at the first probe and forwards to, so that nothing but a
 * capture on a CPU loads OpenBLAS (and starts its threads). */
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/build_info.h"
#include "core/error.h"
#include "core/path.h"
#include "kernel/cblas_internal.h"
#include "kernel/cblas_module.h"
#include "kernel/kernel.h"

#ifndef RV_CBLAS_MODULE_DIR
#define RV_CBLAS_MODULE_DIR "."
#endif

/* The module's cblas_* calls must bind to OpenBLAS, which it links, not to
 * the libgslcblas already loaded with the core: RTLD_DEEPBIND puts the
 * module's own dependencies first. AddressSanitizer refuses it (and only
 * speed is lost without it: gslcblas computes the same results). */
#if defined(__SANITIZE_ADDRESS__)
#define CBLAS_DEEPBIND 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CBLAS_DEEPBIND 0
#endif
#endif
#ifndef CBLAS_DEEPBIND
#define CBLAS_DEEPBIND RTLD_DEEPBIND
#endif

extern const struct rv_kernel_ops rv_kernel_cblas;

static struct rv_kernel_module cblas_module = {
	.file = RV_CBLAS_MODULE_FILE,
	.build_dir = RV_CBLAS_MODULE_DIR,
	.what = "cblas module",
	.var = "ROOFVAL_CBLAS_MODULE",
	.sym = "rv_cblas_module",
	.missing_hint = " (the CPU kernels, with OpenBLAS)",
	.extra_flags = CBLAS_DEEPBIND,
};

/* The module's calls beyond its table. */
static struct {
	rv_cblas_module_release_fn release;
	rv_cblas_module_sgemm_fn sgemm;
} cblas_extra;

/* Copies the address of symbol name of dl into the function pointer at fn. */
static void module_sym(void *dl, const char *name, void *fn)
{
	void *sym = dlsym(dl, name);

	memcpy(fn, &sym, sizeof(sym));
}

/* Loads the module once, from where env says (the first call decides; NULL:
 * the places searched by default); 0, or RV_ENOTSUP saying why. */
static int module_load(const struct rv_env *env)
{
	int err;

	if (cblas_module.impl)
		return 0;
	if ((err = rv_kernel_module_load(&cblas_module, env ? env->cblas_module : NULL)) < 0)
		return err;
	_Static_assert(sizeof(void *) == sizeof(rv_cblas_module_sgemm_fn),
	               "function pointers are not void *");
	module_sym(cblas_module.dl, "rv_cblas_module_release", &cblas_extra.release);
	module_sym(cblas_module.dl, "rv_cblas_module_sgemm", &cblas_extra.sgemm);
	if (!cblas_extra.release || !cblas_extra.sgemm) {
		cblas_module.impl = NULL; /* tried: every later call says why */
		(void)snprintf(cblas_module.why, sizeof(cblas_module.why),
		               "the cblas module is not roofval %s's (no rv_cblas_module_release "
		               "or _sgemm): rebuild it with this roofval",
		               RV_VERSION);
		return rv_error_set(RV_ENOTSUP, "%s", cblas_module.why);
	}
	return 0;
}

static int carry(int err)
{
	return rv_kernel_module_carry(&cblas_module, err);
}

static int cblas_probe(const struct rv_env *env)
{
	int err = module_load(env);

	return err < 0 ? err : carry(cblas_module.impl->probe(env));
}

/* What the module runs, without loading it: the table must answer for
 * `roofval kernels` and capture planning alike, and the set is fixed. */
static int cblas_supports(enum rv_op op, enum rv_dtype d)
{
	return (op == RV_OP_MATMUL || op == RV_OP_LINEAR || op == RV_OP_VECTOR_ADD) &&
	       (d == RV_DTYPE_FP32 || d == RV_DTYPE_FP64);
}

static int cblas_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                       const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	int err = module_load(env);

	*out = NULL;
	if (err < 0)
		return err;
	err = carry(cblas_module.impl->setup(out, env, op, s, d, seed));
	/* Calls through the instance's ops come back here, to carry the
	 * module's messages over (the module never reads its ops). */
	if (err == 0)
		(*out)->ops = &rv_kernel_cblas;
	return err;
}

/* The calls below come after a setup that succeeded: the module is loaded. */
static int cblas_run(struct rv_kernel *k, uint64_t iters)
{
	return carry(cblas_module.impl->run(k, iters));
}

static int cblas_check(struct rv_kernel *k, double *max_rel_err)
{
	return carry(cblas_module.impl->check(k, max_rel_err));
}

static void cblas_teardown(struct rv_kernel *k)
{
	if (k)
		cblas_module.impl->teardown(k);
}

static const char *cblas_provider(void)
{
	return module_load(NULL) == 0 ? cblas_module.impl->provider() : "none (no cblas module)";
}

void rv_kernel_cblas__release(void)
{
	if (cblas_module.impl)
		cblas_extra.release();
}

const void *rv_kernel_cblas__sgemm(void)
{
	return module_load(NULL) == 0 ? cblas_extra.sgemm() : NULL;
}

const struct rv_kernel_ops rv_kernel_cblas = {
	.name = RV_CBLAS_NAME,
	.version = RV_KERNEL_OPS_VERSION,
	.summary = RV_CBLAS_SUMMARY,
	.probe = cblas_probe,
	.supports = cblas_supports,
	.setup = cblas_setup,
	.run = cblas_run,
	.check = cblas_check,
	.teardown = cblas_teardown,
	.provider = cblas_provider,
};
