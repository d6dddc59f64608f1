/* SPDX-License-Identifier: MIT */
/* Tests of the data layout: the file names it builds, the jobs of a baseline
 * folder, the cache (one load per run), and folder names too long. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layout/layout.h"
#include "model/calibrate.h"
#include "plot/plot.h"
#include "report/report.h"
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

/* A folder set of toy_gpu: its profile, both matmul sweeps, a baseline. */
static const char *toy_folders(const char *name)
{
	static const char sweep[] = "{\"op\": \"matmul\", \"purpose\": \"%s\", \"shapes\": "
	                            "[{\"shape\": [64, 64, 64], \"dtype\": \"fp16\", "
	                            "\"regime_per_hw\": {\"toy_gpu\": \"launch_bound\"}},"
	                            "{\"shape\": [64, 32, 64], \"dtype\": \"fp16\", "
	                            "\"regime_per_hw\": {\"toy_gpu\": \"launch_bound\"}}]}\n";
	const char *dir = rv_scratch_dir(name);
	char path[RV_PATH_MAX], cmd[3 * RV_PATH_MAX], text[1024];

	assert_int_equal(rv_path_fmt(cmd, sizeof(cmd),
	                             "mkdir -p '%s/hw' '%s/sw' && cp '%s' '%s/hw/'", dir, dir,
	                             rv_fixture_path("hardware/model/toy_gpu.json"), dir),
	                 0);
	assert_int_equal(system(cmd), 0);
	for (int pu = 0; pu < RV_PURPOSE_COUNT; pu++) {
		(void)snprintf(text, sizeof(text), sweep, rv_purpose_name((enum rv_purpose)pu));
		assert_int_equal(rv_path_fmt(path, sizeof(path), "%s/sw/matmul_%s.json", dir,
		                             rv_purpose_name((enum rv_purpose)pu)),
		                 0);
		rv_spit(path, text);
	}
	assert_int_equal(rv_path_join(path, sizeof(path), dir, "toy_gpu_matmul.csv"), 0);
	rv_spit(path, "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n"
	              "toy_gpu,matmul,64x64x64,fp16,3.5e-06,,11,\n"
	              "toy_gpu,matmul,64x32x64,fp16,2.2e-06,,11,\n");
	return dir;
}

/* Calibration over a layout: the rows reach the fit (two rows for two
 * parameters are too few), a missing baseline is named, none is an error. */
static void test_layout__calibrate(void **state)
{
	const char *dir = toy_folders("layout_calibrate");
	struct rv_calibration c;
	struct rv_profile *p;
	struct rv_layout l;
	char hw[RV_PATH_MAX];

	(void)state;
	open_in(&l, dir);
	memset(&c, 0, sizeof(c));
	rv_assert_error(rv_layout_calibrate(&l, &c, &p, "toy_gpu", -1), RV_ERROR,
	                "2 latency rows for 2 parameters");
	assert_non_null(p);
	assert_int_equal(c.n_sources, 1);
	assert_int_equal(c.n_rows, 2);
	rv_profile_free(p);
	rv_calibration_free(&c);
	rv_assert_error(rv_layout_calibrate(&l, &c, &p, "toy_gpu", RV_OP_LINEAR), RV_ENOENT,
	                "toy_gpu_linear.csv; capture it on the target first");
	rv_profile_free(p);
	rv_calibration_free(&c);
	rv_layout_close(&l);
	/* A baseline folder without baselines: the profile folder. */
	assert_int_equal(rv_path_join(hw, sizeof(hw), dir, "hw"), 0);
	assert_int_equal(rv_layout_open(&l, &(struct rv_layout_dirs){ hw, NULL, hw }, 0), 0);
	rv_assert_error(rv_layout_calibrate(&l, &c, &p, "toy_gpu", -1), RV_ENOENT,
	                "no baselines of toy_gpu in");
	rv_profile_free(p);
	rv_calibration_free(&c);
	rv_layout_close(&l);
}

