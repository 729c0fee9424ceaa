#!/bin/sh
# make demo: hotsim on the real 7.2 kernel pairs of the seeds' patches
# (kernels/linux/build.sh demo).
set -eu
K=build/kernels
H=./hotsim
run() { echo; echo "\$ $*"; "$@"; }

run $H image $K/7.2-base.vmlinux --cpu a53,a55
run $H compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux --state warm
run $H compare $K/7.2-base.vmlinux $K/7.2-irq-runtime-const.vmlinux --path irq-el1,irq-el0 \
	--explain irq-el1 --cpu a55 --limit 40
run $H compare $K/7.2-base.vmlinux $K/7.2-percpu-nopreempt.vmlinux \
	--path syscall.getpid,syscall.invalid,percpu
echo
echo "More: hotsim paths $K/7.2-base.vmlinux | hotsim trace $K/7.2-base.vmlinux cswitch --cpu a55 | hotsim help"
