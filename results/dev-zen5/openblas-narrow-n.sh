#!/usr/bin/env bash
# OpenBLAS on 1 and 2 threads for narrow N (docs/accuracy.md, "Round 8"):
# per shape "t1 / t2", the median of 101 calls each (openblas-calls.c), for
# M = 4096, K = 512 and N from 1 to 24, matmul and linear.
set -euo pipefail
cc -O2 "$(dirname "$0")/openblas-calls.c" -o /tmp/openblas-calls -lopenblas
date -u
uptime
for op in m l; do
	for N in 1 2 3 4 5 6 8 12 15 16 24; do
		t1=$(OPENBLAS_NUM_THREADS=1 /tmp/openblas-calls 4096 512 $N 101 $op | awk '{print $(NF-2)}')
		t2=$(OPENBLAS_NUM_THREADS=2 /tmp/openblas-calls 4096 512 $N 101 $op | awk '{print $(NF-2)}')
		echo "$([ $op = l ] && echo linear || echo matmul) 4096x512x$N: $t1 / $t2 us"
	done
done
uptime
