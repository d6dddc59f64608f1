#!/usr/bin/env bash
# The model's net: every term of rv_predict() on every shipped profile
# (hardware/*.json, with its fit file and, where it has one, without), for
# every sweep entry and a grid of drawn and extreme shapes, compared bit for
# bit with tests/golden/predictions/<key>.txt (<key>.nofit.txt without the
# fit). Every shipped profile must have its files, and every file a profile.
# usage: golden-predictions.sh PREDICT_DUMP SOURCE_DIR [--update]
#   --update rewrites the files from this build: only for a change meant to
#   move predictions, said so in its commit (tests/golden/predictions/README.md).
set -u
dump=$1
src=$(cd "$2" && pwd)
update=${3:-}
golden=$src/tests/golden/predictions
unset ROOFVAL_HARDWARE_DIR ROOFVAL_BASELINE_DIR ROOFVAL_SWEEP_DIR ROOFVAL_DATA_DIR
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A want=()

for profile in "$src"/hardware/*.json; do
	case $profile in *.fit.json) continue ;; esac
	key=$(basename "$profile" .json)
	modes=fit
	[ -e "$src/hardware/$key.fit.json" ] && modes="fit nofit"
	for mode in $modes; do
		name=$key.txt
		[ "$mode" = nofit ] && name=$key.nofit.txt
		want[$name]=1
		if ! "$dump" --golden "$src" "$key" "$mode" >"$tmp/$name" 2>"$tmp/err"; then
			fail=$((fail + 1))
			printf 'FAIL %s: predict-dump: %s\n' "$name" "$(cat "$tmp/err")"
			continue
		fi
		if [ "$update" = --update ]; then
			cp "$tmp/$name" "$golden/$name"
			pass=$((pass + 1))
		elif [ ! -e "$golden/$name" ]; then
			fail=$((fail + 1))
			printf 'FAIL %s: no golden file for %s (%s); write it with --update\n' \
				"$name" "$key" "$mode"
		elif cmp -s "$tmp/$name" "$golden/$name"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			printf 'FAIL %s: %s lines differ from the golden file, first:\n' "$name" \
				"$(diff "$golden/$name" "$tmp/$name" | grep -c '^>')"
			diff "$golden/$name" "$tmp/$name" | head -4
		fi
	done
done
for file in "$golden"/*.txt; do
	[ -e "$file" ] || continue
	name=$(basename "$file")
	if [ -z "${want[$name]:-}" ]; then
		fail=$((fail + 1))
		printf 'FAIL %s: no shipped profile (or fit file) is left for it\n' "$name"
	fi
done
printf 'golden-predictions: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" = 0 ]
