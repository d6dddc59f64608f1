#!/usr/bin/env bash
# Checks the include rules of docs/architecture.md: a module's files include
# only the modules listed for it below (and their own module). One line per
# broken rule; exit 1 when any is broken.
set -euo pipefail
# usage: check-layers.sh [SRC_DIR]   (default: the repository's src/)
cd "${1:-$(dirname "$0")/../src}"

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
	[probe]="core io data hw kernel model"
	[meter]="core"
	[capture]="core io data hw sweep model layout kernel meter probe"
	[report]="core io data hw sweep model predictions layout plot"
	[plot]="core io data hw sweep model predictions layout report"
	[api]="core io data hw sweep model predictions layout kernel meter probe capture report plot"
	[cli]="*"
)
# Files held to another rule than their module's: file: the modules it may include.
declare -A file_may=(
	[sweep/sweep.c]="core io data"
	[sweep/sweep.h]="core io data"
	[sweep/edit.c]="core io data hw model layout"
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

# No loops: the modules' actual includes must form no cycle (a rule that
# allows both directions would hide one). A loop is named by its modules.
# Known loops still to be cut, each listed by its modules: sweep/edit.c's
# (sweep -> layout -> predictions, model -> sweep) and report/html.c's with
# plot/ (report <-> plot).
known_loops=("layout model predictions sweep" "plot report")
declare -A edge=()
for f in */*.c */*.h */*/*.c */*/*.h; do
	[ -e "$f" ] || continue
	m=${f%%/*}
	while read -r inc; do
		[ "$inc" = "$m" ] || [ ! -d "$inc" ] || edge[$m]+=" $inc"
	done < <(sed -n 's|^#include "\([a-z_]*\)/.*|\1|p' "$f" | sort -u)
done
declare -A reach=()
for m in "${!edge[@]}"; do reach[$m]=" ${edge[$m]} "; done
changed=1
while ((changed)); do
	changed=0
	for m in "${!reach[@]}"; do
		for via in ${reach[$m]}; do
			for to in ${edge[$via]:-}; do
				case "${reach[$m]}" in *" $to "*) ;; *)
					reach[$m]+="$to "
					changed=1
					;;
				esac
			done
		done
	done
done
declare -A seen=()
for m in $(printf '%s\n' "${!reach[@]}" | sort); do
	case "${reach[$m]}" in *" $m "*) ;; *) continue ;; esac
	[ -z "${seen[$m]:-}" ] || continue
	loop=""
	for o in $(printf '%s\n' "${!reach[@]}" | sort); do
		case "${reach[$m]}" in *" $o "*) ;; *) continue ;; esac
		case "${reach[$o]}" in *" $m "*) loop+="$o " seen[$o]=1 ;; esac
	done
	loop=${loop% }
	known=0
	for k in "${known_loops[@]}"; do [ "$k" = "$loop" ] && known=1; done
	if ((!known)); then
		echo "check-layers: the includes of $loop form a loop; move the rule one borrows to the module that owns it"
		bad=1
	fi
done
exit $bad
