#!/usr/bin/env bash
# OpenBLAS on 1 and 2 threads over a grid of matmuls (docs/accuracy.md,
# "Round 7 on the Zen 5 VM"): per K and M, "N<n> t1/t2" in us, each the best
# of 22 calls of results/dev-zen5/openblas-gemm.c.
set -euo pipefail
cc -O2 "$(dirname "$0")/openblas-gemm.c" -o /tmp/openblas-gemm -lopenblas
for K in 16 64 512; do
	for M in 256 1024 4096; do
		line="K=$K M=$M:"
		for N in 1 2 4 8 16 32 64 128; do
			t1=$(OPENBLAS_NUM_THREADS=1 /tmp/openblas-gemm $M $K $N | awk '{printf "%.0f", $4}')
			t2=$(OPENBLAS_NUM_THREADS=2 /tmp/openblas-gemm $M $K $N | awk '{printf "%.0f", $4}')
			line="$line N$N $t1/$t2"
		done
		echo "$line"
	done
done
