#!/usr/bin/env bash
# The end-to-end CLI tests (run.sh), the catalogue of bad inputs and the
# commands through the public API (api.sh) with every
# roofval process under valgrind: any invalid read or write, use of an
# uninitialised value, or definitely lost block fails the run.
# usage: valgrind.sh ROOFVAL DATA_DIR SCRATCH_DIR SHARED_DIR
set -u
roofval=$(realpath "$1")
data=$2
scratch=$3
shared=$4
here=$(cd "$(dirname "$0")" && pwd)
valgrind=$(command -v valgrind) || {
	echo "valgrind.sh: valgrind is absent (apt-get install valgrind)" >&2
	exit 1
}
rm -rf "$scratch" && mkdir -p "$scratch/logs" && scratch=$(cd "$scratch" && pwd)
# roofval under valgrind, logging to one file per process. OpenBLAS would pick
# AVX-512 kernels, which valgrind cannot run: Haswell's (AVX2) instead.
cat >"$scratch/roofval" <<SH
#!/bin/sh
OPENBLAS_CORETYPE=Haswell exec "$valgrind" --error-exitcode=99 --leak-check=full \\
	--errors-for-leak-kinds=definite --show-leak-kinds=definite -q \\
	--log-file="$scratch/logs/%p.log" "$roofval" "\$@"
SH
chmod +x "$scratch/roofval"
rc=0
export ROOFVAL_TEST_UNDER_VALGRIND=1 # run.sh skips a comparison of floating-point digits
bash "$here/run.sh" "$scratch/roofval" "$data" "$scratch/cli" "$shared" || rc=1
bash "$here/catalogue.sh" "$scratch/roofval" "$data" "$scratch/catalogue" || rc=1
bash "$here/capture.sh" "$scratch/roofval" "$scratch/capture" "$here/../.." || rc=1
bash "$here/messages.sh" "$scratch/roofval" "$data" "$scratch/messages" || rc=1
bash "$here/api.sh" "$scratch/roofval" "$scratch/api" "$(cd "$here/../.." && pwd)" || rc=1
runs=$(find "$scratch/logs" -name '*.log' | wc -l)
bad=0
for f in "$scratch"/logs/*.log; do
	[ -s "$f" ] || continue
	bad=$((bad + 1))
	echo "== valgrind: $f"
	head -n 60 "$f"
done
echo "valgrind: $runs roofval runs, $bad with errors or leaks"
[ "$bad" = 0 ] && [ "$rc" = 0 ]
