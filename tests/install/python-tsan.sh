#!/usr/bin/env bash
# tests/install/python-threads.py under ThreadSanitizer: python3 with the
# compiler's libtsan preloaded, over a libroofval built with
# -DRV_SANITIZE=thread (ctest -L tsan in such a build; .ci/run).
#   python-tsan.sh LIBROOFVAL_SO SOURCE_DIR CC
set -euo pipefail
command -v python3 >/dev/null || { echo "python-tsan: no python3; skipped"; exit 77; }
src=$(cd "$2" && pwd)
tsan=$("$3" -print-file-name=libtsan.so)
[ -e "$tsan" ] || { echo "python-tsan: $3 has no libtsan.so; skipped"; exit 77; }
# The interpreter itself, not a wrapper script (a shell under libtsan is not the test).
py=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')
export ROOFVAL_LIBRARY=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") PYTHONPATH=$src/python
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}
cd "$(mktemp -d)"
trap 'rm -rf "$PWD"' EXIT
LD_PRELOAD=$tsan "$py" "$src/tests/install/python-threads.py" "$src"
