#!/usr/bin/env bash
# End-to-end checks of the roofval command line: exit codes, one-line error
# messages on stderr, help and version, and whole-file round trips.
# usage: run.sh ROOFVAL DATA_DIR SCRATCH_DIR SHARED_DIR
set -u
roofval=$1
data=$2
scratch=$3
shared=$4
ref=$shared/reference/upstream-v4
repo=$(cd "$data/../.." && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
. "$(dirname "$0")/lib.sh"

# Whether two texts are the same line for line, but for numbers that agree to 1e-4 relative.
same_numbers() {
	awk -v tol=1e-4 '
		function num(s) { return s ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?,?$/ }
		NR == FNR { a[FNR] = $0; n = FNR; next }
		{ m = FNR }
		a[FNR] == $0 { next }
		{
			na = split(a[FNR], x, /[ :]+/); nb = split($0, y, /[ :]+/)
			if (na != nb) bad = 1
			for (i = 1; i <= na && !bad; i++) {
				if (x[i] == y[i]) continue
				if (!num(x[i]) || !num(y[i])) { bad = 1; break }
				u = x[i] + 0; v = y[i] + 0; d = u - v
				if (d < 0) d = -d
				if (u < 0) u = -u
				if (d > tol * u) bad = 1
			}
		}
		END { exit bad || m != n }' "$1" "$2"
}

# Usage errors: exit 2, usage on stderr.
check 2 "a command is missing" "" --
check 2 "unknown command 'bogus'" "" -- bogus
check 2 "hw: unknown command 'bogus'" "" -- hw bogus
check 2 "unknown option '--bogus'" "" -- hw list --bogus
check 2 "unknown option '-x'" "" -- hw list -x
check 2 "usage: roofval hw show KEY|FILE" "" -- hw show
check 2 "too many arguments" "" -- hw show a b
check 2 "option '--hardware-dir' needs a value" "" -- hw list --hardware-dir
check 2 "missing argument" "" -- baseline normalize
check 2 "too many arguments" "" -- help a b c

# Help and version.
check 0 "" "usage: roofval <command>" -- help
check 0 "" "usage: roofval <command>" -- --help
check 0 "" "lint" -- hw --help
check 0 "" "usage: roofval hw show KEY|FILE" -- hw show --help
check 0 "" "usage: roofval baseline normalize FILE" -- help baseline normalize
check 0 "" "roofval 0." -- --version
check 0 "" "kernels: null cblas" -- version
if [ "$("$roofval" hw show --help)" != "$("$roofval" help hw show)" ]; then
	fail=$((fail + 1))
	echo "FAIL 'hw show --help' and 'help hw show' differ"
else
	pass=$((pass + 1))
fi

# Hardware profiles.
for key in i7_12700k h100_sxm5_80gb h200_sxm_141gb jetson_orin_nano_8gb jetson_orin_nx_16gb \
	jetson_orin_agx_64gb kpu_t64; do
	check 0 "" "$key" -- hw list
	check 0 "" "$key:" -- hw show "$key"
done
check 0 "" "ok " -- hw lint
# The fitted share of the last-level cache and the elementwise spread are shown.
check 0 "" "a repeated call keeps" -- hw show xeon_amx_2vcpu
check 0 "" "elementwise      on at most 1 of 2 units" -- hw show xeon_amx_2vcpu
# The gemm object, and how the BLAS dispatches a call where the profile says.
check 0 "" "gemm             tiles 4x16, 1x64; 1 per unit" -- hw show xeon_amx_2vcpu
check 0 "" "one unit up to M*N*K 262144" -- hw show xeon_amx_2vcpu
check 0 "" "compute and memory combine as a 2-norm" -- hw show jetson_orin_nano_8gb
# probe writes a profile its loader and lint accept, with the capture's
# one-thread elementwise spread; a last-level effective capacity, when the
# quick sweep sees a knee, never exceeds the capacity (the loader checks).
mkdir -p "$scratch/probe"
check 0 "" "wrote $scratch/probe/probe_t.json" -- probe --hw host --quick --key probe_t \
	-o "$scratch/probe/probe_t.json"
check 0 "" "ok " -- hw lint "$scratch/probe/probe_t.json"
check 0 "" "elementwise      on at most 1 of" -- hw show "$scratch/probe/probe_t.json"
check 2 "only --hw host can be probed" "" -- probe --hw i7_12700k
check 2 "probe: --hw is required" "" -- probe --key x
check 2 "key 'A' may hold only a-z, 0-9 and _" "" -- probe --hw host --key A
check 2 "kernels: too many arguments" "" -- kernels x
check 2 "must be named probe_t.json" "" -- probe --hw host --key probe_t -o "$scratch/x.json"
check 1 "roofval: hw show: no hardware profile 'nosuch' in" "" -- hw show nosuch
check 1 "run 'roofval hw list'" "" -- hw show nosuch
check 1 "is not a hardware key" "" -- hw show 'Bad Key'
check 1 "cannot read the hardware folder /nonexistent" "" -- hw list --hardware-dir /nonexistent
mkdir -p "$scratch/hw"
printf '{"schema": "roofval.hardware/1",\n "key": "broken", "nmae": "x"}\n' >"$scratch/hw/broken.json"
check 1 "broken.json:2:19: nmae: unknown key" "" -- hw lint "$scratch/hw/broken.json"
check 1 "broken.json:2:19: nmae: unknown key" "" -- hw list --hardware-dir "$scratch/hw"
printf '{"schema": "roofval.hardware/1",\n' >"$scratch/hw/cut.json"
check 1 "cut.json:2:0: " "" -- hw lint "$scratch/hw/cut.json"
check 1 "is a folder" "" -- hw lint "$scratch"
check 1 "No such file" "" -- hw lint "$scratch/none.json"

# Baselines.
header='hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes'
printf '%s\r\nh,matmul,64x96x64,fp32,2e-06,,11,b\r\nh,matmul,64x64x128,fp32,1e-06,0.5,11,"a, quoted"\r\n' \
	"$header" >"$scratch/unsorted.csv"
check 0 "" "2 rows written" -- baseline normalize "$scratch/unsorted.csv" -o "$scratch/sorted.csv"
printf '%s\r\nh,matmul,64x64x128,fp32,1e-06,0.5,11,"a, quoted"\r\nh,matmul,64x96x64,fp32,2e-06,,11,b\r\n' \
	"$header" >"$scratch/expected.csv"
if cmp -s "$scratch/sorted.csv" "$scratch/expected.csv"; then pass=$((pass + 1)); else
	fail=$((fail + 1))
	echo "FAIL baseline normalize did not sort as expected"
fi
check 0 "" "h,matmul,64x64x128" -- baseline normalize "$scratch/unsorted.csv" --output -
check 0 "" "2 rows written" -- baseline normalize "$scratch/unsorted.csv"
if cmp -s "$scratch/unsorted.csv" "$scratch/expected.csv"; then pass=$((pass + 1)); else
	fail=$((fail + 1))
	echo "FAIL baseline normalize in place did not sort"
fi
check 0 "" "64x64x128" -- baseline show "$scratch/sorted.csv"
check 0 "" "1 rows without energy" -- baseline show "$scratch/sorted.csv"
printf '%s\nh,matmul,64x64x128,fp32,fast,,11,\n' "$header" >"$scratch/bad.csv"
cp "$scratch/bad.csv" "$scratch/bad.orig"
check 1 "bad.csv:2:25: latency_s: 'fast' is not a number" "" -- baseline normalize "$scratch/bad.csv"
if cmp -s "$scratch/bad.csv" "$scratch/bad.orig"; then pass=$((pass + 1)); else
	fail=$((fail + 1))
	echo "FAIL a failed normalize changed its input"
fi
: >"$scratch/empty.csv"
check 1 "empty.csv: the file is empty" "" -- baseline show "$scratch/empty.csv"
check 1 "/dev/null is not a regular file" "" -- baseline show /dev/null
check 1 "is a folder" "" -- baseline show "$scratch"
check 1 "cannot open $scratch/none.csv: No such file" "" -- baseline show "$scratch/none.csv"
check 1 "cannot make the folder $scratch/sorted.csv/no: $scratch/sorted.csv is not a folder" "" -- baseline normalize "$scratch/sorted.csv" -o "$scratch/sorted.csv/no/x.csv"
# A full disk on standard output is an error, not a silent success.
if [ -w /dev/full ]; then
	if "$roofval" hw list >/dev/full 2>"$scratch/stderr"; then
		fail=$((fail + 1))
		echo "FAIL hw list >/dev/full exited 0"
	elif grep -q "roofval: hw list: cannot write to standard output" "$scratch/stderr"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL hw list >/dev/full: $(cat "$scratch/stderr")"
	fi
fi

# The classifier and the model for one shape.
check 2 "classify: --hw is required" "" -- classify --op matmul --shape 64x64x64
check 2 "unknown format 'xml'" "" -- predict --hw i7_12700k --op matmul --shape 8x8x8 --format xml
check 0 "" "i7_12700k matmul 1024x1024x1024 fp32: l2_bound" -- classify --hw i7_12700k --op matmul --shape 1024x1024x1024
check 0 "" "launch_bound" -- classify --hw h200_sxm_141gb --op vector_add --shape 256
check 0 "" "unsupported" -- classify --hw i7_12700k --op matmul --shape 64x64x64 --dtype fp16
check 0 "" "bound by" -- predict --hw jetson_orin_nano_8gb --op linear --shape 32x16384x16384
# A profile with an overlap norm shows the body time it gives.
check 0 "" "(compute^p + dram^p)^(1/p)), p = 2" -- predict --hw jetson_orin_nano_8gb --op matmul \
	--shape 192x3072x12288
check 0 "" '"schema": "roofval.predict/1"' -- predict --hw h200_sxm_141gb --op matmul --shape 8192x8192x8192 --format json
check 1 "roofval: predict: fp16 is unsupported on i7_12700k (its profile lists fp32 fp64)" "" -- predict --hw i7_12700k --op matmul --shape 64x64x64 --dtype fp16
check 1 "roofval: classify: shape '64x0x64': dimension K is 0" "" -- classify --hw i7_12700k --op matmul --shape 64x0x64
check 1 "unknown op 'conv'" "" -- predict --hw i7_12700k --op conv --shape 1
check 1 "no hardware profile 'nope'" "" -- predict --hw nope --op matmul --shape 8x8x8
# Options from the table: each required one named, a flag given a value refused, the last
# option of the table honoured and listed in the help.
check 2 "predict: --shape is required" "" -- predict --hw i7_12700k --op matmul
check 2 "predict: option '--no-fit' takes no value" "" -- predict --hw i7_12700k --op matmul --shape 8x8x8 --no-fit=1
check 0 "" "bound by" -- predict --shape 8x8x8 --op matmul --hw i7_12700k --no-fit
check 0 "" "--no-fit" -- predict --help

# Validation.
check 2 "give either --hw KEY or --all" "" -- validate
check 2 "give either --hw KEY or --all" "" -- validate --hw i7_12700k --all
check 2 "unknown purpose 'test'" "" -- validate --all --purpose test
check 2 "unknown" "" -- validate --all --format xml
check 2 "validate: unknown op 'conv' (known: matmul linear vector_add)" "" -- validate --hw i7_12700k --op conv
check 2 "validate: option '--purpose' needs a value" "" -- validate --all --purpose
check 0 "" "--no-fit" -- validate --help
mkdir -p "$scratch/nobase"
check 1 "no baselines (<hw>_<op>.csv) in $scratch/nobase" "" -- validate --all --baseline-dir "$scratch/nobase"
check 1 "no baseline $scratch/nobase/i7_12700k_matmul.csv" "" -- validate --hw i7_12700k --op matmul --baseline-dir "$scratch/nobase" --sweep-dir "$repo/sweeps"
if [ -d "$ref/baselines" ]; then
	rb=(--baseline-dir "$ref/baselines" --sweep-dir "$ref/sweeps")
	check 3 "" "heatmap" -- validate --hw i7_12700k --op matmul --purpose calibration "${rb[@]}"
	check 3 "" '"schema": "roofval.report/1"' -- validate --all --format json "${rb[@]}"
	check 3 "" "| hardware |" -- validate --all --format markdown "${rb[@]}"
	check 3 "" "" -- validate --all --output "$scratch/report.txt" "${rb[@]}"
	if grep -q "summary" "$scratch/report.txt"; then pass=$((pass + 1)); else
		fail=$((fail + 1))
		echo "FAIL validate --output wrote no report"
	fi
	check 1 "no sweep $scratch/nobase/matmul_calibration.json" "" -- validate --hw i7_12700k --op matmul --purpose calibration --baseline-dir "$ref/baselines" --sweep-dir "$scratch/nobase"
	mkdir -p "$scratch/foreign"
	cp "$ref/baselines/i7_12700k_matmul.csv" "$scratch/foreign/jetson_orin_nano_8gb_matmul.csv"
	check 1 "a row for hardware 'i7_12700k' in a baseline validated for 'jetson_orin_nano_8gb'" "" -- validate --hw jetson_orin_nano_8gb --op matmul --purpose calibration --baseline-dir "$scratch/foreign" --sweep-dir "$ref/sweeps"
	cp "$ref/baselines/i7_12700k_matmul.csv" "$scratch/foreign/i7_12700k_linear.csv"
	check 1 "a row for op 'matmul' in a baseline validated for 'linear'" "" -- validate --hw i7_12700k --op linear --purpose calibration --baseline-dir "$scratch/foreign" --sweep-dir "$ref/sweeps"

	# Calibration, in a copy of the hardware folder.
	repo=$(cd "$data/../.." && pwd)
	mkdir -p "$scratch/hwcal"
	cp "$repo/hardware/i7_12700k.json" "$scratch/hwcal/"
	check 2 "calibrate: --hw is required" "" -- calibrate
	check 0 "" "dry run: nothing written" -- calibrate --hw i7_12700k --hardware-dir "$scratch/hwcal" "${rb[@]}" --dry-run
	if [ -e "$scratch/hwcal/i7_12700k.fit.json" ]; then
		fail=$((fail + 1))
		echo "FAIL calibrate --dry-run wrote a fit file"
	else pass=$((pass + 1)); fi
	check 0 "" "wrote $scratch/hwcal/i7_12700k.fit.json" -- calibrate --hw i7_12700k --hardware-dir "$scratch/hwcal" "${rb[@]}"
	check 0 "" "vector_add all labels     6/6   median |error|" -- calibrate --hw i7_12700k --op vector_add --hardware-dir "$scratch/hwcal" "${rb[@]}" -o "$scratch/va.fit.json"
	check 0 "" "leave-one-family-out" -- calibrate --hw i7_12700k --hardware-dir "$scratch/hwcal" "${rb[@]}" --dry-run
	# --format json: the report alone on stdout, with its fields.
	"$roofval" calibrate --hw i7_12700k --hardware-dir "$scratch/hwcal" "${rb[@]}" --dry-run --format json >"$scratch/cal.json" 2>/dev/null
	if command -v python3 >/dev/null; then
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
keys = ["op", "shape", "dtype", "family", "measured_latency_s", "fitted_latency_s", "loo_latency_s",
        "lofo_latency_s", "measured_energy_J", "fitted_energy_J", "loo_energy_J", "lofo_energy_J"]
assert d["rows"] and all(k in r for r in d["rows"] for k in keys)
assert all(k in q for q in d["parameters"] for k in ["name", "value", "uncertainty", "lofo_moves"])
assert {o["op"] for o in d["ops"]} == {"matmul", "linear", "vector_add"}
assert all(k in o for o in d["ops"] for k in ["loo_within_band", "lofo_within_band", "lofo_median_abs_error"])' "$scratch/cal.json"
	else
		grep -q '"lofo_latency_s"' "$scratch/cal.json" && grep -q '"lofo_moves"' "$scratch/cal.json" &&
			[ "$(head -c1 "$scratch/cal.json")" = "{" ] && [ "$(tail -n1 "$scratch/cal.json")" = "}" ]
	fi
	tally $? "calibrate --format json does not parse or lacks fields" "$scratch/cal.json"
	# The committed fit file is what calibrate makes of the reference rows (but its date),
	# to 1e-4 relative: the last digits of a least-squares fit (and where a leave-one-out fit stops,
	# within the solver's tolerance) move with the BLAS's code path
	# (AVX-512 on one x86-64, AVX2 on another) and under valgrind.
	if [ -n "${ROOFVAL_TEST_UNDER_VALGRIND:-}" ]; then
		echo "SKIP the committed fit file's digits: roofval runs under valgrind"
	elif same_numbers <(grep -v '"date"' "$scratch/hwcal/i7_12700k.fit.json") \
		<(grep -v '"date"' "$repo/hardware/i7_12700k.fit.json"); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL hardware/i7_12700k.fit.json is not what calibrate makes of the reference rows"
	fi
	SOURCE_DATE_EPOCH=0 "$roofval" calibrate --hw i7_12700k --hardware-dir "$scratch/hwcal" "${rb[@]}" -o "$scratch/a.json" >/dev/null
	SOURCE_DATE_EPOCH=0 "$roofval" calibrate --hw i7_12700k --hardware-dir "$scratch/hwcal" "${rb[@]}" -o "$scratch/b.json" >/dev/null
	cmp -s "$scratch/a.json" "$scratch/b.json" && grep -q '"date": "1970-01-01"' "$scratch/a.json"
	tally $? "calibrate is not byte-for-byte deterministic"
	check 1 "no baselines of i7_12700k in $scratch/nobase" "" -- calibrate --hw i7_12700k --hardware-dir "$scratch/hwcal" --baseline-dir "$scratch/nobase" --sweep-dir "$ref/sweeps"
	check 1 "no baseline $scratch/nobase/i7_12700k_linear.csv" "" -- calibrate --hw i7_12700k --op linear --hardware-dir "$scratch/hwcal" --baseline-dir "$scratch/nobase" --sweep-dir "$ref/sweeps"
	# predict and validate use the fit unless told not to.
	a=$("$roofval" predict --hw i7_12700k --op matmul --shape 256x256x256 --hardware-dir "$scratch/hwcal")
	b=$("$roofval" predict --hw i7_12700k --op matmul --shape 256x256x256 --hardware-dir "$scratch/hwcal" --no-fit)
	if [ "$a" != "$b" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1))
		echo "FAIL predict gives the same with and without the fit"
	fi
	echo '{"schema": "roofval.fit/1", "hardware": "i7_12700k", "parameters": {"power.static_W": {"value": 500}}}' >"$scratch/hwcal/i7_12700k.fit.json"
	check 1 "i7_12700k.fit.json:1:97: parameters.power.static_W.value: power.static_W = 500 W is above tdp_W (125 W)" "" -- predict --hw i7_12700k --op matmul --shape 8x8x8 --hardware-dir "$scratch/hwcal"
	check 0 "" "bound by" -- predict --hw i7_12700k --op matmul --shape 8x8x8 --hardware-dir "$scratch/hwcal" --no-fit
