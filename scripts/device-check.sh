#!/usr/bin/env bash
# The GPU check: run this on the GPU machine, from the repository root.
#   bash scripts/device-check.sh            (results in $OUT, default /tmp/roofval-device-check)
# It builds roofval with CUDA (or takes the build-device/ bundle that
# scripts/device-bundle.sh made, when the machine lacks the Debian packages
# the build needs), runs the unit tests, checks the cuBLAS workloads against
# a host reference, measures the NVML energy counter's update period, and
# captures the baselines of the profile of the GPU it finds (an H200:
# h200_sxm_141gb, an H100: h100_sxm5_80gb; DEVICE_CHECK_HW=KEY names
# another): matmul, linear, vector_add, every shape's latency first, then
# energy, calibration rows before validation rows, into baselines/. It also
# builds the torch module against the machine's PyTorch and captures the
# same sweeps through it (latency only) into baselines-torch/, beside
# cuBLAS's.
# Everything happens in a work folder (DEVICE_CHECK_WORK); after every stage
# the folder is packed into $OUT/device-check.tar.gz and the report copied to
# $OUT/report.txt, so a run stopped early still leaves what it finished. No
# capture starts after DEVICE_CHECK_BUDGET_S seconds (default 420) and none
# runs past it: every finished row is kept. Afterwards copy baselines/* to
# results/baselines/ (and baselines-torch/* to results/h200/torch/ or the
# GPU's own folder), then calibrate and validate.
# DEVICE_CHECK_MISSING=1 starts baselines/ from the committed
# results/baselines/<hw>_*.csv and captures with --missing: only the shapes
# without a row or without energy (a follow-up run that fills what an earlier
# one left, in a fraction of the time).
# On a machine without a GPU it runs the same steps with the null kernel and
# the fake meter (ROOFVAL_DEVICE_DRY=1 forces that), so it can be tried
# anywhere.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/roofval-device-check}
W=${DEVICE_CHECK_WORK:-/tmp/roofval-device-work}
budget_s=${DEVICE_CHECK_BUDGET_S:-420}
# The profile of the GPU found, unless DEVICE_CHECK_HW names one.
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
case $gpu_name in
*H200*) gpu_hw=h200_sxm_141gb ;;
*H100*) gpu_hw=h100_sxm5_80gb ;;
*) gpu_hw=h200_sxm_141gb ;; # no GPU, or one without a profile: the dry run's
esac
hw=${DEVICE_CHECK_HW:-$gpu_hw}
start=$(date +%s)
rm -rf "$W"
mkdir -p "$OUT" "$W/baselines"
report=$W/report.txt
: >"$report"
missing=()
if [ "${DEVICE_CHECK_MISSING:-0}" = 1 ]; then
	cp results/baselines/"$hw"_*.csv results/baselines/"$hw"_*.meta.json "$W/baselines/" 2>/dev/null
	missing=(--missing)
fi
say() { printf '%s\n' "$*" | tee -a "$report"; }
elapsed() { echo $(($(date +%s) - start)); }
left() { echo $((budget_s - $(elapsed))); }
pack() {
	tar czf "$OUT/device-check.tar.gz.tmp" -C "$W" . && mv "$OUT/device-check.tar.gz.tmp" "$OUT/device-check.tar.gz"
	cp "$report" "$OUT/report.txt"
}

say "== device check $(date -u +%FT%TZ) on $(hostname): ${gpu_name:-no GPU}, profile $hw"
{
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit \
		--format=csv 2>&1 || echo "nvidia-smi: not found"
	nvidia-smi -q -d PERFORMANCE,CLOCK 2>&1 | head -60
	command -v nvcc >/dev/null && nvcc --version | tail -1 || echo "nvcc: not found"
	for t in gcc g++ cmake pkg-config; do command -v $t >/dev/null && echo "$t: $($t --version | head -1)" || echo "$t: not found"; done
	for p in jansson cmocka gsl openblas; do pkg-config --exists $p && echo "$p: $(pkg-config --modversion $p)" || echo "$p: missing"; done
} >>"$report" 2>&1

