/* SPDX-License-Identifier: MIT */
/* The contract between the cublas kernel backend (src/kernel/cublas.c, in
 * every build) and the CUDA module that implements it
 * (src/kernel/cuda/cublas_module.c, built into libroofval-cuda.so when CMake
 * finds the CUDA toolkit). The backend loads the module with dlopen only
 * when a capture asks for it, so that every other command starts without
 * loading cuBLAS (about 90 ms and 220 MiB), and roofval runs where no CUDA
 * runtime is installed. The module links its own copy of the core, so its
 * error messages live there: the backend copies them over after each call. */
#ifndef RV_KERNEL_CUDA_MODULE_H
#define RV_KERNEL_CUDA_MODULE_H

#include "kernel/kernel.h"

/* The module's file name, looked for at the env's cuda_module (a path: the
 * CLI takes it from $ROOFVAL_CUDA_MODULE), else in the one module folder
 * (rv_module_dir(): the build folder, or <libdir>/roofval/modules once
 * installed). */
#define RV_CUDA_MODULE_FILE "libroofval-cuda.so"

/* The backend's name and summary, the same in the module's table and the
 * backend's. */
#define RV_CUBLAS_NAME "cublas"
#define RV_CUBLAS_SUMMARY \
	"matmul (cublasGemmEx), linear (cuBLASLt, bias epilogue), vector_add on NVIDIA GPUs"

/* The module's kernel backend table (version RV_KERNEL_OPS_VERSION). */
const struct rv_kernel_ops *rv_cuda_module_ops(void);
/* The module's last error message (its copy of rv_error_last()). */
const char *rv_cuda_module_error(void);

typedef const struct rv_kernel_ops *(*rv_cuda_module_ops_fn)(void);
typedef const char *(*rv_cuda_module_error_fn)(void);

#endif
