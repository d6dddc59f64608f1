#!/usr/bin/env bash
# Data safety, the rest of it: nothing committed is replaced by
# less without asking (probe's profile needs --force, sweep generate with
# bounds that select nothing writes nothing), the capture manifest is kept
# like the rows (never replaced when it is not one, the arguments escaped
# when not UTF-8, the run of an interrupted capture recorded), and a writer
# never writes what its loader refuses (an absurd energy goes in empty, with
# a note, and every command still loads the file). The null kernel and the
# fake meter: nothing here depends on this machine's speed.
# usage: datasafety.sh ROOFVAL DATA_DIR SCRATCH_DIR
# The checks are eval'd strings, expanded when they run.
# shellcheck disable=SC2016
set -u
lib=$(cd "$(dirname "$0")" && pwd)/lib.sh
roofval=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$(cd "$2" && pwd)
scratch=$3
repo=$(cd "$data/../.." && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
cd "$scratch" || exit 1
unset ROOFVAL_FAKE_METER_POWER_W ROOFVAL_FAKE_METER_FAIL_AFTER ROOFVAL_FAKE_METER_BACKWARDS \
	ROOFVAL_FAKE_METER_FREEZE_AFTER ROOFVAL_FAKE_METER_RANGE_J ROOFVAL_HARDWARE_DIR \
	ROOFVAL_BASELINE_DIR
. "$lib"
# run ARGS...: roofval ARGS, stdout in out, stderr in err, the status in rc.
run() {
	"$roofval" "$@" >out 2>err
	rc=$?
}

# 1. probe keeps a profile of the hardware folder unless --force is given.
mkdir -p hw
cp "$repo/hardware/xeon_amx_2vcpu.json" hw/ && cp hw/xeon_amx_2vcpu.json committed.json
run probe --hw host --key xeon_amx_2vcpu --hardware-dir hw --quick
expect "probe over a committed profile: exit $rc, $(cat err)" eval '[ $rc = 1 ] &&
	[ "$(cat err)" = "roofval: probe: hw/xeon_amx_2vcpu.json exists; give --force to replace it (or --key NEW)" ] &&
	[ ! -s out ]'
expect "probe without --force changed the profile" cmp -s hw/xeon_amx_2vcpu.json committed.json
# A new key is written; written again, it is kept; --force replaces it.
run probe --hw host --key ds_new --hardware-dir hw --quick
expect "probe of a new key: exit $rc, $(cat err)" eval '[ $rc = 0 ] && [ -f hw/ds_new.json ]'
printf '{"kept": 1}\n' >hw/ds_new.json
run probe --hw host --key ds_new --hardware-dir hw --quick
expect "probe of an existing key without --force: exit $rc, $(cat err)" eval '[ $rc = 1 ] &&
	grep -q "hw/ds_new.json exists; give --force" err && [ "$(cat hw/ds_new.json)" = "{\"kept\": 1}" ]'
run probe --hw host --key ds_new --hardware-dir hw --quick --force
expect "probe --force: exit $rc, $(cat err)" eval '[ $rc = 0 ] && grep -q "\"key\": \"ds_new\"" hw/ds_new.json'
"$roofval" hw lint hw/ds_new.json >/dev/null 2>&1 || bad "the forced profile does not lint"
# --output names the user's own path: replacing it is what was asked.
mkdir -p own && printf 'mine\n' >own/ds_out.json
run probe --hw host --key ds_out -o own/ds_out.json --quick
expect "probe -o an existing file: exit $rc, $(cat err)" eval '[ $rc = 0 ] &&
	grep -q "\"key\": \"ds_out\"" own/ds_out.json'
run probe --help
expect "probe --help lacks --force" grep -q -- "--force" out

# 2. sweep generate whose bounds select nothing writes nothing and says why.
mkdir -p sw && cp "$repo/sweeps/matmul_calibration.json" "$repo/sweeps/matmul_validation.json" sw/
cp sw/matmul_calibration.json cal.json && cp sw/matmul_validation.json val.json
gen=(sweep generate --op matmul --seed 1 --hardware-dir "$repo/hardware")
run "${gen[@]}" --targets xeon_amx_2vcpu --max-flop 1 --output-dir sw
expect "generate selecting nothing: exit $rc, $(cat err)" eval '[ $rc = 1 ] && [ ! -s out ] &&
	[ "$(cat err)" = "roofval: sweep generate: no candidate shape of matmul fits --max-flop 1 and --max-bytes 1073741824 for xeon_amx_2vcpu; raise the bounds" ]'
expect "generate selecting nothing replaced the sweeps" \
	eval 'cmp -s sw/matmul_calibration.json cal.json && cmp -s sw/matmul_validation.json val.json'
run "${gen[@]}" --targets xeon_amx_2vcpu --max-flop 1e6 --output-dir sw
expect "generate with only ambiguous shapes: exit $rc, $(cat err)" eval '[ $rc = 1 ] &&
	grep -q "are all ambiguous or unsupported for xeon_amx_2vcpu; raise the bounds" err &&
	cmp -s sw/matmul_calibration.json cal.json'
run "${gen[@]}" --targets i7_12700k --max-flop 1e6 --output-dir sw
expect "generate leaving a purpose empty: exit $rc, $(cat err)" eval '[ $rc = 1 ] &&
	grep -q "leave none for the validation sweep; raise the bounds or lower --per-regime" err &&
	cmp -s sw/matmul_validation.json val.json'
# Into a folder not there yet: nothing made at all.
run "${gen[@]}" --targets xeon_amx_2vcpu --max-flop 1 --output-dir none/yet
expect "generate selecting nothing made files: exit $rc" eval '[ $rc = 1 ] && [ ! -e none/yet/matmul_calibration.json ]'
# Empty and blank target lists are refused, as before; no message says the
# command twice after the "roofval: sweep generate: " prefix.
for t in "" "," " "; do
	run "${gen[@]}" --targets "$t" --output-dir sw
	expect "generate --targets '$t': exit $rc, $(cat err)" eval '[ $rc = 1 ] &&
		! grep -q "sweep generate: sweep generate" err && cmp -s sw/matmul_calibration.json cal.json'
done
run "${gen[@]}" --targets "," --output-dir sw
expect "generate --targets ',': $(cat err)" grep -q "no hardware key in the targets ','; give keys separated by commas" err

# 3. The manifest is kept like the rows.
mkdir -p cs
cat >cs/matmul_calibration.json <<'JSON'
{"op": "matmul", "purpose": "calibration", "shapes": [
 {"shape": [64, 64, 64], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "launch_bound"}},
 {"shape": [128, 64, 64], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "launch_bound"}},
 {"shape": [256, 256, 256], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "l2_bound"}}]}
