/* SPDX-License-Identifier: MIT */
/* Tests of validation: bands, the measured regime and its soft match, energy scoring rules,
 * skips, summaries, and pinned pass-count floors on the reference calibration baselines. */
#include "io/baseline.h"
#include "model/predict.h"
#include "model/validate.h"
#include "rv_test.h"
#include "rv_test_records.h"

static struct rv_profile *toy_gpu(void)
{
	struct rv_profile *p;

	if (rv_profile_load(&p, rv_fixture_path("hardware/model/toy_gpu.json")) != 0)
		fail_msg("%s", rv_error_last());
	return p;
}

static double predicted_s(const struct rv_profile *p, enum rv_op op, const char *shape,
                          double *energy_J)
{
	struct rv_prediction r;
	struct rv_shape s;

	assert_int_equal(rv_shape_parse(shape, op, &s), 0);
	assert_int_equal(rv_predict(&r, p, op, &s, RV_DTYPE_FP16), 0);
	if (energy_J)
		*energy_J = r.energy_J;
	return r.latency_s;
}

static struct rv_sweep *sweep_of(const char *text)
{
	struct rv_sweep *s;

	if (rv_sweep_parse(&s, text, strlen(text), "s.json") != 0)
		fail_msg("%s", rv_error_last());
	return s;
}

static struct rv_baseline *baseline_of(const char *text)
{
	struct rv_baseline *b;

	if (rv_baseline_parse(&b, text, strlen(text), "b.csv") != 0)
		fail_msg("%s", rv_error_last());
	return b;
}

static void test_validate__bands(void **state)
{
	(void)state;
	rv_assert_close(rv_band_of(RV_REGIME_ALU).latency, 0.10, 0, 0);
	rv_assert_close(rv_band_of(RV_REGIME_ALU).energy, 0.15, 0, 0);
	rv_assert_close(rv_band_of(RV_REGIME_L1).latency, 0.20, 0, 0);
	rv_assert_close(rv_band_of(RV_REGIME_L2).energy, 0.25, 0, 0);
	rv_assert_close(rv_band_of(RV_REGIME_DRAM).latency, 0.25, 0, 0);
	rv_assert_close(rv_band_of(RV_REGIME_DRAM).energy, 0.30, 0, 0);
	rv_assert_close(rv_band_of(RV_REGIME_LAUNCH).latency, 0.30, 0, 0);
	rv_assert_close(rv_band_of(RV_REGIME_LAUNCH).energy, 0.40, 0, 0);
}

/* Finds the record of shape text in v. */
static const struct rv_record *record_of(const struct rv_validation *v, const char *shape)
{
	for (size_t i = 0; i < v->n_records; i++) {
		char s[80];

		(void)rv_shape_format(s, sizeof(s), &v->records[i].shape);
		if (strcmp(s, shape) == 0)
			return &v->records[i];
	}
	fail_msg("no record for %s", shape);
	abort(); /* fail_msg() does not return; says so to an -O3 build's null checks */
}

