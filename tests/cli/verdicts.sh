#!/usr/bin/env bash
# Honest verdicts: suspect baseline rows are marked per
# record and counted, --exclude-flagged leaves them out and the coverage
# says so, ambiguous labels are counted, and the noise ceiling comes from a
# second baseline folder and from matmul/linear pairs, in every report.
# Usage: verdicts.sh ROOFVAL DATA_DIR SCRATCH_DIR REPO_DIR
set -u
roofval=$1 data=$2 scratch=$3 repo=$4
rm -rf "$scratch" && mkdir -p "$scratch"
. "$(dirname "$0")/lib.sh"
f=$data/verdicts

# The fixture: xeon_amx_2vcpu's profile (hand-edited, no fit), three GEMMs
# captured as matmul and as linear in a/ (the matmul of 512x2048x512 on a
# busy machine, that of 1024^3 with its median known to 5.6% only), the
# matmuls captured again in b/, and a fourth entry labelled ambiguous.
# The model scored is the built-in one's latencies and energies stating no
# regime of its own (predict --format csv without its regime column), so
# these checks of suspect rows and the noise ceiling are of latency alone.
mkdir -p "$scratch/model"
for op in matmul linear; do
	"$roofval" predict --hw xeon_amx_2vcpu --hardware-dir "$repo/hardware" --sweep-dir "$f/sweeps" --no-fit --format csv --op "$op" | cut -d, -f1-6 | { [ "$op" = matmul ] && cat || tail -n +2; }
done >"$scratch/model/roofval.csv"
c=(validate --hw xeon_amx_2vcpu --hardware-dir "$repo/hardware" --sweep-dir "$f/sweeps" --no-fit --predictions "$scratch/model/roofval.csv")

# Suspect rows are scored but shown: per record, in the heatmap and the summary.
check 0 "" "  xeon_amx_2vcpu  matmul  3OK S2" -- "${c[@]}" --baseline-dir "$f/a"
check 0 "" "suspect  2 records of rows whose latency is doubtful, 0 of them failed" -- "${c[@]}" --baseline-dir "$f/a"
check 0 "" "matmul  512x2048x512    fp32  pass  machine busy: 50% of the CPU used by others (over 25%)" -- "${c[@]}" --baseline-dir "$f/a"
check 0 "" "matmul  1024x1024x1024  fp32  pass  median known to 5.6%, not 1%" -- "${c[@]}" --baseline-dir "$f/a"
check 0 "" "coverage 6 entries labelled, 6 with a baseline row, 6 scored" -- "${c[@]}" --baseline-dir "$f/a"
# Ambiguous labels are still skipped, and counted.
check 0 "" "2 labelled ambiguous" -- "${c[@]}" --baseline-dir "$f/a"
# --exclude-flagged leaves them out; the coverage says how many.
check 0 "" "coverage 6 entries labelled, 6 with a baseline row, 4 scored, 2 excluded as suspect (--exclude-flagged)" -- "${c[@]}" --baseline-dir "$f/a" --exclude-flagged
out=$("$roofval" "${c[@]}" --baseline-dir "$f/a" --exclude-flagged 2>&1)
[[ "$out" != *"suspect records"* ]] && [[ "$out" == *"records  4"* ]]
tally $? "--exclude-flagged still lists suspect records, or scores other than 4: $out"
check 0 "" "Coverage: 6 entries labelled, 6 with a baseline row, 4 scored, 2 excluded as suspect" -- "${c[@]}" --baseline-dir "$f/a" --exclude-flagged --format markdown
check 0 "" "| 512x2048x512 | fp32 | pass | machine busy: 50%" -- "${c[@]}" --baseline-dir "$f/a" --format markdown