JSON
cap=(capture --hw i7_12700k --op matmul --purpose calibration --hardware-dir "$repo/hardware"
	--kernel null --trials 3 --warmup 1)
# Not a manifest: refused before anything is measured, kept as it is.
mkdir -p notman && printf '[1, 2]\n' >notman/i7_12700k_matmul.meta.json
run "${cap[@]}" --meter none --sweep-dir cs --baseline-dir notman
expect "capture onto a file that is not a manifest: exit $rc, $(cat err)" eval '[ $rc = 1 ] &&
	[ "$(tail -n 1 err)" = "roofval: capture: notman/i7_12700k_matmul.meta.json is not a roofval manifest (not a JSON object); move it away (it is kept; nothing was captured)" ] &&
	[ ! -e notman/i7_12700k_matmul.csv ] && [ "$(cat notman/i7_12700k_matmul.meta.json)" = "[1, 2]" ]'
# A folder and an argument that are not UTF-8: recorded escaped as \xHH,
# nothing dropped; the manifest still valid JSON.
mkdir -p $'cs\xff' && cp cs/matmul_calibration.json $'cs\xff'/
run "${cap[@]}" --meter none --sweep-dir $'cs\xff' --baseline-dir utf
meta=utf/i7_12700k_matmul.meta.json
expect "capture with a non-UTF-8 sweep folder: exit $rc, $(cat err)" eval '[ $rc = 0 ] &&
	grep -q "^        \"cs\\\\\\\\xff\",\$" $meta && grep -q "\"sweep\": \"cs\\\\\\\\xff/matmul_calibration.json\"" $meta &&
	grep -q "\"ended\": \"complete\"" $meta && grep -q "\"rows\": 3" $meta'
if command -v python3 >/dev/null; then
	expect "the escaped manifest is not JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' $meta
fi
# SIGINT after the first row: the rows kept and their run in the manifest.
"$roofval" "${cap[@]}" --meter fake --min-window 2 --sweep-dir cs --baseline-dir int 2>int.err &
cpid=$!
for _ in $(seq 600); do
	grep -q '^\[1/3\]' int.err 2>/dev/null && break
	sleep 0.1
done
sleep 0.5
kill -INT $cpid
wait $cpid
crc=$?
expect "SIGINT: exit $crc, $(cat int.err)" eval '[ $crc = 130 ] &&
	grep -q "\"ended\": \"interrupted\"" int/i7_12700k_matmul.meta.json &&
	[ "$(grep -c "\"rows\": [12]," int/i7_12700k_matmul.meta.json)" = 1 ]'