fi

# Capture, end to end, with the null kernel and the fake meter.
mkdir -p "$scratch/cap"
cat >"$scratch/cap/matmul_calibration.json" <<'JSON'
{"op": "matmul", "purpose": "calibration", "shapes": [
 {"shape": [64, 64, 64], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "launch_bound"}},
 {"shape": [128, 64, 64], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "ambiguous"}},
 {"shape": [256, 256, 256], "dtype": "fp32", "regime_per_hw": {"i7_12700k": "l2_bound"}},
 {"shape": [512, 512, 512], "dtype": "fp32", "regime_per_hw": {"other": "l2_bound"}},
 {"shape": [1024, 64, 64], "dtype": "fp16", "regime_per_hw": {"i7_12700k": "l2_bound"}}]}
JSON
cap=(--hw i7_12700k --op matmul --purpose calibration --sweep-dir "$scratch/cap" --baseline-dir "$scratch/cap")
check 2 "capture: --op is required" "" -- capture --hw i7_12700k --purpose calibration
check 2 "--trials 4: give an odd number" "" -- capture "${cap[@]}" --trials 4
check 2 "--min-window 'x' is not a number" "" -- capture "${cap[@]}" --min-window x
check 2 "--precision '1' is not a share from 0 to below 1" "" -- capture "${cap[@]}" --precision 1
check 2 "--precision 'nan' is not a share" "" -- capture "${cap[@]}" --precision nan
check 2 "capture: --warmup '1000001' is not an integer from 0 to 1000000" "" -- capture "${cap[@]}" --warmup 1000001
check 2 "capture: --limit 'x' is not an integer" "" -- capture "${cap[@]}" --limit x
check 0 "" "--precision P" -- capture --help
check 0 "rows written" "" -- capture "${cap[@]}" --kernel null --meter fake --min-window 0.02 --limit 1
check 0 "[4/4] 1024x64x64 fp16" "" -- capture "${cap[@]}" --kernel null --meter fake --min-window 0.02
rows=$(grep -c '^i7_12700k,matmul,' "$scratch/cap/i7_12700k_matmul.csv")
[ "$rows" = 4 ] && grep -q '"roofval.manifest/1"' "$scratch/cap/i7_12700k_matmul.meta.json" &&
	head -1 "$scratch/cap/i7_12700k_matmul.csv" | grep -q ',notes,latency_min_s,' &&
	grep -q 'fake meter' "$scratch/cap/i7_12700k_matmul.csv"
