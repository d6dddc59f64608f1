/* SPDX-License-Identifier: MIT */
/* Footprints of the supported ops. Counts are formed in 64-bit integers with
 * overflow checks, then kept as doubles for the model. */
#include "model/opcount.h"

#include <stdint.h>

#include "core/error.h"

struct counter {
	int overflow;
};

static uint64_t mul(struct counter *c, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		c->overflow = 1;
	return r;
}

static uint64_t add(struct counter *c, uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r))
		c->overflow = 1;
	return r;
}

/* Bytes of n elements of bits each, rounded up to whole bytes. */
static double bytes_of(struct counter *c, uint64_t n, unsigned bits)
{
	return (double)(add(c, mul(c, n, bits), 7) / 8);
}

int rv_footprint_of(struct rv_footprint *out, enum rv_op op, const struct rv_shape *s,
                    enum rv_dtype d)
{
	struct counter c = { 0 };
	unsigned bits = rv_dtype_bits(d);
	const uint64_t *x = s->dim;
	double bias_B = 0, bias_flop = 0;
	int err = rv_shape_check(s, op);

	if (err < 0)
		return err;
	*out = (struct rv_footprint){ 0 };
	switch (op) {
	case RV_OP_MATMUL: /* (M, K, N) */
		out->flop = (double)mul(&c, 2, mul(&c, x[0], mul(&c, x[1], x[2])));
		out->input_B =
		        bytes_of(&c, add(&c, mul(&c, x[0], x[1]), mul(&c, x[1], x[2])), bits);
		out->output_B = bytes_of(&c, mul(&c, x[0], x[2]), bits);
		break;
	case RV_OP_LINEAR: /* (B, IN, OUT) */
		out->flop = (double)mul(&c, 2, mul(&c, x[0], mul(&c, x[1], x[2])));
		bias_flop = (double)mul(&c, x[0], x[2]);
		out->input_B = bytes_of(&c, mul(&c, x[0], x[1]), bits);
		bias_B = bytes_of(&c, x[2], bits);
		out->weight_B = bytes_of(&c, mul(&c, x[1], x[2]), bits) + bias_B;
		out->output_B = bytes_of(&c, mul(&c, x[0], x[2]), bits);
		break;
	case RV_OP_VECTOR_ADD: /* (N) */
		out->flop = (double)x[0];
		out->input_B = bytes_of(&c, mul(&c, 2, x[0]), bits);
		out->output_B = bytes_of(&c, x[0], bits);
		break;
	default:
		return rv_error_set(RV_EPARSE, "unknown op");
	}
	if (c.overflow)
		return rv_error_set(
		        RV_ERANGE,
		        "%s shape is too large: its element or FLOP counts overflow 64 bits",
		        rv_op_name(op));
	out->ref_flop = out->flop;
	out->flop += bias_flop;
	out->working_set_B = out->input_B + out->weight_B + out->output_B;
	out->intensity_flop_per_B = out->flop / out->working_set_B;
	out->ref_working_set_B = out->working_set_B - bias_B;
	out->ref_intensity_flop_per_B = out->ref_flop / out->ref_working_set_B;
	return 0;
}
