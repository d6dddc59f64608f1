# Shared by the CLI test scripts (sourced): check, tally, expect and bad
# count into pass and fail; the caller sets roofval (the binary) and scratch
# (a folder of its own) first, and ends with its summary line.
pass=0 fail=0

# bad WHAT...: counts a failure and says what failed.
bad() {
	fail=$((fail + 1))
	printf 'FAIL %s\n' "$*"
}

# expect NAME CONDITION...: counts the condition (a command) as a pass or a
# failure.
expect() {
	local name=$1
	shift
	if "$@"; then pass=$((pass + 1)); else bad "$name"; fi
}

# check RC STDERR_PART STDOUT_PART -- ARGS...: runs roofval ARGS, compares the
# exit status, and looks for the two parts ('' matches anything). A failing
# run (RC 1) must print exactly one line on stderr.
check() {
	local want_rc=$1 want_err=$2 want_out=$3
	shift 4
	local out err rc
	out=$("$roofval" "$@" 2>"$scratch/stderr")
	rc=$?
	err=$(cat "$scratch/stderr")
	local why=""
	[ "$rc" = "$want_rc" ] || why="exit $rc, wanted $want_rc"
	[ -z "$want_err" ] || [[ "$err" == *"$want_err"* ]] || why="$why; stderr lacks '$want_err'"
	[ -z "$want_out" ] || [[ "$out" == *"$want_out"* ]] || why="$why; stdout lacks '$want_out'"
	if [ "$want_rc" = 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" != 1 ]; then
		why="$why; stderr has $(printf '%s\n' "$err" | wc -l) lines, wanted one"
	fi
	if { [ "$want_rc" = 1 ] || [ "$want_rc" = 2 ]; } && [[ "$err" != roofval:* ]]; then
		why="$why; stderr does not start with 'roofval:'"
	fi
	if [ -n "$why" ]; then
		fail=$((fail + 1))
		printf 'FAIL roofval %s: %s\n  stdout: %s\n  stderr: %s\n' "$*" "$why" "$out" "$err"
	else
		pass=$((pass + 1))
	fi
}

# tally STATUS WHAT [FILE...]: counts a check whose test exited with STATUS;
# a failed one prints "FAIL WHAT" and the files that show why.
tally() {
	local rc=$1 what=$2
	shift 2
	if [ "$rc" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $what"
		[ $# = 0 ] || cat "$@"
	fi
}
