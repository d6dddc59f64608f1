#!/usr/bin/env bash
# The commands that go through the public API (validate, predict, classify,
# hw list): what each option reaches through it, and classify --format json.
# Usage: api.sh ROOFVAL SCRATCH_DIR REPO_DIR
set -u
roofval=$1 scratch=$2 repo=$3
rm -rf "$scratch" && mkdir -p "$scratch/hw"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); printf 'FAIL %s\n' "$*"; }
# json FILE EXPR: python3 evaluates EXPR on the parsed file j (skipped without python3).
json() {
	command -v python3 >/dev/null || return 0
	python3 -c "import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}
cd "$repo" || exit 1

# classify --format json: JSON of schema roofval.classify/1, the text's regime and rule.
"$roofval" classify --hw i7_12700k --op matmul --shape 4096x4096x4096 >"$scratch/c.txt" &&
	"$roofval" classify --hw i7_12700k --op matmul --shape 4096x4096x4096 --format json \
		>"$scratch/c.json" && ok || bad "classify --format json exit"
regime=$(head -n 1 "$scratch/c.txt" | sed 's/.*: //')
rule=$(sed -n 's/^  rule *//p' "$scratch/c.txt")
[ "$(head -c 1 "$scratch/c.json")" = "{" ] && ok || bad "classify --format json is not JSON: $(head -n 1 "$scratch/c.json")"
json "$scratch/c.json" "j['schema'] == 'roofval.classify/1' and j['regime'] == '$regime' and j['rule'] == '$rule' and j['flop'] == 2 * 4096 ** 3" &&
	ok || bad "classify JSON: schema, regime '$regime', rule or flop wrong: $(head -c 300 "$scratch/c.json")"
# An unsupported dtype is a result, with null where there is no rate.
"$roofval" classify --hw i7_12700k --op matmul --shape 64x64x64 --dtype fp16 --format json \
	>"$scratch/u.json" && ok || bad "classify unsupported exit"
json "$scratch/u.json" "j['regime'] == 'unsupported' and j['compute_s'] is None" && ok ||
	bad "classify unsupported JSON: $(head -c 300 "$scratch/u.json")"
"$roofval" classify --hw i7_12700k --op matmul --shape 64x64x64 --format csv 2>"$scratch/err" >/dev/null
[ $? = 2 ] && ok || bad "classify --format csv is not a usage error"

# predict through the API: --no-fit reaches the profile (the fit moves the i7's numbers).
a=$("$roofval" predict --hw i7_12700k --op matmul --shape 512x512x512 --format json)
b=$("$roofval" predict --hw i7_12700k --op matmul --shape 512x512x512 --format json --no-fit)
[ -n "$a" ] && [ "$a" != "$b" ] && ok || bad "predict --no-fit gives the fitted numbers"
"$roofval" predict --hw i7_12700k --op matmul --shape 512x512 2>"$scratch/err" >/dev/null
[ $? = 1 ] && grep -q "512x512" "$scratch/err" && ok || bad "predict bad shape: $(cat "$scratch/err")"

# hw list: a profile that does not load is one line on stderr, the others listed, exit 1.
cp hardware/kpu_t64.json "$scratch/hw/" && printf '{ "name": ' >"$scratch/hw/broken.json"
"$roofval" hw list --hardware-dir "$scratch/hw" >"$scratch/list" 2>"$scratch/err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$scratch/err")" = 1 ] && grep -q "broken.json" "$scratch/err" &&
	[ "$(awk 'NR > 1 { print $1 }' "$scratch/list")" = kpu_t64 ] && ok ||
	bad "hw list with a broken profile: exit $rc, stderr $(cat "$scratch/err"), stdout $(cat "$scratch/list")"
rm -f "$scratch/hw/"*.json
"$roofval" hw list --hardware-dir "$scratch/hw" >"$scratch/list" 2>"$scratch/err"
[ $? = 1 ] && grep -q "no profiles" "$scratch/err" && [ ! -s "$scratch/list" ] && ok ||
	bad "hw list of an empty folder: $(cat "$scratch/err")"

# validate through the API: -o, --no-fit, --against (itself: nothing regressed, exit 0).
"$roofval" validate --hw xeon_amx_2vcpu --op matmul --format json -o "$scratch/old.json" >"$scratch/out"
rc=$?
{ [ $rc = 0 ] || [ $rc = 3 ]; } && [ ! -s "$scratch/out" ] && json "$scratch/old.json" "j['summary']['records'] > 0" &&
	ok || bad "validate -o: exit $rc"
"$roofval" validate --hw xeon_amx_2vcpu --op matmul --against "$scratch/old.json" >"$scratch/out"
[ $? = 0 ] && ok || bad "validate --against its own report: not exit 0"
"$roofval" validate --hw xeon_amx_2vcpu --op matmul >"$scratch/fit.txt"
"$roofval" validate --hw xeon_amx_2vcpu --op matmul --no-fit >"$scratch/nofit.txt"
cmp -s "$scratch/fit.txt" "$scratch/nofit.txt" && bad "validate --no-fit gives the fitted report" || ok
# Nothing scored (predictions for a target without baselines): one line, exit 1.
"$roofval" predict --hw i7_12700k --format csv --op matmul --purpose validation -o "$scratch/i7.csv"
"$roofval" validate --all --predictions "$scratch/i7.csv" >/dev/null 2>"$scratch/err"
[ $? = 1 ] && grep -q "nothing scored" "$scratch/err" && ok || bad "validate scoring nothing: $(cat "$scratch/err")"

echo "api: $pass passed, $fail failed"
[ "$fail" = 0 ]
