/* SPDX-License-Identifier: MIT */
/* Tests of the torch kernel backend (libroofval-torch.so through
 * src/kernel/torch.c): its probe and device choice, every op against the
 * naive reference on small shapes, the memory check, its provenance, and the
 * framework's per-call overhead against the cblas kernels'. Skipped (77) in a
 * build without libtorch, whose probe must then say so. */
#include "core/clock.h"
#include "core/stats.h"
#include "kernel/kernel.h"
#include "model/opcount.h"
#include "rv_test.h"

static const struct rv_kernel_ops *torch(void)
{
	const struct rv_kernel_ops *ops = rv_kernel_find("torch");

	assert_non_null(ops);
	return ops;
}

static void shape_of(struct rv_shape *s, enum rv_op op, const char *text)
{
	if (rv_shape_parse(text, op, s) != 0)
		fail_msg("%s", rv_error_last());
}

/* The host with the torch kernels on the CPU (whatever the machine has). */
static const struct rv_env *cpu_env(void)
{
	static struct rv_env env;

	env = rv_env_host;
	env.args.torch.device = "cpu";
	return &env;
}

static struct rv_kernel *setup_on(const struct rv_kernel_ops *ops, enum rv_op op, const char *text,
                                  enum rv_dtype d, uint64_t seed)
{
	struct rv_kernel *k = NULL;
	struct rv_shape s;

	shape_of(&s, op, text);
	if (ops->setup(&k, cpu_env(), op, &s, d, seed) != 0)
		fail_msg("%s %s %s: %s", ops->name, rv_op_name(op), text, rv_error_last());
	assert_non_null(k);
	return k;
}

static void test_torch__probe_and_provider(void **state)
{
	const struct rv_kernel_ops *ops = torch();
	const char *p;

	(void)state;
	assert_int_equal(ops->version, RV_KERNEL_OPS_VERSION);
	assert_int_equal(ops->probe(cpu_env()), 0);
	assert_non_null(ops->time_run);
	assert_non_null(ops->flush);
	/* The CPU runs fp32 and fp64 of every op, no 16-bit types. */
	for (int op = 0; op < RV_OP_COUNT; op++) {
		assert_true(ops->supports((enum rv_op)op, RV_DTYPE_FP32));
		assert_true(ops->supports((enum rv_op)op, RV_DTYPE_FP64));
		assert_false(ops->supports((enum rv_op)op, RV_DTYPE_FP16));
		assert_false(ops->supports((enum rv_op)op, RV_DTYPE_INT8));
	}
	/* "PyTorch 1.13.0 (libtorch), CPU, 2 threads, BLAS: OpenBLAS, MKL: no, oneDNN: yes" */
	p = ops->provider();
	print_message("torch provider: %s\n", p);
	assert_true(strncmp(p, "PyTorch ", 8) == 0);
	assert_non_null(strstr(p, ", CPU, "));
	assert_non_null(strstr(p, " thread"));
	assert_non_null(strstr(p, ", BLAS: "));
	assert_null(strstr(p, "BLAS: unknown"));
	assert_non_null(strstr(p, ", MKL: "));
	assert_non_null(strstr(p, ", oneDNN: "));
}

/* A device that is not there, or not a device, is refused with the reason. */
static void test_torch__device_choice(void **state)
{
	struct rv_env env = rv_env_host;
	struct rv_kernel *k = NULL;
	struct rv_shape s;
	int rc;

	(void)state;
	env.args.torch.device = "tpu";
	rv_assert_error(torch()->probe(&env), RV_ENOTSUP,
	                "ROOFVAL_TORCH_DEVICE=tpu: give cpu or cuda");
	env.args.torch.device = "cuda";
	rc = torch()->probe(&env);
	if (rc == 0) {
		print_message("torch: CUDA usable here\n");
	} else {
		assert_int_equal(rc, RV_ENOTSUP);
		assert_true(strstr(rv_error_last(), "without CUDA") ||
		            strstr(rv_error_last(), "sees no GPU"));
		shape_of(&s, RV_OP_VECTOR_ADD, "16");
		k = (struct rv_kernel *)&env;
		assert_int_equal(torch()->setup(&k, &env, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, 1),
		                 RV_ENOTSUP);
		assert_null(k);
	}
	/* Unset: the CPU when there is no usable GPU; a probe that succeeds. */
	env.args.torch.device = NULL;
	assert_int_equal(torch()->probe(&env), 0);
	assert_int_equal(torch()->probe(cpu_env()), 0);
}

/* Every op on small and odd shapes, M or B = 1, K = 1, fp32 and fp64, run
 * twice (the output is fresh each call), passes check(); buffers as counted. */
