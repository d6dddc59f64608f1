#!/usr/bin/env bash
# Held-out refits obey the physics the full fit is held to: on a 2-vCPU
# Zen 5 VM's merged captures (tests/data/epyc_zen5_2vcpu) the
# leave-one-family-out fold without the large adds would take the DRAM
# bandwidth from 56 to 157 GB/s, past the tier's 63 GB/s datasheet figure;
# every fold's FLOP rate and bandwidths stay at or below their datasheet
# bounds, and the large adds are predicted from DRAM at that bound.
# usage: bounds.sh ROOFVAL SCRATCH_DIR REPO_DIR
set -u
roofval=$1 scratch=$2 repo=$3
rm -rf "$scratch" && mkdir -p "$scratch"
. "$(dirname "$0")/lib.sh"
z=$repo/tests/data/epyc_zen5_2vcpu
"$roofval" calibrate --hw epyc_zen5_2vcpu --hardware-dir "$z/hardware" \
	--sweep-dir "$z/sweeps" --baseline-dir "$z/baselines" --dry-run --format json \
	>"$scratch/cal.json" 2>"$scratch/stderr"
tally $? "calibrate of the Zen 5 VM's captures: $(cat "$scratch/stderr")"
python3 - "$scratch/cal.json" "$z/hardware/epyc_zen5_2vcpu.json" <<'PY'
import json, sys
cal = json.load(open(sys.argv[1])); prof = json.load(open(sys.argv[2]))
upper = {"memory.%s.effective_bw_Bps" % m["name"]: m["bw_Bps"] for m in prof["memory"]}
upper.update({"compute.%s.effective_flop_per_s" % c["dtype"]: c["peak_flop_per_s"] for c in prof["compute"]})
checked = 0
for p in cal["parameters"]:
    if p["name"] not in upper:
        continue
    for m in p.get("lofo_moves") or []:
        got = p["value"] * (1 + m["move"])
        assert got <= upper[p["name"]] * (1 + 1e-9), (p["name"], m["family"], got, upper[p["name"]])
        checked += 1
dram = next(p for p in cal["parameters"] if p["name"] == "memory.dram.effective_bw_Bps")
large = next(m for m in dram["lofo_moves"] if m["op"] == "vector_add" and m["family"] == "large")
# The fold that would leave DRAM undetermined stops at the datasheet figure.
assert abs(dram["value"] * (1 + large["move"]) / upper["memory.dram.effective_bw_Bps"] - 1) < 1e-9, large
assert checked > 100, checked
PY
tally $? "a held-out refit of the Zen 5 VM went past a datasheet bound"
printf 'bounds: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
