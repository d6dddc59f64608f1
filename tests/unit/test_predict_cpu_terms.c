/* SPDX-License-Identifier: MIT */
/* The CPU GEMM and elementwise terms of the model, on the toy CPU profile of
 * tests/data/hardware/model: gemm.threading.dispatch_s, the fixed time a CPU
 * BLAS call pays for handing its work to more than one thread, and
 * elementwise.unit_loop_Bps, the rate of one core's elementwise loop;
 * gemm.threading.shared_pack_Bps, the panels of A the threads of a call
 * share, gemm.bias_row_s, the time per row of copying a linear's bias into
 * its output before the GEMM, gemm.bias_Bps, the rate at which that copy
 * writes, and gemm.edge_kernels, how the BLAS covers a partial tile;
 * gemm.threading.shared_pack_min_n, the N from which the shared panels cost,
 * and gemm.beta_zero, a pass that zeroes a matmul's C before the kernel (or
 * once where the last cache serves it); gemm.threading.k_step and k_step_s,
 * the hand-over of each step of K after the first between the threads;
 * gemm.threading.bias_handoff_Bps, a linear's C crossing between cores;
 * gemm.threading.kernel_call_rows and kernel_call_s, the packed driver's
 * kernel calls along M, and gemm.threading.m_pieces, the pieces of M its
 * threaded driver covers each with edges of their own;
 * gemm.threading.split_line_s, the cache lines of C that cross between units
 * that split N; gemm.packed_kernel, the packed kernel's blocks along M, and
 * gemm.pack_transposed_Bps, the rate of packing a linear's weight. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hw/fit.h"
#include "io/file.h"
#include "model/predict.h"
#include "rv_test.h"

static const char *toy_path(void)
{
	return rv_fixture_path("hardware/model/toy_cpu.json");
}

static struct rv_profile *toy(void)
{
	struct rv_profile *p;

	if (rv_profile_load(&p, toy_path()) != 0)
		fail_msg("%s", rv_error_last());
	return p;
}

/* toy_cpu with a gemm.threading object: a call runs on one unit up to
 * M*N*K 4194304 (256x64x256 exactly), on all 4 above it. */
static struct rv_profile *threaded_toy(void)
{
	struct rv_profile *p = toy();

	p->gemm.threading.provenance = strdup("test [assumed]");
	p->gemm.threading.single_unit_max_mnk = 4194304;
	return p;
}

static void predict(struct rv_prediction *r, const struct rv_profile *p, enum rv_op op,
                    const char *shape)
{
	struct rv_shape s;

	assert_int_equal(rv_shape_parse(shape, op, &s), 0);
	assert_int_equal(rv_predict(r, p, op, &s, RV_DTYPE_FP16), 0);
}

/* A call and what a term adds to its latency (not to its compute time). */
struct added {
	enum rv_op op;
	const char *shape;
	double added_s;
};

/* Each call predicted with *term 0 and with value, on threaded_toy(). */
static void check_added(double *(*term)(struct rv_profile *), double value,
                        const struct added *calls, size_t n)
{
	struct rv_profile *p = threaded_toy();
	struct rv_prediction without, with;

	for (size_t i = 0; i < n; i++) {
		*term(p) = 0;
		predict(&without, p, calls[i].op, calls[i].shape);
		*term(p) = value;
		predict(&with, p, calls[i].op, calls[i].shape);
		rv_assert_close(with.latency_s, without.latency_s + calls[i].added_s, 1e-12, 0);
		rv_assert_close(with.compute_s, without.compute_s, 0, 0);
		/* Shown as the hand-over term. */
		rv_assert_close(with.handover_s, without.handover_s + calls[i].added_s, 1e-12, 0);
	}
	rv_profile_free(p);
}

static double *dispatch_s(struct rv_profile *p)
{
	return &p->gemm.threading.dispatch_s;
}

/* A call above single_unit_max_mnk (on all 4 units) pays dispatch_s on top
 * of what it took without it; one at or below it (one unit) pays nothing,
 * and neither does a vector_add. */
static void test_predict_cpu_terms__only_calls_on_several_units(void **state)
{
	static const struct added calls[] = {
		{ RV_OP_MATMUL, "256x64x256", 0 },
		{ RV_OP_LINEAR, "512x1024x1024", 1e-5 },
		{ RV_OP_VECTOR_ADD, "1048576", 0 },
	};

	(void)state;
	check_added(dispatch_s, 1e-5, calls, sizeof(calls) / sizeof(calls[0]));
}

/* Parses toy_cpu, naming executor unless it is NULL (blas_l3 by default),
 * with insert written just after the first `after` of its text;
 * rv_profile_parse()'s code. */
static int parse_with_executor(struct rv_profile **p, const char *executor, const char *after,
                               const char *insert)
{
	char *text = NULL, *at;
	size_t len = 0;
	struct rv_buf b = RV_BUF_INIT;
	int err;

	assert_int_equal(rv_file_read(&text, &len, toy_path()), 0);
	if (executor) {
		char *cls = strstr(text, "\"class\": \"cpu\",");
		struct rv_buf named = RV_BUF_INIT;

		assert_non_null(cls);
		cls += strlen("\"class\": \"cpu\",");
		rv_buf_printf(&named, "%.*s \"executor\": \"%s\",%s", (int)(cls - text), text,
		              executor, cls);
		free(text);
		text = strdup(rv_buf_str(&named));
		rv_buf_free(&named);
		assert_non_null(text);
	}
	at = strstr(text, after);
	assert_non_null(at);
	at += strlen(after);
	rv_buf_printf(&b, "%.*s%s%s", (int)(at - text), text, insert, at);
	*p = NULL;
	err = rv_profile_parse(p, rv_buf_str(&b), strlen(rv_buf_str(&b)), toy_path());
	rv_buf_free(&b);
	free(text);
	return err;
}

/* parse_with_executor() without an executor. */
static int parse_with(struct rv_profile **p, const char *after, const char *insert)
{
	return parse_with_executor(p, NULL, after, insert);
}

/* A term of the profile, the parameter name, written as pre, its value and
 * post after `after`: absent from toy_cpu, not a parameter; each of the
 * n_bad values refused naming it; good parsed and resolved by the fit as the
 * parameter of that value. The good profile (free it), its parameter in
 * *prm. */
static struct rv_profile *check_term(const char *name, const char *after, const char *pre,
                                     const char *post, const char *const *bad, size_t n_bad,
                                     const char *good, struct rv_param *prm)
{
	struct rv_profile *p = toy();
	char insert[256];

	assert_int_equal(rv_param_resolve(prm, p, name), RV_ENOENT);
	rv_profile_free(p);
	for (size_t i = 0; i <= n_bad; i++) {
		(void)snprintf(insert, sizeof(insert), "%s%s%s", pre, i < n_bad ? bad[i] : good,
		               post);
		if (i < n_bad) {
			assert_true(parse_with(&p, after, insert) < 0);
			assert_non_null(strstr(rv_error_last(), name));
			continue;
		}
		assert_int_equal(parse_with(&p, after, insert), 0);
		assert_int_equal(rv_param_resolve(prm, p, name), 0);
		rv_assert_close(*prm->slot, strtod(good, NULL), 0, 0);
	}
	return p;
}

