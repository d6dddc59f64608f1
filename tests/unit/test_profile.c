/* SPDX-License-Identifier: MIT */
/* Tests of the strict hardware profile loader: shipped files, fixtures, lookup and the folder. */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "hw/fit.h"
#include "hw/probe.h"
#include "hw/profile.h"
#include "io/file.h"
#include "rv_test.h"

#define RTOL 1e-12

/* A non-NULL value for *out, to see that a failed load resets it. */
static struct rv_profile sentinel;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Sorted names of the entries of dir that end in suffix; fails the test when
 * dir cannot be read. Free with free_names(). */
static char **list_names(const char *dir, const char *suffix, size_t *n_out)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, slen = strlen(suffix);

	if (!dh)
		fail_msg("cannot read %s", dir);
	while ((de = readdir(dh)) != NULL) {
		size_t len = strlen(de->d_name);
		char **grown;

		if (len <= slen || strcmp(de->d_name + len - slen, suffix) != 0)
			continue;
		grown = realloc(names, (n + 1) * sizeof(*names));
		assert_non_null(grown);
		names = grown;
		names[n] = malloc(len + 1);
		assert_non_null(names[n]);
		memcpy(names[n], de->d_name, len + 1);
		n++;
	}
	(void)closedir(dh);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	*n_out = n;
	return names;
}

/* The file name of path without folder and ".json", in out. */
static void path_stem(char *out, size_t size, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	assert_true(len > 5 && strcmp(base + len - 5, ".json") == 0);
	(void)snprintf(out, size, "%.*s", (int)(len - 5), base);
}

/* Loads a fixture under tests/data/hardware, failing the test with the loader's message. */
static struct rv_profile *load_fixture(const char *rel)
{
	struct rv_profile *p = NULL;
	char path[4096];
	int rc;

	(void)snprintf(path, sizeof(path), "%s/hardware/%s", RV_TEST_DATA_DIR, rel);
	rc = rv_profile_load(&p, path);
	if (rc != 0)
		fail_msg("%s: %d %s", path, rc, rv_error_last());
	assert_non_null(p);
	assert_string_equal(p->path, path);
	return p;
}

/* Copies the file at from to to. */
static void copy_file(const char *from, const char *to)
{
	char *text = rv_slurp(from, NULL);

	if (!text)
		fail_msg("cannot read %s", from);
	rv_spit(to, text);
	free(text);
}

static void test_profile__shipped_all_load(void **state)
{
	const char *dir = RV_DATA_DIR "/hardware";
	char **paths;
	size_t n;

	(void)state;
	assert_int_equal(rv_profile_paths(&paths, &n, dir), 0);
	assert_true(n >= 7);
	for (size_t i = 0; i < n; i++) {
		struct rv_profile *p;
		char stem[256];
		int rc = rv_profile_load(&p, paths[i]);

		if (rc != 0)
			fail_msg("%s: %d %s", paths[i], rc, rv_error_last());
		path_stem(stem, sizeof(stem), paths[i]);
		assert_string_equal(p->key, stem);
		assert_string_equal(p->path, paths[i]);
		assert_non_null(p->name);
		assert_non_null(rv_profile_compute(p, p->default_dtype));
		assert_true(p->n_compute >= 1 && p->n_memory >= 1);
		assert_int_equal(p->memory[p->n_memory - 1].tier, RV_TIER_DRAM);
		assert_true(p->compute_units >= 1);
		rv_profile_free(p);
	}
	rv_profile_paths_free(paths, n);
}

static void test_profile__shipped_i7_12700k(void **state)
{
	struct rv_profile *p;
	const struct rv_compute *c;
	const struct rv_memory_tier *m;

	(void)state;
	assert_int_equal(rv_profile_find(&p, RV_DATA_DIR "/hardware", "i7_12700k", 0), 0);
	assert_string_equal(p->key, "i7_12700k");
	assert_int_equal(p->hw_class, RV_HW_CPU);
	assert_int_equal(p->capture_backend, RV_BACKEND_CPU);
	assert_int_equal(p->default_dtype, RV_DTYPE_FP32);
	assert_int_equal(p->compute_units, 12);
	assert_string_equal(p->unit_kind, "core");
	assert_null(rv_profile_compute(p, RV_DTYPE_FP16));
	assert_null(rv_profile_compute(p, RV_DTYPE_BF16));
	c = rv_profile_compute(p, RV_DTYPE_FP32);
	assert_non_null(c);
	rv_assert_close(c->peak_flop_per_s, 1.44e12, RTOL, 0);
	rv_assert_close(c->effective_flop_per_s, 5.6e11, RTOL, 0);
	rv_assert_close(c->energy_per_flop_J, 6.7e-11, RTOL, 0);
	assert_int_equal(p->n_memory, 4);
	m = rv_profile_tier(p, RV_TIER_DRAM);
	assert_non_null(m);
	rv_assert_close(m->bw_Bps, 7.68e10, RTOL, 0);
	rv_assert_close(m->capacity_B, 34359738368.0, RTOL, 0);
	rv_assert_close(p->boost_Hz, 5e9, RTOL, 0);
	rv_assert_close(p->call_overhead_s, 5e-6, RTOL, 0);
	rv_assert_close(p->tdp_W, 125, RTOL, 0);
	rv_profile_free(p);
}

static void test_profile__shipped_h200(void **state)
{
	struct rv_profile *p;
	const struct rv_memory_tier *m;

	(void)state;
	assert_int_equal(rv_profile_find(&p, RV_DATA_DIR "/hardware", "h200_sxm_141gb", 0), 0);
	assert_int_equal(p->hw_class, RV_HW_GPU);
	assert_int_equal(p->capture_backend, RV_BACKEND_CUDA);
	assert_int_equal(p->default_dtype, RV_DTYPE_FP16);
	assert_int_equal(p->compute_units, 132);
	assert_int_equal(p->n_compute, 8);
	rv_assert_close(rv_profile_compute(p, RV_DTYPE_FP16)->peak_flop_per_s, 9.894e14, RTOL, 0);
	assert_null(rv_profile_compute(p, RV_DTYPE_INT4));
	assert_null(rv_profile_tier(p, RV_TIER_L3));
	m = rv_profile_tier(p, RV_TIER_DRAM);
	assert_non_null(m);
	rv_assert_close(m->bw_Bps, 4.8e12, RTOL, 0);
	rv_assert_close(m->effective_bw_Bps, 3.85e12, RTOL, 0);
	rv_assert_close(m->capacity_B, 141e9, RTOL, 0);
	rv_assert_close(m->energy_per_byte_J, 1.5e-11, RTOL, 0);
	rv_assert_close(p->tdp_W, 700, RTOL, 0);
	rv_profile_free(p);
}

