#!/usr/bin/env bash
# The product's prose describes the product as it is; its history lives in
# git. Fails, naming each line, where the README, docs/, the comments of
# src/ and include/, the tests (their names, comments and messages),
# tests/CMakeLists.txt, bench/, the data folders' READMEs, scripts/ or .ci/
# speak of development history:
#   "session N", "this session", "round N" (not capture's "round N/M"
#   progress), "issue N", "the development VM/machine", the development
#   folders results/dev-*, or "helper".
# The capture session (capture/session.c, rv_capture_session()) is product
# vocabulary: "session" alone is not history. This script and its test
# (tests/cli/prose.sh, which plants such words) are not checked.
#   usage: scripts/check-prose.sh [REPO_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
pattern='\b([Ss]essions? [0-9]+|[Ss]ession-[0-9]+|[Tt]his session|[Rr]ounds? [0-9]+(?![0-9/])|[Ii]ssues? [0-9]+|development (VM|machine)s?|results/dev-[a-z0-9]+|helpers?)\b'
files=(README.md docs/*.md include/roofval/*.h sweeps/README.md results/*/README.md bench/*
	tests/CMakeLists.txt tests/*.h tests/unit/*.c tests/unit/*.inc
	tests/cli/*.sh tests/install/*.sh tests/fuzz/*.c tests/fuzz/*.h tests/fuzz/*.sh scripts/*.sh .ci/run)
mapfile -t src < <(find src -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cpp' -o -name '*.def' | sort)
found=$(grep -nHP "$pattern" "${files[@]}" "${src[@]}" 2>/dev/null |
	grep -v '^scripts/check-prose.sh:\|^tests/cli/prose.sh:' || true)
if [ -n "$found" ]; then
	printf '%s\n' "$found"
	echo "check-prose: $(wc -l <<<"$found") lines speak of development history (above); say what the product does, and leave its history to git log" >&2
	exit 1
fi
echo "check-prose: ok"