/* A gemm.threading object with body (its keys, each followed by ", ")
 * inside toy_cpu: each case refused with its error text, or (error NULL)
 * parsed; the profile of the last case, which parses (free it). */
struct threading_case {
	const char *body, *error;
};

static struct rv_profile *check_threading(const struct threading_case *c, size_t n)
{
	struct rv_profile *p = NULL;
	char insert[256];

	for (size_t i = 0; i < n; i++) {
		(void)snprintf(insert, sizeof(insert),
		               "\"threading\": {%s\"provenance\": \"test [assumed]\"},", c[i].body);
		if (c[i].error) {
			assert_true(parse_with(&p, "\"gemm\": {", insert) < 0);
			assert_non_null(strstr(rv_error_last(), c[i].error));
			continue;
		}
		assert_true(i + 1 == n);
		assert_int_equal(parse_with(&p, "\"gemm\": {", insert), 0);
	}
	return p;
}

/* A call on more than one unit also adds our A's bytes over shared_pack_Bps
 * (the panels its threads share); one on a single unit does not. */
static void test_predict_cpu_terms__shared_pack(void **state)
{
	struct rv_profile *p = threaded_toy();
	struct rv_prediction one0, all0, one1, all1;

	(void)state;
	predict(&one0, p, RV_OP_MATMUL, "256x64x256");
	predict(&all0, p, RV_OP_LINEAR, "512x1024x1024");
	p->gemm.threading.shared_pack_Bps = 1e9;
	predict(&one1, p, RV_OP_MATMUL, "256x64x256");
	predict(&all1, p, RV_OP_LINEAR, "512x1024x1024");
	rv_assert_close(one1.latency_s, one0.latency_s, 0, 0);
	/* fp16: 2 B x 512 x 1024 over 1e9 B/s. */
	rv_assert_close(all1.latency_s, all0.latency_s + 2.0 * 512 * 1024 / 1e9, 1e-12, 0);
	rv_assert_close(all1.compute_s, all0.compute_s, 0, 0);
	/* Only from N = shared_pack_min_n on (N here 1024). */
	p->gemm.threading.shared_pack_min_n = 1025;
	predict(&all1, p, RV_OP_LINEAR, "512x1024x1024");
	rv_assert_close(all1.latency_s, all0.latency_s, 0, 0);
	p->gemm.threading.shared_pack_min_n = 1024;
	predict(&all1, p, RV_OP_LINEAR, "512x1024x1024");
	rv_assert_close(all1.latency_s, all0.latency_s + 2.0 * 512 * 1024 / 1e9, 1e-12, 0);
	rv_profile_free(p);
	/* Stated as a whole number from 1 inside gemm.threading. */
	{
		static const struct threading_case parse[] = {
			{ "\"shared_pack_min_n\": 0, ", "shared_pack_min_n" },
			{ "\"shared_pack_min_n\": -4, ", "shared_pack_min_n" },
			{ "\"shared_pack_min_n\": 4.5, ", "shared_pack_min_n" },
			{ "\"shared_pack_min_n\": \"4\", ", "shared_pack_min_n" },
			{ "\"shared_pack_min_n\": 4, ", NULL },
		};

		p = check_threading(parse, sizeof(parse) / sizeof(parse[0]));
		assert_int_equal(p->gemm.threading.shared_pack_min_n, 4);
		rv_profile_free(p);
	}
}

/* A call on more than one unit adds k_step_s for each step of k_step along K
 * after the first (ceil(K / k_step) - 1 of them); one on a single unit, or
 * with K within one step, adds nothing. k_step_s needs k_step. */
static void test_predict_cpu_terms__k_steps(void **state)
{
	static const struct {
		const char *shape;
		double steps; /* after the first, with k_step 256 */
	} cases[] = {
		{ "512x256x1024", 0 },  { "512x257x1024", 1 },  { "512x512x1024", 1 },
		{ "512x1024x1024", 3 }, { "512x1025x1024", 4 },
	};
	struct rv_profile *p = threaded_toy();
	struct rv_prediction base, with, one0, one1;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p->gemm.threading.k_step = 0;
		p->gemm.threading.k_step_s = 2e-6;
		predict(&base, p, RV_OP_LINEAR, cases[i].shape);
		p->gemm.threading.k_step = 256;
		predict(&with, p, RV_OP_LINEAR, cases[i].shape);
		rv_assert_close(with.latency_s, base.latency_s + cases[i].steps * 2e-6, 1e-12, 0);
		rv_assert_close(with.compute_s, base.compute_s, 0, 0);
	}
	p->gemm.threading.k_step = 0;
	predict(&one0, p, RV_OP_MATMUL, "4x4096x256"); /* on one unit */
	p->gemm.threading.k_step = 256;
	predict(&one1, p, RV_OP_MATMUL, "4x4096x256");
	rv_assert_close(one1.latency_s, one0.latency_s, 0, 0);
	rv_profile_free(p);
	/* k_step a whole number from 1; k_step_s only beside it. */
	{
		static const struct threading_case parse[] = {
			{ "\"k_step\": 0, \"k_step_s\": 2e-6, ", "k_step" },
			{ "\"k_step\": 1.5, \"k_step_s\": 2e-6, ", "k_step" },
			{ "\"k_step\": \"320\", \"k_step_s\": 2e-6, ", "k_step" },
			{ "\"k_step_s\": 2e-6, ", "k_step_s needs k_step" },
			{ "\"k_step\": 320, \"k_step_s\": 2e-6, ", NULL },
		};

		p = check_threading(parse, sizeof(parse) / sizeof(parse[0]));
		assert_int_equal(p->gemm.threading.k_step, 320);
		rv_assert_close(p->gemm.threading.k_step_s, 2e-6, 0, 0);
		rv_profile_free(p);
	}
}

/* A call that packs spends kernel_call_s of core time on each kernel call
 * of kernel_call_rows rows of its units' share of M, once per step of K
 * (k_step; one step where it is 0): 256x64x256 on one unit is 22 calls of
 * 12 rows, 512x1024x1024 on 4 units 11 (128 rows each); kernel_call_s needs
 * kernel_call_rows. */
