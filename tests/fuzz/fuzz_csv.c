/* SPDX-License-Identifier: MIT */
/* Fuzz target: the baseline CSV reader (rv_baseline_parse). Properties: no
 * crash, leak or undefined behaviour; a rejected input gets a one-line
 * message naming the file; an accepted one renders to CSV that parses again
 * and renders to the same bytes (a rewrite never changes or loses data). */
#include "fuzz.h"
#include "io/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rv_baseline *b = NULL, *again = NULL;
	struct rv_buf first = RV_BUF_INIT, second = RV_BUF_INIT;
	int rc = rv_baseline_parse(&b, (const char *)data, size, "fuzz.csv");

	fuzz_check_message(rc, "fuzz.csv");
	if (rc < 0)
		return 0;
	if (rv_baseline_render(&first, b) < 0)
		fuzz_fail("render", rv_error_last());
	rc = rv_baseline_parse(&again, first.data, first.len, "again.csv");
	if (rc == RV_ENOMEM)
		goto out;
	if (rc < 0)
		fuzz_fail("an accepted baseline renders to text that does not parse",
		          rv_error_last());
	if (again->n_rows != b->n_rows || again->n_extra != b->n_extra)
		fuzz_fail("round trip", "rows or columns changed");
	if (rv_baseline_render(&second, again) < 0)
		fuzz_fail("render", rv_error_last());
	fuzz_check_same(&first, &second, "baseline round trip");
	/* Sorting is what a save does; a sorted baseline renders all the same. */
	rv_baseline_sort(again);
	rv_buf_reset(&second);
	if (rv_baseline_render(&second, again) < 0)
		fuzz_fail("render", rv_error_last());
out:
	rv_buf_free(&first);
	rv_buf_free(&second);
	rv_baseline_free(again);
	rv_baseline_free(b);
	return 0;
}
