/* SPDX-License-Identifier: MIT */
/* Baseline text in and out for the tests of the schema and the CSV files. */
#ifndef RV_TESTS_RV_TEST_BASELINE_H
#define RV_TESTS_RV_TEST_BASELINE_H

#include "io/baseline.h"
#include "rv_test.h"

/* Parses text that must load; fails the test with the loader's message. */
static inline struct rv_baseline *rv_test_baseline_parse(const char *text)
{
	struct rv_baseline *b;

	if (rv_baseline_parse(&b, text, strlen(text), "b.csv") != 0)
		fail_msg("parse failed: %s", rv_error_last());
	return b;
}

/* Renders b; the caller frees the text. */
static inline char *rv_test_baseline_render(const struct rv_baseline *b)
{
	struct rv_buf out = RV_BUF_INIT;

	assert_int_equal(rv_baseline_render(&out, b), 0);
	return out.data;
}

#endif
