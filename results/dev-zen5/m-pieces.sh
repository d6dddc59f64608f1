#!/usr/bin/env bash
# OpenBLAS's threaded driver (driver/level3/level3_thread.c) cuts the BLAS's
# N (our M) into a range per thread and each range into DIVIDE_RATE (2)
# pieces, and every thread runs its kernels over every piece, each with edge
# kernels of its own. On two threads M x 512 x 512 is as fast as M's pieces
# are whole tiles: 16, 32, 48, 64 (pieces of 4, 8, 12, 16) against 12, 20,
# 24, 28, 40 (pieces of 3, 5, 6, 7, 10). One and two threads, back to back
# for 0.2 s each (results/dev-xeon/gemm-time.c), with the round trip of a
# cache line between the two vCPUs (core-pingpong.c) before and after
# (docs/accuracy.md, "Session 16"). Then M x 24 x 16384 for M from 1 to 8:
# M = 2 and 4 on two threads run pieces of one row, which cost less than
# a whole tile.
# usage (from the repository root): results/dev-zen5/m-pieces.sh > results/dev-zen5/m-pieces.txt
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
gcc -O2 -pthread results/dev-zen5/core-pingpong.c -o /tmp/core-pingpong
us() { GEMM_TIME_LOOP_S=0.2 /tmp/gemm-time "$@" | awk '{ print $(NF - 2) }'; }
date -u; uptime; /tmp/core-pingpong
echo "# op M K N: us per call on one thread, on two, and two against half of one"
for op in linear matmul; do
	for m in 4 8 12 16 20 24 28 32 40 48 64; do
		a=$(us $op $m 512 512 1) b=$(us $op $m 512 512 2)
		awk -v op=$op -v m=$m -v a="$a" -v b="$b" 'BEGIN {
			printf "%-6s %3dx512x512: t1 %8.2f  t2 %8.2f  t2 / (t1 / 2) %5.2f\n", op, m, a, b, b / (a / 2) }'
	done
done
echo "# linear M x 24 x 16384: us per call on one thread and on two"
for m in 1 2 3 4 8; do
	printf "linear %dx24x16384: t1 %8.2f  t2 %8.2f\n" $m "$(us linear $m 24 16384 1)" "$(us linear $m 24 16384 2)"
done
date -u; uptime; /tmp/core-pingpong
