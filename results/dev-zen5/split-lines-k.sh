#!/usr/bin/env bash
# OpenBLAS 2048 x K x 128 (matmul NN, beta 1) on one and two threads for K
# from 1 to 320 (one step of its K loop): what two threads take beyond half
# of one, per row of M and per 64-byte line of one thread's half of a row of
# C (4 lines), with the vCPUs' round trip before and after (docs/accuracy.md,
# "Session 17"; the rows include the shared panels of A, K x 4 B a row).
# usage (from the repository root): results/dev-zen5/split-lines-k.sh > results/dev-zen5/split-lines-k.txt
set -euo pipefail
R=results/dev-zen5
gcc -O2 -pthread $R/core-pingpong.c -o /tmp/core-pingpong
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
us() { GEMM_TIME_LOOP_S=0.3 /tmp/gemm-time matmul "$@" | awk '{ print $(NF - 2) }'; }
date -u; uptime; /tmp/core-pingpong | tail -1
for k in 1 2 4 8 12 24 48 96 192 320; do
	a=$(us 2048 $k 128 1 1) b=$(us 2048 $k 128 2 1)
	awk -v s="2048x${k}x128" -v a=$a -v b=$b 'BEGIN { r = (b - a / 2) * 1000 / 2048
		printf "%-12s t1 %8.1f t2 %8.1f  %6.1f ns/row %5.1f ns/line\n", s, a, b, r, r / 4 }'
done
date -u; /tmp/core-pingpong | tail -1
