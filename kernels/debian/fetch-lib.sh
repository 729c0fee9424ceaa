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

fetch_main() {
	local n f
	if [ "${1:-}" = --list ]; then
		for n in $(names); do
			f=$(ls "$store/$n-"*"$ext" 2>/dev/null | head -1 || true)
			echo "$n  ${f:-missing}"
		done
		exit 0
	fi
	"$apt" arm64 update
	[ $# -gt 0 ] || set -- $(names)
	for n in "$@"; do fetch_one "$n"; done
}
