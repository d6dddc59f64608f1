#!/usr/bin/env bash
# A linear as the cblas capture makes it (its bias copied into every row of
# C on the calling thread, then cblas_sgemm with beta 1) on one and two
# threads: the whole call, its GEMM alone and its bias copy alone, each back
# to back for 0.3 s (results/dev-xeon/gemm-time.c's GEMM_TIME_LOOP_S and
# GEMM_TIME_PART), M x 16 x 256 with C from 256 KB to 32 MB. On two threads
# the whole call takes longer than its parts apart: the share of C the
# second thread updates crosses from the core where the copy wrote it, and
# back at the next copy (docs/accuracy.md, "Session 15", round 12).
# usage (from the repository root): results/dev-zen5/bias-handoff.sh > results/dev-zen5/bias-handoff.txt
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
us() { GEMM_TIME_LOOP_S=0.3 GEMM_TIME_PART=$1 /tmp/gemm-time linear "${@:2}" | awk '{ print $(NF - 2) }'; }
date -u; uptime
echo "# M K N threads: whole, GEMM alone, copy alone (us per call); whole minus the parts, in all and in ns per byte of C"
for m in 256 1024 2048 4096 8192 16384 32768; do
	for t in 1 2; do
		w=$(us 0 $m 16 256 $t) g=$(us 1 $m 16 256 $t) c=$(us 2 $m 16 256 $t)
		awk -v m=$m -v t=$t -v w="$w" -v g="$g" -v c="$c" 'BEGIN {
			x = w - g - c
			printf "%5dx16x256 t%d: whole %8.1f, GEMM %8.1f, copy %7.1f | %+7.1f us, %+.3f ns/B\n", m, t, w, g, c, x, x * 1000 / (m * 256 * 4) }'
	done
done
date -u; uptime