# The noise ceiling. One folder: the matmul/linear pairs alone (3 GEMMs, the
# bias add negligible), each within the band of the other.
check 0 "" "xeon_amx_2vcpu matmul: ceiling 100.0% of 3 pairs (0 repeat captures, 3 matmul/linear), scatter 2.5%; model 3 of 3 within band (100.0%)" -- "${c[@]}" --baseline-dir "$f/a"
# matmul alone: no pairs, no number.
check 0 "" "xeon_amx_2vcpu matmul: no repeat measurements; model 3 of 3 within band" -- "${c[@]}" --baseline-dir "$f/a" --op matmul
# Two folders: 3 more pairs; 512x2048x512 repeats at 1.75x, beyond any
# prediction within 10% of both: 5 of 6 pairs passable.
check 0 "" "xeon_amx_2vcpu matmul: ceiling 83.3% of 6 pairs (3 repeat captures, 3 matmul/linear)" -- "${c[@]}" --baseline-dir "$f/a" --baseline-dir "$f/b"
check 0 "" "| roofval | xeon_amx_2vcpu | matmul | 83.3% of 6 pairs (3 repeat captures, 3 matmul/linear), scatter 3.2% | 3 of 3 (100.0%) |" -- "${c[@]}" --baseline-dir "$f/a" --baseline-dir "$f/b" --format markdown
# Left out with --exclude-flagged: the suspect matmuls pair with nothing.
check 0 "" "xeon_amx_2vcpu matmul: ceiling 100.0% of 2 pairs (1 repeat captures, 1 matmul/linear)" -- "${c[@]}" --baseline-dir "$f/a" --baseline-dir "$f/b" --exclude-flagged
# Three folders: each record against the median of its other two captures.
# 512x2048x512 is 4.0 ms in a, 7.0 and 4.1 in b and c: a is 28% under their
# 5.55 ms; the other two agree: 2 of 3.
check 0 "" "ceiling 88.9% of 9 pairs (6 repeat captures, 3 matmul/linear), scatter 2.5%; within band of its other captures' median: 2 of 3 records" -- "${c[@]}" --baseline-dir "$f/a" --baseline-dir "$f/b" --baseline-dir "$f/c"
# A second folder with none of the targets is an error, not a silent nothing.
check 1 "gives no repeat measurements" "" -- "${c[@]}" --baseline-dir "$f/a" --baseline-dir "$f/empty"

# JSON: the same, and it holds against the schema.
"$roofval" "${c[@]}" --baseline-dir "$f/a" --baseline-dir "$f/b" --format json -o "$scratch/two.json" 2>"$scratch/stderr"
tally $? "validate --format json with two folders: $(cat "$scratch/stderr")"
"$roofval" "${c[@]}" --baseline-dir "$f/a" --op matmul --exclude-flagged --format json -o "$scratch/excl.json" 2>"$scratch/stderr"
tally $? "validate --format json --exclude-flagged: $(cat "$scratch/stderr")"
python3 - "$scratch/two.json" "$scratch/excl.json" <<'PY'
import json, sys
two = json.load(open(sys.argv[1]))
excl = json.load(open(sys.argv[2]))
bad = []
s = two["summary"]
if (s["suspect"], s["suspect_energy"], s["excluded_flagged"]) != (2, 0, 0):
    bad.append(f"summary suspect counts {s['suspect']}, {s['suspect_energy']}, {s['excluded_flagged']}")
why = {r["shape"]: r["suspect"] for r in two["records"] if r["op"] == "matmul"}
if why != {"256x1024x256": [], "512x2048x512": ["busy"], "1024x1024x1024": ["imprecise"]}:
    bad.append(f"record suspects {why}")
mm = [n for n in two["noise"] if n["op"] == "matmul"][0]
if (mm["pairs"], mm["pairs_captures"], mm["pairs_matmul_linear"]) != (6, 3, 3) or abs(mm["ceiling"] - 5 / 6) > 1e-12 or mm["note"] is not None:
    bad.append(f"matmul noise {mm}")
if two["repeat_folders"] != 1:
    bad.append(f"repeat_folders {two['repeat_folders']}")
e = excl["summary"]
if (e["records"], e["excluded_flagged"], e["rows_found"]) != (1, 2, 3):
    bad.append(f"excluded summary {e}")
