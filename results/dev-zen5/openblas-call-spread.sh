#!/usr/bin/env bash
# The spread of single calls (docs/accuracy.md, "Round 8"): for a few small
# GEMMs above OpenBLAS's one-thread threshold, the minimum, 10th percentile,
# median and 90th percentile of 201 calls on 1 and on 2 threads, each in two
# processes one after the other (openblas-calls.c).
set -euo pipefail
cc -O2 "$(dirname "$0")/openblas-calls.c" -o /tmp/openblas-calls -lopenblas
date -u
uptime
for s in "3072 64 16" "4096 16 16" "2048 12 128" "8192 6 768" "256 1536 2048"; do
	for t in 1 2 2; do
		echo "$t thread(s): $(OPENBLAS_NUM_THREADS=$t /tmp/openblas-calls $s 201)"
	done
done
uptime
