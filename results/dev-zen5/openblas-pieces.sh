#!/usr/bin/env bash
# One-thread OpenBLAS costs behind the round-8 experiments (docs/accuracy.md,
# "Round 8"), medians of 301 calls (openblas-calls.c):
#  - M x K x 512 for M = 1 to 48 at K = 16, 64, 256: the cost of a partial
#    piece along our M (pieces of 12, then 4, then 2 and 1 rows, as the
#    driver and kernel cut M), fitted by openblas-pieces.py;
#  - M x 1 x 1 and 1 x 1 x N: the fixed cost per row of our M, against per
#    column of our N;
#  - 1, 4 and 12 x K x N with large K x N: the time to pack our B.
set -euo pipefail
cc -O2 "$(dirname "$0")/openblas-calls.c" -o /tmp/openblas-calls -lopenblas
export OPENBLAS_NUM_THREADS=1
date -u
uptime
med() { /tmp/openblas-calls "$@" 301 | awk '{print $(NF-2)}'; }
for K in 16 64 256; do
	line="M x $K x 512:"
	for M in 1 2 3 4 5 6 7 8 11 12 16 24 48; do line="$line $M:$(med $M $K 512)"; done
	echo "$line"
done
line="M x 1 x 1:"
for M in 1 12 48 96 192 384 768; do line="$line $M:$(med $M 1 1)"; done
echo "$line"
line="1 x 1 x N:"
for N in 1 16 64 192 512 2048; do line="$line $N:$(med 1 1 $N)"; done
echo "$line"
for s in "1 512 512" "4 512 512" "12 512 512" "1 2048 2048" "4 2048 2048" "12 2048 2048" "512 256 8" "512 256 16" "2048 256 8"; do
	echo "$s: $(med $s)"
done
uptime
