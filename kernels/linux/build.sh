#!/bin/bash
# Build the real arm64 vmlinux images hotsim is tested and demonstrated on.
#
#   kernels/linux/build.sh check           the variants of a set (check, demo)
#   kernels/linux/build.sh all             every variant in kernels/linux/variants
#   kernels/linux/build.sh 7.2-base ...    just these (and what they derive from)
#   kernels/linux/build.sh --list          variants and their cache state
#   kernels/linux/build.sh --key VARIANT   its cache key
#
# Sources: Debian's linux-source-<line> packages (kernels/linux/lines,
# unpacked by source.sh). Outputs are cached outside the checkout in
# $HOTSIM_CACHE (default ~/.cache/hotsim), keyed by a hash of the source
# version, toolchain, config fragments, patches and this script, so a rerun
# with nothing changed is instant. build/kernels/<variant>.vmlinux in the
# checkout links to the cache.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${HOTSIM_CACHE:-$HOME/.cache/hotsim}
jobs=${HOTSIM_JOBS:-$(nproc)}
out=${HOTSIM_KERNEL_LINKS:-$repo/build/kernels}	# tests link elsewhere

die() { echo "kernels: $*" >&2; exit 1; }

mkdir -p "$cache/images" "$cache/trees" "$out"

# One lock per image (and one per line's source unpack), not one for the
# whole step: two runs on one cache build different images side by side and
# wait only for the same one. The kernel drops the lock of a process that
# dies; a holder that hangs is given up on after HOTSIM_LOCK_WAIT seconds
# (two hours: a full clang build is 20 minutes on two cores).
mkdir -p "$cache/locks"
# take_lock NAME: hold $cache/locks/NAME.lock on a new fd, printed to stdout
# is not possible in a subshell, so the fd is left in $lockfd.
take_lock() {
	local f="$cache/locks/$1.lock"
	exec {lockfd}>"$f"
	if ! flock -n "$lockfd"; then
		echo "kernels: waiting for $1 (another run holds $f)" >&2
		flock -w "${HOTSIM_LOCK_WAIT:-7200}" "$lockfd" ||
			die "another run has held $f for ${HOTSIM_LOCK_WAIT:-7200} s"
	fi
}

# Bump when the way images are built changes (what the cache key cannot see
# otherwise); editing messages or progress output need not bump it.
RECIPE=2

# The recipe (identity, make arguments, config merge, make with progress),
# shared with scripts/hotsim-pair.
recipe_prefix=kernels recipe_steps=$cache
# shellcheck source=kernels/linux/recipe.sh
. "$here/recipe.sh"
# shellcheck source=kernels/cache.sh
. "$here/../cache.sh"

# variant fields: name line toolchain fragments patches parent sets
field() { awk -v n="$1" -v f="$2" '$1 == n && $1 !~ /^#/ { print $f; exit }' "$here/variants"; }
all_variants() { awk '$1 !~ /^#/ && NF >= 7 { print $1 }' "$here/variants"; }
set_variants() { awk -v s="$1" '$1 !~ /^#/ && NF >= 7 && ("," $7 ",") ~ ("," s ",") { print $1 }' "$here/variants"; }
line_frags() { awk -v l="$1" '$1 == l && $1 !~ /^#/ { print $3; exit }' "$here/lines"; }

# Fragments of a variant: its own, then its line's.
fragments() {
	local v=$1 f lf
	f=$(field "$v" 4); lf=$(line_frags "$(field "$v" 2)")
	[ -z "$lf" ] || [ "$lf" = - ] || f="$f,$lf"
	echo "$f"
}

# "VERSION DIR" of a line's pristine source (unpacked once, under the lock).
# Filled by need_sources in the main shell, so $(...) subshells see it.
declare -A srcinfo
need_sources() {
	local v l
	for v in "$@"; do
		l=$(field "$v" 2)
		[ -n "$l" ] || die "no variant '$v' in kernels/linux/variants"
		if [ -z "${srcinfo[$l]:-}" ]; then
			take_lock "src-$l"
			srcinfo[$l]=$("$here/source.sh" "$l") || die "no source for line $l"
			exec {lockfd}>&-
		fi
		[ "$(field "$v" 6)" = - ] || need_sources "$(field "$v" 6)"
	done
}
srcver() { echo "${srcinfo[$1]}" | cut -d' ' -f1; }
pristine() { echo "${srcinfo[$1]}" | cut -d' ' -f2; }

