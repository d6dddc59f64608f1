#!/usr/bin/env bash
# Rewrites the expected messages of tests/data/hardware/bad/*.err from the
# current loader. Run it on purpose after changing a message, then review the
# diff like code: every line must still name the right place and say what to do.
set -euo pipefail
cd "$(dirname "$0")/.."
roofval=${ROOFVAL:-build/roofval}
dir=tests/data/hardware/bad
for json in "$dir"/*.json; do
	msg=$("$roofval" hw lint "$json" 2>&1 >/dev/null || true)
	msg=${msg#roofval: hw lint: }
	[ -n "$msg" ] || { echo "update-golden: $json now loads; fix or remove it" >&2; exit 1; }
	printf '%s\n' "${msg//$dir/@DIR@}" >"${json%.json}.err"
done
echo "update-golden: $(ls "$dir"/*.err | wc -l) messages written; review with git diff $dir"
