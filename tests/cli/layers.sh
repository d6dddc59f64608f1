#!/usr/bin/env bash
# scripts/check-layers.sh on copies of src/: the tree as it is passes; an
# include that breaks a module's rule, and a loop of includes that every
# rule allows (hw -> kernel -> model -> hw through hw/probe.c's old
# includes, with the rules widened to allow it), each fail naming it.
# usage: layers.sh SOURCE_DIR SCRATCH_DIR
set -u
src=$(cd "$1" && pwd)
scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
pass=0 fail=0
expect() {
	local name=$1
	shift
	if "$@"; then pass=$((pass + 1)); else
		fail=$((fail + 1))
		printf 'FAIL %s\n' "$name"
	fi
}

cp -r "$src/src" "$scratch/ok"
bash "$src/scripts/check-layers.sh" "$scratch/ok" >"$scratch/out" 2>&1
expect "the tree passes ($(cat "$scratch/out"))" [ $? = 0 ]

# hw/probe.c including kernel/ and model/ again: hw's rule refuses it.
cp -r "$src/src" "$scratch/rule"
printf '#include "kernel/kernel.h"\n#include "model/opcount.h"\n' >>"$scratch/rule/hw/probe.c"
bash "$src/scripts/check-layers.sh" "$scratch/rule" >"$scratch/out" 2>&1
expect "hw including kernel/ fails" [ $? = 1 ]
expect "the message names the file and the rule" \
	grep -q "hw/probe.c includes kernel/, which hw may not" "$scratch/out"

# The same loop with the rules allowing it: the loop check refuses it.
cp -r "$src/src" "$scratch/loop"
cp "$src/scripts/check-layers.sh" "$scratch/check-layers.sh"
sed -i 's/^\t\[hw\]="core io data"$/\t[hw]="core io data kernel model"/' "$scratch/check-layers.sh"
expect "the widened rule is in the copy" grep -q 'hw\]="core io data kernel model"' \
	"$scratch/check-layers.sh"
printf '#include "kernel/kernel.h"\n' >>"$scratch/loop/hw/probe.c"
bash "$scratch/check-layers.sh" "$scratch/loop" >"$scratch/out" 2>&1
expect "a loop of allowed includes fails" [ $? = 1 ]
expect "the message names the loop's modules ($(cat "$scratch/out"))" \
	grep -q "the includes of .*hw.*kernel.* form a loop" "$scratch/out"
printf 'layers: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" = 0 ]
