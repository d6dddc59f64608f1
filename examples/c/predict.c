/* SPDX-License-Identifier: MIT */
/* libroofval in a dozen lines: predict a few shapes on a shipped profile,
 * then validate the built-in model against a baseline folder.
 *
 *   cc predict.c $(pkg-config --cflags --libs roofval) -o predict
 *   ./predict [HW [BASELINE_DIR]]                      (default: i7_12700k) */
#include <roofval/roofval.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	const char *key = argc > 1 ? argv[1] : "i7_12700k";
	const rv_dims shapes[] = { { { 64, 64, 64 } },
		                   { { 512, 512, 512 } },
		                   { { 4096, 4096, 4096 } } };
	rv_cost cost[3];
	rv_data *d;
	const rv_hw *hw;

	if (rv_data_open(&d, NULL, NULL, argc > 2 ? argv[2] : NULL) < 0 ||
	    rv_data_hw(d, key, &hw) < 0 ||
	    rv_hw_predict_batch(hw, "matmul", NULL, shapes, 3, cost) < 0)
		goto fail;
	printf("libroofval %s, %s (%s)\n", rv_version(), rv_hw_key(hw), rv_hw_name(hw));
	for (int i = 0; i < 3; i++)
		printf("matmul %llux%llux%llu: %.3g s, %.3g J, %s-bound\n",
		       (unsigned long long)shapes[i].dim[0], (unsigned long long)shapes[i].dim[1],
		       (unsigned long long)shapes[i].dim[2], cost[i].latency_s, cost[i].energy_J,
		       rv_binding_name(cost[i].binding));
	if (argc > 2) { /* validate every baseline of the folder, print the summary line */
		rv_validate_opts opts = RV_VALIDATE_OPTS_INIT;
		char *report;
		int passed;

		if (rv_data_validate(d, &opts, "text", &report, NULL, &passed) < 0)
			goto fail;
		fputs(report, stdout);
		free(report);
		printf("validation %s\n", passed ? "passed" : "has failures");
	}
	rv_data_free(d);
	return 0;
fail:
	fprintf(stderr, "predict: %s\n", rv_error_last());
	return 1;
}
