/* SPDX-License-Identifier: MIT */
/* Tests of the kernel backends: the registry, the null kernel, the cblas kernel
 * against its naive reference, and the memory check on a fixture proc/meminfo
 * (tests/data/proc-small: MemAvailable 4096 kB). */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/cblas_internal.h"
#include "kernel/kernel.h"
#include "model/opcount.h"
#include "rv_test.h"

#define SMALL_AVAIL_B (4096.0 * 1024)

/* AddressSanitizer aborts on an impossible allocation instead of returning NULL. */
#if defined(__SANITIZE_ADDRESS__)
#define RV_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RV_TEST_ASAN 1
#endif
#endif
#ifndef RV_TEST_ASAN
#define RV_TEST_ASAN 0
#endif

static char small_root[4096];
/* What out points to before a setup that must fail and reset it to NULL. */
static struct rv_kernel sentinel;

static const struct rv_env *small_env(void)
{
	static struct rv_env env;

	(void)snprintf(small_root, sizeof(small_root), "%s", rv_fixture_path("proc-small"));
	env.root = small_root;
	env.nvml_lib = NULL;
	return &env;
}

static void shape_of(struct rv_shape *s, enum rv_op op, const char *text)
{
	if (rv_shape_parse(text, op, s) != 0)
		fail_msg("%s", rv_error_last());
}

static const struct rv_kernel_ops *cblas(void)
{
	const struct rv_kernel_ops *ops = rv_kernel_find("cblas");

	assert_non_null(ops);
	return ops;
}

/* Sets up op on shape text in d with cblas on the host, failing the test on error. */
static struct rv_kernel *cblas_setup(enum rv_op op, const char *text, enum rv_dtype d,
                                     uint64_t seed)
{
	struct rv_kernel *k = NULL;
	struct rv_shape s;

	shape_of(&s, op, text);
	if (cblas()->setup(&k, &rv_env_host, op, &s, d, seed) != 0)
		fail_msg("%s %s: %s", rv_op_name(op), text, rv_error_last());
	assert_non_null(k);
	return k;
}

static void test_kernel__table(void **state)
{
	(void)state;
	assert_int_equal(rv_kernel_count(), 4);
	assert_string_equal(rv_kernel_at(0)->name, "null");
	assert_string_equal(rv_kernel_at(1)->name, "cblas");
	assert_string_equal(rv_kernel_at(2)->name, "cublas");
	assert_string_equal(rv_kernel_at(3)->name, "torch");
	assert_null(rv_kernel_at(rv_kernel_count()));
	for (size_t i = 0; i < rv_kernel_count(); i++) {
		const struct rv_kernel_ops *ops = rv_kernel_at(i);

		assert_non_null(ops);
		assert_non_null(ops->name);
		assert_int_equal(ops->version, RV_KERNEL_OPS_VERSION);
		assert_non_null(ops->summary);
		assert_non_null(ops->probe);
		assert_non_null(ops->supports);
		assert_non_null(ops->setup);
		assert_non_null(ops->run);
		assert_non_null(ops->check);
		assert_non_null(ops->teardown);
		assert_non_null(ops->provider);
		assert_non_null(ops->provider());
		assert_true(ops->provider()[0] != '\0');
		assert_ptr_equal(rv_kernel_find(ops->name), ops);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(rv_kernel_at(j)->name, ops->name);
		/* The CPU backends run on any machine this builds on; cublas needs a
		 * GPU and torch libtorch, and they say why when there is none. */
		if (strcmp(ops->name, "cublas") == 0 || strcmp(ops->name, "torch") == 0) {
			int rc = ops->probe(&rv_env_host);

			assert_true(rc == 0 || (rc == RV_ENOTSUP && rv_error_last()[0]));
			print_message("%s probe: %s\n", ops->name, rc ? rv_error_last() : "ok");
		} else if (ops->probe(&rv_env_host) != 0) {
			fail_msg("%s: %s", ops->name, rv_error_last());
		}
	}
}

static void test_kernel__find_unknown(void **state)
{
	(void)state;
	assert_null(rv_kernel_find("rocblas"));
	assert_string_equal(
	        rv_error_last(),
	        "no kernel called 'rocblas'; known kernels: null, cblas, cublas, torch");
	assert_null(rv_kernel_find(""));
	assert_null(rv_kernel_find(NULL));
	assert_non_null(strstr(rv_error_last(), "known kernels: null, cblas"));
}

