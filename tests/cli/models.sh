#!/usr/bin/env bash
# Validating any model: the built-in model's predictions written as a file
# and read back give the same verdicts; an adapter command is a model; every
# way a model can fail is one line and exit 1.
# Usage: models.sh ROOFVAL DATA_DIR SCRATCH_DIR REPO_DIR
set -u
roofval=$1 data=$2 scratch=$3 repo=$4
rm -rf "$scratch" && mkdir -p "$scratch"
. "$(dirname "$0")/lib.sh"

# The verdicts of a JSON report, one per line: what must not depend on where
# the predictions came from.
verdicts() {
	grep -E '"(hardware|op|shape|dtype|regime_predicted|regime_measured|latency_error|energy_error|pass|pass_regime|pass_latency|pass_energy)":' "$1"
}

hw=xeon_amx_2vcpu
d=(--hardware-dir "$repo/hardware" --sweep-dir "$repo/sweeps" --baseline-dir "$repo/results/baselines")

# The built-in model as a file: the same verdicts, record for record.
check 0 "" "" -- predict --hw $hw --format csv --hardware-dir "$repo/hardware" --sweep-dir "$repo/sweeps" -o "$scratch/builtin.csv"
head -n 1 "$scratch/builtin.csv" | grep -qx 'hardware,op,shape,dtype,latency_s,energy_j,regime'
tally $? "predict --format csv wrote no predictions header"
[ "$(wc -l <"$scratch/builtin.csv")" -gt 100 ]
tally $? "predict --format csv wrote $(wc -l <"$scratch/builtin.csv") lines for $hw"
"$roofval" predict --hw $hw --format csv --hardware-dir "$repo/hardware" --sweep-dir "$repo/sweeps" -o - | cmp -s - "$scratch/builtin.csv"
tally $? "predict --format csv -o - differs from -o FILE"
for pu in calibration validation; do
	"$roofval" validate --hw $hw --purpose $pu "${d[@]}" --format json -o "$scratch/a-$pu.json" 2>/dev/null
	rc_a=$?
	"$roofval" validate --hw $hw --purpose $pu "${d[@]}" --format json --predictions "$scratch/builtin.csv" -o "$scratch/b-$pu.json" 2>/dev/null
	rc_b=$?
	[ "$rc_a" = "$rc_b" ] && [ -s "$scratch/a-$pu.json" ] &&
		cmp -s <(verdicts "$scratch/a-$pu.json") <(verdicts "$scratch/b-$pu.json")
	tally $? "validate --predictions (the built-in model's) gives other verdicts than validate ($pu: exit $rc_a / $rc_b)"
	grep -q '"model": "builtin"' "$scratch/b-$pu.json"
	tally $? "the records of builtin.csv are not named after the file ($pu)"
done

# An adapter command is a model.
if command -v python3 >/dev/null; then
	adapter="python3 $repo/examples/python-roofline/roofline.py"
	"$roofval" validate --all "${d[@]}" --model-cmd "$adapter" --with-builtin --format json -o "$scratch/adapter.json" 2>"$scratch/stderr"
	rc=$?
	{ [ $rc = 0 ] || [ $rc = 3 ]; } && grep -q '"model": "roofline"' "$scratch/adapter.json" &&
		grep -q '"model": "roofval"' "$scratch/adapter.json"
	tally $? "validate --model-cmd (examples/python-roofline) --with-builtin: exit $rc, $(cat "$scratch/stderr")"
else
	echo "SKIP the python-roofline adapter: python3 is absent"
fi

