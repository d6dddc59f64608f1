/* SPDX-License-Identifier: MIT */
/* The contract between the cblas kernel backend (src/kernel/cblas.c, in the
 * core) and the cblas module that implements it (src/kernel/cblas_module.c,
 * built into libroofval-cblas.so with OpenBLAS). The backend loads the module
 * with dlopen only when a capture asks for it, so that every other command,
 * and the library, start without OpenBLAS and its worker threads; the core's
 * GSL takes its CBLAS from libgslcblas. The module links its own copy of the
 * core, so its error messages live there: the backend copies them over after
 * each call. It is opened with RTLD_DEEPBIND (but under AddressSanitizer,
 * which refuses it), so that its cblas_* calls bind to OpenBLAS, not to the
 * libgslcblas the executable brings. */
#ifndef RV_KERNEL_CBLAS_MODULE_H
#define RV_KERNEL_CBLAS_MODULE_H

#include "kernel/kernel.h"

/* The module's file name, looked for at the env's cblas_module (a path: the
 * CLI takes it from $ROOFVAL_CBLAS_MODULE), else in the one module folder
 * (rv_module_dir(): the build folder, or <libdir>/roofval/modules once
 * installed). */
#define RV_CBLAS_MODULE_FILE "libroofval-cblas.so"

/* The backend's name and summary, the same in the module's table and the
 * backend's. */
#define RV_CBLAS_NAME    "cblas"
#define RV_CBLAS_SUMMARY "matmul, linear and vector_add in fp32 and fp64 on the CPU (OpenBLAS)"

/* The module's kernel backend table (version RV_KERNEL_OPS_VERSION). */
const struct rv_kernel_ops *rv_cblas_module_ops(void);
/* The module's last error message (its copy of rv_error_last()). */
const char *rv_cblas_module_error(void);
/* Frees the buffers the module keeps between setups. */
void rv_cblas_module_release(void);
/* The cblas_sgemm the module's kernels call (to check it is OpenBLAS's). */
const void *rv_cblas_module_sgemm(void);

typedef const struct rv_kernel_ops *(*rv_cblas_module_ops_fn)(void);
typedef const char *(*rv_cblas_module_error_fn)(void);
typedef void (*rv_cblas_module_release_fn)(void);
typedef const void *(*rv_cblas_module_sgemm_fn)(void);

#endif