static void test_predict_cpu_terms__kernel_calls(void **state)
{
	static const struct {
		const char *shape;
		unsigned k_step;
		double calls;
	} cases[] = {
		{ "256x64x256", 0, 22 },    { "256x64x256", 32, 44 },     { "256x64x256", 64, 22 },
		{ "512x1024x1024", 0, 11 }, { "512x1024x1024", 256, 44 },
	};
	struct rv_profile *p = threaded_toy();
	struct rv_prediction base, with;

	(void)state;
	p->gemm.threading.kernel_call_s = 1e-8;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p->gemm.threading.k_step = cases[i].k_step;
		p->gemm.threading.kernel_call_rows = 0;
		predict(&base, p, RV_OP_MATMUL, cases[i].shape);
		p->gemm.threading.kernel_call_rows = 12;
		predict(&with, p, RV_OP_MATMUL, cases[i].shape);
		rv_assert_close(with.pack_s - base.pack_s, cases[i].calls * 1e-8, 1e-12, 0);
		rv_assert_close(with.compute_s - base.compute_s, cases[i].calls * 1e-8, 1e-12, 0);
	}
	rv_profile_free(p);
	{
		static const struct threading_case parse[] = {
			{ "\"kernel_call_rows\": 0, \"kernel_call_s\": 1e-8, ",
			  "kernel_call_rows" },
			{ "\"kernel_call_rows\": 1.5, \"kernel_call_s\": 1e-8, ",
			  "kernel_call_rows" },
			{ "\"kernel_call_rows\": 12, \"kernel_call_s\": -1e-8, ", "kernel_call_s" },
			{ "\"kernel_call_s\": 1e-8, ", "kernel_call_s needs kernel_call_rows" },
			{ "\"kernel_call_rows\": 12, \"kernel_call_s\": 1e-8, ", NULL },
		};

		p = check_threading(parse, sizeof(parse) / sizeof(parse[0]));
		assert_int_equal(p->gemm.threading.kernel_call_rows, 12);
		rv_assert_close(p->gemm.threading.kernel_call_s, 1e-8, 0, 0);
		rv_profile_free(p);
	}
}

/* With m_pieces, a call on several units cuts M into a range per unit and
 * each range into that many pieces, each with edges of its own (one 8x8
 * tile, halving edges, 4 units): 24x32768x4096 splits N (1024 columns, 128
 * tiles, per unit) and runs every range of 6 rows in pieces of 3 (2 + 1, two
 * tiles each): 16 tiles along M against 3 for 24 rows whole; 48x32768x3
 * splits M, each unit its own range of 12 rows in pieces of 6 (4 + 2): 4
 * tiles against 2 for 12 rows whole, times 2 along N (2 + 1); 64 rows in
 * pieces of 8, whole tiles, cost what they cost whole; 28 rows in ranges of
 * 7, pieces of 4 and 3 (the last what is left): 12 tiles against 4. m_pieces needs
 * split_n_from. */
static void test_predict_cpu_terms__m_pieces(void **state)
{
	static const struct {
		const char *shape;
		double waves, pieces_waves;
	} cases[] = {
		{ "24x32768x4096", 128 * 3, 128 * 16 },
		{ "48x32768x3", 2 * 2, 2 * 4 },
		{ "64x32768x4096", 128 * 8, 128 * 8 },
		{ "28x32768x4096", 128 * 4, 128 * 12 },
	};
	struct rv_profile *p = threaded_toy();
	struct rv_prediction whole, pieces;

	(void)state;
	p->gemm.n_tiles = 1;
	p->gemm.tile_m[0] = 8;
	p->gemm.tile_n[0] = 8;
	p->gemm.edges = RV_EDGES_HALVING;
	p->gemm.threading.split_n_from = 4;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p->gemm.threading.m_pieces = 0;
		predict(&whole, p, RV_OP_MATMUL, cases[i].shape);
		p->gemm.threading.m_pieces = 2;
		predict(&pieces, p, RV_OP_MATMUL, cases[i].shape);
		assert_int_equal(whole.waves, (uint64_t)cases[i].waves);
		assert_int_equal(pieces.waves, (uint64_t)cases[i].pieces_waves);
		rv_assert_close(pieces.compute_s / whole.compute_s,
		                cases[i].pieces_waves / cases[i].waves, 1e-12, 0);
	}
	rv_profile_free(p);
	{
		static const struct threading_case parse[] = {
			{ "\"split_n_from\": 4, \"m_pieces\": 0, ", "m_pieces" },
			{ "\"split_n_from\": 4, \"m_pieces\": 1.5, ", "m_pieces" },
			{ "\"m_pieces\": 2, ", "m_pieces needs split_n_from" },
			{ "\"split_n_from\": 4, \"m_pieces\": 2, ", NULL },
		};

		p = check_threading(parse, sizeof(parse) / sizeof(parse[0]));
		assert_int_equal(p->gemm.threading.m_pieces, 2);
		rv_profile_free(p);
	}
}

/* A linear on more than one unit (all 4 here) adds 2 (units - 1) / units of
 * C's bytes over bias_handoff_Bps; a matmul, or a linear on one unit, adds
 * nothing. */
static double *bias_handoff_Bps(struct rv_profile *p)
{
	return &p->gemm.threading.bias_handoff_Bps;
}

static void test_predict_cpu_terms__bias_handoff(void **state)
{
	static const struct added calls[] = {
		/* fp16: 2 x 3 / 4 of 2 B x 512 x 1024 over 2e10 B/s. */
		{ RV_OP_LINEAR, "512x1024x1024", 1.5 * 2.0 * 512 * 1024 / 2e10 },
		{ RV_OP_MATMUL, "512x1024x1024", 0 },
		{ RV_OP_LINEAR, "256x64x256", 0 },
	};

	(void)state;
	check_added(bias_handoff_Bps, 2e10, calls, sizeof(calls) / sizeof(calls[0]));
}

/* Where the units split N (split_n_from), each pass over C adds split_line_s
 * per line of split_line_B bytes of one unit's share of a row, for every
 * row of M: threaded_toy() runs 512x1024x1024 on 4 units, a share of 256
 * fp16 elements, 512 B, 8 lines of 64 B; one pass (one step of K, a
 * matmul's zeroing in its kernel), two with a separate zeroing pass, four
 * steps of K = 256; at most split_lines_max lines a row; nothing below
 * split_n_from or on one unit; a share of one element is a line. */
