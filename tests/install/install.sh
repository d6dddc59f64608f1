#!/usr/bin/env bash
# roofval installed: cmake --install into a fresh prefix, then, from an
# empty folder with no ROOFVAL_* variable set, the installed binary finds
# its profiles and sweeps under the prefix's share/roofval/ (and says the
# same as the build tree's binary), --data-dir, $ROOFVAL_DATA_DIR and the
# current folder's hardware/ take precedence, it works the same with the
# source and build trees hidden, examples/c compiles against the installed
# copy through pkg-config and runs, and the installed Python
# package runs examples/python.
# The prefix is a fresh folder outside the build tree (a binary inside it
# would read the source tree's data, as an uninstalled one does); it is
# removed when the test passes.
#   install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/roofval-install.XXXXXX")
mkdir -p "$scratch/prefix" "$scratch/empty" "$scratch/data/hardware"
P=$scratch/prefix
fail() { echo "install: FAIL: $* (kept $scratch)"; exit 1; }
"${CMAKE:-cmake}" --install "$build" --prefix "$P" >"$scratch/install.log" || fail "cmake --install (see $scratch/install.log)"

pc=$(find "$P" -name roofval.pc | head -n 1)
[ -n "$pc" ] || fail "no roofval.pc"
libdir=$(dirname "$(dirname "$pc")")
for f in bin/roofval include/roofval/roofval.h include/roofval/version.h \
	share/roofval/hardware/i7_12700k.json share/roofval/hardware/i7_12700k.fit.json \
	share/roofval/sweeps/matmul_validation.json; do
	[ -e "$P/$f" ] || fail "$f not installed"
done
for f in libroofval.a libroofval.so libroofval.so.0; do
	[ -e "$libdir/$f" ] || fail "$libdir/$f not installed"
done
readelf -d "$libdir/libroofval.so.0" | grep -q 'SONAME.*libroofval.so.0' || fail "no SONAME"

# From an empty folder, no ROOFVAL_* variables: the prefix's data.
run() { (cd "$1" && shift && env -i PATH=/usr/bin:/bin LC_ALL=C PYTHONDONTWRITEBYTECODE=1 "$@"); }
run "$scratch/empty" "$P/bin/roofval" hw list >"$scratch/hw-list.out" || fail "hw list"
(cd "$src" && env -u ROOFVAL_HARDWARE_DIR LC_ALL=C "$build/roofval" hw list) >"$scratch/hw-list.ref"
diff -u "$scratch/hw-list.ref" "$scratch/hw-list.out" || fail "installed hw list differs"
rc=0
run "$scratch/empty" "$P/bin/roofval" validate --all --baseline-dir "$src/results/baselines" \
	>"$scratch/validate.out" || rc=$?
[ $rc = 0 ] || [ $rc = 3 ] || fail "validate --all exit $rc"
rc=0
(cd "$src" && env -i PATH=/usr/bin:/bin LC_ALL=C "$build/roofval" validate --all \
	--baseline-dir "$src/results/baselines") >"$scratch/validate.ref" || rc=$?
# The same report, but for the folder names on the source: lines.
diff -u <(grep -v '^source: ' "$scratch/validate.ref") <(grep -v '^source: ' "$scratch/validate.out") ||
	fail "installed validate differs"
grep -q "^source: .*$P/share/roofval/sweeps/" "$scratch/validate.out" || fail "validate did not use share/roofval"
grep -q 'xeon_amx_2vcpu' "$scratch/validate.out" || fail "validate reported nothing"

