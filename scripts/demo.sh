#!/bin/sh
# make demo: hotsim on the real 7.2 kernel and the seeds' three patches
# (kernels/linux/build.sh demo). The first run boots each image under
# QEMU once per core (seconds each; cached in ~/.cache/hotsim).
set -eu
K=build/kernels
H=./hotsim
run() { echo; echo "\$ $*"; "$@"; }

run $H paths $K/7.2-base.vmlinux --cpu a53 --path sched-pipe
run $H compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux --state warm \
	--path sched-pipe,cswitch,irq-el0 --noise 8
run $H compare $K/7.2-base.vmlinux $K/7.2-irq-runtime-const.vmlinux --state warm \
	--path irq-el1,sched-pipe --explain irq-el1 --cpu a55 --limit 20
run $H compare $K/7.2-base.vmlinux $K/7.2-percpu-nopreempt.vmlinux --state warm \
	--path syscall.getpid,syscall.invalid,percpu
run $H validate $K/7.2-base.vmlinux --cpu a53
echo
echo "More: hotsim image $K/7.2-base.vmlinux | hotsim trace $K/7.2-base.vmlinux cswitch --cpu a55 | hotsim help"