static void test_profile__good_minimal(void **state)
{
	struct rv_profile *p = load_fixture("good/tiny_cpu.json");
	const struct rv_memory_tier *m;

	(void)state;
	assert_string_equal(p->key, "tiny_cpu");
	assert_string_equal(p->name, "Tiny CPU (fictional, minimal)");
	assert_null(p->operating_point);
	assert_null(p->notes);
	assert_int_equal(p->hw_class, RV_HW_CPU);
	assert_int_equal(p->capture_backend, RV_BACKEND_CPU);
	assert_int_equal(p->default_dtype, RV_DTYPE_FP32);
	assert_int_equal(p->compute_units, 2);
	assert_string_equal(p->unit_kind, "core");
	assert_string_equal(p->units_provenance, "2 cores [datasheet]");
	rv_assert_close(p->base_Hz, 1e9, RTOL, 0);
	rv_assert_close(p->boost_Hz, 2e9, RTOL, 0);
	rv_assert_close(p->sustained_Hz, 1.5e9, RTOL, 0);
	assert_string_equal(p->clocks_provenance, "made up [assumed]");
	assert_int_equal(p->n_compute, 1);
	assert_int_equal(p->compute[0].dtype, RV_DTYPE_FP32);
	rv_assert_close(p->compute[0].peak_flop_per_s, 6.4e10, RTOL, 0);
	rv_assert_close(p->compute[0].effective_flop_per_s, 3.2e10, RTOL, 0);
	rv_assert_close(p->compute[0].energy_per_flop_J, 1e-11, RTOL, 0);
	assert_string_equal(p->compute[0].provenance, "2*16*2 GHz [derived]");
	assert_null(rv_profile_compute(p, RV_DTYPE_FP64));
	assert_int_equal(p->n_memory, 1);
	assert_null(rv_profile_tier(p, RV_TIER_L1));
	m = rv_profile_tier(p, RV_TIER_DRAM);
	assert_ptr_equal(m, &p->memory[0]);
	rv_assert_close(m->capacity_B, 1073741824.0, RTOL, 0);
	rv_assert_close(m->bw_Bps, 1e10, RTOL, 0);
	rv_assert_close(m->effective_bw_Bps, 8e9, RTOL, 0);
	rv_assert_close(m->energy_per_byte_J, 5e-11, RTOL, 0);
	assert_string_equal(m->provenance, "1 GiB [assumed]");
	rv_assert_close(p->call_overhead_s, 1e-6, RTOL, 0);
	assert_string_equal(p->overhead_provenance, "made up [assumed]");
	rv_assert_close(p->idle_W, 1, RTOL, 0);
	rv_assert_close(p->static_W, 2, RTOL, 0);
	rv_assert_close(p->tdp_W, 5, RTOL, 0);
	assert_string_equal(p->power_provenance, "made up [assumed]");
	rv_profile_free(p);
}

static void test_profile__good_full(void **state)
{
	static const enum rv_tier tiers[] = { RV_TIER_L1, RV_TIER_L2, RV_TIER_DRAM };
	static const double capacity[] = { 262144, 2097152, 4294967296.0 };
	static const double bw[] = { 2e12, 8e11, 1e11 };
	static const double eff_bw[] = { 1.5e12, 6e11, 8.5e10 };
	static const double eff_capacity[] = { 262144, 1048576, 4294967296.0 };
	static const double energy[] = { 1e-12, 4e-12, 2e-11 };
	struct rv_profile *p = load_fixture("good/tiny_gpu.json");
	const struct rv_compute *c;

	(void)state;
	assert_string_equal(p->key, "tiny_gpu");
	assert_string_equal(p->name, "Tiny GPU (fictional, every optional field)");
	assert_string_equal(p->operating_point, "15 W mode, clocks locked");
	assert_string_equal(p->notes, "A made-up target for the loader tests.");
	assert_int_equal(p->hw_class, RV_HW_GPU);
	assert_int_equal(p->capture_backend, RV_BACKEND_CUDA);
	assert_int_equal(p->default_dtype, RV_DTYPE_FP16);
	assert_int_equal(p->compute_units, 4);
	assert_string_equal(p->unit_kind, "sm");
	rv_assert_close(p->sustained_Hz, 1.25e9, RTOL, 0);
	assert_string_equal(p->clocks_provenance,
	                    "base and boost [datasheet]; sustained [measured]");

	/* compute keeps file order */
	assert_int_equal(p->n_compute, 2);
	assert_int_equal(p->compute[0].dtype, RV_DTYPE_FP32);
	assert_int_equal(p->compute[1].dtype, RV_DTYPE_FP16);
	c = rv_profile_compute(p, RV_DTYPE_FP16);
	assert_ptr_equal(c, &p->compute[1]);
	rv_assert_close(c->peak_flop_per_s, 4.8e12, RTOL, 0);
	rv_assert_close(c->effective_flop_per_s, 3.6e12, RTOL, 0);
	rv_assert_close(c->energy_per_flop_J, 1e-12, RTOL, 0);
	assert_string_equal(c->provenance, "tensor peak [datasheet]; effective 75% [assumed]");
	rv_assert_close(p->compute[0].energy_per_flop_J, 2e-12, RTOL, 0);
	assert_null(rv_profile_compute(p, RV_DTYPE_BF16));

	assert_int_equal(p->n_memory, 3);
	assert_null(rv_profile_tier(p, RV_TIER_L3));
	for (size_t i = 0; i < 3; i++) {
		const struct rv_memory_tier *m = &p->memory[i];

		assert_int_equal(m->tier, tiers[i]);
		assert_ptr_equal(rv_profile_tier(p, tiers[i]), m);
		rv_assert_close(m->capacity_B, capacity[i], RTOL, 0);
		rv_assert_close(m->bw_Bps, bw[i], RTOL, 0);
		rv_assert_close(m->effective_bw_Bps, eff_bw[i], RTOL, 0);
		rv_assert_close(m->effective_capacity_B, eff_capacity[i], RTOL, 0);
		rv_assert_close(m->energy_per_byte_J, energy[i], RTOL, 0);
		assert_non_null(m->provenance);
	}
	rv_assert_close(p->call_overhead_s, 4e-6, RTOL, 0);
	rv_assert_close(p->idle_W, 3, RTOL, 0);
	rv_assert_close(p->static_W, 6, RTOL, 0);
	rv_assert_close(p->tdp_W, 15, RTOL, 0);
	assert_string_equal(p->power_provenance, "made up for the tests [assumed]");
	assert_int_equal(p->elementwise.grain_elements, 4096);
	assert_int_equal(p->elementwise.max_units, 2);
	assert_string_equal(p->elementwise.provenance, "test fixture [assumed]");
	assert_int_equal(p->fresh_output.min_B, 1073741824);
	assert_int_equal(p->fresh_output.page_B, 65536);
	rv_assert_close(p->fresh_output.page_s, 2e-6, RTOL, 0);
	assert_string_equal(p->fresh_output.provenance, "test fixture [assumed]");
	rv_profile_free(p);
}