# SIGHUP (a closed terminal or ssh) ends a capture as SIGINT does.
"$roofval" "${cap[@]}" --meter fake --min-window 2 --sweep-dir cs --baseline-dir hup 2>hup.err &
cpid=$!
for _ in $(seq 600); do
	grep -q '^\[1/3\]' hup.err 2>/dev/null && break
	sleep 0.1
done
kill -HUP $cpid
wait $cpid
crc=$?
expect "SIGHUP: exit $crc, $(tail -n 1 hup.err)" eval '[ $crc = 130 ] &&
	grep -q "\"ended\": \"interrupted\"" hup/i7_12700k_matmul.meta.json &&
	grep -q "^i7_12700k,matmul,64x64x64," hup/i7_12700k_matmul.csv'
# Its progress into a pipe whose reader is gone (2>&1 | head -n 1): no death
# by SIGPIPE; the rows so far and their manifest entry kept together.
("$roofval" "${cap[@]}" --meter fake --min-window 0.5 --sweep-dir cs --baseline-dir pipe 2>&1
	echo "rc=$?" >pipe.rc) | head -n 1 >pipe.out
sleep 0.2
rows=$(grep -c '^i7_12700k,matmul,' pipe/i7_12700k_matmul.csv 2>/dev/null)
expect "capture 2>&1 | head -n 1: $(cat pipe.rc 2>/dev/null), ${rows:-0} rows, manifest: $(grep -c '"ended"' pipe/i7_12700k_matmul.meta.json 2>/dev/null)" \
	eval 'grep -q "^capture i7_12700k matmul" pipe.out && [ "$(cat pipe.rc)" = rc=130 ] && [ "${rows:-0}" -ge 1 ] &&
	grep -q "\"ended\": \"interrupted\"" pipe/i7_12700k_matmul.meta.json &&
	grep -q "\"rows\": $rows," pipe/i7_12700k_matmul.meta.json'
# A baseline it cannot load is refused before the first shape is measured.
mkdir -p badcsv && printf 'not,a,baseline\n' >badcsv/i7_12700k_matmul.csv
run "${cap[@]}" --meter none --sweep-dir cs --baseline-dir badcsv
expect "capture onto a baseline it cannot load: exit $rc, $(cat err)" eval '[ $rc = 1 ] &&
	[ "$(wc -l <err)" = 1 ] && grep -q "badcsv/i7_12700k_matmul.csv:1:1: .*nothing was measured" err &&
	[ "$(cat badcsv/i7_12700k_matmul.csv)" = "not,a,baseline" ] && [ ! -e badcsv/i7_12700k_matmul.meta.json ]'
# Stopped in the second of three --repeat rounds: the counts of the rounds, not "3 of 3 shapes".
"$roofval" "${cap[@]}" --meter fake --min-window 0.3 --repeat 3 --sweep-dir cs --baseline-dir rep 2>rep.err &
cpid=$!
for _ in $(seq 600); do
	grep -q '^\[round 2/3, 1/3\]' rep.err 2>/dev/null && break
	sleep 0.1
done
kill -INT $cpid
wait $cpid
crc=$?
expect "SIGINT in the second of three rounds: exit $crc, $(tail -n 1 rep.err)" eval '[ $crc = 130 ] &&
	tail -n 1 rep.err | grep -Eq "^roofval: capture: interrupted in round 2/3, after [45] of 9 measurements \(3 shapes in every round\); rep/i7_12700k_matmul.csv keeps every finished row$"'

# 4. A writer never writes what its loader refuses: a meter reading an
# absurd energy (1e305 W, a counter range of 1e306 J) leaves the energy
# cells empty with a note, and every command still loads the file.
ROOFVAL_FAKE_METER_POWER_W=1e305 ROOFVAL_FAKE_METER_RANGE_J=1e306 \
	"$roofval" "${cap[@]}" --meter fake --min-window 0.02 --sweep-dir cs --baseline-dir absurd 2>absurd.err
rc=$?
csv=absurd/i7_12700k_matmul.csv
expect "capture with an absurd energy: exit $rc, $(cat absurd.err)" eval '[ $rc = 0 ] &&
	[ "$(grep -c "^i7_12700k,matmul,[0-9x]*,fp32,[0-9.e-]*,,[0-9]*," $csv)" = 3 ] &&
	[ "$(grep -c "J is not a plausible energy per call (at most 1e9 J, a day at over 10 kW); check its unit; written empty" $csv)" = 3 ] &&
	! grep -q "e+2[0-9][0-9]," $csv'
