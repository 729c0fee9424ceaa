#!/bin/sh
# hotsim's cost models against Debian's llvm-mca on the straight-line blocks
# of the real kernel paths (tests/mca_crosscheck.h explains the method;
# docs/llvm-mca-crosscheck.md discusses the results).
#
#   scripts/mca-crosscheck.sh [--kernel VMLINUX] [--max-blocks N] [--worst N] [--out FILE]
#
# Builds libhotsim and the small driver tests/mca_main.c, runs every path
# of the kernel (default build/kernels/7.2-base.vmlinux) on each core and writes
# a Markdown report (default build/mca-crosscheck.md); prints its summary.
set -eu
cd "$(dirname "$0")/.."
command -v llvm-mca >/dev/null || { echo "mca-crosscheck: llvm-mca not found (make deps)" >&2; exit 2; }
make -s build/libhotsim.a
PKGS="unicorn capstone libelf"
${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -O2 -g -Iinclude -Isim -Itests $(pkg-config --cflags $PKGS) \
	-o build/mca-crosscheck tests/mca_main.c build/libhotsim.a $(pkg-config --libs $PKGS) -lm
out=build/mca-crosscheck.md
prev=""
for a in "$@"; do
	[ "$prev" = "--out" ] && out=$a
	prev=$a
done
build/mca-crosscheck --out "$out" "$@"
# the summary tables (bounded); the worst blocks are in the report
sed -n '1,/^Largest differences/p' "$out" | grep -v '^Largest differences' | head -20
echo "report: $out"