/* Every file of good/ loads and carries its file name as key. */
static void test_profile__good_folder(void **state)
{
	char dir[4096], path[4352], stem[256];
	char **names;
	size_t n;

	(void)state;
	(void)snprintf(dir, sizeof(dir), "%s/hardware/good", RV_TEST_DATA_DIR);
	names = list_names(dir, ".json", &n);
	assert_true(n >= 2);
	for (size_t i = 0; i < n; i++) {
		struct rv_profile *p;
		int rc;

		(void)snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rc = rv_profile_load(&p, path);
		if (rc != 0)
			fail_msg("%s: %d %s", path, rc, rv_error_last());
		path_stem(stem, sizeof(stem), path);
		assert_string_equal(p->key, stem);
		rv_profile_free(p);
	}
	free_names(names, n);
}

/* The expected message of bad/<case>.err: @DIR@ replaced by dir, the trailing
 * newline dropped. Returns 0, or -1 (with a message printed) when it is absent
 * or not one line. */
static int expected_message(char *out, size_t size, const char *dir, const char *err_path)
{
	char *text = rv_slurp(err_path, NULL);
	const char *s, *at;
	size_t len, used = 0;

	if (!text) {
		print_error("%s is missing\n", err_path);
		return -1;
	}
	len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	if (len == 0 || strchr(text, '\n') || strchr(text, '\r')) {
		print_error("%s must hold exactly one non-empty line\n", err_path);
		free(text);
		return -1;
	}
	out[0] = '\0';
	for (s = text; (at = strstr(s, "@DIR@")) != NULL; s = at + 5)
		used += (size_t)snprintf(out + used, size - used, "%.*s%s", (int)(at - s), s, dir);
	(void)snprintf(out + used, size - used, "%s", s);
	free(text);
	return 0;
}

/* Walks tests/data/hardware/bad: every <case>.json fails to load with exactly
 * the one-line message of <case>.err, and no .err is left without its .json. */
static void test_profile__bad_fixtures(void **state)
{
	char dir[4096], path[4352], err_path[4352], want[8192];
	char **names, **errs;
	size_t n, n_err, failed = 0;

	(void)state;
	(void)snprintf(dir, sizeof(dir), "%s/hardware/bad", RV_TEST_DATA_DIR);
	names = list_names(dir, ".json", &n);
	if (n < 20)
		fail_msg("only %zu cases in %s; expected at least 20", n, dir);
	for (size_t i = 0; i < n; i++) {
		struct rv_profile *p = &sentinel;
		size_t len = strlen(names[i]);
		int rc;

		(void)snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		(void)snprintf(err_path, sizeof(err_path), "%s/%.*s.err", dir, (int)(len - 5),
		               names[i]);
		rc = rv_profile_load(&p, path);
		if (rc == 0) {
			print_error("%s: loaded, but it should fail\n", names[i]);
			rv_profile_free(p);
			failed++;
			continue;
		}
		if (p) {
			print_error("%s: *out is not NULL after a failure\n", names[i]);
			failed++;
		}
		if (expected_message(want, sizeof(want), dir, err_path) < 0) {
			failed++;
			continue;
		}
		if (rc != RV_EPARSE && rc != RV_ERANGE) {
			print_error("%s: rc %d, wanted RV_EPARSE or RV_ERANGE (%s)\n", names[i], rc,
			            rv_error_last());
			failed++;
		} else if (strcmp(rv_error_last(), want) != 0) {
			print_error("%s:\n   got \"%s\"\nwanted \"%s\"\n", names[i],
			            rv_error_last(), want);
			failed++;
		}
	}
	errs = list_names(dir, ".err", &n_err);
	for (size_t i = 0; i < n_err; i++) {
		size_t len = strlen(errs[i]);

		(void)snprintf(path, sizeof(path), "%.*s.json", (int)(len - 4), errs[i]);
		if (!bsearch(&(const char *){ path }, names, n, sizeof(*names), name_cmp)) {
			print_error("%s has no %s\n", errs[i], path);
			failed++;
		}
	}
	free_names(errs, n_err);
	free_names(names, n);
	if (failed)
		fail_msg("%zu of %zu bad cases are wrong", failed, n);
}

static void test_profile__load_missing_file(void **state)
{
	struct rv_profile *p = &sentinel;
	char path[4096];

	(void)state;
	(void)snprintf(path, sizeof(path), "%s/hardware/no_such_profile.json", RV_TEST_DATA_DIR);
	rv_assert_error(rv_profile_load(&p, path), RV_ENOENT, "no_such_profile.json");
	assert_null(p);
}

static void test_profile__find_by_key(void **state)
{
	char dir[4096];
	struct rv_profile *p;

	(void)state;
	(void)snprintf(dir, sizeof(dir), "%s/hardware/good", RV_TEST_DATA_DIR);
	assert_int_equal(rv_profile_find(&p, dir, "tiny_gpu", 0), 0);
	assert_string_equal(p->key, "tiny_gpu");
	assert_string_equal(p->path, rv_fixture_path("hardware/good/tiny_gpu.json"));
	rv_profile_free(p);
}

static void test_profile__find_by_path(void **state)
{
	struct rv_profile *p;

	(void)state;
	/* A path with '/' is loaded as it is: the folder argument is not used. */
	assert_int_equal(rv_profile_find(&p, "/nonexistent",
	                                 rv_fixture_path("hardware/good/tiny_cpu.json"), 0),
	                 0);
	assert_string_equal(p->key, "tiny_cpu");
	rv_profile_free(p);
	/* So are errors: the loader's message, not "no hardware profile". */
	rv_assert_error(rv_profile_find(&p, "/nonexistent",
	                                rv_fixture_path("hardware/bad/unknown_class.json"), 0),
	                RV_EPARSE, "class: 'tpu' is not one of");
	assert_null(p);
	/* A name ending in .json is a path too, relative to the working folder. */
	assert_int_equal(
	        rv_profile_find(&p, rv_fixture_path("hardware/good"), "no_such_profile.json", 0),
	        RV_ENOENT);
	assert_null(strstr(rv_error_last(), "hardware/good"));
	assert_null(p);
}

static void test_profile__find_unknown_key(void **state)
{
	char dir[4096];
	struct rv_profile *p = &sentinel;

	(void)state;
	(void)snprintf(dir, sizeof(dir), "%s/hardware/good", RV_TEST_DATA_DIR);
	rv_assert_error(rv_profile_find(&p, dir, "no_such_target", 0), RV_ENOENT,
	                "roofval hw list");
	assert_non_null(strstr(rv_error_last(), "'no_such_target'"));
	assert_non_null(strstr(rv_error_last(), dir));
	assert_null(p);
}

static void test_profile__find_bad_key(void **state)
{
	static const char *const keys[] = { "I7_12700K", "h200-sxm", "tiny cpu", "tiny_cpu.", "" };
	char dir[4096];

	(void)state;
	(void)snprintf(dir, sizeof(dir), "%s/hardware/good", RV_TEST_DATA_DIR);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct rv_profile *p = &sentinel;

		rv_assert_error(rv_profile_find(&p, dir, keys[i], 0), RV_ENOENT,
		                "is not a hardware key (a-z, 0-9, _); run 'roofval hw list'");
		assert_null(p);
	}
}

