/* SPDX-License-Identifier: MIT */
/* Operators and their shapes: matmul (M,K,N), linear (B,IN,OUT), vector_add (N).
 * Shapes are written "MxKxN" in baselines and as arrays in sweeps. */
#ifndef RV_CORE_OP_H
#define RV_CORE_OP_H

#include <stddef.h>
#include <stdint.h>

enum rv_op { RV_OP_MATMUL, RV_OP_LINEAR, RV_OP_VECTOR_ADD, RV_OP_COUNT };

#define RV_SHAPE_MAX_DIMS 3
/* Largest accepted dimension: 2^40 elements, far beyond any memory, small
 * enough that footprints of valid shapes are computed without overflow checks
 * failing for ordinary inputs. */
#define RV_SHAPE_MAX_DIM  ((uint64_t)1 << 40)

struct rv_shape {
	unsigned ndim;
	uint64_t dim[RV_SHAPE_MAX_DIMS];
};

/* RV_EPARSE naming the known ops when name is not one of them. */
int rv_op_parse(const char *name, enum rv_op *out);
const char *rv_op_name(enum rv_op op);
unsigned rv_op_ndim(enum rv_op op);
/* Name of dimension i of op's shape ("M", "IN", ...). */
const char *rv_op_dim_name(enum rv_op op, unsigned i);

/* Parses "MxKxN" (or "N") for op. RV_EPARSE for non-numeric text or a wrong
 * number of dimensions, RV_ERANGE for zero or too large dimensions. */
int rv_shape_parse(const char *text, enum rv_op op, struct rv_shape *out);
/* Checks a shape given as numbers (from a sweep) with the same rules. */
int rv_shape_check(const struct rv_shape *s, enum rv_op op);
/* Writes "MxKxN"; returns the length, truncating like snprintf. */
int rv_shape_format(char *out, size_t size, const struct rv_shape *s);
/* Orders shapes as integer tuples. */
int rv_shape_cmp(const struct rv_shape *a, const struct rv_shape *b);

#endif
