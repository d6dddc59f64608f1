#!/usr/bin/env bash
# roofval installed stands alone: cmake --install into a fresh prefix, then,
# from an empty folder with no ROOFVAL_* variable set and with the source and
# build trees hidden (in a private mount namespace an empty tmpfs lies over
# each: every path compiled into the build names one of them), every command
# of the installed binary runs on what the prefix holds: its profiles, the
# probe's template, its sweeps, its committed baselines (validate --all
# reads them), its backend modules (lib/roofval/modules: cblas for probe,
# null for capture), its manual pages and its documentation. hw list and
# validate --all say the same as the build tree's binary; --data-dir,
# $ROOFVAL_DATA_DIR and the current folder's hardware/ take precedence;
# examples/c compiles against the installed copy through pkg-config and
# runs, and the installed Python package runs examples/python.
# Without user namespaces (a container that forbids them) the same commands
# run with the trees in place, and the test says so.
# The prefix is a fresh folder outside the build tree (a binary inside it
# would read the source tree's data, as an uninstalled one does); it is
# removed when the test passes.
#   install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/roofval-install.XXXXXX")
mkdir -p "$scratch/prefix" "$scratch/empty" "$scratch/data/hardware" "$scratch/run"
P=$scratch/prefix
fail() { echo "install: FAIL: $* (kept $scratch)"; exit 1; }
"${CMAKE:-cmake}" --install "$build" --prefix "$P" >"$scratch/install.log" || fail "cmake --install (see $scratch/install.log)"

pc=$(find "$P" -name roofval.pc | head -n 1)
[ -n "$pc" ] || fail "no roofval.pc"
libdir=$(dirname "$(dirname "$pc")")
for f in bin/roofval include/roofval/roofval.h include/roofval/version.h \
	share/roofval/hardware/i7_12700k.json share/roofval/hardware/i7_12700k.fit.json \
	share/roofval/hardware/templates/host_cpu.json share/roofval/sweeps/matmul_validation.json \
	share/roofval/baselines/xeon_amx_2vcpu_matmul.csv share/doc/roofval/README.md \
	share/doc/roofval/install.md share/man/man1/roofval-validate.1; do
	[ -e "$P/$f" ] || fail "$f not installed"
done
for f in libroofval.a libroofval.so libroofval.so.0 roofval/modules/libroofval-cblas.so; do
	[ -e "$libdir/$f" ] || fail "$libdir/$f not installed"
