#!/usr/bin/env bash
# Two threads that split N (OpenBLAS's threaded driver splits the BLAS's M,
# our N, from N = 4 on): what they take beyond half of one thread's time,
# per row of our M and per 64-byte cache line of one thread's half of a row
# of C, with beta 1 (the kernel's pass over C alone) and with beta 0 (a
# matmul: OpenBLAS's separate pass that zeroes C, then the kernel's); and a
# plain update loop split the same ways (c-apart.c). The round trip of a
# cache line between the vCPUs (core-pingpong.c) before and after: the cost
# depends on where the host keeps them (docs/accuracy.md, "Session 17").
# usage (from the repository root): results/dev-zen5/split-lines.sh > results/dev-zen5/split-lines.txt
set -euo pipefail
R=results/dev-zen5
gcc -O2 -pthread $R/c-apart.c -o /tmp/c-apart
gcc -O2 -pthread $R/core-pingpong.c -o /tmp/core-pingpong
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
us() { GEMM_TIME_LOOP_S=0.3 /tmp/gemm-time matmul "$@" | awk '{ print $(NF - 2) }'; }
date -u; uptime; /tmp/core-pingpong | tail -1
echo "# the update loop, 500 rounds: one thread on CPU 0, on CPU 1; two on buffers of their own;"
echo "# two splitting every column (rows-split, OpenBLAS's split of our N); two splitting the columns"
for s in "256 128" "2048 128" "2048 1024" "8192 16" "192 192" "8192 768"; do /tmp/c-apart $s 500; done
/tmp/core-pingpong | tail -1
echo "# OpenBLAS M x K x N (matmul NN, row-major), us per call, 0.3 s back to back each;"
echo "# per row: two threads beyond half of one; per line: of one thread's half of a row of C"
printf "%-12s %8s %8s %8s %8s | %9s %9s | %7s %10s\n" shape t1b1 t2b1 t1b0 t2b0 "b1 ns/row" "b0 ns/row" "b1/line" "(b0-b1)/line"
for s in "2048 12 16" "2048 12 32" "2048 12 64" "2048 12 128" "2048 12 192" "2048 12 256" "2048 12 384" "2048 12 512" "2048 12 768" "2048 12 1024" "512 12 16" "512 12 64" "512 12 128" "512 12 256" "512 12 512" "512 12 768"; do
	set -- $s
	a=$(us $1 $2 $3 1 1) b=$(us $1 $2 $3 2 1) c=$(us $1 $2 $3 1 0) d=$(us $1 $2 $3 2 0)
	awk -v s="${1}x${2}x${3}" -v a=$a -v b=$b -v c=$c -v d=$d -v m=$1 -v n=$3 'BEGIN {
		lines = int((n / 2 * 4 + 63) / 64)
		r1 = (b - a / 2) * 1000 / m; r0 = (d - c / 2) * 1000 / m
		printf "%-12s %8.1f %8.1f %8.1f %8.1f | %9.1f %9.1f | %7.1f %10.1f\n", s, a, b, c, d, r1, r0, r1 / lines, (r0 - r1) / lines }'
done
date -u; uptime; /tmp/core-pingpong | tail -1
