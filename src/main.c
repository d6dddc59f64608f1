/* SPDX-License-Identifier: MIT */
/* roofval: validate analytical performance models against measured baselines. */
#include <locale.h>
#include <stdio.h>

#include "cli/cli.h"

int main(int argc, char **argv)
{
	/* Numbers in CSV and JSON always use a decimal point. */
	(void)setlocale(LC_ALL, "C");
	/* It ends with standard output flushed and closed: a write error on it
	 * is a message naming the command and exit 1. */
	return rv_cli_main(argc, argv);
}
