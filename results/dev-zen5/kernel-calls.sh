#!/usr/bin/env bash
# OpenBLAS's one-thread driver (driver/level3/level3.c) calls its copy and
# kernel once per 3 x GEMM_UNROLL_N = 12 columns of the BLAS's N (our M)
# in every block of GEMM_P rows of its M (our N) and GEMM_Q of K (320 and
# 320 for sgemm on the Haswell kernels): a time per call that tiny GEMMs
# show (docs/accuracy.md, "Session 15"). M x 1 x 1 against 1 x 1 x M on one
# thread (results/dev-xeon/gemm-time.c, best of 7 rounds of 3 ms).
# usage (from the repository root): results/dev-zen5/kernel-calls.sh > results/dev-zen5/kernel-calls.txt
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
us() { /tmp/gemm-time matmul "$@" 1 | awk '{ print $(NF - 1) }'; }
date -u; uptime
for d in 12 24 48 96 192 384 768 1536; do
	a=$(us $d 1 1) b=$(us 1 1 $d)
	awk -v d=$d -v a="$a" -v b="$b" 'BEGIN {
		printf "%5dx1x1 %7.3f us, %5.1f ns per 12 rows | 1x1x%-5d %7.3f us\n", d, a, a * 1000 / (d / 12), d, b }'
done
date -u; uptime