static void test_kernel__null_runs(void **state)
{
	static const struct {
		enum rv_op op;
		const char *shape;
	} cases[] = {
		{ RV_OP_MATMUL, "65536x65536x65536" },
		{ RV_OP_LINEAR, "1x4096x4096" },
		{ RV_OP_VECTOR_ADD, "1099511627776" },
	};
	const struct rv_kernel_ops *ops = rv_kernel_find("null");
	struct rv_shape s;

	(void)state;
	assert_non_null(ops);
	assert_string_equal(ops->provider(), "none");
	for (int op = 0; op < RV_OP_COUNT; op++)
		for (int d = 0; d < RV_DTYPE_COUNT; d++)
			assert_true(ops->supports((enum rv_op)op, (enum rv_dtype)d));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rv_kernel *k = NULL;
		double err = -1;

		shape_of(&s, cases[i].op, cases[i].shape);
		/* Huge shapes are fine: nothing is allocated, so no memory check. */
		assert_int_equal(ops->setup(&k, small_env(), cases[i].op, &s, RV_DTYPE_FP16, 1), 0);
		assert_non_null(k);
		assert_ptr_equal(k->ops, ops);
		assert_int_equal(k->op, cases[i].op);
		assert_int_equal(k->dtype, RV_DTYPE_FP16);
		assert_int_equal(rv_shape_cmp(&k->shape, &s), 0);
		rv_assert_close(k->allocated_B, 0, 0, 0);
		assert_int_equal(ops->run(k, 1000000), 0);
		assert_int_equal(ops->run(k, 0), 0);
		assert_int_equal(ops->check(k, &err), 0);
		rv_assert_close(err, 0, 0, 0);
		ops->teardown(k);
	}
	/* The shape is still checked against the op. */
	shape_of(&s, RV_OP_VECTOR_ADD, "64");
	{
		struct rv_kernel *k = &sentinel;

		assert_true(ops->setup(&k, &rv_env_host, RV_OP_MATMUL, &s, RV_DTYPE_FP32, 1) < 0);
		assert_null(k);
	}
}

/* Every small shape, non-square ones, M or B = 1, K = 1, in fp32 and fp64,
 * run twice (linear re-adds its bias each run), pass check(). */
static void test_kernel__cblas_ops_pass_check(void **state)
{
	static const struct {
		enum rv_op op;
		const char *shape;
	} cases[] = {
		{ RV_OP_MATMUL, "1x1x1" },      { RV_OP_MATMUL, "3x5x7" },
		{ RV_OP_MATMUL, "1x64x33" },    { RV_OP_MATMUL, "17x1x9" },
		{ RV_OP_MATMUL, "64x64x64" },   { RV_OP_MATMUL, "100x37x1" },
		{ RV_OP_MATMUL, "128x256x64" }, { RV_OP_MATMUL, "1x2048x1" },
		{ RV_OP_LINEAR, "1x1x1" },      { RV_OP_LINEAR, "4x7x5" },
		{ RV_OP_LINEAR, "1x128x33" },   { RV_OP_LINEAR, "8x1x16" },
		{ RV_OP_LINEAR, "32x64x48" },   { RV_OP_LINEAR, "65x300x3" },
		{ RV_OP_VECTOR_ADD, "1" },      { RV_OP_VECTOR_ADD, "7" },
		{ RV_OP_VECTOR_ADD, "1000" },   { RV_OP_VECTOR_ADD, "65537" },
	};
	static const enum rv_dtype dtypes[] = { RV_DTYPE_FP32, RV_DTYPE_FP64 };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t t = 0; t < 2; t++) {
			struct rv_kernel *k =
			        cblas_setup(cases[i].op, cases[i].shape, dtypes[t], i);
			const struct rv_cblas_kernel *ck = (const struct rv_cblas_kernel *)k;
			struct rv_footprint fp;
			double err = -1;

			assert_int_equal(rv_footprint_of(&fp, k->op, &k->shape, k->dtype), 0);
			rv_assert_close(k->allocated_B, fp.working_set_B, 0, 0);
			assert_true((uintptr_t)ck->a % 64 == 0 && (uintptr_t)ck->b % 64 == 0);
			assert_true((uintptr_t)ck->c % 64 == 0 && (uintptr_t)ck->bias % 64 == 0);
			assert_true((cases[i].op == RV_OP_LINEAR) == (ck->bias != NULL));
			assert_int_equal(k->ops->run(k, 2), 0);
			if (k->ops->check(k, &err) != 0)
				fail_msg("%s %s %s: %s", rv_op_name(cases[i].op), cases[i].shape,
				         rv_dtype_name(dtypes[t]), rv_error_last());
			assert_true(err >= 0 && err < (t == 0 ? 1e-5 : 1e-12));
			k->ops->teardown(k);
		}
	}
}