static void test_predict_cpu_terms__split_lines(void **state)
{
	static const struct {
		enum rv_op op;
		const char *shape;
		unsigned split_n_from, lines_max, k_step;
		enum rv_gemm_beta_zero beta_zero;
		double lines;
	} cases[] = {
		{ RV_OP_LINEAR, "512x1024x1024", 4, 0, 0, RV_BETA_ZERO_IN_KERNEL, 512 * 8 },
		{ RV_OP_MATMUL, "512x1024x1024", 4, 0, 0, RV_BETA_ZERO_IN_KERNEL, 512 * 8 },
		{ RV_OP_MATMUL, "512x1024x1024", 4, 0, 0, RV_BETA_ZERO_PASS, 512 * 8 * 2 },
		{ RV_OP_LINEAR, "512x1024x1024", 4, 0, 0, RV_BETA_ZERO_PASS, 512 * 8 },
		{ RV_OP_LINEAR, "512x1024x1024", 4, 5, 0, RV_BETA_ZERO_IN_KERNEL, 512 * 5 },
		{ RV_OP_LINEAR, "512x1024x1024", 4, 0, 256, RV_BETA_ZERO_IN_KERNEL, 512 * 8 * 4 },
		{ RV_OP_MATMUL, "512x1024x1024", 4, 0, 256, RV_BETA_ZERO_PASS, 512 * 8 * 5 },
		{ RV_OP_LINEAR, "512x1024x1024", 2048, 0, 0, RV_BETA_ZERO_IN_KERNEL, 0 },
		{ RV_OP_LINEAR, "256x64x256", 4, 0, 0, RV_BETA_ZERO_IN_KERNEL, 0 },
		{ RV_OP_LINEAR, "65536x64x3", 2, 0, 0, RV_BETA_ZERO_IN_KERNEL, 65536 },
	};
	struct rv_profile *p = threaded_toy();
	struct rv_prediction without, with;
	struct rv_param prm;

	(void)state;
	p->gemm.threading.split_line_B = 64;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p->gemm.threading.split_n_from = cases[i].split_n_from;
		p->gemm.threading.split_lines_max = cases[i].lines_max;
		p->gemm.threading.k_step = cases[i].k_step;
		p->gemm.beta_zero = cases[i].beta_zero;
		p->gemm.threading.split_line_s = 0;
		predict(&without, p, cases[i].op, cases[i].shape);
		p->gemm.threading.split_line_s = 1e-9;
		predict(&with, p, cases[i].op, cases[i].shape);
		rv_assert_close(with.latency_s - without.latency_s, cases[i].lines * 1e-9, 1e-12,
		                0);
		rv_assert_close(with.handover_s - without.handover_s, cases[i].lines * 1e-9, 1e-12,
		                0);
		rv_assert_close(with.compute_s, without.compute_s, 0, 0);
	}
	rv_profile_free(p);
	{
		static const struct threading_case parse[] = {
			{ "\"split_n_from\": 4, \"split_line_s\": 1e-8, ", "go together" },
			{ "\"split_line_B\": 64, \"split_line_s\": 1e-8, ", "go together" },
			{ "\"split_n_from\": 4, \"split_line_B\": 64, ", "go together" },
			{ "\"split_n_from\": 4, \"split_lines_max\": 8, \"split_line_s\": 1e-8, ",
			  "split_lines_max" },
			{ "\"split_n_from\": 4, \"split_line_B\": 0, \"split_line_s\": 1e-8, ",
			  "split_line_B" },
			{ "\"split_n_from\": 4, \"split_line_B\": 64, \"split_line_s\": -1e-8, ",
			  "split_line_s" },
			{ "\"split_n_from\": 4, \"split_line_B\": 64, \"split_line_s\": 1e-8, "
			  "\"split_lines_max\": 0, ",
			  "split_lines_max" },
			{ "\"split_n_from\": 4, \"split_line_B\": 64, \"split_line_s\": 1e-8, "
			  "\"split_lines_max\": 10, ",
			  NULL },
		};

		p = check_threading(parse, sizeof(parse) / sizeof(parse[0]));
		assert_int_equal(p->gemm.threading.split_line_B, 64);
		assert_int_equal(p->gemm.threading.split_lines_max, 10);
		rv_assert_close(p->gemm.threading.split_line_s, 1e-8, 0, 0);
		/* Fitted as a time per line. */
		assert_int_equal(rv_param_resolve(&prm, p, "gemm.threading.split_line_s"), 0);
		assert_ptr_equal(prm.slot, &p->gemm.threading.split_line_s);
		rv_profile_free(p);
	}
}

/* An add of N elements takes at least its working set over unit_loop_Bps
 * times the units it runs on, as core (compute) time; absent, nothing
 * changes. toy_cpu: 4 units, 1e12 FLOP/s, no elementwise object (all 4
 * units). */
static void test_predict_cpu_terms__elementwise_loop_rate(void **state)
{
	struct rv_profile *p = toy();
	struct rv_prediction base, all, one;

	(void)state;
	predict(&base, p, RV_OP_VECTOR_ADD, "1048576");
	p->elementwise.provenance = strdup("test [assumed]");
	p->elementwise.unit_loop_Bps = 1e9;
	predict(&all, p, RV_OP_VECTOR_ADD, "1048576");
	/* 3 x 2 B x 2^20 = 6 MiB over 4 x 1e9 B/s. */
	rv_assert_close(all.compute_s, 6291456.0 / 4e9, 1e-12, 0);
	assert_int_equal(all.binding, RV_BOUND_COMPUTE);
	rv_assert_close(all.latency_s, all.overhead_s + all.compute_s, 1e-12, 0);
	p->elementwise.max_units = 1;
	predict(&one, p, RV_OP_VECTOR_ADD, "1048576");
	rv_assert_close(one.compute_s, 6291456.0 / 1e9, 1e-12, 0);
	/* A rate no loop reaches leaves the add where it was. */
	p->elementwise.max_units = 4;
	p->elementwise.unit_loop_Bps = 1e30;
	predict(&all, p, RV_OP_VECTOR_ADD, "1048576");
	rv_assert_close(all.latency_s, base.latency_s, 1e-12, 0);
	rv_profile_free(p);
}

/* With blocks of block_B bytes, the loop's rate covers the elements of its
 * whole blocks and each element past them takes tail_element_s: fp16 in 64 B
 * blocks is 32 elements a block, so 70 = 2 x 32 + 6. One unit, as the cblas
 * backend's loop runs. */
static void test_predict_cpu_terms__elementwise_tail(void **state)
{
	struct rv_profile *p = toy();
	struct rv_prediction r;

	(void)state;
	p->elementwise.provenance = strdup("test [assumed]");
	p->elementwise.max_units = 1;
	p->elementwise.unit_loop_Bps = 1e9;
	p->elementwise.block_B = 64;
	p->elementwise.tail_element_s = 1e-7;
	predict(&r, p, RV_OP_VECTOR_ADD, "70");
	/* 64 elements x 3 x 2 B over 1e9 B/s, and 6 x 1e-7 s. */
	rv_assert_close(r.compute_s, 384.0 / 1e9 + 6e-7, 1e-12, 0);
	predict(&r, p, RV_OP_VECTOR_ADD, "64");
	rv_assert_close(r.compute_s, 384.0 / 1e9, 1e-12, 0);
	predict(&r, p, RV_OP_VECTOR_ADD, "5");
	rv_assert_close(r.compute_s, 5e-7, 1e-12, 0);
	/* Without blocks every element goes at the rate. */
	p->elementwise.block_B = 0;
	predict(&r, p, RV_OP_VECTOR_ADD, "70");
	rv_assert_close(r.compute_s, 420.0 / 1e9, 1e-12, 0);
	rv_profile_free(p);
}

