#!/usr/bin/env bash
# The torch kernel backend end to end: `roofval kernels` says
# whether torch runs here and why not; a short capture of each op through
# torch on the host profile gives honest rows (latency positive, energy empty
# with the note saying why, the kernel and its provider named) and a
# manifest recording the framework; an unknown --kernel lists the known ones;
# roofval itself does not link libtorch; cublas says when there is no NVIDIA
# driver. Exits 77 (skipped) in a build without the torch module, after
# checking that its probe says so.
# usage: torch.sh ROOFVAL SCRATCH_DIR REPO
set -u
lib=$(cd "$(dirname "$0")" && pwd)/lib.sh
roofval=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
scratch=$2
repo=$(cd "$3" && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
cd "$scratch" || exit 1
unset ROOFVAL_TORCH_MODULE ROOFVAL_TORCH_DEVICE ROOFVAL_HARDWARE_DIR ROOFVAL_BASELINE_DIR
. "$lib"

"$roofval" kernels >kernels.txt 2>&1 || bad "roofval kernels: $(cat kernels.txt)"
# cublas on a machine without an NVIDIA driver says so plainly.
ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
if [ -x "$ldconfig" ] && ! "$ldconfig" -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
	expect "cublas: no NVIDIA driver said plainly" \
		eval 'grep -A1 "^cublas " kernels.txt | grep -q "no NVIDIA driver on this machine"'
fi

# The torch line and its reason line (the one after it, when unavailable).
torch_line=$(grep -A1 '^torch ' kernels.txt)
if printf '%s\n' "$torch_line" | grep -q 'built without libtorch'; then
	expect "no module: the reason says how to get one" \
		eval 'printf "%s\n" "$torch_line" | grep -q "install libtorch-dev"'
	echo "SKIP torch: $(printf '%s\n' "$torch_line" | tail -1 | sed 's/^ *//') ($pass checks passed)"
	[ "$fail" = 0 ] && exit 77
	exit 1
fi
expect "kernels: torch ok here: $torch_line" eval 'printf "%s\n" "$torch_line" | grep -q "^torch  *ok "'

# roofval itself never links libtorch: only the module does, loaded at the first probe.
if command -v ldd >/dev/null; then
	expect "roofval links no libtorch" eval '! ldd "$roofval" | grep -q -E "libtorch|libc10"'
fi

# A module path that does not load: the reason names the setting.
ROOFVAL_TORCH_MODULE=$scratch/none.so "$roofval" kernels >bad-module.txt 2>&1
expect "a bad ROOFVAL_TORCH_MODULE is named" \
	eval 'grep -A1 "^torch " bad-module.txt | grep -q "cannot load the torch module \$ROOFVAL_TORCH_MODULE"'

# An unknown --kernel lists the known ones, on one line, exit 1.
mkdir -p b c
cap=(--hw xeon_amx_2vcpu --purpose calibration --hardware-dir "$repo/hardware"
	--sweep-dir "$repo/sweeps")
"$roofval" capture "${cap[@]}" --baseline-dir b --op vector_add --kernel tensorrt >out 2>err
rc=$?
expect "--kernel tensorrt: exit 1 (got $rc)" [ "$rc" = 1 ]
expect "--kernel tensorrt lists the known kernels: $(cat err)" \
	eval 'grep -q "no kernel called .tensorrt.; known kernels: null, cblas, cublas, torch" err && [ "$(wc -l <err)" = 1 ]'

# A device that is not there: one line saying why, exit 1.
ROOFVAL_TORCH_DEVICE=cuda "$roofval" capture "${cap[@]}" --baseline-dir b --op vector_add --kernel torch \
	--meter none --limit 1 >out 2>err
rc=$?
if [ "$rc" != 0 ]; then
	expect "ROOFVAL_TORCH_DEVICE=cuda without a GPU says why: $(cat err)" \
		eval '[ "$rc" = 1 ] && grep -q -E "without CUDA|sees no GPU" err && [ "$(wc -l <err)" = 1 ]'
fi

# A short capture of each op through torch, no meter.
for op in matmul linear vector_add; do
	if ! ROOFVAL_TORCH_DEVICE=cpu "$roofval" capture "${cap[@]}" --baseline-dir b --op "$op" --kernel torch \
		--meter none --limit 2 --trials 3 --precision 0 >"cap-$op.out" 2>"cap-$op.err"; then
		bad "capture $op through torch: $(tail -1 "cap-$op.err")"
		continue
	fi
	expect "capture $op names the kernel and provider" \
		grep -q "kernel torch (PyTorch .*thread.*BLAS: " "cap-$op.err"
	python3 - "$scratch/b/xeon_amx_2vcpu_$op.csv" "$scratch/b/xeon_amx_2vcpu_$op.meta.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
why = []
if len(rows) != 2:
    why.append(f"{len(rows)} rows, wanted 2")
for r in rows:
    if not float(r["latency_s"]) > 0:
        why.append(f"{r['shape']}: latency {r['latency_s']}")
    if r["energy_j"] != "":
        why.append(f"{r['shape']}: energy {r['energy_j']} without a meter")
    if "energy not measured (--meter none)" not in r["notes"]:
        why.append(f"{r['shape']}: no note on the missing energy: {r['notes']}")
    if not r["notes"].startswith("kernel torch (PyTorch "):
        why.append(f"{r['shape']}: notes do not name the kernel: {r['notes']}")
run = json.load(open(sys.argv[2]))["captures"][-1]
if run["kernel"] != "torch":
    why.append(f"manifest kernel {run['kernel']}")
p = run["blas"]
for part in ("PyTorch ", ", CPU, ", " thread", ", BLAS: ", ", MKL: ", ", oneDNN: "):
    if part not in p:
        why.append(f"manifest provider {p!r} lacks {part!r}")
if why:
    print("\n".join(why))
    sys.exit(1)
PY
	expect "capture $op through torch: rows and manifest honest" [ $? = 0 ]
done

# Rows through the profile's own backend are not marked.
"$roofval" capture "${cap[@]}" --op vector_add --kernel cblas --meter none --limit 1 \
	--baseline-dir c >/dev/null 2>&1 || bad "capture through cblas"
expect "rows through the profile's backend carry no kernel note" \
	eval '[ -s c/xeon_amx_2vcpu_vector_add.csv ] && ! grep -q "kernel cblas" c/xeon_amx_2vcpu_vector_add.csv'

# libtorch's GEMMs on the CPU run in its BLAS: where that is OpenBLAS (as
# Debian's is; the capture's first line says), held to its SSE3 kernels on a
# CPU with AVX or wider, the capture warns and the manifest keeps it.
mkdir -p n
OPENBLAS_CORETYPE=Prescott "$roofval" capture "${cap[@]}" --op matmul --kernel torch --meter none \
	--limit 1 --baseline-dir n >out 2>err
if grep -qw avx /proc/cpuinfo && grep -q "BLAS: OpenBLAS" err; then
	expect "torch on OpenBLAS's Prescott kernels is warned about: $(cat err)" \
		eval 'grep -q "^roofval: capture: warning: OpenBLAS runs its Prescott kernels" err &&
			grep -q "\"caveat\": \"OpenBLAS runs its Prescott" n/xeon_amx_2vcpu_matmul.meta.json'
fi

echo "torch: $pass passed, $fail failed"
[ "$fail" = 0 ]