static void test_validate__scoring_rules(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_validation v;
	struct rv_summary sum;
	struct rv_sweep *s;
	struct rv_baseline *b;
	char csv[4096];
	double e_big, t_big = predicted_s(p, RV_OP_MATMUL, "4096x4096x1024", &e_big);
	double t_alu = predicted_s(p, RV_OP_MATMUL, "64x2000x64", NULL);
	double t_l2 = predicted_s(p, RV_OP_MATMUL, "256x256x256", NULL);
	const struct rv_record *r;

	(void)state;
	s = sweep_of("{\"op\": \"matmul\", \"purpose\": \"validation\", \"shapes\": ["
	             "{\"shape\": [64, 2000, 64], \"dtype\": \"fp16\", \"regime_per_hw\": "
	             "{\"toy_gpu\": \"alu_bound\"}},"
	             "{\"shape\": [256, 256, 256], \"dtype\": \"fp16\", \"regime_per_hw\": "
	             "{\"toy_gpu\": \"l2_bound\"}},"
	             "{\"shape\": [4096, 4096, 1024], \"dtype\": \"fp16\", \"regime_per_hw\": "
	             "{\"toy_gpu\": \"l2_bound\"}},"
	             "{\"shape\": [128, 128, 128], \"dtype\": \"fp16\", \"regime_per_hw\": "
	             "{\"toy_gpu\": \"ambiguous\"}},"
	             "{\"shape\": [128, 128, 128], \"dtype\": \"fp64\", \"regime_per_hw\": "
	             "{\"toy_gpu\": \"dram_bound\"}},"
	             "{\"shape\": [512, 512, 512], \"dtype\": \"fp16\", \"regime_per_hw\": "
	             "{\"toy_gpu\": \"dram_bound\"}},"
	             "{\"shape\": [8, 8, 8], \"dtype\": \"fp16\", \"regime_per_hw\": "
	             "{\"other\": \"launch_bound\"}}]}");
	/* 64x2000x64: measured 5% slower than predicted and at 16.4 MFLOP it runs at
	 * 16.4e6 / (1.05 t) = 0.48 of the 2e12 peak: ambiguous, a regime failure for an
	 * alu_bound label. 256^3: 15% fast, ambiguous measurement, soft match for l2.
	 * 4096x4096x1024: 20% slow, energy 10% high over > 1 ms: scored and passed. */
	(void)snprintf(csv, sizeof(csv),
	               "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n"
	               "toy_gpu,matmul,64x2000x64,fp16,%.17g,0.0,11,\n"
	               "toy_gpu,matmul,256x256x256,fp16,%.17g,,11,\n"
	               "toy_gpu,matmul,4096x4096x1024,fp16,%.17g,%.17g,11,\n",
	               t_alu * 1.05, t_l2 / 1.15, t_big * 1.2, e_big / 1.1);
	b = baseline_of(csv);
	memset(&v, 0, sizeof(v));
	assert_int_equal(rv_validate(&v, p, s, "s.json", b, "b.csv", NULL), 0);
	assert_int_equal(v.n_records, 3);
	assert_int_equal(v.skipped_ambiguous, 1);
	assert_int_equal(v.skipped_unsupported, 1);
	assert_int_equal(v.skipped_no_baseline, 1);

	r = record_of(&v, "64x2000x64");
	assert_int_equal(r->regime_label, RV_REGIME_ALU);
	assert_int_equal(r->regime_measured, RV_REGIME_AMBIGUOUS);
	assert_false(r->pass_regime);
	assert_true(r->pass_latency);
	rv_assert_close(r->latency_err, 1 / 1.05 - 1, 1e-12, 0);
	assert_int_equal(r->pass_energy, RV_CHECK_SKIP);
	assert_non_null(strstr(r->notes, "below the meter's resolution"));
	assert_false(rv_record_passed(r));

	r = record_of(&v, "256x256x256");
	assert_int_equal(r->regime_measured, RV_REGIME_AMBIGUOUS);
	assert_true(r->pass_regime);  /* soft match */
	assert_true(r->pass_latency); /* 15% inside the 20% band of l2 */
	assert_int_equal(r->pass_energy, RV_CHECK_SKIP);
	assert_string_equal(r->notes, "energy not measured");
	assert_true(rv_record_passed(r));

	r = record_of(&v, "4096x4096x1024");
	assert_true(r->pass_latency);
	rv_assert_close(r->latency_err, 1 / 1.2 - 1, 1e-12, 0);
	assert_int_equal(r->pass_energy, RV_CHECK_PASS);
	rv_assert_close(r->energy_err, 0.1, 1e-12, 0);

	assert_int_equal(rv_validation_summary(&v, &sum), 0);
	assert_int_equal(sum.records, 3);
	assert_int_equal(sum.passed, 2);
	assert_int_equal(sum.failed, 1);
	assert_int_equal(sum.energy_scored, 1);
	assert_int_equal(sum.latency.n, 3);
	rv_assert_close(sum.latency.median_ape, 0.15, 1e-12, 0);
	rv_assert_close(sum.latency.within_10, 1.0 / 3, 1e-12, 0);
	rv_assert_close(sum.latency.within_25, 1, 0, 0);
	rv_assert_close(sum.energy.median_ape, 0.1, 1e-12, 0);
	rv_validation_free(&v);
	rv_baseline_free(b);
	rv_sweep_free(s);
	rv_profile_free(p);
}

