/* SPDX-License-Identifier: MIT */
/* Regime labels, as written in sweeps (regime_per_hw) and reports. */
#ifndef RV_CORE_REGIME_H
#define RV_CORE_REGIME_H

enum rv_regime {
	RV_REGIME_ALU,
	RV_REGIME_L1,
	RV_REGIME_L2,
	RV_REGIME_DRAM,
	RV_REGIME_LAUNCH,
	RV_REGIME_AMBIGUOUS,
	RV_REGIME_UNSUPPORTED,
	RV_REGIME_COUNT
};

/* RV_EPARSE naming the known labels when name is not one of them. */
int rv_regime_parse(const char *name, enum rv_regime *out);
/* "alu_bound", "l1_bound", ..., "ambiguous", "unsupported". */
const char *rv_regime_name(enum rv_regime r);

#endif
