/* SPDX-License-Identifier: MIT */
/* The built-in analytical model: the latency and energy of one call of an
 * op on a shape, on a hardware profile (roofval/data.h). Pure computation:
 * no I/O, no allocation, safe to call from several threads at once on the
 * same rv_hw. Fast enough to serve as the cost model of a search loop
 * (docs/benchmarks.md: rv_hw_predict_batch). */
#ifndef ROOFVAL_PREDICT_H
#define ROOFVAL_PREDICT_H

#include <roofval/common.h>
#include <roofval/data.h>
#include <stddef.h>

RV_BEGIN_DECLS

/* What the model says about one call. */
typedef struct rv_cost {
	double latency_s; /* seconds, > 0 */
	double energy_J;  /* joules, > 0 */
	int binding;      /* what bounds the latency: rv_binding_name() */
} rv_cost;

/* The name of a binding resource: "compute", "overhead" (the per-call
 * overhead) or a memory tier ("l1", "l2", "l3", "dram", ...); "?" for a
 * value that is not one. Static storage. */
RV_API const char *rv_binding_name(int binding);

/* Predicts op ("matmul", "linear" or "vector_add") on shape in dtype
 * ("fp32", "fp16", "bf16", ...; NULL: the profile's default dtype) on hw,
 * into *out. Errors: RV_EPARSE for an unknown op or dtype; RV_ERANGE for a
 * dimension out of range; RV_ENOTSUP when the profile lacks the dtype (the
 * message names the dtypes it has). */
RV_API int rv_hw_predict(const rv_hw *hw, const char *op, const char *dtype, const rv_dims *shape,
                         rv_cost *out);
/* The same for n shapes of one op and dtype: out[i] for shapes[i]. The op
 * and dtype are looked up once, so a batch costs about the model alone. On
 * an error at shapes[i] (codes as rv_hw_predict(), the message starting
 * "shape i: ") it returns at once: out[0 .. i-1] are filled, the rest is
 * untouched. n = 0 is allowed. */
RV_API int rv_hw_predict_batch(const rv_hw *hw, const char *op, const char *dtype,
                               const rv_dims *shapes, size_t n, rv_cost *out);

RV_END_DECLS

#endif
