/* SPDX-License-Identifier: MIT */
/* roofval: validate analytical performance models against measured baselines. */
#include <locale.h>
#include <stdio.h>

#include "cli/cli.h"

int main(int argc, char **argv)
{
	int rc;

	/* Numbers in CSV and JSON always use a decimal point. */
	(void)setlocale(LC_ALL, "C");
	rc = rv_cli_main(argc, argv);
	/* A full disk or a closed pipe must not look like success. */
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		fprintf(stderr, "roofval: write error on standard output\n");
		return RV_EXIT_ERROR;
	}
	return rc;
}
