/* SPDX-License-Identifier: MIT */
/* Regime label names. */
#include "core/regime.h"

#include <string.h>

#include "core/error.h"

static const char *const rv_regime_names[RV_REGIME_COUNT] = {
	[RV_REGIME_ALU] = "alu_bound",
	[RV_REGIME_L1] = "l1_bound",
	[RV_REGIME_L2] = "l2_bound",
	[RV_REGIME_DRAM] = "dram_bound",
	[RV_REGIME_LAUNCH] = "launch_bound",
	[RV_REGIME_AMBIGUOUS] = "ambiguous",
	[RV_REGIME_UNSUPPORTED] = "unsupported",
};

int rv_regime_parse(const char *name, enum rv_regime *out)
{
	for (int i = 0; i < RV_REGIME_COUNT; i++) {
		if (strcmp(name, rv_regime_names[i]) == 0) {
			*out = (enum rv_regime)i;
			return 0;
		}
	}
	return rv_error_set(RV_EPARSE,
	                    "unknown regime '%s' (known: alu_bound l1_bound l2_bound dram_bound "
	                    "launch_bound ambiguous unsupported)",
	                    name);
}

const char *rv_regime_name(enum rv_regime r)
{
	return (unsigned)r < RV_REGIME_COUNT ? rv_regime_names[r] : "?";
}