static void test_validate__energy_window_and_failures(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_validation v;
	struct rv_sweep *s;
	struct rv_baseline *b;
	struct rv_cell *cells;
	size_t n_cells;
	char csv[4096];
	double e, t = predicted_s(p, RV_OP_MATMUL, "256x256x256", &e);

	(void)state;
	s = sweep_of("{\"op\": \"matmul\", \"purpose\": \"calibration\", \"shapes\": ["
	             "{\"shape\": [256, 256, 256], \"dtype\": \"fp16\", \"regime_per_hw\": "
	             "{\"toy_gpu\": \"l2_bound\"}},"
	             "{\"shape\": [256, 256, 512], \"dtype\": \"fp16\", \"regime_per_hw\": "
	             "{\"toy_gpu\": \"l2_bound\"}}]}");
	/* Both are short (under 1 ms); the first has a measured energy window, so its
	 * energy is scored (and 50% off fails); the second has none and is skipped. Its
	 * latency is 2x off: a latency failure. */
	(void)snprintf(csv, sizeof(csv),
	               "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes,"
	               "energy_window_s\n"
	               "toy_gpu,matmul,256x256x256,fp16,%.17g,%.17g,11,,1.5\n"
	               "toy_gpu,matmul,256x256x512,fp16,%.17g,%.17g,11,,\n",
	               t, e * 2, t * 4, e);
	b = baseline_of(csv);
	memset(&v, 0, sizeof(v));
	assert_int_equal(rv_validate(&v, p, s, "s.json", b, "b.csv", NULL), 0);
	assert_int_equal(v.n_records, 2);
	assert_int_equal(v.records[0].pass_energy, RV_CHECK_FAIL);
	rv_assert_close(v.records[0].energy_err, -0.5, 1e-12, 0);
	assert_int_equal(v.records[1].pass_energy, RV_CHECK_SKIP);
	assert_non_null(strstr(v.records[1].notes, "under 1 ms"));
	assert_false(v.records[1].pass_latency);
	assert_int_equal(rv_validation_cells(&v, &cells, &n_cells), 0);
	assert_int_equal(n_cells, 1);
	assert_int_equal(cells[0].regime, RV_REGIME_L2);
	assert_int_equal(cells[0].n_total, 2);
	assert_int_equal(cells[0].n_pass, 0);
	assert_int_equal(cells[0].n_fail_energy, 1);
	assert_int_equal(cells[0].n_fail_latency, 1);
	free(cells);
	rv_validation_free(&v);
	rv_baseline_free(b);
	rv_sweep_free(s);
	rv_profile_free(p);
}

static void test_validate__foreign_rows_are_errors(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_validation v;
	struct rv_sweep *s = sweep_of("{\"op\": \"matmul\", \"purpose\": \"validation\", "
	                              "\"shapes\": []}");
	struct rv_baseline *b = baseline_of("hardware,op,shape,dtype,latency_s,energy_j,"
	                                    "trial_count,notes\n"
	                                    "toy_gpu,matmul,1x1x1,fp16,1e-06,,1,\n"
	                                    "other,matmul,1x1x2,fp16,1e-06,,1,\n");
	struct rv_baseline *b2 = baseline_of("hardware,op,shape,dtype,latency_s,energy_j,"
	                                     "trial_count,notes\n"
	                                     "toy_gpu,vector_add,16,fp16,1e-06,,1,\n");

	(void)state;
	memset(&v, 0, sizeof(v));
	rv_assert_error(rv_validate(&v, p, s, "s.json", b, "b.csv", NULL), RV_EPARSE,
	                "b.csv:3: a row for hardware 'other' in a baseline validated for "
	                "'toy_gpu'");
	rv_assert_error(rv_validate(&v, p, s, "s.json", b2, "b2.csv", NULL), RV_EPARSE,
	                "b2.csv:2: a row for op 'vector_add' in a baseline validated for 'matmul'");
	rv_validation_free(&v);
	rv_baseline_free(b);
	rv_baseline_free(b2);
	rv_sweep_free(s);
	rv_profile_free(p);
}

