#!/usr/bin/env bash
# libroofval.so exports the public API and nothing else: every dynamic
# symbol it defines starts with rv_ and is declared in include/roofval/*.h
# (so nothing of jansson, GSL or the internal modules leaks).
#   symbols.sh LIBROOFVAL_SO INCLUDE_DIR
set -euo pipefail
lib=$1 inc=$2
command -v nm >/dev/null || { echo "symbols: no nm; skipped"; exit 77; }
syms=$(nm -D --defined-only "$lib" | awk '{ print $NF }' | sort -u)
[ -n "$syms" ] || { echo "symbols: $lib exports nothing"; exit 1; }
bad=0
for s in $syms; do
	case $s in
	_init | _fini | _edata | _end | __bss_start) continue ;;
	rv_*) ;;
	*) echo "symbols: $lib exports $s, which is not rv_*"; bad=1; continue ;;
	esac
	if ! grep -Eq "\\b$s\\(" "$inc"/roofval/*.h; then
		echo "symbols: $lib exports $s, which no include/roofval/*.h declares"
		bad=1
	fi
done
# And every public function is there.
for f in $(grep -ho 'RV_API [^(]*\brv_[a-z0-9_]*(' "$inc"/roofval/*.h | grep -o 'rv_[a-z0-9_]*(' | tr -d '('); do
	grep -qx "$f" <<<"$syms" || { echo "symbols: $f is declared RV_API but not exported"; bad=1; }
done
[ $bad = 0 ] && echo "symbols: $(wc -w <<<"$syms") exported, all public"
exit $bad
