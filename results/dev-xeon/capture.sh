#!/usr/bin/env bash
# Five captures of the Emerald Rapids VM's six sweep files (docs/accuracy.md,
# "The Xeon VM"), each --repeat 3, 45 s apart, then their per-row median
# (roofval baseline merge). OpenBLAS 0.3.21 does not know this CPU (family 6
# model 207) and falls back to its Prescott (SSE3) kernels, a quarter of the
# hardware's rate: every capture and the probe ran with OPENBLAS_CORETYPE=SkylakeX,
# as the shipped xeon_amx_2vcpu baselines' OpenBLAS chose by itself.
# usage (from the repository root): results/dev-xeon/capture.sh PREFIX [ROOFVAL]
#   writes PREFIXa/ .. PREFIXe/, their logs, and results/dev-xeon/baselines-merged/
set -euo pipefail
prefix=$1 rv=${2:-build/roofval} R=results/dev-xeon
export OPENBLAS_CORETYPE=SkylakeX
for x in a b c d e; do
	for op in matmul linear vector_add; do
		for p in calibration validation; do
			{ date -u; uptime; } >>"$prefix$x.log"
			"$rv" capture --hw xeon_emr_2vcpu --op $op --purpose $p --meter none \
				--repeat 3 --hardware-dir $R/hardware --sweep-dir $R/sweeps \
				--baseline-dir "$prefix$x" 2>&1 | grep -v '^\[' >>"$prefix$x.log"
		done
	done
	sleep 45
done
"$rv" baseline merge -o $R/baselines-merged "${prefix}a" "${prefix}b" "${prefix}c" \
	"${prefix}d" "${prefix}e"