static void test_kernel__cblas_inputs_seeded(void **state)
{
	struct rv_kernel *k1 = cblas_setup(RV_OP_LINEAR, "3x50x20", RV_DTYPE_FP32, 42);
	struct rv_kernel *k2 = cblas_setup(RV_OP_LINEAR, "3x50x20", RV_DTYPE_FP32, 42);
	struct rv_kernel *k3 = cblas_setup(RV_OP_LINEAR, "3x50x20", RV_DTYPE_FP32, 43);
	const struct rv_cblas_kernel *c1 = (const struct rv_cblas_kernel *)k1;
	const struct rv_cblas_kernel *c2 = (const struct rv_cblas_kernel *)k2;
	const struct rv_cblas_kernel *c3 = (const struct rv_cblas_kernel *)k3;
	const float *w = c1->b;

	(void)state;
	assert_memory_equal(c1->a, c2->a, sizeof(float) * 3 * 50);
	assert_memory_equal(c1->b, c2->b, sizeof(float) * 20 * 50);
	assert_memory_equal(c1->bias, c2->bias, sizeof(float) * 20);
	assert_memory_not_equal(c1->a, c3->a, sizeof(float) * 3 * 50);
	/* Never zeros: uniform in [0.5, 1.5). */
	for (size_t i = 0; i < (size_t)20 * 50; i++)
		assert_true(w[i] >= 0.5f && w[i] < 1.5f);
	k1->ops->teardown(k1);
	k2->ops->teardown(k2);
	k3->ops->teardown(k3);
}

/* The first n bytes of input a of a setup, into out. */
static void input_a(void *out, size_t n, enum rv_op op, const char *shape, enum rv_dtype d,
                    uint64_t seed)
{
	struct rv_kernel *k = cblas_setup(op, shape, d, seed);

	memcpy(out, ((const struct rv_cblas_kernel *)k)->a, n);
	k->ops->teardown(k);
}

/* A pooled buffer that already holds an input's pattern is not filled again
 * (or only its missing part), and a buffer grown in place keeps its pages
 * and contents: each time the input holds the same bits as a fresh fill.
 * Each case sets up first (optional, with seed_first), then before (with
 * seed_before), then shape, and compares shape's input a with a fresh fill
 * of seed 7. */
static void test_kernel__cblas_pool_reuse_same_bits(void **state)
{
	static const struct {
		enum rv_op op;
		const char *first, *before, *shape;
		uint64_t seed_first, seed_before;
		enum rv_dtype d_before, d;
		size_t bytes;
	} cases[] = {
		/* a smaller shape in a pooled buffer that holds the pattern */
		{ RV_OP_MATMUL, NULL, "300x300x300", "200x300x300", 0, 7, RV_DTYPE_FP32,
		  RV_DTYPE_FP32, 200 * 300 * 4 },
		/* the same bytes in another dtype: filled again */
		{ RV_OP_MATMUL, NULL, "400x300x300", "200x300x300", 0, 7, RV_DTYPE_FP32,
		  RV_DTYPE_FP64, 200 * 300 * 8 },
		/* a buffer of seed 9 refilled for 350000 of seed 7, then asked for
		 * 400000 of seed 7: only the rest filled */
		{ RV_OP_VECTOR_ADD, "400000", "350000", "400000", 9, 7, RV_DTYPE_FP32,
		  RV_DTYPE_FP32, 400000 * 4 },
		/* grown in place from 300000 to 400000 elements */
		{ RV_OP_VECTOR_ADD, NULL, "300000", "400000", 0, 7, RV_DTYPE_FP32, RV_DTYPE_FP32,
		  400000 * 4 },
		/* grown from a buffer of another seed: filled again */
		{ RV_OP_VECTOR_ADD, NULL, "300000", "400000", 0, 9, RV_DTYPE_FP32, RV_DTYPE_FP32,
		  400000 * 4 },
	};
	unsigned char *fresh = malloc(400000 * 8), *reused = malloc(400000 * 8);

	(void)state;
	assert_non_null(fresh);
	assert_non_null(reused);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rv_kernel_cblas__release();
		input_a(fresh, cases[i].bytes, cases[i].op, cases[i].shape, cases[i].d, 7);
		rv_kernel_cblas__release();
		if (cases[i].first)
			input_a(reused, 4, cases[i].op, cases[i].first, cases[i].d,
			        cases[i].seed_first);
		input_a(reused, 4, cases[i].op, cases[i].before, cases[i].d_before,
		        cases[i].seed_before);
		input_a(reused, cases[i].bytes, cases[i].op, cases[i].shape, cases[i].d, 7);
		if (memcmp(fresh, reused, cases[i].bytes) != 0)
			fail_msg("case %zu: a reused buffer differs from a fresh fill", i);
	}
	rv_kernel_cblas__release();
	free(fresh);
	free(reused);
}