# Every way a model fails: one line, exit 1, nothing written.
check 1 "the model command exited with status 4; its standard error ends: no" "" -- validate --all "${d[@]}" --model-cmd 'echo no >&2; exit 4' -o "$scratch/none.txt"
[ ! -e "$scratch/none.txt" ]
tally $? "a failed model command left a report"
check 1 "ran past its 0.2 s time-out" "" -- validate --all "${d[@]}" --model-cmd 'sleep 5' --model-timeout 0.2
check 1 "the model command's output:1:1: header column 1 is 'garbage'" "" -- validate --all "${d[@]}" --model-cmd 'echo garbage'
check 1 "killed by signal 9" "" -- validate --all "${d[@]}" --model-cmd 'kill -9 $$'
check 2 "--model-timeout '0' is not" "" -- validate --all "${d[@]}" --model-cmd true --model-timeout 0
check 2 "--with-builtin adds the built-in model" "" -- validate --all "${d[@]}" --with-builtin
check 1 "$scratch/nope.csv" "" -- validate --all "${d[@]}" --predictions "$scratch/nope.csv"
printf 'hardware,op,shape,dtype,latency_s,energy_j\n%s,matmul,8x8x8,fp32,-1,\n' $hw >"$scratch/neg.csv"
check 1 "neg.csv:2:34: latency_s: '-1' is not a finite positive number of seconds" "" -- validate --all "${d[@]}" --predictions "$scratch/neg.csv"
mkdir -p "$scratch/other"
cp "$scratch/builtin.csv" "$scratch/other/builtin.csv"
check 1 "two models are called 'builtin'" "" -- validate --all "${d[@]}" --predictions "$scratch/builtin.csv" --predictions "$scratch/other/builtin.csv"
# A file without some rows: those entries have no prediction, and say so.
head -n 20 "$scratch/builtin.csv" >"$scratch/part.csv"
"$roofval" validate --hw $hw --purpose calibration "${d[@]}" --predictions "$scratch/part.csv" --format json -o "$scratch/part.json" 2>/dev/null
grep -q '"model": "part"' "$scratch/part.json" && [ "$(grep -c '"pass_latency"' "$scratch/part.json")" -le 19 ] &&
	grep -Eq '"skipped_no_prediction": [1-9]' "$scratch/part.json"
tally $? "a partial predictions file scored more records than it has rows, or its missing entries were not counted"

# report and plot take models too: given only --predictions, that model alone.
check 0 "" "wrote $scratch/rep/index.html" -- report --output "$scratch/rep" "${d[@]}" --predictions "$scratch/builtin.csv"
grep -q "builtin" "$scratch/rep/index.html"
tally $? "report --predictions does not name the model"
check 0 "" "wrote $scratch/heat.svg" -- plot heatmap -o "$scratch/heat.svg" "${d[@]}" --predictions "$scratch/builtin.csv" --with-builtin
grep -q "builtin" "$scratch/heat.svg" && grep -q "roofval" "$scratch/heat.svg"
tally $? "plot heatmap of two models lacks a panel per model"
check 2 "--with-builtin adds the built-in model" "" -- report --output "$scratch/rep2" --with-builtin

# The measured regime is the data's: a fit (hardware/<key>.fit.json) or
# --no-fit changes no verdict of a model whose predictions did not change.
h2=(validate --hw h200_sxm_141gb --op linear "${d[@]}")
check 0 "" "" -- predict --hw h200_sxm_141gb --op linear --format csv --hardware-dir "$repo/hardware" --sweep-dir "$repo/sweeps" -o "$scratch/h200.csv"
"$roofval" "${h2[@]}" --predictions "$scratch/h200.csv" --format json -o "$scratch/fit.json" 2>/dev/null
"$roofval" "${h2[@]}" --predictions "$scratch/h200.csv" --format json --no-fit -o "$scratch/nofit.json" 2>/dev/null
python3 - "$scratch/fit.json" "$scratch/nofit.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["records"] and a["records"] == b["records"], "records differ with and without the fit"
assert a["labels"] == b["labels"], (a["labels"], b["labels"])
PY
tally $? "a foreign model's verdicts change with --no-fit"

# --model-name names a model; a command is named after its program, not a
# redirection's target; two models never share a name; no name is cut.
"$roofval" validate --hw $hw --purpose validation "${d[@]}" --predictions "$scratch/builtin.csv" --model-name mine --format json -o "$scratch/mine.json" 2>/dev/null
grep -q '"model": "mine"' "$scratch/mine.json" && ! grep -q '"model": "builtin"' "$scratch/mine.json"
tally $? "--model-name does not name the model of --predictions"
mkdir -p "$scratch/bin"
printf '#!/bin/sh\ncat >/dev/null\ncat %s\n' "$scratch/builtin.csv" >"$scratch/bin/mymodel"
printf '#!/bin/sh\ncat >/dev/null\ncat %s\n' "$scratch/builtin.csv" >"$scratch/bin/theirs"
chmod +x "$scratch/bin/mymodel" "$scratch/bin/theirs"
PATH=$scratch/bin:$PATH "$roofval" validate --hw $hw --purpose validation "${d[@]}" --model-cmd 'mymodel 2>/dev/null' --model-cmd 'LC_ALL=C theirs 2> /dev/null | cat' --format json -o "$scratch/cmds.json" 2>"$scratch/stderr"
grep -q '"mymodel"' "$scratch/cmds.json" && grep -q '"theirs"' "$scratch/cmds.json" && ! grep -q '"null"' "$scratch/cmds.json"
tally $? "commands ending in 2>/dev/null are not named after their program: $(cat "$scratch/stderr")"
check 1 "two models are called 'builtin'; name them apart with --model-name" "" -- validate --all "${d[@]}" --predictions "$scratch/builtin.csv" --predictions "$scratch/other/builtin.csv" --model-name builtin
check 3 "" "" -- validate --hw $hw --purpose validation "${d[@]}" --predictions "$scratch/builtin.csv" --predictions "$scratch/other/builtin.csv" --model-name one --model-name two --format json -o "$scratch/two.json"
long=$(printf 'm%.0s' $(seq 70))
check 1 "is 70 bytes; a model name has at most 63: give a shorter one with --model-name NAME" "" -- validate --hw $hw "${d[@]}" --predictions "$scratch/builtin.csv" --model-name "$long"
check 2 "more --model-name than --predictions and --model-cmd models" "" -- validate --hw $hw "${d[@]}" --predictions "$scratch/builtin.csv" --model-name a --model-name b
check 2 "--model-name names a --predictions or --model-cmd model" "" -- validate --hw $hw "${d[@]}" --model-name a