done
readelf -d "$libdir/libroofval.so.0" | grep -q 'SONAME.*libroofval.so.0' || fail "no SONAME"
# The backend modules live in one folder, not beside the binary.
[ -z "$(find "$P/bin" -name 'libroofval-*')" ] || fail "a backend module in $P/bin"
# Every document a manual page cites is installed.
for doc in $(sed 's/\\-/-/g' "$P"/share/man/man1/*.1 | grep -o 'share/doc/roofval/[a-z0-9_.-]*[a-z]' | sort -u); do
	[ -e "$P/$doc" ] || fail "a manual page cites $doc, which is not installed"
done
if grep -l 'docs/[a-z-]*\.md' "$P"/share/man/man1/*.1 >/dev/null; then
	fail "a manual page cites a source-tree docs/ file: $(grep -l 'docs/[a-z-]*\.md' "$P"/share/man/man1/*.1 | head -n 1)"
fi

# What the build tree's binary says, from the source tree.
(cd "$src" && env -i PATH=/usr/bin:/bin LC_ALL=C "$build/roofval" hw list) >"$scratch/hw-list.ref"
rc=0
(cd "$src" && env -i PATH=/usr/bin:/bin LC_ALL=C "$build/roofval" validate --all) >"$scratch/validate.ref" || rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || fail "the build tree's validate --all exit $rc"
cp "$src/examples/c/predict.c" "$src/examples/python/model_builder.py" "$scratch/run/"
cp "$src/hardware/kpu_t64.json" "$scratch/data/hardware/"

# Every command of the installed copy, from an empty folder with a bare
# environment; $1 the prefix, $2 the folder of the copied examples, $3 the
# --data-dir folder. Each output is kept in the current folder (the empty one).
cat >"$scratch/commands.sh" <<'EOF'
set -eu
P=$1 run=$2 data=$3
r=$P/bin/roofval
step() { echo "== $*" >>steps.log; }
step hw list; "$r" hw list >hw-list.out
step hw show; "$r" hw show i7_12700k >hw-show.out
step hw lint; "$r" hw lint >hw-lint.out
step baseline show; "$r" baseline show "$P/share/roofval/baselines/xeon_amx_2vcpu_vector_add.csv" >baseline-show.out
step classify; "$r" classify --hw i7_12700k --op matmul --shape 512x512x512 >classify.out
step predict; "$r" predict --hw h200_sxm_141gb --op linear --shape 4096x4096x4096 --format json >predict.json
step predict csv; "$r" predict --hw xeon_amx_2vcpu --format csv -o predict.csv
step validate; rc=0; "$r" validate --all >validate.out || rc=$?; [ $rc = 0 ] || [ $rc = 3 ]
step validate json; rc=0; "$r" validate --hw xeon_amx_2vcpu --format json -o validate.json || rc=$?; [ $rc = 0 ] || [ $rc = 3 ]
step plot heatmap; "$r" plot heatmap -o heatmap.svg >/dev/null
step plot roofline; "$r" plot roofline --hw xeon_amx_2vcpu -o roofline.svg >/dev/null
step report; "$r" report --output report >/dev/null
step calibrate; "$r" calibrate --hw xeon_amx_2vcpu --dry-run >calibrate.out
step sweep generate; mkdir -p gen; "$r" sweep generate --op vector_add --seed 1 --targets i7_12700k --per-regime 1 --output-dir gen >/dev/null
step kernels; "$r" kernels >kernels.out
step meters; "$r" meters >meters.out 2>&1 || true
step help; "$r" help validate >help.out; "$r" help --man validate >man.out; "$r" --version >version.out
step probe; "$r" probe --hw host --quick --key probed -o probed.json >probe.out
step capture; mkdir -p cap; "$r" capture --hw xeon_amx_2vcpu --op vector_add --purpose calibration --kernel null --meter none --limit 2 --baseline-dir cap >capture.out 2>&1
step man
if command -v man >/dev/null; then
	MANPATH=$P/share/man MANWIDTH=80 man --warnings -P cat roofval-validate >man-page.out 2>man-page.err
	[ ! -s man-page.err ]
fi
step data-dir; "$r" --data-dir "$data" hw list >dd.out
step ROOFVAL_DATA_DIR; ROOFVAL_DATA_DIR=$data "$r" hw list >env.out
step ./hardware; (cd "$data" && "$r" hw list) >cwd.out
step ROOFVAL_HARDWARE_DIR; (cd "$data" && ROOFVAL_HARDWARE_DIR="$P/share/roofval/hardware" "$r" --data-dir "$data" hw list) >hwdir.out
step examples/c
libdir=$(dirname "$(dirname "$(find "$P" -name roofval.pc | head -n 1)")")
if command -v pkg-config >/dev/null && command -v cc >/dev/null; then
	# shellcheck disable=SC2046
	PKG_CONFIG_PATH=$libdir/pkgconfig cc -std=c11 -Wall -Werror -o predict "$run/predict.c" \
		$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs roofval) -Wl,-rpath,"$libdir"
	./predict i7_12700k "$P/share/roofval/baselines" >example.out
fi
step examples/python
if command -v python3 >/dev/null; then
	pydir=$(dirname "$(find "$P" -path '*/roofval/__init__.py' | head -n 1)")
	PYTHONPATH=$(dirname "$pydir") PYTHONDONTWRITEBYTECODE=1 python3 "$run/model_builder.py" \
		"$P/share/roofval/baselines" >python.out
fi
step done
EOF

bare=(env -i PATH=/usr/bin:/bin LC_ALL=C)
rc=0
if unshare -rm true 2>/dev/null; then
	hidden=1
	hide="mount -t tmpfs none \"\$1\" && { [ \"\${2#\$1/}\" != \"\$2\" ] || mount -t tmpfs none \"\$2\"; }"
	(cd "$scratch/empty" && "${bare[@]}" unshare -rm sh -c "$hide"' &&
		[ ! -e "$1/CMakeLists.txt" ] && [ ! -e "$2/CMakeCache.txt" ] && shift 2 && bash "$@"' \
		sh "$src" "$build" "$scratch/commands.sh" "$P" "$scratch/run" "$scratch/data") || rc=$?
else
	hidden=0
	(cd "$scratch/empty" && "${bare[@]}" bash "$scratch/commands.sh" "$P" "$scratch/run" "$scratch/data") || rc=$?
fi
e=$scratch/empty
[ $rc = 0 ] || fail "the installed copy failed at: $(tail -n 1 "$e/steps.log" 2>/dev/null) (exit $rc)"
grep -q '^== done' "$e/steps.log" || fail "the commands stopped at: $(tail -n 1 "$e/steps.log")"

diff -u "$scratch/hw-list.ref" "$e/hw-list.out" || fail "installed hw list differs"
# The same report, but for the folder names on the source: lines.
diff -u <(grep -v '^source: ' "$scratch/validate.ref") <(grep -v '^source: ' "$e/validate.out") ||
	fail "installed validate --all differs"
grep -q "^source: .*$P/share/roofval/sweeps/" "$e/validate.out" || fail "validate did not use share/roofval/sweeps"
grep -q "^source: .*$P/share/roofval/baselines/" "$e/validate.out" || fail "validate did not use share/roofval/baselines"
grep -q 'h200_sxm_141gb' "$e/validate.out" && grep -q 'xeon_amx_2vcpu' "$e/validate.out" ||
	fail "validate --all did not read every installed baseline"
grep -q '^cblas  *ok' "$e/kernels.out" || fail "the installed cblas module does not load: $(grep -A1 '^cblas' "$e/kernels.out")"
grep -q '"key": "probed"' "$e/probed.json" || fail "probe wrote no profile"
[ "$(tail -n +2 "$e/cap/xeon_amx_2vcpu_vector_add.csv" | wc -l)" = 2 ] || fail "capture --kernel null wrote no rows"
[ ! -e "$e/man-page.out" ] || { grep -q '^OPTIONS' "$e/man-page.out" && grep -q -- '--baseline-dir' "$e/man-page.out"; } ||
	fail "man roofval-validate"
[ "$(tail -n +2 "$e/dd.out" | awk '{ print $1 }')" = kpu_t64 ] || fail "--data-dir not used"
[ "$(tail -n +2 "$e/env.out" | awk '{ print $1 }')" = kpu_t64 ] || fail "ROOFVAL_DATA_DIR not used"
[ "$(tail -n +2 "$e/cwd.out" | awk '{ print $1 }')" = kpu_t64 ] || fail "./hardware not used"
grep -q i7_12700k "$e/hwdir.out" || fail "ROOFVAL_HARDWARE_DIR not first"
[ ! -e "$e/example.out" ] || grep -q '^matmul 512x512x512: ' "$e/example.out" || fail "examples/c printed no prediction"
[ ! -e "$e/python.out" ] || grep -q '^records: ' "$e/python.out" || fail "examples/python printed no report"
rm -rf "$scratch"
if [ "$hidden" = 1 ]; then
	echo "install: ok (every command with the source and build trees hidden)"
else
	echo "install: ok; skip: no user namespaces here (unshare -rm), so the source tree was not hidden"
fi
