# cache.sh - what every cache entry the kernel scripts write shares (sourced
# by kernels/linux/recipe.sh and kernels/debian/fetch.sh; hotsim's own
# snapshots do the same in C, sim/vm/snapshot.c).
#
# An entry is written under a temporary name, summed, and renamed into
# place with its SHA-256 beside it (<file>.sha256, renamed first): a killed
# writer leaves nothing a later run trusts, and a reader checks the sum.

# store_entry TMP FINAL: sum TMP, then rename the sum and TMP into place.
# verify_entry FILE: 0 if FILE matches its sum; an entry from before sums
# (none beside it) gets one now.
store_entry() {
	local tmp=$1 final=$2 sum
	sum=$(sha256sum "$tmp" | cut -d' ' -f1) || return 1
	echo "$sum  $(basename "$final")" > "$final.sha256.tmp" && mv "$final.sha256.tmp" "$final.sha256" &&
		mv "$tmp" "$final"
}
verify_entry() {
	local f=$1
	if [ ! -f "$f.sha256" ]; then
		echo "$(sha256sum "$f" | cut -d' ' -f1)  $(basename "$f")" > "$f.sha256.tmp" &&
			mv "$f.sha256.tmp" "$f.sha256"
		return 0
	fi
	(cd "$(dirname "$f")" && sha256sum -c --quiet --status "$(basename "$f").sha256")
}
