#!/usr/bin/env bash
# The packed GEMM kernel's time by the width of PyTorch's M (the BLAS's N,
# which OpenBLAS's Haswell sgemm kernel covers in blocks 12, 8, 4, 2 and 1
# wide) and by K, on one thread: W x K x 192 as the cblas capture calls it
# (gemm-time.c), its best time (best of 7 rounds), and the kernel's share of
# perf's samples of the call run back to back for a second (as call-parts.sh
# sums them). Per block-step: the kernel's time over the 24 blocks of 8 rows
# of N (192 / 8) and K.
# usage (from the repository root): results/dev-zen5/kernel-blocks.sh > results/dev-zen5/kernel-blocks.txt
set -euo pipefail
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
data=$(mktemp)
trap 'rm -f "$data"' EXIT
date -u; uptime
echo "# M K N: best_us, kernel share of samples (%), kernel_us, ns per block-step (24 blocks x K)"
for m in ${WIDTHS:-1 2 3 4 6 8 12 16 24}; do
	for k in ${DEPTHS:-1 2 4 8 16 48 192}; do
		best=$(/tmp/gemm-time matmul "$m" "$k" 192 1 | sed 's/.*: \([0-9.]*\) us/\1/')
		GEMM_TIME_LOOP_S=1 perf record -q -o "$data" /tmp/gemm-time matmul "$m" "$k" 192 1 >/dev/null 2>&1
		perf report -i "$data" --stdio --sort symbol 2>/dev/null | grep -v '^#' |
			awk -v m="$m" -v k="$k" -v best="$best" '
			NF >= 3 { p = $1; sub("%", "", p); if ($3 ~ /sgemm_kernel/) s += p }
			END { printf "%3d %4d 192: %9.2f us %5.1f%% %9.3f us %7.3f ns\n", m, k, best, s, best * s / 100, best * s / 100 / (24 * k) * 1e3 }'
	done
done
date -u; uptime
