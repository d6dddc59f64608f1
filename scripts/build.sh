#!/usr/bin/env bash
# Installs what the build needs from Debian's packages (only what is missing),
# then configures and builds one CMake preset: dev (default, build/),
# asan-ubsan (build-asan/) or release (build-release/).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}

need=(gcc make cmake pkg-config libjansson-dev libcmocka-dev libgsl-dev libopenblas-dev)
missing=()
for pkg in "${need[@]}"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$pkg")
done
if ((${#missing[@]})); then
	if [ "$(id -u)" != 0 ]; then
		echo "build.sh: missing Debian packages: ${missing[*]}" >&2
		echo "build.sh: install them with: sudo apt-get install ${missing[*]}" >&2
		exit 1
	fi
	echo "build.sh: installing ${missing[*]}" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j"$(nproc)"
