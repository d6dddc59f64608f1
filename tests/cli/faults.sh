#!/usr/bin/env bash
# Faults in the middle of a capture (null kernel, fake meter): SIGKILL and
# SIGINT between rows and in the middle of a write, a full disk, permission
# denied, a read-only folder and a lock held by another process. After each,
# the baseline is valid (roofval baseline show reads it), holds every row
# finished before the fault, and the message says what happened. Writes are
# broken by a preload shim (tests/stubs/write_shim.c), not by hand.
# usage: faults.sh ROOFVAL WRITE_SHIM SCRATCH_DIR
set -u
roofval=$1
shim=$2
scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"
# An ASan build would refuse a preloaded library listed before its runtime.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
unset ROOFVAL_FAKE_METER_POWER_W ROOFVAL_FAKE_METER_FAIL_AFTER ROOFVAL_FAKE_METER_BACKWARDS \
	ROOFVAL_FAKE_METER_FREEZE_AFTER
pass=0
fail=0

ok() { pass=$((pass + 1)); }
# The temporary files in folder $1 (hidden: .<name>.roofval-XXXXXX.tmp).
temps() { find "$1" -maxdepth 1 -name '*.tmp' | sort; }
bad() {
	fail=$((fail + 1))
	printf 'FAIL %s\n' "$*"
}

# A folder with a five-shape sweep labelled for i7_12700k.
fresh() {
	local d=$scratch/$1
	rm -rf "$d" && mkdir -p "$d"
	cat >"$d/matmul_calibration.json" <<'JSON'
{"op": "matmul", "purpose": "calibration", "shapes": [
 {"shape": [16, 16, 16], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "launch_bound"}},
 {"shape": [32, 32, 32], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "launch_bound"}},
 {"shape": [64, 64, 64], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "launch_bound"}},
 {"shape": [128, 128, 128], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "l2_bound"}},
 {"shape": [256, 256, 256], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "l2_bound"}}]}
JSON
	echo "$d"
}

capture_args() { # the capture of folder $1
	echo capture --hw i7_12700k --op matmul --purpose calibration --sweep-dir "$1" \
		--baseline-dir "$1" --kernel null --meter fake
}

# check_rows NAME DIR ERRFILE N: the baseline of DIR is valid, has N rows (at
# least N when N ends in +), and holds every row the progress lines of ERRFILE
# reported as finished; no temporary file is left.
check_rows() {
	local name=$1 d=$2 errfile=$3 want=$4 csv=$2/i7_12700k_matmul.csv rows shape why=""
	if ! "$roofval" baseline show "$csv" >"$d/show.out" 2>"$d/show.err"; then
		bad "$name: the baseline is not valid: $(cat "$d/show.err")"
		return
	fi
	rows=$(grep -c '^i7_12700k,matmul,' "$csv")
	case $want in
	*+) [ "$rows" -ge "${want%+}" ] || why="$rows rows, wanted at least ${want%+}" ;;
	*) [ "$rows" = "$want" ] || why="$rows rows, wanted $want" ;;
	esac
	for shape in $(sed -n 's/^\[[0-9]*\/[0-9]*\] \([0-9x]*\) fp32: [^s].*/\1/p' "$errfile"); do
		grep -q "^i7_12700k,matmul,$shape,fp32," "$csv" || why="$why; row $shape reported but missing"
	done
	[ -n "$(temps "$d")" ] && why="$why; a temporary file is left: $(temps "$d")"
	if [ -n "$why" ]; then bad "$name: ${why#; }"; else ok; fi
}

# 1. SIGKILL between rows, 3 s into a capture with 2 s energy windows: the
# first row is stored, the second is being measured.
d=$(fresh kill)
# shellcheck disable=SC2046
"$roofval" $(capture_args "$d") --min-window 2 2>"$d/err" &
pid=$!
sleep 3
kill -KILL $pid
wait $pid 2>/dev/null # bash would report the kill
rc=$?
[ $rc = 137 ] || bad "SIGKILL: exit $rc, wanted 137"
check_rows "SIGKILL after 3 s" "$d" "$d/err" 1+

# 2. SIGKILL in the middle of writing the third row: the file keeps the first
# two; the killed writer's temporary file is removed by the next capture,
# which completes the baseline.
d=$(fresh killwrite)
# shellcheck disable=SC2046
{ ROOFVAL_SHIM_SIGNAL=KILL ROOFVAL_SHIM_AT=3 LD_PRELOAD=$shim "$roofval" $(capture_args "$d") \
	--min-window 0.02 2>"$d/err"; } 2>/dev/null # bash would report the kill
