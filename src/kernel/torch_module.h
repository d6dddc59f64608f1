/* SPDX-License-Identifier: MIT */
/* The contract between the torch kernel backend (src/kernel/torch.c, in
 * every build) and the torch module that implements it
 * (src/kernel/torch/torch_module.cpp, built into libroofval-torch.so when
 * CMake finds libtorch). The backend loads the module with dlopen only at its
 * first probe, so that every other command starts without libtorch (about
 * 300 MiB of libraries and a thread pool), and roofval builds and runs where
 * no libtorch is installed. The module links its own copy of the core, so
 * its error messages live there: the backend copies them over after each
 * call. C linkage on both sides. */
#ifndef RV_KERNEL_TORCH_MODULE_H
#define RV_KERNEL_TORCH_MODULE_H

#include "kernel/kernel.h"

/* The module's file name, looked for at the env's torch_module (a path: the
 * CLI takes it from $ROOFVAL_TORCH_MODULE), else in the one module folder
 * (rv_module_dir(): the build folder, or <libdir>/roofval/modules once
 * installed). */
#define RV_TORCH_MODULE_FILE "libroofval-torch.so"

/* The backend's name and summary, the same in the module's table and the
 * backend's. */
#define RV_TORCH_NAME "torch"
#define RV_TORCH_SUMMARY                                                                \
	"matmul (at::matmul), linear (at::linear, bias), vector_add (at::add) through " \
	"libtorch, on the CPU or a CUDA GPU, fresh outputs as PyTorch code gets them"

#ifdef __cplusplus
extern "C" {
#endif

/* The module's kernel backend table (version RV_KERNEL_OPS_VERSION). */
const struct rv_kernel_ops *rv_torch_module_ops(void);
/* The module's last error message (its copy of rv_error_last()). */
const char *rv_torch_module_error(void);

#ifdef __cplusplus
}
#endif

typedef const struct rv_kernel_ops *(*rv_torch_module_ops_fn)(void);
typedef const char *(*rv_torch_module_error_fn)(void);

#endif
