#!/usr/bin/env bash
# Data safety: the output path is the user's (links followed to
# their target, FIFOs and devices written through, descriptor aliases
# written to, '-' is standard output), special files are refused before
# they are read instead of hanging, only roofval's own temporary files are
# cleaned up, and writers of one file run concurrently lose nothing.
# usage: safety.sh ROOFVAL DATA_DIR SCRATCH_DIR
set -u
lib=$(cd "$(dirname "$0")" && pwd)/lib.sh
roofval=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$(cd "$2" && pwd)
scratch=$3
repo=$(cd "$data/../.." && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
cd "$scratch" || exit 1
unset ROOFVAL_FAKE_METER_POWER_W ROOFVAL_FAKE_METER_FAIL_AFTER ROOFVAL_FAKE_METER_BACKWARDS \
	ROOFVAL_FAKE_METER_FREEZE_AFTER ROOFVAL_HARDWARE_DIR ROOFVAL_BASELINE_DIR
. "$lib"

header=hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes
printf '%s\nh,matmul,64x64x128,fp32,1e-05,,3,\nh,matmul,16x16x16,fp32,1e-06,,3,\n' "$header" >in.csv
"$roofval" baseline normalize in.csv -o want.csv >/dev/null || bad "normalize into a new file"

# 1. The output path is the user's.
# A link is followed, its target replaced, the link kept (a dangling one too).
mkdir -p sub && printf 'old\n' >sub/t.csv && ln -s sub/t.csv link && ln -s sub/new.csv dangling
"$roofval" baseline normalize in.csv -o link >/dev/null 2>err || bad "-o link: $(cat err)"
"$roofval" baseline normalize in.csv -o dangling >/dev/null 2>err || bad "-o dangling link: $(cat err)"
expect "-o link: the link is kept and its target replaced" \
	eval '[ -L link ] && cmp -s sub/t.csv want.csv && [ -L dangling ] && cmp -s sub/new.csv want.csv'
# A character device is written through, never replaced: through a link, so
# that a broken build replaces the link, not the machine's /dev/null.
ln -s /dev/null devnull
expect "-o link to /dev/null" "$roofval" baseline normalize in.csv -o devnull >/dev/null
expect "-o link to /dev/null left the link and the character device" \
	eval '[ -L devnull ] && [ -c /dev/null ]'
# A descriptor alias is this process's descriptor: a link to /proc/self/fd/1, /dev/stdout.
ln -s /proc/self/fd/1 fdlink
"$roofval" baseline normalize in.csv -o fdlink >fd.out 2>err || bad "-o link to /proc/self/fd/1: $(cat err)"
expect "-o link to /proc/self/fd/1: written to standard output, the link kept" \
	eval '[ -L fdlink ] && head -n 3 fd.out | cmp -s - want.csv'
# (through links in the scratch folder: a broken build replaces those, not /dev/stdout)
ln -s /dev/stdout stdout
"$roofval" baseline normalize in.csv -o stdout >stdout.out 2>err || bad "-o link to /dev/stdout: $(cat err)"
expect "-o link to /dev/stdout" eval '[ -L stdout ] && head -n 3 stdout.out | cmp -s - want.csv'
# A FIFO with a reader is written through and stays a FIFO.
mkfifo fifo
timeout 10 cat fifo >from-fifo &
reader=$!
"$roofval" baseline normalize in.csv -o fifo >/dev/null 2>err || bad "-o FIFO: $(cat err)"
wait $reader
expect "-o FIFO: written through, still a FIFO" eval '[ -p fifo ] && cmp -s from-fifo want.csv'
# A FIFO nobody reads is refused after a short wait (run in the background,
# checked at the end), never replaced by a file.
mkfifo lonely
"$roofval" baseline normalize in.csv -o lonely >/dev/null 2>lonely.err &
lonely_pid=$!
# A socket or another process's descriptor is refused with one line.
if command -v python3 >/dev/null &&
	python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('sock')" 2>/dev/null; then
	"$roofval" baseline normalize in.csv -o sock >/dev/null 2>err
	rc=$?
	expect "-o socket refused" eval '[ $rc = 1 ] && grep -q "^roofval: baseline normalize: sock is a socket" err && [ -S sock ]'
	timeout 5 "$roofval" baseline show sock >/dev/null 2>err
	expect "reading a socket is refused" grep -q "sock is not a regular file but a socket" err
fi
sleep 30 &
other=$!
"$roofval" baseline normalize in.csv -o /proc/$other/fd/1 >/dev/null 2>err
expect "-o another process's descriptor refused" grep -q "is a descriptor of another process" err
kill $other
# '-' is standard output, for every command that writes a file with -o.
expect "normalize -o -" eval '"$roofval" baseline normalize in.csv -o - | cmp -s - want.csv'
mkdir -p cal/hw cal/sw cal/base
cp "$data/hardware/e2e/newcpu.json" cal/hw/
cp "$repo/hardware/i7_12700k.json" cal/hw/
cal=(--hardware-dir cal/hw --sweep-dir cal/sw --baseline-dir cal/base)
"$roofval" sweep generate --op vector_add --seed 7 --targets newcpu --per-regime 3 \
	--max-bytes 5e7 --output-dir cal/sw --hardware-dir cal/hw >/dev/null 2>err || bad "generate: $(cat err)"
for pu in calibration validation; do
	# the cblas kernel: the null kernel's timings determine no fit
	"$roofval" capture --hw newcpu --op vector_add --purpose $pu --meter fake \
		--min-window 0.01 --trials 3 "${cal[@]}" >/dev/null 2>err || bad "capture: $(tail -n 1 err)"
done
# -o - on a fit that does not depend on this machine's timings: the committed xeon rows.
"$roofval" calibrate --hw xeon_amx_2vcpu --hardware-dir "$repo/hardware" --sweep-dir "$repo/sweeps" \
	--baseline-dir "$repo/results/baselines" -o - >fit.out 2>err || bad "calibrate -o -: $(tail -n 1 err)"
expect "calibrate -o - writes the fit to standard output" grep -q '"schema"' fit.out
"$roofval" validate --hw newcpu --purpose validation "${cal[@]}" -o - >validate.out 2>err
expect "validate -o - writes the report to standard output" grep -q records validate.out
"$roofval" plot roofline --hw newcpu "${cal[@]}" -o - >plot.out 2>err
expect "plot -o - writes the picture to standard output" grep -q '<svg' plot.out
expect "no file named '-' was made" test ! -e -

# 2. Special files are checked before they are read: errors, not hangs.
timeout 5 "$roofval" baseline show fifo >/dev/null 2>err
rc=$?
expect "baseline show FIFO" eval '[ $rc = 1 ] && grep -q "fifo is not a regular file but a FIFO" err'
mkdir -p hwf && cp cal/hw/newcpu.json hwf/ && mkfifo hwf/stuck.json
timeout 5 "$roofval" hw list --hardware-dir hwf >list.out 2>err
rc=$?
expect "hw list with a FIFO in the hardware folder" eval '[ $rc = 0 ] && grep -q newcpu list.out'
timeout 5 "$roofval" hw lint hwf/stuck.json >/dev/null 2>err
rc=$?
expect "hw lint FIFO" eval '[ $rc = 1 ] && grep -q "is not a regular file but a FIFO" err'
mkdir -p fsw && mkfifo fsw/vector_add_validation.json
timeout 5 "$roofval" validate --hw newcpu --purpose validation --hardware-dir cal/hw \
	--sweep-dir fsw --baseline-dir cal/base >/dev/null 2>err
rc=$?
expect "validate with a FIFO as the sweep" eval '[ $rc = 1 ] && grep -q "not a regular file but a FIFO" err'

# A FIFO as a profile's fit file, or as the report of --against, is an error
# at once; a fit file that is a link to nothing is an error, not "no fit";
# --against a folder says it is a folder.
mkdir -p fitf && cp "$repo/hardware/xeon_amx_2vcpu.json" fitf/ && mkfifo fitf/xeon_amx_2vcpu.fit.json
timeout 5 "$roofval" predict --hw xeon_amx_2vcpu --hardware-dir fitf --op matmul --shape 64x64x64 \
	>/dev/null 2>err
rc=$?
expect "predict with a FIFO as the fit file" \
	eval '[ $rc = 1 ] && grep -q "xeon_amx_2vcpu.fit.json is not a regular file but a FIFO" err'
timeout 5 "$roofval" hw lint --hardware-dir fitf >/dev/null 2>err
rc=$?
expect "hw lint of a folder with a FIFO as a fit file" \
	eval '[ $rc = 1 ] && grep -q "xeon_amx_2vcpu.fit.json is not a regular file but a FIFO" err'
rm fitf/xeon_amx_2vcpu.fit.json && ln -s gone.fit.json fitf/xeon_amx_2vcpu.fit.json
timeout 5 "$roofval" predict --hw xeon_amx_2vcpu --hardware-dir fitf --op matmul --shape 64x64x64 \
	>/dev/null 2>err
rc=$?
expect "predict with a dangling link as the fit file" \
	eval '[ $rc = 1 ] && grep -q "xeon_amx_2vcpu.fit.json is a symbolic link to nothing" err'
against=(validate --hw xeon_amx_2vcpu --op matmul --hardware-dir "$repo/hardware"
	--sweep-dir "$repo/sweeps" --baseline-dir "$repo/results/baselines" --format json)
timeout 5 "$roofval" "${against[@]}" --against fifo >/dev/null 2>err
rc=$?
expect "--against a FIFO" eval '[ $rc = 1 ] && grep -q "fifo is not a regular file but a FIFO" err'
timeout 5 "$roofval" "${against[@]}" --against hwf >/dev/null 2>err
rc=$?
expect "--against a folder" eval '[ $rc = 1 ] && grep -q "hwf is a folder" err'

# 3. Only roofval's own temporary files are cleaned up.
cp cal/base/newcpu_vector_add.csv cal/base/newcpu_vector_add.csv.backup.tmp
cp cal/base/newcpu_vector_add.csv cal/base/newcpu_vector_add.csv.Ab3dE9.tmp
printf 'x' >cal/base/.newcpu_vector_add.csv.roofval-Ab3dE9.tmp
"$roofval" capture --hw newcpu --op vector_add --purpose calibration --kernel null --meter fake \
	--min-window 0.01 --trials 3 --limit 1 "${cal[@]}" >/dev/null 2>err || bad "capture: $(tail -n 1 err)"
expect "the user's *.tmp files are kept, a crashed writer's removed" \
	eval '[ -e cal/base/newcpu_vector_add.csv.backup.tmp ] && [ -e cal/base/newcpu_vector_add.csv.Ab3dE9.tmp ] && [ ! -e cal/base/.newcpu_vector_add.csv.roofval-Ab3dE9.tmp ]'

# 4. Writers of one file run concurrently lose nothing.
# Two sweep augment runs for different targets: both targets' labels survive.
mkdir -p two
sed 's/"key": "newcpu"/"key": "cpua"/' cal/hw/newcpu.json >two/cpua.json
sed 's/"key": "newcpu"/"key": "cpub"/' cal/hw/newcpu.json >two/cpub.json
lost=0
for round in 1 2 3 4 5; do
	rm -rf two/sw && cp -r "$repo/sweeps" two/sw
	"$roofval" sweep augment --hw cpua --sweep-dir two/sw --hardware-dir two >/dev/null 2>two/a.err &
	a=$!
	"$roofval" sweep augment --hw cpub --sweep-dir two/sw --hardware-dir two >/dev/null 2>two/b.err &
	b=$!
	wait $a || bad "augment cpua: $(cat two/a.err)"
	wait $b || bad "augment cpub: $(cat two/b.err)"
	for f in two/sw/*.json; do
		grep -q '"cpua": ' "$f" && grep -q '"cpub": ' "$f" || lost=$((lost + 1))
	done
done
expect "two concurrent sweep augment runs: $lost sweep files lost a target's labels" test $lost = 0
# A capture while baseline normalize rewrites the same baseline in a loop:
# every row the capture reported is in the file; two captures of the same
# folder both keep their runs in the manifest.
mkdir -p race
{
	echo '{"op": "matmul", "purpose": "calibration", "shapes": ['
	for i in $(seq 1 20); do
		printf ' {"shape": [%d, 8, 8], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "launch_bound"}}%s\n' \
			"$i" "$([ "$i" = 20 ] || echo ,)"
	done
	echo ']}'
} >race/matmul_calibration.json
sed 's/"calibration"/"validation"/' race/matmul_calibration.json >race/matmul_validation.json
printf '%s\n' "$header" >race/i7_12700k_matmul.csv
race=(--hw i7_12700k --op matmul --sweep-dir race --baseline-dir race --kernel null --meter fake --min-window 0.01)
"$roofval" capture "${race[@]}" --purpose calibration >/dev/null 2>race/cal.err &
c1=$!
"$roofval" capture "${race[@]}" --purpose validation >/dev/null 2>race/val.err &
c2=$!
normalized=0
while kill -0 $c1 2>/dev/null || kill -0 $c2 2>/dev/null; do
	"$roofval" baseline normalize race/i7_12700k_matmul.csv >/dev/null 2>race/norm.err ||
		bad "normalize during a capture: $(cat race/norm.err)"
	normalized=$((normalized + 1))
done
wait $c1 || bad "capture during normalize: $(tail -n 1 race/cal.err)"
wait $c2 || bad "second capture during normalize: $(tail -n 1 race/val.err)"
rows=$(grep -c '^i7_12700k,matmul,' race/i7_12700k_matmul.csv)
expect "capture against $normalized concurrent normalize runs: $rows of 20 rows kept" test "$rows" = 20
runs=$(grep -c '"purpose"' race/i7_12700k_matmul.meta.json)
expect "two concurrent captures: $runs of 2 runs in the manifest" test "$runs" = 2

# 5. An output never replaces one of the command's inputs (the same file by
# device and inode: through a link or a hard link too); the input is
# byte-identical afterwards.
mkdir -p oi && cp -r "$repo/hardware" "$repo/sweeps" oi/ && mkdir -p oi/base &&
	cp "$repo/results/baselines/xeon_amx_2vcpu_matmul.csv" oi/base/
oi=(--hw xeon_amx_2vcpu --hardware-dir oi/hardware --sweep-dir oi/sweeps --baseline-dir oi/base)
ln oi/base/xeon_amx_2vcpu_matmul.csv oi/hard.csv && ln -s base/xeon_amx_2vcpu_matmul.csv oi/soft.csv
cp -r oi oi.orig
"$roofval" predict "${oi[@]:0:4}" --sweep-dir oi/sweeps --format csv -o oi/pred.csv 2>err || bad "predict --format csv: $(cat err)"
cp oi/pred.csv oi.orig/pred.csv
# onto_input WHAT FILE ARGS...: roofval ARGS exits 1 with one line naming
# FILE as an input, and FILE is unchanged.
onto_input() {
	local what=$1 file=$2 rc
	shift 2
	"$roofval" "$@" >/dev/null 2>err
	rc=$?
	expect "$what: refused ($(head -c 300 err))" \
		eval '[ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q "one of this command'"'"'s inputs; writing the output over it would destroy it" err'
	expect "$what: $file unchanged" cmp -s "oi/$file" "oi.orig/$file"
}
onto_input "validate -o the baseline it scores" base/xeon_amx_2vcpu_matmul.csv \
	validate "${oi[@]}" --op matmul -o oi/base/xeon_amx_2vcpu_matmul.csv
onto_input "validate -o a hard link to the baseline" base/xeon_amx_2vcpu_matmul.csv \
	validate "${oi[@]}" --op matmul -o oi/hard.csv
onto_input "validate -o a symbolic link to the baseline" base/xeon_amx_2vcpu_matmul.csv \
	validate "${oi[@]}" --op matmul -o oi/soft.csv
expect "the links are kept" eval '[ -L oi/soft.csv ] && [ oi/hard.csv -ef oi/base/xeon_amx_2vcpu_matmul.csv ]'
onto_input "validate -o the sweep" sweeps/matmul_validation.json \
	validate "${oi[@]}" --op matmul -o oi/sweeps/matmul_validation.json
onto_input "calibrate -o the profile" hardware/xeon_amx_2vcpu.json \
	calibrate "${oi[@]}" -o oi/hardware/xeon_amx_2vcpu.json
onto_input "predict --format csv -o a sweep it reads" sweeps/matmul_validation.json \
	predict "${oi[@]:0:4}" --sweep-dir oi/sweeps --format csv -o oi/sweeps/matmul_validation.json
onto_input "validate --predictions P -o P" pred.csv \
	validate "${oi[@]}" --op matmul --predictions oi/pred.csv -o oi/pred.csv
onto_input "plot heatmap -o the baseline" base/xeon_amx_2vcpu_matmul.csv \
	plot heatmap "${oi[@]}" -o oi/base/xeon_amx_2vcpu_matmul.csv
onto_input "plot roofline -o the profile" hardware/xeon_amx_2vcpu.json \
	plot roofline "${oi[@]}" -o oi/hardware/xeon_amx_2vcpu.json
"$roofval" validate "${oi[@]}" --op matmul --format json -o oi/old.json >/dev/null 2>&1
cp oi/old.json oi.orig/old.json
onto_input "validate --against R -o R" old.json \
	validate "${oi[@]}" --op matmul --format json --against oi/old.json -o oi/old.json
# A report folder whose index.html is the baseline (a link to it).
mkdir -p oi/rep && ln -s ../base/xeon_amx_2vcpu_matmul.csv oi/rep/index.html
onto_input "report --output with index.html a link to the baseline" base/xeon_amx_2vcpu_matmul.csv \
	report "${oi[@]:2}" --output oi/rep
"$roofval" validate "${oi[@]}" --op matmul -o oi/report.txt >/dev/null 2>err
rc=$?
expect "an output that is no input is still written" eval '[ $rc = 0 ] || [ $rc = 3 ] && [ -s oi/report.txt ]'


# 6. A model command is held to its time limit and dies with roofval; its
# standard error, however long, is drained, not refused.
mc=(validate --hw xeon_amx_2vcpu --op matmul --hardware-dir oi.orig/hardware --sweep-dir oi.orig/sweeps
	--baseline-dir oi.orig/base)
# Closes its outputs and runs on: killed at --model-timeout all the same.
t0=$(date +%s)
timeout 60 "$roofval" "${mc[@]}" --model-cmd 'exec >&- 2>&-; sleep 40' --model-timeout 1 >/dev/null 2>err
rc=$?
t1=$(date +%s)
expect "a model command with its outputs closed: killed at its time-out ($((t1 - t0)) s, exit $rc, $(cat err))" \
	eval '[ $rc = 1 ] && [ $((t1 - t0)) -lt 20 ] && grep -q "ran past its 1 s time-out and was killed" err'
# SIGTERM and SIGINT to validate, report and plot kill the model command's
# process group with roofval.
for how in TERM:validate INT:validate TERM:report INT:plot; do
	sig=${how%%:*} cmd=${how#*:}
	rm -f mc.pid
	case $cmd in
	validate) args=("${mc[@]}") ;;
	report) args=(report --output oi/mcrep --hardware-dir oi.orig/hardware --sweep-dir oi.orig/sweeps
		--baseline-dir oi.orig/base) ;;
	plot) args=(plot heatmap --hardware-dir oi.orig/hardware --sweep-dir oi.orig/sweeps
		--baseline-dir oi.orig/base -o oi/mc.svg) ;;
	esac
	"$roofval" "${args[@]}" --model-cmd 'sleep 300 & echo $! >mc.pid; wait' --model-timeout 200 \
		>/dev/null 2>err &
	vpid=$!
	for _ in $(seq 100); do [ -s mc.pid ] && break; sleep 0.1; done
	kill -$sig $vpid
	wait $vpid
	sleep 0.3
	expect "SIG$sig to $cmd kills its model command's group ($(cat mc.pid 2>/dev/null): $(ps -o pid=,args= -p "$(cat mc.pid 2>/dev/null)" 2>/dev/null); $(head -c 200 err))" \
		eval '[ -s mc.pid ] && ! ps -o stat= -p "$(cat mc.pid)" | grep -qv "^Z"'
	[ -s mc.pid ] && kill "$(cat mc.pid)" 2>/dev/null
done
# A correct adapter that logs 3 MiB to its standard error is scored.
"$roofval" "${mc[@]}" --model-cmd "cat >/dev/null; head -c 3145728 /dev/zero | tr '\\0' x >&2; cat oi.orig/pred.csv" \
	>mc.out 2>err
rc=$?
expect "an adapter logging 3 MiB to stderr is scored (exit $rc, $(head -c 200 err))" \
	eval '{ [ $rc = 0 ] || [ $rc = 3 ]; } && grep -q "records" mc.out'
# A failing one: the message says its standard error.
"$roofval" "${mc[@]}" --model-cmd 'cat >/dev/null; head -c 2000000 /dev/zero | tr "\0" x >&2; echo >&2; echo bad news >&2; exit 4' \
	>/dev/null 2>err
rc=$?
expect "a failing adapter: its standard error's end in the message ($(head -c 200 err))" \
	eval '[ $rc = 1 ] && grep -q "exited with status 4; its standard error ends: bad news$" err'

wait $lonely_pid
rc=$?
expect "a FIFO nobody reads: refused, still a FIFO" \
	eval '[ $rc = 1 ] && grep -q "nothing opened the FIFO lonely for reading" lonely.err && [ -p lonely ]'
[ -z "$(find . -name '.*.roofval-*.tmp')" ] || bad "temporary files left: $(find . -name '.*.roofval-*.tmp')"

echo "safety: $pass passed, $fail failed"
[ "$fail" = 0 ]
