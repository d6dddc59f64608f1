#!/usr/bin/env bash
# How fast OpenBLAS packs our B on one thread, a matmul's (B as stored, K x
# N) against a linear's (the weight, N x K, transposed), for calls whose
# time is mostly that copy (small M): each GEMM back to back for 0.2 s
# (results/dev-xeon/gemm-time.c; a linear's GEMM alone, GEMM_TIME_PART 1),
# and B's bytes over that time (docs/accuracy.md, "Session 15").
# usage (from the repository root): results/dev-zen5/pack-b.sh > results/dev-zen5/pack-b.txt
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
date -u; uptime
for s in "1 256 256" "1 512 512" "1 1024 1024" "1 2048 1024" "1 2048 2048" "4 1024 1024" "16 1024 1024"; do
	printf '%-13s' "$s:"
	for op in matmul linear; do
		# shellcheck disable=SC2086
		v=$(GEMM_TIME_LOOP_S=0.2 GEMM_TIME_PART=1 /tmp/gemm-time $op $s 1 1 | awk '{ print $(NF - 2) }')
		# shellcheck disable=SC2086
		set -- $s
		awk -v op=$op -v v="$v" -v k="$2" -v n="$3" 'BEGIN { printf " %s %8.1f us (%5.1f GB/s of B) |", op, v, k * n * 4 / v / 1e3 }'
	done
	echo
done
date -u; uptime
