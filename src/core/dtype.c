/* SPDX-License-Identifier: MIT */
/* The dtype table. */
#include "core/dtype.h"

#include <string.h>

#include "core/error.h"
#include "core/near.h"

/* clang-format off */
static const struct {
	const char *name;
	unsigned bits;
} rv_dtypes[RV_DTYPE_COUNT] = {
	[RV_DTYPE_FP64]     = { "fp64",     64 },
	[RV_DTYPE_FP32]     = { "fp32",     32 },
	[RV_DTYPE_TF32]     = { "tf32",     32 },
	[RV_DTYPE_FP16]     = { "fp16",     16 },
	[RV_DTYPE_BF16]     = { "bf16",     16 },
	[RV_DTYPE_FP8_E4M3] = { "fp8_e4m3",  8 },
	[RV_DTYPE_FP8_E5M2] = { "fp8_e5m2",  8 },
	[RV_DTYPE_INT64]    = { "int64",    64 },
	[RV_DTYPE_INT32]    = { "int32",    32 },
	[RV_DTYPE_INT16]    = { "int16",    16 },
	[RV_DTYPE_INT8]     = { "int8",      8 },
	[RV_DTYPE_INT4]     = { "int4",      4 },
	[RV_DTYPE_FP4]      = { "fp4",       4 },
};
/* clang-format on */

int rv_dtype_parse(const char *name, enum rv_dtype *out)
{
	for (int i = 0; i < RV_DTYPE_COUNT; i++) {
		if (strcmp(name, rv_dtypes[i].name) == 0) {
			*out = (enum rv_dtype)i;
			return 0;
		}
	}
	{
		const char *names[RV_DTYPE_COUNT];
		char near[96];

		for (int i = 0; i < RV_DTYPE_COUNT; i++)
			names[i] = rv_dtypes[i].name;
		return rv_error_set(
		        RV_EPARSE,
		        "unknown dtype '%s' (known: fp64 fp32 tf32 fp16 bf16 fp8_e4m3 fp8_e5m2 "
		        "int64 int32 int16 int8 int4 fp4)%s",
		        name, rv_near_hint(near, sizeof(near), name, names, RV_DTYPE_COUNT, NULL));
	}
}

const char *rv_dtype_name(enum rv_dtype d)
{
	return (unsigned)d < RV_DTYPE_COUNT ? rv_dtypes[d].name : "?";
}

unsigned rv_dtype_bits(enum rv_dtype d)
{
	return (unsigned)d < RV_DTYPE_COUNT ? rv_dtypes[d].bits : 0;
}

double rv_dtype_bytes(enum rv_dtype d)
{
	return rv_dtype_bits(d) / 8.0;
}
