#!/usr/bin/env bash
# Checks the include rules of docs/architecture.md: a module's files include
# only the modules listed for it below (and their own module). One line per
# broken rule; exit 1 when any is broken.
set -euo pipefail
cd "$(dirname "$0")/../src"

# module: the modules it may include. Lower layers first.
declare -A may=(
	[core]=""
	[opt]="core io"
	[data]="core"
	[io]="core data"
	[hw]="core io data"
	[sweep]="core io data hw model"
	[model]="core data hw sweep"
	[predictions]="core io data hw sweep model"
	[layout]="core io data hw sweep model predictions"
	[kernel]="core model"
	[meter]="core"
	[capture]="core io data hw sweep model layout kernel meter"
	[report]="core io data hw sweep model predictions layout plot"
	[plot]="core io data hw sweep model predictions layout report"
	[api]="core io data hw sweep model predictions layout kernel meter capture report plot"
	[cli]="*"
)
# Files held to another rule than their module's: file: the modules it may include.
declare -A file_may=(
	[sweep/sweep.c]="core io data"
	[sweep/sweep.h]="core io data"
	[sweep/edit.c]="core io data hw model layout"
	[hw/probe.c]="core io data kernel model"
	[hw/probe.h]="core io data kernel model"
)

bad=0
for f in */*.c */*.h */*/*.c */*/*.h; do
	[ -e "$f" ] || continue
	m=${f%%/*}
	if [ -z "${may[$m]+x}" ]; then
		echo "check-layers: $f: module '$m' has no rule; add it to scripts/check-layers.sh and docs/architecture.md"
		bad=1
		continue
	fi
	allowed=${file_may[$f]:-${may[$m]}}
	[ "$allowed" = "*" ] && continue
	while read -r inc; do
		[ "$inc" = "$m" ] && continue
		case " $allowed " in *" $inc "*) ;; *)
			echo "check-layers: $f includes $inc/, which $m may not (allowed: ${allowed:-nothing})"
			bad=1
			;;
		esac
	done < <(sed -n 's|^#include "\([a-z_]*\)/.*|\1|p' "$f" | sort -u)
done
exit $bad
