#!/bin/bash
# Fetch the programs listed in kernels/programs/programs (or the names
# given): each Debian arm64 package with the libraries its executable
# needs, through the private apt state of kernels/debian/apt.sh, made into
# one cpio archive in the cache and linked as build/programs/<name>.cpio.
#
#   kernels/programs/fetch.sh [NAME...]    fetch (once; cached by version)
#   kernels/programs/fetch.sh --list       names and what is cached
#
# The archive holds the executable, the dynamic loader and the DT_NEEDED
# closure of the executable (libraries only: no data, no docs), where the
# packages put them; cpio.py writes it the same way every time.
here=$(cd "$(dirname "$0")" && pwd)
kind=programs list="$here/programs" fields=4 outdir=programs ext=.cpio
# shellcheck source=kernels/debian/fetch-lib.sh
. "$here/../debian/fetch-lib.sh"

line() { awk -v n="$1" '$1 == n && $1 !~ /^#/ { print; exit }' "$list"; }

# the version apt would download for PKG/SUITE
version_of() {
	local pkg=${1%/*} suite=${1#*/}
	"$apt" arm64 cache policy "$pkg" | awk -v s="$suite" '
		/^     [^ ]/ || /^ \*\*\* / { v = $(NF - 1) }
		v && $0 ~ "/debian(-security)? " s "/" { print v; exit }'
}

# the DT_NEEDED names of an ELF file
needed() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

fetch_one() {
	local n=$1 l pkg exe libs ver entry tmp root f so todo found
	l=$(line "$n"); [ -n "$l" ] || die "no program '$n' in kernels/programs/programs"
	read -r _ pkg exe libs <<< "$l"
	ver=$(version_of "$pkg"); [ -n "$ver" ] || die "[$n] no version of $pkg in kernels/debian/sources.list"
	entry="$store/$n-$ver.cpio"
	if ! keep_entry "$entry" "$n"; then
		echo "programs: [$n] ${pkg%/*} $ver and its libraries: downloading" >&2
		tmp="$store/tmp-$n"; rm -rf "$tmp"; mkdir -p "$tmp/debs" "$tmp/all" "$tmp/root"
		(cd "$tmp/debs" && "$apt" arm64 get download "${pkg%/*}=$ver" &&
			for p in $libs; do "$apt" arm64 get download "$p/${pkg#*/}"; done) >&2 ||
			die "[$n] a download failed"
		for f in "$tmp"/debs/*.deb; do dpkg-deb -x "$f" "$tmp/all"; done
		[ -f "$tmp/all$exe" ] || die "[$n] ${pkg%/*} has no $exe"
		# the executable, its interpreter and every library it needs, by
		# soname, from the directories the dynamic loader searches
		install -D -m 755 "$tmp/all$exe" "$tmp/root$exe"
		todo=$(needed "$tmp/all$exe"); found=" "
		while [ -n "$todo" ]; do
			so=${todo%%$'\n'*}; [ "$so" = "$todo" ] && todo= || todo=${todo#*$'\n'}
			case "$found" in *" $so "*) continue ;; esac
			f=
			for d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu; do
				[ -e "$tmp/all/$d/$so" ] && { f="$d/$so"; break; }
			done
			[ -n "$f" ] || die "[$n] $so (needed by $exe) is in none of: $libs"
			install -D -m 755 "$(readlink -f "$tmp/all/$f")" "$tmp/root/$f"
			found="$found$so "
			todo=$(printf '%s\n%s' "$todo" "$(needed "$tmp/root/$f")" | sed '/^$/d')
		done
		ldso=$(readelf -l "$tmp/all$exe" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
		[ -e "$tmp/all$ldso" ] || die "[$n] no interpreter $ldso in libc6"
		install -D -m 755 "$(readlink -f "$tmp/all$ldso")" "$tmp/root$ldso"
		python3 "$here/cpio.py" "$tmp/root" "$tmp/$n.cpio" || die "[$n] cannot write the archive"
		store_entry "$tmp/$n.cpio" "$entry" || die "[$n] cannot store $entry"
		rm -rf "$tmp"
		drop_others "$n" "$n-$ver."
		echo "programs: [$n] ${pkg%/*} $ver ready ($(( $(stat -c %s "$entry") >> 20 )) MiB)" >&2
	else
		echo "programs: [$n] ${pkg%/*} $ver cached" >&2
	fi
	ln -sfn "$entry" "$out/$n.cpio"
}

fetch_main "$@"
