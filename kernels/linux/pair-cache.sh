# shellcheck shell=bash disable=SC2154
# pair-cache.sh - what `hotsim pair` and `hotsim series` build with, sourced
# by scripts/hotsim-pair and scripts/hotsim-series so the two share one
# cache: the checks before any build, the key of a base (tree state, config,
# compiler: $HOTSIM_CACHE/pair/KEY), the copy of the source a build reads,
# the base's full build, and an incremental build on a copy of a built
# tree's objects. The recipe itself is recipe.sh's.
#
# The caller sets: share (recipe.sh and the fragments), tree, commits and
# base_rev (a git range and its base's commit, or empty), what (the base's
# name in progress lines), label (an incremental build's), config, cc, tmp
# (a scratch dir it removes), recipe_prefix; and defines die() and say().

# The toolchain and the tools a kernel build needs.
pair_check_tools() {
	case "$cc" in
	gcc)	command -v aarch64-linux-gnu-gcc >/dev/null ||
			die "aarch64-linux-gnu-gcc not found (Debian: apt-get install gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu)" ;;
	clang)	command -v clang >/dev/null && command -v ld.lld >/dev/null ||
			die "clang and ld.lld not found (Debian: apt-get install clang lld llvm)" ;;
	esac
	for t in flex bison bc make; do
		command -v "$t" >/dev/null || die "$t not found (Debian: apt-get install flex bison bc make libssl-dev)"
	done
}

# --cc and --config checked; config becomes a full path (or defconfig).
pair_check_options() {
	case "$cc" in gcc|clang) ;; *) die "--cc is gcc or clang, not '$cc'" ;; esac
	case "$config" in
	'')		config=$share/base.config ;;
	defconfig)	;;
	*)		[ -f "$config" ] && [ -r "$config" ] || die "$config: no such config file"
			config=$(readlink -f "$config") ;;
	esac
}

# The cache: basekey and W (the base's work dir), the recipe sourced.
pair_setup() {
	cache=${HOTSIM_CACHE:-$HOME/.cache/hotsim}
	pcache=$cache/pair
	jobs=${HOTSIM_JOBS:-$(nproc)}
	recipe_steps=$pcache
	# shellcheck source=kernels/linux/recipe.sh
	. "$share/recipe.sh"
	# Bump when the way pairs are built changes (what the key cannot see).
	PAIR_RECIPE=2
	basekey=$({
		echo "pair recipe $PAIR_RECIPE"; tree_state
		if [ "$config" = defconfig ]; then echo defconfig; else cat "$config"; fi
		toolchain_id "$cc"; make_args "$cc"; env | grep '^KBUILD_BUILD_' | sort
	} | sha256sum | cut -c1-16)
	W=$pcache/$basekey
	bimg=$W/base.vmlinux
	mkdir -p "$W"
	# An in-tree build (the project's own images) spells the headers it
	# finds through -I ./include and -I ./arch/arm64/include as
	# ./include/...; out of tree, after the kernel's own
	# -fmacro-prefix-map, they would be include/... These two maps give
	# __FILE__ (WARN/BUG strings) the in-tree spelling, so the same
	# source, config and compiler give the same bytes either way.
	intree_paths="KCPPFLAGS=-fmacro-prefix-map=$W/src/include/=./include/"
	intree_paths="$intree_paths -fmacro-prefix-map=$W/src/arch/arm64/include/=./arch/arm64/include/"
}

# On exit: the scratch dir, and what a build of this run left in W.
pair_cleanup() {
	rm -rf "$tmp"
	if [ -n "${pair_locked:-}" ]; then rm -rf "$W/src" "$W/patched"; fi
}

# The key of the base with these diffs on top (an image's name in W).
diff_key() {
	{ echo "$basekey"; cat "$@"; } | sha256sum | cut -c1-16
}

# One build at a time per base (its work dir), as build.sh has one per
# image; only the holder may remove $W/src and $W/patched (pair_cleanup).
pair_lock() {
	pair_locked=1
	exec 9>"$W.lock"
	if ! flock -n 9; then
		say "waiting for another run building on this base ($W.lock)"
		flock 9
	fi
}

# What the sources are: a commit, a git checkout's commit plus its changes,
# or (no git) every file's name, size and modification time.
tree_state() {
	local top
	if [ -n "$commits" ]; then
		echo "git $base_rev"
	elif top=$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null) && [ "$top" = "$tree" ]; then
		echo "git $(git -C "$tree" rev-parse HEAD)"
		git -C "$tree" diff --binary HEAD | sha256sum
		git -C "$tree" ls-files -o --exclude-standard -z | (cd "$tree" && xargs -0r sha256sum) | sha256sum
	else
		(cd "$tree" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' | sort) | sha256sum
	fi
}

