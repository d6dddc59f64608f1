#!/usr/bin/env bash
# OpenBLAS's zeroing pass (beta 0) against the update alone (beta 1), for
# M x 1 x 2048 (K = 1: C's traffic is the call; rows of 8 KB, each thread's
# half 4 KB) with C from 0.3 MB (L2) to 134 MB (beyond L3), on one and two
# threads (docs/accuracy.md, "Round 20"): the pass costs what fraction of
# the update's time per byte of C.
# usage (from the repository root): results/dev-xeon/zero-pass.sh > results/dev-xeon/zero-pass-wide.txt
# With --rounds: three calibration shapes of round 16 instead, beta 0 and 1
# on two threads, three rounds (> results/dev-xeon/zero-pass.txt).
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
export OPENBLAS_CORETYPE=SkylakeX
date -u; uptime
if [ "${1:-}" = --rounds ]; then
	for r in 1 2 3; do
		for s in "2048 1 6144" "6144 2 512" "16384 16 2048"; do
			# shellcheck disable=SC2086
			/tmp/gemm-time matmul $s 2 0; /tmp/gemm-time matmul $s 2 1
		done
	done
	exit 0
fi
for m in 32 192 1536 6144 16384; do
	for t in 1 2; do
		z=$(/tmp/gemm-time matmul $m 1 2048 $t 0 | sed 's/.*: \([0-9.]*\) us/\1/')
		u=$(/tmp/gemm-time matmul $m 1 2048 $t 1 | sed 's/.*: \([0-9.]*\) us/\1/')
		awk -v m=$m -v t=$t -v z="$z" -v u="$u" 'BEGIN { printf "%dx1x2048 %d thr, C %.1f MB: beta 0 %.1f us, beta 1 %.1f us, the pass %.1f us = %.2f of the update per byte\n", m, t, m * 2048 * 4 / 1e6, z, u, z - u, (z - u) / (u / 2) }'
	done
done