/* The one "energy is scoreable" rule: rows with and without a window, a
 * window too short or not a number, no energy, a 0 energy, a long latency. */
static void test_validate__energy_scoreable(void **state)
{
	struct rv_baseline *b =
	        baseline_of("hardware,op,shape,dtype,latency_s,energy_j,"
	                    "trial_count,notes,energy_window_s\n"
	                    "t,matmul,1x1x1,fp16,1e-4,0.5,1,,0.25\n" /* window */
	                    "t,matmul,1x1x2,fp16,1e-4,0.5,1,,\n"     /* none */
	                    "t,matmul,1x1x3,fp16,1e-4,0.5,1,,5e-4\n" /* short */
	                    "t,matmul,1x1x4,fp16,1e-4,,1,,0.25\n"    /* no energy */
	                    "t,matmul,1x1x5,fp16,2e-3,0.5,1,,\n"     /* long */
	                    "t,matmul,1x1x6,fp16,1e-3,0.5,1,,\n"     /* 1 ms */
	                    "t,matmul,1x1x7,fp16,1e-4,0.5,1,,1e-3\n" /* 1 ms window */
	                    "t,matmul,1x1x8,fp16,1e-4,0,1,,0.25\n"   /* 0 J */
	                    "t,matmul,1x1x9,fp16,2e-3,,1,,\n");      /* long, no J */
	/* A window that is not a number ("nan", "soon") is refused by the loader
	 * (test_schema), so it never reaches this rule. */
	struct rv_baseline *plain = baseline_of("hardware,op,shape,dtype,latency_s,energy_j,"
	                                        "trial_count,notes\n"
	                                        "t,matmul,1x1x1,fp16,1e-4,0.5,1,\n"
	                                        "t,matmul,1x1x2,fp16,1e-3,0.5,1,\n");
	static const int want[] = { 1, 0, 0, 0, 1, 1, 1, 0, 0 };

	(void)state;
	assert_int_equal(b->n_rows, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < b->n_rows; i++) {
		size_t found = 0;

		/* Find row 1x1x(i+1) wherever the loader put it. */
		for (size_t j = 0; j < b->n_rows; j++) {
			if (b->rows[j].shape.dim[2] != (uint64_t)(i + 1))
				continue;
			found++;
			if (rv_energy_scoreable(b, &b->rows[j]) != want[i])
				fail_msg("row 1x1x%zu: scoreable %d, want %d", i + 1,
				         rv_energy_scoreable(b, &b->rows[j]), want[i]);
		}
		assert_int_equal(found, 1);
	}
	assert_int_equal(rv_energy_scoreable(plain, &plain->rows[0]) +
	                         rv_energy_scoreable(plain, &plain->rows[1]),
	                 1);
	rv_baseline_free(plain);
	rv_baseline_free(b);
}

/* The one matching of sweep entries to baseline rows: by (shape, dtype), -1
 * for an entry without a row, rows of another hardware left out. */
