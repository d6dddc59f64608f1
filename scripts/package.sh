#!/usr/bin/env bash
# Builds the Debian packages with CPack's DEB generator, from a release build
# installed under /usr, into build-package/:
#   roofval_<version>_<arch>.deb        the CLI, libroofval.so, data, docs
#   roofval-dev_<version>_<arch>.deb    headers, roofval.pc, libroofval.a
#   roofval-cblas_<version>_<arch>.deb  the cblas module (Depends libopenblas0)
#   roofval-torch_<version>_<arch>.deb  the torch module, when libtorch is found
#   roofval-cuda_<version>_<arch>.deb   the CUDA module, when CUDA is found
# Their library dependencies come from dpkg-shlibdeps (Debian's dpkg-dev).
# Then it checks each package's contents and Depends, runs lintian on each
# when it is installed (every tag it reports is explained in
# docs/install.md; any other fails), and unpacks them into a fresh folder
# where the packaged roofval, with the source and build trees hidden (an
# empty tmpfs over each in a private mount namespace, when the kernel
# allows one), lists its profiles, validates its installed baselines,
# loads its cblas module, probes this machine, captures with the null
# kernel and runs the Python package.
#   scripts/package.sh [extra cmake options, e.g. -DRV_CUDA=OFF]
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
command -v dpkg-shlibdeps >/dev/null || {
	echo "package.sh: dpkg-shlibdeps missing: apt-get install dpkg-dev" >&2
	exit 1
}
fail() { echo "package.sh: $*" >&2; exit 1; }
mkdir -p build-package
rm -f build-package/roofval*.deb
cmake -S . -B build-package -DCMAKE_BUILD_TYPE=Release -DRV_TESTS=OFF \
	-DCMAKE_INSTALL_PREFIX=/usr -DRV_WERROR=OFF \
	-DRV_PYTHON_DIR=lib/python3/dist-packages -DRV_DEB=ON "$@" >build-package/package.log 2>&1
cmake --build build-package -j"$(nproc)" >>build-package/package.log 2>&1 ||
	{ tail -n 30 build-package/package.log; exit 1; }
(cd build-package && cpack -G DEB >>package.log 2>&1) || { tail -n 30 build-package/package.log; exit 1; }
deb() { ls -t build-package/"$1"_*.deb 2>/dev/null | head -n 1 || true; }
main=$(deb roofval) dev=$(deb roofval-dev) cblas=$(deb roofval-cblas)
torch=$(deb roofval-torch) cuda=$(deb roofval-cuda)
[ -n "$main" ] && [ -n "$dev" ] && [ -n "$cblas" ] || fail "missing packages: $(ls build-package/*.deb)"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
modules=./usr/lib/$multiarch/roofval/modules

# Contents: what is in each package, and what is not.
has() { # deb path...
	local d=$1
	shift
	dpkg-deb -c "$d" | awk '{ print $6 }' >build-package/contents.txt
	for f in "$@"; do
		grep -qx -- "$f" build-package/contents.txt || fail "$d lacks $f"
	done
}
has "$main" ./usr/bin/roofval "./usr/lib/$multiarch/libroofval.so.0" \
	./usr/share/roofval/hardware/i7_12700k.json ./usr/share/roofval/hardware/templates/host_cpu.json \
	./usr/share/roofval/sweeps/matmul_validation.json ./usr/share/roofval/baselines/xeon_amx_2vcpu_matmul.csv \
	./usr/share/doc/roofval/README.md ./usr/share/doc/roofval/install.md ./usr/share/doc/roofval/copyright \
	./usr/share/doc/roofval/changelog.gz ./usr/share/man/man1/roofval.1.gz \
	./usr/lib/python3/dist-packages/roofval/__init__.py
dpkg-deb -c "$main" | grep -Eq 'roofval/modules/|include/|\.a$|\.pc$' &&
	fail "$main holds a module or a -dev file: $(dpkg-deb -c "$main" | grep -E 'modules/|include/|\.a$|\.pc$' | head -n 3)"
has "$dev" ./usr/include/roofval/roofval.h "./usr/lib/$multiarch/libroofval.a" \
	"./usr/lib/$multiarch/pkgconfig/roofval.pc" "./usr/lib/$multiarch/libroofval.so"
has "$cblas" "$modules/libroofval-cblas.so"
[ -z "$torch" ] || has "$torch" "$modules/libroofval-torch.so"
[ -z "$cuda" ] || has "$cuda" "$modules/libroofval-cuda.so"
dpkg-deb --fsys-tarfile "$dev" | tar -xO "./usr/lib/$multiarch/pkgconfig/roofval.pc" | grep -q '^URL:' &&
	fail "roofval.pc has a URL field with no real URL behind it"