/* A linear of M rows spends M x bias_row_s of core time (compute) copying
 * its bias, on the calling thread whatever the units; a matmul has no bias,
 * and without the term nothing changes. */
static void test_predict_cpu_terms__bias_rows(void **state)
{
	struct rv_profile *p = toy();
	struct rv_prediction lin0, lin1, mm0, mm1;

	(void)state;
	predict(&lin0, p, RV_OP_LINEAR, "512x1024x1024");
	predict(&mm0, p, RV_OP_MATMUL, "512x1024x1024");
	rv_assert_close(lin0.bias_s, 0, 0, 0);
	p->gemm.bias_row_s = 1e-8;
	predict(&lin1, p, RV_OP_LINEAR, "512x1024x1024");
	predict(&mm1, p, RV_OP_MATMUL, "512x1024x1024");
	rv_assert_close(lin1.bias_s, 512 * 1e-8, 1e-12, 0);
	rv_assert_close(lin1.compute_s, lin0.compute_s + 512 * 1e-8, 1e-12, 0);
	assert_true(lin1.latency_s > lin0.latency_s);
	assert_true(lin1.latency_s <= lin0.latency_s + 512 * 1e-8 * (1 + 1e-12));
	rv_assert_close(mm1.latency_s, mm0.latency_s, 0, 0);
	rv_assert_close(mm1.bias_s, 0, 0, 0);
	/* gemm.bias_Bps: the copy also writes C's e x M x N bytes at that rate
	 * (fp16 here: 2 x 512 x 1024 B at 1e9 B/s); a matmul still none. */
	p->gemm.bias_Bps = 1e9;
	predict(&lin0, p, RV_OP_LINEAR, "512x1024x1024");
	predict(&mm0, p, RV_OP_MATMUL, "512x1024x1024");
	rv_assert_close(lin0.bias_s, 512 * 1e-8 + 2.0 * 512 * 1024 / 1e9, 1e-12, 0);
	rv_assert_close(lin0.compute_s - lin0.bias_s, lin1.compute_s - lin1.bias_s, 1e-12, 0);
	rv_assert_close(mm0.latency_s, mm1.latency_s, 0, 0);
	/* A C that fits in one unit's share of L1 (8 x 16 fp16: 256 B) is
	 * written at that unit's share of L1's bandwidth instead. */
	predict(&lin0, p, RV_OP_LINEAR, "8x1024x16");
	rv_assert_close(lin0.bias_s,
	                8 * 1e-8 +
	                        2.0 * 8 * 16 / (p->memory[0].effective_bw_Bps / p->compute_units),
	                1e-12, 0);
	rv_profile_free(p);
}

/* A BLAS that zeroes C for beta = 0 in a pass of its own (gemm.beta_zero
 * "separate_pass") moves C once more through L1 and twice beyond it (a
 * write-allocating CPU), as far as the tier serves the call: a matmul only
 * (a linear's beta is 1). toy_cpu: L1 1 MiB, L2 4 MiB; 2048x1024x2048 fp16
 * holds 16 MiB, so DRAM serves 1 - 4/16 of it. */
static void test_predict_cpu_terms__beta_zero_pass(void **state)
{
	struct rv_profile *p = toy();
	struct rv_prediction mm0, mm1, lin0, lin1;
	const double c_B = 2.0 * 2048 * 2048;
	char insert[96];

	(void)state;
	predict(&mm0, p, RV_OP_MATMUL, "2048x1024x2048");
	predict(&lin0, p, RV_OP_LINEAR, "2048x1024x2048");
	p->gemm.beta_zero = RV_BETA_ZERO_PASS;
	predict(&mm1, p, RV_OP_MATMUL, "2048x1024x2048");
	predict(&lin1, p, RV_OP_LINEAR, "2048x1024x2048");
	assert_int_equal(mm1.tile_m, mm0.tile_m);
	rv_assert_close(mm1.tier_B[RV_TIER_L1] - mm0.tier_B[RV_TIER_L1], c_B, 1e-12, 0);
	rv_assert_close(mm1.tier_B[RV_TIER_L2] - mm0.tier_B[RV_TIER_L2], 2 * c_B, 1e-12, 0);
	rv_assert_close(mm1.tier_B[RV_TIER_DRAM] - mm0.tier_B[RV_TIER_DRAM], 2 * c_B * 0.75, 1e-12,
	                0);
	assert_true(mm1.latency_s >= mm0.latency_s);
	rv_assert_close(lin1.latency_s, lin0.latency_s, 0, 0);
	rv_assert_close(lin1.tier_B[RV_TIER_DRAM], lin0.tier_B[RV_TIER_DRAM], 0, 0);
	rv_profile_free(p);
	/* Stated by name; anything else is refused, naming the key. */
	assert_true(parse_with(&p, "\"gemm\": {", "\"beta_zero\": \"twice\",") < 0);
	assert_non_null(strstr(rv_error_last(), "beta_zero"));
	(void)snprintf(insert, sizeof(insert), "\"beta_zero\": \"separate_pass\",");
	assert_int_equal(parse_with(&p, "\"gemm\": {", insert), 0);
	assert_int_equal(p->gemm.beta_zero, RV_BETA_ZERO_PASS);
	rv_profile_free(p);
	/* "separate_pass_llc_once" (a pass counted once at the last cache, one
	 * VM's reading that another contradicts) is no value any more. */
	(void)snprintf(insert, sizeof(insert), "\"beta_zero\": \"separate_pass_llc_once\",");
	assert_true(parse_with(&p, "\"gemm\": {", insert) < 0);
	assert_non_null(strstr(rv_error_last(), "beta_zero"));
}

/* Each numeric term is stated inside its object (dispatch_s >= 0, the others
 * > 0), and a fit refits it only where the profile states it (dispatch_s:
 * where gemm.threading exists), at that field; unit_loop_Bps is bounded by
 * one unit's share of L1's datasheet bandwidth. */
