/* SPDX-License-Identifier: MIT */
/* A main() for the fuzz targets without a fuzzing engine: runs each file
 * named on the command line through LLVMFuzzerTestOneInput once. Used with
 * -DRV_FUZZ_ENGINE= (empty) to replay inputs under any compiler, and with
 * AFL++'s classic mode (afl-clang-fast without -fsanitize=fuzzer). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "io/file.h"

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *data;
		size_t len;

		if (rv_file_read(&data, &len, argv[i]) < 0) {
			fprintf(stderr, "%s\n", rv_error_last());
			return 1;
		}
		(void)LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		free(data);
	}
	return 0;
}
