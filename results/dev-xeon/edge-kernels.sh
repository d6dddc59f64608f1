#!/usr/bin/env bash
# OpenBLAS's edge kernels on one thread (docs/accuracy.md, "Session 14"):
# 512 x 512 x N and 1024 x 512 x N over N (our N is the BLAS's M, covered by
# the 16-wide kernel and, for N mod 16, one kernel per set bit: 8, 4, 2, 1),
# and M x 512 x 512 over M (our M is the BLAS's N: strips of 24, then 20 to
# 4 in steps of 4, then 2 and 1); four interleaved rounds, the least of each
# shape's best-of-7 times.
# usage (from the repository root): results/dev-xeon/edge-kernels.sh > results/dev-xeon/edge-kernels.txt
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
export OPENBLAS_CORETYPE=SkylakeX
date -u; uptime
{
	for r in 1 2 3 4; do
		for n in 2 3 4 8 12 16 17 18 19 20 22 24 28 31 32 48; do
			/tmp/gemm-time matmul 512 512 $n 1; /tmp/gemm-time matmul 1024 512 $n 1
		done
		for m in 48 50 52 56 60 64 68 72 96; do
			/tmp/gemm-time matmul $m 512 512 1
		done
	done
} | awk '{ v = $NF == "us" ? $(NF - 1) : $NF; if (!($1 in b) || v + 0 < b[$1]) b[$1] = v + 0 }
	END { for (s in b) printf "%s %.2f us\n", s, b[s] }' | sort -t x -k1,1n -k3,3n
