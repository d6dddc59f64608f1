#!/usr/bin/env bash
# The two-thread cost of splitting every row of C (docs/accuracy.md,
# "Round 15"): GEMMs of K = 6 on one and two threads over N (beta 0 and 1),
# and the same split of C's rows without a GEMM (split-rows.c).
# usage (from the repository root): results/dev-xeon/split-rows.sh > results/dev-xeon/split-rows.txt
set -euo pipefail
R=results/dev-xeon
gcc -O2 $R/gemm-time.c -o /tmp/gemm-time -lopenblas
gcc -O2 -pthread $R/split-rows.c -o /tmp/split-rows
export OPENBLAS_CORETYPE=SkylakeX
date -u; uptime
for beta in 0 1; do
	for n in 16 32 64 128 256 512 1024 2048; do
		m=$((786432 / n)); [ $m -gt 16384 ] && m=16384
		/tmp/gemm-time matmul $m 6 $n 2 $beta; /tmp/gemm-time matmul $m 6 $n 1 $beta
	done
done
for s in "6144 128" "1536 128" "6144 32" "16384 32"; do
	/tmp/split-rows $s 1; /tmp/split-rows $s 2; /tmp/split-rows $s 2 1
done