tally $? "capture wrote $rows rows, or no manifest, statistics columns or meter note"
check 0 "" "4 rows, CRLF line ends; extra columns: latency_min_s" -- baseline show "$scratch/cap/i7_12700k_matmul.csv"
# A BLAS on kernels narrower than the CPU's FMA datapath measures them, not
# the hardware: OpenBLAS held to its SSE3 kernels (OPENBLAS_CORETYPE=Prescott)
# on a CPU with AVX or wider is warned about on stderr, rows still written,
# and the manifest's capture record keeps the caveat (skipped on a CPU
# without AVX, where those kernels are as wide as it is, and under
# valgrind, whose wrapper sets its own core type).
if grep -qw avx /proc/cpuinfo && [ -z "${ROOFVAL_TEST_UNDER_VALGRIND:-}" ]; then
	mkdir -p "$scratch/narrow"
	OPENBLAS_CORETYPE=Prescott check 0 "roofval: capture: warning: OpenBLAS runs its Prescott kernels (128-bit vectors) on a CPU whose FMA datapath is" "" \
		-- capture --hw i7_12700k --op matmul --purpose calibration --sweep-dir "$scratch/cap" \
		--baseline-dir "$scratch/narrow" --kernel cblas --meter none --limit 1
	grep -q '"caveat": "OpenBLAS runs its Prescott kernels' "$scratch/narrow/i7_12700k_matmul.meta.json" &&
		grep -q '^i7_12700k,matmul,' "$scratch/narrow/i7_12700k_matmul.csv"
	tally $? "a capture on OpenBLAS's Prescott kernels left no caveat in the manifest, or no row" \
		"$scratch/narrow/i7_12700k_matmul.meta.json"
