#!/usr/bin/env bash
# Every command of the README runs from a fresh clone: each ```sh block of
# README.md is read, each command (continuation lines joined) run in a
# scratch folder holding what a clone has (hardware/, sweeps/,
# results/baselines/, examples/) with build/ the build tree under test.
# validate may exit 3 (a record missed its band: the CI gate); every other
# command must exit 0. A few are mirrored rather than run, each said:
# 'scripts/build.sh && X' runs X (this suite is the build), ctest is this
# suite, cmake --install and scripts/package.sh are the install test and CI
# step 7, calibrate of the probed target is tests/cli/run.sh's add-a-target
# path; probe runs --quick and capture --kernel null --meter none (every
# labelled shape, as validate needs, in a second); /tmp/ is the scratch folder's tmp/. The README must name no
# ../shared/ path (a clone has none) and keep the two quick-start commands.
# usage: readme.sh BUILD_DIR SCRATCH_DIR REPO_DIR
set -u
build=$(cd "$1" && pwd) scratch=$2 repo=$(cd "$3" && pwd)
rm -rf "$scratch" && mkdir -p "$scratch/clone/results" "$scratch/tmp"
. "$(dirname "$0")/lib.sh"
readme=$repo/README.md
c=$scratch/clone
cp -r "$repo/hardware" "$repo/sweeps" "$repo/examples" "$c/"
cp -r "$repo/results/baselines" "$c/results/"
ln -s "$build" "$c/build"

! grep -n '\.\./shared' "$readme"
tally $? "README.md names ../shared/, which a clone does not have: $(grep -n '\.\./shared' "$readme" | head -n 2)"
for q in 'scripts/build.sh && build/roofval validate --all' 'scripts/build.sh && ctest --preset dev'; do
	grep -qxF "$q" "$readme"
	tally $? "README.md lacks the quick-start command: $q"
done

# The commands of the ```sh blocks, one a line, continuations joined.
awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on' "$readme" |
	sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' | grep -v '^[[:space:]]*\(#.*\)\?$' >"$scratch/commands"
n=$(wc -l <"$scratch/commands")
[ "$n" -ge 10 ]
tally $? "README.md has only $n commands in its sh blocks"

run=0 mirrored=0
while IFS= read -r line; do
	cmd=${line#scripts/build.sh && }
	case $cmd in
	ctest*) echo "readme: mirrored: $line (this suite)"; mirrored=$((mirrored + 1)); continue ;;
	"build/roofval calibrate --hw mybox"*)
		echo "readme: mirrored: $line (tests/cli/run.sh: a fixture target's profile, augment, capture, calibrate, validate)"
		mirrored=$((mirrored + 1))
		continue
		;;
	cmake\ * | scripts/package.sh*)
		echo "readme: mirrored: $line (tests/install/install.sh, .ci/run step 7)"
		mirrored=$((mirrored + 1))
		continue
		;;
	esac
	cmd=${cmd//\/tmp\//$scratch/tmp/}
	cmd=$(sed 's/[[:space:]][[:space:]]*#.*$//' <<<"$cmd")
	case $cmd in
	"build/roofval probe "*) cmd="$cmd --quick" ;;
	"build/roofval capture "*) cmd="$cmd --kernel null --meter none" ;;
	esac
	rc=0
	(cd "$c" && eval "$cmd") >"$scratch/out" 2>&1 </dev/null || rc=$?
	case $cmd in
	"build/roofval validate "*) [ $rc = 0 ] || [ $rc = 3 ] ;;
	*) [ $rc = 0 ] ;;
	esac
	tally $? "README command failed (exit $rc): $line: $(tail -n 3 "$scratch/out")"
	run=$((run + 1))
done <"$scratch/commands"
echo "readme: $run commands run, $mirrored mirrored"
printf 'readme: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" -eq 0 ]