n = excl["noise"][0]
if n["pairs"] != 0 or n["ceiling"] is not None or n["note"] != "no repeat measurements":
    bad.append(f"no-pairs noise {n}")
for b in bad:
    print("FAIL", b)
sys.exit(1 if bad else 0)
PY
tally $? "the JSON reports' suspect and noise fields"
rc=0
out=$(bash "$(dirname "$0")/schema.sh" "$repo/docs/report.schema.json" "$scratch/two.json" "$scratch/excl.json") || rc=$?
if [ "$rc" = 77 ]; then echo "$out"; else tally "$rc" "$out"; fi

# baseline merge: per row the median of the folders that have it, the rest
# of the row from the nearest; a row of one folder kept as it is.
m=$scratch/merged
check 0 "" "$m: 2 baselines, 6 rows, 3 of them merged from more than one folder" -- baseline merge -o "$m" "$f/a" "$f/b" "$f/c"
grep -q '^xeon_amx_2vcpu,matmul,512x2048x512,fp32,0.0041,,11,"median of 3 captures (.*verdicts/a, .*verdicts/b, .*verdicts/c), 73.2% apart (the row is .*verdicts/c.s)",1e-05,0.05,3,0.7317' "$m/xeon_amx_2vcpu_matmul.csv"
tally $? "merged 512x2048x512: $(grep 512x2048 "$m/xeon_amx_2vcpu_matmul.csv")"
cmp -s <(tail -n +2 "$f/a/xeon_amx_2vcpu_linear.csv" | tr -d '\r') <(tail -n +2 "$m/xeon_amx_2vcpu_linear.csv" | tr -d '\r' | cut -d, -f1-10)
tally $? "the linear of one folder is not kept as it is"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert m["schema"]=="roofval.manifest/1" and len(m["merged"]["baseline_dirs"])==3 and m["merged"]["rows"]==3, m' "$m/xeon_amx_2vcpu_matmul.meta.json"
tally $? "the merged manifest"
# The merged folder is a baseline folder like any other.
check 0 "" "  xeon_amx_2vcpu  matmul  3OK" -- "${c[@]}" --baseline-dir "$m"
# Refused: the output among the inputs, one input, no output, nothing to
# merge, an input's manifest that is not one; the output a file.
check 1 "is an input and the output: merge into another folder" "" -- baseline merge -o "$f/b" "$f/a" "$f/b"
check 1 "is given twice: a capture counted twice would weigh twice in every median; give it once" "" -- baseline merge -o "$scratch/twice" "$f/a" "$f/b" "$f/a/"
check 2 "" "" -- baseline merge -o "$m" "$f/a"
check 2 "" "" -- baseline merge "$f/a" "$f/b"
mkdir -p "$scratch/empty1" "$scratch/empty2"
check 1 "no baseline (<hw>_<op>.csv) in any of the 2 folders" "" -- baseline merge -o "$scratch/none" "$scratch/empty1" "$scratch/empty2"
mkdir -p "$scratch/badmeta" && cp "$f/b/xeon_amx_2vcpu_matmul.csv" "$scratch/badmeta/" && echo '{"schema": 1}' >"$scratch/badmeta/xeon_amx_2vcpu_matmul.meta.json"
check 1 "xeon_amx_2vcpu_matmul.meta.json is not a roofval manifest (no \"captures\" list)" "" -- baseline merge -o "$scratch/m2" "$f/a" "$scratch/badmeta"
[ ! -e "$scratch/m2" ]
tally $? "a refused merge wrote into its output folder: $(ls "$scratch/m2" 2>&1)"
echo '{"schema": "roofval.manifest/1", "captures": [{"purpose": "validation"}, 3]}' >"$scratch/badmeta/xeon_amx_2vcpu_matmul.meta.json"
check 1 "xeon_amx_2vcpu_matmul.meta.json: capture record 2 is not an object" "" -- baseline merge -o "$scratch/m2" "$f/a" "$scratch/badmeta"
echo x >"$scratch/afile"
check 1 "" "" -- baseline merge -o "$scratch/afile" "$f/a" "$f/b"

