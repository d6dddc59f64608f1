#!/usr/bin/env bash
# Loaders and editors: a -0 read from a baseline is written back as
# 0.0 (never -0.0), in every column; sweep augment and sweep relabel on a
# folder that does not exist (or is a file) exit 1 naming it and create
# nothing. The refusals of the number rule (subnormals, the floors) are cases
# of tests/data/bad/catalogue.tsv.
# usage: loaders.sh ROOFVAL DATA_DIR SCRATCH_DIR
set -u
roofval=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$(cd "$2" && pwd)
scratch=$3
repo=$(cd "$data/../.." && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
cd "$scratch" || exit 1
unset ROOFVAL_HARDWARE_DIR ROOFVAL_BASELINE_DIR ROOFVAL_SWEEP_DIR ROOFVAL_DATA_DIR
pass=0
fail=0
# expect NAME CONDITION...: counts the condition (a command) as a pass or a failure.
expect() {
	local name=$1
	shift
	if "$@"; then pass=$((pass + 1)); else
		fail=$((fail + 1))
		printf 'FAIL %s\n' "$name"
	fi
}

# 1. -0 round trip: read as 0, written 0.0, in the fixed and the extra columns.
header=hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes,energy_net_j,idle_power_w
printf '%s\ni7_12700k,matmul,64x64x64,fp32,2e-06,-0,11,,-0.0,-0e3\n' "$header" >zero.csv
"$roofval" baseline normalize zero.csv >/dev/null 2>err
expect "baseline normalize of a -0 energy: exit 0 ($(cat err))" [ $? = 0 ]
expect "-0 written back as 0.0 in energy_j, energy_net_j and idle_power_w" \
	grep -q '^i7_12700k,matmul,64x64x64,fp32,2e-06,0.0,11,,0.0,0.0' zero.csv
expect "no -0 in a written baseline" eval '! grep -q -- ",-0" zero.csv'
"$roofval" baseline normalize zero.csv -o - >out.csv 2>err
expect "-0 never written to standard output either" eval '! grep -q -- ",-0" out.csv && grep -q ",0.0,11," out.csv'

# 2. Editing sweeps in a folder that is not there.
# run WANT_RC WANT_TEXT ARGS...: roofval's status and the one line on stderr.
run() {
	local want_rc=$1 want=$2
	shift 2
	"$roofval" "$@" >out 2>err
	local rc=$?
	expect "roofval $*: exit $rc (wanted $want_rc): $(cat err)" \
		eval '[ $rc = $want_rc ] && grep -qF -- "$want" err && [ "$(wc -l <err)" = 1 ]'
}
run 1 "roofval: sweep augment: sweep folder $scratch/nope (give the right one with --sweep-dir)" \
	sweep augment --hw i7_12700k --sweep-dir "$scratch/nope"
run 1 "sweep folder $scratch/nope" sweep augment --hw i7_12700k --op matmul --sweep-dir "$scratch/nope"
run 1 "roofval: sweep relabel: sweep folder $scratch/nope" \
	sweep relabel --hw i7_12700k --from-baseline --sweep-dir "$scratch/nope" --baseline-dir "$scratch"
run 1 "roofval: sweep relabel: baseline folder $scratch/nope (give the right one with --baseline-dir)" \
	sweep relabel --hw i7_12700k --from-baseline --sweep-dir "$repo/sweeps" --baseline-dir "$scratch/nope"
run 1 "sweep folder $scratch/zero.csv is not a folder" sweep augment --hw i7_12700k --sweep-dir "$scratch/zero.csv"
expect "a refused augment or relabel created no folder" [ ! -e "$scratch/nope" ]
# An existing folder still works: augment what there is.
mkdir -p sw && cp "$repo/sweeps/vector_add_calibration.json" sw/
"$roofval" sweep augment --hw i7_12700k --sweep-dir sw >out 2>err
rc=$?
expect "sweep augment on an existing folder: exit $rc ($(cat err))" eval '[ $rc = 0 ] && [ ! -s err ]'
expect "sweep augment on an existing folder labelled its sweep" grep -q "entries labelled for i7_12700k" out

echo "loaders: $pass passed, $fail failed"
[ "$fail" = 0 ]