rc=$?
[ $rc = 137 ] || bad "SIGKILL in a write: exit $rc, wanted 137"
[ -n "$(temps "$d")" ] || bad "SIGKILL in a write: no half-written temporary file (the shim did not act)"
rm -f "$d/show.err"
"$roofval" baseline show "$d/i7_12700k_matmul.csv" >/dev/null 2>"$d/show.err" ||
	bad "SIGKILL in a write: the baseline is not valid: $(cat "$d/show.err")"
[ "$(grep -c '^i7_12700k,matmul,' "$d/i7_12700k_matmul.csv")" = 2 ] ||
	bad "SIGKILL in a write: $(grep -c '^i7_12700k,matmul,' "$d/i7_12700k_matmul.csv") rows, wanted 2"
# shellcheck disable=SC2046
"$roofval" $(capture_args "$d") --min-window 0.02 2>"$d/err2" || bad "capture after a SIGKILL: $(tail -n 1 "$d/err2")"
check_rows "capture after a SIGKILL in a write" "$d" "$d/err2" 5

# 3. SIGINT in the middle of writing the second row: the write completes,
# capture stops with status 130 and says so.
d=$(fresh intwrite)
# shellcheck disable=SC2046
ROOFVAL_SHIM_SIGNAL=INT ROOFVAL_SHIM_AT=2 LD_PRELOAD=$shim "$roofval" $(capture_args "$d") \
	--min-window 0.02 2>"$d/err"
rc=$?
[ $rc = 130 ] || bad "SIGINT in a write: exit $rc, wanted 130"
grep -q "^roofval: capture: interrupted after 2 of 5 shapes; .* keeps every finished row" "$d/err" ||
	bad "SIGINT in a write: $(tail -n 1 "$d/err")"
check_rows "SIGINT in a write" "$d" "$d/err" 2

# 4. A full disk at the third row, then permission denied at the first: status
# 1, one 'roofval:' line saying what happened and what to do, rows kept.
d=$(fresh enospc)
# shellcheck disable=SC2046
ROOFVAL_SHIM_ERRNO=28 ROOFVAL_SHIM_AT=3 LD_PRELOAD=$shim "$roofval" $(capture_args "$d") \
	--min-window 0.02 2>"$d/err"
rc=$?
msg=$(tail -n 1 "$d/err")
[ $rc = 1 ] || bad "disk full: exit $rc, wanted 1"
[[ "$msg" == "roofval: capture: cannot write $d/i7_12700k_matmul.csv (the old file is unchanged): No space left on device; free space on that disk, then run it again; the 2 rows captured before this one are kept; the manifest was not updated either" ]] ||
	bad "disk full: $msg"
[ "$(grep -v '^roofval: capture: warning: ' "$d/err" | grep -c '^roofval:')" = 1 ] ||
	bad "disk full: more than one 'roofval:' error line"
check_rows "disk full" "$d" "$d/err" 2
d=$(fresh eacces)
# shellcheck disable=SC2046
ROOFVAL_SHIM_ERRNO=13 LD_PRELOAD=$shim "$roofval" $(capture_args "$d") --min-window 0.02 2>"$d/err"
rc=$?
msg=$(tail -n 1 "$d/err")
[ $rc = 1 ] || bad "permission denied: exit $rc, wanted 1"
[[ "$msg" == *"cannot write $d/i7_12700k_matmul.csv (the old file is unchanged): Permission denied; make the folder writable, or write elsewhere" ]] ||
	bad "permission denied: $msg"
[ -e "$d/i7_12700k_matmul.csv" ] && bad "permission denied: a baseline was written"
[ -n "$(temps "$d")" ] && bad "permission denied: a temporary file is left"
ok

# 5. A read-only folder (root writes anyway, so only as another user).
if [ "$(id -u)" = 0 ]; then
	echo "SKIP read-only folder: running as root, who may write into a 0555 folder"
else
	d=$(fresh readonly)
	chmod 0555 "$d"
	# shellcheck disable=SC2046
	"$roofval" $(capture_args "$d") --min-window 0.02 2>"$d.err"
	rc=$?
	chmod 0755 "$d"
	[ $rc = 1 ] || bad "read-only folder: exit $rc, wanted 1"
	if grep -q "^roofval: capture: cannot create a temporary file in $d: Permission denied; make the folder writable, or write elsewhere$" "$d.err"; then
		ok
	else
		bad "read-only folder: $(tail -n 1 "$d.err")"
	fi
fi

# 6. Another process holds the folder's lock for 2 s: capture waits, then stores.
if command -v flock >/dev/null; then
	d=$(fresh lock)
	flock "$d" sleep 2 &
	lpid=$!
	sleep 0.3
	t0=$(date +%s%N)
	# shellcheck disable=SC2046
	"$roofval" $(capture_args "$d") --min-window 0.02 --limit 1 2>"$d/err" || bad "lock: $(tail -n 1 "$d/err")"
	t1=$(date +%s%N)
	wait $lpid
	[ $(((t1 - t0) / 1000000)) -ge 1200 ] || bad "lock: capture did not wait for the holder ($(((t1 - t0) / 1000000)) ms)"
	check_rows "lock held by another process" "$d" "$d/err" 1