fi
# --flush-l2: the cblas kernels cannot flush (a clear error, nothing written);
# the null kernel's flush runs before each trial and the notes say so.
check 1 "--flush-l2: the cblas kernels cannot flush a cache between trials; drop the option" "" -- capture "${cap[@]}" --flush-l2 --limit 1
check 0 "rows written" "" -- capture "${cap[@]}" --kernel null --meter none --flush-l2 --limit 1
grep -q 'cache flushed before each trial' "$scratch/cap/i7_12700k_matmul.csv"
tally $? "--flush-l2 left no note"
# The GPU path's meter end to end, through the fake libnvidia-ml (skipped
# where it is not built, as in CI's valgrind step): the nvml meter's device
# state adds seven columns, a trial under 75% of the default SM clock is
# replaced and counted, throttle reasons are written; a later row captured
# without a device leaves those columns empty in the same file.
if [ -n "${ROOFVAL_TEST_FAKE_NVML:-}" ] && [ -f "$ROOFVAL_TEST_FAKE_NVML" ]; then
	mkdir -p "$scratch/gpu"
	gpu=(--hw h200_sxm_141gb --op matmul --purpose calibration --sweep-dir "$repo/sweeps"
		--hardware-dir "$repo/hardware" --baseline-dir "$scratch/gpu" --kernel null)
	gcsv=$scratch/gpu/h200_sxm_141gb_matmul.csv
	ROOFVAL_NVML_LIB=$ROOFVAL_TEST_FAKE_NVML FAKE_NVML_SM_LOW_EVERY=4 FAKE_NVML_REASONS=4 \
		"$roofval" capture "${gpu[@]}" --meter nvml --min-window 0.1 --limit 2 2>"$scratch/gpu/err"
	head -1 "$gcsv" | grep -q ',busy_share,sm_clock_hz,sm_clock_min_hz,mem_clock_hz,gpu_temp_c,power_limit_w,throttle_reasons,trials_discarded' &&
		grep -q 'discarded: SM clock under 75% of its default 1980 MHz' "$gcsv" &&
		grep -q ',1980000000.0,900000000.0,2619000000.0,45.0,700.0,0x4,[1-9]' "$gcsv" &&
		grep -q 'nvml: energy counter of gpu0 (Fake NVML GPU 0)' "$gcsv"
	tally $? "capture through the fake NVML: no device columns, discards or notes" "$scratch/gpu/err" "$gcsv"
	"$roofval" capture "${gpu[@]/calibration/validation}" --meter none --limit 1 2>/dev/null
	[ "$(grep -c '^h200_sxm_141gb,matmul,' "$gcsv")" = 3 ] &&
		head -1 "$gcsv" | grep -q ',throttle_reasons,trials_discarded' &&
		[ "$(grep -c ',1980000000.0,900000000.0,' "$gcsv")" = 2 ] &&
		[ "$(grep -c $',,,,,,,[^,]*,[^,]*\r$' "$gcsv")" = 1 ]
	tally $? "rows without a device in a file with device columns" "$gcsv"
else
	echo "SKIP capture through the fake NVML: ROOFVAL_TEST_FAKE_NVML is not set"
fi
# The Jetson path's meter end to end on a fixture tree of an Orin Nano
# (ROOFVAL_METER_ROOT): the ina meter, read by the sampling thread every 7 ms
# (the fixture's update_interval), its module input rail by default and the
# rails --rails names otherwise; a steady 8 W gives an energy and no net energy.
mkdir -p "$scratch/jet"
jet=(--hw jetson_orin_nano_8gb --op matmul --purpose calibration --sweep-dir "$repo/sweeps"
	--hardware-dir "$repo/hardware" --baseline-dir "$scratch/jet" --kernel null --min-window 0.1 --limit 1)
jcsv=$scratch/jet/jetson_orin_nano_8gb_matmul.csv
ROOFVAL_METER_ROOT="$data/sysfs/ina-orin-nano-jp6" "$roofval" capture "${jet[@]}" 2>"$scratch/jet/err"
grep -q 'ina: VDD_IN (Orin Nano/NX, Xavier NX, TX2 NX: module input)' "$jcsv" &&
	grep -Eq 'ina: ([0-9]+ power samples every 7 ms over 0\.|only [0-9]+ power samples in the 0\.)' "$jcsv" &&
	grep -q '^jetson_orin_nano_8gb,matmul,[^,]*,fp16,[0-9.e+-]*,[0-9.e+-][0-9.e+-]*,' "$jcsv" &&
	grep -q '[^,],0\.0,8\.0,' "$jcsv"
tally $? "capture through the ina meter on a fixture tree" "$scratch/jet/err" "$jcsv"
# Off a Jetson, --rails is no error: the row is written without energy.
check 0 "rows written" "" -- capture "${jet[@]}" --rails VDD_CPU_GPU_CV,VDD_SOC
ROOFVAL_METER_ROOT="$data/sysfs/ina-orin-nano-jp6" "$roofval" capture "${jet[@]}" --rails VDD_CPU_GPU_CV,VDD_SOC 2>/dev/null
grep -q 'ina: VDD_CPU_GPU_CV+VDD_SOC (ROOFVAL_INA_RAILS)' "$jcsv"
tally $? "--rails did not reach the ina meter" "$jcsv"
# The cblas kernel refuses fp16 on a CPU, and says so, without failing the capture.
check 0 "skipped: fp16 is unsupported" "" -- capture "${cap[@]}" --meter none --trials 3 --warmup 1
# A meter that vanishes in the middle leaves the latency and says why there is no energy.
rm -f "$scratch/cap/i7_12700k_matmul.csv"
ROOFVAL_FAKE_METER_FAIL_AFTER=3 "$roofval" capture "${cap[@]}" --kernel null --meter fake --min-window 0.02 --limit 1 2>/dev/null
grep -q 'vanished; energy not recorded' "$scratch/cap/i7_12700k_matmul.csv" &&
	grep '^i7_12700k,matmul,64x64x64,fp32,[0-9.e-]*,,' "$scratch/cap/i7_12700k_matmul.csv" >/dev/null
tally $? "a vanished meter did not leave an empty energy with a note" "$scratch/cap/i7_12700k_matmul.csv"
# SIGINT in the middle keeps every finished row and a valid file.
rm -f "$scratch/cap/i7_12700k_matmul.csv"
"$roofval" capture "${cap[@]}" --kernel null --meter fake --min-window 2 2>"$scratch/int.err" &
cpid=$!
# Once the first row is stored, well inside the second row's 2 s window (a
# slow machine, or valgrind, may take seconds to get there).
for _ in $(seq 600); do
	grep -q '^\[1/4\]' "$scratch/int.err" && break
	sleep 0.1
done
sleep 0.5
kill -INT $cpid
wait $cpid
crc=$?
# Under valgrind the signal can reach a sleeping OpenBLAS thread and be
# handled only a second or more later, after the second row: either count
# keeps every finished row.
if [ "$crc" = 130 ] && grep -Eq "interrupted after [12] of 4 shapes" "$scratch/int.err" &&
	"$roofval" baseline show "$scratch/cap/i7_12700k_matmul.csv" >/dev/null; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL SIGINT: exit $crc, $(cat "$scratch/int.err")"
