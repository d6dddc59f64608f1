#!/usr/bin/env bash
# baseline import: another tool's CSV into a baseline and the sweeps that
# label it. Columns by name with their units, the FLOP count checked against
# the shape, every dtype labelled, calibration and validation never sharing
# an entry, the split and the timing recorded, and nothing written when a
# row is refused.
# Usage: import.sh ROOFVAL DATA_DIR SCRATCH_DIR REPO_DIR
set -u
roofval=$1 data=$2 scratch=$3 repo=$4
rm -rf "$scratch" && mkdir -p "$scratch"
. "$(dirname "$0")/lib.sh"
src=$data/import/gemm_sweep.csv
hw=jetson_orin_agx_64gb
map='M=M,N=N,K=K,batch=batch_size,dtype=precision,latency=empirical_time_ms:ms,latency_std=empirical_time_std_ms:ms,power=avg_power_w:W,flops=flops'
# imp DIR ARGS...: the import into DIR/b and DIR/s.
imp() {
	local d=$1
	shift
	echo baseline import "$@" --hw "$hw" --op matmul --hardware-dir "$repo/hardware" \
		--baseline-dir "$d/b" --sweep-dir "$d/s"
}
b=$hw\_matmul.csv

# The source lists M,N,K; roofval's shape is MxKxN, spelled out as it reads it.
d=$scratch/ok
check 0 "" "line 2: matmul M=64 K=256 N=128 fp16" -- $(imp "$d" "$src") --map "$map" --statistic mean --timing host_sync
grep -q '^jetson_orin_agx_64gb,matmul,64x256x128,fp16,0.0002042,0.004084,1,"imported from gemm_sweep.csv line 2 (mean, host_sync)",0.0499' "$d/b/$b"
tally $? "the first row is not 64x256x128 fp16 at 204.2 us with energy = power x latency" "$d/b/$b"
[ "$(tail -n +2 "$d/b/$b" | wc -l)" = 8 ]
tally $? "the baseline lacks rows" "$d/b/$b"
# Every dtype present is labelled, alternately for calibration and validation.
for pu in calibration validation; do
	[ "$(grep -c '"jetson_orin_agx_64gb":' "$d/s/matmul_$pu.json")" = 4 ]
	tally $? "$pu: not 4 labelled entries" "$d/s/matmul_$pu.json"
	grep -q '"fp32"' "$d/s/matmul_$pu.json" && grep -q '"fp16"' "$d/s/matmul_$pu.json"
	tally $? "$pu: lacks a dtype" "$d/s/matmul_$pu.json"
done
grep -q '"purpose_split": "alternate"' "$d/b/$hw"_matmul.meta.json &&
	grep -q '"timing": "host_sync"' "$d/b/$hw"_matmul.meta.json &&
	grep -q '"statistic": "mean"' "$d/b/$hw"_matmul.meta.json
tally $? "the manifest does not record the split and the timing" "$d/b/$hw"_matmul.meta.json
# validate scores both dtypes of the imported rows.
for row in "2048x1024x512   fp32" "128x32x64       fp16"; do
	check 3 "" "jetson_orin_agx_64gb  matmul  $row  failed" -- validate --hw "$hw" --hardware-dir "$repo/hardware" --baseline-dir "$d/b" --sweep-dir "$d/s" --purpose validation
done
# A second import with another split leaves every entry where it is.
cp "$d/s/matmul_calibration.json" "$scratch/cal.before"
check 0 "" "0 new entries" -- $(imp "$d" "$src") --map "$map" --purpose-split random:7:0.5
cmp -s "$scratch/cal.before" "$d/s/matmul_calibration.json"
tally $? "a second import moved entries between the sweeps"
[ "$(grep -c '"source"' "$d/b/$hw"_matmul.meta.json)" = 2 ]
tally $? "the manifest does not keep both imports" "$d/b/$hw"_matmul.meta.json

# sweep augment labels every dtype the target has, not only its default
# (fp16 here): the imported sweeps with the target's labels taken out.
d2=$scratch/augment
mkdir -p "$d2/s" && cp -r "$d/b" "$d2/b"
for pu in calibration validation; do
	grep -v '"jetson_orin_agx_64gb": ' "$d/s/matmul_$pu.json" >"$d2/s/matmul_$pu.json"
