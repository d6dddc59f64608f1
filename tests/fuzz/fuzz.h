/* SPDX-License-Identifier: MIT */
/* Shared checks of the fuzz targets. Each target is a libFuzzer entry point
 * (LLVMFuzzerTestOneInput) over one loader; AFL++ builds the same sources
 * with afl-clang-fast -fsanitize=fuzzer. A property that does not hold calls
 * abort(), which the fuzzer reports as a crash with the input that broke it. */
#ifndef RV_TESTS_FUZZ_H
#define RV_TESTS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"

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

/* Two renderings must be the same bytes. */
static inline void fuzz_check_same(const struct rv_buf *a, const struct rv_buf *b, const char *what)
{
	if (a->len != b->len || memcmp(a->data, b->data, a->len) != 0)
		fuzz_fail(what, "a second write differs from the first");
}

#endif
