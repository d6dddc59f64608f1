/* SPDX-License-Identifier: MIT */
/* Tests of the public API (include/roofval/): opening the data folders,
 * profile keys and handles, one and batched predictions (the same numbers as
 * model/predict), sweeps, validation rendered in each format, the errors of
 * each; what the command line reaches through it (--no-fit, shapes as text,
 * predict and classify reports, hw list, the predictions CSV, several
 * models, the regression gate, nothing scored); and the data-folder
 * resolver (core/datadir) behind the defaults. */
#include <roofval/roofval.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/path.h"
#include "model/predict.h"
#include "rv_test.h"

#define HW_DIR   RV_DATA_DIR "/hardware"
#define SW_DIR   RV_DATA_DIR "/sweeps"
#define BASE_DIR RV_DATA_DIR "/results/baselines"

static void test_api__version(void **state)
{
	(void)state;
	assert_string_equal(rv_version(), RV_VERSION_STRING);
	assert_true(RV_VERSION_NUMBER >= 0x000100);
}

static void test_api__open_and_keys(void **state)
{
	rv_data *d;
	char **keys;
	size_t n, i;
	const rv_hw *hw, *again;

	(void)state;
	assert_int_equal(rv_data_open(&d, HW_DIR, SW_DIR, BASE_DIR), 0);
	assert_string_equal(rv_data_hardware_dir(d), HW_DIR);
	assert_string_equal(rv_data_sweep_dir(d), SW_DIR);
	assert_string_equal(rv_data_baseline_dir(d), BASE_DIR);
	assert_int_equal(rv_data_hw_keys(d, &keys, &n), 0);
	assert_true(n >= 2);
	for (i = 0; i < n && strcmp(keys[i], "i7_12700k") != 0; i++)
		assert_null(strchr(keys[i], '/'));
	assert_true(i < n);
	for (i = 0; i < n; i++)
		assert_null(strstr(keys[i], ".fit"));
	rv_strings_free(keys, n);
	assert_int_equal(rv_data_hw(d, "i7_12700k", &hw), 0);
	assert_int_equal(rv_data_hw(d, "i7_12700k", &again), 0);
	assert_ptr_equal(hw, again);
	assert_string_equal(rv_hw_key(hw), "i7_12700k");
	assert_string_equal(rv_hw_default_dtype(hw), "fp32");
	assert_non_null(rv_hw_name(hw));
	rv_assert_error(rv_data_hw(d, "no_such_hw", &hw), RV_ENOENT, "no_such_hw");
	rv_data_free(d);
	rv_data_free(NULL);
	rv_strings_free(NULL, 0);
}

static void test_api__predict(void **state)
{
	rv_data *d;
	const rv_hw *hw;
	rv_dims shapes[3] = { { { 64, 64, 64 } }, { { 512, 256, 1024 } }, { { 3, 5, 7 } } };
	rv_cost one, batch[3];
	struct rv_prediction ref;
	struct rv_shape s = { 3, { 512, 256, 1024 } };

	(void)state;
	assert_int_equal(rv_data_open(&d, HW_DIR, SW_DIR, BASE_DIR), 0);
	assert_int_equal(rv_data_hw(d, "i7_12700k", &hw), 0);
	assert_int_equal(rv_hw_predict(hw, "matmul", NULL, &shapes[1], &one), 0);
	/* The model's own numbers, unchanged. */
	assert_int_equal(rv_predict(&ref, (const struct rv_profile *)(const void *)hw, RV_OP_MATMUL,
	                            &s, RV_DTYPE_FP32),
	                 0);
	rv_assert_close(one.latency_s, ref.latency_s, 0, 0);
	rv_assert_close(one.energy_J, ref.energy_J, 0, 0);
	assert_int_equal(one.binding, ref.binding);
	assert_string_equal(rv_binding_name(one.binding), rv_bound_name(ref.binding));
	assert_int_equal(rv_hw_predict_batch(hw, "matmul", "fp32", shapes, 3, batch), 0);
	rv_assert_close(batch[1].latency_s, one.latency_s, 0, 0);
	assert_true(batch[0].latency_s > 0 && batch[2].energy_J > 0);
	assert_int_equal(rv_hw_predict_batch(hw, "matmul", NULL, shapes, 0, batch), 0);
	shapes[2].dim[1] = 0;
	rv_assert_error(rv_hw_predict_batch(hw, "matmul", NULL, shapes, 3, batch), RV_ERANGE,
	                "shape 2: ");
	rv_assert_error(rv_hw_predict(hw, "conv", NULL, &shapes[0], &one), RV_EPARSE, "conv");
	rv_assert_error(rv_hw_predict(hw, "matmul", "int3", &shapes[0], &one), RV_EPARSE, "int3");
	rv_assert_error(rv_hw_predict(hw, "matmul", "fp16", &shapes[0], &one), RV_ENOTSUP, "fp32");
	/* vector_add reads dim[0] only. */
	shapes[0] = (rv_dims){ { 1u << 20, 0, 0 } };
	assert_int_equal(rv_hw_predict(hw, "vector_add", NULL, &shapes[0], &one), 0);
	assert_true(one.latency_s > 0);
	assert_string_equal(rv_binding_name(-100), "?");
	rv_data_free(d);
}