# A fresh copy of the base source at $W/src: hard links where possible (a
# patch replaces files, it does not write through them), TREE untouched.
# Always at this path: the objects' dependency lists name it.
clone_src() {
	rm -rf "$W/src"
	if [ -n "$commits" ]; then
		mkdir -p "$W/src"
		git -C "$tree" archive --format=tar "$base_rev" | tar -C "$W/src" -xf -
	else
		cp -al "$tree" "$W/src" 2>/dev/null || { rm -rf "$W/src"; cp -a "$tree" "$W/src"; }
		rm -rf "$W/src/.git"
	fi
	if [ -f "$W/src/.config" ] || [ -d "$W/src/include/config" ]; then
		say "$tree has an in-tree build: cleaning the copy (make mrproper)"
		make -s -C "$W/src" ARCH=arm64 mrproper >> "$W/base.log" 2>&1 || die "make mrproper failed in the copy"
	fi
}

build_base() {
	local log=$W/base.log start=$SECONDS
	say "[base] full build of $what ($cc, config $(basename "$config")) -- a few minutes"
	rm -rf "$W/base"
	mkdir -p "$W/base"
	if [ "$config" = defconfig ]; then
		# shellcheck disable=SC2046
		make -s -C "$W/src" $(make_args "$cc") $(host_pins) O="$W/base" defconfig >> "$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "[base] defconfig failed; log: $log"; }
	else
		cp "$config" "$W/base/.hotsim-fragment"
		merge_config "$W/src" "$cc" "$log" "$W/base/.hotsim-fragment" allnoconfig O="$W/base" ||
			{ tail -20 "$log" >&2; die "[base] allnoconfig failed; log: $log"; }
		config_misses base "$W/base/.config" "$config" ||
			say "[base] warning: options of $(basename "$config") this tree does not have (above)"
	fi
	run_make base "$W/src" "$log" "$cc" O="$W/base" "$intree_paths" vmlinux
	cp "$W/base/.config" "$W/base.config"
	cp "$W/base/vmlinux" "$bimg.tmp"
	mv "$bimg.tmp" "$bimg"
	say "[base] built in $((SECONDS - start))s"
}

# The files a diff patches (-p1), both sides' names.
patched_files() {
	awk '/^\+\+\+ / && $2 != "/dev/null" { sub(/^[^\/]*\//, "", $2); print $2 }
	     /^--- / && $2 != "/dev/null" { sub(/^[^\/]*\//, "", $2); print $2 }' "$@" | sort -u
}

# build_on FROM NAME LOG: $W/patched as a copy of FROM's objects, rebuilt
# by make against $W/src as the caller left it (the diff applied); stamped
# first, so check_rebuilt sees what make remade.
build_on() {
	local from=$1 name=$2 log=$3
	rm -rf "$W/patched"
	cp -a "$from" "$W/patched"
	touch "$W/patched/.hotsim-stamp"
	run_make "$name" "$W/src" "$log" "$cc" O="$W/patched" "$intree_paths" vmlinux
}

# Which objects the incremental build remade, against what the diff
# (DIFF) says: each should depend on a patched file (its .cmd lists the
# dependencies). Kept beside the image (KEY), and said again when it comes
# from the cache.
check_rebuilt() {
	check_rebuilt_says "$@" 2>&1 | tee "$W/patched-$1.check" >&2
}

check_rebuilt_says() {
	local key=$1 diff=$2 list=$W/patched-$1.rebuilt o cmd n=0 explained=0 link=0 other=()
	patched_files "$diff" > "$tmp/files"
	(cd "$W/patched" && find . -name '*.o' -newer .hotsim-stamp | sed 's|^\./||' | sort) > "$list"
	while IFS= read -r o; do
		n=$((n + 1))
		cmd=$W/patched/$(dirname "$o")/.$(basename "$o").cmd
		case "$o" in
		vmlinux.o|.vmlinux*.o|.tmp_*|init/version-timestamp.o|*kallsyms*) link=$((link + 1)); continue ;;
		esac
		if [ -f "$cmd" ] && grep -qF -f <(sed "s|^|$W/src/|" "$tmp/files") "$cmd"; then
			explained=$((explained + 1))
		else
			other+=("$o")
		fi
	done < "$list"
	say "[$label] rebuilt $n objects: $explained depend on a patched file, $link link-stage, ${#other[@]} other"
	if [ ${#other[@]} -gt 0 ]; then
		say "[$label] warning: rebuilt without a patched file among its dependencies: ${other[*]:0:10}"
	fi
	while IFS= read -r f; do
		case "$f" in
		*.c|*.S)
			grep -qx "${f%.*}.o" "$list" ||
				say "[$label] note: $f is patched but not built in this config" ;;
		esac
	done < "$tmp/files"
}
