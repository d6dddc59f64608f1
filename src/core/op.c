/* SPDX-License-Identifier: MIT */
/* Operator names and shape parsing. */
#include "core/op.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/near.h"
#include "core/strnum.h"

static const struct {
	const char *name;
	unsigned ndim;
	const char *dims[RV_SHAPE_MAX_DIMS];
	const char *form;
} rv_ops[RV_OP_COUNT] = {
	[RV_OP_MATMUL] = { "matmul", 3, { "M", "K", "N" }, "MxKxN" },
	[RV_OP_LINEAR] = { "linear", 3, { "B", "IN", "OUT" }, "BxINxOUT" },
	[RV_OP_VECTOR_ADD] = { "vector_add", 1, { "N", NULL, NULL }, "N" },
};

int rv_op_parse(const char *name, enum rv_op *out)
{
	for (int i = 0; i < RV_OP_COUNT; i++) {
		if (strcmp(name, rv_ops[i].name) == 0) {
			*out = (enum rv_op)i;
			return 0;
		}
	}
	{
		const char *names[RV_OP_COUNT];
		char near[96];

		for (int i = 0; i < RV_OP_COUNT; i++)
			names[i] = rv_ops[i].name;
		return rv_error_set(
		        RV_EPARSE, "unknown op '%s' (known: matmul linear vector_add)%s", name,
		        rv_near_hint(near, sizeof(near), name, names, RV_OP_COUNT, NULL));
	}
}

const char *rv_op_name(enum rv_op op)
{
	return (unsigned)op < RV_OP_COUNT ? rv_ops[op].name : "?";
}

unsigned rv_op_ndim(enum rv_op op)
{
	return (unsigned)op < RV_OP_COUNT ? rv_ops[op].ndim : 0;
}

const char *rv_op_dim_name(enum rv_op op, unsigned i)
{
	return (unsigned)op < RV_OP_COUNT && i < rv_ops[op].ndim ? rv_ops[op].dims[i] : "?";
}

int rv_shape_check(const struct rv_shape *s, enum rv_op op)
{
	uint64_t prod = 1;

	if ((unsigned)op >= RV_OP_COUNT)
		return rv_error_set(RV_EPARSE, "unknown op");
	if (s->ndim != rv_op_ndim(op))
		return rv_error_set(RV_EPARSE, "%s takes %u dimensions (%s), not %u",
		                    rv_op_name(op), rv_op_ndim(op), rv_ops[op].form, s->ndim);
	for (unsigned i = 0; i < s->ndim; i++) {
		if (s->dim[i] == 0)
			return rv_error_set(RV_ERANGE,
			                    "dimension %s is 0; every dimension must be at least 1",
			                    rv_op_dim_name(op, i));
		if (s->dim[i] > RV_SHAPE_MAX_DIM)
			return rv_error_set(RV_ERANGE,
			                    "dimension %s = %" PRIu64 " is larger than %" PRIu64
			                    "; pick a smaller shape",
			                    rv_op_dim_name(op, i), s->dim[i], RV_SHAPE_MAX_DIM);
	}
	/* Footprints count bits of up to twice the product of the dimensions, at
	 * up to 64 bits each: 256 times the product must fit in 64 bits, so that
	 * every load refuses such a shape, not the model much later. */
	for (unsigned i = 0; i < s->ndim; i++) {
		if (s->dim[i] > UINT64_MAX / 256 / prod)
			return rv_error_set(RV_ERANGE,
			                    "%s is too large: its FLOP and byte counts overflow 64 "
			                    "bits; pick a smaller shape",
			                    rv_ops[op].form);
		prod *= s->dim[i];
	}
	return 0;
}

int rv_shape_parse(const char *text, enum rv_op op, struct rv_shape *out)
{
	struct rv_shape s = { 0, { 0, 0, 0 } };
	const char *p = text;
	char part[32];
	int err;

	for (;;) {
		size_t len = strcspn(p, "x");

		if (s.ndim == RV_SHAPE_MAX_DIMS || len == 0 || len >= sizeof(part))
			goto bad;
		memcpy(part, p, len);
		part[len] = '\0';
		err = rv_parse_u64(part, &s.dim[s.ndim]);
		if (err == RV_ERANGE)
			return rv_error_set(RV_ERANGE, "shape '%s': %s", text, rv_error_last());
		if (err < 0)
			goto bad;
		s.ndim++;
		p += len;
		if (*p == '\0')
			break;
		p++;
	}
	err = rv_shape_check(&s, op);
	if (err < 0)
		return rv_error_wrap(err, "shape '%s'", text);
	*out = s;
	return 0;
bad:
	return rv_error_set(RV_EPARSE, "shape '%s' is not of the form %s with positive integers",
	                    text, rv_ops[op].form);
}

int rv_shape_format(char *out, size_t size, const struct rv_shape *s)
{
	char tmp[RV_SHAPE_MAX_DIMS * 22];
	size_t n = 0;

	tmp[0] = '\0';
	for (unsigned i = 0; i < s->ndim && i < RV_SHAPE_MAX_DIMS; i++)
		n += (size_t)snprintf(tmp + n, sizeof(tmp) - n, "%s%" PRIu64, i ? "x" : "",
		                      s->dim[i]);
	return snprintf(out, size, "%s", tmp);
}

int rv_shape_cmp(const struct rv_shape *a, const struct rv_shape *b)
{
	unsigned n = a->ndim < b->ndim ? a->ndim : b->ndim;

	for (unsigned i = 0; i < n; i++)
		if (a->dim[i] != b->dim[i])
			return a->dim[i] < b->dim[i] ? -1 : 1;
	return (a->ndim > b->ndim) - (a->ndim < b->ndim);
}
