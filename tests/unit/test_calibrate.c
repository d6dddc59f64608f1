/* SPDX-License-Identifier: MIT */
/* Tests of calibration: it recovers known parameters from synthetic measurements, reads
 * only calibration rows, is deterministic, refuses unphysical fits and too few rows, and
 * its fit files apply to profiles strictly. */
#include <jansson.h>

#include "hw/fit.h"
#include "io/baseline.h"
#include "io/file.h"
#include "layout/layout.h"
#include "model/calibrate.h"
#include "model/predict.h"
#include "report/report.h"
#include "rv_test.h"

static struct rv_profile *toy(void)
{
	struct rv_profile *p;

	if (rv_profile_load(&p, rv_fixture_path("hardware/model/toy_gpu.json")) != 0)
		fail_msg("%s", rv_error_last());
	return p;
}

/* The calibration shapes: launch-, compute- and memory-bound GEMMs. */
static const char *const cal_shapes[] = {
	"64x64x64",       "64x128x64",     "128x64x128",     "256x256x256",    "512x512x512",
	"1024x1024x1024", "2048x2048x512", "512x2048x2048",  "4096x256x4096",  "256x4096x256",
	"8192x64x8192",   "64x8192x64",    "1024x4096x1024", "3072x3072x3072", "16x16384x16",
};
#define N_CAL (sizeof(cal_shapes) / sizeof(cal_shapes[0]))

/* Writes a calibration sweep of cal_shapes and a baseline measured on a
 * "true" toy_gpu (effective rate 0.8e12, DRAM 0.7e11 B/s, overhead_s per
 * call, 3 us but in write_data_truth(); L1 at l1_Bps when it is not 0) with a deterministic +-3% scatter; extra
 * adds rows that only a validation sweep lists. */
