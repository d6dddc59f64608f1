#!/usr/bin/env bash
# The development machine's captures for issue 19 (docs/accuracy.md, "The
# development machine: LOFO against held-out rows"). The VM is shared with
# other sessions whose builds come in bursts: before each of the six files it
# waits (up to 5 minutes) until the CPUs were at least 90% idle over 3 s, and
# logs uptime before and after.
# usage: [KEY=k ROOT=dir] results/dev-epyc/capture.sh BASELINE_DIR LOG [REPEAT]  (from the
# repository root; KEY defaults to epyc_zen3_2vcpu, ROOT, holding hardware/ and sweeps/,
# to results/dev-epyc)
set -euo pipefail
out=$1 log=$2 repeat=${3:-3} key=${KEY:-epyc_zen3_2vcpu} root=${ROOT:-results/dev-epyc}
D="--hardware-dir $root/hardware --sweep-dir $root/sweeps"
idle_share() { # share of CPU time idle over 3 s, in percent
	local a b
	a=($(head -1 /proc/stat)); sleep 3; b=($(head -1 /proc/stat))
	local tot=0 i
	for i in 1 2 3 4 5 6 7 8; do tot=$((tot + b[i] - a[i])); done
	echo $(((b[4] - a[4]) * 100 / (tot > 0 ? tot : 1)))
}
mkdir -p "$out"
: >"$log"
for op in matmul linear vector_add; do
	for p in calibration validation; do
		for _ in $(seq 100); do [ "$(idle_share)" -ge 90 ] && break; done
		{ date -u; uptime; echo "idle over the last 3 s before: $(idle_share)%"; } >>"$log"
		build/roofval capture --hw "$key" --op $op --purpose $p --meter none \
			--repeat "$repeat" $D --baseline-dir "$out" 2>&1 | grep -v '^\[' >>"$log"
	done
done
{ date -u; uptime; } >>"$log"