static void test_profile__paths_skip_fit_and_dot_files(void **state)
{
	static const char *const skipped[] = { "tiny_cpu.fit.json", ".hidden.json",      ".json",
		                               "README.md",         "tiny_gpu.json.bak", "json" };
	char dir[4096], path[4352], want[4352];
	struct rv_profile *p;
	char **paths;
	size_t n;

	(void)state;
	(void)snprintf(dir, sizeof(dir), "%s", rv_scratch_dir("profile_paths"));

	/* An empty folder has no profiles; a missing one is an error. */
	assert_int_equal(rv_profile_paths(&paths, &n, dir), 0);
	assert_int_equal(n, 0);
	rv_profile_paths_free(paths, n);
	(void)snprintf(path, sizeof(path), "%s/missing", dir);
	rv_assert_error(rv_profile_paths(&paths, &n, path), RV_ENOENT, path);
	assert_null(paths);
	assert_int_equal(n, 0);

	(void)snprintf(path, sizeof(path), "%s/tiny_gpu.json", dir);
	copy_file(rv_fixture_path("hardware/good/tiny_gpu.json"), path);
	(void)snprintf(path, sizeof(path), "%s/tiny_cpu.json", dir);
	copy_file(rv_fixture_path("hardware/good/tiny_cpu.json"), path);
	for (size_t i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++) {
		(void)snprintf(path, sizeof(path), "%s/%s", dir, skipped[i]);
		copy_file(rv_fixture_path("hardware/good/tiny_cpu.json"), path);
	}

	assert_int_equal(rv_profile_paths(&paths, &n, dir), 0);
	assert_int_equal(n, 2);
	(void)snprintf(want, sizeof(want), "%s/tiny_cpu.json", dir);
	assert_string_equal(paths[0], want);
	(void)snprintf(want, sizeof(want), "%s/tiny_gpu.json", dir);
	assert_string_equal(paths[1], want);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(rv_profile_load(&p, paths[i]), 0);
		rv_profile_free(p);
	}
	rv_profile_paths_free(paths, n);

	/* The copies are found by key in the scratch folder too. */
	(void)snprintf(want, sizeof(want), "%s/tiny_cpu.json", dir);
	assert_int_equal(rv_profile_find(&p, dir, "tiny_cpu", 0), 0);
	assert_string_equal(p->path, want);
	rv_profile_free(p);
}

static void test_profile__dir_precedence(void **state)
{
	const char *old = getenv("ROOFVAL_HARDWARE_DIR");
	char *saved = old ? strdup(old) : NULL;

	(void)state;
	assert_int_equal(unsetenv("ROOFVAL_HARDWARE_DIR"), 0);
	assert_string_equal(rv_profile_dir(NULL), RV_DATA_DIR "/hardware");
	assert_string_equal(rv_profile_dir(""), RV_DATA_DIR "/hardware");
	assert_string_equal(rv_profile_dir("/opt/hw"), "/opt/hw");

	assert_int_equal(setenv("ROOFVAL_HARDWARE_DIR", "/env/hw", 1), 0);
	assert_string_equal(rv_profile_dir(NULL), "/env/hw");
	assert_string_equal(rv_profile_dir(""), "/env/hw");
	assert_string_equal(rv_profile_dir("/opt/hw"), "/opt/hw");

	/* An empty variable counts as unset. */
	assert_int_equal(setenv("ROOFVAL_HARDWARE_DIR", "", 1), 0);
	assert_string_equal(rv_profile_dir(NULL), RV_DATA_DIR "/hardware");

	if (saved)
		assert_int_equal(setenv("ROOFVAL_HARDWARE_DIR", saved, 1), 0);
	else
		assert_int_equal(unsetenv("ROOFVAL_HARDWARE_DIR"), 0);
	free(saved);
}

static void test_profile__names(void **state)
{
	(void)state;
	assert_string_equal(rv_hw_class_name(RV_HW_JETSON), "jetson");
	assert_string_equal(rv_hw_class_name(RV_HW_CLASS_COUNT), "?");
	assert_string_equal(rv_backend_name(RV_BACKEND_NONE), "none");
	assert_string_equal(rv_backend_name(RV_BACKEND_COUNT), "?");
	assert_string_equal(rv_tier_name(RV_TIER_L3), "l3");
	assert_string_equal(rv_tier_name(RV_TIER_COUNT), "?");
}

/* The table of docs/hardware-profile.md's "Model parameters" holds the rows
 * of hw/params.def, in its order: name, executor and unit. */
static void test_profile__params_documented(void **state)
{
	char *text = NULL, *at, *end, cell[3][96];
	size_t len = 0, row = 0;

	(void)state;
	assert_int_equal(rv_file_read(&text, &len, RV_DATA_DIR "/docs/hardware-profile.md"), 0);
	at = strstr(text, "## Model parameters");
	assert_non_null(at);
	if ((end = strstr(at, "\n## ")) != NULL)
		*end = '\0'; /* the section only */
	for (at = strstr(at, "\n| `"); at; at = strstr(at, "\n| `")) {
		const struct rv_param_decl *d = &rv_param_decls[row];
		const char *owner = d->owner == RV_PARAM_CORE
		                            ? "every profile"
		                            : rv_executor_name((enum rv_executor)d->owner);

		if (sscanf(at, "\n| `%95[^`]` | %95[^|]| %95[^| ] |", cell[0], cell[1], cell[2]) !=
		    3)
			break;
		assert_true(row < rv_n_param_decls);
		cell[1][strlen(cell[1]) - 1] = '\0'; /* the space before the bar */
		assert_string_equal(cell[0], d->name);
		assert_string_equal(cell[1], owner);
		assert_string_equal(cell[2], d->unit[0] ? d->unit : "\u2014");
		row++;
		at++;
	}
	assert_int_equal(row, rv_n_param_decls);
	free(text);
}

/* A declared parameter is one of its executor's profiles only, and of
 * those only where its gate holds: gemm.pack_passes is blas_l3's
 * (toy_cpu's), not tiled_waves' (toy_gpu's); gemm.threading.dispatch_s
 * needs a gemm.threading object. */
