#!/bin/sh
# san-kernels.sh - the sanitizer build's hotsim (ASan+UBSan) over the real
# images: part of make check's sanitizer pass.
#
# The sanitizer pass runs every test suite (scripts/run-tests.sh, the real-
# kernel tests skipped, as in make test), then these commands: one per
# thing the real images make the code do that the fixtures cannot - booted
# replay and its validation against QEMU (the MMU, page faults, the abort
# entry, every path), sampling and noise layouts, the 16K and 64K walkers,
# a machine of two CPUs, a planted boot with a shadow call stack, the
# synthesized state of an old line, a distro image's symbol tables, opt-in
# cores, error exits. The
# normal pass has already run every real-kernel test with the same code;
# running them all again under the sanitizers took 40+ minutes of CI's 60
# (a sanitized replay is 2-3x slower) and found nothing these do not reach.
#
# Usage: scripts/san-kernels.sh BUILD_DIR (the sanitizer build's, build-san)
# Every command's output is dropped; a sanitizer report, or an exit status
# other than the one expected, prints the report's first 40 lines and fails.
set -eu
bin=$1/hotsim
[ -x "$bin" ] || { echo "san-kernels: $bin missing" >&2; exit 2; }
K=build/kernels
log=$(mktemp /tmp/hotsim-san.XXXXXX)
trap 'rm -f "$log" /tmp/hotsim-san.svg /tmp/hotsim-san-shard-*.json' EXIT
here=$(cd "$(dirname "$0")" && pwd)
# 23: a sanitizer's exit, told apart from hotsim's own 0/1/2
export ASAN_OPTIONS=detect_leaks=1:exitcode=23 UBSAN_OPTIONS=print_stacktrace=1:exitcode=23 \
	LSAN_OPTIONS=suppressions=$here/lsan.supp:exitcode=23
n=0
# san WANT ARGS: hotsim ARGS must exit WANT, clean (its stdout into $to, if set)
san() {
	want=$1; shift
	echo "  SAN     hotsim $*"
	set +e
	"$bin" "$@" >"${to:-/dev/null}" 2>"$log"
	rc=$?
	set -e
	if [ $rc -ne "$want" ] || grep -q 'Sanitizer\|runtime error:' "$log"; then
		head -40 "$log" >&2
		echo "san-kernels: hotsim $* exited $rc (expected $want)" >&2
		exit 1
	fi
	n=$((n + 1))
}
for k in 7.2-base 7.2-cswitch-inline 7.2-64k debian-7.2-16k 6.12-clang-minimal 6.1-base debian-7.2 debian-6.12 \
	6.12-board; do
	[ -r "$K/$k.vmlinux" ] || { echo "san-kernels: $K/$k.vmlinux missing (make kernels)" >&2; exit 2; }
done
san 0 validate $K/7.2-base.vmlinux --cpu a55
san 0 compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux --cpu a53 --noise 2 \
	--explain cswitch --timeline cswitch --svg /tmp/hotsim-san.svg
san 0 compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux --cpu a73 --path sched-pipe,fork,mmap \
	--format json
# a compare split in two and merged (the shards' JSON read back)
for s in 1 2; do
	to=/tmp/hotsim-san-shard-$s.json
	san 0 compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux \
		--cpu a53,a55 --path cswitch,percpu --noise 1 --format markdown --shard $s/2
	to=
done
san 0 merge /tmp/hotsim-san-shard-2.json /tmp/hotsim-san-shard-1.json
san 0 validate $K/debian-7.2-16k.vmlinux --cpu a55 --path fault.page,mmap,syscall.getpid,irq-el0
san 0 validate $K/7.2-64k.vmlinux --cpu a55 --path fault.page,mmap,cswitch,irq-el1
san 0 validate $K/6.12-clang-minimal.vmlinux --cpu a53 --path sched-pipe,irq-el0,cswitch
san 0 run $K/6.1-base.vmlinux --cpu a73 --state-source synthesized --explain irq-el1
san 0 run $K/debian-7.2.vmlinux --cpu all --path syscall.getpid,percpu --format markdown
san 0 image $K/debian-6.12.vmlinux --list --limit 50
# a machine of 2 CPUs: its snapshot's CPU records, and every CPU replayed
san 0 state $K/7.2-base.vmlinux --cpu a53 --smp 2 --point pipe --ops 4 --format json
san 0 state $K/6.12-board.vmlinux --cpu a72 --smp 2 --cgroup session --cmdline audit=1 --point unix --ops 6 \
	--turns model --format json
san 0 compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux --cpu a53 --smp 2 --path sched-pipe,cswitch \
	--noise 2 --format json
san 2 state $K/7.2-base.vmlinux --cpu a53 --point nowhere
san 0 validate $K/7.2-base.vmlinux --cpu a53 --smp 2 --path sched-pipe
# a Debian program's boot: its archive, the library's svc, the op's end in its process
san 0 run $K/7.2-base.vmlinux --cpu a53 --smp 2 --path sched-pipe,perf.sched-pipe --taskset 1 --noise 2
san 0 validate $K/7.2-base.vmlinux --cpu a53 --workload perf
# the workload in a login's cgroup with auditing on (the boards' setting),
# a parameter hotsim's boot owns refused, and a kernel without cgroups
# refusing them (the failure the normal pass recorded)
san 0 run $K/6.12-board.vmlinux --cpu a53 --cgroup session --cmdline audit=1 --path syscall.getppid,unix.stream
san 2 run $K/6.12-board.vmlinux --cpu a53 --cmdline 'audit=1 rdinit=/bin/sh'
# a board's machine booted twice: each boot's rows, the cells their mean
san 0 fidelity $K/6.12-board.vmlinux --board j721e --boots 2 --format json
# the fit: the machine's boot replayed once, costed again at each trial
san 0 fit $K/6.12-board.vmlinux --board am62x --boots 1
san 0 run $K/7.2-base.vmlinux --cpu a53 --cgroup session --path syscall.getppid
san 2 compare $K/7.2-base.vmlinux kernels/fixtures/build/minikernel.elf --cpu a53 --path cswitch \
	--explain cswitch
san 2 run $K/7.2-base.vmlinux --cpu a53 --path no-such-path
echo "san-kernels: $n commands clean under ASan+UBSan"
