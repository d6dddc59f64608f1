/* SPDX-License-Identifier: MIT */
/* Every input that ever broke a fuzz target (tests/data/fuzz-regressions/,
 * named <target>-<what>.<ext>) runs through that target's checks again, from
 * a buffer of exactly its size (no NUL after it, as the fuzzer gives it),
 * and the inputs of known findings give their expected messages. The fuzz
 * targets' sources are compiled in here with their entry points renamed, so
 * the same properties hold under gcc and the asan-ubsan preset. */
#include <dirent.h>
#include <time.h>

#include "rv_test.h"

int fuzz_csv_one(const uint8_t *data, size_t size);
int fuzz_sweep_one(const uint8_t *data, size_t size);
int fuzz_profile_one(const uint8_t *data, size_t size);
int fuzz_fit_one(const uint8_t *data, size_t size);

#define LLVMFuzzerTestOneInput fuzz_csv_one
#include "fuzz/fuzz_csv.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_sweep_one
#include "fuzz/fuzz_sweep.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_profile_one
#include "fuzz/fuzz_profile.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_fit_one
#include "fuzz/fuzz_fit.c"
#undef LLVMFuzzerTestOneInput

#define REGRESSIONS RV_TEST_DATA_DIR "/fuzz-regressions"

/* The bytes of a regression input in a buffer of exactly their size. */
static char *load_exact(const char *name, size_t *len)
{
	char path[4096], *text, *exact;

	(void)snprintf(path, sizeof(path), "%s/%s", REGRESSIONS, name);
	text = rv_slurp(path, len);
	if (!text)
		fail_msg("cannot read %s", path);
	exact = malloc(*len ? *len : 1);
	assert_non_null(exact);
	memcpy(exact, text, *len);
	free(text);
	return exact;
}

static void assert_one_line(const char *msg)
{
	for (const char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			fail_msg("control character 0x%02x in the message \"%s\"",
			         (unsigned char)*c, msg);
}

static double now_s(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every file through its target's properties. */
static void test_regressions__all_inputs_pass_their_target(void **state)
{
	DIR *dh = opendir(REGRESSIONS);
	struct dirent *de;
	size_t n = 0;

	(void)state;
	assert_non_null(dh);
	while ((de = readdir(dh)) != NULL) {
		int (*one)(const uint8_t *, size_t) = NULL;
		size_t len;
		char *data;
		double t0;

		if (de->d_name[0] == '.')
			continue;
		if (strncmp(de->d_name, "csv-", 4) == 0)
			one = fuzz_csv_one;
		else if (strncmp(de->d_name, "sweep-", 6) == 0)
			one = fuzz_sweep_one;
		else if (strncmp(de->d_name, "profile-", 8) == 0)
			one = fuzz_profile_one;
		else if (strncmp(de->d_name, "fit-", 4) == 0)
			one = fuzz_fit_one;
		else
			fail_msg("%s: name it csv-, sweep-, profile- or fit-<what>", de->d_name);
		data = load_exact(de->d_name, &len);
		t0 = now_s();
		(void)one((const uint8_t *)data, len);
		if (now_s() - t0 > 5.0)
			fail_msg("%s took %.1f s", de->d_name, now_s() - t0);
		free(data);
		n++;
	}
	(void)closedir(dh);
	assert_true(n >= 6);
}

/* Whitespace only, in a buffer with no NUL after it: the emptiness check
 * read past the end (a heap overflow under ASan). */
static void test_regressions__whitespace_only(void **state)
{
	struct rv_profile *p = NULL;
	size_t len;
	char *data = load_exact("profile-whitespace-only.json", &len);

	(void)state;
	rv_assert_error(rv_profile_parse(&p, data, len, "x.json"), RV_EPARSE,
	                "x.json:1:1: the file is empty; expected a JSON object");
	assert_null(p);
	free(data);
}

/* A NUL byte after a number: jansson ends the number there, and the scan for
 * positions of the error that followed looped for ever, allocating. */
static void test_regressions__nul_after_number(void **state)
{
	struct rv_profile *p = NULL;
	size_t len;
	char *data = load_exact("profile-nul-after-number.json", &len);

	(void)state;
	rv_assert_error(rv_profile_parse(&p, data, len, "wrong_type_string.json"), RV_EPARSE,
	                "wrong_type_string.json:61:28: the file holds a NUL byte; it is not JSON "
	                "text");
	free(data);
}

/* Input text quoted in a message (a CSV field, a JSON key) with a carriage
 * return or other control characters: the message must stay one line. */
static void test_regressions__messages_stay_one_line(void **state)
{
	struct rv_baseline *b = NULL;
	struct rv_sweep *s = NULL;
	struct rv_profile *p = NULL;
	size_t len;
	char *data;

	(void)state;
	data = load_exact("csv-control-characters-in-header.csv", &len);
	rv_assert_error(rv_baseline_parse(&b, data, len, "b.csv"), RV_EPARSE,
	                "header column 1 is '\\x0c\\r\"', expected 'hardware'");
	assert_one_line(rv_error_last());
	free(data);
	data = load_exact("sweep-carriage-return-in-hardware-key.json", &len);
	rv_assert_error(rv_sweep_parse(&s, data, len, "s.json"), RV_EPARSE,
	                "'jetson_o\\rin_nano_8gb' is not a hardware key");
	assert_one_line(rv_error_last());
	free(data);
	data = load_exact("profile-carriage-return-in-key.json", &len);
	rv_assert_error(rv_profile_parse(&p, data, len, "h100_sxm5_80gb.json"), RV_EPARSE,
	                "pow\\r: unknown key");
	assert_one_line(rv_error_last());
	free(data);
	/* Every control character is escaped, whatever the message. */
	(void)rv_error_set(RV_ERROR, "a\tb\x01 c\x7f");
	assert_string_equal(rv_error_last(), "a\\tb\\x01 c\\x7f");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regressions__all_inputs_pass_their_target),
		cmocka_unit_test(test_regressions__whitespace_only),
		cmocka_unit_test(test_regressions__nul_after_number),
		cmocka_unit_test(test_regressions__messages_stay_one_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
