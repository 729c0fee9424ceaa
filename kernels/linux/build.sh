#!/bin/bash
# Build the real arm64 vmlinux images hotsim is tested and demonstrated on.
#
#   kernels/linux/build.sh all            every variant in kernels/linux/variants
#   kernels/linux/build.sh base null ...  just these (and what they derive from)
#   kernels/linux/build.sh --list         variants and their cache state
#   kernels/linux/build.sh --key VARIANT  its cache key
#
# Source: Debian's linux-source-6.1 tarball (/usr/src/linux-source-6.1.tar.xz).
# Outputs are cached outside the checkout in $HOTSIM_CACHE (default
# ~/.cache/hotsim), keyed by a hash of the source version, toolchain, config
# fragments, patches and this script, so a rerun with nothing changed is
# instant. build/kernels/<variant>.vmlinux in the checkout links to the cache.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${HOTSIM_CACHE:-$HOME/.cache/hotsim}
tarball=${HOTSIM_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${HOTSIM_JOBS:-$(nproc)}
out="$repo/build/kernels"

die() { echo "kernels: $*" >&2; exit 1; }

[ -f "$tarball" ] || die "$tarball not found (apt-get install linux-source-6.1)"
mkdir -p "$cache/images" "$cache/trees" "$out"

# One kernel build at a time on this machine, whoever asks.
exec 9>"$cache/.lock"
flock 9

# Bump when the way images are built changes (what the cache key cannot see
# otherwise); editing messages or progress output need not bump it.
RECIPE=1

# Reproducible banner and build id: the null pair must be bit-identical code.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=hotsim KBUILD_BUILD_HOST=hotsim KBUILD_BUILD_VERSION=1
export LC_ALL=C

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || stat -c %s-%Y "$tarball")
pristine="$cache/src/linux-source-6.1"

unpack() {
	if [ "$(cat "$pristine/.hotsim-srcver" 2>/dev/null)" = "$srcver" ]; then
		return
	fi
	echo "kernels: unpacking $tarball ($srcver)"
	rm -rf "$cache/src"
	mkdir -p "$cache/src"
	tar -C "$cache/src" -xf "$tarball"
	[ -d "$pristine" ] || die "$tarball did not unpack to linux-source-6.1/"
	echo "$srcver" > "$pristine/.hotsim-srcver"
}

# variant fields: name toolchain fragments patches parent
field() { awk -v n="$1" -v f="$2" '$1 == n && $1 !~ /^#/ { print $f; exit }' "$here/variants"; }
all_variants() { awk '$1 !~ /^#/ && NF >= 5 { print $1 }' "$here/variants"; }

toolchain_id() {
	case "$1" in
	gcc)	aarch64-linux-gnu-gcc --version | head -1; aarch64-linux-gnu-ld --version | head -1 ;;
	clang)	clang --version | head -1; ld.lld --version | head -1 ;;
	*)	die "unknown toolchain $1" ;;
	esac
}

make_args() {
	case "$1" in
	gcc)	echo "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" ;;
	clang)	echo "ARCH=arm64 LLVM=1" ;;
	esac
}