static void test_kernel__cblas_check_catches_corruption(void **state)
{
	struct rv_kernel *k;
	struct rv_cblas_kernel *ck;
	double err;

	(void)state;
	/* One element 1% off. */
	k = cblas_setup(RV_OP_MATMUL, "8x16x4", RV_DTYPE_FP32, 7);
	ck = (struct rv_cblas_kernel *)k;
	assert_int_equal(k->ops->run(k, 1), 0);
	assert_int_equal(k->ops->check(k, &err), 0);
	((float *)ck->c)[2 * 4 + 3] *= 1.01f;
	rv_assert_error(k->ops->check(k, &err), RV_ERANGE,
	                "matmul 8x16x4 fp32: relative error 0.01 at [2][3]");
	rv_assert_close(err, 0.01, 1e-3, 0);
	/* A fresh run repairs it. */
	assert_int_equal(k->ops->run(k, 1), 0);
	assert_int_equal(k->ops->check(k, &err), 0);
	k->ops->teardown(k);

	/* A NaN is the worst error there is, even among finite ones. */
	k = cblas_setup(RV_OP_VECTOR_ADD, "100", RV_DTYPE_FP64, 7);
	ck = (struct rv_cblas_kernel *)k;
	assert_int_equal(k->ops->run(k, 3), 0);
	((double *)ck->c)[10] = nan("");
	((double *)ck->c)[50] *= 1.5;
	rv_assert_error(k->ops->check(k, &err), RV_ERANGE, "at [0][10]");
	assert_true(isinf(err));
	k->ops->teardown(k);

	/* A linear whose bias was added twice (the bias is about 1 of ~33). */
	k = cblas_setup(RV_OP_LINEAR, "2x32x8", RV_DTYPE_FP64, 7);
	ck = (struct rv_cblas_kernel *)k;
	assert_int_equal(k->ops->run(k, 1), 0);
	((double *)ck->c)[8 + 5] += ((const double *)ck->bias)[5];
	rv_assert_error(k->ops->check(k, &err), RV_ERANGE, "at [1][5]");
	assert_true(err > 0.01 && err < 0.2);
	k->ops->teardown(k);

	/* A fp64 error far below fp32's tolerance is still caught. */
	k = cblas_setup(RV_OP_MATMUL, "4x4x4", RV_DTYPE_FP64, 7);
	ck = (struct rv_cblas_kernel *)k;
	assert_int_equal(k->ops->run(k, 1), 0);
	((double *)ck->c)[0] *= 1 + 1e-9;
	rv_assert_error(k->ops->check(k, &err), RV_ERANGE, "beyond the fp64 tolerance");
	k->ops->teardown(k);
}