static void test_api__sweep(void **state)
{
	rv_data *d;
	rv_sweep_item *items;
	size_t n;

	(void)state;
	assert_int_equal(rv_data_open(&d, HW_DIR, SW_DIR, BASE_DIR), 0);
	assert_int_equal(rv_data_sweep(d, "matmul", "validation", &items, &n), 0);
	assert_true(n > 0);
	assert_true(items[0].shape.dim[0] > 0 && items[0].shape.dim[2] > 0);
	assert_non_null(items[0].dtype);
	free(items);
	rv_assert_error(rv_data_sweep(d, "matmul", "testing", &items, &n), RV_EPARSE, "testing");
	rv_data_free(d);
	assert_int_equal(rv_data_open(&d, HW_DIR, RV_TEST_SCRATCH_DIR "/api-none", BASE_DIR), 0);
	assert_int_equal(rv_data_sweep(d, "linear", "validation", &items, &n), RV_ENOENT);
	rv_data_free(d);
}

static void test_api__validate(void **state)
{
	static const char *const formats[] = { "text", "markdown", "json" };
	rv_data *d;
	rv_validate_opts o = RV_VALIDATE_OPTS_INIT;
	char *report;
	size_t len;
	int passed = -1;

	(void)state;
	assert_int_equal(rv_data_open(&d, HW_DIR, SW_DIR, BASE_DIR), 0);
	o.hw = "xeon_amx_2vcpu";
	o.op = "vector_add";
	o.purpose = "validation";
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(rv_data_validate(d, &o, formats[i], &report, &len, &passed), 0);
		assert_int_equal(strlen(report), len);
		assert_non_null(strstr(report, "xeon_amx_2vcpu"));
		assert_true(passed == 0 || passed == 1);
		free(report);
	}
	assert_int_equal(rv_data_validate(d, NULL, NULL, &report, NULL, NULL), 0);
	assert_non_null(strstr(report, "linear"));
	free(report);
	rv_assert_error(rv_data_validate(d, &o, "yaml", &report, NULL, NULL), RV_EPARSE, "yaml");
	o.op = "conv";
	rv_assert_error(rv_data_validate(d, &o, NULL, &report, NULL, NULL), RV_EPARSE, "conv");
	o.op = NULL;
	o.predictions = "model.csv";
	rv_assert_error(rv_data_validate(d, &o, NULL, &report, NULL, NULL), RV_ENOENT, "model.csv");
	/* A struct not started from RV_VALIDATE_OPTS_INIT, or from a newer
	 * roofval, is refused, not misread. */
	o.version = 0;
	rv_assert_error(rv_data_validate(d, &o, NULL, &report, NULL, NULL), RV_ERANGE,
	                "RV_VALIDATE_OPTS_INIT");
	o.version = RV_VALIDATE_OPTS_VERSION + 1;
	rv_assert_error(rv_data_validate(d, &o, NULL, &report, NULL, NULL), RV_ERANGE, "version");
	rv_data_free(d);
	assert_int_equal(rv_data_open(&d, HW_DIR, SW_DIR, RV_TEST_SCRATCH_DIR "/api-empty"), 0);
	assert_int_equal(
	        mkdir(RV_TEST_SCRATCH_DIR, 0777) == 0 || access(RV_TEST_SCRATCH_DIR, F_OK) == 0, 1);
	(void)mkdir(RV_TEST_SCRATCH_DIR "/api-empty", 0777);
	assert_int_equal(rv_data_validate(d, NULL, NULL, &report, NULL, NULL), RV_ENOENT);
	rv_data_free(d);
}