# With the source and build trees gone: in a private mount namespace an
# empty tmpfs lies over each (every path compiled into the build names one
# of them), and the installed copy still lists its profiles and validates a
# copy of the reference baselines, saying the same as above. Without user
# namespaces (a container that forbids them) this part is skipped, and said.
cp -r "$src/results/baselines" "$scratch/baselines"
if unshare -rm true 2>/dev/null; then
	rc=0
	hide="mount -t tmpfs none \"\$1\" && { [ \"\${2#\$1/}\" != \"\$2\" ] || mount -t tmpfs none \"\$2\"; }"
	(cd "$scratch/empty" && env -i PATH=/usr/bin:/bin LC_ALL=C unshare -rm sh -c "$hide"' &&
		[ ! -e "$1/CMakeLists.txt" ] && [ ! -e "$2/CMakeCache.txt" ] &&
		"$3/bin/roofval" hw list >hw-list.gone &&
		{ "$3/bin/roofval" validate --all --baseline-dir "$4" >validate.gone || [ $? = 3 ]; }' \
		sh "$src" "$build" "$P" "$scratch/baselines") || rc=$?
	[ $rc = 0 ] || fail "with the source tree gone: exit $rc"
	diff -u "$scratch/hw-list.ref" "$scratch/empty/hw-list.gone" || fail "hw list differs with the source tree gone"
	diff -u <(grep -v '^source: ' "$scratch/validate.ref") <(grep -v '^source: ' "$scratch/empty/validate.gone") ||
		fail "validate differs with the source tree gone"
	rm -f "$scratch/empty/hw-list.gone" "$scratch/empty/validate.gone"
else
	echo "install: skip: no user namespaces here (unshare -rm), so the source tree is not hidden"
fi

# The search path: --data-dir, then $ROOFVAL_DATA_DIR, then ./hardware.
cp "$src/hardware/kpu_t64.json" "$scratch/data/hardware/"
run "$scratch/empty" "$P/bin/roofval" --data-dir "$scratch/data" hw list >"$scratch/dd.out" || fail "--data-dir"
[ "$(tail -n +2 "$scratch/dd.out" | awk '{ print $1 }')" = kpu_t64 ] || fail "--data-dir not used"
run "$scratch/empty" env ROOFVAL_DATA_DIR="$scratch/data" "$P/bin/roofval" hw list >"$scratch/env.out" ||
	fail "ROOFVAL_DATA_DIR"
[ "$(tail -n +2 "$scratch/env.out" | awk '{ print $1 }')" = kpu_t64 ] || fail "ROOFVAL_DATA_DIR not used"
run "$scratch/data" "$P/bin/roofval" hw list >"$scratch/cwd.out" || fail "./hardware"
[ "$(tail -n +2 "$scratch/cwd.out" | awk '{ print $1 }')" = kpu_t64 ] || fail "./hardware not used"
run "$scratch/data" env ROOFVAL_HARDWARE_DIR="$P/share/roofval/hardware" "$P/bin/roofval" \
	--data-dir "$scratch/data" hw list | grep -q i7_12700k || fail "ROOFVAL_HARDWARE_DIR not first"

# examples/c against the installed copy, through pkg-config.
if command -v pkg-config >/dev/null && command -v cc >/dev/null; then
	export PKG_CONFIG_PATH=$libdir/pkgconfig
	# shellcheck disable=SC2046
	cc -std=c11 -Wall -Werror -o "$scratch/predict" "$src/examples/c/predict.c" \
		$(pkg-config --cflags --libs roofval) -Wl,-rpath,"$libdir" || fail "examples/c does not build"
	run "$scratch/empty" "$scratch/predict" i7_12700k "$src/results/baselines" >"$scratch/example.out" ||
		fail "examples/c failed: $(tail -n 3 "$scratch/example.out")"
	grep -q '^matmul 512x512x512: ' "$scratch/example.out" || fail "examples/c printed no prediction"
	unset PKG_CONFIG_PATH
fi

# The installed Python package, found by PYTHONPATH only.
if command -v python3 >/dev/null; then
	pydir=$(dirname "$(find "$P" -path '*/roofval/__init__.py' | head -n 1)")
	run "$scratch/empty" env PYTHONPATH="$(dirname "$pydir")" python3 \
		"$src/examples/python/model_builder.py" "$src/results/baselines" >"$scratch/python.out" ||
		fail "examples/python failed: $(tail -n 3 "$scratch/python.out")"
	grep -q '^records: ' "$scratch/python.out" || fail "examples/python printed no report"
fi
rm -rf "$scratch"
echo "install: ok"
