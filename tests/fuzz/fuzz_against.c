/* SPDX-License-Identifier: MIT */
/* Fuzz target: the earlier report of the regression gate (validate
 * --against OLD.json: rv_report_parse_json). Properties: no crash, leak or
 * undefined behaviour; a rejected input gets a one-line message naming the
 * file; an accepted one holds only whole model names, and compared with
 * itself matches every record and finds no regression or improvement. */
#include "fuzz.h"
#include "model/validate.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rv_validation old;
	struct rv_comparison cmp;
	int rc = rv_report_parse_json(&old, (const char *)data, size, "fuzz.json");

	fuzz_check_message(rc, "fuzz.json");
	if (rc < 0) {
		rv_validation_free(&old);
		return 0;
	}
	for (size_t i = 0; i < old.n_models; i++)
		if (!old.models[i][0] || strlen(old.models[i]) >= RV_MODEL_NAME_MAX)
			fuzz_fail("models", "an empty or over-long model name was kept");
	rc = rv_validation_compare(&old, &old, 2.0, &cmp);
	if (rc == 0 &&
	    (cmp.n_regressions || cmp.n_improvements || cmp.n_old_only || cmp.n_new_only))
		fuzz_fail("compare", "a report compared with itself changed");
	if (rc < 0 && rc != RV_ENOMEM)
		fuzz_fail("compare", rv_error_last());
	rv_comparison_free(&cmp);
	rv_validation_free(&old);
	return 0;
}
