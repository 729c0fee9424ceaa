#!/bin/sh
# The QEMU TCG plugin API header (include/qemu/qemu-plugin.h) for the QEMU
# installed here, taken from Debian's own qemu source package: Debian ships
# no header with its binaries. The upstream tarball named by the source
# package's .dsc is downloaded once (cached in $HOTSIM_CACHE/qemu), checked
# against the .dsc's SHA-256, and the header copied out (written whole, then
# renamed into place).
#
#   kernels/qemu/plugin-header.sh OUTDIR     -> OUTDIR/qemu-plugin.h
set -eu
out=${1:?usage: plugin-header.sh OUTDIR}
cache=${HOTSIM_CACHE:-$HOME/.cache/hotsim}/qemu
mirror=${HOTSIM_DEBIAN_MIRROR:-http://deb.debian.org/debian}

pkg=${HOTSIM_QEMU_PKG:-qemu-system-arm}	# tests name a package that is not there
dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
	{ echo "plugin-header: $pkg is not installed (apt-get install qemu-system-arm)" >&2; exit 2; }
ver=$(dpkg-query -W -f='${source:Version}' "$pkg" 2>/dev/null)
[ -n "$ver" ] || { echo "plugin-header: $pkg is not installed" >&2; exit 2; }
nover=${ver#*:}				# the epoch is not in file names
mkdir -p "$cache" "$out"
dsc="$cache/qemu_$nover.dsc"
if [ ! -s "$dsc" ]; then
	curl -fsSL --retry 3 --max-time 600 -o "$dsc.tmp" "$mirror/pool/main/q/qemu/qemu_$nover.dsc" ||
		{ echo "plugin-header: cannot download qemu_$nover.dsc from $mirror" >&2; rm -f "$dsc.tmp"; exit 2; }
	mv "$dsc.tmp" "$dsc"
fi
# " <sha256> <size> qemu_<upstream>.orig.tar.xz" under Checksums-Sha256
line=$(sed -n '/^Checksums-Sha256:/,/^[A-Z]/p' "$dsc" | grep 'orig\.tar\.' | head -1)
sum=$(echo "$line" | awk '{print $1}')
orig=$(echo "$line" | awk '{print $3}')
[ -n "$sum" ] && [ -n "$orig" ] || { echo "plugin-header: $dsc names no upstream tarball" >&2; rm -f "$dsc"; exit 2; }
if [ ! -s "$cache/$orig" ] || ! echo "$sum  $cache/$orig" | sha256sum -c --quiet - 2>/dev/null; then
	curl -fsSL --retry 3 --max-time 600 -o "$cache/$orig.tmp" "$mirror/pool/main/q/qemu/$orig" ||
		{ echo "plugin-header: cannot download $orig" >&2; rm -f "$cache/$orig.tmp"; exit 2; }
	echo "$sum  $cache/$orig.tmp" | sha256sum -c --quiet - ||
		{ echo "plugin-header: $orig does not match its SHA-256 in $(basename "$dsc")" >&2; rm -f "$cache/$orig.tmp"; exit 2; }
	mv "$cache/$orig.tmp" "$cache/$orig"
fi
tmp=$(mktemp -d "$out/.hdr.XXXXXX")
tar -xf "$cache/$orig" -C "$tmp" --wildcards '*/include/qemu/qemu-plugin.h'
mv "$(find "$tmp" -name qemu-plugin.h | head -1)" "$out/qemu-plugin.h"
rm -rf "$tmp"