# Cache key of a variant: everything its bytes depend on.
key() {
	local v=$1 line tc frags patches parent
	line=$(field "$v" 2); tc=$(field "$v" 3); frags=$(fragments "$v")
	patches=$(field "$v" 5); parent=$(field "$v" 6)
	[ -n "$tc" ] || die "no variant '$v' in kernels/linux/variants"
	{
		echo "$line $(srcver "$line")"; echo "$v"; toolchain_id "$tc"
		echo "recipe $RECIPE"; make_args "$tc"; env | grep '^KBUILD_BUILD_' | sort
		for f in ${frags//,/ }; do cat "$here/$f.config"; done
		[ "$patches" = - ] || for p in ${patches//,/ }; do cat "$here/patches/$line/$p.diff"; done
		[ "$parent" = - ] || key "$parent"
	} | sha256sum | cut -c1-16
}

built_image() { echo "$cache/images/$1-$(key "$1").vmlinux"; }

build_one() {
	local v=$1 k line tc frags patches parent tree img log cfgs start src lockfd myfd
	k=$(key "$v"); img="$cache/images/$v-$k.vmlinux"
	take_lock "$v-$k"; myfd=$lockfd
	# (closed on every return: bash has no defer, so the two returns below
	# close it themselves)
	if [ -f "$img" ] && ! verify_entry "$img"; then
		echo "kernels: [$v] $img: damaged (checksum mismatch); building it again" >&2
		rm -f "$img" "$img.sha256"
	fi
	if [ -f "$img" ]; then
		ln -sfn "$img" "$out/$v.vmlinux"
		ln -sfn "$cache/images/$v-$k.config" "$out/$v.config"
		echo "kernels: [$v] cached"
		exec {myfd}>&-
		return
	fi
	line=$(field "$v" 2); tc=$(field "$v" 3); frags=$(fragments "$v")
	patches=$(field "$v" 5); parent=$(field "$v" 6)
	src=$(pristine "$line")
	tree="$cache/trees/$v-$k"; log="$cache/images/$v-$k.log"; : > "$log"
	start=$SECONDS
	if [ "$parent" != - ]; then
		build_one "$parent"
		local ptree="$cache/trees/$parent-$(key "$parent")"
		[ -d "$ptree" ] || { rm -f "$(built_image "$parent")"; build_one "$parent"; }
		echo "kernels: [$v] incremental build from $parent"
		clone_tree "$ptree" "$tree" "$src"
		if [ "$patches" = - ]; then
			# Same source: recompile the hot-path objects and relink.
			find "$tree/kernel/sched" "$tree/kernel/irq" "$tree/kernel/entry" \
			     "$tree/arch/arm64/kernel" "$tree/drivers/irqchip" \
			     -name '*.o' -delete 2>/dev/null || true
		fi
	else
		echo "kernels: [$v] full build of linux $(srcver "$line") ($tc, fragments: $frags) -- a few minutes"
		rm -rf "$tree"
		link_tree "$src" "$tree"
		cfgs=""; base=allnoconfig
		: > "$tree/.hotsim-fragment"
		for f in ${frags//,/ }; do
			if [ "$f" = defconfig ]; then
				# the line's own defconfig under the fragments, its
				# modules left out (defconfig.config)
				base=alldefconfig
				grep -v '=m$' "$tree/arch/arm64/configs/defconfig" >> "$tree/.hotsim-fragment"
			else
				cfgs="$cfgs $here/$f.config"
				cat "$here/$f.config" >> "$tree/.hotsim-fragment"
			fi
		done
		merge_config "$tree" "$tc" "$log" "$tree/.hotsim-fragment" "$base" ||
			{ tail -20 "$log" >&2; die "[$v] $base failed; log: $log"; }
		# shellcheck disable=SC2086
		config_misses "$v" "$tree/.config" $cfgs || die "[$v] config fragment not honoured (see above)"
	fi
	if [ "$patches" != - ]; then
		for p in ${patches//,/ }; do
			[ -f "$here/patches/$line/$p.diff" ] || die "[$v] no patch kernels/linux/patches/$line/$p.diff"
			patch -s -p1 -d "$tree" < "$here/patches/$line/$p.diff" >>"$log" 2>&1 ||
				die "[$v] patch $line/$p.diff does not apply; log: $log"
		done
	fi
	run_make "$v" "$tree" "$log" "$tc" vmlinux
	# written whole, summed, renamed into place: a killed build leaves
	# nothing a later run trusts; a full disk leaves nothing at all
	cp "$tree/.config" "$cache/images/$v-$k.config.tmp" &&
		mv "$cache/images/$v-$k.config.tmp" "$cache/images/$v-$k.config" &&
		cp "$tree/vmlinux" "$img.tmp" && store_entry "$img.tmp" "$img" ||
		{ rm -f "$img.tmp" "$img.sha256.tmp" "$cache/images/$v-$k.config.tmp"; die "[$v] cannot store the image in $cache/images"; }
	# Keep only trees others derive from; the rest is 300+ MB of objects each.
	if ! awk -v n="$v" '$1 !~ /^#/ && $6 == n { f = 1 } END { exit !f }' "$here/variants"; then
		rm -rf "$tree"
	fi
	# Drop stale trees and images of this variant (older keys).
	# (exactly 16 hex digits after the name: "7.2-base-" must not match "7.2-base-x-")
	local hex16='[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'
	find "$cache/trees" -maxdepth 1 -name "$v-$hex16" ! -name "$v-$k" -exec rm -rf {} + 2>/dev/null || true
	find "$cache/images" -maxdepth 1 -name "$v-$hex16.*" ! -name "$v-$k.*" -delete 2>/dev/null || true
	ln -sfn "$img" "$out/$v.vmlinux"
	ln -sfn "$cache/images/$v-$k.config" "$out/$v.config"
	echo "kernels: [$v] built in $((SECONDS - start))s"
	exec {myfd}>&-
}

case "${1:-check}" in
--key)
	need_sources "$2"
	key "$2"
	exit 0 ;;
--verify)
	# the cached image of a variant against its checksum
	need_sources "$2"
	img=$(built_image "$2")
	[ -f "$img" ] || { echo "kernels: [$2] not cached" >&2; exit 1; }
	verify_entry "$img" || { echo "kernels: [$2] $img: damaged (checksum mismatch)" >&2; exit 1; }
	echo "kernels: [$2] $img: intact"
	exit 0 ;;
--list)
	# shellcheck disable=SC2046
	need_sources $(all_variants)
	for v in $(all_variants); do
		img=$(built_image "$v")
		if [ -f "$img" ]; then echo "$v  cached  $img"; else echo "$v  missing"; fi
	done
	exit 0 ;;
all)	set -- $(all_variants) ;;
check|demo)
	set -- $(set_variants "$1") ;;
esac
need_sources "$@"
for v in "$@"; do build_one "$v"; done