static void test_profile__params_owned(void **state)
{
	static char stated[] = "test [assumed]";
	struct rv_profile *cpu, *gpu;
	struct rv_param prm;

	(void)state;
	assert_int_equal(rv_profile_load(&cpu, rv_fixture_path("hardware/model/toy_cpu.json")), 0);
	assert_int_equal(rv_profile_load(&gpu, rv_fixture_path("hardware/model/toy_gpu.json")), 0);
	assert_int_equal(rv_param_resolve(&prm, cpu, "gemm.pack_passes"), 0);
	assert_ptr_equal(prm.slot, &cpu->gemm.pack_passes);
	assert_int_equal(rv_param_check(&prm, 4.5), RV_ERANGE);
	assert_non_null(strstr(rv_error_last(), "gemm.pack_passes = 4.5  is above 4"));
	assert_int_equal(rv_param_check(&prm, 0), 0);
	assert_int_equal(rv_param_resolve(&prm, gpu, "gemm.pack_passes"), RV_ENOENT);
	assert_int_equal(rv_param_resolve(&prm, cpu, "gemm.threading.dispatch_s"), RV_ENOENT);
	cpu->gemm.threading.provenance = stated;
	assert_int_equal(rv_param_resolve(&prm, cpu, "gemm.threading.dispatch_s"), 0);
	assert_ptr_equal(prm.slot, &cpu->gemm.threading.dispatch_s);
	assert_string_equal(prm.unit, "s");
	cpu->gemm.threading.provenance = NULL;
	assert_int_equal(rv_param_resolve(&prm, gpu, "gemm.half_efficiency_k"), 0);
	assert_ptr_equal(prm.slot, &gpu->gemm.half_k);
	rv_profile_free(cpu);
	rv_profile_free(gpu);
}

/* probe's reading of a stream sweep into the last cache level's effective
 * capacity: the VM's by-hand sweep (37 GB/s up to 45 MB, 32 at 63 MB, 16
 * from 89 MB) gives 63 MB, read at the largest working set up to half of it;
 * a sweep that never falls, or starts at memory speed, gives none. */
static void test_profile__probe_knee(void **state)
{
	static const double ws[] = { 4e6, 5.7e6, 8e6, 11e6, 16e6, 23e6, 32e6, 45e6, 63e6, 89e6 };
	static const double bw[] = { 36e9, 37e9, 37e9, 38e9, 37e9, 37e9, 37e9, 37e9, 32e9, 16e9 };
	static const double flat[] = { 37e9, 37e9, 37e9 };
	static const double slow[] = { 15e9, 15e9, 15e9 };
	double knee, llc;

	(void)state;
	rv_probe_knee(&knee, &llc, ws, bw, 10, 15.5e9);
	assert_float_equal(knee, 63e6, RTOL);
	assert_float_equal(llc, 37e9, RTOL); /* at 23 MB, the largest <= 31.5 MB */
	rv_probe_knee(&knee, &llc, ws, bw, 9, 15.5e9);
	assert_true(isnan(knee) && isnan(llc));
	rv_probe_knee(&knee, &llc, ws, flat, 3, 15.5e9);
	assert_true(isnan(knee) && isnan(llc));
	rv_probe_knee(&knee, &llc, ws, slow, 3, 15.5e9);
	assert_true(isnan(knee) && isnan(llc));
	rv_probe_knee(&knee, &llc, ws, bw, 0, 15.5e9);
	assert_true(isnan(knee) && isnan(llc));
}

/* The round trip of a cache line between the first two CPUs: positive where
 * two CPUs are allowed (or, where the second is too busy to answer for 10
 * times the time given, that error and no value), the caller's affinity
 * restored either way; with the caller on one CPU, refused saying so; no
 * time, no run. */
static void test_profile__core_round_trip(void **state)
{
	cpu_set_t before, after, one;
	double rt = -1;

	(void)state;
	assert_int_equal(rv_core_round_trip(&rt, 0), RV_ERANGE);
	assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof(before), &before), 0);
	if (CPU_COUNT(&before) >= 2) {
		int err = rv_core_round_trip(&rt, 0.002);

		if (err == 0) {
			assert_true(rt > 0 && rt < 0.1);
		} else {
			assert_int_equal(err, RV_ERROR);
			rv_assert_contains(rv_error_last(), "did not answer");
			rv_assert_close(rt, 0, 0, 0);
		}
		assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof(after), &after), 0);
		assert_true(CPU_EQUAL(&before, &after));
	}
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &before)) {
			CPU_SET(c, &one);
			break;
		}
	assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof(one), &one), 0);
	assert_int_equal(rv_core_round_trip(&rt, 0.002), RV_ENOTSUP);
	rv_assert_contains(rv_error_last(), "one CPU only");
	rv_assert_close(rt, 0, 0, 0);
	assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof(before), &before), 0);
}

/* The table of FLOP per cycle per core, from fixed feature sets. */
static void test_profile__isa_table(void **state)
{
	static const struct {
		enum rv_cpu_vendor vendor;
		unsigned family, model, flags, fp32, fp64;
		const char *isa;
		unsigned bits; /* the FMA datapath */
	} cases[] = {
		/* Sapphire Rapids: AVX-512 on two 512-bit FMA units, AMX present. */
		{ RV_CPU_INTEL, 6, 0x8f,
		  RV_CPU_AVX | RV_CPU_FMA | RV_CPU_AVX2 | RV_CPU_AVX512F | RV_CPU_AMX_TILE |
		          RV_CPU_AMX_BF16,
		  64, 32, "AVX-512", 512 },
		/* Alder Lake (i7-12700K): AVX2 only, AVX-512 fused off. */
		{ RV_CPU_INTEL, 6, 0x97, RV_CPU_AVX | RV_CPU_FMA | RV_CPU_AVX2, 32, 16, "AVX2+FMA",
		  256 },
		/* Zen 4 (Genoa): AVX-512 as two 256-bit halves. */
		{ RV_CPU_AMD, 0x19, 0x11, RV_CPU_AVX | RV_CPU_FMA | RV_CPU_AVX2 | RV_CPU_AVX512F,
		  32, 16, "AVX-512 (Zen 4)", 256 },
		/* Zen 3 (EPYC Milan, this kind of machine): AVX2 only. */
		{ RV_CPU_AMD, 0x19, 0x01, RV_CPU_AVX | RV_CPU_FMA | RV_CPU_AVX2, 32, 16, "AVX2+FMA",
		  256 },
		/* Zen 2 (Rome) and Zen 1 (Naples). */
		{ RV_CPU_AMD, 0x17, 0x31, RV_CPU_AVX | RV_CPU_FMA | RV_CPU_AVX2, 32, 16, "AVX2+FMA",
		  256 },
		{ RV_CPU_AMD, 0x17, 0x01, RV_CPU_AVX | RV_CPU_FMA | RV_CPU_AVX2, 16, 8,
		  "AVX2+FMA (Zen 1)", 128 },
		/* Zen 5 with its full 512-bit datapath. */
		{ RV_CPU_AMD, 0x1a, 0x02, RV_CPU_AVX | RV_CPU_FMA | RV_CPU_AVX2 | RV_CPU_AVX512F,
		  64, 32, "AVX-512 (Zen 5)", 512 },
		/* No FMA: Sandy Bridge's AVX, and bare SSE2. */
		{ RV_CPU_INTEL, 6, 0x2a, RV_CPU_AVX, 16, 8, "AVX (no FMA)", 256 },
		{ RV_CPU_AMD, 0x10, 0x02, 0, 8, 4, "SSE2", 128 },
		/* Another vendor with AVX2 and FMA. */
		{ RV_CPU_OTHER, 7, 0x3b, RV_CPU_AVX | RV_CPU_FMA | RV_CPU_AVX2, 32, 16, "AVX2+FMA",
		  256 },
	};
	struct rv_cpu_features f;
	const struct rv_isa_rate *r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&f, 0, sizeof(f));
		f.known = 1;
		f.vendor = cases[i].vendor;
		f.family = cases[i].family;
		f.model = cases[i].model;
		f.flags = cases[i].flags;
		r = rv_isa_rate(&f);
		assert_non_null(r);
		if (r->fp32_flop_per_cycle != cases[i].fp32 ||
		    r->fp64_flop_per_cycle != cases[i].fp64 || strcmp(r->isa, cases[i].isa) != 0 ||
		    r->vector_bits != cases[i].bits)
			fail_msg("case %zu: %s %u/%u, %u bits, want %s %u/%u, %u bits", i, r->isa,
			         r->fp32_flop_per_cycle, r->fp64_flop_per_cycle, r->vector_bits,
			         cases[i].isa, cases[i].fp32, cases[i].fp64, cases[i].bits);
		assert_false(r->assumed);
		assert_non_null(r->source);
	}
	/* Features unread (not x86-64): the assumed row. */
	memset(&f, 0, sizeof(f));
	r = rv_isa_rate(&f);
	assert_true(r->assumed);
	assert_int_equal(r->fp32_flop_per_cycle, 16);
	assert_int_equal(r->vector_bits, 0); /* unknown: no kernel is told it is narrow */
}