# 1. Build, with what the machine has. When the Debian packages the build
# needs are not there (no jansson, GSL, OpenBLAS or cmocka), the bundle that
# scripts/device-bundle.sh made on a Debian machine (build-device/, copied
# here with the tree) is used instead, with CUDA's libraries from the
# machine itself.
say "== build ($(elapsed) s)"
roofval=build/roofval
test_cuda=build/tests/test_cuda
bundle=0
# ROOFVAL_DEVICE_BUNDLE=1 takes the bundle without trying to build (to try it).
if [ "${ROOFVAL_DEVICE_BUNDLE:-0}" = 1 ] || ! pkg-config --exists jansson gsl openblas cmocka 2>/dev/null ||
	! scripts/build.sh >>"$W/build.log" 2>&1; then
	if [ -x build-device/roofval ]; then
		say "no build here (packages missing, or see build.log): using the carried build-device/ bundle"
		cuda_libs=$(find /usr/local/cuda*/lib* /usr/local/cuda*/targets/*/lib /opt /usr/lib \
			-maxdepth 8 -name 'libcublasLt.so.*' -printf '%h\n' 2>/dev/null | sort -u | tr '\n' :)
		export LD_LIBRARY_PATH="$PWD/build-device/lib:${cuda_libs}${LD_LIBRARY_PATH:-}"
		say "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
		# The bundle is not an installed prefix: name its CUDA module.
		export ROOFVAL_CUDA_MODULE="$PWD/build-device/libroofval-cuda.so"
		roofval=build-device/roofval
		test_cuda=build-device/tests/test_cuda
		bundle=1
	else
		say "no build: Debian packages missing, or the build failed (build.log); they cannot be installed there:"
		say "run scripts/device-bundle.sh on a Debian machine and copy build-device/ here"
		cp -r build/CMakeFiles/CMakeOutput.log "$W/" 2>/dev/null
		pack
		exit 1
	fi
fi
# The bundle was built elsewhere: name the data folders of this tree.
export ROOFVAL_HARDWARE_DIR="$PWD/hardware" ROOFVAL_SWEEP_DIR="$PWD/sweeps"
"$roofval" --version >>"$report" 2>&1
"$roofval" kernels >>"$report" 2>&1
"$roofval" meters >>"$report" 2>&1

kernel=cublas
meter=""
if [ "${ROOFVAL_DEVICE_DRY:-0}" = 1 ] || ! "$roofval" kernels | grep -q '^cublas *ok'; then
	say "no usable GPU here: dry run with the null kernel and the fake meter"
	kernel=null
	meter="--meter fake --min-window 0.02"
fi

# 2. Unit tests (quick; the GPU is not needed for them; not with the bundle,
# whose tests name folders of the machine that built it).
if [ "$bundle" = 0 ]; then
	say "== tests ($(elapsed) s)"
	ctest --test-dir build -j"$(nproc)" --output-on-failure >"$W/ctest.log" 2>&1
	tail -3 "$W/ctest.log" | tee -a "$report"
fi
pack

# 3. cuBLAS results against the host reference, small shapes of every op and dtype.
say "== kernel check ($(elapsed) s)"
timeout 120 "$test_cuda" >>"$report" 2>&1; rc=$?
[ $rc = 0 ] && say "kernel check: passed" || say "kernel check: exit $rc (77: skipped, no GPU; else FAILED, see above)"

# 4. NVML: the energy counter's update period (measured when the meter opens).
say "== nvml ($(elapsed) s)"
"$roofval" meters >>"$report" 2>&1
pack

# 5. Captures. First every shape without energy (seconds in all), so that
# complete latency baselines exist whatever happens next; then the same
# shapes again with the NVML energy window (about 2-3 s a shape: idle power
# and a window of at least 1 s), calibration rows first, until the budget is
# spent. A row measured again replaces the first one. Each capture runs
# under what is left of the budget (rows are written as they are measured,
# so one stopped there keeps its finished rows).
say "== latency captures ($(elapsed) s)"
run_capture() { # dir log command... (a roofval capture without its --baseline-dir)
	local dir=$1 log=$2
	shift 2
	if [ "$(left)" -le 5 ]; then
		say "time budget spent: capture $* not started"
		return
	fi
	timeout "$(left)" "$@" --baseline-dir "$dir" 2>>"$log" | tee -a "$report"
	[ "${PIPESTATUS[0]}" = 124 ] && say "time budget spent: capture $* stopped"
	tail -1 "$log" | tee -a "$report"
	pack
}
capture() { # purpose op meter-options...
	local purpose=$1 op=$2
	shift 2
	run_capture "$W/baselines" "$W/capture.log" "$roofval" capture --hw "$hw" --op "$op" \
		--purpose "$purpose" --kernel "$kernel" "${missing[@]}" "$@"
}
for purpose in calibration validation; do
	for op in matmul linear vector_add; do
		capture "$purpose" "$op" --meter none
	done
done
# The L2 flush path, on three shapes, into a scratch folder.
mkdir -p "$W/flush"
run_capture "$W/flush" "$W/capture.log" "$roofval" capture --hw "$hw" --op matmul --purpose calibration \
	--kernel "$kernel" --meter none --flush-l2 --limit 3

# 6. Through PyTorch: the torch module built against the machine's pip
# PyTorch, the same sweeps captured through it on the GPU (latency only)
# into baselines-torch/, beside cuBLAS's (the same file names: never mixed).
# With the build, through CMake (its Torch package, from
# torch.utils.cmake_prefix_path) into build-torch/; with the bundle, by
# scripts/torch-module.sh against the bundle's core. Without a PyTorch
# there, the build's own torch module when it has one (Debian's
# libtorch-dev, CPU). In a dry run, on the CPU, one shape of each op of a
# CPU profile.
say "== torch ($(elapsed) s)"
troofval=""
tenv=()
torch_prefix=$(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)' 2>/dev/null)
if [ -n "$torch_prefix" ]; then
	say "PyTorch $(python3 -c 'import torch;print(torch.__version__, "CUDA", torch.version.cuda)' 2>&1) at $torch_prefix"
	if [ "$bundle" = 1 ]; then
		if timeout 240 scripts/torch-module.sh "$W/libroofval-torch.so" >"$W/build-torch.log" 2>&1; then
			troofval=$roofval
			# torch finds its own CUDA libraries (pip's nvidia packages): not the toolkit's.
			tenv=(LD_LIBRARY_PATH="$PWD/build-device/lib" ROOFVAL_TORCH_MODULE="$W/libroofval-torch.so")
		fi
	elif cmake -S . -B build-torch -DCMAKE_PREFIX_PATH="$torch_prefix" -DRV_TORCH=ON -DRV_CUDA=OFF \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo >"$W/build-torch.log" 2>&1 &&
		timeout 240 cmake --build build-torch -j"$(nproc)" --target roofval roofval_torch test_torch \
			>>"$W/build-torch.log" 2>&1; then
		troofval=build-torch/roofval
		build-torch/tests/test_torch >>"$report" 2>&1
		say "torch unit tests: exit $?"
	fi
	if [ -z "$troofval" ]; then
		say "torch module build failed: see build-torch.log"
		grep -E "torch module|Error|error" "$W/build-torch.log" | head -8 | tee -a "$report"
	fi
elif "$roofval" kernels | grep -q '^torch *ok'; then
	say "no PyTorch for python3 here: the build's own torch module"
	troofval=$roofval
else
	say "no PyTorch for python3 and no torch module in the build: torch captures skipped"
fi
pack
if [ -n "$troofval" ]; then
	env "${tenv[@]}" "$troofval" kernels 2>&1 | grep -A1 '^torch ' | tee -a "$report"
	thw=$hw tdev=cuda tlimit=()
	if [ "$kernel" = null ]; then
		thw=${DEVICE_CHECK_DRY_HW:-xeon_amx_2vcpu} tdev=cpu tlimit=(--limit 1)
	fi
	mkdir -p "$W/baselines-torch"
	for purpose in calibration validation; do
		for op in matmul linear vector_add; do
			run_capture "$W/baselines-torch" "$W/capture-torch.log" \
				env "${tenv[@]}" ROOFVAL_TORCH_DEVICE=$tdev "$troofval" capture \
				--hw "$thw" --op "$op" --purpose "$purpose" --kernel torch --meter none "${tlimit[@]}"
		done
	done
fi

say "== energy captures ($(elapsed) s)"
for purpose in calibration validation; do
	for op in matmul linear vector_add; do
		# shellcheck disable=SC2086
		capture "$purpose" "$op" $meter
	done
done
say "== done in $(elapsed) s; baselines in $W/baselines, all in $OUT/device-check.tar.gz"
pack