/* roofval plot and roofval report without argv. */
static void test_layout__plot_and_report(void **state)
{
	const char *dir = toy_folders("layout_plot");
	char hw[RV_PATH_MAX], sw[RV_PATH_MAX], out[RV_PATH_MAX], name[64];
	const char *hws[] = { "toy_gpu" }, *bdirs[1], *sdirs[1];
	const enum rv_op ops[] = { RV_OP_MATMUL };
	struct rv_buf svg = RV_BUF_INIT;
	struct rv_report_html_result done;
	char *page;

	(void)state;
	assert_int_equal(rv_path_join(hw, sizeof(hw), dir, "hw"), 0);
	assert_int_equal(rv_path_join(sw, sizeof(sw), dir, "sw"), 0);
	assert_int_equal(rv_path_join(out, sizeof(out), dir, "out"), 0);
	bdirs[0] = dir;
	sdirs[0] = sw;
	assert_int_equal(
	        rv_plot_draw(&svg, &(struct rv_plot_opts){ RV_PLOT_ROOFLINE, hws, 1, ops, 1, -1,
	                                                   bdirs, 1, sdirs, 1, hw, 0 }),
	        0);
	rv_assert_contains(rv_buf_str(&svg), "<svg");
	rv_buf_reset(&svg);
	rv_assert_error(rv_plot_draw(&svg, &(struct rv_plot_opts){ RV_PLOT_COMPARE, hws, 1, NULL, 0,
	                                                           -1, bdirs, 1, sdirs, 1, hw, 0 }),
	                RV_ERROR, "1 targets for a comparison");
	assert_int_equal(rv_plot_draw(&svg, &(struct rv_plot_opts){ RV_PLOT_HEATMAP, NULL, 0, NULL,
	                                                            0, RV_PURPOSE_VALIDATION, bdirs,
	                                                            1, sdirs, 1, hw, 0 }),
	                 0);
	rv_assert_contains(rv_buf_str(&svg), "toy_gpu");
	rv_buf_free(&svg);
	assert_int_equal(rv_plot_file_name(name, sizeof(name), RV_PLOT_COMPARE, "a", "b"), 0);
	assert_string_equal(name, "compare_a_b.svg");
	assert_int_equal(rv_plot_png_path(name, sizeof(name), "x.svg"), 0);
	assert_string_equal(name, "x.png");
	assert_int_equal(rv_plot_png_path(name, sizeof(name), "x.pic"), 0);
	assert_string_equal(name, "x.pic.png");
	/* The default folders are these, so the folder given again is read once. */
	assert_int_equal(setenv("ROOFVAL_BASELINE_DIR", dir, 1), 0);
	assert_int_equal(setenv("ROOFVAL_SWEEP_DIR", sw, 1), 0);
	assert_int_equal(
	        rv_report_html(&(struct rv_report_html_opts){ out, bdirs, 1, sdirs, 1, hw, 0 },
	                       &done),
	        0);
	assert_int_equal(done.n_targets, 1);
	assert_int_equal(done.n_pictures, 3); /* the heatmap, the roofline, the errors */
	assert_int_equal(rv_path_join(out, sizeof(out), dir, "out/index.html"), 0);
	page = rv_slurp(out, NULL);
	assert_non_null(page);
	rv_assert_contains(page, "toy_gpu_roofline.svg");
	rv_assert_contains(page, "toy_gpu_error.svg");
	/* A table of contents first, linking each section's anchor; the heatmap
	 * before the tables. */
	rv_assert_contains(page, "<nav class=\"toc\">");
	rv_assert_contains(page, "<li><a href=\"#heatmap\">Heatmap</a></li>");
	rv_assert_contains(page, "<li><a href=\"#why\">Where and why</a></li>");
	rv_assert_contains(page, "<li><a href=\"#target-toy_gpu\">");
	rv_assert_contains(page, "<h2 id=\"target-toy_gpu\">");
	assert_true(strstr(page, "<nav class=\"toc\">") < strstr(page, "<h2 id=\"heatmap\">"));
	assert_true(strstr(page, "<h2 id=\"heatmap\">") < strstr(page, "<h2 id=\"summary\">"));
	assert_true(strstr(page, "<h2 id=\"summary\">") < strstr(page, "<h2 id=\"worst\">"));
	free(page);
	assert_int_equal(rv_path_join(out, sizeof(out), dir, "out/heatmap.svg"), 0);
	assert_int_equal(access(out, R_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout__paths),
		cmocka_unit_test(test_layout__too_long_folder),
		cmocka_unit_test(test_layout__jobs),
		cmocka_unit_test(test_layout__cache),
		cmocka_unit_test(test_layout__calibrate),
		cmocka_unit_test(test_layout__plot_and_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
