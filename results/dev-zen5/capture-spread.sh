#!/usr/bin/env bash
# Three more captures of the Zen 5 VM's six files (docs/accuracy.md, "Round 8"),
# each with --repeat 3 like captures A and B, 45 s apart, so that they see
# the machine at different times; roofval baseline merge then takes the
# median of A to E per row. usage (from the repository root):
#   results/dev-zen5/capture-spread.sh PREFIX   (writes PREFIXc/, PREFIXd/, PREFIXe/ and their logs)
# The committed baselines-c/, -d/ and -e/ were captured by these commands into
# /tmp/capC, /tmp/capD and /tmp/capE (the folders their manifests name) on
# 2026-12-05 and copied here.
set -euo pipefail
prefix=$1 R=results/dev-zen5
for x in c d e; do
	for op in matmul linear vector_add; do
		for p in calibration validation; do
			{ date -u; uptime; } >>"$prefix$x.log"
			build/roofval capture --hw epyc_zen5_2vcpu --op $op --purpose $p --meter none \
				--repeat 3 --hardware-dir $R/hardware --sweep-dir $R/sweeps \
				--baseline-dir "$prefix$x" 2>&1 | grep -v '^\[' >>"$prefix$x.log"
		done
	done
	sleep 45
done
build/roofval baseline merge -o $R/baselines-merged $R/baselines $R/baselines-repeat \
	"${prefix}c" "${prefix}d" "${prefix}e"
