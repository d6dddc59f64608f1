/* SPDX-License-Identifier: MIT */
/* The built-in analytical model: the latency and energy of one call of an
 * op on a shape, on a hardware profile (roofval/data.h). rv_hw_predict()
 * and rv_hw_predict_batch() are pure computation: no I/O, no allocation,
 * safe to call from several threads at once on the same rv_hw, and fast
 * enough to serve as the cost model of a search loop (docs/benchmarks.md:
 * rv_hw_predict_batch). The reports below (one shape with the terms behind
 * it, the classifier's regime, the predictions CSV of the sweeps) are what
 * roofval predict and classify print. */
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

/* The prediction of one shape with every term behind it (overhead,
 * compute, each memory tier, GEMM tiles and waves with their efficiencies,
 * fresh pages, the energy terms), as roofval predict prints it: format
 * "text" (NULL) or "json" (schema roofval.predict/1).
 * On success *report is a NUL-terminated string owned by the caller
 * (free() it) and, when len is not NULL, *len its length. Errors: those of
 * rv_hw_predict(), RV_EPARSE for another format, RV_ENOMEM. */
RV_API int rv_hw_predict_report(const rv_hw *hw, const char *op, const char *dtype,
                                const rv_dims *shape, const char *format, char **report,
                                size_t *len);
/* The regime the classifier gives one shape (launch, compute, memory, ...,
 * or unsupported when the profile lacks the dtype: a result, not an error)
 * with the rule that decided and the numbers behind it, as roofval classify
 * prints it: format "text" (NULL) or "json" (schema roofval.classify/1: the
 * same numbers, unrounded). Ownership and errors as
 * rv_hw_predict_report(), but for the unsupported dtype. */
RV_API int rv_hw_classify_report(const rv_hw *hw, const char *op, const char *dtype,
                                 const rv_dims *shape, const char *format, char **report,
                                 size_t *len);

/* The built-in model's predictions of every entry the sweeps of d label
 * (and can score) for the profile hw, of op (NULL: every op) and purpose
 * ("calibration", "validation"; NULL: both), once each, as a predictions
 * CSV (docs/predictions-csv.md) in *csv (owned by the caller: free() it;
 * *len its length when len is not NULL): roofval predict --format csv.
 * Errors: RV_EPARSE for an unknown op or purpose, RV_ENOENT for a missing
 * profile or sweep, the loaders' errors, RV_ENOMEM. */
RV_API int rv_data_predictions(rv_data *d, const char *hw, const char *op, const char *purpose,
                               char **csv, size_t *len);

RV_END_DECLS

#endif