static void test_kernel__cblas_check_limits(void **state)
{
	struct rv_kernel *k;
	double err = 0;

	(void)state;
	k = cblas_setup(RV_OP_MATMUL, "2x2x2", RV_DTYPE_FP32, 1);
	rv_assert_error(k->ops->check(k, &err), RV_ERROR, "before run()");
	assert_int_equal(k->ops->run(k, 0), 0);
	rv_assert_error(k->ops->check(k, &err), RV_ERROR, "before run()");
	k->ops->teardown(k);

	/* 512 * 1024 * 257 multiply-adds: more than the reference does (2^27). */
	k = cblas_setup(RV_OP_MATMUL, "512x1024x257", RV_DTYPE_FP32, 1);
	assert_int_equal(k->ops->run(k, 1), 0);
	rv_assert_error(k->ops->check(k, &err), RV_ENOTSUP,
	                "matmul 512x1024x257 fp32 is too large to check");
	k->ops->teardown(k);
}

static void test_kernel__cblas_unsupported_dtype(void **state)
{
	static const enum rv_dtype no[] = { RV_DTYPE_FP16, RV_DTYPE_TF32, RV_DTYPE_BF16,
		                            RV_DTYPE_INT8, RV_DTYPE_FP8_E4M3 };
	const struct rv_kernel_ops *ops = cblas();
	struct rv_kernel *k;
	struct rv_shape s;

	(void)state;
	for (int op = 0; op < RV_OP_COUNT; op++) {
		assert_true(ops->supports((enum rv_op)op, RV_DTYPE_FP32));
		assert_true(ops->supports((enum rv_op)op, RV_DTYPE_FP64));
		for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
			assert_false(ops->supports((enum rv_op)op, no[i]));
	}
	shape_of(&s, RV_OP_MATMUL, "64x64x64");
	k = &sentinel;
	rv_assert_error(ops->setup(&k, &rv_env_host, RV_OP_MATMUL, &s, RV_DTYPE_FP16, 1),
	                RV_ENOTSUP,
	                "fp16 is unsupported on the cblas backend (it runs fp32 and fp64)");
	assert_null(k);
	rv_assert_error(ops->setup(&k, &rv_env_host, RV_OP_MATMUL, &s, RV_DTYPE_TF32, 1),
	                RV_ENOTSUP, "tf32 is unsupported on the cblas backend");
	/* A shape that does not fit the op. */
	assert_true(ops->setup(&k, &rv_env_host, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, 1) < 0);
	assert_null(k);
}

static void test_kernel__cblas_refuses_before_allocating(void **state)
{
	const struct rv_kernel_ops *ops = cblas();
	struct rv_kernel *k;
	struct rv_shape s;

	(void)state;
	/* 768 GiB: had setup allocated first, it would fail with another message
	 * (or not return); the instance is not even allocated. */
	shape_of(&s, RV_OP_MATMUL, "262144x262144x262144");
	k = &sentinel;
	rv_assert_error(ops->setup(&k, small_env(), RV_OP_MATMUL, &s, RV_DTYPE_FP32, 1), RV_ENOMEM,
	                "matmul 262144x262144x262144 needs 768 GiB of buffers, 4 MiB are "
	                "available (10% is kept free); pick a smaller shape");
	assert_null(k);
	/* 6 MiB, which this machine has: the fixture's MemAvailable decides. */
	shape_of(&s, RV_OP_MATMUL, "512x512x512");
	rv_assert_error(ops->setup(&k, small_env(), RV_OP_MATMUL, &s, RV_DTYPE_FP64, 1), RV_ENOMEM,
	                "matmul 512x512x512 needs 6 MiB of buffers");
	assert_null(k);
	/* 3 MiB fits in 90% of 4 MiB. */
	assert_int_equal(ops->setup(&k, small_env(), RV_OP_MATMUL, &s, RV_DTYPE_FP32, 1), 0);
	rv_assert_close(k->allocated_B, 3.0 * 1024 * 1024, 0, 0);
	ops->teardown(k);
	/* Without a meminfo, no allocation either. */
	{
		const struct rv_env none = { .root = rv_fixture_path("no-such-root") };

		shape_of(&s, RV_OP_VECTOR_ADD, "16");
		rv_assert_error(ops->setup(&k, &none, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, 1),
		                RV_ENOENT, "cannot tell the available memory");
		assert_null(k);
	}
}

/* A failed allocation is RV_ENOMEM naming the buffer and the shape, and
 * frees what was allocated (valgrind --leak-check=full passes). */