/* RV_DATA_NO_FIT: the hand-edited profile, whose numbers the fit moves. */
static void test_api__open_flags(void **state)
{
	rv_data *fit, *hand;
	const rv_hw *a, *b;
	rv_dims s = { { 512, 512, 512 } };
	rv_cost ca, cb;

	(void)state;
	rv_assert_error(rv_data_open_flags(&fit, HW_DIR, SW_DIR, BASE_DIR, 0x10), RV_ERANGE,
	                "0x10");
	assert_int_equal(rv_data_open_flags(&fit, HW_DIR, SW_DIR, BASE_DIR, 0), 0);
	assert_int_equal(rv_data_open_flags(&hand, HW_DIR, SW_DIR, BASE_DIR, RV_DATA_NO_FIT), 0);
	assert_int_equal(rv_data_hw(fit, "i7_12700k", &a), 0);
	assert_int_equal(rv_data_hw(hand, "i7_12700k", &b), 0);
	assert_int_equal(rv_hw_predict(a, "matmul", NULL, &s, &ca), 0);
	assert_int_equal(rv_hw_predict(b, "matmul", NULL, &s, &cb), 0);
	assert_true(ca.latency_s > 0 && cb.latency_s > 0);
	assert_true(ca.latency_s < cb.latency_s || ca.latency_s > cb.latency_s);
	rv_data_free(fit);
	rv_data_free(hand);
}

static void test_api__dims_parse(void **state)
{
	rv_dims d;

	(void)state;
	assert_int_equal(rv_dims_parse(&d, "matmul", "64x128x256"), 0);
	assert_true(d.dim[0] == 64 && d.dim[1] == 128 && d.dim[2] == 256);
	assert_int_equal(rv_dims_parse(&d, "vector_add", "1048576"), 0);
	assert_true(d.dim[0] == 1048576 && d.dim[1] == 0 && d.dim[2] == 0);
	rv_assert_error(rv_dims_parse(&d, "matmul", "64x128"), RV_EPARSE, "64x128");
	rv_assert_error(rv_dims_parse(&d, "conv", "1x1x1"), RV_EPARSE, "conv");
	assert_true(rv_dims_parse(&d, "linear", "1x0x3") < 0);
}

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* predict's and classify's reports: text and JSON, the formats they lack. */
static void test_api__reports(void **state)
{
	rv_data *d;
	const rv_hw *hw;
	rv_dims s = { { 4096, 4096, 4096 } };
	char *r;
	size_t len;

	(void)state;
	assert_int_equal(rv_data_open(&d, HW_DIR, SW_DIR, BASE_DIR), 0);
	assert_int_equal(rv_data_hw(d, "i7_12700k", &hw), 0);
	assert_int_equal(rv_hw_predict_report(hw, "matmul", NULL, &s, NULL, &r, &len), 0);
	assert_int_equal(strlen(r), len);
	assert_true(starts_with(r, "i7_12700k matmul 4096x4096x4096 fp32\n"));
	assert_non_null(strstr(r, "latency"));
	free(r);
	assert_int_equal(rv_hw_predict_report(hw, "matmul", "fp32", &s, "json", &r, NULL), 0);
	assert_non_null(strstr(r, "\"schema\": \"roofval.predict/1\""));
	free(r);
	assert_int_equal(rv_hw_classify_report(hw, "matmul", NULL, &s, "text", &r, NULL), 0);
	assert_true(starts_with(r, "i7_12700k matmul 4096x4096x4096 fp32: dram_bound\n"));
	free(r);
	assert_int_equal(rv_hw_classify_report(hw, "matmul", NULL, &s, "json", &r, &len), 0);
	assert_non_null(strstr(r, "\"schema\": \"roofval.classify/1\""));
	assert_non_null(strstr(r, "\"regime\": \"dram_bound\""));
	assert_non_null(strstr(r, "\"flop\": 137438953472.0"));
	assert_int_equal(r[len - 1], '\n');
	free(r);
	/* An unsupported dtype is a classification, not an error. */
	assert_int_equal(rv_hw_classify_report(hw, "matmul", "fp16", &s, "json", &r, NULL), 0);
	assert_non_null(strstr(r, "\"regime\": \"unsupported\""));
	assert_non_null(strstr(r, "\"compute_s\": null"));
	free(r);
	r = NULL;
	rv_assert_error(rv_hw_predict_report(hw, "matmul", "fp16", &s, NULL, &r, NULL), RV_ENOTSUP,
	                "fp16");
	rv_assert_error(rv_hw_classify_report(hw, "matmul", NULL, &s, "markdown", &r, NULL),
	                RV_EPARSE, "markdown");
	rv_assert_error(rv_hw_predict_report(hw, "matmul", NULL, &s, "yaml", &r, NULL), RV_EPARSE,
	                "yaml");
	s.dim[1] = 0;
	rv_assert_error(rv_hw_classify_report(hw, "matmul", NULL, &s, NULL, &r, NULL), RV_ERANGE,
	                "");
	assert_null(r);
	rv_data_free(d);
}

