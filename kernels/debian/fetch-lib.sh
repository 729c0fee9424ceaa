# fetch-lib.sh - what the scripts that fetch Debian arm64 packages into the
# cache share (kernels/debian/fetch.sh: kernels; kernels/programs/fetch.sh:
# programs): the cache folder, the private apt state (apt.sh), one fetcher
# at a time, --list and the loop over names. Sourced after the script sets
#   kind     its cache folder, its lock and its messages' prefix
#   list     its data file: a line a name, # comments
#   fields   how many fields a line has at least
#   outdir   the folder of build/ that links its entries
#   ext      its entries' suffix in the cache
# and before it defines fetch_one NAME; it ends with fetch_main "$@".
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache=${HOTSIM_CACHE:-$HOME/.cache/hotsim}
store="$cache/$kind"
out="$repo/build/$outdir"
apt="$repo/kernels/debian/apt.sh"

die() { echo "$kind: $*" >&2; exit 1; }

# shellcheck source=kernels/cache.sh
. "$repo/kernels/cache.sh"

mkdir -p "$store" "$out"
exec 9>"$cache/.lock-$kind"
flock 9

names() { awk -v n="$fields" '$1 !~ /^#/ && NF >= n { print $1 }' "$list"; }

# entries NAME: the cache's files of NAME, not those of a longer name it
# begins (debian-7.2's, not debian-7.2-16k's)
entries() {
	local f b m own
	for f in "$store/$1-"*; do
		[ -e "$f" ] || continue
		b=${f##*/}; own=1
		for m in $(names); do
			[ ${#m} -gt ${#1} ] && [ "${b#"$m"-}" != "$b" ] && own=0
		done
		[ $own = 0 ] || echo "$f"
	done
}

# drop_others NAME KEEP: remove NAME's entries but those beginning KEEP
# (older versions, superseded)
drop_others() {
	local f b
	for f in $(entries "$1"); do
		b=${f##*/}
		[ "${b#"$2"}" = "$b" ] && rm -f "$f"
	done
	return 0
}

# keep_entry FILE NAME: 0 if FILE is cached and whole; a damaged one is
# removed (and said), to be fetched again
keep_entry() {
	[ -f "$1" ] || return 1
	verify_entry "$1" && return 0
	echo "$kind: [$2] $1: damaged (checksum mismatch); fetching it again" >&2
	rm -f "$1" "$1.sha256"
	return 1
}

fetch_main() {
	local n f
	if [ "${1:-}" = --list ]; then
		for n in $(names); do
			f=$(entries "$n" | grep -- "$ext\$" | head -1 || true)
			echo "$n  ${f:-missing}"
		done
		exit 0
	fi
	"$apt" arm64 update
	[ $# -gt 0 ] || set -- $(names)
	for n in "$@"; do fetch_one "$n"; done
}