static void write_data_truth(const char *dir, int extra, double l1_Bps, double overhead_s)
{
	struct rv_profile *truth = toy();
	struct rv_buf sweep = RV_BUF_INIT, csv = RV_BUF_INIT;
	char path[4200];

	truth->compute[0].effective_flop_per_s = 0.8e12;
	truth->memory[2].effective_bw_Bps = 0.7e11;
	truth->op_overhead_s[RV_OP_MATMUL] = overhead_s;
	if (l1_Bps > 0)
		truth->memory[0].effective_bw_Bps = l1_Bps;
	rv_buf_puts(&sweep, "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": [");
	rv_buf_puts(&csv, "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n");
	for (size_t i = 0; i < N_CAL + (extra ? 3 : 0); i++) {
		static const char *const more[] = { "100x100x100", "5000x100x5000",
			                            "300x3000x300" };
		const char *text = i < N_CAL ? cal_shapes[i] : more[i - N_CAL];
		struct rv_prediction r;
		struct rv_shape s;
		double scatter = 1 + 0.03 * ((double)((i * 7) % 5) - 2) / 2;
		unsigned long long m, k, n;

		assert_int_equal(rv_shape_parse(text, RV_OP_MATMUL, &s), 0);
		assert_int_equal(rv_predict(&r, truth, RV_OP_MATMUL, &s, RV_DTYPE_FP16), 0);
		(void)sscanf(text, "%llux%llux%llu", &m, &k, &n);
		if (i < N_CAL)
			rv_buf_printf(&sweep,
			              "%s{\"shape\": [%llu, %llu, %llu], \"dtype\": \"fp16\", "
			              "\"regime_per_hw\": {\"toy_gpu\": \"alu_bound\"}}",
			              i ? ", " : "", m, k, n);
		rv_buf_printf(&csv, "toy_gpu,matmul,%s,fp16,%.17g,%.17g,11,\n", text,
		              r.latency_s * scatter, r.energy_J * scatter);
	}
	rv_buf_puts(&sweep, "]}");
	(void)snprintf(path, sizeof(path), "%s/matmul_calibration.json", dir);
	rv_spit(path, sweep.data);
	(void)snprintf(path, sizeof(path), "%s/toy_gpu_matmul.csv", dir);
	rv_spit(path, csv.data);
	rv_buf_free(&sweep);
	rv_buf_free(&csv);
	rv_profile_free(truth);
}

static void write_data_l1(const char *dir, int extra, double l1_Bps)
{
	write_data_truth(dir, extra, l1_Bps, 3e-6);
}

static void write_data(const char *dir, int extra)
{
	write_data_l1(dir, extra, 0);
}

/* Adds the rows of dir to c for p and fits them; returns rv_calibrate_fit()'s code. */
static int calibrate_into(const char *dir, struct rv_calibration *c, struct rv_profile *p)
{
	struct rv_sweep *s;
	struct rv_baseline *b;
	char path[4200];
	int rc;

	memset(c, 0, sizeof(*c));
	(void)snprintf(path, sizeof(path), "%s/matmul_calibration.json", dir);
	assert_int_equal(rv_sweep_load(&s, path), 0);
	(void)snprintf(path, sizeof(path), "%s/toy_gpu_matmul.csv", dir);
	assert_int_equal(rv_baseline_load(&b, path), 0);
	assert_int_equal(rv_calibrate_add(c, p, s, b, path), 0);
	rc = rv_calibrate_fit(c, p);
	rv_sweep_free(s);
	rv_baseline_free(b);
	return rc;
}

/* Calibrates toy_gpu from dir; returns the fit file text (free it). */
static char *calibrate_dir(const char *dir, struct rv_profile **fitted, int *rc)
{
	struct rv_profile *p = toy();
	struct rv_calibration c;
	struct rv_buf out = RV_BUF_INIT;

	*rc = calibrate_into(dir, &c, p);
	if (*rc == 0) {
		assert_int_equal(rv_calibrate_render(&out, &c, p, "2026-11-30"), 0);
		/* One op: its leave-one-out summary is the whole one. */
		assert_int_equal(c.n_sources, 1);
		rv_assert_close(c.sources[0].lat_loo_median_ape, c.lat_loo_median_ape, 0, 0);
		rv_assert_close(c.sources[0].lat_loo_within_band, c.lat_loo_within_band, 0, 0);
		rv_assert_close(c.sources[0].en_loo_median_ape, c.en_loo_median_ape, 0, 0);
		assert_true(c.lat_loo_median_ape > 0 && isfinite(c.en_loo_median_ape));
	}
	rv_calibration_free(&c);
	if (fitted)
		*fitted = p;
	else
		rv_profile_free(p);
	return out.data;
}

static void test_calibrate__recovers_known_parameters(void **state)
{
	const char *dir = rv_scratch_dir("cal_recover");
	struct rv_profile *p;
	char *fit;
	int rc;

	(void)state;
	write_data(dir, 0);
	fit = calibrate_dir(dir, &p, &rc);
	if (rc != 0)
		fail_msg("%s", rv_error_last());
	rv_assert_close(p->compute[0].effective_flop_per_s, 0.8e12, 0.03, 0);
	rv_assert_close(p->op_overhead_s[RV_OP_MATMUL], 3e-6, 0.10, 0);
	assert_non_null(strstr(fit, "\"compute.fp16.effective_flop_per_s\""));
	assert_non_null(strstr(fit, "\"schema\": \"roofval.fit/1\""));
	assert_non_null(strstr(fit, "\"loo_median_abs_error\""));
	free(fit);
	rv_profile_free(p);
}

static void test_calibrate__validation_rows_change_nothing(void **state)
{
	const char *a = rv_scratch_dir("cal_without"), *b;
	char da[4200], *fa, *fb;
	int rc;

	(void)state;
	(void)snprintf(da, sizeof(da), "%s", a);
	write_data(da, 0);
	b = rv_scratch_dir("cal_with");
	write_data(b, 1);
	fa = calibrate_dir(da, NULL, &rc);
	assert_int_equal(rc, 0);
	fb = calibrate_dir(b, NULL, &rc);
	assert_int_equal(rc, 0);
	/* Only the baseline's row count differs: mask it, then compare bytes. */
	assert_non_null(strstr(fa, "\"rows_in_file\": 15"));
	assert_non_null(strstr(fb, "\"rows_in_file\": 18"));
	memcpy(strstr(fb, "\"rows_in_file\": 18"), "\"rows_in_file\": 15", 18);
	assert_string_equal(fa, fb);
	free(fa);
	free(fb);
}

static void test_calibrate__deterministic(void **state)
{
	const char *dir = rv_scratch_dir("cal_determinism");
	char *f1, *f2;
	int rc;

	(void)state;
	write_data(dir, 0);
	f1 = calibrate_dir(dir, NULL, &rc);
	f2 = calibrate_dir(dir, NULL, &rc);
	assert_string_equal(f1, f2);
	free(f1);
	free(f2);
}

static void test_calibrate__too_few_rows(void **state)
{
	struct rv_profile *p = toy();
	struct rv_calibration c;
	struct rv_sweep *s;
	struct rv_baseline *b;
	/* Two rows on which both the overhead and the compute rate matter. */
	static const char sweep[] =
	        "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": "
	        "[{\"shape\": [64, 64, 64], \"dtype\": \"fp16\", "
	        "\"regime_per_hw\": {\"toy_gpu\": \"launch_bound\"}},"
	        "{\"shape\": [64, 32, 64], \"dtype\": \"fp16\", "
	        "\"regime_per_hw\": {\"toy_gpu\": \"launch_bound\"}}]}";
	static const char csv[] = "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n"
	                          "toy_gpu,matmul,64x64x64,fp16,3.5e-06,,11,\n"
	                          "toy_gpu,matmul,64x32x64,fp16,2.2e-06,,11,\n";
	double before = p->compute[0].effective_flop_per_s;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(rv_sweep_parse(&s, sweep, strlen(sweep), "s.json"), 0);
	assert_int_equal(rv_baseline_parse(&b, csv, strlen(csv), "b.csv"), 0);
	assert_int_equal(rv_calibrate_add(&c, p, s, b, "b.csv"), 0);
	rv_assert_error(rv_calibrate_fit(&c, p), RV_ERROR, "2 latency rows for 2 parameters");
	/* The profile is left as it was. */
	rv_assert_close(p->compute[0].effective_flop_per_s, before, 0, 0);
	rv_calibration_free(&c);
	rv_sweep_free(s);
	rv_baseline_free(b);
	/* With one row, no parameter moves two rows: nothing is determined. */
	memset(&c, 0, sizeof(c));
	assert_int_equal(rv_sweep_parse(&s, sweep, strlen(sweep), "s.json"), 0);
	assert_int_equal(
	        rv_baseline_parse(&b, csv, strstr(csv, "toy_gpu,matmul,64x32") - csv, "b.csv"), 0);
	assert_int_equal(b->n_rows, 1);
	assert_int_equal(rv_calibrate_add(&c, p, s, b, "b.csv"), 0);
	rv_assert_error(rv_calibrate_fit(&c, p), RV_ERROR, "determine no latency parameter");
	rv_calibration_free(&c);
	rv_sweep_free(s);
	rv_baseline_free(b);
	rv_profile_free(p);
}

/* Energy enters the fit as validation scores it (the defect: calibrate
 * ignored energy_window_s and took energy from 1 ms latency up only): a short
 * row with a long enough window enters, one with a short window or none does
 * not; an ambiguous label and a shape the sweep lacks never enter. */
static void test_calibrate__energy_as_validation_scores_it(void **state)
{
	struct rv_profile *p = toy();
	struct rv_calibration c;
	struct rv_sweep *s;
	struct rv_baseline *b;
	static const char sweep[] =
	        "{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": "
	        "[{\"shape\": [64, 64, 64], \"dtype\": \"fp16\", "
	        "\"regime_per_hw\": {\"toy_gpu\": \"launch_bound\"}},"
	        "{\"shape\": [64, 32, 64], \"dtype\": \"fp16\", "
	        "\"regime_per_hw\": {\"toy_gpu\": \"launch_bound\"}},"
	        "{\"shape\": [32, 32, 64], \"dtype\": \"fp16\", "
	        "\"regime_per_hw\": {\"toy_gpu\": \"launch_bound\"}},"
	        "{\"shape\": [32, 32, 32], \"dtype\": \"fp16\", "
	        "\"regime_per_hw\": {\"toy_gpu\": \"ambiguous\"}}]}";
	static const char csv[] =
	        "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes,energy_window_s\n"
	        "toy_gpu,matmul,64x64x64,fp16,3.5e-06,1e-3,11,,0.5\n"
	        "toy_gpu,matmul,64x32x64,fp16,2.2e-06,1e-3,11,,1e-4\n"
	        "toy_gpu,matmul,32x32x64,fp16,2.0e-06,1e-3,11,,\n"
	        "toy_gpu,matmul,32x32x32,fp16,2.0e-06,1e-3,11,,0.5\n"
	        "toy_gpu,matmul,16x16x16,fp16,2.0e-06,1e-3,11,,0.5\n";

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(rv_sweep_parse(&s, sweep, strlen(sweep), "s.json"), 0);
	assert_int_equal(rv_baseline_parse(&b, csv, strlen(csv), "b.csv"), 0);
	assert_int_equal(rv_calibrate_add(&c, p, s, b, "b.csv"), 0);
	assert_int_equal(c.n_rows, 3);
	assert_int_equal(c.sources[0].rows_in_file, 5);
	assert_int_equal(c.n_energy_rows, 1);
	for (size_t i = 0; i < c.n_rows; i++)
		if (c.rows[i].shape.dim[0] == 64 && c.rows[i].shape.dim[1] == 64)
			rv_assert_close(c.rows[i].energy_J, 1e-3, 0, 0);
		else
			assert_true(isnan(c.rows[i].energy_J));
	rv_calibration_free(&c);
	rv_sweep_free(s);
	rv_baseline_free(b);
	rv_profile_free(p);
}

static void test_calibrate__refuses_unphysical(void **state)
{
	const char *dir = rv_scratch_dir("cal_unphysical");
	struct rv_buf csv = RV_BUF_INIT;
	char path[4200], *text;
	int rc;

	(void)state;
	write_data(dir, 0);
	/* Every latency 10x shorter: only a rate far above the 2e12 peak explains it. */
	(void)snprintf(path, sizeof(path), "%s/toy_gpu_matmul.csv", dir);
	text = rv_slurp(path, NULL);
	rv_buf_puts(&csv, "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n");
	for (char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
		char shape[64];
		double lat, en;

		assert_int_equal(
		        sscanf(line, "toy_gpu,matmul,%63[^,],fp16,%lf,%lf", shape, &lat, &en), 3);
		rv_buf_printf(&csv, "toy_gpu,matmul,%s,fp16,%.17g,,11,\n", shape, lat / 10);
	}
	rv_spit(path, csv.data);
	free(text);
	rv_buf_free(&csv);
	text = calibrate_dir(dir, NULL, &rc);
	assert_null(text);
	rv_assert_error(rc, RV_ERANGE, "above the datasheet peak");
	assert_non_null(strstr(rv_error_last(), "refused"));
}

static void test_calibrate__fit_file_applies(void **state)
{
	const char *dir = rv_scratch_dir("cal_apply");
	struct rv_profile *fitted, *p = toy();
	char path[4200], *fit;
	int rc;

	(void)state;
	write_data(dir, 0);
	fit = calibrate_dir(dir, &fitted, &rc);
	assert_int_equal(rc, 0);
	(void)snprintf(path, sizeof(path), "%s/toy_gpu.fit.json", dir);
	rv_spit(path, fit);
	assert_int_equal(rv_fit_apply(p, path), 0);
	rv_assert_close(p->compute[0].effective_flop_per_s, fitted->compute[0].effective_flop_per_s,
	                0, 0);
	rv_assert_close(p->op_overhead_s[RV_OP_MATMUL], fitted->op_overhead_s[RV_OP_MATMUL], 0, 0);
	assert_string_equal(p->fit_path, path);
	free(fit);
	rv_profile_free(p);
	rv_profile_free(fitted);
}

static void test_calibrate__bad_fit_files(void **state)
{
	static const struct {
		const char *text;
		int code;
		const char *msg;
	} cases[] = {
		{ "{\"schema\": \"roofval.fit/1\", \"hardware\": \"other\", \"parameters\": {}}",
		  RV_EPARSE, "1:41: hardware: a fit of 'other', not of 'toy_gpu'" },
		{ "{\"schema\": \"roofval.fit/2\", \"hardware\": \"toy_gpu\", \"parameters\": {}}",
		  RV_EPARSE, "schema: 'roofval.fit/2' is not roofval.fit/1" },
		{ "{\"schema\": \"roofval.fit/1\", \"hardware\": \"toy_gpu\", \"parameters\": "
		  "{\"compute.fp64.effective_flop_per_s\": {\"value\": 1}}}",
		  RV_EPARSE,
		  "'compute.fp64.effective_flop_per_s' is not a model parameter of toy_gpu" },
		{ "{\"schema\": \"roofval.fit/1\", \"hardware\": \"toy_gpu\", \"parameters\": "
		  "{\"compute.fp16.effective_flop_per_s\": {\"value\": 3e12}}}",
		  RV_ERANGE, "above the datasheet peak" },
		{ "{\"schema\": \"roofval.fit/1\", \"hardware\": \"toy_gpu\", \"parameters\": "
		  "{\"memory.l2.effective_capacity_B\": {\"value\": 8e6}}}",
		  RV_ERANGE,
		  "memory.l2.effective_capacity_B = 8e+06 B is above the tier's capacity_B" },
		{ "{\"schema\": \"roofval.fit/1\", \"hardware\": \"toy_gpu\", \"parameters\": "
		  "{\"gemm.pack_passes\": {\"value\": 1.5}}}",
		  RV_EPARSE, "'gemm.pack_passes' is not a model parameter of toy_gpu" },
		{ "{\"schema\": \"roofval.fit/1\", \"hardware\": \"toy_gpu\", \"parameters\": "
		  "{\"fresh_output.page_s\": {\"value\": 1e-6}}}",
		  RV_EPARSE, "'fresh_output.page_s' is not a model parameter of toy_gpu" },
		{ "{\"schema\": \"roofval.fit/1\", \"hardware\": \"toy_gpu\", \"parameters\": "
		  "{\"power.static_W\": {\"value\": -1}}}",
		  RV_ERANGE, "power.static_W = -1 W is not a positive finite value" },
		{ "{\"schema\": \"roofval.fit/1\", \"hardware\": \"toy_gpu\", \"parameters\": "
		  "{\"gemm.half_efficiency_k\": {\"value\": 0, \"sigma\": 1}}}",
		  RV_EPARSE, "sigma: unknown key" },
		{ "{\"schema\": \"roofval.fit/1\", \"hardware\": \"toy_gpu\", \"parameters\": {}, "
		  "\"comment\": 1}",
		  RV_EPARSE, "comment: unknown key" },
	};
	const char *dir = rv_scratch_dir("cal_badfit");
	char path[4200];

	(void)state;
	(void)snprintf(path, sizeof(path), "%s/toy_gpu.fit.json", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rv_profile *p = toy();
		int rc;

		rv_spit(path, cases[i].text);
		rc = rv_fit_apply(p, path);
		if (rc != cases[i].code || !strstr(rv_error_last(), cases[i].msg))
			fail_msg("case %zu: got %d '%s'", i, rc, rv_error_last());
		rv_profile_free(p);
	}
}

/* The family of a row: small dimensions, the size class against the per-call
 * overhead (toy_gpu: 1 us, 2e12 FLOP/s, DRAM 2e11 B/s), and a linear's rows. */
static void test_calibrate__families(void **state)
{
	static const struct {
		enum rv_op op;
		const char *shape, *family;
	} cases[] = {
		{ RV_OP_MATMUL, "64x64x64", "small:MKN launch" },
		{ RV_OP_MATMUL, "1024x1024x1024", "small:- large" },
		{ RV_OP_MATMUL, "128x4096x256", "small:M large" },
		{ RV_OP_MATMUL, "256x256x256", "small:- small" },
		{ RV_OP_MATMUL, "4096x64x4096", "small:K large" },
		{ RV_OP_LINEAR, "1x4096x4096", "M=1 small:M large" },
		{ RV_OP_LINEAR, "2x4096x4096", "M=2 small:M large" },
		{ RV_OP_LINEAR, "4x64x64", "M=3-7 small:MKN launch" },
		{ RV_OP_LINEAR, "200x64x64", "M>=8 small:KN launch" },
		{ RV_OP_VECTOR_ADD, "1000", "launch" },
		{ RV_OP_VECTOR_ADD, "100000", "small" },
		{ RV_OP_VECTOR_ADD, "2000000", "large" },
	};
	struct rv_profile *p = toy();
	char family[RV_CAL_FAMILY_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rv_shape s;

		assert_int_equal(rv_shape_parse(cases[i].shape, cases[i].op, &s), 0);
		assert_int_equal(rv_cal_family(family, p, cases[i].op, &s, RV_DTYPE_FP16), 0);
		if (strcmp(family, cases[i].family) != 0)
			fail_msg("%s: '%s', expected '%s'", cases[i].shape, family,
			         cases[i].family);
	}
	rv_profile_free(p);
}

/* Leave-one-family-out on the synthetic rows: every family withheld in turn;
 * a family of one row is leave-one-out exactly; the summaries count the rows. */
static void test_calibrate__lofo(void **state)
{
	const char *dir = rv_scratch_dir("cal_lofo");
	struct rv_profile *p = toy();
	struct rv_calibration c;
	size_t rows = 0, singles = 0, in = 0, energy_lofo = 0, kept = 0;
	struct rv_buf json = RV_BUF_INIT;

	(void)state;
	write_data(dir, 0);
	if (calibrate_into(dir, &c, p) != 0)
		fail_msg("%s", rv_error_last());
	assert_true(c.n_families > 2);
	for (size_t f = 0; f < c.n_families; f++) {
		rows += c.families[f].rows;
		singles += c.families[f].rows == 1;
		in += c.families[f].in_band;
	}
	assert_int_equal(rows, c.n_rows);
	assert_true(singles > 0);
	for (size_t i = 0; i < c.n_rows; i++) {
		const struct rv_cal_row *r = &c.rows[i];

		assert_string_equal(r->family, c.families[r->family_index].name);
		assert_true(isfinite(r->lofo_latency_s) && r->lofo_latency_s > 0);
		/* Energy: too few energy rows may remain without a large family. */
		energy_lofo += isfinite(r->lofo_energy_J);
		if (c.families[r->family_index].rows == 1)
			assert_memory_equal(&r->lofo_latency_s, &r->loo_latency_s, sizeof(double));
	}
	assert_true(energy_lofo > 0);
	rv_assert_close(c.lat_lofo_within_band, (double)in / (double)c.n_rows, 1e-12, 0);
	rv_assert_close(c.sources[0].lat_lofo_within_band, c.lat_lofo_within_band, 0, 0);
	assert_true(c.lat_lofo_median_ape >= 0);
	/* Every fitted parameter says how far each family moves it. */
	for (size_t j = 0; j < c.n_params; j++)
		if (!c.params[j].undetermined && !c.params[j].switched_off)
			assert_true(isfinite(c.params[j].lofo_max_move));
	/* A parameter that only the withheld family moved keeps its profile
	 * value in that fold, as calibrate without the family would keep it. */
	for (size_t f = 0; f < c.n_families; f++)
		for (size_t j = 0; j < c.n_params; j++) {
			const struct rv_cal_param *cp = &c.params[j];

			if (!c.families[f].profile_kept[j])
				continue;
			kept++;
			assert_true(c.families[f].alone[j]);
			rv_assert_close(c.families[f].move[j], cp->profile_value / cp->value - 1,
			                1e-12, 1e-15);
		}
	assert_true(kept > 0); /* the launch family's overhead, here */
	assert_int_equal(rv_calibrate_render_report(&json, &c, p), 0);
	assert_non_null(strstr(json.data, "\"lofo_latency_s\""));
	assert_non_null(strstr(json.data, "\"lofo_moves\""));
	assert_non_null(strstr(json.data, "\"family\": \"small:MKN launch\""));
	rv_buf_free(&json);
	rv_calibration_free(&c);
	rv_profile_free(p);
}

/* Effective bandwidths and capacities out of order from the inner tier out:
 * refused by name and value, in a fit and in a fit file. */
static void test_calibrate__refuses_out_of_order(void **state)
{
	const char *dir = rv_scratch_dir("cal_order");
	struct rv_profile *p = toy();
	struct rv_calibration c;
	char path[4200];

	(void)state;
	write_data(dir, 0);
	assert_int_equal(rv_param_check_order(p), 0);
	p->memory[1].effective_capacity_B = 0.5e6;
	/* A GPU's L1 keeps nothing for the next call: its capacity is not in
	 * the order; a CPU's is. */
	assert_int_equal(p->hw_class, RV_HW_GPU);
	assert_int_equal(rv_param_check_order(p), 0);
	p->hw_class = RV_HW_CPU;
	rv_assert_error(rv_param_check_order(p), RV_ERANGE,
	                "memory.l1.effective_capacity_B = 1.04858e+06 B is above "
	                "memory.l2.effective_capacity_B = 500000 B");
	p->hw_class = RV_HW_GPU;
	p->memory[1].effective_capacity_B = p->memory[1].capacity_B;
	/* An L1 slower than the L2 it feeds: no fit can order that. */
	p->memory[0].effective_bw_Bps = 1.5e11;
	rv_assert_error(calibrate_into(dir, &c, p), RV_ERANGE,
	                "refused: memory.l1.effective_bw_Bps = 1.5e+11 B/s is below "
	                "memory.l2.effective_bw_Bps = 1e+12 B/s; effective bandwidths must not "
	                "grow outwards");
	rv_assert_close(p->compute[0].effective_flop_per_s, 1e12, 0, 0); /* left unchanged */
	rv_calibration_free(&c);
	rv_profile_free(p);
	p = toy();
	(void)snprintf(path, sizeof(path), "%s/toy_gpu.fit.json", dir);
	rv_spit(path, "{\"schema\": \"roofval.fit/1\", \"hardware\": \"toy_gpu\", \"parameters\": "
	              "{\"memory.l2.effective_bw_Bps\": {\"value\": 1e12}, "
	              "\"memory.l1.effective_bw_Bps\": {\"value\": 9e11}}}");
	rv_assert_error(rv_fit_apply(p, path), RV_ERANGE,
	                "parameters: memory.l1.effective_bw_Bps = 9e+11 B/s is below "
	                "memory.l2.effective_bw_Bps = 1e+12 B/s");
	rv_profile_free(p);
}

/* On the project's own xeon_amx_2vcpu rows a free fit puts L1 (289 GB/s)
 * below L2 (334 GB/s): calibration holds L1 equal to L2 and fits again. */
static void test_calibrate__ties_bandwidths_in_order(void **state)
{
	struct rv_layout l;
	struct rv_calibration c;
	struct rv_profile *p = NULL;
	const struct rv_cal_param *l1 = NULL;
	int rc;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_int_equal(rv_layout_open(&l,
	                                &(struct rv_layout_dirs){
	                                        RV_DATA_DIR "/hardware", RV_DATA_DIR "/sweeps",
	                                        RV_DATA_DIR "/results/baselines" },
	                                0),
	                 0);
	rc = rv_layout_calibrate(&l, &c, &p, "xeon_amx_2vcpu", -1);
	if (rc != 0)
		fail_msg("%s", rv_error_last());
	for (size_t j = 0; j < c.n_params; j++)
		if (strcmp(c.params[j].prm.name, "memory.l1.effective_bw_Bps") == 0)
			l1 = &c.params[j];
	if (!l1) {
		fail_msg("memory.l1.effective_bw_Bps was not fitted");
		return;
	}
	assert_true(l1->tied_to > 0);
	assert_string_equal(c.params[l1->tied_to - 1].prm.name, "memory.l2.effective_bw_Bps");
	assert_memory_equal(&p->memory[0].effective_bw_Bps, &p->memory[1].effective_bw_Bps,
	                    sizeof(double));
	assert_memory_equal(&l1->value, &p->memory[0].effective_bw_Bps, sizeof(double));
	assert_int_equal(rv_param_check_order(p), 0);
	rv_layout_close(&l);
	rv_calibration_free(&c);
	rv_profile_free(p);
}

/* An outer tier that no row moves keeps its profile value, unless that is
 * faster than the fitted tier just inside it: then it is held equal to that
 * one (as an undetermined one is), and the report shows the tie. Here the
 * toy's L1 is slow (rows made with 2e10 B/s, stated 3e10) and its L2 stated
 * at 8e12 B/s, so the L1 binds before it on every row; before, such a fit
 * was refused. */
static void test_calibrate__ties_kept_outer_tier(void **state)
{
	const char *dir = rv_scratch_dir("cal_kept_outer");
	struct rv_profile *p = toy();
	struct rv_calibration c;
	const struct rv_cal_param *l1 = NULL, *l2 = NULL;

	(void)state;
	write_data_l1(dir, 0, 2e10);
	p->memory[1].bw_Bps = p->memory[1].effective_bw_Bps = 8e12;
	p->memory[0].bw_Bps = 8e12;
	p->memory[0].effective_bw_Bps = 3e10;
	if (calibrate_into(dir, &c, p) != 0)
		fail_msg("%s", rv_error_last());
	for (size_t j = 0; j < c.n_params; j++) {
		if (strcmp(c.params[j].prm.name, "memory.l1.effective_bw_Bps") == 0)
			l1 = &c.params[j];
		if (strcmp(c.params[j].prm.name, "memory.l2.effective_bw_Bps") == 0)
			l2 = &c.params[j];
	}
	/* The L2 was kept (no row moves it); now it is a tie, not kept. */
	for (size_t j = 0; j < c.n_kept; j++)
		assert_string_not_equal(c.kept[j].name, "memory.l2.effective_bw_Bps");
	if (!l1 || !l2) {
		fail_msg("l1 %s fitted, l2 %s a parameter", l1 ? "" : "not", l2 ? "" : "not");
		return;
	}
	assert_int_equal(l1->tied_to, 0);
	rv_assert_close(l1->value, 2e10, 0.05, 0); /* the truth's L1 */
	assert_true(l2->tied_to > 0);
	assert_string_equal(c.params[l2->tied_to - 1].prm.name, "memory.l1.effective_bw_Bps");
	assert_memory_equal(&l2->value, &l1->value, sizeof(double));
	assert_memory_equal(&p->memory[1].effective_bw_Bps, &p->memory[0].effective_bw_Bps,
	                    sizeof(double));
	rv_assert_close(l2->profile_value, 8e12, 0, 0);
	assert_int_equal(rv_param_check_order(p), 0);
	rv_calibration_free(&c);
	rv_profile_free(p);
}

/* A fit refused after it held a tier equal to another leaves the profile
 * as it was, the held tier included (the defect: that tier, made a
 * parameter after the fit, was restored from a value never set). As
 * ties_kept_outer_tier, with a peak below the fitted rate. */
static void test_calibrate__refused_restores_profile(void **state)
{
	const char *dir = rv_scratch_dir("cal_refused_restores");
	struct rv_profile *p = toy();
	struct rv_calibration c;
	double bw_Bps[RV_TIER_COUNT], flop_per_s, overhead_s[RV_OP_COUNT];

	(void)state;
	write_data_l1(dir, 0, 2e10);
	p->memory[1].bw_Bps = p->memory[1].effective_bw_Bps = 8e12;
	p->memory[0].bw_Bps = 8e12;
	p->memory[0].effective_bw_Bps = 3e10;
	p->compute[0].peak_flop_per_s = 0.7e12; /* below the rows' 0.8e12 */
	for (size_t i = 0; i < p->n_memory; i++)
		bw_Bps[i] = p->memory[i].effective_bw_Bps;
	flop_per_s = p->compute[0].effective_flop_per_s;
	memcpy(overhead_s, p->op_overhead_s, sizeof(overhead_s));
	rv_assert_error(calibrate_into(dir, &c, p), RV_ERANGE,
	                "refused: compute.fp16.effective_flop_per_s");
	for (size_t i = 0; i < p->n_memory; i++)
		assert_memory_equal(&p->memory[i].effective_bw_Bps, &bw_Bps[i], sizeof(double));
	assert_memory_equal(&p->compute[0].effective_flop_per_s, &flop_per_s, sizeof(double));
	assert_memory_equal(p->op_overhead_s, overhead_s, sizeof(overhead_s));
	rv_calibration_free(&c);
	rv_profile_free(p);
}

/* The fitted latencies and energies calibrate reports are what rv_predict()
 * computes on the profile with the fit file applied, bit for bit (the defect:
 * each row after the first was predicted at the previous row's
 * leave-one-out fit), and the JSON report's %.17g reads back to the same. */
static void test_calibrate__fitted_is_predicted(void **state)
{
	const char *dir = rv_scratch_dir("cal_fitted");
	struct rv_profile *p = toy(), *q = toy();
	struct rv_calibration c;
	struct rv_buf fit = RV_BUF_INIT, report = RV_BUF_INIT;
	json_t *doc, *rows;
	json_error_t jerr;
	char path[4200];

	(void)state;
	write_data(dir, 0);
	if (calibrate_into(dir, &c, p) != 0)
		fail_msg("%s", rv_error_last());
	assert_int_equal(rv_calibrate_render(&fit, &c, p, "2026-12-01"), 0);
	assert_int_equal(rv_calibrate_render_report(&report, &c, p), 0);
	(void)snprintf(path, sizeof(path), "%s/toy_gpu.fit.json", dir);
	rv_spit(path, fit.data);
	assert_int_equal(rv_fit_apply(q, path), 0);
	doc = json_loads(report.data, 0, &jerr);
	assert_non_null(doc);
	rows = json_object_get(doc, "rows");
	assert_int_equal(json_array_size(rows), c.n_rows);
	for (size_t i = 0; i < c.n_rows; i++) {
		const struct rv_cal_row *r = &c.rows[i];
		json_t *row = json_array_get(rows, i);
		double printed = json_number_value(json_object_get(row, "fitted_latency_s"));
		struct rv_prediction pr;

		assert_int_equal(rv_predict(&pr, q, r->op, &r->shape, r->dtype), 0);
		if (memcmp(&pr.latency_s, &r->fit_latency_s, sizeof(double)) != 0 ||
		    memcmp(&pr.latency_s, &printed, sizeof(double)) != 0)
			fail_msg("row %zu: predict %.17g, fitted %.17g, printed %.17g", i,
			         pr.latency_s, r->fit_latency_s, printed);
		if (!isnan(r->fit_energy_J))
			assert_memory_equal(&pr.energy_J, &r->fit_energy_J, sizeof(double));
	}
	json_decref(doc);
	rv_buf_free(&fit);
	rv_buf_free(&report);
	rv_calibration_free(&c);
	rv_profile_free(p);
	rv_profile_free(q);
}

/* A parameter the profile has and too few rows move (fewer than two) is not
 * fitted: it keeps its profile value, is listed as kept with the rows that
 * move it (text and JSON), and is not in the fit file. */
static void test_calibrate__kept_says_so(void **state)
{
	const char *dir = rv_scratch_dir("cal_kept");
	struct rv_profile *p = toy(), *fresh = toy();
	struct rv_calibration c;
	struct rv_buf fit = RV_BUF_INIT, text = RV_BUF_INIT, report = RV_BUF_INIT;
	json_t *doc, *kept;
	json_error_t jerr;

	(void)state;
	write_data(dir, 0);
	if (calibrate_into(dir, &c, p) != 0)
		fail_msg("%s", rv_error_last());
	assert_true(c.n_kept > 0);
	for (size_t j = 0; j < c.n_kept; j++) {
		struct rv_param prm;

		assert_true(c.kept[j].sensitive_rows < 2);
		for (size_t i = 0; i < c.n_params; i++)
			assert_string_not_equal(c.params[i].prm.name, c.kept[j].name);
		assert_int_equal(rv_param_resolve(&prm, fresh, c.kept[j].name), 0);
		rv_assert_close(c.kept[j].value, *prm.slot, 0, 0);
		assert_int_equal(rv_param_resolve(&prm, p, c.kept[j].name), 0);
		rv_assert_close(*prm.slot, c.kept[j].value, 0, 0);
	}
	assert_int_equal(rv_calibrate_render(&fit, &c, p, "2026-12-04"), 0);
	assert_null(strstr(fit.data, c.kept[0].name));
	assert_int_equal(rv_report_calibration_params(&text, &c), 0);
	assert_non_null(strstr(text.data, c.kept[0].name));
	assert_non_null(strstr(text.data, "keeps its profile value"));
	assert_int_equal(rv_calibrate_render_report(&report, &c, p), 0);
	doc = json_loads(report.data, 0, &jerr);
	assert_non_null(doc);
	kept = json_object_get(doc, "kept");
	assert_int_equal(json_array_size(kept), c.n_kept);
	assert_string_equal(json_string_value(json_object_get(json_array_get(kept, 0), "name")),
	                    c.kept[0].name);
	json_decref(doc);
	rv_buf_free(&fit);
	rv_buf_free(&text);
	rv_buf_free(&report);
	rv_calibration_free(&c);
	rv_profile_free(p);
	rv_profile_free(fresh);
}

/* The report names the families without which fewer than two rows move a
 * parameter, and says it once where that holds whichever is withheld. */
static void test_calibrate__alone_said_once(void **state)
{
	const char *dir = rv_scratch_dir("cal_alone");
	struct rv_profile *p = toy();
	struct rv_calibration c;
	struct rv_buf text = RV_BUF_INIT;
	struct rv_cal_param *cp;
	const char *line;
	char want[160];

	(void)state;
	write_data(dir, 0);
	if (calibrate_into(dir, &c, p) != 0)
		fail_msg("%s", rv_error_last());
	assert_true(c.n_params > 0 && c.n_families > 1);
	cp = &c.params[0];
	cp->undetermined = cp->switched_off = 0;
	cp->lofo_not_determined = 1;
	for (size_t f = 0; f < c.n_families; f++) {
		c.families[f].alone[0] = 1;
		c.families[f].profile_kept[0] = 0;
		c.families[f].move[0] = 0;
	}
	assert_int_equal(rv_report_calibration(&text, &c, p), 0);
	/* Its own line in the section, then the one line that says it. */
	line = strstr(text.data, "parameters with a family withheld");
	assert_non_null(line);
	line = strstr(line, cp->prm.name);
	assert_non_null(line);
	line = strchr(line, '\n');
	assert_non_null(line);
	assert_memory_equal(
	        line, "\n      fewer than 2 rows move it, whichever family is withheld\n",
	        strlen("\n      fewer than 2 rows move it, whichever family is withheld\n"));
	rv_buf_free(&text);
	/* One family only: named. */
	for (size_t f = 1; f < c.n_families; f++)
		c.families[f].alone[0] = 0;
	assert_int_equal(rv_report_calibration(&text, &c, p), 0);
	assert_null(strstr(text.data, "whichever family is withheld"));
	(void)snprintf(want, sizeof(want), "without %s %s (fewer than 2 rows move it)",
	               rv_op_name(c.families[0].op), c.families[0].name);
	assert_non_null(strstr(text.data, want));
	rv_buf_free(&text);
	/* The fold kept its profile value: said. */
	c.families[0].profile_kept[0] = 1;
	assert_int_equal(rv_report_calibration(&text, &c, p), 0);
	(void)snprintf(want, sizeof(want),
	               "without %s %s (fewer than 2 rows move it: the profile's value)",
	               rv_op_name(c.families[0].op), c.families[0].name);
	assert_non_null(strstr(text.data, want));
	rv_buf_free(&text);
	rv_calibration_free(&c);
	rv_profile_free(p);
}

/* A per-call overhead that the rows leave undetermined goes back to its
 * profile value, unless that is above the fastest call measured, which no
 * fixed cost of every call can be: then the fit is refused and says so. */
static void test_calibrate__overhead_above_fastest_call(void **state)
{
	const char *dir = rv_scratch_dir("cal_overhead_bound");
	struct rv_profile *p = toy();
	struct rv_calibration c;
	int rc;

	(void)state;
	/* No overhead in the truth: the fit drives it towards 0, undetermined. */
	write_data_truth(dir, 0, 0, 0);
	p->op_overhead_s[RV_OP_MATMUL] = 1e-3;
	rc = calibrate_into(dir, &c, p);
	rv_assert_error(rc, RV_ERANGE, "do not determine call_overhead.matmul.latency_s");
	assert_non_null(strstr(rv_error_last(), "the fastest matmul call measured (64x64x64)"));
	assert_non_null(strstr(rv_error_last(), "state a value below that in the profile"));
	rv_calibration_free(&c);
	/* A profile value below it is kept as before. */
	p->op_overhead_s[RV_OP_MATMUL] = 1e-9;
	if (calibrate_into(dir, &c, p) != 0)
		fail_msg("%s", rv_error_last());
	rv_calibration_free(&c);
	rv_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calibrate__recovers_known_parameters),
		cmocka_unit_test(test_calibrate__validation_rows_change_nothing),
		cmocka_unit_test(test_calibrate__deterministic),
		cmocka_unit_test(test_calibrate__too_few_rows),
		cmocka_unit_test(test_calibrate__energy_as_validation_scores_it),
		cmocka_unit_test(test_calibrate__refuses_unphysical),
		cmocka_unit_test(test_calibrate__fit_file_applies),
		cmocka_unit_test(test_calibrate__bad_fit_files),
		cmocka_unit_test(test_calibrate__families),
		cmocka_unit_test(test_calibrate__lofo),
		cmocka_unit_test(test_calibrate__refuses_out_of_order),
		cmocka_unit_test(test_calibrate__refused_restores_profile),
		cmocka_unit_test(test_calibrate__ties_bandwidths_in_order),
		cmocka_unit_test(test_calibrate__ties_kept_outer_tier),
		cmocka_unit_test(test_calibrate__fitted_is_predicted),
		cmocka_unit_test(test_calibrate__kept_says_so),
		cmocka_unit_test(test_calibrate__alone_said_once),
		cmocka_unit_test(test_calibrate__overhead_above_fastest_call),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
