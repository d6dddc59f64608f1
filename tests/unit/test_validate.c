/* SPDX-License-Identifier: MIT */
/* Tests of validation: bands, the measured regime and its soft match, energy scoring rules,
 * skips, summaries, and pinned pass-count floors on the reference calibration baselines. */
#include "hw/fit.h"
#include "io/baseline.h"
#include "model/opcount.h"
#include "model/predict.h"
#include "model/validate.h"
#include "predictions/predictions.h"
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

/* A model with the built-in one's numbers that states the sweep's label as
 * its regime, as the reference analyzer does (ctx: the sweep). */
static int label_estimate(void *ctx, const struct rv_profile *p, enum rv_op op,
                          const struct rv_shape *s, enum rv_dtype d, struct rv_estimate *out)
{
	const struct rv_sweep *sw = ctx;
	int err = rv_estimate_builtin(p, op, s, d, out);

	out->regime = RV_REGIME_COUNT;
	for (size_t i = 0; i < sw->n_entries && err == 0; i++) {
		const struct rv_sweep_label *l = rv_sweep_label_for(&sw->entries[i], p->key);

		if (l && sw->entries[i].dtype == d && rv_shape_cmp(&sw->entries[i].shape, s) == 0)
			out->regime = l->regime;
	}
	return err;
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
	struct rv_predictor labels = { "reference", NULL, label_estimate };
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
	labels.ctx = s;
	assert_int_equal(rv_validate(&v, p, s, "s.json", b, "b.csv", &labels), 0);
	assert_int_equal(v.n_records, 3);
	assert_int_equal(v.skipped_ambiguous, 1);
	assert_int_equal(v.skipped_unsupported, 1);
	assert_int_equal(v.skipped_no_baseline, 1);

	r = record_of(&v, "64x2000x64");
	assert_int_equal(r->regime_label, RV_REGIME_ALU);
	assert_int_equal(r->regime_measured, RV_REGIME_AMBIGUOUS);
	assert_int_equal(r->pass_regime, RV_CHECK_FAIL);
	assert_false(r->label_agrees);
	assert_true(r->pass_latency);
	rv_assert_close(r->latency_err, 1 / 1.05 - 1, 1e-12, 0);
	assert_int_equal(r->pass_energy, RV_CHECK_SKIP);
	assert_non_null(strstr(r->notes, "below the meter's resolution"));
	assert_false(rv_record_passed(r));

	r = record_of(&v, "256x256x256");
	assert_int_equal(r->regime_measured, RV_REGIME_AMBIGUOUS);
	assert_int_equal(r->pass_regime, RV_CHECK_PASS); /* soft match */
	assert_true(r->label_agrees);
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
			/* The reference states its label: the label's verdict. */
			regime += (size_t)v.records[r].label_agrees;
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

static struct rv_prediction_set *predictions_of(const char *text)
{
	struct rv_prediction_set *set;

	if (rv_predictions_parse(&set, text, strlen(text), "p.csv", "mine") != 0)
		fail_msg("%s", rv_error_last());
	return set;
}

/* toy_gpu: peak 2e12 FLOP/s, DRAM 2e11 B/s, 1 us per call (5 us launch). */
static const char model_sweep[] =
        "{\"op\": \"matmul\", \"purpose\": \"validation\", \"shapes\": ["
        "{\"shape\": [1024, 1024, 1024], \"dtype\": \"fp16\", \"regime_per_hw\": "
        "{\"toy_gpu\": \"dram_bound\"}},"
        "{\"shape\": [256, 256, 256], \"dtype\": \"fp16\", \"regime_per_hw\": "
        "{\"toy_gpu\": \"l2_bound\"}},"
        "{\"shape\": [8, 8, 8], \"dtype\": \"fp16\", \"regime_per_hw\": "
        "{\"toy_gpu\": \"launch_bound\"}}]}";

/* 1024^3 (2.15 GFLOP) in 1.25 ms: 1.72e12 FLOP/s, 86% of the peak: alu
 * measured; 256^3 in 50 us: 0.67e12, 34%, ambiguous; 8^3 in 2 us: launch
 * (under 5 us). */
static const char model_baseline[] =
        "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n"
        "toy_gpu,matmul,1024x1024x1024,fp16,0.00125,,11,\n"
        "toy_gpu,matmul,256x256x256,fp16,5e-05,,11,\n"
        "toy_gpu,matmul,8x8x8,fp16,2e-06,,11,\n";

/* The regime verdict is the model's: the regime it states against the one
 * measured, by the reference's rule; none stated, none scored. The labels
 * are judged apart, once, and charged to no model. */
static void test_validate__model_regime(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_sweep *s = sweep_of(model_sweep);
	struct rv_baseline *b = baseline_of(model_baseline);
	struct rv_prediction_set *set =
	        predictions_of("hardware,op,shape,dtype,latency_s,energy_j,regime\n"
	                       "toy_gpu,matmul,1024x1024x1024,fp16,0.00125,,alu_bound\n"
	                       "toy_gpu,matmul,256x256x256,fp16,5e-05,,l2_bound\n"
	                       "toy_gpu,matmul,8x8x8,fp16,2e-06,,\n");
	struct rv_predictor pr;
	struct rv_validation v;
	struct rv_summary sum;
	struct rv_cell *cells;
	size_t n_cells;
	const struct rv_record *r;

	(void)state;
	rv_predictions_predictor(&pr, set);
	memset(&v, 0, sizeof(v));
	assert_int_equal(rv_validate(&v, p, s, "s.json", b, "b.csv", &pr), 0);
	/* Validated twice (a second model): the labels count once. */
	assert_int_equal(rv_validate(&v, p, s, "s.json", b, "b.csv", NULL), 0);
	r = record_of(&v, "1024x1024x1024");
	assert_int_equal(r->regime_measured, RV_REGIME_ALU);
	assert_int_equal(r->regime_model, RV_REGIME_ALU);
	assert_int_equal(r->pass_regime, RV_CHECK_PASS); /* its label, dram, disagrees */
	assert_false(r->label_agrees);
	r = record_of(&v, "256x256x256");
	assert_int_equal(r->regime_measured, RV_REGIME_AMBIGUOUS);
	assert_int_equal(r->pass_regime, RV_CHECK_PASS); /* l2's soft match */
	r = record_of(&v, "8x8x8");
	assert_int_equal(r->regime_measured, RV_REGIME_LAUNCH);
	assert_int_equal(r->regime_model, RV_REGIME_COUNT);
	assert_int_equal(r->pass_regime, RV_CHECK_SKIP);
	assert_true(rv_record_passed(r));
	assert_int_equal(rv_validation_summary_of(&v, "mine", &sum), 0);
	assert_int_equal(sum.regime_scored, 2);
	assert_int_equal(sum.regime_passed, 2);
	assert_int_equal(sum.regime_unstated, 1);
	assert_int_equal(sum.passed, 3);
	assert_int_equal(rv_validation_cells(&v, &cells, &n_cells), 0);
	for (size_t i = 0; i < n_cells; i++)
		if (strcmp(cells[i].model, "mine") == 0 && cells[i].regime == RV_REGIME_LAUNCH)
			assert_int_equal(cells[i].n_regime_unstated, 1);
	free(cells);
	/* The sweep's finding: the dram label measured alu, once for two models. */
	assert_int_equal(v.n_labels, 1);
	assert_int_equal(v.labels[0].checked, 3);
	assert_int_equal(v.labels[0].contradicted, 1);
	assert_int_equal(v.labels[0].by[RV_REGIME_DRAM][RV_REGIME_ALU], 1);
	assert_int_equal(v.labels[0].relabel_moves, 1);
	assert_false(v.labels[0].frozen);
	rv_validation_free(&v);
	rv_predictions_free(set);
	rv_baseline_free(b);
	rv_sweep_free(s);
	rv_profile_free(p);
}

/* The measured regime is the data's: a fit of the per-call overhead (as
 * calibrate writes one) changes no verdict of a model whose predictions
 * did not change. */
static void test_validate__fit_changes_no_foreign_verdict(void **state)
{
	struct rv_profile *p = toy_gpu(), *fitted = toy_gpu();
	struct rv_sweep *s = sweep_of(model_sweep);
	struct rv_baseline *b = baseline_of(model_baseline);
	struct rv_prediction_set *set =
	        predictions_of("hardware,op,shape,dtype,latency_s,energy_j,regime\n"
	                       "toy_gpu,matmul,1024x1024x1024,fp16,0.0013,,alu_bound\n"
	                       "toy_gpu,matmul,256x256x256,fp16,6e-05,,ambiguous\n"
	                       "toy_gpu,matmul,8x8x8,fp16,3e-06,,launch_bound\n");
	struct rv_param prm;
	struct rv_predictor pr;
	struct rv_validation a, c;

	(void)state;
	/* The fit's slot: 20 us per call puts 50 us under 5 calls (launch). */
	assert_int_equal(rv_param_resolve(&prm, fitted, "call_overhead.matmul.latency_s"), 0);
	*prm.slot = 20e-6;
	rv_predictions_predictor(&pr, set);
	memset(&a, 0, sizeof(a));
	memset(&c, 0, sizeof(c));
	assert_int_equal(rv_validate(&a, p, s, "s.json", b, "b.csv", &pr), 0);
	assert_int_equal(rv_validate(&c, fitted, s, "s.json", b, "b.csv", &pr), 0);
	assert_int_equal(a.n_records, 3);
	assert_int_equal(c.n_records, a.n_records);
	for (size_t i = 0; i < a.n_records; i++) {
		const struct rv_record *x = &a.records[i], *y = &c.records[i];

		assert_int_equal(x->regime_measured, y->regime_measured);
		assert_int_equal(x->pass_regime, y->pass_regime);
		assert_int_equal(x->pass_latency, y->pass_latency);
		assert_int_equal(x->pass_energy, y->pass_energy);
		assert_int_equal(x->label_agrees, y->label_agrees);
	}
	assert_int_equal(record_of(&c, "256x256x256")->regime_measured, RV_REGIME_AMBIGUOUS);
	assert_int_equal(c.labels[0].contradicted, a.labels[0].contradicted);
	rv_validation_free(&a);
	rv_validation_free(&c);
	rv_predictions_free(set);
	rv_baseline_free(b);
	rv_sweep_free(s);
	rv_profile_free(fitted);
	rv_profile_free(p);
}

/* The launch cut is 5 x the call floor the baseline measures (its fastest
 * call that did almost no work), not the profile's assumed overhead: with
 * calls of 12 us at least, a 30 us call of little work is launch-bound
 * though toy_gpu assumes 1 us per call. A baseline with no such call falls
 * back on the profile's overhead. */
static void test_validate__measured_call_floor(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_baseline *b = baseline_of("hardware,op,shape,dtype,latency_s,energy_j,"
	                                    "trial_count,notes\n"
	                                    "toy_gpu,matmul,8x8x8,fp16,1.2e-05,,11,\n"
	                                    "toy_gpu,matmul,16x16x16,fp16,3e-05,,11,\n"
	                                    "toy_gpu,matmul,1024x1024x1024,fp16,0.00125,,11,\n");
	struct rv_baseline *big = baseline_of("hardware,op,shape,dtype,latency_s,energy_j,"
	                                      "trial_count,notes\n"
	                                      "toy_gpu,matmul,1024x1024x1024,fp16,0.00125,,11,\n");
	struct rv_shape s16, s1k;
	enum rv_regime m;
	double floor_s;

	(void)state;
	assert_int_equal(rv_shape_parse("16x16x16", RV_OP_MATMUL, &s16), 0);
	assert_int_equal(rv_shape_parse("1024x1024x1024", RV_OP_MATMUL, &s1k), 0);
	floor_s = rv_call_floor_s(p, b, RV_OP_MATMUL);
	assert_float_equal(floor_s, 1.2e-5, 1e-18);
	assert_int_equal(
	        rv_measured_regime(&m, p, RV_OP_MATMUL, &s16, RV_DTYPE_FP16, 3e-5, floor_s), 0);
	assert_int_equal(m, RV_REGIME_LAUNCH);
	/* The profile's own 1 us would call it ambiguous. */
	assert_int_equal(rv_measured_regime(&m, p, RV_OP_MATMUL, &s16, RV_DTYPE_FP16, 3e-5,
	                                    p->published_op_overhead_s[RV_OP_MATMUL]),
	                 0);
	assert_int_equal(m, RV_REGIME_AMBIGUOUS);
	/* The big call is work, not a floor: the profile's overhead stands. */
	assert_float_equal(rv_call_floor_s(p, big, RV_OP_MATMUL),
	                   p->published_op_overhead_s[RV_OP_MATMUL], 0);
	assert_int_equal(rv_measured_regime(&m, p, RV_OP_MATMUL, &s1k, RV_DTYPE_FP16, 0.00125,
	                                    rv_call_floor_s(p, big, RV_OP_MATMUL)),
	                 0);
	assert_int_equal(m, RV_REGIME_ALU);
	/* A stated cache regime, l1 as l2, passes an ambiguous measurement. */
	assert_true(rv_regime_matches(RV_REGIME_L1, RV_REGIME_AMBIGUOUS));
	assert_true(rv_regime_matches(RV_REGIME_L1, RV_REGIME_LAUNCH));
	assert_false(rv_regime_matches(RV_REGIME_L1, RV_REGIME_DRAM));
	assert_false(rv_regime_matches(RV_REGIME_DRAM, RV_REGIME_AMBIGUOUS));
	rv_baseline_free(big);
	rv_baseline_free(b);
	rv_profile_free(p);
}

/* The cell of label of model in cells. */
static const struct rv_cell *cell_of(const struct rv_cell *cells, size_t n, const char *model,
                                     enum rv_regime label)
{
	for (size_t i = 0; i < n; i++)
		if (cells[i].regime == label && strcmp(cells[i].model, model) == 0)
			return &cells[i];
	fail_msg("no %s cell of %s", rv_regime_name(label), model);
	abort();
}

/* The bias and what the errors imply, of a synthetic model whose constants
 * are known: latency = FLOPs / 1e12 on alu rows, footprint bytes / 2.5e11 on
 * dram rows, 4 us on launch rows; the measurements 25% slower. */
static void test_validate__bias_and_rates(void **state)
{
	static const char *const alu[] = { "512x512x512", "1024x512x512", "1024x1024x512",
		                           "1024x1024x1024" };
	static const char *const dram[] = { "4096x4096x16", "8192x4096x16", "8192x8192x16" };
	static const char *const launch[] = { "8x8x8", "16x8x8" };
	struct rv_profile *p = toy_gpu();
	struct rv_buf sw = RV_BUF_INIT, bl = RV_BUF_INIT, pc = RV_BUF_INIT;
	struct rv_sweep *s;
	struct rv_baseline *b;
	struct rv_prediction_set *set;
	struct rv_predictor pr;
	struct rv_validation v;
	struct rv_cell *cells;
	const struct rv_cell *c;
	size_t n_cells;
	const struct {
		const char *const *shapes;
		size_t n;
		const char *label;
	} groups[] = { { alu, 4, "alu_bound" },
		       { dram, 3, "dram_bound" },
		       { launch, 2, "launch_bound" } };

	(void)state;
	rv_buf_puts(&sw, "{\"op\": \"matmul\", \"purpose\": \"validation\", \"shapes\": [");
	rv_buf_puts(&bl, "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n");
	rv_buf_puts(&pc, "hardware,op,shape,dtype,latency_s,energy_j\n");
	for (size_t g = 0, first = 1; g < 3; g++) {
		for (size_t i = 0; i < groups[g].n; i++, first = 0) {
			struct rv_shape sh;
			struct rv_footprint fp;
			double pred;

			assert_int_equal(rv_shape_parse(groups[g].shapes[i], RV_OP_MATMUL, &sh), 0);
			assert_int_equal(rv_footprint_of(&fp, RV_OP_MATMUL, &sh, RV_DTYPE_FP16), 0);
			pred = g == 0 ? fp.flop / 1e12 : g == 1 ? fp.working_set_B / 2.5e11 : 4e-6;
			rv_buf_printf(&sw,
			              "%s{\"shape\": [%u, %u, %u], \"dtype\": \"fp16\", "
			              "\"regime_per_hw\": {\"toy_gpu\": \"%s\"}}",
			              first ? "" : ",", (unsigned)sh.dim[0], (unsigned)sh.dim[1],
			              (unsigned)sh.dim[2], groups[g].label);
			rv_buf_printf(&bl, "toy_gpu,matmul,%s,fp16,%.17g,,11,\n",
			              groups[g].shapes[i], pred * 1.25);
			rv_buf_printf(&pc, "toy_gpu,matmul,%s,fp16,%.17g,\n", groups[g].shapes[i],
			              pred);
		}
	}
	rv_buf_puts(&sw, "]}");
	s = sweep_of(rv_buf_str(&sw));
	b = baseline_of(rv_buf_str(&bl));
	set = predictions_of(rv_buf_str(&pc));
	rv_predictions_predictor(&pr, set);
	memset(&v, 0, sizeof(v));
	assert_int_equal(rv_validate(&v, p, s, "s.json", b, "b.csv", &pr), 0);
	assert_int_equal(v.n_records, 9);
	assert_int_equal(rv_validation_cells(&v, &cells, &n_cells), 0);
	c = cell_of(cells, n_cells, "mine", RV_REGIME_ALU);
	assert_int_equal(c->rate, RV_RATE_FLOP_PER_S);
	/* (pred - meas) / meas = 1 / 1.25 - 1 = -20%: predicts too fast. */
	rv_assert_close(c->latency_bias.median, -0.2, 1e-12, 0);
	rv_assert_close(c->latency_bias.p25, -0.2, 1e-12, 0);
	rv_assert_close(c->latency_bias.p75, -0.2, 1e-12, 0);
	rv_assert_close(c->rate_model.median, 1e12, 1e-12, 0);
	rv_assert_close(c->rate_model.p25, 1e12, 1e-12, 0);
	rv_assert_close(c->rate_model.p75, 1e12, 1e-12, 0);
	rv_assert_close(c->rate_measured.median, 0.8e12, 1e-12, 0);
	assert_int_equal(c->n_within_band, 0); /* 20% outside alu's 10% */
	c = cell_of(cells, n_cells, "mine", RV_REGIME_DRAM);
	assert_int_equal(c->rate, RV_RATE_BYTES_PER_S);
	rv_assert_close(c->rate_model.median, 2.5e11, 1e-12, 0);
	rv_assert_close(c->rate_measured.median, 2e11, 1e-12, 0);
	assert_int_equal(c->n_within_band, 3); /* 20% inside dram's 25% */
	c = cell_of(cells, n_cells, "mine", RV_REGIME_LAUNCH);
	assert_int_equal(c->rate, RV_RATE_SECONDS);
	rv_assert_close(c->rate_model.median, 4e-6, 1e-12, 0);
	rv_assert_close(c->rate_measured.median, 5e-6, 1e-12, 0);
	free(cells);
	rv_validation_free(&v);
	rv_predictions_free(set);
	rv_buf_free(&sw);
	rv_buf_free(&bl);
	rv_buf_free(&pc);
	rv_baseline_free(b);
	rv_sweep_free(s);
	rv_profile_free(p);
}

/* The built-in model's implied rates are its profile's: at most the
 * effective FLOP/s on alu rows, close to it on a large GEMM; the effective
 * DRAM bandwidth on a large add (its footprint over its time, within 5%:
 * the L2 keeps a little of it); at least the per-call overhead on launch
 * rows. */
static void test_validate__builtin_rates_are_its_profile(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_sweep *s =
	        sweep_of("{\"op\": \"matmul\", \"purpose\": \"validation\", \"shapes\": ["
	                 "{\"shape\": [4096, 4096, 4096], \"dtype\": \"fp16\", \"regime_per_hw\": "
	                 "{\"toy_gpu\": \"alu_bound\"}},"
	                 "{\"shape\": [8, 8, 8], \"dtype\": \"fp16\", \"regime_per_hw\": "
	                 "{\"toy_gpu\": \"launch_bound\"}}]}");
	struct rv_sweep *sa =
	        sweep_of("{\"op\": \"vector_add\", \"purpose\": \"validation\", \"shapes\": ["
	                 "{\"shape\": [67108864], \"dtype\": \"fp16\", \"regime_per_hw\": "
	                 "{\"toy_gpu\": \"dram_bound\"}}]}");
	struct rv_baseline *b =
	        baseline_of("hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n"
	                    "toy_gpu,matmul,4096x4096x4096,fp16,0.15,,11,\n"
	                    "toy_gpu,matmul,8x8x8,fp16,2e-06,,11,\n");
	struct rv_baseline *ba =
	        baseline_of("hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n"
	                    "toy_gpu,vector_add,67108864,fp16,0.005,,11,\n");
	const struct rv_compute *comp = rv_profile_compute(p, RV_DTYPE_FP16);
	double dram_Bps = p->memory[p->n_memory - 1].effective_bw_Bps;
	struct rv_validation v;
	struct rv_cell *cells;
	const struct rv_cell *c;
	size_t n_cells;

	(void)state;
	memset(&v, 0, sizeof(v));
	assert_int_equal(rv_validate(&v, p, s, "s.json", b, "b.csv", NULL), 0);
	assert_int_equal(rv_validate(&v, p, sa, "a.json", ba, "a.csv", NULL), 0);
	assert_int_equal(rv_validation_cells(&v, &cells, &n_cells), 0);
	c = cell_of(cells, n_cells, RV_BUILTIN_MODEL, RV_REGIME_ALU);
	assert_true(c->rate_model.median <= comp->effective_flop_per_s * (1 + 1e-12));
	assert_true(c->rate_model.median >= 0.9 * comp->effective_flop_per_s);
	c = cell_of(cells, n_cells, RV_BUILTIN_MODEL, RV_REGIME_DRAM);
	rv_assert_close(c->rate_model.median, dram_Bps, 0.05, 0);
	c = cell_of(cells, n_cells, RV_BUILTIN_MODEL, RV_REGIME_LAUNCH);
	assert_true(c->rate_model.median >= p->op_overhead_s[RV_OP_MATMUL]);
	free(cells);
	rv_validation_free(&v);
	rv_baseline_free(b);
	rv_baseline_free(ba);
	rv_sweep_free(s);
	rv_sweep_free(sa);
	rv_profile_free(p);
}

/* A model name is kept whole or refused, never cut. */
static void test_validate__model_names_whole(void **state)
{
	struct rv_validation v;
	char name[RV_MODEL_NAME_MAX + 8];

	(void)state;
	memset(&v, 0, sizeof(v));
	memset(name, 'm', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_int_equal(rv_validation_add_model(&v, name), RV_ERANGE);
	assert_non_null(strstr(rv_error_last(), "--model-name"));
	name[RV_MODEL_NAME_MAX - 1] = '\0';
	assert_int_equal(rv_validation_add_model(&v, name), 0);
	assert_int_equal(rv_validation_add_model(&v, ""), RV_ERANGE);
	rv_validation_free(&v);
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
		cmocka_unit_test(test_validate__model_regime),
		cmocka_unit_test(test_validate__fit_changes_no_foreign_verdict),
		cmocka_unit_test(test_validate__measured_call_floor),
		cmocka_unit_test(test_validate__bias_and_rates),
		cmocka_unit_test(test_validate__builtin_rates_are_its_profile),
		cmocka_unit_test(test_validate__model_names_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
