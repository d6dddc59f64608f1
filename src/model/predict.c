/* SPDX-License-Identifier: MIT */
/* The analytical latency and energy model: the profile's executor's body
 * (model/executor.h) on the roofline core (model/roofline.h), then the
 * per-call overhead and the energy terms. */
#include "model/predict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/error.h"
#include "model/executor.h"

const char *rv_bound_name(int binding)
{
	if (binding == RV_BOUND_COMPUTE)
		return "compute";
	if (binding == RV_BOUND_OVERHEAD)
		return "overhead";
	return rv_tier_name((enum rv_tier)binding);
}

int rv_predict(struct rv_prediction *out, const struct rv_profile *p, enum rv_op op,
               const struct rv_shape *s, enum rv_dtype d)
{
	const struct rv_compute *c = rv_profile_compute(p, d);
	const struct rv_executor_ops *x = rv_executor_ops(p->executor);
	struct rv_prediction r;
	double e = rv_dtype_bytes(d), body_s;
	int err;

	memset(&r, 0, sizeof(r));
	err = rv_footprint_of(&r.footprint, op, s, d);
	if (err < 0)
		return err;
	if (!c) {
		struct rv_buf have = RV_BUF_INIT;

		for (size_t i = 0; i < p->n_compute; i++)
			rv_buf_printf(&have, " %s", rv_dtype_name(p->compute[i].dtype));
		err = rv_error_set(RV_ENOTSUP, "%s is unsupported on %s (its profile lists%s)",
		                   rv_dtype_name(d), p->key, rv_buf_str(&have));
		rv_buf_free(&have);
		return err;
	}
	if (op == RV_OP_VECTOR_ADD)
		body_s = x->elementwise(&r, p, c, s, d);
	else
		body_s = x->gemm(&r, p, c, s, op, e);
	r.overhead_s = p->op_overhead_s[op];
	r.latency_s = r.overhead_s + body_s;
	if (r.overhead_s > body_s)
		r.binding = RV_BOUND_OVERHEAD;

	r.static_J = p->static_W * r.latency_s;
	r.flop_J = c->energy_per_flop_J * r.footprint.flop;
	for (size_t i = 0; i < p->n_memory; i++)
		r.bytes_J += p->memory[i].energy_per_byte_J * r.tier_B[p->memory[i].tier];
	r.energy_J = r.static_J + r.flop_J + r.bytes_J;
	/* Every value of a profile or fit is finite and positive, but extreme ones
	 * (1e-300 B/s, 1e308 J per FLOP) overflow: never hand on infinities. */
	if (!isfinite(r.latency_s) || !isfinite(r.energy_J) || !(r.latency_s > 0)) {
		char shape[80];

		(void)rv_shape_format(shape, sizeof(shape), s);
		return rv_error_set(
		        RV_ERANGE,
		        "%s %s %s on %s: the model gives %g s and %g J; a value of %s%s "
		        "is out of any physical range: fix it (roofval hw show %s "
		        "prints them all)",
		        rv_op_name(op), shape, rv_dtype_name(d), p->key, r.latency_s, r.energy_J,
		        p->path ? p->path : p->key, p->fit_path ? " or its fit" : "", p->key);
	}
	*out = r;
	return 0;
}