fi
check 1 "kpu_t64 has no capture backend (predictions only)" "" -- capture --hw kpu_t64 --op matmul --purpose calibration --sweep-dir "$scratch/cap"
check 1 "kernel cublas cannot run here" "" -- capture --hw h200_sxm_141gb --op matmul --purpose calibration --sweep-dir "$scratch/cap"
check 1 "labels no shape for jetson_orin_nano_8gb" "" -- capture --hw jetson_orin_nano_8gb --op matmul --purpose calibration --sweep-dir "$scratch/cap" --kernel null
# --missing finishes a capture that stopped: only the shapes with no row or,
# with a meter, no energy; with every row complete it measures nothing.
rm -f "$scratch/cap/i7_12700k_matmul.csv"
check 0 "rows written" "" -- capture "${cap[@]}" --kernel null --meter none --limit 1
check 0 "1 shapes left out, their rows complete (--missing)" "" -- capture "${cap[@]}" --kernel null --meter none --missing
check 0 "all 4 shapes have their rows; nothing to measure" "" -- capture "${cap[@]}" --kernel null --meter none --missing
check 0 "0 shapes left out" "" -- capture "${cap[@]}" --kernel null --meter fake --min-window 0.02 --missing --limit 2
[ "$(grep -c '^i7_12700k,matmul,[^,]*,[^,]*,[^,]*,[0-9]' "$scratch/cap/i7_12700k_matmul.csv")" = 2 ] &&
	[ "$(grep -c '^i7_12700k,matmul,' "$scratch/cap/i7_12700k_matmul.csv")" = 4 ]
tally $? "--missing --limit 2 with a meter did not give two rows their energy" "$scratch/cap/i7_12700k_matmul.csv"
check 0 "2 shapes left out, their rows complete (--missing)" "" -- capture "${cap[@]}" --kernel null --meter fake --min-window 0.02 --missing
check 1 "meter rapl" "" -- capture "${cap[@]}" --kernel null --meter rapl
check 1 "meter ina: no INA3221/INA238 power monitor under /sys" "" -- capture "${cap[@]}" --kernel null --meter ina --rails VDD_IN
check 0 "" "cblas" -- kernels
check 0 "" "fake" -- meters
check 0 "" "(hwmon or iio sysfs)" -- meters

# Sweep augment is additive and idempotent.
cp "$scratch/cap/matmul_calibration.json" "$scratch/cap/aug.json"
mkdir -p "$scratch/aug" && cp "$scratch/cap/matmul_calibration.json" "$scratch/aug/"
check 0 "" "4 entries labelled for xeon_amx_2vcpu (2 l2_bound, 2 ambiguous)" -- sweep augment --hw xeon_amx_2vcpu --op matmul --purpose calibration --sweep-dir "$scratch/aug"
check 0 "" "0 entries labelled for xeon_amx_2vcpu" -- sweep augment --hw xeon_amx_2vcpu --op matmul --purpose calibration --sweep-dir "$scratch/aug"
grep -q '"i7_12700k": "launch_bound"' "$scratch/aug/matmul_calibration.json" &&
	grep -q '"other": "l2_bound"' "$scratch/aug/matmul_calibration.json"
tally $? "sweep augment changed another target's label"
check 2 "--all goes without --op and --purpose" "" -- sweep augment --hw x --all --op matmul

# Adding a target, end to end: one profile file, sweeps labelled for it,
# capture (real cblas kernel, fake meter), calibrate, validate. No code change.
mkdir -p "$scratch/e2e/hw" "$scratch/e2e/sw" "$scratch/e2e/base"
cp "$data/hardware/e2e/newcpu.json" "$scratch/e2e/hw/"
cp "$repo/hardware/i7_12700k.json" "$scratch/e2e/hw/"
e2e=(--hardware-dir "$scratch/e2e/hw" --sweep-dir "$scratch/e2e/sw")
check 0 "" "vector_add_calibration.json" -- sweep generate --op vector_add --seed 7 --targets i7_12700k --per-regime 8 --max-bytes 5e7 --output-dir "$scratch/e2e/sw" --hardware-dir "$scratch/e2e/hw"
check 0 "" "entries labelled for newcpu" -- sweep augment --hw newcpu --op vector_add "${e2e[@]}"
for pu in calibration validation; do
	check 0 "rows written" "" -- capture --hw newcpu --op vector_add --purpose $pu --meter fake --min-window 0.02 --trials 5 "${e2e[@]}" --baseline-dir "$scratch/e2e/base"
done
check 0 "" "wrote $scratch/e2e/hw/newcpu.fit.json" -- calibrate --hw newcpu "${e2e[@]}" --baseline-dir "$scratch/e2e/base"
"$roofval" validate --hw newcpu --purpose validation "${e2e[@]}" --baseline-dir "$scratch/e2e/base" >"$scratch/e2e/report.txt" 2>&1
vrc=$?
{ [ $vrc = 0 ] || [ $vrc = 3 ]; } && grep -q "records" "$scratch/e2e/report.txt"
tally $? "validate of the new target: exit $vrc" "$scratch/e2e/report.txt"
# sweep relabel: labels follow the new target's measurements once; then the
# sweeps are frozen for it, and only --force relabels again.
check 0 "" "labels of newcpu follow the measurement now" -- sweep relabel --hw newcpu --from-baseline "${e2e[@]}" --baseline-dir "$scratch/e2e/base"
grep -q '"augmented_with_hardware_from_baseline": \[' "$scratch/e2e/sw/vector_add_validation.json" &&
	grep -A2 '"augmented_with_hardware_from_baseline"' "$scratch/e2e/sw/vector_add_validation.json" | grep -q '"newcpu"'
tally $? "sweep relabel did not record newcpu as following its baseline"
cp "$scratch/e2e/sw/vector_add_calibration.json" "$scratch/e2e/frozen.json"
check 1 "vector_add_calibration.json: the labels of newcpu already follow a baseline" "" -- sweep relabel --hw newcpu --from-baseline "${e2e[@]}" --baseline-dir "$scratch/e2e/base"
cmp -s "$scratch/e2e/sw/vector_add_calibration.json" "$scratch/e2e/frozen.json"
tally $? "a refused sweep relabel changed a sweep"
check 0 "" "labels of newcpu follow the measurement now" -- sweep relabel --hw newcpu --from-baseline --force "${e2e[@]}" --baseline-dir "$scratch/e2e/base"
check 2 "--hw and --from-baseline are required" "" -- sweep relabel --hw newcpu
check 1 "no hardware profile 'nosuch'" "" -- sweep relabel --hw nosuch --from-baseline "${e2e[@]}"
check 0 "" "ok $scratch/e2e/hw/newcpu.fit.json" -- hw lint "$scratch/e2e/hw/newcpu.json" "$scratch/e2e/hw/newcpu.fit.json"

