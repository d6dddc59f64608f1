#!/usr/bin/env bash
# Clear messages: an unknown command, option, hardware key, meter,
# op or dtype is one line with the nearest name; no doubled "roofval:
# roofval:"; a single-valued option given twice, a value out of the table's
# range or an option where a value should be is a usage error (exit 2);
# output folders are made when missing, or the message names the part in
# the way; a long value is cut in the middle so the reason after it stays;
# baseline show escapes control characters from the file; a write error on
# standard output names the command (exit 1); exit 130 is documented.
# usage: messages.sh ROOFVAL DATA_DIR SCRATCH_DIR
set -u
lib=$(cd "$(dirname "$0")" && pwd)/lib.sh
roofval=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$(cd "$2" && pwd)
scratch=$3
repo=$(cd "$data/../.." && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
cd "$scratch" || exit 1
scratch=$(pwd)
unset ROOFVAL_HARDWARE_DIR ROOFVAL_BASELINE_DIR ROOFVAL_SWEEP_DIR ROOFVAL_DATA_DIR
hw=(--hardware-dir "$repo/hardware")
. "$lib"
# run ARGS...: runs roofval, its status in $rc, stdout in out, stderr in err
# (every stderr kept in all.err, for the doubled-prefix check).
run() {
	"$roofval" "$@" >out 2>err
	rc=$?
	cat err >>all.err
}
# exact RC LINE ARGS...: exit RC and stderr exactly the one line LINE.
exact() {
	local want_rc=$1 line=$2
	shift 2
	run "$@"
	if [ "$rc" != "$want_rc" ] || [ "$(cat err)" != "$line" ]; then
		bad "roofval $*: exit $rc (wanted $want_rc), stderr: $(cat err) (wanted: $line)"
	else
		pass=$((pass + 1))
	fi
}
# first RC TEXT ARGS...: exit RC, TEXT in the first line of stderr.
first() {
	local want_rc=$1 text=$2
	shift 2
	run "$@"
	if [ "$rc" != "$want_rc" ] || ! head -n 1 err | grep -qF -- "$text"; then
		bad "roofval $*: exit $rc (wanted $want_rc), stderr: $(head -n 1 err) (wanted: $text)"
	else
		pass=$((pass + 1))
	fi
}
expect() {
	local name=$1
	shift
	if "$@"; then pass=$((pass + 1)); else bad "$name"; fi
}

# 1. Unknown names: one line, the nearest name.
exact 2 "roofval: unknown command 'valdate'; did you mean 'validate'? (roofval help)" valdate
exact 2 "roofval: unknown command 'captrue'; did you mean 'capture'? (roofval help)" captrue
exact 2 "roofval: unknown command 'zzzzzz' (roofval help)" zzzzzz
exact 2 "roofval: hw: unknown command 'lst'; did you mean 'list'? (roofval hw help)" hw lst
exact 2 "roofval: baseline: unknown command 'shwo'; did you mean 'show'? (roofval baseline help)" \
	baseline shwo
exact 2 "roofval: unknown command 'valdate'; did you mean 'validate'? (roofval help)" help valdate
first 2 "roofval: help: unknown command 'valdate'; did you mean 'validate'? (roofval help)" \
	help --man valdate
# a missing command lists the commands, once prefixed
first 2 "roofval: a command is missing"
run
expect "no command: the list of commands follows" grep -q "^  validate " err
first 2 "roofval: hw: a command is missing" hw
# options: the nearest option of the command's table, under the command's full name
first 2 "roofval: hw list: unknown option '--hardwre-dir'; did you mean '--hardware-dir'?" \
	hw list --hardwre-dir x
first 2 "roofval: validate: unknown option '--formt=json'; did you mean '--format'?" \
	validate --all --formt=json
first 2 "roofval: validate: unknown option '--zzzzzzzz'" validate --all --zzzzzzzz
expect "unknown option: no suggestion when nothing is near" eval '! grep -q "did you mean" err'
# choices, ops, dtypes
first 2 "roofval: validate: unknown format 'jsn' (known: text markdown json); did you mean 'json'?" \
	validate --all --format jsn
first 1 "unknown op 'matmal' (known: matmul linear vector_add); did you mean 'matmul'?" \
	predict --hw xeon_amx_2vcpu "${hw[@]}" --op matmal --shape 64x64x64
first 1 "unknown dtype 'fp23' (known: fp64 fp32 tf32 fp16 bf16 fp8_e4m3 fp8_e5m2 int64 int32 int16 int8 int4 fp4); did you mean 'fp32'?" \
	predict --hw xeon_amx_2vcpu "${hw[@]}" --op matmul --dtype fp23 --shape 64x64x64
# meters: the known ones and the nearest
first 1 "roofval: capture: no meter called 'rapll' (known meters: fake, rapl, rapl_perf, nvml, nvml_power, ina); did you mean 'rapl'?" \
	capture --hw i7_12700k "${hw[@]}" --op matmul --purpose calibration --kernel null --meter rapll
# hardware keys: "unknown", with the nearest key of the hardware folder, not "no baselines"
mkdir -p nobase
unknown="no hardware profile 'xeonn' in $repo/hardware (an unknown hardware key): did you mean 'xeon_amx_2vcpu'? run 'roofval hw list' for the known keys"
exact 1 "roofval: validate: $unknown" validate --hw xeonn "${hw[@]}" --baseline-dir nobase
exact 1 "roofval: validate: $unknown" validate --hw xeonn --op matmul "${hw[@]}" --baseline-dir nobase
exact 1 "roofval: plot roofline: $unknown" plot roofline --hw xeonn "${hw[@]}" --baseline-dir nobase
exact 1 "roofval: hw show: $unknown" hw show xeonn "${hw[@]}"
exact 1 "roofval: calibrate: $unknown" calibrate --hw xeonn "${hw[@]}" --baseline-dir nobase
first 1 "did you mean 'jetson_orin_nano_8gb'?" hw show jetson_orin_nano "${hw[@]}"
first 1 "no hardware profile 'qqqqqq' in $repo/hardware (an unknown hardware key); run 'roofval hw list'" \
	hw show qqqqqq "${hw[@]}"
# a known key without baselines still says there are none
first 1 "no baselines (<hw>_<op>.csv) for xeon_amx_2vcpu in nobase" \
	validate --hw xeon_amx_2vcpu "${hw[@]}" --baseline-dir nobase

# 2. Usage errors from the option tables: exit 2.
first 2 "roofval: validate: --purpose is given twice; it takes one value, give it once" \
	validate --all --purpose calibration --purpose validation
first 2 "roofval: capture: --trials is given twice; it takes one value, give it once" \
	capture --hw i7_12700k --op matmul --purpose calibration --trials 3 --trials 5
first 2 "roofval: baseline normalize: --output is given twice; it takes one value, give it once" \
	baseline normalize x.csv -o a.csv --output b.csv
first 2 "roofval: capture: --limit '0' is not an integer from 1 to 18446744073709551615" \
	capture --hw i7_12700k --op matmul --purpose calibration --limit 0
first 2 "roofval: validate: option '--hw' needs a value, not the option '--op'" \
	validate --hw --op matmul
first 2 "roofval: plot roofline: option '--hw' needs a value, not the option '--baseline-dir'" \
	plot roofline --hw --baseline-dir nobase
# --model-timeout without a model command times nothing: a usage error.
first 2 "roofval: validate: --model-timeout limits a --model-cmd; without one there is nothing to time" \
	validate --all --model-timeout 5
first 2 "roofval: report: --model-timeout limits a --model-cmd" \
	report --output rep/t --model-timeout 5
first 2 "roofval: plot heatmap: --model-timeout limits a --model-cmd" \
	plot heatmap --model-timeout 5 --predictions x.csv
# --data-dir before the command is an option like every other: once, with a
# value, as --data-dir D or --data-dir=D.
first 2 "roofval: --data-dir is given twice; it takes one value, give it once" \
	--data-dir "$repo" --data-dir /nonexistent hw list
first 2 "roofval: option '--data-dir' needs a value" --data-dir
first 2 "roofval: option '--data-dir' needs a value, not the option '--hw'" --data-dir --hw hw list
first 2 "roofval: option '--data-dir' needs a value" --data-dir= hw list
run --data-dir="$repo" hw list
expect "--data-dir=D is --data-dir D (exit $rc, $(head -n 1 err))" eval '[ $rc = 0 ] && grep -q xeon_amx_2vcpu out'
# repeatable options stay repeatable; '-' stays a value
run plot compare --hw xeon_amx_2vcpu --hw i7_12700k "${hw[@]}" --baseline-dir nobase
expect "--hw twice for plot compare (repeatable): not 'given twice' ($(head -n 1 err))" \
	eval '[ $rc = 1 ] && ! grep -q "given twice" err'

# 3. Output folders are made when missing, 0777 less the umask, by every command.
umask 027
run report "${hw[@]}" --baseline-dir "$repo/results/baselines" --output rep/a/b/c
expect "report --output a/b/c: made ($(cat err))" eval '[ $rc = 0 ] && [ -f rep/a/b/c/index.html ]'
expect "report --output a/b/c: mode 0750" eval '[ "$(stat -c %a rep/a)" = 750 ]'
run sweep generate --op matmul --seed 1 --targets i7_12700k "${hw[@]}" --output-dir gen/x/y
expect "sweep generate --output-dir x/y: made ($(cat err))" \
	eval '[ $rc = 0 ] && [ -f gen/x/y/matmul_calibration.json ] && [ -f gen/x/y/matmul_validation.json ]'
run capture --hw i7_12700k "${hw[@]}" --op vector_add --purpose calibration \
	--sweep-dir "$repo/sweeps" --baseline-dir base/x/y --kernel null --meter none --limit 1
expect "capture --baseline-dir x/y: made ($(tail -n 1 err))" \
	eval '[ $rc = 0 ] && [ -f base/x/y/i7_12700k_vector_add.csv ] && [ -f base/x/y/i7_12700k_vector_add.meta.json ]'
expect "capture's folder: mode 0750" eval '[ "$(stat -c %a base/x)" = 750 ]'
# a writer with nothing to write makes no folder
run sweep augment --hw i7_12700k "${hw[@]}" --sweep-dir nosweeps/here
expect "sweep augment on a missing folder makes none" test ! -e nosweeps
umask 022
printf 'hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\nh,matmul,64x64x128,fp32,1e-05,,3,\n' >in.csv
run baseline normalize in.csv -o norm/deep/out.csv
expect "baseline normalize -o a/b/file: made" eval '[ $rc = 0 ] && [ -f norm/deep/out.csv ]'
# a file where a folder should be: the message says which
exact 1 "roofval: baseline normalize: cannot make the folder $scratch/in.csv/sub: $scratch/in.csv is not a folder" \
	baseline normalize in.csv -o "$scratch/in.csv/sub/out.csv"
first 1 "roofval: report: in.csv is not a folder" report "${hw[@]}" \
	--baseline-dir "$repo/results/baselines" --output in.csv

# 4. A long value is cut in the middle: the reason after it stays.
long=/very/long/pa$(printf 'x%.0s' $(seq 1 5000))/end/name.csv
run baseline show "$long"
line=$(cat err)
expect "a 5000-character path: one line of stderr" test "$(wc -l <err)" = 1
expect "a 5000-character path: at most 1100 bytes ($(wc -c <err))" test "$(wc -c <err)" -le 1100
expect "a 5000-character path: the start of the path kept" \
	eval '[[ $line == "roofval: baseline show: cannot open /very/long/pa"* ]]'
expect "a 5000-character path: its end and the reason kept ($line)" \
	eval '[[ $line == *"/end/name.csv: File name too long" ]]'
expect "a 5000-character path: cut in the middle, with an ellipsis" grep -q $'x\xe2\x80\xa6x' err
# the same for a long value of an option, a long unknown command, a long format
ys=$(printf 'y%.0s' $(seq 1 3000))
run capture --hw i7_12700k --op matmul --purpose calibration --limit "$ys"
ell=$'\xe2\x80\xa6'
expect "--limit of 3000 characters: cut, the reason kept ($(head -c 100 err))" \
	eval '[ $rc = 2 ] && head -n 1 err | grep -q "^roofval: capture: --limit .yyy*${ell}yyy*. is not an integer from 1 to 18446744073709551615$"'
run "$ys"
expect "a command of 3000 characters: one line, cut, the way out kept" \
	eval '[ $rc = 2 ] && [ "$(wc -l <err)" = 1 ] && [ "$(wc -c <err)" -lt 400 ] && grep -q "(roofval help)$" err'
run validate --all --format "$ys"
expect "--format of 3000 characters: the known formats kept" \
	eval '[ $rc = 2 ] && head -n 1 err | grep -q "(known: text markdown json)$"'
# control characters in arguments are escaped in messages too
exact 2 "roofval: unknown command 'a\x1b[31mb\nc' (roofval help)" $'a\x1b[31mb\nc'
first 2 "roofval: validate: unknown format 'a\nb' (known: text markdown json)" validate --all --format $'a\nb'

# A 10 MB hardware key in a baseline, a sweep and a fit file: one line of
# at most 1100 bytes that still ends with the reason.
python3 - <<'PY'
import json
k = 'a' * 10000000 + '!'
open('bigkey.csv', 'w').write('hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes\n' + k + ',matmul,8x8x8,fp32,1e-05,,3,\n')
import os
os.makedirs('bigsw', exist_ok=True)
json.dump({'op': 'matmul', 'purpose': 'calibration', 'shapes': [{'shape': [8, 8, 8], 'dtype': 'fp32', 'regime_per_hw': {k: 'alu_bound'}}]}, open('bigsw/matmul_calibration.json', 'w'))
os.makedirs('bighw', exist_ok=True)
json.dump({'schema': 'roofval.fit/1', 'hardware': k, 'parameters': {}}, open('bighw/xeon_amx_2vcpu.fit.json', 'w'))
PY
cp "$repo/hardware/xeon_amx_2vcpu.json" bighw/
long_key() { # NAME REASON ARGS...
	local name=$1 reason=$2
	shift 2
	run "$@"
	expect "$name: one line of at most 1100 bytes ending '$reason' ($(wc -c <err) bytes: $(tail -c 120 err))" \
		eval '[ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] && [ "$(wc -c <err)" -le 1100 ] && grep -q -- "$reason\$" err'
}
long_key "a 10 MB key in a baseline" "a!' is not a hardware key (letters, digits, _ - .)" baseline show bigkey.csv
long_key "a 10 MB key in a sweep" "a!' is not a hardware key" \
	validate --hw xeon_amx_2vcpu --op matmul --purpose calibration "${hw[@]}" --sweep-dir bigsw
long_key "a 10 MB key in a fit file" "a!', not of 'xeon_amx_2vcpu'; recalibrate xeon_amx_2vcpu" \
	hw show xeon_amx_2vcpu --hardware-dir bighw
rm -rf bigkey.csv bigsw bighw
# A SOURCE_DATE_EPOCH that is not a date is refused before any work, not
# written as "1900-01-00".
for v in abc 99999999999999 -5; do
	SOURCE_DATE_EPOCH=$v "$roofval" calibrate --hw xeon_amx_2vcpu --hardware-dir "$repo/hardware" \
		--sweep-dir "$repo/sweeps" --baseline-dir "$repo/results/baselines" -o sde.json >out 2>err
	rc=$?
	expect "SOURCE_DATE_EPOCH=$v: refused (exit $rc, $(tail -n 1 err))" \
		eval '[ $rc = 1 ] && [ "$(cat err)" = "roofval: calibrate: SOURCE_DATE_EPOCH is '"'"'$v'"'"', not a date in seconds since 1970 (as '"'"'date +%s'"'"' prints it); fix it or unset it" ] && [ ! -e sde.json ]'
done

# 5. baseline show escapes control characters from the file.
printf 'hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes,x\033y\nh,matmul,64x64x128,fp32,1e-05,,3,"a\033[31mred\tnote\177\001",v\n' >ctl.csv
run baseline show ctl.csv
expect "baseline show: escaped notes ($(cat out))" grep -qF 'a\x1b[31mred\tnote\x7f\x01' out
expect "baseline show: escaped column names" grep -qF 'extra columns: x\x1by' out
expect "baseline show: no control character reaches the terminal" \
	eval '! LC_ALL=C grep -q "[[:cntrl:]]" out'

# 6. A write error on standard output names the command (through a link in
# the scratch folder, so that a broken build replaces the link, not /dev/full).
if [ -w /dev/full ]; then
	ln -s /dev/full full
	"$roofval" hw list "${hw[@]}" >full 2>err
	rc=$?
	cat err >>all.err
	expect "hw list >/dev/full: exit 1 and the command named ($(cat err))" \
		eval '[ $rc = 1 ] && [ "$(cat err)" = "roofval: hw list: cannot write to standard output: No space left on device" ]'
	"$roofval" version >full 2>err
	rc=$?
	expect "version >/dev/full ($(cat err))" \
		eval '[ $rc = 1 ] && [ "$(cat err)" = "roofval: version: cannot write to standard output: No space left on device" ]'
	"$roofval" help --man >full 2>err
	rc=$?
	expect "help --man >/dev/full ($(cat err))" \
		eval '[ $rc = 1 ] && [ "$(cat err)" = "roofval: help: cannot write to standard output: No space left on device" ]'
	"$roofval" --data-dir "$repo" hw list >full 2>err
	rc=$?
	expect "--data-dir DIR hw list >/dev/full ($(cat err))" \
		eval '[ $rc = 1 ] && [ "$(cat err)" = "roofval: hw list: cannot write to standard output: No space left on device" ]'
	"$roofval" baseline show in.csv >full 2>err
	rc=$?
	expect "baseline show >/dev/full: exit 1, one line ($(cat err))" \
		eval '[ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q "^roofval: baseline show: cannot write to standard output" err'
else
	echo "messages: no writable /dev/full: the standard output checks skipped"
fi

# 7. Exit 130 on interrupt is documented: in roofval(1) and every page.
run help --man
expect "roofval(1) documents exit 130" grep -q '^\\fB130\\fR' out
run help --man validate
expect "roofval-validate(1) documents exit 130" grep -q '^\\fB130\\fR' out
run help --man capture
expect "roofval-capture(1) documents exit 130" grep -q 'SIGINT or SIGTERM, ends with 130' out

# No message anywhere doubles the prefix.
expect "no 'roofval: roofval:' in any message ($(grep -m1 'roofval: roofval' all.err))" \
	eval '! grep -q "roofval: roofval" all.err'

echo "messages: $pass passed, $fail failed"
[ "$fail" = 0 ]
