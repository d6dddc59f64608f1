/* SPDX-License-Identifier: MIT */
/* Shared code of the tests of meters and of the capture core. */
#ifndef RV_TESTS_RV_TEST_METER_H
#define RV_TESTS_RV_TEST_METER_H

#include "capture/capture.h"
#include "kernel/kernel.h"
#include "meter/meter.h"
#include "rv_test.h"

/* Probes and opens a meter with ops on env; fails the test unless both work. */
static inline struct rv_meter *rv_meter_open_ok(const struct rv_meter_ops *ops,
                                                const struct rv_env *env)
{
	struct rv_meter *m = NULL;
	int rc = ops->probe(env);

	if (rc == 0)
		rc = ops->open(&m, env);
	if (rc != 0)
		fail_msg("%s failed (%d): %s", ops->name, rc, rv_error_last());
	assert_non_null(m);
	assert_ptr_equal(m->ops, ops);
	return m;
}

/* Reads every domain of m; fails the test unless it works. */
static inline void rv_meter_read_ok(struct rv_meter *m, double *t_s, double *values)
{
	int rc = m->ops->read(m, t_s, values);

	if (rc != 0)
		fail_msg("%s read failed (%d): %s", m->ops->name, rc, rv_error_last());
}

/* Captures a null-kernel vector_add of 4096 fp32 with meter m on env, an
 * energy window of window_s and exactly 11 trials; the capture itself must succeed whatever the
 * meter does. */
static inline void rv_capture_null(struct rv_capture_result *r, const struct rv_env *env,
                                   struct rv_meter *m, double window_s)
{
	const struct rv_kernel_ops *k = rv_kernel_find("null");
	struct rv_capture_opts o = RV_CAPTURE_OPTS_DEFAULT;
	struct rv_shape s = { 1, { 4096, 0, 0 } };
	int rc;

	assert_non_null(k);
	o.min_window_s = window_s;
	o.precision = 0; /* exactly o.trials */
	rc = rv_capture_one(r, env, k, m, NULL, RV_OP_VECTOR_ADD, &s, RV_DTYPE_FP32, &o, NULL);
	if (rc != 0)
		fail_msg("rv_capture_one failed (%d): %s", rc, rv_error_last());
	assert_true(r->latency_s > 0);
}

#endif
