/* SPDX-License-Identifier: MIT */
/* Shared checks of the fuzz targets. Each target is a libFuzzer entry point
 * (LLVMFuzzerTestOneInput) over one loader; AFL++ builds the same sources
 * with afl-clang-fast -fsanitize=fuzzer. A property that does not hold calls
 * abort(), which the fuzzer reports as a crash with the input that broke it. */
#ifndef RV_TESTS_FUZZ_H
#define RV_TESTS_FUZZ_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"
#include "hw/profile.h"
#include "model/predict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops with a message: the fuzzer keeps the input as a crash. */
static inline void fuzz_fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, detail);
	abort();
}

/* A failure must leave one line, naming the input, for 'roofval: cmd: <it>'. */
static inline void fuzz_check_message(int rc, const char *name)
{
	const char *msg = rv_error_last();

	if (rc >= 0)
		return;
	if (rc == RV_ENOMEM)
		return;
	if (strchr(msg, '\n') || strchr(msg, '\r'))
		fuzz_fail("an error message spans several lines", msg);
	if (strncmp(msg, name, strlen(name)) != 0)
		fuzz_fail("an error message does not start with the input's name", msg);
}

/* A profile that loaded predicts a finite positive latency and a finite
 * energy, or refuses in one line (RV_ERANGE) when its values are too extreme. */
static inline void fuzz_check_predict(const struct rv_profile *p, enum rv_op op,
                                      const struct rv_shape *shape, enum rv_dtype dtype)
{
	struct rv_prediction pr;
	int rc = rv_predict(&pr, p, op, shape, dtype);

	if (rc == RV_ERANGE && !strchr(rv_error_last(), '\n'))
		return;
	if (rc < 0)
		fuzz_fail("predict", rv_error_last());
	if (!(pr.latency_s > 0) || !isfinite(pr.latency_s) || !isfinite(pr.energy_J))
		fuzz_fail("predict", "a latency or energy that is not finite and positive");
}

/* Two renderings must be the same bytes. */
static inline void fuzz_check_same(const struct rv_buf *a, const struct rv_buf *b, const char *what)
{
	if (a->len != b->len || memcmp(a->data, b->data, a->len) != 0)
		fuzz_fail(what, "a second write differs from the first");
}

#endif