# A profile value far from the machine's: the rows fit the add's per-call
# overhead at 6 ns (+/- 111%, undetermined), and the profile's 1 us it would
# go back to is above the smallest add measured (65 ns): refused, with what
# to do (rows of a loaded 2-vCPU Xeon, 2026-12-06); with 10 ns it fits.
mkdir -p "$scratch/deg/hw" "$scratch/deg/sw" "$scratch/deg/base"
sed 's/"latency_s": 1e-08,/"latency_s": 1e-06,/' "$data/hardware/e2e/newcpu.json" >"$scratch/deg/hw/newcpu.json"
{
	printf '{"op": "vector_add", "purpose": "calibration", "shapes": ['
	sep=
	for n in 512 2048 3072 12288 24576 49152 65536 98304 131072 196608 262144 393216 524288 786432 1048576 1572864 3145728; do
		printf '%s{"shape": [%s], "dtype": "fp32", "regime_per_hw": {"newcpu": "l2_bound"}}' "$sep" $n
		sep=", "
	done
	printf ']}\n'
} >"$scratch/deg/sw/vector_add_calibration.json"
{
	echo "hardware,op,shape,dtype,latency_s,energy_j,trial_count,notes"
	paste -d, <(printf '%s\n' 512 2048 3072 12288 24576 49152 65536 98304 131072 196608 262144 393216 524288 786432 1048576 1572864 3145728) \
		<(printf '%s\n' 6.5469e-08 3.5579e-07 3.7774e-07 1.4853e-06 3.3527e-06 6.6905e-06 8.6445e-06 1.0873e-05 1.9082e-05 4.9233e-05 9.1033e-05 1.4861e-04 2.0732e-04 2.9380e-04 4.0945e-04 6.0602e-04 1.3016e-03) |
		sed 's/^\([0-9]*\),\(.*\)$/newcpu,vector_add,\1,fp32,\2,,5,/'
} >"$scratch/deg/base/newcpu_vector_add.csv"
check 1 "these rows do not determine call_overhead.vector_add.latency_s (fitted" "" -- calibrate --hw newcpu --hardware-dir "$scratch/deg/hw" --sweep-dir "$scratch/deg/sw" --baseline-dir "$scratch/deg/base" --dry-run
check 1 "its profile value, 1e-06 s, is above the fastest vector_add call measured (512), 6.55e-08 s: state a value below that in the profile" "" -- calibrate --hw newcpu --hardware-dir "$scratch/deg/hw" --sweep-dir "$scratch/deg/sw" --baseline-dir "$scratch/deg/base" --dry-run
sed -i 's/"latency_s": 1e-06,/"latency_s": 1e-08,/' "$scratch/deg/hw/newcpu.json"
check 0 "" "call_overhead.vector_add.latency_s" -- calibrate --hw newcpu --hardware-dir "$scratch/deg/hw" --sweep-dir "$scratch/deg/sw" --baseline-dir "$scratch/deg/base" --dry-run

# OpenBLAS's terms read from its source (tests/data/xeon_emr_2vcpu): hw show
# prints the small-matrix kernel and the packing rate; predict the packing
# time of a call that packs, and none for one on the small kernel.
xemr="$repo/tests/data/xeon_emr_2vcpu"
check 0 "" "gemm small       blocks 4x64, 6x32, 6x16; FMA latency" -- hw show "$xemr/xeon_emr_2vcpu.json"
check 0 "" "operands packed at" -- hw show "$xemr/xeon_emr_2vcpu.json"
check 0 "" "of packing A and B into panels" -- predict --hw xeon_emr_2vcpu --hardware-dir "$xemr" --op matmul --shape 2048x2048x64
out=$("$roofval" predict --hw xeon_emr_2vcpu --hardware-dir "$xemr" --op matmul --shape 24x192x1 2>&1)
[[ "$out" != *"packing A and B"* && "$out" == *"the small-matrix kernel's register blocks: efficiency"* ]]
tally $? "a small-matrix kernel call was charged packing: $out"
# The same profile's other terms: the packed kernel's full-rate edges, the
# zeroing pass, the bias copy and the tail's transposing copy.
check 0 "" "partial tiles at the full rate down to 4x4" -- hw show "$xemr/xeon_emr_2vcpu.json"
check 0 "" "; C zeroed in a pass of its own for a matmul" -- hw show "$xemr/xeon_emr_2vcpu.json"
check 0 "" "per element of K to copy the tail's B transposed" -- hw show "$xemr/xeon_emr_2vcpu.json"
check 0 "" "of copying the bias into each row" -- predict --hw xeon_emr_2vcpu --hardware-dir "$xemr" --op linear --shape 48x8x8192

# sweep generate: the same inputs give the same bytes, and the purposes are disjoint.
mkdir -p "$scratch/g1/other" "$scratch/g2"
for g in g1 g2; do
	"$roofval" sweep generate --op matmul --seed 11 --targets i7_12700k,h200_sxm_141gb --per-regime 2 --output-dir "$scratch/$g" >/dev/null
done
"$roofval" sweep generate --op matmul --seed 12 --targets i7_12700k,h200_sxm_141gb --per-regime 2 --output-dir "$scratch/g1/other" >/dev/null
cmp -s "$scratch/g1/matmul_validation.json" "$scratch/g2/matmul_validation.json" &&
	! cmp -s "$scratch/g1/matmul_validation.json" "$scratch/g1/other/matmul_validation.json" &&
	grep -q '"generator_seed": 11' "$scratch/g1/matmul_calibration.json" &&
	[ -z "$(comm -12 <(grep -A3 '"shape"' "$scratch/g1/matmul_calibration.json" | tr -d ' \n' | sed 's/"shape"/\n/g' | sort) \
		<(grep -A3 '"shape"' "$scratch/g1/matmul_validation.json" | tr -d ' \n' | sed 's/"shape"/\n/g' | sort) | grep -v '^$')" ]
tally $? "sweep generate is not deterministic, ignores its seed, or mixes purposes"
check 2 "--op, --seed (an integer) and --targets are required" "" -- sweep generate --op matmul --seed x --targets i7_12700k
check 2 "--op, --seed (an integer) and --targets are required" "" -- sweep generate --op matmul --seed 1 --targets i7_12700k --per-regime 0
check 2 "generate: --targets is required" "" -- sweep generate --op matmul --seed 1
# --per-family: strata of leave-one-family-out, down to dimensions of 1;
# with --per-regime as well, a usage error.
mkdir -p "$scratch/gfam"
check 0 "" "matmul_validation.json: " -- sweep generate --op matmul --seed 3 --targets xeon_amx_2vcpu --per-family 2 --max-flop 4294967296 --max-bytes 268435456 --output-dir "$scratch/gfam"
tr -d ' \n' <"$scratch/gfam/matmul_calibration.json" | grep -q '"shape":\[1,'
tally $? "sweep generate --per-family drew no shape with M = 1" "$scratch/gfam/matmul_calibration.json"
check 2 "give --per-regime or --per-family, not both" "" -- sweep generate --op matmul --seed 3 --targets xeon_amx_2vcpu --per-family 2 --per-regime 2 --output-dir "$scratch/gfam"
check 2 "augment: unknown purpose 'x'" "" -- sweep augment --hw i7_12700k --purpose x
check 1 "no hardware profile 'nosuch'" "" -- sweep generate --op matmul --seed 1 --targets nosuch --output-dir "$scratch/g1"

# Pictures: plot and report write SVG and HTML, well-formed and the same every time.
mkdir -p "$scratch/plot" "$scratch/nopath"
check 2 "plot roofline: give one --hw KEY" "" -- plot roofline
check 2 "plot compare: give two different targets" "" -- plot compare --hw xeon_amx_2vcpu
check 2 "unknown op 'conv'" "" -- plot roofline --hw xeon_amx_2vcpu --op conv
check 2 "--png needs a file, not '-'" "" -- plot heatmap --png -o -
check 2 "report: --output DIR is required" "" -- report
check 0 "" "usage: roofval plot roofline --hw KEY" -- plot roofline --help
check 0 "" "heatmap" -- plot --help
# Repeated options are lists of the table: --hw, --op, --baseline-dir, --sweep-dir.
check 2 "plot roofline: give one --hw KEY" "" -- plot roofline --hw xeon_amx_2vcpu --hw i7_12700k
check 2 "plot compare: --baseline-dir and --sweep-dir go at most once per --hw, two at most" "" -- plot compare --hw a --hw b --baseline-dir x --baseline-dir y --baseline-dir z
check 2 "plot heatmap: one --baseline-dir and one --sweep-dir" "" -- plot heatmap --sweep-dir x --sweep-dir y
check 2 "plot heatmap: unknown purpose 'both'" "" -- plot heatmap --purpose both
check 2 "report: a --sweep-dir goes with a --baseline-dir" "" -- report -o "$scratch/r0" --sweep-dir x
check 2 "option '--op' needs a value" "" -- plot roofline --hw xeon_amx_2vcpu --op
ops17=()
for _ in $(seq 17); do ops17+=(--op matmul); done
check 0 "" "Measured points" -- plot roofline --hw xeon_amx_2vcpu "${ops17[@]}" --op=vector_add -o -
check 2 "calibrate: unknown op 'conv'" "" -- calibrate --hw i7_12700k --op conv
check 0 "" "--dry-run" -- calibrate --help
check 1 "no baselines (<hw>_<op>.csv) for xeon_amx_2vcpu in $scratch/nobase" "" -- plot roofline --hw xeon_amx_2vcpu --baseline-dir "$scratch/nobase"
check 1 "no hardware profile 'nosuch'" "" -- plot roofline --hw nosuch
check 0 "" "wrote $scratch/plot/roof.svg" -- plot roofline --hw xeon_amx_2vcpu -o "$scratch/plot/roof.svg"
check 0 "" "Measured points" -- plot roofline --hw xeon_amx_2vcpu --op matmul --op vector_add --purpose validation -o -
check 0 "" "wrote $scratch/plot/heat.svg" -- plot heatmap --hw xeon_amx_2vcpu -o "$scratch/plot/heat.svg"
# Without rsvg-convert on PATH, --png says what to install (and the SVG is kept).
if PATH="$scratch/nopath" "$roofval" plot heatmap --png -o "$scratch/plot/nopng.svg" >/dev/null 2>"$scratch/stderr"; then
	fail=$((fail + 1))
	echo "FAIL plot --png without rsvg-convert exited 0"
