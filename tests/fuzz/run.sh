#!/usr/bin/env bash
# Runs one fuzz target on a seed corpus made from the repository's data.
# usage: tests/fuzz/run.sh BUILD_DIR TARGET SECONDS [libFuzzer options...]
#   TARGET: csv | sweep | profile | fit | predictions | against. BUILD_DIR was configured with
#   -DCMAKE_C_COMPILER=clang -DRV_FUZZ=ON. New inputs go to
#   BUILD_DIR/fuzz-corpus/TARGET (kept between runs), crashes to
#   BUILD_DIR/fuzz-artifacts/TARGET/; it runs in BUILD_DIR/fuzz-logs/TARGET/,
#   where -jobs=N puts its fuzz-N.log files (printed at the end). The exit
#   status is the fuzzer's: 0 when it ran SECONDS without a finding.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd) target=$2 seconds=$3
shift 3
ref=${ROOFVAL_SHARED_DIR:-$repo/../shared}/reference/upstream-v4
corpus=$build/fuzz-corpus/$target
seeds=$build/fuzz-seeds/$target
artifacts=$build/fuzz-artifacts/$target
logs=$build/fuzz-logs/$target
mkdir -p "$corpus" "$seeds" "$artifacts" "$logs"
rm -f "$logs"/fuzz-*.log
rm -f "$seeds"/*
seed() { for f in "$@"; do [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr '/' '_')"; done; return 0; }
shopt -s nullglob
case $target in
csv)
	seed "$repo"/results/baselines/*.csv "$ref"/baselines/*.csv "$repo"/tests/data/bad/*.csv \
		"$repo"/tests/data/fuzz-regressions/csv-*
	dict=$repo/tests/fuzz/csv.dict ;;
sweep)
	seed "$repo"/sweeps/*.json "$ref"/sweeps/*.json "$repo"/tests/data/bad/sweep-*.json \
		"$repo"/tests/data/fuzz-regressions/sweep-*
	dict=$repo/tests/fuzz/json.dict ;;
profile)
	for f in "$repo"/hardware/*.json "$repo"/tests/data/hardware/*/*.json; do
		case $f in *.fit.json) ;; *) seed "$f" ;; esac
	done
	seed "$repo"/tests/data/fuzz-regressions/profile-*
	dict=$repo/tests/fuzz/json.dict ;;
fit)
	seed "$repo"/hardware/i7_12700k.fit.json "$repo"/tests/data/bad/fit-*.json \
		"$repo"/tests/data/fuzz-regressions/fit-*
	dict=$repo/tests/fuzz/json.dict ;;
predictions)
	seed "$repo"/examples/*/*.csv "$repo"/tests/data/predictions/*.csv \
		"$repo"/tests/data/fuzz-regressions/predictions-*
	dict=$repo/tests/fuzz/csv.dict ;;
against)
	seed "$repo"/tests/golden/report.json "$repo"/tests/data/fuzz-regressions/against-*
	dict=$repo/tests/fuzz/json.dict ;;
*)
	echo "usage: $0 BUILD_DIR csv|sweep|profile|fit|predictions|against SECONDS [libFuzzer options]" >&2
	exit 2 ;;
esac
cd "$logs"
rc=0
"$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-max_len=65536 -dict="$dict" -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" \
	"$corpus" "$seeds" || rc=$?
for f in fuzz-*.log; do
	[ -f "$f" ] && tail -n 40 "$f"
done
exit $rc