# A predictions file's extra numeric columns travel into the records.
awk -F, 'NR == 1 { print $0 ",compute_s,note"; next } { print $0 "," NR * 1e-6 ",text" }' "$scratch/builtin.csv" >"$scratch/extra.csv"
"$roofval" validate --hw $hw --purpose validation "${d[@]}" --predictions "$scratch/extra.csv" --format json -o "$scratch/extra.json" 2>/dev/null
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["records"]
assert r and all(set(x["extra"]) == {"compute_s"} and x["extra"]["compute_s"] > 0 for x in r), r[0]["extra"]' "$scratch/extra.json"
tally $? "the extra numeric columns of a predictions file are not in the JSON records"

# The regression gate compares something or says why not: no record in
# common (another model's name, other hardware, no records, a folder) is
# exit 1 naming both sides; a partial overlap says how much was compared.
"$roofval" validate --hw $hw --purpose validation "${d[@]}" --predictions "$scratch/builtin.csv" --model-name mine --format json -o "$scratch/v1.json" 2>/dev/null
cp "$scratch/builtin.csv" "$scratch/mine_v2.csv"
check 1 "no record in common with $scratch/v1.json: it scored the models 'mine', this run 'mine_v2'" "" -- validate --hw $hw --purpose validation "${d[@]}" --predictions "$scratch/mine_v2.csv" --against "$scratch/v1.json"
check 0 "" "no regressions" -- validate --hw $hw --purpose validation "${d[@]}" --predictions "$scratch/mine_v2.csv" --model-name mine --against "$scratch/v1.json"
"$roofval" validate --hw $hw --purpose validation --op matmul "${d[@]}" --predictions "$scratch/builtin.csv" --model-name mine --format json -o "$scratch/v1mm.json" 2>/dev/null
n_mm=$(grep -c '"pass_latency"' "$scratch/v1mm.json")
n_all=$(grep -c '"pass_latency"' "$scratch/mine.json")
check 0 "" ": $n_mm records compared (in both), 0 of the earlier run not validated now, $((n_all - n_mm)) of this run not in it" -- validate --hw $hw --purpose validation "${d[@]}" --predictions "$scratch/mine_v2.csv" --model-name mine --against "$scratch/v1mm.json"
check 1 "$scratch/fit.json is a report of hardware 'h200_sxm_141gb'; this run validates 'xeon_amx_2vcpu'" "" -- validate --hw $hw --purpose validation "${d[@]}" --predictions "$scratch/builtin.csv" --against "$scratch/fit.json"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); r["records"] = []
json.dump(r, open(sys.argv[2], "w"))' "$scratch/v1.json" "$scratch/empty.json"
check 1 "holds no records (\"records\": [])" "" -- validate --hw $hw --purpose validation "${d[@]}" --predictions "$scratch/builtin.csv" --model-name mine --against "$scratch/empty.json"
check 1 "$scratch/other is a folder, not a JSON report" "" -- validate --hw $hw "${d[@]}" --against "$scratch/other"

# predict: --op and --shape stay required without --format csv.
check 2 "predict: --op is required" "" -- predict --hw $hw --hardware-dir "$repo/hardware"
check 2 "predict: --shape is required" "" -- predict --hw $hw --op matmul --hardware-dir "$repo/hardware"
check 2 "unknown format 'xml'" "" -- predict --hw $hw --format xml --hardware-dir "$repo/hardware"
check 1 "no sweep" "" -- predict --hw $hw --format csv --hardware-dir "$repo/hardware" --sweep-dir "$scratch"

echo "models: $pass passed, $fail failed"
[ "$fail" = 0 ]