/* CPUID agrees with the kernel's flags in /proc/cpuinfo on this machine (on
 * an AMD EPYC without AVX-512, AVX-512 must not be found). */
static void test_profile__cpu_features_match_cpuinfo(void **state)
{
	static const struct {
		const char *flag;
		unsigned bit;
	} flags[] = { { "avx", RV_CPU_AVX },           { "fma", RV_CPU_FMA },
		      { "avx2", RV_CPU_AVX2 },         { "avx512f", RV_CPU_AVX512F },
		      { "amx_tile", RV_CPU_AMX_TILE }, { "amx_bf16", RV_CPU_AMX_BF16 } };
	struct rv_cpu_features f;
	char line[8192], vendor[256] = "";
	FILE *fp = fopen("/proc/cpuinfo", "r");
	int rc = rv_cpu_features_read(&f), have = 0;

	(void)state;
#if !defined(__x86_64__)
	if (fp)
		(void)fclose(fp);
	assert_int_equal(rc, RV_ENOTSUP);
	assert_false(f.known);
	skip();
#endif
	assert_int_equal(rc, 0);
	assert_true(f.known);
	while (fp && !have && fgets(line, sizeof(line) - 1, fp)) {
		if (strncmp(line, "vendor_id", 9) == 0)
			(void)snprintf(vendor, sizeof(vendor), "%.200s", line);
		have = strncmp(line, "flags", 5) == 0;
	}
	if (fp)
		(void)fclose(fp);
	/* Under valgrind CPUID is its emulated CPU's, not this machine's. */
	if (!have || (getenv("LD_PRELOAD") && strstr(getenv("LD_PRELOAD"), "vgpreload")) ||
	    !strstr(vendor, f.vendor_id))
		skip();
	line[strcspn(line, "\n")] = '\0';
	strcat(line, " ");
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		char word[32];

		(void)snprintf(word, sizeof(word), " %s ", flags[i].flag);
		if ((strstr(line, word) != NULL) != ((f.flags & flags[i].bit) != 0))
			fail_msg("CPUID says %s %s, /proc/cpuinfo the contrary", flags[i].flag,
			         (f.flags & flags[i].bit) ? "present" : "absent");
	}
	if (strstr(vendor, "AuthenticAMD"))
		assert_int_equal(f.vendor, RV_CPU_AMD);
	if (strstr(vendor, "GenuineIntel"))
		assert_int_equal(f.vendor, RV_CPU_INTEL);
}

/* The CPUID registers of a described CPU, leaf by leaf (subleaf 0 unless
 * given), for rv_cpu_caches_cpuid(). */
struct cpuid_row {
	unsigned leaf, sub, r[4];
};
static const struct cpuid_row *cpuid_rows;

static int cpuid_fake(unsigned leaf, unsigned sub, unsigned r[4])
{
	for (const struct cpuid_row *c = cpuid_rows; c && c->leaf != ~0u; c++)
		if (c->leaf == leaf && c->sub == sub) {
			memcpy(r, c->r, sizeof(c->r));
			return 1;
		}
	return 0;
}

/* Caches from CPUID where sysfs has none: the 2-vCPU Zen 5 guest this was
 * written on (topology extensions set, but leaf 0x8000001D empty: the legacy
 * leaves, its L3 the package's 508 MiB, counted once), an Intel with leaf 4
 * (the instruction cache skipped, sharing capped at the CPUs online), and a
 * CPU that answers nothing. */
static void assert_cache(const struct rv_cpu_cache *c, int level, long long one_B,
                         long long capacity_B)
{
	assert_int_equal(c->level, level);
	assert_int_equal((long long)c->one_B, one_B);
	assert_int_equal((long long)c->capacity_B, capacity_B);
}

static void test_profile__caches_cpuid(void **state)
{
	static const struct cpuid_row zen5_guest[] = {
		{ 0, 0, { 0x0d, 0x68747541, 0x444d4163, 0x69746e65 } },
		{ 0x80000000, 0, { 0x80000021, 0x68747541, 0x444d4163, 0x69746e65 } },
		{ 0x80000001, 0, { 0x00b00f21, 0x40000000, 0x440001f1, 0x25d3fbff } },
		{ 0x80000005, 0, { 0xff60ff40, 0xff60ff40, 0x300c0140, 0x20080140 } },
		{ 0x80000006, 0, { 0x40802040, 0x60804040, 0x04006140, 0x0fe09140 } },
		{ 0x8000001d, 0, { 0, 0, 0, 0 } },
		{ ~0u, 0, { 0 } },
	};
	static const struct cpuid_row intel[] = {
		{ 0, 0, { 0x1b, 0x756e6547, 0x6c65746e, 0x49656e69 } },
		/* L1d 48 KiB: 12 ways x 64 B x 64 sets, 2 threads */
		{ 4, 0, { 1 | 1 << 5 | 1 << 14, 11u << 22 | 63, 63, 0 } },
		/* L1i: skipped */
		{ 4, 1, { 2 | 1 << 5 | 1 << 14, 7u << 22 | 63, 63, 0 } },
		/* L2 2 MiB: 16 ways x 64 B x 2048 sets, 2 threads */
		{ 4, 2, { 3 | 2 << 5 | 1 << 14, 15u << 22 | 63, 2047, 0 } },
		/* L3 48 MiB: 12 ways x 64 B x 65536 sets, 128 threads */
		{ 4, 3, { 3 | 3 << 5 | 127u << 14, 11u << 22 | 63, 65535, 0 } },
		{ 4, 4, { 0, 0, 0, 0 } },
		{ ~0u, 0, { 0 } },
	};
	struct rv_cpu_cache c[3];
	const char *source = "";

	(void)state;
	cpuid_rows = zen5_guest;
	assert_int_equal(rv_cpu_caches_cpuid(c, &source, 2, cpuid_fake), 3);
	assert_non_null(source);
	assert_non_null(strstr(source, "0x80000006"));
	assert_cache(&c[0], 1, 48 * 1024, 2 * 48 * 1024);
	assert_cache(&c[1], 2, 1048576, 2 * 1048576);
	assert_cache(&c[2], 3, 1016LL * 524288, 1016LL * 524288);

	cpuid_rows = intel;
	assert_int_equal(rv_cpu_caches_cpuid(c, &source, 4, cpuid_fake), 3);
	assert_non_null(strstr(source, "leaf 4"));
	assert_cache(&c[0], 1, 49152, 2 * 49152);
	assert_cache(&c[1], 2, 2097152, 2 * 2097152);
	assert_cache(&c[2], 3, 48LL * 1048576, 48LL * 1048576);

	cpuid_rows = NULL;
	assert_int_equal(rv_cpu_caches_cpuid(c, &source, 2, cpuid_fake), 0);
	assert_null(source);
}

