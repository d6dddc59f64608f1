#!/usr/bin/env bash
# Checks the include rules of docs/architecture.md: a module's files include
# only the modules listed for it below (and their own module). One line per
# broken rule; exit 1 when any is broken.
set -euo pipefail
cd "$(dirname "$0")/../src"

# module: the modules it may include. Lower layers first.
declare -A may=(
	[core]=""
	[io]="core"
	[data]="core"
	[hw]="core io data kernel capture meter model"
	[sweep]="core io data hw model"
	[model]="core data hw sweep"
	[kernel]="core model"
	[meter]="core"
	[opt]="core io"
	[capture]="core io data kernel meter hw sweep layout model"
	[predictions]="core io data hw sweep model"
	[layout]="core io data hw sweep model predictions"
	[report]="core data hw model sweep layout predictions"
	[plot]="core io data hw model report sweep layout predictions"
	[api]="core io data hw sweep model layout predictions report"
	[cli]="*"
)
# Files held to a stricter rule than their module: file: the modules it may include.
declare -A file_may=(
	[sweep/sweep.c]="core io data"
	[sweep/sweep.h]="core io data"
	[hw/profile.c]="core io data"
	[hw/profile.h]="core io data"
	[hw/fit.c]="core io data"
	[hw/fit.h]="core io data"
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
