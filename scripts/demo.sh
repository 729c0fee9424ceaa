#!/bin/sh
# make demo: hotsim on the real 7.2 kernel and the seeds' patches
# (kernels/linux/build.sh demo). percpu-nopreempt changes a header nearly
# every file includes, so its build is a second full build (~6 min here):
# make check builds it; the demo shows it once it is there. The first run
# boots each image under QEMU once per core (seconds each; cached in
# ~/.cache/hotsim).
set -eu
K=build/kernels
H=./hotsim
run() { echo; echo "\$ $*"; "$@"; }

run $H paths $K/7.2-base.vmlinux --cpu a53 --path sched-pipe
run $H compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux --state warm \
	--path sched-pipe,cswitch,irq-el0 --noise 8
run $H compare $K/7.2-base.vmlinux $K/7.2-irq-runtime-const.vmlinux --state warm \
	--path irq-el1,sched-pipe --explain irq-el1 --cpu a55 --limit 20
if [ -e $K/7.2-percpu-nopreempt.vmlinux ]; then
	run $H compare $K/7.2-base.vmlinux $K/7.2-percpu-nopreempt.vmlinux --state warm \
		--path syscall.getpid,syscall.invalid,percpu
else
	echo
	echo "(seed 2, percpu-nopreempt, is not built yet: its patch changes a header nearly every"
	echo " file includes, a second full build of ~6 min; make check or"
	echo " kernels/linux/build.sh 7.2-percpu-nopreempt builds it and the demo then shows it)"
fi
run $H validate $K/7.2-base.vmlinux --cpu a53
echo
echo "More: hotsim image $K/7.2-base.vmlinux | hotsim trace $K/7.2-base.vmlinux cswitch --cpu a55 | hotsim help"
