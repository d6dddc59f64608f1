/* SPDX-License-Identifier: MIT */
/* OpenBLAS's cores by the vector width of their GEMM kernels, for the
 * caveat of a backend whose BLAS is OpenBLAS (kernel.h: caveat): the cblas
 * module asks its own OpenBLAS, the torch module the one libtorch loaded.
 * An OpenBLAS that does not know the CPU falls back to old kernels (0.3.21
 * runs its Prescott ones on an Emerald Rapids Xeon). */
#ifndef RV_KERNEL_OPENBLAS_CORE_H
#define RV_KERNEL_OPENBLAS_CORE_H

#include <stddef.h>

/* The caveat for OpenBLAS core (the name openblas_get_corename() gives:
 * DYNAMIC_ARCH's, or a single-target build's in capitals) on a CPU whose FMA
 * datapath is cpu_vector_bits wide, in buf (one line: the kernels, the share
 * of the rate they can reach, what to set), or NULL when they use the whole
 * width or nothing is known. */
const char *rv_openblas_caveat(char *buf, size_t size, const char *core, unsigned cpu_vector_bits);

#endif