static void count_error(void *arg, int err, const char *message)
{
	assert_true(err < 0);
	assert_non_null(strstr(message, "broken.json"));
	++*(int *)arg;
}

/* hw list: a profile that does not load is passed on and left out. */
static void test_api__hw_list(void **state)
{
	const char *dir = RV_TEST_SCRATCH_DIR "/api-list";
	rv_data *d;
	char *text, path[RV_PATH_MAX];
	size_t len, failed = 99;
	int calls = 0;
	FILE *f;

	(void)state;
	(void)mkdir(RV_TEST_SCRATCH_DIR, 0777);
	(void)mkdir(dir, 0777);
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "broken.json"), 0);
	assert_non_null(f = fopen(path, "w"));
	assert_true(fputs("{ \"name\": ", f) >= 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rv_data_open(&d, dir, SW_DIR, BASE_DIR), 0);
	assert_int_equal(rv_data_hw_list(d, &text, &len, count_error, &calls, &failed), 0);
	assert_int_equal(calls, 1);
	assert_int_equal(failed, 1);
	assert_int_equal(strlen(text), len);
	assert_true(strncmp(text, "key ", 4) == 0 && strchr(text, '\n') == text + len - 1);
	free(text);
	rv_data_free(d);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rv_data_open(&d, dir, SW_DIR, BASE_DIR), 0);
	rv_assert_error(rv_data_hw_list(d, &text, NULL, NULL, NULL, NULL), RV_ENOENT,
	                "no profiles");
	rv_data_free(d);
	assert_int_equal(rv_data_open(&d, HW_DIR, SW_DIR, BASE_DIR), 0);
	assert_int_equal(rv_data_hw_list(d, &text, NULL, NULL, NULL, &failed), 0);
	assert_int_equal(failed, 0);
	assert_non_null(strstr(text, "\ni7_12700k "));
	free(text);
	rv_data_free(d);
}

/* The predictions CSV of the sweeps, then validated as a model beside the
 * built-in one, and the regression gate against a report of this run. */