# Cache key of a variant: everything its bytes depend on.
key() {
	local v=$1 tc frags patches parent
	tc=$(field "$v" 2); frags=$(field "$v" 3); patches=$(field "$v" 4); parent=$(field "$v" 5)
	[ -n "$tc" ] || die "no variant '$v' in kernels/linux/variants"
	{
		echo "$srcver"; echo "$v"; toolchain_id "$tc"
		echo "recipe $RECIPE"; make_args "$tc"; env | grep '^KBUILD_BUILD_' | sort
		for f in ${frags//,/ }; do cat "$here/$f.config"; done
		[ "$patches" = - ] || for p in ${patches//,/ }; do cat "$here/patches/$p.diff"; done
		[ "$parent" = - ] || key "$parent"
	} | sha256sum | cut -c1-16
}

# Print a progress line every 15 s while make runs (counts Kbuild steps).
progress() {
	local name=$1 log=$2 pid=$3 start=$SECONDS expect=${4:-0} n
	while kill -0 "$pid" 2>/dev/null; do
		sleep 15
		kill -0 "$pid" 2>/dev/null || break
		n=$(grep -c '^  [A-Z]' "$log" 2>/dev/null || true)
		if [ "$expect" -gt 0 ]; then
			echo "kernels: [$name] $n/~$expect steps, $((SECONDS - start))s"
		else
			echo "kernels: [$name] $n steps, $((SECONDS - start))s"
		fi
	done
}

run_make() {
	local name=$1 tree=$2 log=$3 tc=$4; shift 4
	local expect=0
	[ -f "$cache/steps-$name" ] && expect=$(cat "$cache/steps-$name")
	# shellcheck disable=SC2046
	make -C "$tree" -j"$jobs" $(make_args "$tc") "$@" >>"$log" 2>&1 &
	local pid=$!
	progress "$name" "$log" "$pid" "$expect" &
	local ppid=$!
	if ! wait "$pid"; then
		kill "$ppid" 2>/dev/null || true
		tail -25 "$log" >&2
		die "[$name] build failed; full log: $log"
	fi
	kill "$ppid" 2>/dev/null || true
	wait "$ppid" 2>/dev/null || true
	grep -c '^  [A-Z]' "$log" > "$cache/steps-$name" || true
}

# Every option a fragment sets must survive olddefconfig, or the image would
# silently not be what its name says.
verify_config() {
	local v=$1 cfg=$2 frags=$3 line k val got bad=0 f
	# later fragments override earlier ones: check each key's last value
	for f in ${frags//,/ }; do cat "$here/$f.config"; done |
		awk -F= '/^CONFIG_/ { last[$1] = $0; order[$1] = NR } END { for (k in last) print order[k] " " last[k] }' |
		sort -n | cut -d' ' -f2- > "$cfg.expected"
	while IFS= read -r line; do
		k=${line%%=*}; val=${line#*=}
		got=$(grep -E "^$k=|^# $k is not set" "$cfg" || true)
		if [ "$val" = n ]; then
			case "$got" in ''|*"not set") ;; *) echo "kernels: [$v] $line did not stick: $got" >&2; bad=1 ;; esac
		elif [ "$got" != "$line" ]; then
			echo "kernels: [$v] $line did not stick: ${got:-unset}" >&2; bad=1
		fi
	done < "$cfg.expected"
	rm -f "$cfg.expected"
	[ $bad = 0 ] || die "[$v] config fragment not honoured (see above)"
}

# Copy a finished tree cheaply: source files are hard links to the pristine
# unpack (GNU patch replaces files rather than writing through links), build
# products are real copies with their timestamps, so make rebuilds only what
# a patch touches.
clone_tree() {
	local from=$1 to=$2
	rm -rf "$to"
	cp -al "$pristine" "$to"
	(cd "$from" && find . \( -type f -links 1 -o -type l \) -print0 |
		tar --null -T - -cf -) | tar -C "$to" -xf -
}

built_image() { echo "$cache/images/$1-$(key "$1").vmlinux"; }

build_one() {
	local v=$1 k tc frags patches parent tree img log cfgs start
	k=$(key "$v"); img="$cache/images/$v-$k.vmlinux"
	if [ -f "$img" ]; then
		ln -sfn "$img" "$out/$v.vmlinux"
		ln -sfn "$cache/images/$v-$k.config" "$out/$v.config"
		echo "kernels: [$v] cached ($img)"
		return
	fi
	tc=$(field "$v" 2); frags=$(field "$v" 3); patches=$(field "$v" 4); parent=$(field "$v" 5)
	tree="$cache/trees/$v-$k"; log="$cache/images/$v-$k.log"; : > "$log"
	start=$SECONDS
	unpack
	if [ "$parent" != - ]; then
		build_one "$parent"
		local ptree="$cache/trees/$parent-$(key "$parent")"
		[ -d "$ptree" ] || { rm -f "$(built_image "$parent")"; build_one "$parent"; }
		echo "kernels: [$v] incremental build from $parent"
		clone_tree "$ptree" "$tree"
		if [ "$patches" = - ]; then
			# Same source: recompile the hot-path objects and relink.
			find "$tree/kernel/sched" "$tree/kernel/irq" "$tree/kernel/entry" \
			     "$tree/arch/arm64/kernel" "$tree/drivers/irqchip" \
			     -name '*.o' -delete 2>/dev/null || true
		fi
	else
		echo "kernels: [$v] full build ($tc, fragments: $frags) -- a few minutes"
		rm -rf "$tree"
		cp -al "$pristine" "$tree"
		cfgs=""
		for f in ${frags//,/ }; do cfgs="$cfgs $here/$f.config"; done
		# shellcheck disable=SC2086
		cat $cfgs > "$tree/.hotsim-fragment"
		# shellcheck disable=SC2046
		KCONFIG_ALLCONFIG="$tree/.hotsim-fragment" make -s -C "$tree" $(make_args "$tc") allnoconfig >>"$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "[$v] allnoconfig failed; log: $log"; }
		verify_config "$v" "$tree/.config" "$frags"
	fi
	if [ "$patches" != - ]; then
		for p in ${patches//,/ }; do
			patch -s -p1 -d "$tree" < "$here/patches/$p.diff" >>"$log" 2>&1 ||
				die "[$v] patch $p.diff does not apply; log: $log"
		done
	fi
	run_make "$v" "$tree" "$log" "$tc" vmlinux
	cp "$tree/vmlinux" "$img.tmp"
	cp "$tree/.config" "$cache/images/$v-$k.config"
	mv "$img.tmp" "$img"
	# Keep only trees others derive from; the rest is 300+ MB of objects each.
	if ! awk -v n="$v" '$1 !~ /^#/ && $5 == n { f = 1 } END { exit !f }' "$here/variants"; then
		rm -rf "$tree"
	fi
	# Drop stale trees and images of this variant (older keys).
	# (exactly 16 hex digits after the name: "base-" must not match "base-btf-")
	local hex16='[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'
	find "$cache/trees" -maxdepth 1 -name "$v-$hex16" ! -name "$v-$k" -exec rm -rf {} + 2>/dev/null || true
	find "$cache/images" -maxdepth 1 -name "$v-$hex16.*" ! -name "$v-$k.*" -delete 2>/dev/null || true
	ln -sfn "$img" "$out/$v.vmlinux"
	ln -sfn "$cache/images/$v-$k.config" "$out/$v.config"
	echo "kernels: [$v] built in $((SECONDS - start))s: $img"
}

case "${1:-all}" in
--key)
	key "$2"
	exit 0 ;;
--list)
	for v in $(all_variants); do
		img=$(built_image "$v")
		if [ -f "$img" ]; then echo "$v  cached  $img"; else echo "$v  missing"; fi
	done
	exit 0 ;;
all)	set -- $(all_variants) ;;
esac
for v in "$@"; do build_one "$v"; done
