/* SPDX-License-Identifier: MIT */
/* Tests of honest verdicts: the suspect-row rule on
 * hand-made rows, validate marking, counting and --exclude-flagged leaving
 * them out, and the noise ceiling of repeat captures and matmul/linear pairs
 * with answers worked by hand. */
#include "io/baseline.h"
#include "model/predict.h"
#include "model/validate.h"
#include "rv_test.h"
#include "rv_test_records.h"

static struct rv_baseline *baseline_of(const char *text)
{
	struct rv_baseline *b;

	if (rv_baseline_parse(&b, text, strlen(text), "b.csv") != 0)
		fail_msg("%s", rv_error_last());
	return b;
}

#define HEADER                                                                        \
	"hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes,latency_mad_s," \
	"energy_window_s,busy_share\n"

/* A cpu fp32 record labelled and predicted alu_bound, timed (no energy). */
static void cpu_alu(struct rv_validation *v, enum rv_op op, const char *shape, double predicted_s,
                    double measured_s, const char *model)
{
	rv_test_add_record(v, &(struct rv_test_rec){ "cpu", op, shape, RV_DTYPE_FP32, RV_REGIME_ALU,
	                                             RV_REGIME_ALU, predicted_s, measured_s, 1, 1,
	                                             -1, -1, model, NULL });
}

static void test_noise__suspect_rule(void **state)
{
	/* Row 1: clean: MAD 1% of the median over 25 trials: standard error
	 * 1.2533 x 1.4826 x 0.01 / 5 = 0.37%; energy over 2 ms.
	 * Row 2: busy 0.26 > 0.25. Row 3: busy exactly 0.25: not suspect.
	 * Row 4: MAD 5% over 9 trials: 1.858 x 0.05 / 3 = 3.1% > 1%.
	 * Row 5: 1e-4 s, energy measured without a window: a suspect energy.
	 * Row 6: 1e-4 s, energy 0 (under the meter's resolution): nothing.
	 * Row 7: no spread, busy or window columns given: nothing to suspect. */
	struct rv_baseline *b =
	        baseline_of(HEADER "h,matmul,64x64x64,fp32,0.002,0.5,25,,2e-05,0.002,0.1\n"
	                           "h,matmul,64x64x65,fp32,0.002,,25,,,,0.26\n"
	                           "h,matmul,64x64x66,fp32,0.002,,25,,,,0.25\n"
	                           "h,matmul,64x64x67,fp32,0.002,,9,,0.0001,,\n"
	                           "h,matmul,64x64x68,fp32,0.0001,0.01,25,,,,\n"
	                           "h,matmul,64x64x69,fp32,0.0001,0,25,,,,\n"
	                           "h,matmul,64x64x70,fp32,0.0001,,25,,,,\n");
	static const unsigned want[7] = {
		0, RV_SUSPECT_BUSY, 0, RV_SUSPECT_IMPRECISE, RV_SUSPECT_ENERGY, 0, 0
	};
	char why[192];

	(void)state;
	assert_int_equal(b->n_rows, 7);
	for (size_t i = 0; i < 7; i++) {
		unsigned mask = 99;

		if (rv_row_suspect(&b->rows[i], &mask) != (want[i] != 0) || mask != want[i])
			fail_msg("row %zu: suspect mask %u, wanted %u", i + 1, mask, want[i]);
	}
	rv_assert_close(rv_row_median_rse(&b->rows[0]), 1.2533 * 1.4826 * 0.01 / 5, 1e-12, 0);
	rv_assert_close(rv_row_median_rse(&b->rows[3]), 1.2533 * 1.4826 * 0.05 / 3, 1e-12, 0);
	assert_true(isnan(rv_row_median_rse(&b->rows[1])));
	assert_int_equal(rv_row_suspect(&b->rows[1], NULL), 1);
	/* The energy rule is the one validate and calibrate score by. */
	assert_int_equal(rv_row_energy_scoreable(&b->rows[0]), 1);
	assert_int_equal(rv_row_energy_scoreable(&b->rows[4]), 0);
	assert_int_equal(rv_energy_scoreable(b, &b->rows[4]), 0);
	rv_row_suspect_text(why, sizeof(why), &b->rows[1], RV_SUSPECT_BUSY);
	assert_non_null(strstr(why, "26% of the CPU"));
	rv_row_suspect_text(why, sizeof(why), &b->rows[3], RV_SUSPECT_IMPRECISE);
	assert_non_null(strstr(why, "median known to 3.1%, not 1%"));
	rv_row_suspect_text(why, sizeof(why), &b->rows[0], 0);
	assert_string_equal(why, "");
	rv_baseline_free(b);
}

static struct rv_sweep *sweep_of(const char *text)
{
	struct rv_sweep *s;

