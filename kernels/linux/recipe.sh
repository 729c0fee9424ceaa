# shellcheck shell=bash disable=SC2154
# The recipe every hotsim kernel build follows - the project's own images
# (kernels/linux/build.sh) and a developer's pairs (scripts/hotsim-pair) -
# sourced by both, so the two cannot drift apart: reproducible identity, the
# compiler's make arguments, the config merge and its check, make with
# progress lines, and the cheap copy of a source tree.
#
# The caller sets: recipe_prefix (progress and error lines start with it),
# recipe_steps (a directory remembering each build's step count), jobs
# (make -j), and defines die().

# Reproducible banner and build id: the same source, config and compiler give
# the same bytes (the null pair is bit-identical code). LOCALVERSION set (to
# nothing) keeps setlocalversion from appending "+" for a git tree.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=hotsim KBUILD_BUILD_HOST=hotsim KBUILD_BUILD_VERSION=1
export LOCALVERSION=
export LC_ALL=C

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

# Print a progress line every 30 s while make runs (counts Kbuild steps).
progress() {
	local name=$1 log=$2 pid=$3 start=$SECONDS expect=${4:-0} n i
	while kill -0 "$pid" 2>/dev/null; do
		# a second at a time: killing this loop leaves its sleep running,
		# holding what it inherited - the image's build lock among them;
		# a 30 s sleep made the next build of a derived image wait for it
		for ((i = 0; i < 30; i++)); do
			sleep 1
			kill -0 "$pid" 2>/dev/null || return 0
		done
		n=$(grep -c '^  [A-Z]' "$log" 2>/dev/null || true)
		if [ "$expect" -gt 0 ]; then
			echo "$recipe_prefix [$name] $n/~$expect steps, $((SECONDS - start))s" >&2
		else
			echo "$recipe_prefix [$name] $n steps, $((SECONDS - start))s" >&2
		fi
	done
}

# What else is on PATH must not reach the image. Kconfig records the
# version of any rustc it finds (CONFIG_RUSTC_VERSION and friends, 6.12
# and later), which changes the embedded config and with it the layout
# - a machine with rustup gave other bytes than a fresh root. No hotsim
# config enables Rust, so the pins give every machine the bytes a
# machine without rustc gives: what a cache key has always meant (the
# pins are therefore not part of the key).
host_pins() { echo "RUSTC=hotsim-no-rustc BINDGEN=hotsim-no-bindgen HOSTRUSTC=hotsim-no-rustc"; }

# run_make NAME TREE LOG TOOLCHAIN [make arguments...]: make in TREE (with
# O=DIR among the arguments for an out-of-tree build), output to LOG.
run_make() {
	local name=$1 tree=$2 log=$3 tc=$4; shift 4
	local expect=0
	[ -f "$recipe_steps/steps-$name" ] && expect=$(cat "$recipe_steps/steps-$name")
	# shellcheck disable=SC2046
	# a build that hangs is stopped (HOTSIM_BUILD_TIMEOUT seconds, 90 minutes)
	timeout "${HOTSIM_BUILD_TIMEOUT:-5400}" make -C "$tree" -j"$jobs" $(make_args "$tc") $(host_pins) "$@" >>"$log" 2>&1 &
	local pid=$!
	progress "$name" "$log" "$pid" "$expect" &
	local ppid=$!
	local rc=0
	wait "$pid" || rc=$?
	if [ "$rc" != 0 ]; then
		kill "$ppid" 2>/dev/null || true
		tail -25 "$log" >&2
		[ "$rc" = 124 ] && die "[$name] build did not finish in ${HOTSIM_BUILD_TIMEOUT:-5400} s; full log: $log"
		die "[$name] build failed; full log: $log"
	fi
	kill "$ppid" 2>/dev/null || true
	wait "$ppid" 2>/dev/null || true
	grep -c '^  [A-Z]' "$log" > "$recipe_steps/steps-$name" || true
}

# merge_config TREE TOOLCHAIN LOG FRAGMENT BASE [make arguments...]: BASE
# (allnoconfig, or alldefconfig for a variant built on the defconfig) with
# FRAGMENT's options forced (KCONFIG_ALLCONFIG; a later line wins over an
# earlier one), olddefconfig'd by Kconfig.
merge_config() {
	local tree=$1 tc=$2 log=$3 frag=$4 base=$5; shift 5
	# shellcheck disable=SC2046
	KCONFIG_ALLCONFIG="$frag" make -s -C "$tree" $(make_args "$tc") $(host_pins) "$@" "$base" >>"$log" 2>&1
}

# config_misses NAME CONFIG FRAGMENT...: every option the fragments set must
# survive the merge, or the image would silently not be what its name says.
# Prints each one that did not stick; returns 1 if any.
config_misses() {
	local v=$1 cfg=$2 line k val got bad=0; shift 2
	# later fragments override earlier ones: check each key's last value
	cat "$@" |
		awk -F= '/^CONFIG_/ { last[$1] = $0; order[$1] = NR } END { for (k in last) print order[k] " " last[k] }' |
		sort -n | cut -d' ' -f2- > "$cfg.expected"
	while IFS= read -r line; do
		k=${line%%=*}; val=${line#*=}
		got=$(grep -E "^$k=|^# $k is not set" "$cfg" || true)
		if [ "$val" = n ]; then
			case "$got" in ''|*"not set") ;; *) echo "$recipe_prefix [$v] $line did not stick: $got" >&2; bad=1 ;; esac
		elif [ "$got" != "$line" ]; then
			echo "$recipe_prefix [$v] $line did not stick: ${got:-unset}" >&2; bad=1
		fi
	done < "$cfg.expected"
	rm -f "$cfg.expected"
	return $bad
}

# link_tree SRC DST: DST as hard links to SRC's files (cheap, read-only
# sharing), or - where the two are on different filesystems or mounts, as a
# cache bound into a container and /tmp on a tmpfs are - a copy (reflinked
# where the filesystem can).
link_tree() {
	local src=$1 dst=$2
	cp -al "$src" "$dst" 2>/dev/null && return 0
	rm -rf "$dst"
	cp -a --reflink=auto "$src" "$dst"
}

# clone_tree FROM TO PRISTINE: copy a finished tree cheaply: source files are
# hard links to the pristine unpack (GNU patch replaces files rather than
# writing through links), build products are real copies with their
# timestamps, so make rebuilds only what a patch touches.
clone_tree() {
	local from=$1 to=$2 pristine=$3
	rm -rf "$to"
	link_tree "$pristine" "$to"
	(cd "$from" && find . \( -type f -links 1 -o -type l \) -print0 |
		tar --null -T - -cf -) | tar -C "$to" -xf -
}