else
	echo "SKIP lock held by another process: no flock(1) (apt-get install util-linux)"
fi

# 7. Sensor faults: a counter that freezes (aligning on its next update gives
# up after 2 s) or vanishes; the row is stored with an empty energy and a note.
for fault in FREEZE_AFTER=2 FAIL_AFTER=1; do
	d=$(fresh "sensor-${fault%%=*}")
	# shellcheck disable=SC2046
	env "ROOFVAL_FAKE_METER_$fault" "$roofval" $(capture_args "$d") --min-window 0.02 --limit 1 \
		2>"$d/err" || bad "sensor $fault: $(tail -n 1 "$d/err")"
	case $fault in
	FREEZE*) why="fake: the counter did not move for 2 s; energy not recorded" ;;
	*) why="fake meter: domain fake-package vanished; energy not recorded" ;;
	esac
	if grep -q "^i7_12700k,matmul,16x16x16,fp32,[0-9.e+-]*,,[0-9]*,.*$why" "$d/i7_12700k_matmul.csv"; then
		ok
	else
		bad "sensor $fault: no row with an empty energy and the note '$why'"
	fi
done

# 8. Files that belong together are replaced together: a full disk while
# writing the second of them replaces neither (merge's CSV and its manifest;
# sweep generate's calibration and validation sweeps), and says so.
repo=$(cd "$(dirname "$0")/../.." && pwd)
d=$scratch/pairs
mkdir -p "$d/a" "$d/b"
hdr=hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes
printf '%s\nh,matmul,8x8x8,fp32,1e-05,,3,\n' "$hdr" >"$d/a/h_matmul.csv"
printf '%s\nh,matmul,8x8x8,fp32,3e-05,,3,\n' "$hdr" >"$d/b/h_matmul.csv"
"$roofval" baseline merge -o "$d/out" "$d/a" "$d/b" >/dev/null 2>"$d/err" || bad "merge: $(cat "$d/err")"
cp -r "$d/out" "$d/out.before"
printf '%s\nh,matmul,8x8x8,fp32,5e-05,,3,\n' "$hdr" >"$d/b/h_matmul.csv"
ROOFVAL_SHIM_ERRNO=28 ROOFVAL_SHIM_AT=2 LD_PRELOAD=$shim "$roofval" baseline merge -o "$d/out" \
	"$d/a" "$d/b" >/dev/null 2>"$d/err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$d/err")" = 1 ] && grep -q "No space left on device.*none of the 2 files was replaced" "$d/err" ||
	bad "merge on a full disk: exit $rc, $(cat "$d/err")"
cmp -s "$d/out/h_matmul.csv" "$d/out.before/h_matmul.csv" &&
	cmp -s "$d/out/h_matmul.meta.json" "$d/out.before/h_matmul.meta.json" && ok ||
	bad "merge on a full disk replaced the CSV or the manifest alone"
[ -z "$(temps "$d/out")" ] && ok || bad "merge on a full disk left $(temps "$d/out")"
gen=(sweep generate --op vector_add --targets i7_12700k --per-regime 2 --max-bytes 5e7
	--hardware-dir "$repo/hardware" --output-dir "$d/sw")
"$roofval" "${gen[@]}" --seed 1 >/dev/null 2>"$d/err" || bad "sweep generate: $(cat "$d/err")"
cp -r "$d/sw" "$d/sw.before"
ROOFVAL_SHIM_ERRNO=28 ROOFVAL_SHIM_AT=2 LD_PRELOAD=$shim "$roofval" "${gen[@]}" --seed 2 \
	>/dev/null 2>"$d/err"
rc=$?
[ $rc = 1 ] && grep -q "none of the 2 files was replaced" "$d/err" ||
	bad "sweep generate on a full disk: exit $rc, $(cat "$d/err")"
cmp -s "$d/sw/vector_add_calibration.json" "$d/sw.before/vector_add_calibration.json" &&
	cmp -s "$d/sw/vector_add_validation.json" "$d/sw.before/vector_add_validation.json" && ok ||
	bad "sweep generate on a full disk replaced one sweep of the pair alone"
"$roofval" "${gen[@]}" --seed 2 >/dev/null 2>"$d/err" || bad "sweep generate: $(cat "$d/err")"
cmp -s "$d/sw/vector_add_calibration.json" "$d/sw.before/vector_add_calibration.json" &&
	bad "sweep generate --seed 2 wrote the same sweeps as --seed 1 (the check above proves nothing)" || ok

echo "faults: $pass passed, $fail failed"
[ "$fail" = 0 ]