elif grep -q "roofval: plot heatmap: .*apt-get install librsvg2-bin" "$scratch/stderr" &&
	[ -s "$scratch/plot/nopng.svg" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL plot --png without rsvg-convert: $(cat "$scratch/stderr")"
fi
if command -v rsvg-convert >/dev/null; then
	check 0 "" "wrote $scratch/plot/heat.png" -- plot heatmap -o "$scratch/plot/heat.svg" --png
else
	echo "SKIP plot --png: rsvg-convert is absent (apt-get install librsvg2-bin)"
fi
if [ -d "$ref/baselines" ]; then
	rb=(--baseline-dir "$ref/baselines" --sweep-dir "$ref/sweeps")
	check 0 "" "wrote $scratch/plot/i7.svg" -- plot roofline --hw i7_12700k "${rb[@]}" -o "$scratch/plot/i7.svg"
	check 0 "" "wrote $scratch/plot/cmp.svg" -- plot compare --hw xeon_amx_2vcpu --hw i7_12700k --baseline-dir "$repo/results/baselines" --sweep-dir "$repo/sweeps" "${rb[@]}" -o "$scratch/plot/cmp.svg"
	check 0 "" "pictures of 4 targets" -- report --output "$scratch/report1" "${rb[@]}"
	check 0 "" "" -- report --output "$scratch/report2" "${rb[@]}"
	[ -f "$scratch/report1/index.html" ] && diff -r "$scratch/report1" "$scratch/report2" >/dev/null &&
		grep -q '<img src="i7_12700k_roofline.svg"' "$scratch/report1/index.html" &&
		[ -f "$scratch/report1/compare_i7_12700k_jetson_orin_nano_8gb.svg" ]
	tally $? "report is incomplete, or differs between two runs"
fi
if command -v xmllint >/dev/null; then
	for f in "$scratch"/plot/*.svg "$scratch"/report1/*.svg; do
		[ -f "$f" ] || continue
		if xmllint --noout "$f" 2>"$scratch/stderr"; then pass=$((pass + 1)); else
			fail=$((fail + 1))
			echo "FAIL $f is not well-formed: $(head -3 "$scratch/stderr")"
		fi
	done
else
	echo "SKIP SVG well-formedness: xmllint is absent (apt-get install libxml2-utils)"
fi

# validate with and without the committed fits gives different reports.
a=$("$roofval" validate --hw xeon_amx_2vcpu --purpose validation --format json 2>/dev/null | grep median_ape | sed -n 2p)
b=$("$roofval" validate --hw xeon_amx_2vcpu --purpose validation --format json --no-fit 2>/dev/null | grep median_ape | sed -n 2p)
if [ -n "$a" ] && [ "$a" != "$b" ]; then pass=$((pass + 1)); else
	fail=$((fail + 1))
	echo "FAIL validate --no-fit does not change the report ($a / $b)"
fi

# Every reference baseline normalizes to the same bytes.
if [ -d "$ref/baselines" ]; then
	for f in "$ref"/baselines/*.csv; do
		"$roofval" baseline normalize "$f" -o - | cmp -s - "$f"
		tally $? "normalize changed $f"
	done
else
	echo "SKIP reference round trips: $ref is absent"
fi

# Manual pages and bash completion come from the tables that print --help
# (help --man, --man-dir, --completion): every page has .TH and each option
# its --help lists; the completion loads, and completes commands, options and
# values.
docs=$scratch/docs
mkdir -p "$docs"
# The commands of a --help listing ("commands:" up to a blank line).
listed() { awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'; }
# The long options of a --help (the lines of its "options:").
help_options() { awk '/^options:/ { on = 1; next } on' | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+'; }
check 0 "" "wrote" -- help --man-dir "$docs/man"
"$roofval" help --completion >"$docs/roofval.bash" 2>"$scratch/stderr"
tally $? "help --completion" "$scratch/stderr"
check 0 "" '.TH "ROOFVAL" "1"' -- help --man
check 2 "help: unknown command 'nosuch'" "" -- help --man nosuch
check 2 "give one of --man, --man-dir and --completion" "" -- help --man --completion
commands=$("$roofval" help | listed)
for c in $commands; do
	grep -qF "\\fB$c\\fR" "$docs/man/roofval.1"
	tally $? "roofval(1) does not list $c"
	if ! "$roofval" help --man "$c" >"$docs/$c.1" 2>"$scratch/stderr"; then
		tally 1 "help --man $c failed" "$scratch/stderr"
		continue
	fi
	cmp -s "$docs/$c.1" "$docs/man/roofval-$c.1"
	tally $? "help --man $c and help --man-dir differ"
	page=$(sed 's/\\-/-/g' "$docs/$c.1")
	upper=${c^^}
	[[ $page == *'.TH "ROOFVAL-'"$upper"'" "1"'* && $page == *".SH SYNOPSIS"* &&
		$page == *'.SH "EXIT STATUS"'* && $page == *'.SH "SEE ALSO"'* ]]
	tally $? "roofval-$c(1) lacks .TH, SYNOPSIS, EXIT STATUS or SEE ALSO" "$docs/$c.1"
	subs=$("$roofval" "$c" --help | listed)
	paths=("$c")
	if [ -n "$subs" ]; then
		paths=()
		for s in $subs; do paths+=("$c $s"); done
	fi
	for path in "${paths[@]}"; do
		# shellcheck disable=SC2086 # the path is one or two words
		opts=$("$roofval" $path --help | help_options)
		# shellcheck disable=SC2086
		completed=" $(bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _roofval; echo "${COMPREPLY[*]}"' _ "$docs/roofval.bash" "$roofval" $path --) "
		for o in $opts; do
			[[ $page == *"\\fB$o\\fR"* ]]
			tally $? "roofval-$c(1) lacks $o of '$path --help'"
			[[ $completed == *" $o "* ]]
			tally $? "the completion of '$path --' lacks $o"
		done
	done
done
# The build made the same pages and script (cmake/RvDocs.cmake).
build=$(dirname "$roofval")
if [ -f "$build/man/roofval.1" ]; then
	diff -r -x .stamp "$docs/man" "$build/man" >"$scratch/stderr" &&
		cmp -s "$docs/roofval.bash" "$build/completion/roofval.bash"
	tally $? "the build's man/ or completion/ differ from roofval help" "$scratch/stderr"
fi
bash -c 'source "$1" && complete -p roofval' _ "$docs/roofval.bash" 2>&1 | grep -q -- "-F _roofval roofval"
tally $? "completion/roofval.bash does not register _roofval"
# complete WANT WORDS...: what _roofval offers for roofval WORDS (the last the one completed).
complete_check() {
	local want=$1 got
	shift
	got=$(bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _roofval; echo "${COMPREPLY[*]}"' _ "$docs/roofval.bash" "$roofval" "$@" 2>&1)
	[ "$got" = "$want" ]
	tally $? "completion of 'roofval $*': '$got', wanted '$want'"
}
complete_check "validate" va
complete_check "list lint" hw l
complete_check "roofline" plot ro
complete_check "--format" validate --fo
complete_check "text markdown json" validate --format ""
complete_check "json" validate --format = j
complete_check "vector_add" plot heatmap --op v
complete_check "calibration validation" plot roofline --purpose ""
complete_check "fp16" predict --dtype fp1
complete_check "xeon_amx_2vcpu" validate --hw xe
complete_check "xeon_amx_2vcpu" hw show xe
complete_check "validate" help va
complete_check "show" help hw s
complete_check "" predict --shape ""
mkdir -p "$docs/keys"
cp "$repo/hardware/i7_12700k.json" "$docs/keys/"
complete_check "i7_12700k" calibrate --hardware-dir "$docs/keys" --hw ""
# capture, probe, kernels, meters and sweep have tables like the others.
complete_check "generate augment relabel --help" sweep ""
complete_check "--per-regime --per-family" sweep generate --per
complete_check "calibration validation" sweep augment --purpose ""
complete_check "host" probe --hw ""
complete_check "--flush-l2" capture --fl
complete_check "matmul" capture --op ma
complete_check "--help" kernels --
check 0 "" '.SH COMMANDS' -- help --man sweep
check 0 "" 'precision' -- help --man capture

# Several models side by side, the regression gate, none scored.
mkdir -p "$scratch/json" "$scratch/m17/worse" "$scratch/m17/same" "$scratch/m17/empty"
if [ -d "$ref/baselines" ]; then
	rb=(--baseline-dir "$ref/baselines" --sweep-dir "$ref/sweeps")
	one=(--hw i7_12700k --purpose calibration)
	"$roofval" predict "${one[@]}" --sweep-dir "$ref/sweeps" --format csv -o "$scratch/m17/same/roofval.csv"
	tally $? "predict --format csv for the gate"
	# The same predictions three times slower, under the built-in model's name.
	awk -F, 'NR == 1 { print; next } { OFS = ","; $5 = $5 * 3; print }' \
		"$scratch/m17/same/roofval.csv" >"$scratch/m17/worse/roofval.csv"
	check 3 "" "" -- validate "${one[@]}" "${rb[@]}" --format json -o "$scratch/json/old.json"
	check 0 "" "no regressions" -- validate "${one[@]}" "${rb[@]}" --against "$scratch/json/old.json"
	check 3 "" "regression" -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/worse/roofval.csv" --against "$scratch/json/old.json"
	check 3 "" '"regressions": ' -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/worse/roofval.csv" --against "$scratch/json/old.json" --format json
	"$roofval" validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/worse/roofval.csv" --against "$scratch/json/old.json" --format json -o "$scratch/json/regressed.json"
	"$roofval" validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/worse/roofval.csv" --format json -o "$scratch/json/worse.json"
	check 0 "" "improvement" -- validate "${one[@]}" "${rb[@]}" --against "$scratch/json/worse.json"
	check 0 "" "no regressions" -- validate "${one[@]}" "${rb[@]}" --against "$scratch/json/worse.json" --format markdown
	check 3 "" "" -- validate "${one[@]}" "${rb[@]}" --against "$scratch/json/old.json" --regression-points 0 --predictions "$scratch/m17/worse/roofval.csv"
	check 2 "regression-points" "" -- validate "${one[@]}" "${rb[@]}" --against "$scratch/json/old.json" --regression-points -1
	check 2 "--regression-points goes with --against OLD.json" "" -- validate "${one[@]}" "${rb[@]}" --regression-points 5
	echo '{"schema": "something/else", "records": []}' >"$scratch/m17/other.json"
	check 1 "not a roofval.report/1 report" "" -- validate "${one[@]}" "${rb[@]}" --against "$scratch/m17/other.json"
	echo 'not json' >"$scratch/m17/garbage.json"
	check 1 "not a roofval.report/1 report" "" -- validate "${one[@]}" "${rb[@]}" --against "$scratch/m17/garbage.json"
	check 1 "cannot read" "" -- validate "${one[@]}" "${rb[@]}" --against "$scratch/m17/absent.json"
	# Two models: side by side, disagreements, one heatmap per model.
	cp "$scratch/m17/worse/roofval.csv" "$scratch/m17/slow.csv"
	check 3 "" "models side by side" -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/slow.csv" --predictions "$scratch/m17/same/roofval.csv"
	check 3 "" "models: roofval, slow" -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/slow.csv" --with-builtin
	check 3 "" "disagreements" -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/slow.csv" --with-builtin
	check 3 "" "## Models side by side" -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/slow.csv" --with-builtin --format markdown
	check 3 "" '"by_model"' -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/slow.csv" --with-builtin --format json
	"$roofval" validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/slow.csv" --with-builtin --format json -o "$scratch/json/two.json"
	n=$(grep -c "^source: " < <("$roofval" validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/slow.csv" --with-builtin))
	[ "$n" = 3 ]
	tally $? "two models over the same files print each source once (got $n source lines)"
	check 3 "" "model: slow" -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/slow.csv"
	# Entries without a prediction: listed (at most 20 in text), all in JSON.
	head -3 "$scratch/m17/worse/roofval.csv" >"$scratch/m17/part.csv"
	check 3 "" "without a prediction" -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/part.csv"
	check 3 "" "--format json lists them all" -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/part.csv"
	"$roofval" validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/part.csv" --format json -o "$scratch/json/part.json"
	# A gate that scores nothing is not green.
	sed 's/^i7_12700k,/other_cpu,/' "$scratch/m17/same/roofval.csv" >"$scratch/m17/other_cpu.csv"
	check 1 "nothing scored: " "" -- validate --all "${rb[@]}" --predictions "$scratch/m17/other_cpu.csv"
	check 1 "without a prediction" "" -- validate "${one[@]}" "${rb[@]}" --predictions "$scratch/m17/other_cpu.csv"
	head -1 "$ref/baselines/i7_12700k_matmul.csv" >"$scratch/m17/empty/i7_12700k_matmul.csv"
	check 1 "nothing scored: " "" -- validate --hw i7_12700k --op matmul --purpose calibration --baseline-dir "$scratch/m17/empty" --sweep-dir "$ref/sweeps"
	check 1 "nothing scored: " "" -- validate --hw i7_12700k --op matmul --purpose calibration --baseline-dir "$scratch/m17/empty" --sweep-dir "$ref/sweeps" -o "$scratch/m17/none.txt"
	[ ! -e "$scratch/m17/none.txt" ]
	tally $? "a validation that scores nothing wrote a report"
else
	echo "SKIP the several-model checks: $ref is absent"
fi
"$roofval" validate --all --format json -o "$scratch/json/committed.json" 2>/dev/null

# Every JSON report written above and the golden one, against docs/report.schema.json.
# (with the report test_report writes, when it ran before).
unit_json=()
for f in "$scratch"/../report_load_json/old.json; do [ -f "$f" ] && unit_json+=("$f"); done
bash "$repo/tests/cli/schema.sh" "$repo/docs/report.schema.json" "$repo/tests/golden/report.json" "$scratch"/json/*.json "${unit_json[@]}"
rc=$?
if [ "$rc" = 77 ]; then echo "SKIP JSON schema checks (tests/cli/schema.sh exit 77)"; else tally $rc "JSON reports against docs/report.schema.json"; fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