# Depends: OpenBLAS for the cblas module alone, libtorch for the torch
# module alone, the CUDA runtime and cuBLAS for the CUDA module.
field() { dpkg-deb -f "$1" "$2"; }
depends=$(field "$main" Depends)
for lib in libjansson libgsl; do
	grep -q "$lib" <<<"$depends" || fail "roofval's Depends lacks $lib: $depends"
done
grep -Eq 'openblas|libtorch|cuda|cublas' <<<"$depends" && fail "roofval depends on a backend's library: $depends"
grep -q 'roofval-cblas' <<<"$(field "$main" Recommends)" || fail "roofval does not recommend roofval-cblas"
grep -q 'libopenblas0' <<<"$(field "$cblas" Depends)" || fail "roofval-cblas's Depends lacks libopenblas0: $(field "$cblas" Depends)"
for d in "$dev" "$cblas" $torch $cuda; do
	grep -q 'roofval (= ' <<<"$(field "$d" Depends)" || fail "$d does not depend on roofval of its version"
done
[ -z "$torch" ] || grep -q libtorch <<<"$(field "$torch" Depends)" || fail "roofval-torch's Depends lacks libtorch"
[ -z "$cuda" ] || grep -q 'libcublas' <<<"$(field "$cuda" Depends)" || fail "roofval-cuda's Depends lacks cuBLAS"

# lintian, when installed: each tag it may report is explained in
# docs/install.md ("The Debian packages"); any other fails.
if command -v lintian >/dev/null; then
	explained='bogus-mail-host|bogus-mail-host-in-debian-changelog|maintscript-calls-ldconfig|package-name-doesnt-match-sonames'
	lintian --tag-display-limit 0 build-package/*.deb >build-package/lintian.txt 2>&1 || true
	unexplained=$(grep -E '^[EW]: ' build-package/lintian.txt | grep -Ev ": ($explained)( |$)" || true)
	[ -z "$unexplained" ] || { echo "$unexplained" >&2; fail "lintian tags not explained in docs/install.md"; }
	echo "lintian: $(grep -cE '^[EW]: ' build-package/lintian.txt) tags, all explained (build-package/lintian.txt)"
else
	echo "package.sh: lintian not installed (apt-get install lintian): not run"
fi

# Unpacked into a fresh folder, with the source and build trees hidden.
root=$(mktemp -d)
for d in "$main" "$cblas" $torch; do dpkg-deb -x "$d" "$root"; done
cat >"$root/check.sh" <<'EOF'
set -eu
root=$1
r=$root/usr/bin/roofval
cd "$root"
"$r" hw list >hw-list.out
grep -q '^i7_12700k ' hw-list.out
rc=0; "$r" validate --all >validate.out || rc=$?; [ $rc = 0 ] || [ $rc = 3 ]
grep -q "^source: .*$root/usr/share/roofval/baselines/" validate.out
"$r" kernels >kernels.out 2>&1
grep -Eq '^cblas +ok ' kernels.out
"$r" probe --hw host --quick --key probed -o probed.json >/dev/null
mkdir -p cap
"$r" capture --hw i7_12700k --op vector_add --purpose calibration --kernel null --meter none --limit 1 \
	--baseline-dir cap >/dev/null 2>&1
[ -s cap/i7_12700k_vector_add.csv ]
if command -v python3 >/dev/null; then
	PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/usr/lib/python3/dist-packages" python3 -c \
		'import roofval; assert roofval.predict("i7_12700k", "matmul", (64, 64, 64))["latency_s"] > 0'
fi
echo ok >check.ok
EOF
bare=(env -i PATH=/usr/bin:/bin LC_ALL=C)
if unshare -rm true 2>/dev/null; then
	"${bare[@]}" unshare -rm sh -c 'mount -t tmpfs none "$1" && [ ! -e "$1/CMakeLists.txt" ] && bash "$2/check.sh" "$2"' \
		sh "$src" "$root" >"$root/check.log" 2>&1 || true
	how="with the source tree hidden"
else
	"${bare[@]}" bash "$root/check.sh" "$root" >"$root/check.log" 2>&1 || true
	how="with the source tree in place (no user namespaces here)"
fi
[ -e "$root/check.ok" ] || { cat "$root/check.log" >&2; fail "the unpacked packages fail $how (kept $root)"; }
if [ -n "$torch" ]; then
	"${bare[@]}" "$root/usr/bin/roofval" kernels >"$root/kernels.out" 2>&1 || true
	grep -Eq '^torch +ok ' "$root/kernels.out" ||
		{ cat "$root/kernels.out" >&2; fail "the packaged torch module is not usable"; }
fi
rm -rf "$root"
echo "unpacked: hw list, validate --all, kernels, probe, capture --kernel null and Python ran $how"
for d in build-package/*.deb; do
	echo "$d: $(dpkg-deb -c "$d" | wc -l) files; Depends: $(field "$d" Depends)"
done