	if (rv_sweep_parse(&s, text, strlen(text), "s.json") != 0)
		fail_msg("%s", rv_error_last());
	return s;
}

static struct rv_profile *toy_gpu(void)
{
	struct rv_profile *p;

	if (rv_profile_load(&p, rv_fixture_path("hardware/model/toy_gpu.json")) != 0)
		fail_msg("%s", rv_error_last());
	return p;
}

#define TOY_SWEEP(op)                                                              \
	"{\"op\": \"" op "\", \"purpose\": \"validation\", \"shapes\": ["          \
	"{\"shape\": [1024, 1024, 1024], \"dtype\": \"fp16\", \"regime_per_hw\": " \
	"{\"toy_gpu\": \"l2_bound\"}},"                                            \
	"{\"shape\": [2048, 2048, 2048], \"dtype\": \"fp16\", \"regime_per_hw\": " \
	"{\"toy_gpu\": \"l2_bound\"}},"                                            \
	"{\"shape\": [4096, 4096, 4096], \"dtype\": \"fp16\", \"regime_per_hw\": " \
	"{\"toy_gpu\": \"l2_bound\"}}]}"

static void test_noise__exclude_flagged(void **state)
{
	struct rv_profile *p = toy_gpu();
	struct rv_sweep *s = sweep_of(TOY_SWEEP("matmul"));
	/* The second row was measured on a busy machine. */
	struct rv_baseline *b =
	        baseline_of(HEADER "toy_gpu,matmul,1024x1024x1024,fp16,0.001,,11,,,,0\n"
	                           "toy_gpu,matmul,2048x2048x2048,fp16,0.008,,11,,,,0.6\n"
	                           "toy_gpu,matmul,4096x4096x4096,fp16,0.064,,11,,,,\n");
	struct rv_validation v;
	struct rv_summary sum;
	struct rv_cell *cells = NULL;
	size_t n_cells = 0;

	(void)state;
	memset(&v, 0, sizeof(v));
	assert_int_equal(rv_validate(&v, p, s, "s.json", b, "b.csv", NULL), 0);
	assert_int_equal(v.n_records, 3);
	assert_int_equal(v.records[1].suspect, RV_SUSPECT_BUSY);
	assert_non_null(strstr(v.records[1].suspect_why, "machine busy: 60%"));
	assert_int_equal(v.records[0].suspect, 0);
	assert_int_equal(rv_validation_summary(&v, &sum), 0);
	assert_int_equal(sum.suspect, 1);
	assert_int_equal(sum.suspect_failed, !rv_record_passed(&v.records[1]));
	assert_int_equal(sum.excluded_flagged, 0);
	assert_int_equal(rv_validation_cells(&v, &cells, &n_cells), 0);
	assert_int_equal(n_cells, 1);
	assert_int_equal(cells[0].n_suspect, 1);
	free(cells);
	rv_validation_free(&v);

	memset(&v, 0, sizeof(v));
	v.exclude_flagged = 1;
	assert_int_equal(rv_validate(&v, p, s, "s.json", b, "b.csv", NULL), 0);
	assert_int_equal(v.n_records, 2);
	assert_int_equal(rv_validation_summary(&v, &sum), 0);
	assert_int_equal(sum.records, 2);
	assert_int_equal(sum.suspect, 0);
	assert_int_equal(sum.excluded_flagged, 1);
	assert_int_equal(sum.rows_found, 3);
	rv_validation_free(&v);
	rv_baseline_free(b);
	rv_sweep_free(s);
	rv_profile_free(p);
}

static void test_noise__bias_rule(void **state)
{
	struct rv_shape s;

	(void)state;
	/* IN = 24: the B x OUT additions are 1/48 = 2.08% of the GEMM's FLOP. */
	assert_int_equal(rv_shape_parse("512x24x512", RV_OP_LINEAR, &s), 0);
	assert_int_equal(rv_bias_negligible(&s, (double)NAN, (double)NAN), 0);
	/* IN = 26: 1.9%. */
	assert_int_equal(rv_shape_parse("512x26x512", RV_OP_LINEAR, &s), 0);
	assert_int_equal(rv_bias_negligible(&s, (double)NAN, (double)NAN), 1);
	/* The model's predicted add: 1% of the GEMM passes, 3% does not. */
	assert_int_equal(rv_bias_negligible(&s, 1.0, 1.01), 1);
	assert_int_equal(rv_bias_negligible(&s, 1.0, 1.03), 0);
}

/* The noise entry of (hardware, op) in n. */
static const struct rv_noise *noise_of(const struct rv_noise *n, size_t count, const char *hw,
                                       enum rv_op op)
{
	for (size_t i = 0; i < count; i++)
		if (n[i].op == op && strcmp(n[i].hardware, hw) == 0)
			return &n[i];
	fail_msg("no noise entry for %s %s", hw, rv_op_name(op));
	abort(); /* fail_msg() does not return; say so to the optimiser */
}

