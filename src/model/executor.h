/* SPDX-License-Identifier: MIT */
/* Executors: how a kernel library runs a GEMM (and an add) on a target,
 * each a const table of function pointers in a folder of its own under
 * src/model/, listed once in hw/executors.def. A profile names its executor
 * ("executor"; by default blas_l3 for class cpu, tiled_waves otherwise) and
 * carries only that executor's keys (docs/hardware-profile.md).
 *
 *   tiled_waves  output tiles in waves over the units, the last wave whole
 *                or balanced, a GPU's DRAM traffic wave by wave, the p-norm
 *                of compute and DRAM time (cuBLAS on GPUs and Jetsons)
 *   blas_l3      a CPU BLAS's level 3: its threading, packing, small-matrix
 *                kernel, packed kernel's blocks, zeroing pass, bias handling
 *
 * Both fill the terms of r on the roofline core (model/roofline.h);
 * rv_predict() adds the call overhead and the energy. */
#ifndef RV_MODEL_EXECUTOR_H
#define RV_MODEL_EXECUTOR_H

#include "hw/profile.h"
#include "model/predict.h"

/* 1: gemm and elementwise bodies. */
#define RV_EXECUTOR_OPS_VERSION 1u

struct rv_executor_ops {
	const char *name; /* as hw/executors.def names it */
	unsigned version; /* RV_EXECUTOR_OPS_VERSION */
	/* The body time of a GEMM (matmul (M, K, N); linear (B, IN, OUT), the
	 * same GEMM with a bias) of elements of e bytes at compute entry c,
	 * filling every term of r but the overhead and the energy. */
	double (*gemm)(struct rv_prediction *r, const struct rv_profile *p,
	               const struct rv_compute *c, const struct rv_shape *s, enum rv_op op,
	               double e);
	/* The same for an elementwise op (vector_add) in dtype d. */
	double (*elementwise)(struct rv_prediction *r, const struct rv_profile *p,
	                      const struct rv_compute *c, const struct rv_shape *s,
	                      enum rv_dtype d);
};

#define RV_EXECUTOR(id, name) extern const struct rv_executor_ops rv_executor_##name;
#include "hw/executors.def"
#undef RV_EXECUTOR

/* The ops table of executor x (never NULL for a value of enum rv_executor). */
const struct rv_executor_ops *rv_executor_ops(enum rv_executor x);

#endif