static void test_predict_cpu_terms__terms_profile_and_fit(void **state)
{
	static const char *const threading = "\"threading\": {\"single_unit_max_mnk\": 100, ",
	                         *end = ", \"provenance\": \"test [assumed]\"},";
	static const struct {
		const char *name, *after, *pre, *post, *bad[3];
		size_t n_bad;
		const char *good;
		size_t field; /* offsetof in struct rv_profile */
	} terms[] = {
		{ "gemm.threading.dispatch_s",
		  "\"gemm\": {",
		  "\"dispatch_s\": ",
		  NULL,
		  { "-1e-5", "\"fast\"" },
		  2,
		  "2.5e-5",
		  offsetof(struct rv_profile, gemm.threading.dispatch_s) },
		{ "gemm.threading.shared_pack_Bps",
		  "\"gemm\": {",
		  "\"shared_pack_Bps\": ",
		  NULL,
		  { "0", "-1e9", "\"fast\"" },
		  3,
		  "1.07e10",
		  offsetof(struct rv_profile, gemm.threading.shared_pack_Bps) },
		{ "gemm.threading.k_step_s",
		  "\"gemm\": {",
		  "\"k_step\": 320, \"k_step_s\": ",
		  NULL,
		  { "-2e-6", "\"fast\"" },
		  2,
		  "1.7e-6",
		  offsetof(struct rv_profile, gemm.threading.k_step_s) },
		{ "gemm.threading.kernel_call_s",
		  "\"gemm\": {",
		  "\"kernel_call_rows\": 12, \"kernel_call_s\": ",
		  NULL,
		  { "-1e-8", "\"fast\"" },
		  2,
		  "1.4e-8",
		  offsetof(struct rv_profile, gemm.threading.kernel_call_s) },
		{ "gemm.threading.bias_handoff_Bps",
		  "\"gemm\": {",
		  "\"bias_handoff_Bps\": ",
		  NULL,
		  { "0", "-2e10", "\"fast\"" },
		  3,
		  "2.2e10",
		  offsetof(struct rv_profile, gemm.threading.bias_handoff_Bps) },
		{ "elementwise.unit_loop_Bps",
		  "{",
		  "\"elementwise\": {\"max_units\": 1, \"unit_loop_Bps\": ",
		  ", \"provenance\": \"test [assumed]\"},",
		  { "0", "-1", "\"fast\"" },
		  3,
		  "5e10",
		  offsetof(struct rv_profile, elementwise.unit_loop_Bps) },
		{ "gemm.bias_row_s",
		  "\"gemm\": {",
		  "\"bias_row_s\": ",
		  ",",
		  { "0", "-2e-9", "\"fast\"" },
		  3,
		  "2.3e-9",
		  offsetof(struct rv_profile, gemm.bias_row_s) },
		{ "gemm.bias_Bps",
		  "\"gemm\": {",
		  "\"bias_Bps\": ",
		  ",",
		  { "0", "-1e9", "\"fast\"" },
		  3,
		  "3.5e10",
		  offsetof(struct rv_profile, gemm.bias_Bps) },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		char pre[128];
		struct rv_param prm;
		struct rv_profile *p;

		/* The two threading terms go inside a gemm.threading object. */
		(void)snprintf(pre, sizeof(pre), "%s%s", terms[i].post ? "" : threading,
		               terms[i].pre);
		p = check_term(terms[i].name, terms[i].after, pre,
		               terms[i].post ? terms[i].post : end, terms[i].bad, terms[i].n_bad,
		               terms[i].good, &prm);
		assert_ptr_equal(prm.slot, (double *)((char *)p + terms[i].field));
		if (strcmp(terms[i].name, "elementwise.unit_loop_Bps") == 0)
			rv_assert_close(prm.upper, p->memory[0].bw_Bps / p->compute_units, 0, 0);
		rv_profile_free(p);
	}
}

/* With one 8x8 tile on one unit, a dimension of d runs floor(d / 8) whole
 * tiles and then one more (pad) or one per set bit of d mod 8 (halving):
 * 7 = 4 + 2 + 1 is three tiles' time, 8 one, 20 = 16 + 4 three either way,
 * 23 = 16 + 4 + 2 + 1 five against three. Along M as along N. With an edge
 * quantum of 4, the rest of d rounded up to 4 is its share of a
 * tile: 20 is 2.5 tiles, 3 x 3 a quarter of one. */
static void test_predict_cpu_terms__edge_kernels(void **state)
{
	static const struct {
		const char *shape;
		double pad, halving, quantum; /* tiles; quantum: of [4, 4] */
	} cases[] = {
		{ "8x64x7", 1, 3, 1 },    { "8x64x8", 1, 1, 1 },    { "8x64x20", 3, 3, 2.5 },
		{ "8x64x23", 3, 5, 3 },   { "23x64x8", 3, 5, 3 },   { "7x64x7", 1, 9, 1 },
		{ "8x64x17", 3, 3, 2.5 }, { "3x64x3", 1, 4, 0.25 },
	};
	struct rv_profile *p = toy();
	struct rv_prediction pad, halving, quantum;

	(void)state;
	assert_int_equal(p->gemm.edges, RV_EDGES_PAD);
	p->gemm.n_tiles = 1;
	p->gemm.tile_m[0] = 8;
	p->gemm.tile_n[0] = 8;
	p->gemm.threading.provenance = strdup("test [assumed]");
	p->gemm.threading.single_unit_max_mnk = 1u << 30;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p->gemm.edges = RV_EDGES_PAD;
		predict(&pad, p, RV_OP_MATMUL, cases[i].shape);
		p->gemm.edges = RV_EDGES_HALVING;
		predict(&halving, p, RV_OP_MATMUL, cases[i].shape);
		assert_int_equal(pad.tiles, (uint64_t)cases[i].pad);
		assert_int_equal(halving.tiles, (uint64_t)cases[i].halving);
		rv_assert_close(halving.compute_s / pad.compute_s, cases[i].halving / cases[i].pad,
		                1e-12, 0);
		rv_assert_close(halving.eff_tile * cases[i].halving, pad.eff_tile * cases[i].pad,
		                1e-12, 0);
		/* gemm.edge_quantum [4, 4]: a partial tile costs its share, its
		 * rows and columns rounded up to 4 (edge_kernels then unused). */
		p->gemm.quantum_m = p->gemm.quantum_n = 4;
		predict(&quantum, p, RV_OP_MATMUL, cases[i].shape);
		p->gemm.quantum_m = p->gemm.quantum_n = 0;
		rv_assert_close(quantum.compute_s / pad.compute_s, cases[i].quantum / cases[i].pad,
		                1e-12, 0);
		assert_int_equal(quantum.tiles, (uint64_t)ceil(cases[i].quantum));
	}
	rv_profile_free(p);
}

/* The packed kernel's blocks (gemm.packed_kernel) on toy_cpu with one 8x8
 * tile and halving edges, on one unit (1e12 / 4 FLOP/s: one FMA of a
 * block's 8 rows, 16 FLOP, takes 64 ps): M in blocks 12, 8, 4, 2 and 1
 * wide, a step of each at its FLOPs, those of at most 2 columns at least
 * the latency (or its share K / window_steps below that K), store_s per
 * column of a block, edge pieces of N of at most narrow_rows rows at
 * narrow_share of a block's FMAs (not of its latency). */
