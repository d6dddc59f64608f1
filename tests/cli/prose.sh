#!/usr/bin/env bash
# The product's prose carries no development history (scripts/check-prose.sh):
# the tree passes; a tree whose README, docs, comments or test names speak
# of a session, a round or an issue by number, or of the development VM,
# fails, naming the line; the capture session and capture's "round 2/3"
# progress are product words and pass.
# usage: prose.sh SCRATCH_DIR REPO_DIR
set -u
scratch=$1 repo=$(cd "$2" && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
. "$(dirname "$0")/lib.sh"
check=$repo/scripts/check-prose.sh
out=$(bash "$check" "$repo" 2>&1)
tally $? "the tree speaks of development history: $(head -n 5 <<<"$out")"

t=$scratch/tree
mkdir -p "$t/docs" "$t/src/core" "$t/tests/unit" "$t/tests/cli"
printf '# x\n\nThe capture session prints [round 2/3, 1/5] with --repeat.\n' >"$t/README.md"
printf '/* A capture session: rv_capture_session(). */\n' >"$t/src/core/a.c"
out=$(bash "$check" "$t" 2>&1)
tally $? "product words refused: $out"
for bad in 'docs/x.md:Fixed in session 20.' 'docs/x.md:As round 8 showed.' 'src/core/a.h:/* (issue 19) */' \
	'tests/unit/test_a.c:/* on the development VM */' 'tests/cli/a.sh:# see results/dev-zen5/x.txt' \
	'README.md:this session added it'; do
	f=${bad%%:*} line=${bad#*:}
	cp -r "$t" "$scratch/bad" && printf '%s\n' "$line" >>"$scratch/bad/$f"
	out=$(bash "$check" "$scratch/bad" 2>&1)
	rc=$?
	[ $rc = 1 ] && [[ "$out" == *"$f:"* ]]
	tally $? "check-prose let '$line' in $f pass (exit $rc): $out"
	rm -rf "$scratch/bad"
done
printf 'prose: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