static void test_noise__ceiling(void **state)
{
	struct rv_validation v;
	struct rv_baseline *again;
	struct rv_noise *n = NULL;
	size_t count = 0;
	const struct rv_noise *e;

	(void)state;
	memset(&v, 0, sizeof(v));
	/* cpu matmul, alu_bound (band 10%): measured 1.00, 2.00, 4.00 ms. */
	cpu_alu(&v, RV_OP_MATMUL, "512x512x512", 1.05e-3, 1.00e-3, "x");
	cpu_alu(&v, RV_OP_MATMUL, "1024x512x512", 3.00e-3, 2.00e-3, "x");
	cpu_alu(&v, RV_OP_MATMUL, "2048x512x512", 4.00e-3, 4.00e-3, "x");
	/* cpu linear of the first GEMM, alu_bound: 1.30 ms, and one of its own. */
	cpu_alu(&v, RV_OP_LINEAR, "512x512x512", 1.05e-3, 1.30e-3, "x");
	cpu_alu(&v, RV_OP_LINEAR, "8x512x512", 1e-4, 1e-4, "x");
	/* Before any repeat capture: the matmul/linear pair alone. 1.30 / 1.00 =
	 * 1.3 > 1.1 / 0.9 = 1.222: no prediction passes both. */
	assert_int_equal(rv_validation_noise(&v, &n, &count), 0);
	assert_int_equal(count, 2);
	e = noise_of(n, count, "cpu", RV_OP_MATMUL);
	assert_int_equal(e->n_pairs, 1);
	assert_int_equal(e->n_kind[RV_REPEAT_MATMUL_LINEAR], 1);
	rv_assert_close(e->ceiling, 0.0, 0, 0);
	rv_assert_close(e->scatter, 0.3, 1e-12, 0);
	assert_int_equal(e->records, 3);
	assert_int_equal(e->within_band, 2); /* 1.05 vs 1.00 and 4 vs 4; 3 vs 2 misses */
	e = noise_of(n, count, "cpu", RV_OP_LINEAR);
	assert_int_equal(e->n_pairs, 1);
	free(n);

	/* A second capture of the matmuls: 1.20 (ratio 1.2 <= 1.222: passable),
	 * 2.50 (1.25: not), 4.00 (1.0: passable), and a row no record has. */
	again = baseline_of("hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n"
	                    "cpu,matmul,512x512x512,fp32,0.0012,,11,\n"
	                    "cpu,matmul,1024x512x512,fp32,0.0025,,11,\n"
	                    "cpu,matmul,2048x512x512,fp32,0.004,,11,\n"
	                    "cpu,matmul,4096x512x512,fp32,0.008,,11,\n");
	assert_int_equal(rv_validation_add_repeats(&v, again, "again.csv"), 0);
	assert_int_equal(v.n_repeats, 3);
	assert_int_equal(rv_validation_noise(&v, &n, &count), 0);
	e = noise_of(n, count, "cpu", RV_OP_MATMUL);
	assert_int_equal(e->n_pairs, 4);
	assert_int_equal(e->n_kind[RV_REPEAT_CAPTURES], 3);
	/* Passable: 1.2 and 1.0 of 4 pairs; scatter the median of 0.2, 0.25, 0, 0.3. */
	rv_assert_close(e->ceiling, 0.5, 1e-12, 0);
	rv_assert_close(e->scatter, 0.225, 1e-12, 0);
	/* One further capture: no median of others to agree with. */
	assert_int_equal(e->agree_records, 0);
	/* The linear has no repeat capture: its one matmul/linear pair only. */
	e = noise_of(n, count, "cpu", RV_OP_LINEAR);
	assert_int_equal(e->n_pairs, 1);
	free(n);
	rv_baseline_free(again);

	/* A third capture: 0.95, 2.90, 3.00 ms. The others' medians: 1.075
	 * (1.00 is 7% under: within 10%), 2.70 (2.00 is 26% under), 3.50 (4.00
	 * is 14% over): one record of three agrees with the others. */
	again = baseline_of("hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n"
	                    "cpu,matmul,512x512x512,fp32,0.00095,,11,\n"
	                    "cpu,matmul,1024x512x512,fp32,0.0029,,11,\n"
	                    "cpu,matmul,2048x512x512,fp32,0.003,,11,\n");
	assert_int_equal(rv_validation_add_repeats(&v, again, "third.csv"), 0);
	assert_int_equal(rv_validation_noise(&v, &n, &count), 0);
	e = noise_of(n, count, "cpu", RV_OP_MATMUL);
	assert_int_equal(e->agree_records, 3);
	assert_int_equal(e->agree_within, 1);
	e = noise_of(n, count, "cpu", RV_OP_LINEAR);
	assert_int_equal(e->agree_records, 0);
	free(n);
	rv_baseline_free(again);
	rv_validation_free(&v);

	/* No pairs: no number. */
	memset(&v, 0, sizeof(v));
	rv_test_add_record(&v, &(struct rv_test_rec){ "cpu", RV_OP_VECTOR_ADD, "1024",
	                                              RV_DTYPE_FP32, RV_REGIME_DRAM, RV_REGIME_DRAM,
	                                              1e-6, 1e-6, 1, 1, -1, -1, "x", NULL });
	assert_int_equal(rv_validation_noise(&v, &n, &count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(n[0].n_pairs, 0);
	assert_true(isnan(n[0].ceiling));
	assert_true(isnan(n[0].scatter));
	free(n);
	rv_validation_free(&v);
}

/* Records of a second capture (another folder's validation): two of the
 * same entry (two models scored it) pair the entry once, with the first. */
static void test_noise__repeat_records_once(void **state)
{
	struct rv_validation v, w;

	(void)state;
	memset(&v, 0, sizeof(v));
	memset(&w, 0, sizeof(w));
	cpu_alu(&v, RV_OP_MATMUL, "512x512x512", 1.05e-3, 1.00e-3, "x");
	cpu_alu(&w, RV_OP_MATMUL, "512x512x512", 1.05e-3, 1.20e-3, "x");
	cpu_alu(&w, RV_OP_MATMUL, "512x512x512", 1.05e-3, 1.20e-3, "y");
	cpu_alu(&w, RV_OP_MATMUL, "64x64x64", 1e-5, 1e-5, "x");
	assert_int_equal(rv_validation_add_repeat_records(&v, w.records, w.n_records), 0);
	assert_int_equal(v.n_repeats, 1);
	rv_assert_close(v.repeats[0].a_s, 1.00e-3, 0, 0);
	rv_assert_close(v.repeats[0].b_s, 1.20e-3, 0, 0);
	/* A later folder pairs it again: each capture once. */
	assert_int_equal(rv_validation_add_repeat_records(&v, w.records, w.n_records), 0);
	assert_int_equal(v.n_repeats, 2);
	rv_validation_free(&v);
	rv_validation_free(&w);
}

/* The placements of a validation: each (hardware, op) widened by every set
 * of captures that states round trips, none added for those that state
 * none, and each noise entry given its own and told whether they are apart
 * (more than 1.5 times). */
static void test_noise__placements(void **state)
{
	struct rv_validation v;
	struct rv_noise *n = NULL;
	size_t n_noise = 0;

	(void)state;
	memset(&v, 0, sizeof(v));
	cpu_alu(&v, RV_OP_MATMUL, "512x512x512", 1.05e-3, 1.00e-3, "x");
	cpu_alu(&v, RV_OP_LINEAR, "512x512x512", 1.05e-3, 1.00e-3, "x");
	assert_int_equal(rv_validation_add_placement(&v, "cpu", RV_OP_MATMUL, 0, 0), 0);
	assert_int_equal(v.n_placements, 0);
	assert_int_equal(rv_validation_add_placement(&v, "cpu", RV_OP_MATMUL, 1.2e-7, 1.5e-7), 0);
	assert_int_equal(rv_validation_add_placement(&v, "cpu", RV_OP_LINEAR, 1.2e-7, 1.7e-7), 0);
	assert_int_equal(rv_validation_add_placement(&v, "cpu", RV_OP_MATMUL, 4.5e-7, 4.6e-7), 0);
	assert_int_equal(rv_validation_add_placement(&v, "cpu", RV_OP_MATMUL, 0, 0), 0);
	assert_int_equal(v.n_placements, 2);
	assert_int_equal(rv_validation_noise(&v, &n, &n_noise), 0);
	assert_int_equal(n_noise, 2);
	for (size_t i = 0; i < n_noise; i++) {
		int mm = n[i].op == RV_OP_MATMUL;

		rv_assert_close(n[i].round_trip_min_s, 1.2e-7, 0, 0);
		rv_assert_close(n[i].round_trip_max_s, mm ? 4.6e-7 : 1.7e-7, 0, 0);
		assert_int_equal(rv_noise_placements_differ(&n[i]), mm);
	}
	free(n);
	rv_validation_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise__suspect_rule),
		cmocka_unit_test(test_noise__exclude_flagged),
		cmocka_unit_test(test_noise__bias_rule),
		cmocka_unit_test(test_noise__repeat_records_once),
		cmocka_unit_test(test_noise__ceiling),
		cmocka_unit_test(test_noise__placements),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