static void test_validate__match_rows(void **state)
{
	struct rv_sweep *s = sweep_of("{\"op\": \"matmul\", \"purpose\": \"validation\", "
	                              "\"shapes\": ["
	                              "{\"shape\": [1, 1, 2], \"dtype\": \"fp16\", "
	                              "\"regime_per_hw\": {}},"
	                              "{\"shape\": [1, 1, 2], \"dtype\": \"fp32\", "
	                              "\"regime_per_hw\": {}},"
	                              "{\"shape\": [1, 1, 1], \"dtype\": \"fp16\", "
	                              "\"regime_per_hw\": {}},"
	                              "{\"shape\": [1, 1, 3], \"dtype\": \"fp16\", "
	                              "\"regime_per_hw\": {}}]}");
	struct rv_baseline *b = baseline_of("hardware,op,shape,dtype,latency_s,energy_j,"
	                                    "trial_count,notes\n"
	                                    "t,matmul,1x1x1,fp16,1e-4,,1,\n"
	                                    "t,matmul,1x1x2,fp16,1e-4,,1,\n"
	                                    "u,matmul,1x1x3,fp16,1e-4,,1,\n");
	struct rv_sweep *empty = sweep_of("{\"op\": \"matmul\", \"purpose\": \"validation\", "
	                                  "\"shapes\": []}");
	ptrdiff_t *m;

	(void)state;
	assert_int_equal(rv_match_rows(&m, s, b, "t"), 0);
	assert_non_null(m);
	assert_int_equal(b->rows[m[0]].shape.dim[2], 2);
	assert_int_equal(b->rows[m[0]].dtype, RV_DTYPE_FP16);
	assert_int_equal(m[1], -1);
	assert_int_equal(b->rows[m[2]].shape.dim[2], 1);
	assert_int_equal(m[3], -1); /* a row of u only */
	free(m);
	assert_int_equal(rv_match_rows(&m, s, b, NULL), 0);
	assert_int_equal(b->rows[m[3]].shape.dim[2], 3);
	free(m);
	assert_int_equal(rv_match_rows(&m, empty, b, "t"), 0);
	assert_null(m);
	rv_sweep_free(empty);
	rv_baseline_free(b);
	rv_sweep_free(s);
}

/* Pass counts of the model, pinned as floors: a model change that lowers one
 * fails here. Raise a floor when the model improves; never lower one without
 * saying why in the commit. "reference" rows read the reference harness's
 * calibration baselines in ../shared (skipped when it is absent); "repo" rows
 * read the project's own sweeps and baselines. */
static void test_validate__floors(void **state)
{
	static const struct {
		const char *source, *hw, *op, *purpose;
		size_t records, regime, latency, energy_scored, energy;
	} floors[] = {
#include "validate_floors.inc"
	};
	const char *ref = rv_reference_dir();

	(void)state;
	for (size_t i = 0; i < sizeof(floors) / sizeof(floors[0]); i++) {
		char path[4400];
		int repo = strcmp(floors[i].source, "repo") == 0;
		const char *base = repo ? RV_DATA_DIR : ref;
		struct rv_profile *p;
		struct rv_sweep *s;
		struct rv_baseline *b;
		struct rv_validation v;
		size_t regime = 0, latency = 0, energy = 0, scored = 0;

		if (!repo && !ref) {
			print_message("[  SKIPPED ] %s %s: ../shared/reference/upstream-v4 is "
			              "absent\n",
			              floors[i].hw, floors[i].op);
			continue;
		}
		assert_int_equal(
		        rv_profile_find(&p, rv_profile_dir(NULL), floors[i].hw, RV_PROFILE_FIT), 0);
		(void)snprintf(path, sizeof(path), "%s/sweeps/%s_%s.json", base, floors[i].op,
		               floors[i].purpose);
		assert_int_equal(rv_sweep_load(&s, path), 0);
		(void)snprintf(path, sizeof(path), "%s/%s/%s_%s.csv", base,
		               repo ? "results/baselines" : "baselines", floors[i].hw,
		               floors[i].op);
		assert_int_equal(rv_baseline_load(&b, path), 0);
		memset(&v, 0, sizeof(v));
		assert_int_equal(rv_validate(&v, p, s, "sweep", b, "baseline", NULL), 0);
		for (size_t r = 0; r < v.n_records; r++) {
			regime += (size_t)v.records[r].pass_regime;
			latency += (size_t)v.records[r].pass_latency;
			scored += v.records[r].pass_energy != RV_CHECK_SKIP;
			energy += v.records[r].pass_energy == RV_CHECK_PASS;
		}
		print_message("{ \"%s\", \"%s\", \"%s\", \"%s\", %zu, %zu, %zu, %zu, %zu },\n",
		              floors[i].source, floors[i].hw, floors[i].op, floors[i].purpose,
		              v.n_records, regime, latency, scored, energy);
		if (getenv("RV_PRINT_FLOORS"))
			goto next;
		if (v.n_records != floors[i].records || regime < floors[i].regime ||
		    latency < floors[i].latency || scored != floors[i].energy_scored ||
		    energy < floors[i].energy)
			fail_msg("%s %s %s fell below its floor (records %zu, regime >= %zu, "
			         "latency "
			         ">= %zu, energy scored %zu, energy >= %zu)",
			         floors[i].hw, floors[i].op, floors[i].purpose, floors[i].records,
			         floors[i].regime, floors[i].latency, floors[i].energy_scored,
			         floors[i].energy);
	next:
		rv_validation_free(&v);
		rv_baseline_free(b);
		rv_sweep_free(s);
		rv_profile_free(p);
	}
}

