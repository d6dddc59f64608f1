#!/usr/bin/env bash
# Capture's honest summary and provenance, with the null
# kernel and no meter, so nothing here depends on this machine's speed or
# the build type: ambiguous entries measured and counted, the ETA from the
# model, --repeat's interleaved rounds and columns, the precision columns,
# and the build that measured it in the manifest and `roofval version`.
# Usage: capture.sh ROOFVAL SCRATCH_DIR REPO_DIR
set -u
roofval=$1 scratch=$2 repo=$3
rm -rf "$scratch" && mkdir -p "$scratch"
. "$(dirname "$0")/lib.sh"

# Three shapes labelled for i7_12700k (one ambiguous), one unsupported, one
# labelled for another target only.
cat >"$scratch/matmul_calibration.json" <<'JSON'
{"op": "matmul", "purpose": "calibration", "shapes": [
 {"shape": [64, 64, 64], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "launch_bound"}},
 {"shape": [96, 64, 64], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "ambiguous"}},
 {"shape": [128, 128, 128], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "l2_bound"}},
 {"shape": [160, 64, 64], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "unsupported"}},
 {"shape": [512, 512, 512], "dtype": "fp32", "regime_per_hw": {"other": "l2_bound"}}]}
JSON
run=(--hw i7_12700k --op matmul --purpose calibration --hardware-dir "$repo/hardware"
	--kernel null --meter none --trials 3 --warmup 1)
cap=("${run[@]}" --sweep-dir "$scratch")

# Ambiguous entries are measured, and counted at the start and in the summary.
mkdir -p "$scratch/once"
check 0 "3 shapes, of which 1 ambiguous, kernel null" "" -- capture "${cap[@]}" --baseline-dir "$scratch/once"
cp "$scratch/stderr" "$scratch/once.err"
grep -q '^\[2/3\] 96x64x64 fp32 (ambiguous): ' "$scratch/once.err"
tally $? "the ambiguous shape was not measured or not marked: $(cat "$scratch/once.err")"
grep -q '3 rows written (3 shapes, of which 1 ambiguous), 0 shapes skipped' "$scratch/once.err"
tally $? "the summary does not count the ambiguous shapes: $(cat "$scratch/once.err")"
grep -q '^i7_12700k,matmul,96x64x64,fp32,' "$scratch/once/i7_12700k_matmul.csv" &&
	! grep -q '160x64x64\|512x512x512' "$scratch/once/i7_12700k_matmul.csv"
tally $? "the rows are not the labelled, supported shapes"
# validate still skips the ambiguous entry, row or not, and counts it.
"$roofval" validate --hw i7_12700k --op matmul --purpose calibration --sweep-dir "$scratch" \
	--hardware-dir "$repo/hardware" --baseline-dir "$scratch/once" >"$scratch/validate.out" 2>&1
grep -q '1 labelled ambiguous' "$scratch/validate.out" && ! grep -q '96x64x64' "$scratch/validate.out"
tally $? "validate scored the ambiguous entry: $(cat "$scratch/validate.out")"
# The ETA comes from the model's predictions (the i7 profile predicts every
# one of these shapes): at the start for all, after the last nothing left.
grep -q 'meter none; about .* in all (model)$' "$scratch/once.err" &&
	grep -q '^\[3/3\] 128x128x128 fp32: .*, about 0 s left (model)$' "$scratch/once.err"
tally $? "the ETA is not the model's: $(cat "$scratch/once.err")"
# A shape the profile cannot predict (i7_12700k has no fp16) takes the mean
# time of the shapes done: unknown at the start, then said to be mixed.
mkdir -p "$scratch/fp16"
cat >"$scratch/fp16/matmul_calibration.json" <<'JSON'
{"op": "matmul", "purpose": "calibration", "shapes": [
 {"shape": [64, 64, 64], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "launch_bound"}},
 {"shape": [1024, 64, 64], "dtype": "fp16", "regime_per_hw": {"i7_12700k": "l2_bound"}}]}