static void test_torch__ops_pass_check(void **state)
{
	static const struct {
		enum rv_op op;
		const char *shape;
	} cases[] = {
		{ RV_OP_MATMUL, "1x1x1" },
		{ RV_OP_MATMUL, "3x5x7" },
		{ RV_OP_MATMUL, "17x1x9" },
		{ RV_OP_MATMUL, "64x128x32" },
		{ RV_OP_LINEAR, "1x1x1" },
		{ RV_OP_LINEAR, "4x7x5" },
		{ RV_OP_LINEAR, "65x300x3" },
		{ RV_OP_LINEAR, "8x1x16" },
		{ RV_OP_VECTOR_ADD, "1" },
		{ RV_OP_VECTOR_ADD, "1000" },
		{ RV_OP_VECTOR_ADD, "65537" },
		/* Beyond the 2^18 drawn elements: the repeated part of the inputs. */
		{ RV_OP_VECTOR_ADD, "300001" },
		{ RV_OP_LINEAR, "2x131073x3" },
	};
	static const enum rv_dtype dtypes[] = { RV_DTYPE_FP32, RV_DTYPE_FP64 };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t t = 0; t < 2; t++) {
			struct rv_kernel *k =
			        setup_on(torch(), cases[i].op, cases[i].shape, dtypes[t], 7 + i);
			struct rv_footprint fp;
			double err = -1;

			assert_ptr_equal(k->ops, torch());
			assert_int_equal(rv_footprint_of(&fp, k->op, &k->shape, k->dtype), 0);
			rv_assert_close(k->allocated_B, fp.working_set_B, 0, 0);
			/* No result before a run. */
			rv_assert_error(k->ops->check(k, &err), RV_ERROR, "check() before run()");
			assert_int_equal(k->ops->run(k, 2), 0);
			if (k->ops->check(k, &err) != 0)
				fail_msg("%s %s %s: %s", rv_op_name(cases[i].op), cases[i].shape,
				         rv_dtype_name(dtypes[t]), rv_error_last());
			assert_true(err >= 0 && err < 1e-5);
			/* time_run is the host clock on the CPU: positive, and a result. */
			{
				double s = -1;

				assert_int_equal(k->ops->time_run(k, 3, &s), 0);
				assert_true(s > 0 && isfinite(s));
				assert_int_equal(k->ops->check(k, &err), 0);
			}
			k->ops->teardown(k);
		}
	}
}

/* Refusals: a 16-bit type on the CPU, a shape beyond the available memory,
 * a flush on the CPU, a shape too large for the naive reference. */
static void test_torch__refusals(void **state)
{
	static char root[4096];
	struct rv_env small = *cpu_env();
	struct rv_kernel *k;
	struct rv_shape s;
	double err = -1;

	(void)state;
	shape_of(&s, RV_OP_MATMUL, "16x16x16");
	k = (struct rv_kernel *)&small;
	rv_assert_error(torch()->setup(&k, cpu_env(), RV_OP_MATMUL, &s, RV_DTYPE_FP16, 1),
	                RV_ENOTSUP, "matmul fp16 is unsupported on the torch backend on the CPU");
	assert_null(k);
	/* tests/data/proc-small: MemAvailable 4096 kB. */
	(void)snprintf(root, sizeof(root), "%s", rv_fixture_path("proc-small"));
	small.root = root;
	shape_of(&s, RV_OP_MATMUL, "1024x1024x1024");
	k = (struct rv_kernel *)&small;
	rv_assert_error(torch()->setup(&k, &small, RV_OP_MATMUL, &s, RV_DTYPE_FP32, 1), RV_ENOMEM,
	                "pick a smaller shape");
	assert_null(k);

	k = setup_on(torch(), RV_OP_VECTOR_ADD, "8", RV_DTYPE_FP32, 1);
	rv_assert_error(k->ops->flush(k), RV_ENOTSUP, "flush a cache only on a GPU");
	k->ops->teardown(k);
	k = setup_on(torch(), RV_OP_MATMUL, "1024x1024x256", RV_DTYPE_FP32, 1);
	assert_int_equal(k->ops->run(k, 1), 0);
	rv_assert_error(k->ops->check(k, &err), RV_ENOTSUP, "too large to check");
	k->ops->teardown(k);
}

/* Median seconds per call of n-element fp32 vector_add through ops, over
 * rounds of calls back to back. */
static double add_per_call_s(const struct rv_kernel_ops *ops, const char *n, uint64_t calls)
{
	struct rv_kernel *k = setup_on(ops, RV_OP_VECTOR_ADD, n, RV_DTYPE_FP32, 3);
	double t[9];

	assert_int_equal(k->ops->run(k, calls), 0); /* warm */
	for (int r = 0; r < 9; r++) {
		double t0 = rv_now_s();

		assert_int_equal(k->ops->run(k, calls), 0);
		t[r] = (rv_now_s() - t0) / (double)calls;
	}
	k->ops->teardown(k);
	return rv_median(t, 9);
}

/* A framework's dispatch and fresh output (microseconds) against a C loop
 * over warm buffers (tens of nanoseconds) on a 16-element add: an overhead,
 * not the machine's speed, so a wide margin holds on any machine. */
static void test_torch__slower_than_cblas_on_a_tiny_add(void **state)
{
	const struct rv_kernel_ops *cblas = rv_kernel_find("cblas");
	double t_cblas, t_torch;

	(void)state;
	assert_non_null(cblas);
	t_cblas = add_per_call_s(cblas, "16", 20000);
	t_torch = add_per_call_s(torch(), "16", 2000);
	print_message("vector_add 16 fp32: cblas %.3g s, torch %.3g s per call (%.1fx)\n", t_cblas,
	              t_torch, t_torch / t_cblas);
	assert_true(t_cblas > 0 && t_torch > 1.5 * t_cblas);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torch__probe_and_provider),
		cmocka_unit_test(test_torch__device_choice),
		cmocka_unit_test(test_torch__ops_pass_check),
		cmocka_unit_test(test_torch__refusals),
		cmocka_unit_test(test_torch__slower_than_cblas_on_a_tiny_add),
	};
	const struct rv_kernel_ops *k = rv_kernel_find("torch");

	if (!k)
		return 1;
	if (k->probe(cpu_env()) != 0) {
		/* Only a build without the module may skip, and its probe says why. */
		if (!strstr(rv_error_last(), "built without libtorch")) {
			printf("torch probe: %s\n", rv_error_last());
			return 1;
		}
		printf("[  SKIPPED ] torch: %s\n", rv_error_last());
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
