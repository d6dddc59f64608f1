#!/usr/bin/env bash
# OpenBLAS's threaded driver (driver/level3/level3_thread.c) steps through K
# in steps of GEMM_Q (320 for sgemm on the Haswell kernels this VM runs) and
# hands each step's packed panels between the threads: what a step costs
# (docs/accuracy.md, "Round 11 on the Zen 5 VM"). M x K x N (beta 1) on 1
# and 2 threads, run back to back for 0.25 s (results/dev-xeon/gemm-time.c's
# GEMM_TIME_LOOP_S), K from 320 to 12288: what two threads take beyond half
# of one thread's time, in all and per step of K (ceil(K / 320)). 3 x K x 16
# runs on one thread up to M*N*K 262144 (K 5120), 64 x K x 64 on two
# throughout. Then 8 x 2560 x N (8 steps) for N from 32 to 1024: how what
# two threads add grows with the bytes of our B that a step packs.
# usage (from the repository root): results/dev-zen5/k-steps.sh > results/dev-zen5/k-steps.txt
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
us() { GEMM_TIME_LOOP_S=0.25 /tmp/gemm-time matmul "$@" 1 | awk '{ print $(NF - 2) }'; }
date -u; uptime
for s in "3 16" "64 64" "8 256"; do
	# shellcheck disable=SC2086
	set -- $s
	for k in 320 640 1280 2560 5120 8192 12288 16384; do
		a=$(us "$1" $k "$2" 1) b=$(us "$1" $k "$2" 2)
		awk -v m="$1" -v n="$2" -v k=$k -v a="$a" -v b="$b" 'BEGIN {
			s = int((k + 319) / 320)
			printf "%sx%dx%s: %3d steps, 1 thread %8.1f us, 2 threads %8.1f us, beyond half of one %7.1f us, %5.2f us per step\n",
				m, k, n, s, a, b, b - a / 2, (b - a / 2) / s }'
	done
done
for n in 32 64 128 256 512 1024; do
	a=$(us 8 2560 $n 1) b=$(us 8 2560 $n 2)
	awk -v n=$n -v a="$a" -v b="$b" 'BEGIN {
		x = b - a / 2
		printf "8x2560x%d: 1 thread %8.1f us, 2 threads %8.1f us, beyond half of one %7.1f us, %5.2f us per step, %.3f ns per byte of B\n",
			n, a, b, x, x / 8, x * 1000 / (2560 * n * 4) }'
done
date -u; uptime
