#!/usr/bin/env bash
# A linear's bias copy against its GEMM (docs/accuracy.md, "Round 15" and
# "Round 19"): gemm-time.c linear, the call whole, its GEMM alone and its
# bias copy alone, on two threads and on one.
# usage (from the repository root): results/dev-xeon/bias-gemm.sh > results/dev-xeon/bias-gemm.txt
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
export OPENBLAS_CORETYPE=SkylakeX
date -u; uptime
for s in "16384 4 32" "48 8 8192" "192 4 384" "384 2 12" "32 1 256" "16 2 512" "3072 32 1536"; do
	for t in 2 1; do
		# shellcheck disable=SC2086
		/tmp/gemm-time linear $s $t
	done
done
