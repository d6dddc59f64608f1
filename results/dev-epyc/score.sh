#!/usr/bin/env bash
# LOFO on the calibration rows against the held-out validation score, per op
# (docs/accuracy.md, "The development machine: LOFO against held-out rows").
# usage: [KEY=k ROOT=dir] results/dev-epyc/score.sh [HARDWARE_DIR] [BASELINE_DIR [FURTHER_BASELINE_DIR...]]
# (KEY defaults to epyc_zen3_2vcpu; ROOT, holding hardware/, sweeps/ and baselines/, to results/dev-epyc)
# Fits (writes HARDWARE_DIR/KEY.fit.json), validates, prints a table; the
# further folders (other captures of the machine) give the noise ceiling and,
# from two on, each record against the median of the others.
set -euo pipefail
key=${KEY:-epyc_zen3_2vcpu} root=${ROOT:-results/dev-epyc}
hw=${1:-$root/hardware} base=${2:-$root/baselines}
shift $(($# < 2 ? $# : 2))
further=()
for d in "$@"; do further+=(--baseline-dir "$d"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D="--hardware-dir $hw --sweep-dir $root/sweeps --baseline-dir $base"
build/roofval calibrate --hw "$key" $D --format json >"$tmp/cal.json"
rc=0
build/roofval validate --hw "$key" --purpose validation $D "${further[@]}" \
	--format json >"$tmp/val.json" || rc=$?
[ "$rc" -le 3 ] || exit "$rc"
python3 - "$tmp/cal.json" "$tmp/val.json" <<'PY'
import json, sys, statistics
cal = json.load(open(sys.argv[1])); val = json.load(open(sys.argv[2]))
noise = {n["op"]: n for n in val["noise"]}
print("| op | cal rows | LOFO within band | LOFO median abs. | LOO within band | LOO median abs. | validation records | validation within band | validation median abs. | noise ceiling (pairs, scatter) | within band of the other captures' median |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
for o in cal["ops"]:
    op = o["op"]
    recs = [r for r in val["records"] if r["op"] == op and r["latency_error"] is not None]
    inb = sum(1 for r in recs if r["pass_latency"])
    med = statistics.median(abs(r["latency_error"]) for r in recs)
    n = noise.get(op, {})
    ceil = ("%.0f%% (%d, %.1f%%)" % (100 * n["ceiling"], n["pairs"], 100 * n["scatter"])
            if n.get("ceiling") is not None else n.get("note") or "-")
    agree = ("%d of %d" % (n["agree_within"], n["agree_records"]) if n.get("agree_records") else "-")
    print("| %s | %d | %.0f%% (%d) | %.1f%% | %.0f%% (%d) | %.1f%% | %d | %.0f%% (%d) | %.1f%% | %s | %s |" % (
        op, o["rows"], 100 * o["lofo_within_band"], round(o["lofo_within_band"] * o["rows"]),
        100 * o["lofo_median_abs_error"], 100 * o["loo_within_band"], round(o["loo_within_band"] * o["rows"]),
        100 * o["loo_median_abs_error"], len(recs), 100 * inb / len(recs), inb, 100 * med, ceil, agree))
PY