static void test_api__models_and_gate(void **state)
{
	const char *csv_path = RV_TEST_SCRATCH_DIR "/api-xeon.csv",
	           *old_path = RV_TEST_SCRATCH_DIR "/api-old.json";
	rv_data *d;
	rv_validate_opts o = RV_VALIDATE_OPTS_INIT;
	rv_model models[2] = { { NULL, NULL, 0 }, { csv_path, NULL, 0 } };
	char *csv, *report, *again;
	size_t len;
	int passed = -1;
	FILE *f;

	(void)state;
	(void)mkdir(RV_TEST_SCRATCH_DIR, 0777);
	assert_int_equal(rv_data_open(&d, HW_DIR, SW_DIR, BASE_DIR), 0);
	rv_assert_error(rv_data_predictions(d, NULL, NULL, NULL, &csv, &len), RV_EPARSE,
	                "hardware");
	rv_assert_error(rv_data_predictions(d, "xeon_amx_2vcpu", "conv", NULL, &csv, &len),
	                RV_EPARSE, "conv");
	assert_int_equal(
	        rv_data_predictions(d, "xeon_amx_2vcpu", "matmul", "validation", &csv, &len), 0);
	assert_int_equal(strlen(csv), len);
	assert_non_null(strstr(csv, "xeon_amx_2vcpu,matmul,"));
	assert_non_null(f = fopen(csv_path, "w"));
	assert_int_equal(fwrite(csv, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(csv);
	o.hw = "xeon_amx_2vcpu";
	o.op = "matmul";
	o.purpose = "validation";
	o.models = models;
	o.n_models = 2;
	assert_int_equal(rv_data_validate(d, &o, "json", &report, &len, &passed), 0);
	assert_non_null(strstr(report, "\"model\": \"roofval\""));
	assert_non_null(strstr(report, "\"model\": \"api-xeon\""));
	free(report);
	o.predictions = csv_path;
	rv_assert_error(rv_data_validate(d, &o, NULL, &report, NULL, NULL), RV_EPARSE, "not both");
	o.predictions = NULL;
	o.n_models = 0;
	/* The gate: against a report of the same run nothing regressed. */
	assert_int_equal(rv_data_validate(d, &o, "json", &report, &len, &passed), 0);
	assert_non_null(f = fopen(old_path, "w"));
	assert_int_equal(fwrite(report, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(report);
	o.against = old_path;
	o.regression_points = 2;
	passed = -1;
	assert_int_equal(rv_data_validate(d, &o, "text", &again, NULL, &passed), 0);
	assert_int_equal(passed, 1);
	free(again);
	o.against = RV_TEST_SCRATCH_DIR "/api-no-such.json";
	rv_assert_error(rv_data_validate(d, &o, NULL, &report, NULL, NULL), RV_ENOENT,
	                "api-no-such.json");
	/* A model for a target without baselines scores nothing: an error. */
	assert_int_equal(rv_data_predictions(d, "i7_12700k", "matmul", "validation", &csv, &len),
	                 0);
	assert_non_null(f = fopen(csv_path, "w"));
	assert_int_equal(fwrite(csv, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(csv);
	o.against = NULL;
	o.hw = NULL;
	o.purpose = NULL;
	o.predictions = csv_path;
	rv_assert_error(rv_data_validate(d, &o, NULL, &report, NULL, NULL), RV_ENOENT,
	                "nothing scored");
	rv_data_free(d);
}

/* The resolver's order: option, per-folder variable, $ROOFVAL_DATA_DIR, the
 * current folder's, then (a build-tree binary) the source tree. */
static void test_api__datadir(void **state)
{
	char cwd[RV_PATH_MAX], dir[RV_PATH_MAX];

	(void)state;
	assert_int_equal(unsetenv("ROOFVAL_HARDWARE_DIR"), 0);
	assert_int_equal(unsetenv("ROOFVAL_DATA_DIR"), 0);
	assert_string_equal(rv_dir_resolve(RV_DIR_HARDWARE, "given"), "given");
	assert_string_equal(rv_dir_resolve(RV_DIR_SWEEPS, NULL), RV_DATA_DIR "/sweeps");
	assert_string_equal(rv_dir_resolve(RV_DIR_BASELINES, ""), RV_DATA_DIR "/results/baselines");
	assert_int_equal(setenv("ROOFVAL_DATA_DIR", "/d", 1), 0);
	assert_string_equal(rv_dir_resolve(RV_DIR_BASELINES, NULL), "/d/results/baselines");
	assert_string_equal(rv_dir_resolve(RV_DIR_HARDWARE, NULL), "/d/hardware");
	assert_int_equal(setenv("ROOFVAL_HARDWARE_DIR", "/h", 1), 0);
	assert_string_equal(rv_dir_resolve(RV_DIR_HARDWARE, NULL), "/h");
	assert_string_equal(rv_dir_resolve(RV_DIR_HARDWARE, "opt"), "opt");
	assert_int_equal(unsetenv("ROOFVAL_HARDWARE_DIR"), 0);
	assert_int_equal(unsetenv("ROOFVAL_DATA_DIR"), 0);
	/* A folder with hardware/ in it, as the current folder. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	(void)mkdir(RV_TEST_SCRATCH_DIR, 0777);
	(void)mkdir(RV_TEST_SCRATCH_DIR "/api-cwd", 0777);
	(void)mkdir(RV_TEST_SCRATCH_DIR "/api-cwd/hardware", 0777);
	assert_int_equal(chdir(RV_TEST_SCRATCH_DIR "/api-cwd"), 0);
	assert_string_equal(rv_dir_resolve(RV_DIR_HARDWARE, NULL), "hardware");
	assert_string_equal(rv_dir_resolve(RV_DIR_SWEEPS, NULL), RV_DATA_DIR "/sweeps");
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(rv_path_join(dir, sizeof(dir), RV_DATA_DIR, "hardware"), 0);
	assert_string_equal(rv_dir_resolve(RV_DIR_HARDWARE, NULL), dir);
}

/* Every public function given NULL where it needs a pointer: an error code
 * and a message naming the function and the argument, never a crash. */
static void test_api__null_pointers(void **state)
{
	rv_data *d;
	const rv_hw *hw;
	rv_dims dims = { { 64, 64, 64 } };
	rv_cost cost;
	char *text, **keys;
	size_t n;
	rv_sweep_item *items;
	rv_validate_opts o = RV_VALIDATE_OPTS_INIT;
	const char *dirs[1] = { NULL };

	(void)state;
	rv_assert_error(rv_data_open(NULL, HW_DIR, SW_DIR, BASE_DIR), RV_ERROR,
	                "rv_data_open(): out");
	rv_assert_error(rv_data_open_flags(NULL, NULL, NULL, NULL, 0), RV_ERROR, "out is NULL");
	assert_int_equal(rv_data_open(&d, HW_DIR, SW_DIR, BASE_DIR), 0);
	rv_assert_error(rv_data_hw(d, NULL, &hw), RV_EPARSE, "no hardware key");
	rv_assert_error(rv_data_hw(NULL, "i7_12700k", &hw), RV_ERROR, "rv_data_hw(): d is NULL");
	rv_assert_error(rv_data_hw(d, "i7_12700k", NULL), RV_ERROR, "out is NULL");
	assert_int_equal(rv_data_hw(d, "i7_12700k", &hw), 0);
	rv_error_clear();
	assert_null(rv_data_hardware_dir(NULL));
	rv_assert_contains(rv_error_last(), "rv_data_hardware_dir(): d is NULL");
	assert_null(rv_data_sweep_dir(NULL));
	assert_null(rv_data_baseline_dir(NULL));
	assert_null(rv_hw_key(NULL));
	rv_assert_contains(rv_error_last(), "rv_hw_key(): hw is NULL");
	assert_null(rv_hw_name(NULL));
	assert_null(rv_hw_default_dtype(NULL));
	rv_assert_error(rv_data_hw_keys(NULL, &keys, &n), RV_ERROR, "d is NULL");
	rv_assert_error(rv_data_hw_keys(d, NULL, &n), RV_ERROR, "keys is NULL");
	rv_assert_error(rv_data_hw_keys(d, &keys, NULL), RV_ERROR, "n is NULL");
	rv_assert_error(rv_data_hw_list(NULL, &text, NULL, NULL, NULL, NULL), RV_ERROR,
	                "d is NULL");
	rv_assert_error(rv_data_hw_list(d, NULL, NULL, NULL, NULL, NULL), RV_ERROR, "text is NULL");
	rv_assert_error(rv_data_sweep(NULL, "matmul", "validation", &items, &n), RV_ERROR,
	                "rv_data_sweep(): d is NULL");
	rv_assert_error(rv_data_sweep(d, "matmul", "validation", NULL, &n), RV_ERROR, "items");
	rv_assert_error(rv_data_sweep(d, "matmul", "validation", &items, NULL), RV_ERROR, "n is");
	rv_assert_error(rv_data_sweep(d, NULL, "validation", &items, &n), RV_EPARSE, "op");
	rv_assert_error(rv_dims_parse(NULL, "matmul", "1x2x3"), RV_ERROR, "out is NULL");
	rv_assert_error(rv_dims_parse(&dims, NULL, "1x2x3"), RV_EPARSE, "op");
	rv_assert_error(rv_dims_parse(&dims, "matmul", NULL), RV_EPARSE, "shape");
	dims = (rv_dims){ { 64, 64, 64 } };
	rv_assert_error(rv_hw_predict(NULL, "matmul", NULL, &dims, &cost), RV_ERROR,
	                "rv_hw_predict(): hw is NULL");
	rv_assert_error(rv_hw_predict(hw, "matmul", NULL, NULL, &cost), RV_ERROR, "shape is NULL");
	rv_assert_error(rv_hw_predict(hw, "matmul", NULL, &dims, NULL), RV_ERROR, "out is NULL");
	rv_assert_error(rv_hw_predict(hw, NULL, NULL, &dims, &cost), RV_EPARSE, "op");
	rv_assert_error(rv_hw_predict_batch(NULL, "matmul", NULL, &dims, 1, &cost), RV_ERROR,
	                "hw is NULL");
	rv_assert_error(rv_hw_predict_batch(hw, "matmul", NULL, NULL, 1, &cost), RV_ERROR,
	                "shapes is NULL");
	rv_assert_error(rv_hw_predict_batch(hw, "matmul", NULL, &dims, 1, NULL), RV_ERROR,
	                "out is NULL");
	assert_int_equal(rv_hw_predict_batch(hw, "matmul", NULL, NULL, 0, NULL), 0);
	rv_assert_error(rv_hw_predict_report(NULL, "matmul", NULL, &dims, NULL, &text, NULL),
	                RV_ERROR, "rv_hw_predict_report(): hw is NULL");
	rv_assert_error(rv_hw_predict_report(hw, "matmul", NULL, NULL, NULL, &text, NULL), RV_ERROR,
	                "shape is NULL");
	rv_assert_error(rv_hw_predict_report(hw, "matmul", NULL, &dims, NULL, NULL, NULL), RV_ERROR,
	                "report is NULL");
	rv_assert_error(rv_hw_classify_report(NULL, "matmul", NULL, &dims, NULL, &text, NULL),
	                RV_ERROR, "rv_hw_classify_report(): hw is NULL");
	rv_assert_error(rv_hw_classify_report(hw, "matmul", NULL, NULL, NULL, &text, NULL),
	                RV_ERROR, "shape is NULL");
	rv_assert_error(rv_hw_classify_report(hw, "matmul", NULL, &dims, NULL, NULL, NULL),
	                RV_ERROR, "report is NULL");
	rv_assert_error(rv_data_predictions(NULL, "i7_12700k", NULL, NULL, &text, NULL), RV_ERROR,
	                "rv_data_predictions(): d is NULL");
	rv_assert_error(rv_data_predictions(d, "i7_12700k", NULL, NULL, NULL, NULL), RV_ERROR,
	                "csv is NULL");
	rv_assert_error(rv_data_predictions(d, NULL, NULL, NULL, &text, NULL), RV_EPARSE,
	                "no hardware key");
	rv_assert_error(rv_data_validate(NULL, NULL, NULL, &text, NULL, NULL), RV_ERROR,
	                "rv_data_validate(): d is NULL");
	rv_assert_error(rv_data_validate(d, NULL, NULL, NULL, NULL, NULL), RV_ERROR,
	                "report is NULL");
	o.n_models = 2;
	rv_assert_error(rv_data_validate(d, &o, NULL, &text, NULL, NULL), RV_ERROR,
	                "opts->models is NULL");
	o.n_models = 0;
	o.n_repeat_baseline_dirs = 1;
	rv_assert_error(rv_data_validate(d, &o, NULL, &text, NULL, NULL), RV_ERROR,
	                "opts->repeat_baseline_dirs is NULL");
	o.repeat_baseline_dirs = dirs;
	rv_assert_error(rv_data_validate(d, &o, NULL, &text, NULL, NULL), RV_ERROR,
	                "opts->repeat_baseline_dirs[i] is NULL");
	rv_data_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api__version),    cmocka_unit_test(test_api__open_and_keys),
		cmocka_unit_test(test_api__predict),    cmocka_unit_test(test_api__sweep),
		cmocka_unit_test(test_api__validate),   cmocka_unit_test(test_api__open_flags),
		cmocka_unit_test(test_api__dims_parse), cmocka_unit_test(test_api__reports),
		cmocka_unit_test(test_api__hw_list),    cmocka_unit_test(test_api__models_and_gate),
		cmocka_unit_test(test_api__datadir),    cmocka_unit_test(test_api__null_pointers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
