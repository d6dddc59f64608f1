/* SPDX-License-Identifier: MIT */
/* FLOP and byte counts of matmul, linear and vector_add: the one place that
 * knows them, so capture, model, reports and plots share one definition of
 * operational intensity. Ours counts every byte and FLOP the op must touch;
 * the reference harness's definitions are kept beside ours where they differ:
 *
 *   op          FLOP (ours)          bytes in / weights / out (ours)
 *   matmul      2MKN                 (MK + KN)e / 0 / MNe
 *   linear      2·B·IN·OUT + B·OUT   B·IN·e / (IN·OUT + OUT)e / B·OUT·e
 *   vector_add  N                    2Ne / 0 / Ne
 *
 *   reference: linear FLOP = 2·B·IN·OUT (bias add ignored); its working set
 *   excludes the bias (OUT·e); matmul and vector_add agree with ours. */
#ifndef RV_MODEL_OPCOUNT_H
#define RV_MODEL_OPCOUNT_H

#include "core/dtype.h"
#include "core/op.h"

struct rv_footprint {
	double flop;
	double input_B;  /* activations read */
	double weight_B; /* linear's weight and bias */
	double output_B;
	double working_set_B;        /* input + weight + output: the compulsory traffic */
	double intensity_flop_per_B; /* flop / working_set_B */
	double ref_flop;             /* the reference harness's definitions */
	double ref_working_set_B;
	double ref_intensity_flop_per_B;
};

/* Fills out for op on shape s in dtype d. RV_ERANGE when an element or FLOP
 * count overflows 64 bits; RV_EPARSE when the shape does not fit op. */
int rv_footprint_of(struct rv_footprint *out, enum rv_op op, const struct rv_shape *s,
                    enum rv_dtype d);

#endif
