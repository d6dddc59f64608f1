#!/usr/bin/env bash
# OpenBLAS's own choice of kernels on this CPU against SkylakeX's
# (docs/accuracy.md, "An Emerald Rapids VM"): a 2048^3 sgemm on 2 threads as
# the capture's matmul calls it, 7 calls each (../dev-zen5/openblas-calls.c),
# three times alternating; GFLOP/s from the minimum and the median.
set -euo pipefail
cc -O2 "$(dirname "$0")/../dev-zen5/openblas-calls.c" -o /tmp/openblas-calls -lopenblas
date -u
uptime
for round in 1 2 3; do
	for core in default SkylakeX; do
		env=(); [ "$core" = default ] || env=(OPENBLAS_CORETYPE=$core)
		line=$(env "${env[@]}" OPENBLAS_NUM_THREADS=2 OPENBLAS_VERBOSE=2 /tmp/openblas-calls 2048 2048 2048 7 2>&1)
		used=$(printf '%s\n' "$line" | sed -n 's/.*Core: *//p' | head -1)
		printf '%s\n' "$line" | awk -v c="$core" -v u="$used" -v r=$round '/min/ {
			for (i = 1; i <= NF; i++) { if ($i == "min") mn = $(i + 1); if ($i == "median") md = $(i + 1) }
			printf "round %d, %s (%s): %.0f GFLOP/s best, %.0f median\n", r, c, u, 2 * 2048^3 / mn / 1e3, 2 * 2048^3 / md / 1e3 }'
	done
done