static void test_predict_cpu_terms__packed_kernel(void **state)
{
	const double fma_s = 16.0 / 2.5e11, lat_s = 1e-9;
	const struct {
		const char *shape;
		unsigned window;
		double store_s, share, kernel_s;
	} cases[] = {
		{ "4x64x8", 0, 0, 0, 64 * 4 * fma_s },
		{ "8x64x8", 0, 0, 0, 64 * 8 * fma_s },
		{ "12x64x8", 0, 0, 0, 64 * 12 * fma_s },
		/* 12 + 8 + 2 + 1, the last two at the latency */
		{ "23x64x8", 0, 0, 0, 64 * 20 * fma_s + 2 * 64 * lat_s },
		{ "23x64x8", 0, 1e-10, 0, 64 * 20 * fma_s + 2 * 64 * lat_s + 23 * 1e-10 },
		{ "1x64x8", 128, 0, 0, 64 * lat_s * 64 / 128 },
		{ "1x256x8", 128, 0, 0, 256 * lat_s },
		/* N 20: two blocks of 8 rows and a piece of 4 */
		{ "8x64x20", 0, 0, 0, 3 * 64 * 8 * fma_s },
		/* N 11: a block, a piece of 2 and one of 1, each at the share */
		{ "8x64x11", 0, 0, 0, 3 * 64 * 8 * fma_s },
		{ "8x64x11", 0, 0, 0.5, 2 * 64 * 8 * fma_s },
		{ "8x64x15", 0, 0, 0.5, 3 * 64 * 8 * fma_s },
		/* a narrow piece's share is of its FMAs, not of the latency */
		{ "8x64x1", 0, 0, 0.5, 64 * 8 * fma_s * 0.5 },
		{ "2x256x1", 0, 0, 0.5, 256 * lat_s },
		/* 4 + 2 columns over pieces of 2 and 1 rows */
		{ "6x256x3", 0, 0, 0.5, 2 * 256 * (4 * fma_s * 0.5 + lat_s) },
	};
	static const unsigned widths[] = { 12, 8, 4, 2, 1 };
	struct rv_profile *p = toy();
	struct rv_prediction r;
	struct rv_param prm;

	(void)state;
	p->gemm.n_tiles = 1;
	p->gemm.tile_m[0] = 8;
	p->gemm.tile_n[0] = 8;
	p->gemm.half_k = 0;
	p->gemm.edges = RV_EDGES_HALVING;
	p->gemm.threading.provenance = strdup("test [assumed]");
	p->gemm.threading.single_unit_max_mnk = 1u << 30;
	predict(&r, p, RV_OP_MATMUL, "8x64x8");
	rv_assert_close(r.compute_s, 64 * 8 * fma_s, 1e-12, 0);
	memcpy(p->gemm.packed.widths, widths, sizeof(widths));
	p->gemm.packed.n_widths = 5;
	p->gemm.packed.latency_s = lat_s;
	p->gemm.packed.latency_max_width = 2;
	p->gemm.packed.edge_latency_max_width = 2;
	p->gemm.packed.narrow_rows = 2;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p->gemm.packed.window_steps = cases[i].window;
		p->gemm.packed.store_s = cases[i].store_s;
		p->gemm.packed.narrow_share = cases[i].share > 0 ? cases[i].share : 1.0;
		predict(&r, p, RV_OP_MATMUL, cases[i].shape);
		rv_assert_close(r.compute_s, cases[i].kernel_s, 1e-12, 0);
	}
	/* In an edge piece of N, blocks up to edge_latency_max_width wait on
	 * the latency; in a whole block only those up to latency_max_width. */
	p->gemm.packed.window_steps = 0;
	p->gemm.packed.store_s = 0;
	p->gemm.packed.edge_latency_max_width = 4;
	predict(&r, p, RV_OP_MATMUL, "4x256x4");
	rv_assert_close(r.compute_s, 256 * lat_s, 1e-12, 0);
	predict(&r, p, RV_OP_MATMUL, "4x256x8");
	rv_assert_close(r.compute_s, 256 * 4 * fma_s, 1e-12, 0);
	predict(&r, p, RV_OP_MATMUL, "4x256x12");
	rv_assert_close(r.compute_s, 256 * (4 * fma_s + lat_s), 1e-12, 0);
	/* A linear's weight packed at its own rate, its input at pack_Bps
	 * (fp16: 2 B an element). */
	p->gemm.pack_Bps = 1e9;
	p->gemm.pack_transposed_Bps = 0.5e9;
	predict(&r, p, RV_OP_LINEAR, "8x64x16");
	rv_assert_close(r.pack_s, 2.0 * 8 * 64 / 1e9 + 2.0 * 64 * 16 / 0.5e9, 1e-12, 0);
	predict(&r, p, RV_OP_MATMUL, "8x64x16");
	rv_assert_close(r.pack_s, 2.0 * (8 * 64 + 64 * 16) / 1e9, 1e-12, 0);
	/* No faster than the operands arrive: 8 x 64 x 65536 (9.4 MB) misses
	 * L1 and, beyond toy_cpu's 4 MB L2, 1 - 4 MB / ws of it comes from
	 * DRAM, the rest from L2 (shared: its whole bandwidth). */
	p->gemm.pack_Bps = p->gemm.pack_transposed_Bps = 1e15;
	predict(&r, p, RV_OP_MATMUL, "8x64x65536");
	{
		double ws = 2.0 * (8 * 64 + 64 * 65536.0 + 8 * 65536.0), dram = 1 - 4194304 / ws,
		       bytes = 2.0 * (8 * 64 + 64 * 65536.0);

		rv_assert_close(r.footprint.working_set_B, ws, 0, 0);
		rv_assert_close(r.pack_s, bytes * ((1 - dram) / 1e12 + dram / 1e11), 1e-9, 0);
	}
	rv_profile_free(p);
	{
		static const struct {
			const char *insert, *error;
		} parse[] = {
			{ "\"widths\": [12, 8, 4, 2, 1], \"latency_s\": 1e-9, "
			  "\"latency_max_width\": 2,",
			  "halving" },
			{ "\"edge_kernels\": \"halving\", \"widths\": [12, 8, 4, 2], "
			  "\"latency_s\": 1e-9, \"latency_max_width\": 2,",
			  "end the list with 1" },
			{ "\"edge_kernels\": \"halving\", \"widths\": [8, 12, 1], "
			  "\"latency_s\": 1e-9, \"latency_max_width\": 2,",
			  "widest first" },
			{ "\"edge_kernels\": \"halving\", \"widths\": [12, 1], \"latency_s\": "
			  "1e-9,",
			  "latency_max_width" },
			{ "\"edge_kernels\": \"halving\", \"widths\": [12, 1], \"latency_s\": "
			  "2e-6, "
			  "\"latency_max_width\": 2,",
			  "out of range" },
			{ "\"edge_kernels\": \"halving\", \"widths\": [12, 1], \"latency_s\": "
			  "1e-9, "
			  "\"latency_max_width\": 2, \"narrow_rows\": 2,",
			  "go together" },
			{ "\"edge_kernels\": \"halving\", \"widths\": [12, 1], \"latency_s\": "
			  "1e-9, "
			  "\"latency_max_width\": 2, \"narrow_rows\": 2, \"narrow_share\": 1.5,",
			  "out of range" },
			{ "\"edge_kernels\": \"halving\", \"widths\": [12, 1], \"latency_s\": "
			  "1e-9, "
			  "\"latency_max_width\": 2, \"window_steps\": 0,",
			  "window_steps" },
			{ "\"edge_kernels\": \"halving\", \"widths\": [12, 4, 1], \"latency_s\": "
			  "1e-9, "
			  "\"latency_max_width\": 2, \"edge_latency_max_width\": 0,",
			  "edge_latency_max_width" },
			{ "\"edge_kernels\": \"halving\", \"widths\": [12, 4, 1], \"latency_s\": "
			  "1e-9, "
			  "\"latency_max_width\": 2, \"edge_latency_max_width\": 4, "
			  "\"window_steps\": 75, \"store_s\": 3e-10, "
			  "\"narrow_rows\": 2, \"narrow_share\": 0.65,",
			  NULL },
		};

		for (size_t i = 0; i < sizeof(parse) / sizeof(parse[0]); i++) {
			char insert[512];
			const char *kernel = strstr(parse[i].insert, "\"widths\"");

			(void)snprintf(insert, sizeof(insert),
			               "%.*s\"packed_kernel\": {%s \"provenance\": \"test "
			               "[assumed]\"},",
			               (int)(kernel - parse[i].insert), parse[i].insert, kernel);
			if (parse[i].error) {
				assert_true(parse_with(&p, "\"gemm\": {", insert) < 0);
				assert_non_null(strstr(rv_error_last(), parse[i].error));
				continue;
			}
			assert_int_equal(parse_with(&p, "\"gemm\": {", insert), 0);
		}
		assert_int_equal(p->gemm.packed.n_widths, 3);
		assert_int_equal(p->gemm.packed.widths[1], 4);
		assert_int_equal(p->gemm.packed.window_steps, 75);
		assert_int_equal(p->gemm.packed.edge_latency_max_width, 4);
		assert_int_equal(p->gemm.packed.narrow_rows, 2);
		rv_assert_close(p->gemm.packed.narrow_share, 0.65, 0, 0);
		/* Fitted: the latency and the store per column. */
		assert_int_equal(rv_param_resolve(&prm, p, "gemm.packed_kernel.latency_s"), 0);
		assert_ptr_equal(prm.slot, &p->gemm.packed.latency_s);
		assert_int_equal(rv_param_resolve(&prm, p, "gemm.packed_kernel.store_s"), 0);
		assert_ptr_equal(prm.slot, &p->gemm.packed.store_s);
		rv_profile_free(p);
	}
	/* The transposed rate needs pack_Bps, and is fitted where stated. */
	assert_true(parse_with(&p, "\"gemm\": {", "\"pack_transposed_Bps\": 1e9,") < 0);
	assert_non_null(strstr(rv_error_last(), "gemm.pack_Bps"));
	assert_int_equal(
	        parse_with(&p, "\"gemm\": {", "\"pack_Bps\": 2e9, \"pack_transposed_Bps\": 1e9,"),
	        0);
	assert_int_equal(rv_param_resolve(&prm, p, "gemm.pack_transposed_Bps"), 0);
	assert_ptr_equal(prm.slot, &p->gemm.pack_transposed_Bps);
	rv_profile_free(p);
}