/* Adds a record of model to v (hand-built; the model registered once). */
static void add_of(struct rv_validation *v, const char *model, const char *shape,
                   enum rv_regime label, double pred_s, double meas_s)
{
	const struct rv_test_rec spec = { "cpu_test",
		                          RV_OP_MATMUL,
		                          shape,
		                          RV_DTYPE_FP32,
		                          label,
		                          label,
		                          pred_s,
		                          meas_s,
		                          1.0,
		                          1.0,
		                          RV_BOUND_COMPUTE,
		                          RV_TIER_DRAM,
		                          "energy not scored",
		                          NULL };

	rv_test_add_record(v, &spec);
	(void)snprintf(v->records[v->n_records - 1].model, RV_MODEL_NAME_MAX, "%s", model);
	assert_int_equal(rv_validation_add_model(v, model), 0);
}

static void test_validate__cells_per_model(void **state)
{
	struct rv_validation v;
	struct rv_cell *cells;
	size_t n, *idx, n_idx;

	(void)state;
	memset(&v, 0, sizeof(v));
	/* Model "b" first in run order, though it sorts after "a". */
	add_of(&v, "b", "64x64x64", RV_REGIME_ALU, 1.30, 1.0);   /* +30%: fails */
	add_of(&v, "b", "128x64x64", RV_REGIME_ALU, 1.05, 1.0);  /* +5% */
	add_of(&v, "b", "256x64x64", RV_REGIME_DRAM, 0.90, 1.0); /* -10% */
	add_of(&v, "a", "64x64x64", RV_REGIME_ALU, 1.02, 1.0);   /* +2% */
	add_of(&v, "a", "128x64x64", RV_REGIME_ALU, 1.08, 1.0);  /* +8% */
	assert_int_equal(rv_validation_cells(&v, &cells, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(cells[0].model, "b");
	assert_int_equal(cells[0].regime, RV_REGIME_ALU);
	assert_int_equal(cells[0].n_total, 2);
	assert_int_equal(cells[0].n_pass, 1);
	assert_true(fabs(cells[0].median_latency_ape - 0.175) < 1e-12);
	assert_string_equal(cells[1].model, "b");
	assert_int_equal(cells[1].regime, RV_REGIME_DRAM);
	assert_true(fabs(cells[1].median_latency_ape - 0.10) < 1e-12);
	assert_string_equal(cells[2].model, "a");
	assert_true(fabs(cells[2].median_latency_ape - 0.05) < 1e-12);
	free(cells);
	/* The models disagree on 64x64x64 alone: b fails it, a passes. */
	assert_int_equal(rv_validation_disagreements(&v, &idx, &n_idx), 0);
	assert_int_equal(n_idx, 2);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 3);
	free(idx);
	rv_validation_free(&v);
}

static void test_validate__compare(void **state)
{
	struct rv_validation old, now;
	struct rv_comparison c;

	(void)state;
	memset(&old, 0, sizeof(old));
	memset(&now, 0, sizeof(now));
	add_of(&old, "m", "64x64x64", RV_REGIME_ALU, 1.02, 1.0);    /* passes */
	add_of(&old, "m", "128x64x64", RV_REGIME_ALU, 1.5, 1.0);    /* fails */
	add_of(&old, "m", "256x64x64", RV_REGIME_DRAM, 1.0, 1.0);   /* passes, 0% */
	add_of(&old, "m", "512x64x64", RV_REGIME_ALU, 1.0, 1.0);    /* not validated now */
	add_of(&now, "m", "64x64x64", RV_REGIME_ALU, 1.3, 1.0);     /* fails now: a regression */
	add_of(&now, "m", "128x64x64", RV_REGIME_ALU, 1.01, 1.0);   /* passes now: an improvement */
	add_of(&now, "m", "256x64x64", RV_REGIME_DRAM, 1.1, 1.0);   /* cell median 0% -> 10% */
	add_of(&now, "other", "64x64x64", RV_REGIME_ALU, 2.0, 1.0); /* no old record of its model */
	assert_int_equal(rv_validation_compare(&old, &now, 2.0, &c), 0);
	assert_int_equal(c.n_matched, 3);
	assert_int_equal(c.n_old_only, 1);
	/* Regressions: the record, then the cells in order (alu: median 2% ->
	 * 15.5%, dram: 0% -> 10%); the improvement: the record that passes now. */
	assert_int_equal(c.n_regressions, 3);
	assert_int_equal(c.n_improvements, 1);
	assert_int_equal(c.changes[0].kind, RV_CHANGE_RECORD);
	assert_int_equal(c.changes[0].regression, 1);
	assert_int_equal(c.changes[0].shape.dim[0], 64);
	assert_int_equal(c.changes[1].kind, RV_CHANGE_CELL);
	assert_int_equal(c.changes[1].regime, RV_REGIME_ALU);
	assert_true(fabs(c.changes[1].old_value - 0.02) < 1e-12);
	assert_true(fabs(c.changes[1].new_value - 0.155) < 1e-12);
	assert_int_equal(c.changes[2].kind, RV_CHANGE_CELL);
	assert_int_equal(c.changes[2].regime, RV_REGIME_DRAM);
	assert_int_equal(c.changes[3].kind, RV_CHANGE_RECORD);
	assert_int_equal(c.changes[3].regression, 0);
	assert_int_equal(c.changes[3].shape.dim[0], 128);
	rv_comparison_free(&c);
	/* A threshold of 15 points leaves the dram cell (+10 points) alone. */
	assert_int_equal(rv_validation_compare(&old, &now, 15.0, &c), 0);
	assert_int_equal(c.n_regressions, 1);
	rv_comparison_free(&c);
	/* The reverse direction: what regressed is now an improvement. */
	assert_int_equal(rv_validation_compare(&now, &old, 2.0, &c), 0);
	assert_int_equal(c.n_regressions, 1);
	assert_int_equal(c.n_improvements, 3);
	assert_int_equal(c.changes[0].shape.dim[0], 128);
	assert_int_equal(c.n_old_only, 1);
	rv_comparison_free(&c);
	/* Compared with itself: nothing changed. */
	assert_int_equal(rv_validation_compare(&now, &now, 0.0, &c), 0);
	assert_int_equal(c.n_changes, 0);
	rv_comparison_free(&c);
	assert_int_equal(rv_validation_compare(&old, &now, -1.0, &c), RV_ERANGE);
	rv_validation_free(&old);
	rv_validation_free(&now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validate__bands),
		cmocka_unit_test(test_validate__scoring_rules),
		cmocka_unit_test(test_validate__energy_window_and_failures),
		cmocka_unit_test(test_validate__foreign_rows_are_errors),
		cmocka_unit_test(test_validate__energy_scoreable),
		cmocka_unit_test(test_validate__match_rows),
		cmocka_unit_test(test_validate__floors),
		cmocka_unit_test(test_validate__cells_per_model),
		cmocka_unit_test(test_validate__compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
