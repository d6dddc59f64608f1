#!/usr/bin/env bash
# The catalogue of bad inputs: every case of tests/data/bad/catalogue.tsv runs
# roofval on its files in a fresh folder and checks the exit status and the
# message. A failure (status 1) must leave exactly one line on stderr that
# starts with "roofval: " (capture may print its progress lines before it);
# a usage error (status 2) starts with "roofval: " too. See catalogue.tsv for
# the columns.
# usage: catalogue.sh ROOFVAL DATA_DIR SCRATCH_DIR
set -u
roofval=$(realpath "$1")
data=$2
scratch=$3
bad=$data/bad
repo=$(cd "$data/../.." && pwd)
rm -rf "$scratch" && mkdir -p "$scratch" && scratch=$(cd "$scratch" && pwd) # each case runs in its own folder
pass=0
fail=0
n=0

fill() { # fill TEXT DIR FILE: the placeholders of TEXT replaced
	local s=$1
	s=${s//@FILE@/$3}
	s=${s//@DIR@/$2}
	s=${s//@REPO@/$repo}
	printf '%s' "$s"
}

while IFS=$'\t' read -r files args want_rc want_err rest; do
	case $files in '' | '#'*) continue ;; esac
	n=$((n + 1))
	dir=$scratch/case-$n
	mkdir -p "$dir"
	file=""
	why=""
	if [ -n "$rest" ] || [ -z "$want_err" ]; then
		why="line has not four columns"
	fi
	if [ "$files" != - ]; then
		for spec in $files; do
			src=${spec%%=*}
			name=${spec#*=}
			case $src in
			mkdir:*) name=${src#mkdir:} && mkdir -p "$dir/$name" ;;
			repo:*) [ "$name" = "$spec" ] && name=$(basename "${src#repo:}")
				cp "$repo/${src#repo:}" "$dir/$name" || why="no file $repo/${src#repo:}" ;;
			*) [ "$name" = "$spec" ] && name=$src
				cp "$bad/$src" "$dir/$name" || why="no file $bad/$src" ;;
			esac
			[ -n "$file" ] || file=$dir/$name
		done
	fi
	read -r -a argv <<<"$(fill "$args" "$dir" "$file")"
	want_err=$(fill "$want_err" "$dir" "$file")
	(cd "$dir" && LC_ALL=C "$roofval" "${argv[@]}" >"$dir.out" 2>"$dir.err")
	rc=$?
	err=$(cat "$dir.err")
	last=$(tail -n 1 "$dir.err")
	lines=$(wc -l <"$dir.err")
	[ "$rc" = "$want_rc" ] || why="$why; exit $rc, wanted $want_rc"
	[[ "$err" == *"$want_err"* ]] || why="$why; stderr lacks '$want_err'"
	if [ "$want_rc" = 1 ]; then
		[[ "$last" == "roofval: "* ]] || why="$why; the last line of stderr does not start with 'roofval: '"
		if [ "${argv[0]}" = capture ]; then
			# one error line; a warning before it (a BLAS below the hardware) is not one
			[ "$(grep -v '^roofval: capture: warning: ' "$dir.err" | grep -c '^roofval:')" = 1 ] ||
				why="$why; more than one 'roofval:' error line"
		else
			[ "$lines" = 1 ] || why="$why; stderr has $lines lines, wanted one"
		fi
	elif [ "$want_rc" = 2 ]; then
		[[ "$err" == "roofval: "* ]] || why="$why; stderr does not start with 'roofval: '"
	fi
	if [ -n "$why" ]; then
		fail=$((fail + 1))
		printf 'FAIL case %d (%s) roofval %s: %s\n  stderr: %s\n' "$n" "$files" "$args" "${why#; }" "$err"
	else
		pass=$((pass + 1))
	fi
done <"$bad/catalogue.tsv"

echo "catalogue: $n cases, $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$n" -ge 50 ]
