/* SPDX-License-Identifier: MIT */
/* Tests of the data layout: the file names it builds, the jobs of a baseline
 * folder, the cache (one load per run), and folder names too long. */
#include <string.h>

#include "layout/layout.h"
#include "rv_test.h"

static void open_in(struct rv_layout *l, const char *dir)
{
	char hw[RV_PATH_MAX], sw[RV_PATH_MAX];

	assert_int_equal(rv_path_join(hw, sizeof(hw), dir, "hw"), 0);
	assert_int_equal(rv_path_join(sw, sizeof(sw), dir, "sw"), 0);
	assert_int_equal(rv_layout_open(l, &(struct rv_layout_dirs){ hw, sw, dir }, 0), 0);
}

static void test_layout__paths(void **state)
{
	struct rv_layout l;
	char path[RV_PATH_MAX], small[16];

	(void)state;
	assert_int_equal(rv_layout_open(&l, &(struct rv_layout_dirs){ "H", "S", "B" }, 0), 0);
	assert_string_equal(l.hardware_dir, "H");
	assert_int_equal(rv_layout_profile_path(&l, path, sizeof(path), "cpu"), 0);
	assert_string_equal(path, "H/cpu.json");
	assert_int_equal(rv_layout_fit_path(&l, path, sizeof(path), "cpu"), 0);
	assert_string_equal(path, "H/cpu.fit.json");
	assert_int_equal(rv_layout_sweep_path(&l, path, sizeof(path), RV_OP_VECTOR_ADD,
	                                      RV_PURPOSE_CALIBRATION),
	                 0);
	assert_string_equal(path, "S/vector_add_calibration.json");
	assert_int_equal(rv_layout_baseline_path(&l, path, sizeof(path), "cpu", RV_OP_LINEAR), 0);
	assert_string_equal(path, "B/cpu_linear.csv");
	assert_int_equal(rv_layout_manifest_path(&l, path, sizeof(path), "cpu", RV_OP_MATMUL), 0);
	assert_string_equal(path, "B/cpu_matmul.meta.json");
	/* A name that does not fit is an error, not a truncated path. */
	rv_assert_error(
	        rv_layout_baseline_path(&l, small, sizeof(small), "a_long_key", RV_OP_MATMUL),
	        RV_ERANGE, "");
	rv_layout_close(&l);
}

static void test_layout__too_long_folder(void **state)
{
	static char dir[RV_PATH_MAX + 16];
	struct rv_layout l;

	(void)state;
	memset(dir, 'd', sizeof(dir) - 1);
	dir[sizeof(dir) - 1] = '\0';
	rv_assert_error(rv_layout_open(&l, &(struct rv_layout_dirs){ NULL, NULL, dir }, 0),
	                RV_ERANGE, "");
	rv_assert_error(rv_layout_open(&l, &(struct rv_layout_dirs){ dir, NULL, NULL }, 0),
	                RV_ERANGE, "");
	rv_assert_error(rv_layout_open(&l, &(struct rv_layout_dirs){ NULL, dir, NULL }, 0),
	                RV_ERANGE, "");
}

static void test_layout__jobs(void **state)
{
	const char *dir = rv_scratch_dir("layout_jobs");
	static const char *const names[] = { "zz_matmul.csv",       "aa_vector_add.csv",
		                             "aa_matmul.csv",       "aa_linear.csv",
		                             "aa_matmul.meta.json", "notes.txt",
		                             "_matmul.csv",         "aa_conv.csv" };
	char path[RV_PATH_MAX];
	struct rv_layout l;
	struct rv_job *jobs, j;
	size_t n;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(rv_path_join(path, sizeof(path), dir, names[i]), 0);
		rv_spit(path, "");
	}
	open_in(&l, dir);
	assert_int_equal(rv_layout_jobs(&l, &jobs, &n, NULL, -1), 0);
	assert_int_equal(n, 4);
	assert_string_equal(jobs[0].hw, "aa");
	assert_int_equal(jobs[0].op, RV_OP_MATMUL);
	assert_int_equal(jobs[1].op, RV_OP_LINEAR);
	assert_int_equal(jobs[2].op, RV_OP_VECTOR_ADD);
	assert_string_equal(jobs[3].hw, "zz");
	free(jobs);
	assert_int_equal(rv_layout_jobs(&l, &jobs, &n, "aa", RV_OP_LINEAR), 0);
	assert_int_equal(n, 1);
	assert_int_equal(jobs[0].op, RV_OP_LINEAR);
	free(jobs);
	assert_int_equal(rv_layout_jobs(&l, &jobs, &n, "none", -1), 0);
	assert_int_equal(n, 0);
	free(jobs);
	assert_int_equal(rv_job_of_name(&j, "x_y_vector_add.csv"), 1);
	assert_string_equal(j.hw, "x_y");
	assert_int_equal(j.op, RV_OP_VECTOR_ADD);
	assert_int_equal(rv_job_of_name(&j, "x_matmul.json"), 0);
	rv_layout_close(&l);
	/* A folder that is not there is an error. */
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "missing"), 0);
	assert_int_equal(rv_layout_open(&l, &(struct rv_layout_dirs){ NULL, NULL, path }, 0), 0);
	assert_true(rv_layout_jobs(&l, &jobs, &n, NULL, -1) < 0);
	assert_null(jobs);
	rv_layout_close(&l);
}

