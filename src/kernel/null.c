/* SPDX-License-Identifier: MIT */
/* The null kernel: accepts every op and dtype and does no work, so the whole
 * capture path (sweep, timing, meters, baselines) runs in tests and CI. */
#include <stdlib.h>

#include "core/error.h"
#include "kernel/kernel.h"

extern const struct rv_kernel_ops rv_kernel_null;

struct null_kernel {
	struct rv_kernel base;
	/* Counts the iterations asked for: a volatile store the compiler must
	 * keep, so a timed run() is a real call, not nothing at all. */
	volatile uint64_t iters_done;
};

static int null_probe(const struct rv_env *env)
{
	(void)env;
	return 0;
}

static int null_supports(enum rv_op op, enum rv_dtype d)
{
	return (unsigned)op < RV_OP_COUNT && (unsigned)d < RV_DTYPE_COUNT;
}

static int null_setup(struct rv_kernel **out, const struct rv_env *env, enum rv_op op,
                      const struct rv_shape *s, enum rv_dtype d, uint64_t seed)
{
	struct null_kernel *k;
	int err;

	(void)env;
	(void)seed;
	*out = NULL;
	if (!null_supports(op, d))
		return rv_error_set(RV_ENOTSUP, "null kernel: op %d or dtype %d is out of range",
		                    (int)op, (int)d);
	err = rv_shape_check(s, op);
	if (err < 0)
		return err;
	k = calloc(1, sizeof(*k));
	if (!k)
		return rv_error_set(RV_ENOMEM, "null kernel: cannot allocate an instance");
	rv_kernel_init(&k->base, &rv_kernel_null, op, s, d);
	*out = &k->base;
	return 0;
}

static int null_run(struct rv_kernel *base, uint64_t iters)
{
	struct null_kernel *k = (struct null_kernel *)base;

	k->iters_done += iters;
	return 0;
}

static int null_check(struct rv_kernel *base, double *max_rel_err)
{
	(void)base;
	*max_rel_err = 0;
	return 0;
}

static void null_teardown(struct rv_kernel *base)
{
	free(base);
}

/* Nothing cached to evict: lets tests drive --flush-l2. */
static int null_flush(struct rv_kernel *base)
{
	(void)base;
	return 0;
}

static const char *null_provider(void)
{
	return "none";
}

const struct rv_kernel_ops rv_kernel_null = {
	.name = "null",
	.version = RV_KERNEL_OPS_VERSION,
	.summary = "does no work: drives the capture path in tests and CI",
	.probe = null_probe,
	.supports = null_supports,
	.setup = null_setup,
	.run = null_run,
	.check = null_check,
	.teardown = null_teardown,
	.provider = null_provider,
	.flush = null_flush,
};
