#!/usr/bin/env bash
# One more capture (F) of the Zen 5 VM's six files, as capture-spread.sh took
# C to E (--repeat 3, --meter none), with the round trip of a cache line
# between the two vCPUs (core-pingpong.c) before each file and after the
# last: the host moves the guest's vCPUs between and within CCDs, and with
# them the two-thread calls change (docs/accuracy.md, "Session 16").
# usage (from the repository root): [SWEEPS=dir] results/dev-zen5/capture-placement.sh DIR
#   (writes DIR/ and DIR.log; the committed baselines-f/ was captured into
#   /tmp/capF on 2026-12-06 and copied here; SWEEPS defaults to
#   results/dev-zen5/sweeps, and sweeps-i/ was captured into /tmp/capI to
#   /tmp/capN on 2026-12-07, docs/accuracy.md "Session 20")
set -euo pipefail
dir=$1 R=results/dev-zen5
sweeps=${SWEEPS:-$R/sweeps}
gcc -O2 -pthread $R/core-pingpong.c -o /tmp/core-pingpong
gcc -O2 -I src $R/add-tail.c src/kernel/add_loops.c -o /tmp/add-tail
# each vCPU's speed on one thread: the add loop's ns per call at 4 and 16 elements
speed() {
	for c in 0 1; do
		echo "cpu$c add loop ns per call: $(taskset -c $c /tmp/add-tail | awk '$1 == 4 || $1 == 16 { printf " n=%s %s", $1, $2 }')"
	done
}
for op in matmul linear vector_add; do
	for p in calibration validation; do
		{ date -u; uptime; /tmp/core-pingpong; speed; } >>"$dir.log"
		build/roofval capture --hw epyc_zen5_2vcpu --op $op --purpose $p --meter none \
			--repeat 3 --hardware-dir $R/hardware --sweep-dir "$sweeps" \
			--baseline-dir "$dir" 2>&1 | grep -v '^\[' >>"$dir.log"
	done
done
{ date -u; uptime; /tmp/core-pingpong; speed; } >>"$dir.log"
