#!/usr/bin/env bash
# Where the time of a call goes (docs/accuracy.md, "Session 14"): each GEMM
# calibration row of the merged captures that takes 2 us or more, as the
# capture calls it (gemm-time.c: page-aligned buffers; a linear's bias
# copied into C first), on one thread and on two: its best time (best of 7
# rounds), then perf's samples of the call run back to back for a second,
# summed by routine: OpenBLAS's kernel (packed or small-matrix), its copies
# of our B (itcopy) and our A (oncopy) into panels, its zeroing pass (beta,
# memset), the bias copy (memmove), the threads' waiting (yield, schedule),
# and the rest. Shares are of all samples, both threads' on two.
# usage (from the repository root): results/dev-xeon/call-parts.sh > results/dev-xeon/call-parts.txt
# Another machine's folder: R=results/dev-zen5 KEY=epyc_zen5_2vcpu CORETYPE= \
#   [MIN_S=0] [THREADS="1 2"] results/dev-xeon/call-parts.sh (CORETYPE empty:
#   OpenBLAS picks its kernels itself; MIN_S: the least captured time of a row).
set -euo pipefail
R=${R:-results/dev-xeon} KEY=${KEY:-xeon_emr_2vcpu} MIN_S=${MIN_S:-2e-6} THREADS=${THREADS:-1 2}
gcc -O2 results/dev-xeon/gemm-time.c -o /tmp/gemm-time -lopenblas
CORETYPE=${CORETYPE-SkylakeX}
[ -z "$CORETYPE" ] || export OPENBLAS_CORETYPE=$CORETYPE
data=$(mktemp)
trap 'rm -f "$data"' EXIT
date -u; uptime
echo "# op shape threads best_us | shares of perf samples (%)"
for op in matmul linear; do
	tail -n +2 "$R/baselines-merged/${KEY}_$op.csv" | cut -d, -f3,5 | while IFS=, read -r shape lat; do
		awk -v l="$lat" -v m="$MIN_S" 'BEGIN { exit !(l >= m) }' || continue
		# shellcheck disable=SC2086
		set -- ${shape//x/ }
		for t in $THREADS; do
			# the call's best time: a matmul's, or a linear's whole call ("both")
			best=$(/tmp/gemm-time "$op" "$1" "$2" "$3" "$t" | sed 's/.*both \([0-9.]*\) us.*/\1/; s/.*: \([0-9.]*\) us/\1/')
			GEMM_TIME_LOOP_S=1 perf record -q -o "$data" /tmp/gemm-time "$op" "$1" "$2" "$3" "$t" >/dev/null 2>&1
			perf report -i "$data" --stdio --sort symbol 2>/dev/null | grep -v '^#' |
				awk -v s="$op $shape" -v t="$t" -v best="$best" '
				NF >= 3 { p = $1; sub("%", "", p); y = $3
					if (y ~ /small_kernel/) sk += p; else if (y ~ /sgemm_kernel/) k += p
					else if (y ~ /itcopy|incopy/) b += p; else if (y ~ /oncopy|otcopy/) a += p
					else if (y ~ /beta|memset/) z += p; else if (y ~ /memmove|memcpy/) c += p
					else if (y ~ /yield|schedule|exec_blas|futex|sched_/) w += p; else o += p }
				END { printf "%-24s t%d %10.2f us | kernel %5.1f small %5.1f packB %5.1f packA %5.1f zero %5.1f bias %5.1f wait %5.1f other %5.1f\n", s, t, best, k, sk, b, a, z, c, w, o }'
		done
	done
done
