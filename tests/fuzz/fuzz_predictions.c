/* SPDX-License-Identifier: MIT */
/* Fuzz target: the predictions CSV reader (rv_predictions_parse), what
 * --predictions and an adapter command's output go through. Properties: no
 * crash, leak or undefined behaviour; a rejected input gets a one-line
 * message naming the file; an accepted one keeps its extra columns' values
 * for every row, finds each of its rows by key, and renders to CSV that
 * parses again to the same rows and renders to the same bytes. */
#include "fuzz.h"
#include "predictions/predictions.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rv_prediction_set *set = NULL, *again = NULL;
	struct rv_buf first = RV_BUF_INIT, second = RV_BUF_INIT;
	int rc = rv_predictions_parse(&set, (const char *)data, size, "fuzz.csv", "fuzz");

	fuzz_check_message(rc, "fuzz.csv");
	if (rc < 0)
		return 0;
	if (set->n_extra_values != set->n_rows * set->n_extra)
		fuzz_fail("extra columns", "a row without its values of the extra columns");
	for (size_t i = 0; i < set->n_rows; i++) {
		const struct rv_prediction_row *r = &set->rows[i];

		if (rv_predictions_find(set, r->hardware, r->op, &r->shape, r->dtype) != r)
			fuzz_fail("find", "a row of the set is not found by its key");
		if (!(r->latency_s > 0) || !isfinite(r->latency_s))
			fuzz_fail("parse", "a latency that is not finite and positive");
		if (set->n_extra && r->extra_at + set->n_extra > set->n_extra_values)
			fuzz_fail("extra columns", "a row's values past the set's");
	}
	if (rv_predictions_render(&first, set) < 0)
		fuzz_fail("render", rv_error_last());
	rc = rv_predictions_parse(&again, first.data, first.len, "again.csv", "fuzz");
	if (rc == RV_ENOMEM)
		goto out;
	if (rc < 0)
		fuzz_fail("accepted predictions render to text that does not parse",
		          rv_error_last());
	if (again->n_rows != set->n_rows)
		fuzz_fail("round trip", "rows changed");
	if (rv_predictions_render(&second, again) < 0)
		fuzz_fail("render", rv_error_last());
	fuzz_check_same(&first, &second, "predictions round trip");
out:
	rv_buf_free(&first);
	rv_buf_free(&second);
	rv_predictions_free(again);
	rv_predictions_free(set);
	return 0;
}