done
check 0 "" "matmul_calibration.json: 4 entries labelled for jetson_orin_agx_64gb" -- sweep augment --hw "$hw" --hardware-dir "$repo/hardware" --sweep-dir "$d2/s"
# validate counts the rows no sweep labels, per dtype, in text and JSON.
printf 'jetson_orin_agx_64gb,matmul,8x8x8,fp32,0.0002,,1,,\r\njetson_orin_agx_64gb,matmul,16x8x8,fp32,0.0002,,1,,\r\n' >>"$d2/b/$b"
check 3 "" "unlabelled 2 fp32 rows of jetson_orin_agx_64gb_matmul are labelled by no sweep, so never scored: sweep augment --hw jetson_orin_agx_64gb --op matmul" -- validate --hw "$hw" --hardware-dir "$repo/hardware" --baseline-dir "$d2/b" --sweep-dir "$d2/s" --purpose validation
"$roofval" validate --hw "$hw" --hardware-dir "$repo/hardware" --baseline-dir "$d2/b" --sweep-dir "$d2/s" --purpose validation --format json >"$scratch/v.json"
grep -A7 '"unlabelled_rows": \[' "$scratch/v.json" | tr -d ' \n' | grep -qF '{"dtype":"fp32","hardware":"jetson_orin_agx_64gb","op":"matmul","rows":2}]'
tally $? "the JSON report lacks the unlabelled rows" "$scratch/v.json"
check 3 "" "coverage" -- validate --hw "$hw" --hardware-dir "$repo/hardware" --baseline-dir "$d/b" --sweep-dir "$d/s"
"$roofval" validate --hw "$hw" --hardware-dir "$repo/hardware" --baseline-dir "$d/b" --sweep-dir "$d/s" | grep -q unlabelled
[ $? = 1 ]
tally $? "validate lists unlabelled rows where every row is labelled"

# The split by a column, and by size (alternating in FLOP order).
d=$scratch/col
awk -F, 'BEGIN{OFS=","} NR==1{print $0,"set"; next} {print $0,(NR<5?"validation":"calibration")}' "$src" >"$scratch/col.csv"
check 0 "" "line 2: matmul M=64 K=256 N=128 fp16  latency 204 us  energy 4.08 mJ  -> validation" -- $(imp "$d" "$scratch/col.csv") --map "$map" --purpose-split column:set
check 0 "" "line 4: matmul M=256 K=256 N=256 fp32  latency 284 us  energy 6.25 mJ  -> validation" -- $(imp "$scratch/size" "$src") --map "$map" --purpose-split size

# Refusals: one line, exit 1, nothing written.
d=$scratch/bad
no_files() { [ ! -e "$d/b/$b" ] && [ ! -e "$d/s/matmul_calibration.json" ] && [ ! -e "$d/s/matmul_validation.json" ]; }
check 1 "latency=empirical_time_ms needs its unit" "" -- $(imp "$d" "$src") --map "${map/:ms,latency_std/,latency_std}"
check 1 "unit 'h' is not one of s, ms, us or ns" "" -- $(imp "$d" "$src") --map "${map/:ms,latency_std/:h,latency_std}"
check 1 "gemm_sweep.csv:1: no column 'k' (K)" "" -- $(imp "$d" "$src") --map "${map/K=K/K=k}"
check 1 "names no column for matmul's dimension K" "" -- $(imp "$d" "$src") --map "${map/K=K,/}"
# A lost batch: the FLOP count is twice what the shape makes.
sed '4s/,33554432,/,67108864,/' "$src" >"$scratch/flops.csv"
check 1 "flops.csv:4:25: flops: 67108864 FLOP, but matmul 256x256x256 (2MKN) is 33554432 FLOP" "" -- $(imp "$d" "$scratch/flops.csv") --map "$map"
sed '5s/,1,268435456,/,4,268435456,/' "$src" >"$scratch/batch.csv"
check 1 "batch.csv:5:24: batch_size: batch 4: roofval's matmul has no batch dimension" "" -- $(imp "$d" "$scratch/batch.csv") --map "$map"
sed '6s/float16/float7/' "$src" >"$scratch/dtype.csv"
check 1 "dtype.csv:6:3: precision" "" -- $(imp "$d" "$scratch/dtype.csv") --map "$map"
sed '7s/,5.5687,/,-5.5687,/' "$src" >"$scratch/lat.csv"
check 1 "lat.csv:7:" "" -- $(imp "$d" "$scratch/lat.csv") --map "$map"
sed '3p' "$src" >"$scratch/dup.csv"
check 1 "dup.csv:4: 128x32x64 fp16 was on line 3 already" "" -- $(imp "$d" "$scratch/dup.csv") --map "$map"
check 1 "is not alternate, size, random:SEED:SHARE" "" -- $(imp "$d" "$src") --map "$map" --purpose-split random:1:2
expect "a refused import wrote files" no_files
# Hand-written sweeps that share an entry are refused, and left as they were.
mkdir -p "$d/s"
for pu in calibration validation; do
	printf '{"op": "matmul", "purpose": "%s", "shapes": [{"shape": [8, 8, 8], "dtype": "fp32", "regime_per_hw": {}}]}\n' "$pu" >"$d/s/matmul_$pu.json"
done
cp "$d/s/matmul_calibration.json" "$scratch/overlap.before"
check 1 "8x8x8 fp32 is in both" "" -- $(imp "$d" "$src") --map "$map"
cmp -s "$scratch/overlap.before" "$d/s/matmul_calibration.json" && [ ! -e "$d/b/$b" ]
tally $? "a refused import over overlapping sweeps wrote files"

# The worked example of docs/import.md is the one above.
grep -qF -- "--map 'M=M,N=N,K=K,batch=batch_size,dtype=precision,latency=empirical_time_ms:ms" "$repo/docs/import.md"
tally $? "docs/import.md lacks the worked example"

echo "import: $pass passed, $fail failed"
[ "$fail" = 0 ]
