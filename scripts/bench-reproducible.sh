#!/bin/sh
# make bench, its last part: how often a machine of several CPUs boots the
# same when two boot at once, each into an empty cache (a probability, so
# measured here, not asserted by a test: QEMU 7.2's icount race is narrowed
# by a host CPU for each QEMU, not closed - docs/booted-state.md). PAIRS
# pairs of boots per case (default 4); prints the distinct snapshots.
set -eu
K=build/kernels
PAIRS=${PAIRS:-4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# perf's Debian build is fetched once, into the real cache
programs=${HOTSIM_CACHE:-$HOME/.cache/hotsim}/programs
mkdir -p "$programs"

distinct() {	# NAME ARGS...: the snapshots of PAIRS pairs of boots of ARGS
	name=$1
	shift
	: > "$tmp/sums"
	i=0
	while [ "$i" -lt "$PAIRS" ]; do
		for s in a b; do
			mkdir -p "$tmp/$i$s"
			ln -s "$programs" "$tmp/$i$s/programs"
			HOTSIM_CACHE=$tmp/$i$s timeout 900 ./hotsim run "$@" --noise 0 > /dev/null 2>&1 &
		done
		wait
		for s in a b; do
			sha256sum "$tmp/$i$s"/snapshots/*.snap | cut -c1-16 >> "$tmp/sums"
			rm -rf "${tmp:?}/$i$s"
		done
		i=$((i + 1))
	done
	echo "  $name: $(sort -u "$tmp/sums" | wc -l) distinct snapshot(s) in $(wc -l < "$tmp/sums") boots"
}

echo
echo "machines booted two at a time, each into an empty cache (a probability, not a test):"
distinct "7.2-base, four A53s, the workload pinned to CPU 3, sched-pipe" $K/7.2-base.vmlinux --cpu a53 --smp 4 \
	--taskset 3 --path sched-pipe
distinct "7.2-base, four A53s, perf bench sched pipe" $K/7.2-base.vmlinux --cpu a53 --smp 4 --workload perf