# The progress line shows the energy as the row holds it: none.
expect "capture's progress shows the absurd energy: $(cat absurd.err)" eval '! grep -q "EJ\|e+2[0-9][0-9]" absurd.err'
run baseline show $csv
expect "baseline show refuses the absurd capture: exit $rc, $(cat err)" eval '[ $rc = 0 ] && grep -q "3 rows" out'
run baseline normalize $csv -o absurd-n.csv
expect "baseline normalize refuses the absurd capture: exit $rc, $(cat err)" eval '[ $rc = 0 ]'
run validate --hw i7_12700k --op matmul --purpose calibration --sweep-dir cs --hardware-dir \
	"$repo/hardware" --baseline-dir absurd
expect "validate refuses the absurd capture: exit $rc, $(cat err)" eval '[ $rc != 2 ] &&
	! grep -q "absurd/i7_12700k_matmul.csv" err && grep -q "3 scored" out'
run "${cap[@]}" --meter none --sweep-dir cs --baseline-dir absurd
expect "a capture into the absurd capture's file: exit $rc, $(cat err)" eval '[ $rc = 0 ]'

# 5. baseline merge keeps the columns it does not know (docs/baseline-csv.md:
# unknown columns are kept through every rewrite), each row's from the
# capture it takes the row from, and refuses an input holding rows of
# another hardware than its name says, writing nothing.
mkdir -p mg/a mg/b
hdr=hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes
printf '%s,site,latency_min_s\nh,matmul,8x8x8,fp32,1e-05,,3,,rack-a,9e-06\nh,matmul,16x16x16,fp32,2e-05,,3,,rack-a,1.9e-05\n' \
	"$hdr" >mg/a/h_matmul.csv
printf '%s,rack,site\nh,matmul,8x8x8,fp32,3e-05,,3,,r7,rack-b\nh,matmul,32x32x32,fp32,4e-05,,3,,r8,rack-b\n' \
	"$hdr" >mg/b/h_matmul.csv
run baseline merge -o mg/out mg/a mg/b
expect "merge of folders with unknown columns: exit $rc, $(cat err)" eval '[ $rc = 0 ]'
expect "the merged header keeps site and rack: $(head -n 1 mg/out/h_matmul.csv)" \
	eval 'head -n 1 mg/out/h_matmul.csv | tr -d "\r" | grep -qx "$hdr,site,latency_min_s,rack,repeats,repeat_spread"'
# 8x8x8: the median of 1e-5 and 3e-5 is 2e-5, a tie between the two taken
# from the first, a's (site rack-a, no rack); 32x32x32 only b has (r8, rack-b).
expect "the row of 16x16x16 keeps a's site: $(grep 16x16x16 mg/out/h_matmul.csv)" \
	eval 'grep "^h,matmul,16x16x16," mg/out/h_matmul.csv | tr -d "\r" | grep -q ",rack-a,1.9e-05,,,$"'
expect "the row of 32x32x32 keeps b's site and rack: $(grep 32x32x32 mg/out/h_matmul.csv)" \
	eval 'grep "^h,matmul,32x32x32," mg/out/h_matmul.csv | tr -d "\r" | grep -q ",rack-b,,r8,,$"'
expect "the merged row of 8x8x8 keeps its capture's site: $(grep 8x8x8 mg/out/h_matmul.csv)" \
	eval 'grep "^h,matmul,8x8x8," mg/out/h_matmul.csv | tr -d "\r" | grep -Eq ",rack-[ab],[^,]*,(r7)?,2,"'
run baseline normalize mg/out/h_matmul.csv -o mg/norm.csv
expect "the merged file loads" eval '[ $rc = 0 ]'
# A row of another hardware in h_matmul.csv: exit 1, one line naming the
# file and line; the output folder is not made.
mkdir -p mg/c && printf '%s\nh,matmul,8x8x8,fp32,1e-05,,3,\nother,matmul,64x64x64,fp32,1e-04,,3,\n' "$hdr" >mg/c/h_matmul.csv
run baseline merge -o mg/out2 mg/a mg/c
expect "merge of an input with another hardware's row: exit $rc, $(cat err)" eval '[ $rc = 1 ] &&
	[ "$(wc -l <err)" = 1 ] &&
	grep -q "^roofval: baseline merge: mg/c/h_matmul.csv:3: a row for hardware '"'"'other'"'"' in the baseline of '"'"'h'"'"'" err &&
	[ ! -e mg/out2 ]'

echo "datasafety: $pass passed, $fail failed"
[ "$fail" = 0 ]
