# shellcheck shell=bash disable=SC2154
# series-build.sh - one commit of a series as an image, for
# scripts/hotsim-series: the pair's base (pair-cache.sh), then commit K as
# an incremental build on the objects of the nearest earlier commit whose
# objects are kept ($W/series/KEY), else the base's. The source is always
# at $W/src (the objects' dependency lists name that path): the base's
# copy, the diff to that earlier commit applied with its files dated long
# ago (so make sees those objects as up to date), then the diff from there
# to K applied now (so make rebuilds what it touches).
#
# The caller sets what series-list.sh and pair_setup set, label; defines
# die() and say().

# A date before any build: what the files of the earlier commit's diff get.
SERIES_OLD=@946684800

# The last line of the build log that says what failed: a compiler or
# linker error, else make's, else its last line; the source's path cut off.
last_error() {
	local log=$1 line
	line=$(grep -E ': (fatal )?error: |undefined reference to ' "$log" | tail -1 || true)
	[ -n "$line" ] || line=$(grep -E 'Error [0-9]+' "$log" | tail -1 || true)
	[ -n "$line" ] || line=$(grep -v '^$' "$log" | tail -1 || true)
	printf '%s' "$line" | sed -e "s|$W/src/||g" -e "s|$W/patched/||g" | tr '\t\r' '  '
}

# Keep the objects of the HOTSIM_SERIES_TREES latest builds (a tree a
# build started from counts as used).
prune_trees() {
	local keep=${HOTSIM_SERIES_TREES:-4} d
	# shellcheck disable=SC2012
	ls -1dt "$W/series"/*/ 2>/dev/null | tail -n +$((keep + 1)) | while IFS= read -r d; do
		rm -rf "$d"
	done
}

# The nearest commit below K whose objects are kept: its number, or 0.
nearest_tree() {
	local k
	for ((k = $1 - 1; k >= 1; k--)); do
		[ "${status[k]}" = ok ] || continue
		series_diff 0 "$k" "$tmp/key.diff"
		if [ -d "$W/series/$(diff_key "$tmp/key.diff")" ]; then
			echo "$k"
			return
		fi
	done
	echo 0
}

# $W/src at commit A's tree (0: the base's), dated so A's objects need no
# rebuild.
src_at() {
	local a=$1
	clone_src
	[ "$a" -gt 0 ] || return 0
	series_diff 0 "$a" "$tmp/to-a.diff"
	patch -p1 -s -f -d "$W/src" < "$tmp/to-a.diff" > /dev/null 2>&1 ||
		die "the series up to commit $a does not apply to the copy of $tree"
	patched_files "$tmp/to-a.diff" | while IFS= read -r f; do
		[ -e "$W/src/$f" ] && touch -h -d "$SERIES_OLD" "$W/src/$f"
		true
	done
}

# A failed build is the commit's when make says what failed; a build that
# was stopped (the timeout, a signal) says nothing about the commit.
commit_failed() {
	grep -qE ': (fatal )?error: |undefined reference to |Error [0-9]+' "$1"
}

# Build commit K (the diff from the base is its key); print its image.
series_build_new() {
	local k=$1 key=$2 img=$3 a from log=$W/patched-$2.log start=$SECONDS rc=0
	if [ ! -f "$bimg" ] || [ ! -d "$W/base" ]; then
		clone_src
		build_base
	fi
	a=$(nearest_tree "$k")
	from=$W/base
	if [ "$a" -gt 0 ]; then
		series_diff 0 "$a" "$tmp/key.diff"
		from=$W/series/$(diff_key "$tmp/key.diff")
		touch "$from"
	fi
	src_at "$a"
	say "[$label] incremental build on the objects of ${ids[a]} ($a)"
	: > "$log"
	series_diff "$a" "$k" "$tmp/apply.diff"
	patch -p1 -s -f -d "$W/src" < "$tmp/apply.diff" >> "$log" 2>&1 ||
		die "commit $k does not apply to the copy of $tree; log: $log"
	( build_on "$from" series "$log" ) || rc=$?
	if [ "$rc" != 0 ]; then
		commit_failed "$log" || die "[$label] the build stopped without an error; log: $log"
		last_error "$log" > "$W/patched-$key.failed.tmp"
		mv "$W/patched-$key.failed.tmp" "$W/patched-$key.failed"
		say "[$label] does not build ($((SECONDS - start))s); log: $log"
		echo "does not build: $(cat "$W/patched-$key.failed")"
		exit 1
	fi
	check_rebuilt "$key" "$tmp/apply.diff"
	cp "$W/patched/vmlinux" "$img.tmp"
	mv "$img.tmp" "$img"
	mkdir -p "$W/series"
	rm -rf "${W:?}/series/$key"
	mv "$W/patched" "$W/series/$key"
	prune_trees
	say "[$label] built in $((SECONDS - start))s"
	echo "$img"
}

series_build() {
	local k=$1 key img
	if [ "$k" = 0 ]; then
		if [ ! -f "$bimg" ] || [ ! -d "$W/base" ]; then
			pair_lock
			[ -f "$bimg" ] && [ -d "$W/base" ] || { clone_src; build_base; }
		fi
		echo "$bimg"
		return
	fi
	series_diff 0 "$k" "$tmp/key.diff"
	key=$(diff_key "$tmp/key.diff")
	img=$W/patched-$key.vmlinux
	[ -f "$img" ] || [ -f "$W/patched-$key.failed" ] || pair_lock
	if [ -f "$img" ]; then
		say "[$label] cached: $img"
		echo "$img"
	elif [ -f "$W/patched-$key.failed" ]; then
		say "[$label] cached: does not build; log: $W/patched-$key.log"
		echo "does not build: $(cat "$W/patched-$key.failed")"
		exit 1
	else
		series_build_new "$k" "$key" "$img"
	fi
}
