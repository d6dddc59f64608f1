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
	.extra = { "rv_cblas_module_release", "rv_cblas_module_sgemm" },
	.extra_flags = CBLAS_DEEPBIND,
};

static const char *want(const struct rv_env *env)
{
	return env ? env->cblas_module : NULL;
}

static int cblas_probe(const struct rv_env *env)
{
	return rv_kernel_fwd_probe(&cblas_module, want(env), env);
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
	return rv_kernel_fwd_setup(&rv_kernel_cblas, want(env), out, env, op, s, d, seed);
}

static const char *cblas_provider(void)
{
	return rv_kernel_fwd_provider(&cblas_module, "none (no cblas module)");
}

static const char *cblas_caveat(unsigned cpu_vector_bits)
{
	return rv_kernel_fwd_caveat(&cblas_module, cpu_vector_bits);
}

void rv_kernel_cblas__release(void)
{
	rv_cblas_module_release_fn release;

	if (!cblas_module.impl)
		return;
	memcpy(&release, &cblas_module.extra_sym[0], sizeof(release));
	release();
}

const void *rv_kernel_cblas__sgemm(void)
{
	rv_cblas_module_sgemm_fn sgemm;

	if (rv_kernel_module_load(&cblas_module, NULL) < 0)
		return NULL;
	memcpy(&sgemm, &cblas_module.extra_sym[1], sizeof(sgemm));
	return sgemm();
}

const struct rv_kernel_ops rv_kernel_cblas = {
	.name = RV_CBLAS_NAME,
	.version = RV_KERNEL_OPS_VERSION,
	.summary = RV_CBLAS_SUMMARY,
	.probe = cblas_probe,
	.supports = cblas_supports,
	.setup = cblas_setup,
	.run = rv_kernel_fwd_run,
	.check = rv_kernel_fwd_check,
	.teardown = rv_kernel_fwd_teardown,
	.provider = cblas_provider,
	.caveat = cblas_caveat,
	.module = &cblas_module,
};
