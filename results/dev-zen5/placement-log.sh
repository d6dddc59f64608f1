#!/usr/bin/env bash
# Where the host keeps the guest's two vCPUs, sampled: every INTERVAL
# seconds (default 15), SAMPLES times (default 40), the round trip of a
# cache line between them (core-pingpong.c) and one two-thread GEMM that the
# placement moves, 2048 x 12 x 128 with beta 1, back to back for 0.1 s
# (results/dev-xeon/gemm-time.c), against the same on one thread
# (docs/accuracy.md, "Session 16").
# usage (from the repository root): results/dev-zen5/placement-log.sh [SAMPLES [INTERVAL]] > results/dev-zen5/placement-log.txt
set -euo pipefail
samples=${1:-40} interval=${2:-15}
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
gcc -O2 -pthread results/dev-zen5/core-pingpong.c -o /tmp/core-pingpong
us() { GEMM_TIME_LOOP_S=0.1 /tmp/gemm-time matmul 2048 12 128 "$1" 1 | awk '{ print $(NF - 2) }'; }
uptime
echo "# UTC time, round trip of a cache line between the vCPUs, 2048x12x128 (beta 1) on one and two threads"
for i in $(seq 1 "$samples"); do
	rt=$(/tmp/core-pingpong | awk '{ print $(NF - 1) }')
	printf "%s  %6.1f ns  t1 %7.1f us  t2 %7.1f us\n" "$(date -u +%H:%M:%S)" "$rt" "$(us 1)" "$(us 2)"
	[ "$i" = "$samples" ] || sleep "$interval"
done
uptime
