#!/usr/bin/env bash
# Two threads that split every column of C: a plain update loop
# (c-halves.c) and OpenBLAS's M x 12 x N with beta 1 on one and two threads
# (results/dev-xeon/gemm-time.c, 0.15 s back to back each), with the round
# trip of a cache line between the vCPUs (core-pingpong.c) before and after:
# what two threads add beyond half of one, per byte of C, depends on where
# the host keeps the vCPUs (docs/accuracy.md, "Session 16").
# usage (from the repository root): results/dev-zen5/c-split.sh > results/dev-zen5/c-split.txt
set -euo pipefail
R=results/dev-zen5
gcc -O2 -pthread $R/c-halves.c -o /tmp/c-halves
gcc -O2 -pthread $R/core-pingpong.c -o /tmp/core-pingpong
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
us() { GEMM_TIME_LOOP_S=0.15 /tmp/gemm-time matmul "$@" 1 | awk '{ print $(NF - 2) }'; }
date -u; uptime; /tmp/core-pingpong
echo "# the update loop, 2000 rounds"
for s in "256 128" "2048 128" "2048 256" "2048 1024" "8192 16"; do /tmp/c-halves $s 2000; done
/tmp/core-pingpong
echo "# OpenBLAS M x 12 x N, beta 1: us per call on one and two threads, two against half of one"
for s in "512 12 128" "2048 12 64" "2048 12 128" "2048 12 256" "4096 12 256" "8192 12 16" "8192 12 128"; do
	a=$(us $s 1) b=$(us $s 2)
	set -- $s
	awk -v s="${1}x${2}x${3}" -v a="$a" -v b="$b" -v bytes=$(($1 * $3 * 4)) 'BEGIN {
		printf "%-12s t1 %8.1f  t2 %8.1f  two - one/2 %7.1f us, %.3f ns/B\n", s, a, b, b - a / 2, (b - a / 2) * 1000 / bytes }'
done
date -u; uptime; /tmp/core-pingpong
