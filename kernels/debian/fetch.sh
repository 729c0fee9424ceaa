#!/bin/bash
# Fetch Debian's own arm64 kernels listed in kernels/debian/images (or the
# names given) into the cache, through the private apt state of apt.sh, and
# link them as build/kernels/<name>.vmlinux.
#
#   kernels/debian/fetch.sh [NAME...]      fetch (once; cached by package version)
#   kernels/debian/fetch.sh --list         names and what is cached
#
# The -dbg package is ~1 GB; only vmlinux is taken out of it (the stream is
# read up to that member), its DWARF stripped (symbols and BTF kept), and
# the package deleted.
here=$(cd "$(dirname "$0")" && pwd)
kind=debian list="$here/images" fields=5 outdir=kernels ext=.vmlinux
# shellcheck source=kernels/debian/fetch-lib.sh
. "$here/fetch-lib.sh"

field() { awk -v n="$1" -v f="$2" '$1 == n && $1 !~ /^#/ { print $f; exit }' "$here/images"; }

# package name matching the regex: the newest, or the one before it
pick_package() {
	local re=$1 pick=$2 all
	all=$("$apt" arm64 cache pkgnames linux-image- | grep -E "^$re\$" | sort -V)
	[ -n "$all" ] || die "no package matches $re in kernels/debian/sources.list"
	case "$pick" in
	newest)   echo "$all" | tail -1 ;;
	previous) [ "$(echo "$all" | wc -l)" -ge 2 ] || die "only one package matches $re"
		  echo "$all" | tail -2 | head -1 ;;
	*)	  die "unknown pick '$pick'" ;;
	esac
}

version_of() { "$apt" arm64 cache policy "$1" | awk '/Candidate:/ { print $2 }'; }

# the member of the package at path, to file
extract() {
	local deb=$1 member=$2 to=$3
	# --occurrence: stop reading once the member is out (6.1 puts vmlinux
	# first; 7.x after the modules, so that one reads the whole stream)
	dpkg-deb --fsys-tarfile "$deb" 2>/dev/null | tar -xO --occurrence=1 "$member" > "$to.tmp" || true
	[ -s "$to.tmp" ] || { rm -f "$to.tmp"; die "$(basename "$deb"): no $member"; }
	mv "$to.tmp" "$to"
}

download() {
	local pkg=$1 ver=$2 dir=$3
	rm -rf "$dir"; mkdir -p "$dir"
	(cd "$dir" && "$apt" arm64 get download "$pkg=$ver") >&2 || die "download of $pkg $ver failed"
	ls "$dir"/*.deb
}

fetch_one() {
	local n=$1 pick re vpath cfg pkg ver rel img cpkg cpath tmp deb
	pick=$(field "$n" 2); re=$(field "$n" 3); vpath=$(field "$n" 4); cfg=$(field "$n" 5)
	[ -n "$re" ] || die "no image '$n' in kernels/debian/images"
	pkg=$(pick_package "$re" "$pick")
	ver=$(version_of "$pkg")
	rel=${pkg#linux-image-}; rel=${rel%-dbg}
	img="$store/$n-$rel-$ver.vmlinux"
	if ! keep_entry "$img" "$n"; then
		echo "debian: [$n] $pkg $ver: downloading (~1 GB) and extracting vmlinux" >&2
		tmp="$store/tmp-$n"
		deb=$(download "$pkg" "$ver" "$tmp")
		extract "$deb" "${vpath//\{R\}/$rel}" "$tmp/vmlinux.dbg"
		rm -f "$deb"
		aarch64-linux-gnu-objcopy --strip-debug --keep-file-symbols "$tmp/vmlinux.dbg" "$tmp/vmlinux" ||
			die "[$n] cannot strip the debug info of vmlinux"
		cpkg=${cfg%%:*}; cpkg=${cpkg//\{R\}/$rel}; cpath=${cfg#*:}; cpath=${cpath//\{R\}/$rel}
		deb=$(download "$cpkg" "$(version_of "$cpkg")" "$tmp/cfg")
		extract "$deb" "$cpath" "$tmp/config"
		mv "$tmp/config" "${img%.vmlinux}.config"
		store_entry "$tmp/vmlinux" "$img" || die "[$n] cannot store $img"
		rm -rf "$tmp"
		# older versions of this name are superseded
		drop_others "$n" "$n-$rel-$ver."
		echo "debian: [$n] $rel ready" >&2
	else
		echo "debian: [$n] $rel cached" >&2
	fi
	ln -sfn "$img" "$out/$n.vmlinux"
	ln -sfn "${img%.vmlinux}.config" "$out/$n.config"
}

fetch_main "$@"