# Captures whose manifests saw their first two CPUs placed apart
# differently (a cache line's round trip, core_round_trip_s) are merged, and
# the merge says so; a round trip within 1.5 times of the other does not.
placed() { # DIR ROUND_TRIP_S: a copy of a/ whose matmul manifest states it
	mkdir -p "$1" && cp "$f/a/"*.csv "$1/"
	printf '{"schema": "roofval.manifest/1", "hardware": "xeon_amx_2vcpu", "op": "matmul", "captures": [{"purpose": "validation", "core_round_trip_s": %s}, {"purpose": "calibration", "core_round_trip_note": "not measured: this process may run on one CPU only"}]}\n' "$2" >"$1/xeon_amx_2vcpu_matmul.meta.json"
}
placed "$scratch/near" 1.2e-7 && placed "$scratch/far" 4.5e-7 && placed "$scratch/near2" 1.5e-7
placed "$scratch/moved" '1.2e-7, "core_round_trip_end_s": 4.5e-7'
check 0 "" "note: the captures saw a cache line cross between their first two CPUs in 120 to 450 ns (core_round_trip_s in their manifests)" -- baseline merge -o "$scratch/m3" "$scratch/near" "$scratch/far"
out=$("$roofval" baseline merge -o "$scratch/m4" "$scratch/near" "$scratch/near2" 2>&1)
[[ "$out" != *"note:"* ]] && [[ "$out" == *"2 baselines"* ]]
tally $? "a merge of captures 120 and 150 ns apart notes a placement: $out"
# A capture whose CPUs moved between its first and last shape counts both.
check 0 "" "in 120 to 450 ns (core_round_trip_s in their manifests)" -- baseline merge -o "$scratch/m5" "$scratch/near" "$scratch/moved"
# validate says the same beside the noise ceiling: of a folder and its
# repeat capture placed apart, of a merged folder that mixes them, and of
# one capture that moved; in JSON too. Placements alike: nothing said.
apart="the captures saw their CPUs placed apart (core round trip 120 to 450 ns in their manifests)"
check 0 "" "xeon_amx_2vcpu matmul: ceiling 100.0% of 6 pairs (3 repeat captures, 3 matmul/linear), scatter 0.6%; $apart" -- "${c[@]}" --baseline-dir "$scratch/near" --baseline-dir "$scratch/far"
check 0 "" "xeon_amx_2vcpu matmul: ceiling 100.0% of 3 pairs (0 repeat captures, 3 matmul/linear), scatter 2.5%; $apart" -- "${c[@]}" --baseline-dir "$scratch/m3" --no-fit
check 0 "" "xeon_amx_2vcpu matmul: no repeat measurements; $apart" -- "${c[@]}" --baseline-dir "$scratch/moved" --op matmul
check 0 "" "scatter 0.6%; $apart: multi-threaded rows differ between placements, so read them per placement | 3 of 3 (100.0%) |" -- "${c[@]}" --baseline-dir "$scratch/near" --baseline-dir "$scratch/far" --format markdown
out=$("$roofval" "${c[@]}" --baseline-dir "$scratch/near" --baseline-dir "$scratch/near2" 2>&1)
[[ "$out" != *"placed apart"* ]] && [[ "$out" == *"ceiling 100.0% of 6 pairs"* ]]
tally $? "validate of captures 120 and 150 ns apart notes a placement: $out"
"$roofval" "${c[@]}" --baseline-dir "$scratch/near" --baseline-dir "$scratch/far" --format json -o "$scratch/apart.json" 2>"$scratch/stderr"
tally $? "validate --format json of captures placed apart: $(cat "$scratch/stderr")"
python3 - "$scratch/apart.json" <<'PY'
import json, sys
n = {x["op"]: x for x in json.load(open(sys.argv[1]))["noise"]}
assert n["matmul"]["placements_differ"] is True, n["matmul"]
assert abs(n["matmul"]["round_trip_min_s"] - 1.2e-7) < 1e-12 and abs(n["matmul"]["round_trip_max_s"] - 4.5e-7) < 1e-12, n["matmul"]
assert n["linear"]["placements_differ"] is False and n["linear"]["round_trip_min_s"] is None, n["linear"]
PY
tally $? "validate --format json: the noise entries lack their placements"
# calibrate says it too, per baseline, in its text and JSON (the Zen 5 VM's
# merged captures with a matmul manifest stating both placements); a
# manifest of one placement (120 and 150 ns) says nothing.
zen=(calibrate --hw epyc_zen5_2vcpu --hardware-dir "$repo/tests/data/epyc_zen5_2vcpu/hardware" --sweep-dir "$repo/tests/data/epyc_zen5_2vcpu/sweeps" --baseline-dir "$scratch/zmix" --dry-run)
mkdir -p "$scratch/zmix" && cp "$repo/tests/data/epyc_zen5_2vcpu/baselines/"*.csv "$scratch/zmix/"
printf '{"schema": "roofval.manifest/1", "hardware": "epyc_zen5_2vcpu", "op": "matmul", "captures": [{"purpose": "calibration", "core_round_trip_s": 1.2e-7}, {"purpose": "calibration", "core_round_trip_s": 4.5e-7, "core_round_trip_end_s": 4.6e-7}]}\n' >"$scratch/zmix/epyc_zen5_2vcpu_matmul.meta.json"
check 0 "" "note: the captures of epyc_zen5_2vcpu_matmul.csv saw their CPUs placed apart (core round trip 120 to 460 ns in their manifests)" -- "${zen[@]}"
"$roofval" "${zen[@]}" --format json >"$scratch/zmix.json" 2>"$scratch/stderr"
tally $? "calibrate --format json of captures placed apart: $(cat "$scratch/stderr")"
python3 -c 'import json, sys
o = {x["op"]: x for x in json.load(open(sys.argv[1]))["ops"]}
assert o["matmul"]["placements_differ"] is True and o["matmul"]["round_trip_max_s"] == 4.6e-7, o["matmul"]
assert o["linear"]["placements_differ"] is False and o["linear"]["round_trip_min_s"] is None, o["linear"]' "$scratch/zmix.json"
tally $? "calibrate --format json: the ops lack their placements"
sed -i 's/4.5e-7, "core_round_trip_end_s": 4.6e-7/1.5e-7/' "$scratch/zmix/epyc_zen5_2vcpu_matmul.meta.json"
out=$("$roofval" "${zen[@]}" 2>&1)
[[ "$out" != *"placed apart"* ]] && [[ "$out" == *"calibrate epyc_zen5_2vcpu: matmul 47 of 114 rows"* ]]
tally $? "calibrate of captures 120 and 150 ns apart notes a placement: $(head -c 300 <<<"$out")"
# A manifest that is not one is named, as merge names it.
check 1 "xeon_amx_2vcpu_matmul.meta.json: capture record 2 is not an object" "" -- "${c[@]}" --baseline-dir "$f/a" --baseline-dir "$scratch/badmeta"

# HTML: the report's second folder of the same target is its repeat capture.
ROOFVAL_BASELINE_DIR=$f/a ROOFVAL_SWEEP_DIR=$f/sweeps "$roofval" report -o "$scratch/html" --baseline-dir "$f/b" --sweep-dir "$f/sweeps" --no-fit --hardware-dir "$repo/hardware" --predictions "$scratch/model/roofval.csv" >/dev/null 2>"$scratch/stderr"
tally $? "report with two folders: $(cat "$scratch/stderr")"
grep -q "<li>roofval xeon_amx_2vcpu matmul: ceiling 83.3% of 6 pairs (3 repeat captures, 3 matmul/linear)" "$scratch/html/index.html"
tally $? "the HTML report lacks the noise ceiling of two folders"
grep -q "<li>roofval xeon_amx_2vcpu matmul 512x2048x512 (fp32, pass): machine busy: 50%" "$scratch/html/index.html"
tally $? "the HTML report lacks the suspect record"

echo "verdicts: $pass passed, $fail failed"
[ "$fail" = 0 ]
