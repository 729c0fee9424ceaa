#!/bin/sh
# The dependency rule (docs/how-it-works.md, "Layers"), enforced twice:
#  - every #include of the library, the models, the path definitions and
#    the CLI must point at a layer below (or the same). A header belongs
#    to the layer of its folder; the public headers in include/hotsim/ to
#    the layer that implements them. Unicorn is the emulator layer's alone
#    (and above it);
#  - given the built objects (scripts/check-layers.sh OBJ...: make lint
#    does), every symbol an object uses must be defined in its own layer
#    or one below. A header may declare what a higher layer defines (a
#    registry's array, say); only the link shows who really uses whom.
# Usage: scripts/check-layers.sh [OBJECT...]
set -eu
cd "$(dirname "$0")/.."

# layer: may include these layers (besides itself)
rules='
base:
cpu:base
elf:base
a64:base
trace:base a64
boot:base cpu elf a64
vm:base elf a64
models:base a64 trace
scan:base elf a64 trace
emu:base cpu elf a64 trace boot vm
paths:base cpu elf a64 trace boot vm emu scan
defs:base cpu elf a64 trace boot vm emu scan paths
measure:base cpu elf a64 trace boot vm emu scan paths defs models
cli:base elf a64 trace boot scan paths defs models measure
'
# public header -> layer that implements it
public='
err.h:base cpulist.h:base cgroup.h:base cmdline.h:base core.h:base image.h:elf a64.h:a64 trace.h:trace cpucaps.h:boot patch.h:boot
percpu.h:scan point.h:vm paths.h:paths model.h:models board.h:models measure.h:measure machine_cost.h:measure fit.h:measure series.h:measure
workload.h:vm program.h:vm
'

layer_of_file() {
	case "$1" in
	*/obj/*) layer_of_file "${1#*/obj/}" ;;
	sim/*/*) echo "$1" | cut -d/ -f2 ;;
	models/*) echo models ;;
	kernels/paths/*) echo defs ;;
	cli/*) echo cli ;;
	include/hotsim/*) layer_of_public "$(basename "$1")" ;;
	esac
}

layer_of_public() {
	for p in $public; do
		[ "${p%%:*}" = "$1" ] && { echo "${p#*:}"; return; }
	done
	echo "?"
}

allowed() {	# layer target
	[ "$1" = "$2" ] && return 0
	for r in $rules; do :; done
	echo "$rules" | awk -F: -v l="$1" -v t="$2" '$1 == l { n = split($2, a, " "); for (i = 1; i <= n; i++) if (a[i] == t) f = 1 } END { exit !f }'
}

bad=0
for f in $(find sim models kernels/paths cli include/hotsim -name '*.[ch]' | sort); do
	from=$(layer_of_file "$f")
	[ -n "$from" ] || continue
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case "$inc" in
		hotsim/*) to=$(layer_of_public "${inc#hotsim/}") ;;
		*/*)	  to=${inc%%/*}
			  # the CLI uses the library's public API only
			  if [ "$from" = cli ]; then
				echo "layers: $f (cli) includes $inc: the CLI may use public headers (hotsim/*.h) only" >&2
				bad=1
			  fi ;;
		*)	  to=$from ;;	# same folder
		esac
		if [ "$to" = "?" ]; then
			echo "layers: $f includes $inc, a public header with no layer in scripts/check-layers.sh" >&2
			bad=1
		elif ! allowed "$from" "$to"; then
			echo "layers: $f ($from) includes $inc ($to): not allowed" >&2
			bad=1
		fi
	done
	if grep -q '#include <unicorn/' "$f"; then
		case "$from" in
		emu|paths|defs|measure) ;;
		*) echo "layers: $f ($from) includes Unicorn: only emu and above may" >&2; bad=1 ;;
		esac
	fi
done
# internal headers stay beside their code: include/hotsim/ has public ones only
for h in include/hotsim/*.h; do
	[ "$(layer_of_public "$(basename "$h")")" != "?" ] ||
		{ echo "layers: $h is not a public header (move it beside its code)" >&2; bad=1; }
done

# the link: "OBJ LAYER" of every object, then who uses whose symbols
if [ $# -gt 0 ]; then
	map=$(for o in "$@"; do echo "$o $(layer_of_file "$o")"; done)
	pairs=$( { echo "$map" | sed 's/^/L /'; nm -A -g --defined-only "$@" | sed 's/^/D /'; nm -A -u "$@" | sed 's/^/U /'; } |
		awk '$1 == "L" { layer[$2] = $3; next }
		     { split($2, f, ":"); o = f[1]; s = $NF }
		     $1 == "D" { def[s] = layer[o]; deffile[s] = o; next }
		     $1 == "U" && (s in def) && def[s] != layer[o] { print layer[o], def[s], o, s, deffile[s] }' | sort -u)
	links=$(echo "$pairs" | grep -c . || true)
	echo "$pairs" | while read -r from to obj sym where; do
		[ -n "$from" ] || continue
		allowed "$from" "$to" && continue
		echo "layers: ${obj#*/obj/} ($from) uses $sym, defined in ${where#*/obj/} ($to): not allowed" >&2
		echo x
	done > "${TMPDIR:-/tmp}/hotsim-layers.$$"
	if [ -s "${TMPDIR:-/tmp}/hotsim-layers.$$" ]; then bad=1; fi
	rm -f "${TMPDIR:-/tmp}/hotsim-layers.$$"
fi
[ $bad = 0 ] && echo "layers: every include${links:+ and every use across layers ($links)} follows the dependency rule"
exit $bad
