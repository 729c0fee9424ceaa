#!/bin/bash
# Unpack Debian's linux-source-<line> once into the cache and print
# "VERSION DIR" of the pristine tree (builds hard-link their trees to it).
#
#   kernels/linux/source.sh LINE
#
# The tarball is the installed package's (/usr/src, bookworm lines that
# scripts/deps.sh installs), else the package is downloaded through the
# private apt state (kernels/debian/apt.sh: sid, trixie-backports) and only
# its tarball kept. The caller holds the cache lock.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${HOTSIM_CACHE:-$HOME/.cache/hotsim}
line=${1:?usage: source.sh LINE}

die() { echo "kernels: $*" >&2; exit 1; }

pkg=$(awk -v l="$line" '$1 == l && $1 !~ /^#/ { print $2; exit }' "$here/lines")
[ -n "$pkg" ] || die "no line '$line' in kernels/linux/lines"
tarball=/usr/src/$pkg.tar.xz
if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" && [ -f "$tarball" ]; then
	ver=$(dpkg-query -W -f='${Version}' "$pkg")
else
	"$here/../debian/apt.sh" host update
	ver=$("$here/../debian/apt.sh" host cache policy "$pkg" | awk '/Candidate:/ { print $2 }')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] ||
		die "$pkg: not in the suites of kernels/debian/sources.list"
	tarball="$cache/debs/$pkg-$ver.tar.xz"
	if [ ! -f "$tarball" ]; then
		mkdir -p "$cache/debs/dl"
		echo "kernels: downloading $pkg $ver" >&2
		(cd "$cache/debs/dl" && rm -f ./*.deb &&
		 "$here/../debian/apt.sh" host get download "$pkg=$ver") ||
			die "$pkg $ver: download failed"
		dpkg-deb --fsys-tarfile "$cache/debs/dl/"*.deb |
			tar -xO "./usr/src/$pkg.tar.xz" > "$tarball.tmp" ||
			die "$pkg $ver: no /usr/src/$pkg.tar.xz in the package"
		mv "$tarball.tmp" "$tarball"
		rm -f "$cache/debs/dl/"*.deb
	fi
fi

dir="$cache/src/$line"
pristine="$dir/$pkg"
if [ "$(cat "$pristine/.hotsim-srcver" 2>/dev/null)" != "$ver" ]; then
	echo "kernels: unpacking $pkg $ver" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" -xf "$tarball"
	[ -d "$pristine" ] || die "$tarball did not unpack to $pkg/"
	echo "$ver" > "$pristine/.hotsim-srcver"
fi
echo "$ver $pristine"
