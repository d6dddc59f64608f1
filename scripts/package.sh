#!/usr/bin/env bash
# Builds the Debian package build-package/roofval_<version>_<arch>.deb with
# CPack's DEB generator: a release build installed under /usr, its
# dependencies computed by dpkg-shlibdeps (Debian's dpkg-dev), then lists
# its contents and its Depends line.
#   scripts/package.sh [extra cmake options, e.g. -DRV_CUDA=OFF]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v dpkg-shlibdeps >/dev/null || {
	echo "package.sh: dpkg-shlibdeps missing: apt-get install dpkg-dev" >&2
	exit 1
}
mkdir -p build-package
cmake -S . -B build-package -DCMAKE_BUILD_TYPE=Release -DRV_TESTS=OFF \
	-DCMAKE_INSTALL_PREFIX=/usr -DRV_WERROR=OFF \
	-DRV_PYTHON_DIR=lib/python3/dist-packages "$@" >build-package/package.log 2>&1
cmake --build build-package -j"$(nproc)" >>build-package/package.log 2>&1 ||
	{ tail -n 30 build-package/package.log; exit 1; }
(cd build-package && cpack -G DEB >>package.log 2>&1) || { tail -n 30 build-package/package.log; exit 1; }
deb=$(ls -t build-package/roofval_*.deb | head -n 1)
dpkg-deb -c "$deb" >build-package/contents.txt
for f in ./usr/bin/roofval ./usr/include/roofval/roofval.h ./usr/share/roofval/hardware/i7_12700k.json \
	./usr/share/roofval/sweeps/matmul_validation.json roofval.pc libroofval.so.0 \
	roofval/__init__.py; do
	grep -q -- "$f" build-package/contents.txt || {
		echo "package.sh: $deb lacks $f" >&2
		exit 1
	}
done
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libjansson libgsl; do
	grep -q "$lib" <<<"$depends" || {
		echo "package.sh: Depends lacks $lib: $depends" >&2
		exit 1
	}
done
# Unpacked anywhere, its roofval finds its own share/roofval.
root=$(mktemp -d)
dpkg-deb -x "$deb" "$root"
(cd "$root" && env -i PATH=/usr/bin:/bin "$root/usr/bin/roofval" hw list >"$root/hw-list.out") ||
	{ echo "package.sh: the packaged roofval fails: hw list" >&2; exit 1; }
grep -q '^i7_12700k ' "$root/hw-list.out" || { echo "package.sh: hw list lacks i7_12700k" >&2; exit 1; }
if command -v python3 >/dev/null; then
	(cd "$root" && env -i PATH=/usr/bin:/bin PYTHONDONTWRITEBYTECODE=1 \
		PYTHONPATH="$root/usr/lib/python3/dist-packages" python3 -c \
		'import roofval; assert roofval.predict("i7_12700k", "matmul", (64, 64, 64))["latency_s"] > 0') ||
		{ echo "package.sh: the packaged Python package fails" >&2; exit 1; }
fi
grep -q libtorch <<<"$depends" && { echo "package.sh: roofval depends on libtorch: $depends" >&2; exit 1; }
# The torch module, when built, is a package of its own that needs libtorch.
torch_deb=$(ls -t build-package/roofval-torch_*.deb 2>/dev/null | head -n 1)
if [ -n "$torch_deb" ]; then
	dpkg-deb -c "$torch_deb" | grep -q 'usr/bin/libroofval-torch.so' ||
		{ echo "package.sh: $torch_deb lacks libroofval-torch.so" >&2; exit 1; }
	torch_depends=$(dpkg-deb -f "$torch_deb" Depends)
	for dep in libtorch roofval; do
		grep -q "$dep" <<<"$torch_depends" ||
			{ echo "package.sh: $torch_deb's Depends lacks $dep: $torch_depends" >&2; exit 1; }
	done
	dpkg-deb -x "$torch_deb" "$root"
	env -i PATH=/usr/bin:/bin "$root/usr/bin/roofval" kernels >"$root/kernels.out" 2>&1 || true
	grep -Eq '^torch +ok ' "$root/kernels.out" ||
		{ echo "package.sh: the packaged torch module is not usable:" >&2; cat "$root/kernels.out" >&2; exit 1; }
	echo "$torch_deb: Depends: $torch_depends"
fi
rm -rf "$root"
echo "$deb: $(wc -l <build-package/contents.txt) files"
echo "Depends: $depends"
