#!/usr/bin/env bash
# Two threads against one, sustained (docs/accuracy.md, "Session 15: two
# threads on the Zen 5 VM"): each GEMM run back to back for 0.3 s
# (results/dev-xeon/gemm-time.c's GEMM_TIME_LOOP_S: page-aligned, filled
# buffers, the call as the cblas capture makes it), its mean per call, on 1
# and 2 threads, with beta 0 (a matmul: OpenBLAS's zeroing pass, then the
# update) and beta 1 (the update alone).
#   1. small-K shapes, where C's passes are the call, the calibration rows
#      the model misses most, and a few large ones;
#   2. 8192 x 12 x N for N from 4 to 256: the time two threads add to half
#      of one thread's, per row of C;
#   3. a few shapes on two threads with sched_yield() replaced by a pause
#      loop (noyield.c, LD_PRELOAD): whether OpenBLAS's waiting is the cost.
# usage (from the repository root): results/dev-zen5/two-threads-c.sh > results/dev-zen5/two-threads-c.txt
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
gcc -O2 -shared -fPIC results/dev-zen5/noyield.c -o /tmp/noyield.so
us() { GEMM_TIME_LOOP_S=0.3 /tmp/gemm-time matmul "$@" | awk '{ print $(NF - 2) }'; }
date -u; uptime
echo "# 1. M K N: mean us per call, t1/t2 = threads, b0/b1 = beta"
for s in "2048 12 16" "2048 12 32" "2048 12 64" "2048 12 128" "2048 12 256" "2048 12 512" \
	"2048 12 1024" "2048 12 2048" "512 12 256" "8192 12 256" "2048 12 768" "2048 48 256" \
	"2048 192 256" "2048 768 256" "3072 64 16" "3072 64 32" "3072 64 64" "3072 64 128" \
	"8192 6 768" "64 128 48" "96 96 48" "512 48 32" "3 12288 16" "2 8192 512" \
	"12288 512 128" "2048 256 1024"; do
	printf '%-14s' "$s:"
	for t in 1 2; do
		for b in 0 1; do
			# shellcheck disable=SC2086
			printf ' t%s b%s %9.1f |' $t $b "$(us $s $t $b)"
		done
	done
	echo
done
echo "# 2. 8192 x 12 x N: us per call on 1 and 2 threads, and what two threads add to half of one, in ns per row of C"
for n in 4 5 6 8 12 16 20 24 32 48 64 96 128 256; do
	for b in 1 0; do
		a=$(us 8192 12 $n 1 $b) c=$(us 8192 12 $n 2 $b)
		awk -v n=$n -v b=$b -v a="$a" -v c="$c" 'BEGIN { printf "N=%-4d b%d t1 %7.1f t2 %7.1f adds %6.1f ns/row | ", n, b, a, c, (c - a / 2) * 1000 / 8192 }'
	done
	echo
done
echo "# 3. two threads, us per call: sched_yield as is, and as a pause loop (LD_PRELOAD noyield.so)"
for s in "2048 12 128" "8192 12 8" "2048 12 256" "64 128 48" "512 48 32" "3 12288 16"; do
	for b in 0 1; do
		# shellcheck disable=SC2086
		y=$(us $s 2 $b) p=$(LD_PRELOAD=/tmp/noyield.so us $s 2 $b)
		printf '%-12s b%s yield %8.1f pause %8.1f | ' "$s" $b "$y" "$p"
	done
	echo
done
date -u; uptime
