#!/bin/sh
# make demo: hotsim on the real kernel pairs built by `make kernels`.
set -eu
K=build/kernels
H=./hotsim
run() { echo; echo "\$ $*"; "$@"; }

run $H image $K/base.vmlinux --cpu a53,a55
run $H compare $K/base.vmlinux $K/cswitch-inline.vmlinux --state warm
run $H compare $K/base.vmlinux $K/irq-direct.vmlinux --path irq-el1,irq-el0 --explain irq-el1 --cpu a55 --limit 40
echo
echo "More: hotsim paths $K/base.vmlinux | hotsim trace $K/base.vmlinux cswitch --cpu a55 | hotsim models"