/* Each profile, sweep and baseline is loaded once: the same pointer twice. */
static void test_layout__cache(void **state)
{
	const char *dir = rv_scratch_dir("layout_cache");
	char path[RV_PATH_MAX], cmd[3 * RV_PATH_MAX];
	const struct rv_profile *p1, *p2;
	const struct rv_sweep *s1, *s2;
	const struct rv_baseline *b1, *b2;
	struct rv_layout l;

	(void)state;
	assert_int_equal(rv_path_fmt(cmd, sizeof(cmd),
	                             "mkdir -p '%s/hw' '%s/sw' && cp '%s' '%s/hw/'", dir, dir,
	                             rv_fixture_path("hardware/model/toy_gpu.json"), dir),
	                 0);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "sw/matmul_validation.json"), 0);
	rv_spit(path, "{\"op\": \"matmul\", \"purpose\": \"validation\", \"shapes\": []}\n");
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "toy_gpu_matmul.csv"), 0);
	rv_spit(path, "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n"
	              "toy_gpu,matmul,1x1x1,fp16,1e-06,,1,\n");
	open_in(&l, dir);
	assert_int_equal(rv_layout_profile(&l, &p1, "toy_gpu"), 0);
	assert_int_equal(rv_layout_profile(&l, &p2, "toy_gpu"), 0);
	assert_ptr_equal(p1, p2);
	assert_int_equal(l.n_profiles, 1);
	assert_int_equal(rv_layout_sweep(&l, &s1, RV_OP_MATMUL, RV_PURPOSE_VALIDATION), 0);
	assert_int_equal(rv_layout_sweep(&l, &s2, RV_OP_MATMUL, RV_PURPOSE_VALIDATION), 0);
	assert_ptr_equal(s1, s2);
	assert_int_equal(rv_layout_baseline(&l, &b1, "toy_gpu", RV_OP_MATMUL), 0);
	assert_int_equal(rv_layout_baseline(&l, &b2, "toy_gpu", RV_OP_MATMUL), 0);
	assert_ptr_equal(b1, b2);
	assert_int_equal(l.n_baselines, 1);
	assert_int_equal(b1->n_rows, 1);
	/* Missing files say which folder to give. */
	rv_assert_error(rv_layout_sweep(&l, &s1, RV_OP_LINEAR, RV_PURPOSE_VALIDATION), RV_ENOENT,
	                "--sweep-dir");
	rv_assert_error(rv_layout_baseline(&l, &b1, "toy_gpu", RV_OP_LINEAR), RV_ENOENT,
	                "--baseline-dir");
	/* A forgotten baseline is read again. */
	rv_layout_forget_baseline(&l, "toy_gpu", RV_OP_MATMUL);
	assert_int_equal(l.n_baselines, 0);
	assert_int_equal(rv_layout_baseline(&l, &b2, "toy_gpu", RV_OP_MATMUL), 0);
	assert_int_equal(l.n_baselines, 1);
	rv_layout_close(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout__paths),
		cmocka_unit_test(test_layout__too_long_folder),
		cmocka_unit_test(test_layout__jobs),
		cmocka_unit_test(test_layout__cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