/* A made-up measurement of a Zen 4 host, rendered from the shipped template. */
static void fake_host(struct rv_probe_host *h)
{
	memset(h, 0, sizeof(*h));
	(void)snprintf(h->model, sizeof(h->model), "AMD EPYC 9654");
	(void)snprintf(h->date, sizeof(h->date), "2026-12-01");
	h->clock_Hz = 2.4e9;
	h->n_cpus = 4;
	h->cpu.known = 1;
	h->cpu.vendor = RV_CPU_AMD;
	(void)snprintf(h->cpu.vendor_id, sizeof(h->cpu.vendor_id), "AuthenticAMD");
	h->cpu.family = 0x19;
	h->cpu.model = 0x11;
	h->cpu.flags = RV_CPU_AVX | RV_CPU_FMA | RV_CPU_AVX2 | RV_CPU_AVX512F;
	h->isa = rv_isa_rate(&h->cpu);
	h->blas = "OpenBLAS";
	h->gemm_n = 2048;
	h->effective_flop_per_s[0] = 2e11;
	h->effective_flop_per_s[1] = 1e11;
	h->n_tiers = 3; /* l1, l2 (the last level, with a knee), dram */
	h->capacity_B[0] = 4 * 32768.0;
	h->capacity_B[1] = 4 * 1048576.0;
	h->capacity_B[2] = 16e9;
	h->effective_bw_Bps[0] = 4e11;
	h->effective_bw_Bps[1] = 1e11;
	h->effective_bw_Bps[2] = 2e10;
	h->knee_B = 3e6;
	h->call_overhead_s = 5e-8;
	h->add_overhead_s = 3e-9;
	h->tail_element_s = 2.5e-10;
	h->unit_loop_Bps = 1.2e11;
}

/* The profile the probe writes for h (free both). */
static struct rv_profile *probed(char **text, const struct rv_probe_host *h,
                                 const struct rv_probe_opts *o)
{
	struct rv_profile *p = NULL;

	if (rv_probe_render(text, h, o) != 0)
		fail_msg("%s", rv_error_last());
	if (rv_profile_parse(&p, *text, strlen(*text), "probe/probe_t.json") != 0)
		fail_msg("%s\n%s", rv_error_last(), *text);
	return p;
}

/* The template fills into a profile the loader accepts, with what was
 * measured, the peak of the ISA table, and the template's own numbers. */
static void test_profile__probe_template(void **state)
{
	struct rv_probe_opts o = { "probe_t", NULL, NULL, 0, 0 };
	struct rv_probe_host h;
	struct rv_profile *p = NULL, *t = NULL;
	const struct rv_compute *c;
	char *text = NULL;

	(void)state;
	/* The template is a profile itself (hw lint checks it too). */
	if (rv_profile_load(&t, rv_probe_template_path()) != 0)
		fail_msg("%s", rv_error_last());
	fake_host(&h);
	p = probed(&text, &h, &o);
	assert_string_equal(p->key, "probe_t");
	assert_string_equal(p->name, "AMD EPYC 9654, 4 CPUs (probed 2026-12-01)");
	assert_int_equal(p->compute_units, 4);
	assert_null(strstr(p->units_provenance, "round trip"));
	/* A round trip measured between the first two CPUs: in the units'
	 * provenance. */
	rv_profile_free(p);
	free(text);
	h.core_round_trip_s = 4.5e-7;
	p = probed(&text, &h, &o);
	rv_assert_contains(p->units_provenance,
	                   "a cache line's round trip between the first two: 450 ns when probed");
	rv_assert_close(p->base_Hz, 2.4e9, 1e-5, 0);
	c = rv_profile_compute(p, RV_DTYPE_FP32);
	assert_non_null(c);
	rv_assert_close(c->peak_flop_per_s, 4 * 32 * 2.4e9, 1e-5, 0); /* Zen 4: 32, not 64 */
	rv_assert_close(c->effective_flop_per_s, 2e11, 1e-5, 0);
	rv_assert_contains(c->provenance, "AVX-512 (Zen 4) from CPUID");
	rv_assert_contains(c->provenance, "[measured]");
	c = rv_profile_compute(p, RV_DTYPE_FP64);
	rv_assert_close(c->peak_flop_per_s, 4 * 16 * 2.4e9, 1e-5, 0);
	assert_int_equal(p->n_memory, 3);
	assert_int_equal(p->memory[1].tier, RV_TIER_L2);
	assert_int_equal(p->memory[2].tier, RV_TIER_DRAM);
	rv_assert_close(p->memory[1].effective_capacity_B, 3e6, 1e-5, 0);
	/* Byte counts exactly, not to the 6 digits of the measurements. */
	rv_assert_close(p->memory[1].capacity_B, 4 * 1048576.0, 0, 0);
	rv_assert_close(p->memory[2].bw_Bps, 1.25 * 2e10, 1e-5, 0);
	rv_assert_close(p->memory[2].energy_per_byte_J,
	                rv_profile_tier(t, RV_TIER_DRAM)->energy_per_byte_J, 1e-5, 0);
	rv_assert_close(p->call_overhead_s, 5e-8, 1e-5, 0);
	/* The add's own loop: its own overhead; the GEMMs keep the BLAS call's. */
	rv_assert_close(p->op_overhead_s[RV_OP_VECTOR_ADD], 3e-9, 1e-5, 0);
	rv_assert_close(p->op_overhead_s[RV_OP_LINEAR], 5e-8, 1e-5, 0);
	rv_assert_contains(p->overhead_provenance, "fastest of 101 rounds of 1000 1x1x1 GEMMs");
	/* The add loop as measured: its rate, and its blocks and tail. */
	rv_assert_close(p->elementwise.unit_loop_Bps, 1.2e11, 1e-5, 0);
	assert_int_equal(p->elementwise.block_B, 64);
	rv_assert_close(p->elementwise.tail_element_s, 2.5e-10, 1e-5, 0);
	rv_assert_contains(p->elementwise.provenance, "tail_element_s: 15 elements against 1");
	assert_null(strstr(p->elementwise.provenance, "placeholders"));
	/* The numbers the probe does not measure come from the template. */
	rv_assert_close(p->idle_W, t->idle_W, 1e-5, 0);
	rv_assert_close(p->tdp_W, t->tdp_W, 1e-5, 0);
	assert_int_equal(p->gemm.n_tiles, t->gemm.n_tiles);
	rv_assert_close(p->gemm.half_k, t->gemm.half_k, 1e-5, 0);
	assert_int_equal(p->elementwise.max_units, t->elementwise.max_units);
	rv_assert_contains(p->power_provenance, "[assumed]");
	free(text);
	rv_profile_free(p);
	/* No tail measured: the loop without blocks; no rate either: neither. */
	h.tail_element_s = 0;
	p = probed(&text, &h, &o);
	assert_int_equal(p->elementwise.block_B, 0);
	rv_assert_close(p->elementwise.unit_loop_Bps, 1.2e11, 1e-5, 0);
	free(text);
	rv_profile_free(p);
	h.unit_loop_Bps = 0;
	p = probed(&text, &h, &o);
	assert_int_equal(p->elementwise.block_B, 0);
	assert_false(p->elementwise.unit_loop_Bps > 0);
	assert_int_equal(p->elementwise.max_units, 1);
	free(text);
	rv_profile_free(p);
	rv_profile_free(t);
}

