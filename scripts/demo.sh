#!/bin/sh
# make demo: hotsim on the real 7.2 kernel and the seeds' patches
# (kernels/linux/build.sh demo): the examples marked "demo" in README.md and
# docs/*.md, each printed as the document shows it (scripts/readme-examples;
# make check compares every example with its document byte for byte). percpu-nopreempt
# changes a header nearly every file includes, so its build is a second
# full build (~6 min here): make check builds it; the demo shows it once
# it is there. The first run boots each image under QEMU once per core
# (seconds each; cached in ~/.cache/hotsim).
set -eu
HOTSIM_BIN=./hotsim scripts/readme-examples --demo
echo
echo "More: hotsim image build/kernels/7.2-base.vmlinux | hotsim trace build/kernels/7.2-base.vmlinux cswitch --cpu a55 | hotsim help"
