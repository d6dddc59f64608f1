#!/usr/bin/env bash
# Builds the torch module (libroofval-torch.so) by itself, without the
# project's CMake configure, for a machine that has a PyTorch but not the
# Debian packages the whole project needs (the device machine: no jansson,
# GSL or OpenBLAS, no registry to install them from). The core comes
# prebuilt: scripts/device-bundle.sh puts libroofval.a, the generated
# headers and the shared libraries the core needs into build-device/.
#   usage: scripts/torch-module.sh OUT.so [BUNDLE]      (BUNDLE: build-device)
# The libtorch is python3's PyTorch when it imports, else Debian's
# libtorch-dev; TORCH_INCLUDE (folders, colon-separated), TORCH_LIB,
# TORCH_CUDA (0 or 1) and TORCH_CXX11_ABI (0 or 1) name another.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/torch-module.sh OUT.so [BUNDLE]}
bundle=${2:-build-device}
for f in "$bundle/lib/libroofval.a" "$bundle/include/roofval/version.h"; do
	[ -e "$f" ] || {
		echo "torch-module: $f is missing: run scripts/device-bundle.sh" >&2
		exit 1
	}
done

if [ -z "${TORCH_LIB:-}" ] && py=$(python3 -c 'import os, torch
d = os.path.dirname(torch.__file__)
print(d + "/include:" + d + "/include/torch/csrc/api/include")
print(d + "/lib")
print(1 if torch.version.cuda else 0)
print(int(torch._C._GLIBCXX_USE_CXX11_ABI))' 2>/dev/null); then
	mapfile -t t <<<"$py"
	TORCH_INCLUDE=${t[0]} TORCH_LIB=${t[1]} TORCH_CUDA=${TORCH_CUDA:-${t[2]}}
	TORCH_CXX11_ABI=${TORCH_CXX11_ABI:-${t[3]}}
fi
TORCH_INCLUDE=${TORCH_INCLUDE:-/usr/include:/usr/include/torch/csrc/api/include}
TORCH_LIB=${TORCH_LIB:-/usr/lib/$(gcc -print-multiarch)}
TORCH_CUDA=${TORCH_CUDA:-0}
TORCH_CXX11_ABI=${TORCH_CXX11_ABI:-1}

flags=(-std=c++17 -O2 -g -fPIC -shared -fvisibility=hidden -fvisibility-inlines-hidden
	-Wall -Wextra -Wno-unused-parameter -DRV_TORCH_CUDA="$TORCH_CUDA"
	-D_GLIBCXX_USE_CXX11_ABI="$TORCH_CXX11_ABI" -Isrc -Iinclude -I"$bundle/include")
IFS=: read -ra inc <<<"$TORCH_INCLUDE"
for d in "${inc[@]}"; do [ "$d" = /usr/include ] || flags+=(-isystem "$d"); done
libs=(-ltorch -ltorch_cpu -lc10)
if [ "$TORCH_CUDA" = 1 ]; then
	# The CUDA runtime's headers and library: the toolkit's, or the ones pip's
	# nvidia packages hold beside torch.
	cuda=${CUDA_HOME:-/usr/local/cuda}
	for d in "$cuda/include" "$TORCH_LIB"/../../nvidia/*/include "$TORCH_LIB"/../../nvidia/*/*/include; do
		[ -d "$d" ] && flags+=(-isystem "$d")
	done
	libs+=(-ltorch_cuda -lc10_cuda)
	for d in "$cuda/lib64" "$TORCH_LIB"/../../nvidia/*/lib "$TORCH_LIB"/../../nvidia/*/*/lib; do
		if compgen -G "$d/libcudart.so*" >/dev/null; then
			libs+=(-L"$d" -Wl,-rpath,"$(cd "$d" && pwd)" -l:"$(cd "$d" && ls libcudart.so* | head -1)")
			break
		fi
	done
fi
# The core's own shared libraries (jansson, GSL, ...), by their file names.
core=()
for f in "$bundle"/lib/*.so*; do core+=("$f"); done
set -x
${CXX:-g++} "${flags[@]}" src/kernel/torch/torch_module.cpp -o "$out" \
	-Wl,-Bsymbolic -Wl,--no-undefined "$bundle/lib/libroofval.a" \
	-L"$TORCH_LIB" -Wl,-rpath,"$TORCH_LIB" "${libs[@]}" \
	-Wl,--as-needed "${core[@]}" -lpthread -ldl -lm
