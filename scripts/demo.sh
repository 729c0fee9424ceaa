#!/bin/sh
# make demo: hotsim on the real kernel pairs built by `make kernels`.
set -eu
K=build/kernels
H=./hotsim
run() { echo; echo "\$ $*"; "$@"; }

run $H image $K/7.2-base.vmlinux --cpu a53,a55
run $H compare $K/7.2-base.vmlinux $K/7.2-cswitch-inline.vmlinux --state warm
run $H compare $K/7.2-base.vmlinux $K/7.2-irq-runtime-const.vmlinux --path irq-el1,irq-el0 --explain irq-el1 --cpu a55 --limit 40
echo
echo "More: hotsim paths $K/7.2-base.vmlinux | hotsim trace $K/7.2-base.vmlinux cswitch --cpu a55 | hotsim models"
