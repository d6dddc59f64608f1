#!/usr/bin/env bash
# Builds what scripts/device-check.sh needs into build-device/, for a GPU
# machine that cannot install Debian packages (its image has CUDA but not
# jansson, GSL, OpenBLAS or cmocka): roofval, its CUDA module
# (libroofval-cuda.so) and test_cuda built here with CUDA, plus the shared
# libraries they need that are not the C runtime's or CUDA's, in
# build-device/lib (the build tree is build-device-tree/). Copy
# build-device/ to the GPU machine with the tree; device-check.sh uses it
# when its own build fails. About 50 MB. With them, the core as a static
# library and its generated headers (build-device/lib/libroofval.a,
# build-device/include/), from which scripts/torch-module.sh builds the torch
# module there against the machine's own PyTorch.
#   usage: scripts/device-bundle.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null # the packages, and a check that the tree builds
cmake -S . -B build-device-tree -DCMAKE_BUILD_TYPE=Release -DRV_CUDA=ON >/dev/null
cmake --build build-device-tree -j"$(nproc)" --target roofval roofval_cuda test_cuda rv_core
rm -rf build-device
mkdir -p build-device/lib build-device/tests
cp build-device-tree/libroofval.a build-device/lib/
cp -r build-device-tree/generated/include build-device/
cp build-device-tree/roofval build-device-tree/libroofval-cuda.so build-device/
cp build-device-tree/tests/test_cuda build-device/tests/
# Every library the two programs load, less the C runtime (the device has a
# newer one) and CUDA's (the device has its own, matching its driver).
ldd build-device/roofval build-device/libroofval-cuda.so build-device/tests/test_cuda |
	awk '/=> \// { print $1, $3 }' | sort -u |
	while read -r name path; do
		case $name in
		libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | ld-linux*) ;;
		libstdc++.so* | libgcc_s.so*) ;;
		libcuda.so* | libcudart.so* | libcublas.so* | libcublasLt.so*) ;;
		*) cp -L "$path" "build-device/lib/$name" ;;
		esac
	done
strip build-device/roofval build-device/libroofval-cuda.so build-device/tests/test_cuda
du -sh build-device
echo "device-bundle: copy build-device/ to the GPU machine with the tree"
