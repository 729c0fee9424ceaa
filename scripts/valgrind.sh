#!/bin/sh
# valgrind memcheck on the CLI over the real images: no leaks, no invalid
# accesses (part of make check). Bounded: a few representative commands,
# including error exits; the booted rows with 8 samples and one noise
# layout (every code path a default run takes - sampling, the band, the
# explain - at an eighth of the volume: memcheck runs ~30x slower, and the
# default volume took 9 of CI's minutes).
set -eu
K=build/kernels
vg() {
	want=$1; shift
	echo "  VALGRIND hotsim $*"
	set +e
	valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 -q \
		./hotsim "$@" >/dev/null 2>/tmp/hotsim-valgrind.log
	rc=$?
	set -e
	# hotsim's own one-line error is expected for error cases; anything
	# valgrind adds is not
	if [ $rc -ne "$want" ] || grep -q '^==' /tmp/hotsim-valgrind.log; then
		head -40 /tmp/hotsim-valgrind.log >&2
		echo "valgrind: hotsim $* exited $rc (expected $want)" >&2
		exit 1
	fi
}
vg 0 image $K/7.2-base.vmlinux --list --limit 50
vg 0 paths $K/debian-6.1.vmlinux --cpu a73
vg 0 compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux --cpu a55 --path cswitch,percpu \
	--explain cswitch --timeline cswitch --svg /tmp/hotsim-valgrind.svg --samples 8 --noise 1
vg 0 compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux --cpu a53 --path cswitch,irq-el1 \
	--format markdown --samples 8 --noise 1
vg 0 run $K/7.2-base.vmlinux --cpu a53 --path syscall.getpid,cswitch --explain cswitch --format json --samples 8
vg 0 state $K/7.2-base.vmlinux --cpu a53 --smp 2 --point pipe --ops 4
vg 0 state $K/7.2-base.vmlinux --cpu a53 --smp 2 --point pipe --ops 4 --turns wakee
vg 0 state $K/6.12-board.vmlinux --cpu a72 --smp 2 --cgroup session --cmdline audit=1 --point unix --ops 4 \
	--turns model
vg 0 run $K/7.2-base.vmlinux --cpu a55 --smp 2 --path sched-pipe,syscall.getpid --samples 8 --noise 2
vg 0 run $K/7.2-base.vmlinux --cpu a53 --smp 2 --path sched-pipe,perf.sched-pipe --taskset 1 --samples 8 --noise 2
vg 0 run $K/6.12-board.vmlinux --cpu a53 --cgroup session --cmdline audit=1 --path syscall.getppid --samples 8
vg 0 run $K/6.12-board.vmlinux --cpu a72 --smp 2 --cgroup session --cmdline audit=1 --boot 1 --path sched-pipe \
	--samples 8 --noise 1
vg 2 run $K/6.12-board.vmlinux --cmdline kaslr
vg 2 run $K/6.12-board.vmlinux --cgroup nowhere
vg 0 snippet kernels/fixtures/build/user_sum.elf --entry sum --cpu a55 --iterations 4
vg 2 compare $K/7.2-base.vmlinux kernels/fixtures/build/minikernel.elf --cpu a53 --path cswitch --samples 8 \
	--explain cswitch
vg 2 image kernels/fixtures/build/stripped.elf
vg 2 compare $K/7.2-base.vmlinux /nonexistent
echo "valgrind: clean"