/* A measured rate above the derived peak (a guest reporting its base clock)
 * becomes the peak, and the provenance says so and what clock it implies;
 * a kernel's caveat reaches every compute provenance, marked uncertain. */
static void test_profile__probe_peak_and_caveat(void **state)
{
	struct rv_probe_opts o = { "probe_t", NULL, NULL, 0, 0 };
	struct rv_probe_host h;
	struct rv_profile *p = NULL;
	const struct rv_compute *c;
	char *text = NULL;

	(void)state;
	fake_host(&h);
	/* 4 CPUs x 32 FLOP x 2.4 GHz = 307.2 GFLOP/s derived; 400 measured:
	 * the cores ran at 400e9 / 128 = 3.125 GHz or more. */
	h.effective_flop_per_s[0] = 4e11;
	(void)snprintf(h.caveat, sizeof(h.caveat), "OpenBLAS runs its Prescott kernels");
	p = probed(&text, &h, &o);
	c = rv_profile_compute(p, RV_DTYPE_FP32);
	rv_assert_close(c->peak_flop_per_s, 4e11, 1e-5, 0);
	rv_assert_contains(
	        c->provenance,
	        "peak = the measured rate, above 4 CPUs x 32 FLOP per cycle (2 FMA units "
	        "x 8 lanes x 2 in fp32) x the clock read (2.4 GHz): the cores ran at "
	        "3.12 GHz or more [measured]");
	rv_assert_contains(c->provenance,
	                   "; warning: OpenBLAS runs its Prescott kernels [uncertain]");
	/* fp64 stays below its derived peak: derived, and warned too. */
	c = rv_profile_compute(p, RV_DTYPE_FP64);
	rv_assert_close(c->peak_flop_per_s, 4 * 16 * 2.4e9, 1e-5, 0);
	rv_assert_contains(c->provenance, "peak = 4 CPUs x 16 FLOP per cycle (2 FMA units x 8 "
	                                  "lanes x 2 in fp32, fp64 has half the lanes) x clock "
	                                  "[derived]");
	rv_assert_contains(c->provenance, "warning: OpenBLAS runs its Prescott kernels");
	free(text);
	rv_profile_free(p);
}

/* A template without what the probe fills is refused, naming it. */
static void test_profile__probe_template_bad(void **state)
{
	struct rv_probe_opts o = { "probe_t", NULL, NULL, 0, 0 };
	struct rv_probe_host h;
	char path[4200], *text = NULL;
	const char *dir = rv_scratch_dir("probe_template");

	(void)state;
	fake_host(&h);
	(void)snprintf(path, sizeof(path), "%s/t.json", dir);
	o.template_path = path;
	rv_spit(path, "{\"schema\": \"roofval.hardware/1\"}");
	rv_assert_error(rv_probe_render(&text, &h, &o), RV_EPARSE,
	                "the probe template needs an object 'compute_units'");
	rv_spit(path,
	        "{\"compute_units\": {}, \"clocks\": {}, \"compute\": [{\"dtype\": \"fp16\"}], "
	        "\"power\": {\"energy_per_byte_J\": {}}, \"call_overhead\": {}}");
	rv_assert_error(rv_probe_render(&text, &h, &o), RV_EPARSE,
	                "compute[0]: the probe measures fp32 and fp64 only");
	rv_spit(path,
	        "{\"compute_units\": {}, \"clocks\": {}, \"compute\": [], "
	        "\"power\": {\"energy_per_byte_J\": {\"l1\": 1e-12}}, \"call_overhead\": {}}");
	rv_assert_error(rv_probe_render(&text, &h, &o), RV_EPARSE,
	                "needs power.energy_per_byte_J.l2");
	rv_spit(path, "not json");
	rv_assert_error(rv_probe_render(&text, &h, &o), RV_EPARSE, "the probe template");
	assert_null(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile__shipped_all_load),
		cmocka_unit_test(test_profile__shipped_i7_12700k),
		cmocka_unit_test(test_profile__shipped_h200),
		cmocka_unit_test(test_profile__good_minimal),
		cmocka_unit_test(test_profile__good_full),
		cmocka_unit_test(test_profile__good_folder),
		cmocka_unit_test(test_profile__bad_fixtures),
		cmocka_unit_test(test_profile__params_documented),
		cmocka_unit_test(test_profile__params_owned),
		cmocka_unit_test(test_profile__load_missing_file),
		cmocka_unit_test(test_profile__find_by_key),
		cmocka_unit_test(test_profile__find_by_path),
		cmocka_unit_test(test_profile__find_unknown_key),
		cmocka_unit_test(test_profile__find_bad_key),
		cmocka_unit_test(test_profile__paths_skip_fit_and_dot_files),
		cmocka_unit_test(test_profile__dir_precedence),
		cmocka_unit_test(test_profile__names),
		cmocka_unit_test(test_profile__probe_knee),
		cmocka_unit_test(test_profile__isa_table),
		cmocka_unit_test(test_profile__core_round_trip),
		cmocka_unit_test(test_profile__cpu_features_match_cpuinfo),
		cmocka_unit_test(test_profile__caches_cpuid),
		cmocka_unit_test(test_profile__probe_template),
		cmocka_unit_test(test_profile__probe_peak_and_caveat),
		cmocka_unit_test(test_profile__probe_template_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
