#!/usr/bin/env bash
# One more capture (F) of the Zen 5 VM's six files, as capture-spread.sh took
# C to E (--repeat 3, --meter none), with the round trip of a cache line
# between the two vCPUs (core-pingpong.c) before each file and after the
# last: the host moves the guest's vCPUs between and within CCDs, and with
# them the two-thread calls change (docs/accuracy.md, "Session 16").
# usage (from the repository root): results/dev-zen5/capture-placement.sh DIR
#   (writes DIR/ and DIR.log; the committed baselines-f/ was captured into
#   /tmp/capF on 2026-12-06 and copied here)
set -euo pipefail
dir=$1 R=results/dev-zen5
gcc -O2 -pthread $R/core-pingpong.c -o /tmp/core-pingpong
for op in matmul linear vector_add; do
	for p in calibration validation; do
		{ date -u; uptime; /tmp/core-pingpong; } >>"$dir.log"
		build/roofval capture --hw epyc_zen5_2vcpu --op $op --purpose $p --meter none \
			--repeat 3 --hardware-dir $R/hardware --sweep-dir $R/sweeps \
			--baseline-dir "$dir" 2>&1 | grep -v '^\[' >>"$dir.log"
	done
done
{ date -u; uptime; /tmp/core-pingpong; } >>"$dir.log"