/* gemm.edge_kernels is "pad" or "halving" (the blas_l3 executor's, toy_cpu's
 * by default), gemm.last_wave "whole" or "balanced" (the tiled_waves
 * executor's: stated so); anything else names the key and its two values. */
static void test_predict_cpu_terms__gemm_enums_profile(void **state)
{
	static const struct {
		const char *key, *value;
		int ok, edges, last_wave;
	} cases[] = {
		{ "edge_kernels", "\"halving\"", 1, RV_EDGES_HALVING, RV_LAST_WAVE_WHOLE },
		{ "edge_kernels", "\"pad\"", 1, RV_EDGES_PAD, RV_LAST_WAVE_WHOLE },
		{ "edge_kernels", "\"binary\"", 0, 0, 0 },
		{ "edge_kernels", "2", 0, 0, 0 },
		{ "last_wave", "\"balanced\"", 1, RV_EDGES_PAD, RV_LAST_WAVE_BALANCED },
		{ "last_wave", "\"whole\"", 1, RV_EDGES_PAD, RV_LAST_WAVE_WHOLE },
		{ "last_wave", "\"stream-k\"", 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rv_profile *p;
		char insert[64], path[64];
		int err;

		(void)snprintf(insert, sizeof(insert), "\"%s\": %s,", cases[i].key, cases[i].value);
		if (strcmp(cases[i].key, "last_wave") == 0)
			err = parse_with_executor(&p, "tiled_waves", "\"gemm\": {", insert);
		else
			err = parse_with(&p, "\"gemm\": {", insert);
		if (!cases[i].ok) {
			assert_true(err < 0);
			(void)snprintf(path, sizeof(path), "gemm.%s", cases[i].key);
			assert_non_null(strstr(rv_error_last(), path));
			continue;
		}
		assert_int_equal(err, 0);
		assert_int_equal(p->gemm.edges, cases[i].edges);
		assert_int_equal(p->gemm.last_wave, cases[i].last_wave);
		rv_profile_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_predict_cpu_terms__only_calls_on_several_units),
		cmocka_unit_test(test_predict_cpu_terms__shared_pack),
		cmocka_unit_test(test_predict_cpu_terms__k_steps),
		cmocka_unit_test(test_predict_cpu_terms__kernel_calls),
		cmocka_unit_test(test_predict_cpu_terms__m_pieces),
		cmocka_unit_test(test_predict_cpu_terms__bias_handoff),
		cmocka_unit_test(test_predict_cpu_terms__beta_zero_pass),
		cmocka_unit_test(test_predict_cpu_terms__split_lines),
		cmocka_unit_test(test_predict_cpu_terms__elementwise_loop_rate),
		cmocka_unit_test(test_predict_cpu_terms__elementwise_tail),
		cmocka_unit_test(test_predict_cpu_terms__bias_rows),
		cmocka_unit_test(test_predict_cpu_terms__terms_profile_and_fit),
		cmocka_unit_test(test_predict_cpu_terms__edge_kernels),
		cmocka_unit_test(test_predict_cpu_terms__packed_kernel),
		cmocka_unit_test(test_predict_cpu_terms__gemm_enums_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
