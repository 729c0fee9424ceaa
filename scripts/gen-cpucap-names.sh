#!/bin/sh
# Print a cpucap name table for sim/cpucap_names.c from a kernel tree's
# arch/arm64/tools/cpucaps (numbered in file order, as gen-cpucaps.awk does).
#   scripts/gen-cpucap-names.sh ~/.cache/hotsim/src/7.2/linux-source-7.2 7.2
set -eu
tree=$1; ver=$2
f="$tree/arch/arm64/tools/cpucaps"
[ -f "$f" ] || { echo "no $f" >&2; exit 1; }
n=$(grep -cv '^#\|^$' "$f")
echo "/* $ver: $n capabilities */"
echo "static const char *const caps_$(echo "$ver" | tr . _)[] = {"
grep -v '^#\|^$' "$f" | sed 's/.*/\t"&",/'
echo "};"
