/* SPDX-License-Identifier: MIT */
/* Shared code of the cmocka unit tests. */
#ifndef RV_TESTS_RV_TEST_H
#define RV_TESTS_RV_TEST_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
/* cmocka.h needs setjmp.h, stdarg.h and stddef.h before it. */
#include <cmocka.h>

#include "core/error.h"

#define rv_assert_close(a, b, rtol, atol) rv_assert_close_(a, b, rtol, atol, __FILE__, __LINE__)

static inline void rv_assert_close_(double a, double b, double rtol, double atol, const char *file,
                                    int line)
{
	/* Written so that NaN and infinities never pass. */
	if (!(fabs(a - b) <= atol + rtol * fmax(fabs(a), fabs(b)))) {
		print_error("%.17g != %.17g (rtol %g, atol %g)\n", a, b, rtol, atol);
		_fail(file, line);
	}
}

/* Asserts rc == code and that the error message contains needle. */
#define rv_assert_error(rc, code, needle) rv_assert_error_(rc, code, needle, __FILE__, __LINE__)

static inline void rv_assert_error_(int rc, int code, const char *needle, const char *file,
                                    int line)
{
	if (rc != code || !strstr(rv_error_last(), needle)) {
		print_error("got %d \"%s\", wanted %d with \"%s\"\n", rc, rv_error_last(), code,
		            needle);
		_fail(file, line);
	}
}

/* Asserts that text contains needle. */
#define rv_assert_contains(text, needle) rv_assert_contains_(text, needle, __FILE__, __LINE__)

static inline void rv_assert_contains_(const char *text, const char *needle, const char *file,
                                       int line)
{
	if (!strstr(text, needle)) {
		print_error("\"%s\" does not contain \"%s\"\n", text, needle);
		_fail(file, line);
	}
}

/* Path of a fixture under tests/data, in a static buffer. */
static inline const char *rv_fixture_path(const char *rel)
{
	static char buf[4096];

	(void)snprintf(buf, sizeof(buf), "%s/%s", RV_TEST_DATA_DIR, rel);
	return buf;
}

/* The reference data folder (../shared/reference/upstream-v4) or NULL when
 * it is absent; $ROOFVAL_SHARED_DIR overrides the location of shared/. */
static inline const char *rv_reference_dir(void)
{
	static char buf[4096];
	const char *shared = getenv("ROOFVAL_SHARED_DIR");
	struct stat st;

	(void)snprintf(buf, sizeof(buf), "%s/reference/upstream-v4",
	               shared && *shared ? shared : RV_TEST_SHARED_DIR);
	return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? buf : NULL;
}

/* Skips the calling test, with the reason, when the reference data is absent. */
#define RV_SKIP_WITHOUT_REFERENCE(dir)                                                         \
	do {                                                                                   \
		if (!(dir)) {                                                                  \
			print_message(                                                         \
			        "[  SKIPPED ] ../shared/reference/upstream-v4 is absent; "     \
			        "set ROOFVAL_SHARED_DIR to the shared/ folder to run this\n"); \
			skip();                                                                \
		}                                                                              \
	} while (0)

/* A fresh empty folder under the build tree for one test, in a static buffer. */
static inline const char *rv_scratch_dir(const char *name)
{
	static char buf[4096];
	char cmd[8400];

	(void)snprintf(buf, sizeof(buf), "%s/%s", RV_TEST_SCRATCH_DIR, name);
	(void)snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", buf, buf);
	if (system(cmd) != 0)
		fail_msg("cannot create %s", buf);
	return buf;
}

/* Reads a whole file into a malloc'ed NUL-terminated buffer (NULL on failure). */
static inline char *rv_slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *data = NULL;
	long n;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
		data = malloc((size_t)n + 1);
		if (data && fread(data, 1, (size_t)n, fp) != (size_t)n) {
			free(data);
			data = NULL;
		}
		if (data) {
			data[n] = '\0';
			if (len)
				*len = (size_t)n;
		}
	}
	(void)fclose(fp);
	return data;
}

/* Writes text to path, replacing it; fails the test on error. */
static inline void rv_spit(const char *path, const char *text)
{
	FILE *fp = fopen(path, "wb");

	if (!fp || fwrite(text, 1, strlen(text), fp) != strlen(text) || fclose(fp) != 0)
		fail_msg("cannot write %s", path);
}

/* Compares actual with tests/golden/<name>. When they differ, actual goes to
 * a scratch folder of its own (<prefix>_<name>, dots as underscores:
 * rv_scratch_dir() empties the folder it names) and the test fails with its
 * path, to diff, and to copy over the golden only if the change is intended. */
static inline void rv_check_golden(const char *actual, const char *name, const char *prefix)
{
	char golden_path[4200], actual_path[4200], dir_name[128];
	char *golden;

	(void)snprintf(golden_path, sizeof(golden_path), "%s/../golden/%s", RV_TEST_DATA_DIR, name);
	golden = rv_slurp(golden_path, NULL);
	if (golden && strcmp(golden, actual) == 0) {
		free(golden);
		return;
	}
	free(golden);
	(void)snprintf(dir_name, sizeof(dir_name), "%s_%s", prefix, name);
	for (char *c = dir_name; *c; c++)
		if (*c == '.')
			*c = '_';
	(void)snprintf(actual_path, sizeof(actual_path), "%s/%s", rv_scratch_dir(dir_name), name);
	rv_spit(actual_path, actual);
	fail_msg("%s differs from %s; the output is in %s (diff them, and copy it over the golden "
	         "only if the change is intended)",
	         name, golden_path, actual_path);
}

#endif