static void test_kernel__cblas_allocation_failure(void **state)
{
	char root[4096], dir[4200], path[4300];
	struct rv_env env = { .root = NULL };
	struct rv_kernel *k = &sentinel;
	struct rv_shape s;

	(void)state;
	if (RV_TEST_ASAN) {
		print_message("[  SKIPPED ] AddressSanitizer aborts on a 2 PiB allocation\n");
		skip();
	}
	(void)snprintf(root, sizeof(root), "%s", rv_scratch_dir("kernel_nomem"));
	(void)snprintf(dir, sizeof(dir), "%s/proc", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	(void)snprintf(path, sizeof(path), "%s/meminfo", dir);
	/* 4 PiB available, more than any address space holds. */
	rv_spit(path, "MemTotal: 4398046511104 kB\nMemAvailable: 4398046511104 kB\n");
	env.root = root;
	/* A (2^24 x 2^24 fp64) alone is 2 PiB. */
	shape_of(&s, RV_OP_MATMUL, "16777216x16777216x1");
	rv_assert_error(cblas()->setup(&k, &env, RV_OP_MATMUL, &s, RV_DTYPE_FP64, 1), RV_ENOMEM,
	                "cblas: cannot allocate the first input (");
	assert_non_null(strstr(rv_error_last(), "of matmul 16777216x16777216x1 fp64"));
	assert_null(k);
	/* B, the second buffer: A (1 element) was allocated and is freed again. */
	shape_of(&s, RV_OP_MATMUL, "1x16777216x16777216");
	rv_assert_error(cblas()->setup(&k, &env, RV_OP_MATMUL, &s, RV_DTYPE_FP64, 1), RV_ENOMEM,
	                "cannot allocate the second input");
	assert_null(k);
}

static void test_kernel__check_fits_margin(void **state)
{
	struct rv_shape s;

	(void)state;
	shape_of(&s, RV_OP_VECTOR_ADD, "1000");
	assert_int_equal(
	        rv_kernel_check_fits(small_env(), 0.9 * SMALL_AVAIL_B, RV_OP_VECTOR_ADD, &s), 0);
	rv_assert_error(
	        rv_kernel_check_fits(small_env(), 0.9 * SMALL_AVAIL_B + 1, RV_OP_VECTOR_ADD, &s),
	        RV_ENOMEM, "vector_add 1000 needs");
}

static void test_kernel__mem_available(void **state)
{
	double avail_B = 0;

	(void)state;
	assert_int_equal(rv_mem_available(&avail_B, small_env()), 0);
	rv_assert_close(avail_B, SMALL_AVAIL_B, 0, 0);
	/* The machine itself has some. */
	assert_int_equal(rv_mem_available(&avail_B, &rv_env_host), 0);
	assert_true(avail_B > 0);
}

static void test_kernel__mem_available_errors(void **state)
{
	char root[4096], dir[4200], path[4300];
	struct rv_env env = { .root = NULL };
	double avail_B = -1;

	(void)state;
	env.root = rv_fixture_path("no-such-root");
	rv_assert_error(rv_mem_available(&avail_B, &env), RV_ENOENT,
	                "cannot tell the available memory: cannot read ");
	assert_non_null(strstr(rv_error_last(), "no-such-root/proc/meminfo"));
	rv_assert_close(avail_B, -1, 0, 0);

	(void)snprintf(root, sizeof(root), "%s", rv_scratch_dir("kernel_meminfo"));
	(void)snprintf(dir, sizeof(dir), "%s/proc", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	(void)snprintf(path, sizeof(path), "%s/meminfo", dir);
	env.root = root;

	/* Linux before 3.14 has no MemAvailable. */
	rv_spit(path, "MemTotal:        8000000 kB\nMemFree:         4000000 kB\n");
	rv_assert_error(rv_mem_available(&avail_B, &env), RV_EPARSE, "has no MemAvailable line");
	rv_spit(path, "MemTotal: 8000000 kB\nMemAvailable: lots\n");
	rv_assert_error(rv_mem_available(&avail_B, &env), RV_EPARSE,
	                "MemAvailable is not a number of kB");
	rv_spit(path, "MemAvailable: 1000 MB\n");
	rv_assert_error(rv_mem_available(&avail_B, &env), RV_EPARSE, "not a number of kB");
	/* A line that only ends in MemAvailable is not it. */
	rv_spit(path, "XMemAvailable: 1 kB\nMemAvailable:\t2 kB\n");
	assert_int_equal(rv_mem_available(&avail_B, &env), 0);
	rv_assert_close(avail_B, 2048, 0, 0);

	/* Unreadable: mode 000 (root reads anything, so skip the last step then). */
	if (geteuid() == 0)
		return;
	assert_int_equal(chmod(path, 0), 0);
	rv_assert_error(rv_mem_available(&avail_B, &env), RV_EPERM, "cannot read ");
	assert_int_equal(chmod(path, 0644), 0);
}

static void test_kernel__cblas_provider(void **state)
{
	const char *p = cblas()->provider();

	(void)state;
	print_message("cblas provider: %s\n", p);
	assert_true(strncmp(p, "OpenBLAS ", 9) == 0);
	assert_non_null(strstr(p, " thread"));
}

/* The CBLAS the kernels call (in the cblas module) is OpenBLAS's, not GSL's
 * reference one that the core links (whose naive sgemm once won the symbol
 * lookup and made GEMMs 50x slower). */
static void test_kernel__cblas_symbols_come_from_openblas(void **state)
{
	Dl_info info;
	const void *fn;

	(void)state;
	if (RV_TEST_ASAN) {
		print_message("[  SKIPPED ] AddressSanitizer refuses RTLD_DEEPBIND: the module "
		              "gets gslcblas\n");
		skip();
	}
	fn = rv_kernel_cblas__sgemm();
	if (!fn)
		fail_msg("no cblas module: %s", rv_error_last());
	assert_true(dladdr(fn, &info) != 0);
	assert_non_null(info.dli_fname);
	if (!strstr(info.dli_fname, "openblas"))
		fail_msg("cblas_sgemm comes from %s, not OpenBLAS", info.dli_fname);
}

/* The cblas module is loaded once per process, at the first probe: in a
 * child (before this process loads it), a module that cannot be loaded
 * makes the backend unavailable, saying which file and why, and every later
 * call says the same. */
static void test_kernel__cblas_module_missing(void **state)
{
	int status = 0;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rv_env env = rv_env_host;
		const struct rv_kernel_ops *ops = rv_kernel_find("cblas");
		struct rv_kernel *k = NULL;
		struct rv_shape s = { 0 };
		int ok;

		env.cblas_module = "/nonexistent/libroofval-cblas.so";
		ok = ops->probe(&env) == RV_ENOTSUP &&
		     strstr(rv_error_last(), "cannot load the cblas module") &&
		     strstr(rv_error_last(), "/nonexistent/libroofval-cblas.so");
		ok = ok && ops->setup(&k, NULL, RV_OP_MATMUL, &s, RV_DTYPE_FP32, 1) == RV_ENOTSUP &&
		     !k && strstr(rv_error_last(), "cannot load the cblas module");
		ok = ok && strcmp(ops->provider(), "none (no cblas module)") == 0;
		/* Without the module, what it runs is still known. */
		ok = ok && ops->supports(RV_OP_MATMUL, RV_DTYPE_FP64) &&
		     !ops->supports(RV_OP_MATMUL, RV_DTYPE_FP16);
		ok = ok && !rv_kernel_cblas__sgemm();
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel__cblas_module_missing),
		cmocka_unit_test(test_kernel__cblas_symbols_come_from_openblas),
		cmocka_unit_test(test_kernel__table),
		cmocka_unit_test(test_kernel__find_unknown),
		cmocka_unit_test(test_kernel__null_runs),
		cmocka_unit_test(test_kernel__cblas_ops_pass_check),
		cmocka_unit_test(test_kernel__cblas_inputs_seeded),
		cmocka_unit_test(test_kernel__cblas_pool_reuse_same_bits),
		cmocka_unit_test(test_kernel__cblas_check_catches_corruption),
		cmocka_unit_test(test_kernel__cblas_check_limits),
		cmocka_unit_test(test_kernel__cblas_unsupported_dtype),
		cmocka_unit_test(test_kernel__cblas_refuses_before_allocating),
		cmocka_unit_test(test_kernel__cblas_allocation_failure),
		cmocka_unit_test(test_kernel__check_fits_margin),
		cmocka_unit_test(test_kernel__mem_available),
		cmocka_unit_test(test_kernel__mem_available_errors),
		cmocka_unit_test(test_kernel__cblas_provider),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
