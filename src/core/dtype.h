/* SPDX-License-Identifier: MIT */
/* Element types: names as in sweeps and baselines, and storage size. */
#ifndef RV_CORE_DTYPE_H
#define RV_CORE_DTYPE_H

enum rv_dtype {
	RV_DTYPE_FP64,
	RV_DTYPE_FP32,
	RV_DTYPE_TF32, /* fp32 storage, reduced-precision tensor-core math */
	RV_DTYPE_FP16,
	RV_DTYPE_BF16,
	RV_DTYPE_FP8_E4M3,
	RV_DTYPE_FP8_E5M2,
	RV_DTYPE_INT64,
	RV_DTYPE_INT32,
	RV_DTYPE_INT16,
	RV_DTYPE_INT8,
	RV_DTYPE_INT4,
	RV_DTYPE_FP4,
	RV_DTYPE_COUNT
};

/* RV_EPARSE, naming the known dtypes, when name is not one of them. */
int rv_dtype_parse(const char *name, enum rv_dtype *out);
const char *rv_dtype_name(enum rv_dtype d);
/* Storage bits per element (tf32 is stored as fp32: 32; int4 and fp4: 4). */
unsigned rv_dtype_bits(enum rv_dtype d);
/* Bytes per element, fractional for 4-bit types. */
double rv_dtype_bytes(enum rv_dtype d);

#endif