JSON
check 0 "meter none; time in all unknown" "" -- capture "${run[@]}" --sweep-dir "$scratch/fp16" --baseline-dir "$scratch/fp16"
grep -q '^\[1/2\] 64x64x64 fp32: .*, about .* left (model and shapes so far)$' "$scratch/stderr" &&
	grep -q '^\[2/2\] 1024x64x64 fp16: .*, about 0 s left (model)$' "$scratch/stderr"
tally $? "the ETA of a shape without a prediction: $(cat "$scratch/stderr")"
# The precision columns, always; no repeat columns without --repeat.
head -1 "$scratch/once/i7_12700k_matmul.csv" | grep -q ',busy_share,median_rel_se,precision_target'$'\r''$'
tally $? "no precision columns: $(head -1 "$scratch/once/i7_12700k_matmul.csv")"
# The manifest records the build that measured the rows, as roofval version says it.
meta=$scratch/once/i7_12700k_matmul.meta.json
compiler=$("$roofval" version | sed -n 's/^build: \([^,]*\), .*/\1/p')
[ -n "$compiler" ] && grep -q "\"compiler\": \"$compiler\"" "$meta" &&
	grep -q '"build_type": "' "$meta" && grep -q '"compile_flags": "' "$meta" &&
	grep -q '"kernel_flags": "-O2"' "$meta" && ! grep -q '"repeat"' "$meta"
tally $? "the manifest lacks the build ('$compiler'): $(cat "$meta")"
check 0 "" "(kernel loops -O2)" -- version

# --repeat 1 is the default: the same columns, no repeat in the manifest.
mkdir -p "$scratch/one"
check 0 "3 rows written" "" -- capture "${cap[@]}" --baseline-dir "$scratch/one" --repeat 1
cmp -s <(head -1 "$scratch/once/i7_12700k_matmul.csv") <(head -1 "$scratch/one/i7_12700k_matmul.csv") &&
	! grep -q '"repeat"' "$scratch/one/i7_12700k_matmul.meta.json" &&
	! grep -q 'repeats' "$scratch/one/i7_12700k_matmul.csv"
tally $? "--repeat 1 is not the default"

# --repeat 3: three interleaved rounds; each row the median of three medians,
# with repeats and repeat_spread; the manifest says so.
mkdir -p "$scratch/rep"
check 0 "3 shapes, of which 1 ambiguous, 3 rounds, kernel null" "" -- capture "${cap[@]}" --baseline-dir "$scratch/rep" --repeat 3
cp "$scratch/stderr" "$scratch/rep.err"
[ "$(grep -o '^\[round [0-9]/3, [0-9]/3\] [0-9x]*' "$scratch/rep.err" | tr '\n' ' ')" = \
	"[round 1/3, 1/3] 64x64x64 [round 1/3, 2/3] 96x64x64 [round 1/3, 3/3] 128x128x128 [round 2/3, 1/3] 64x64x64 [round 2/3, 2/3] 96x64x64 [round 2/3, 3/3] 128x128x128 [round 3/3, 1/3] 64x64x64 [round 3/3, 2/3] 96x64x64 [round 3/3, 3/3] 128x128x128 " ]
tally $? "--repeat 3 did not measure in interleaved rounds: $(cat "$scratch/rep.err")"
rcsv=$scratch/rep/i7_12700k_matmul.csv
head -1 "$rcsv" | grep -q ',median_rel_se,precision_target,repeats,repeat_spread'$'\r''$' &&
	[ "$(grep -c ',3,[0-9][0-9.e+-]*'$'\r''$' "$rcsv")" = 3 ] &&
	[ "$(grep -c 'median of 3 repeats, ' "$rcsv")" = 3 ] &&
	grep -q '"repeat": 3' "$scratch/rep/i7_12700k_matmul.meta.json"
tally $? "--repeat 3 rows lack repeats and repeat_spread: $(cat "$rcsv")"
check 0 "" "3 rows" -- baseline show "$rcsv"
# Usage errors.
check 2 "capture: --repeat '0' is not an integer from 1 to 100" "" -- capture "${cap[@]}" --repeat 0
check 2 "capture: --repeat 'x' is not an integer" "" -- capture "${cap[@]}" --repeat x
check 0 "" "--repeat N" -- capture --help

echo "capture: $pass passed, $fail failed"
[ "$fail" = 0 ]
