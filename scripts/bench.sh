#!/bin/sh
# make bench: throughput and latency on the real images (not a test).
set -eu
B=${BUILD:-build}
echo "  CC      $B/bench"
cc -std=c11 -D_GNU_SOURCE -O2 -g -Iinclude -Isim $(pkg-config --cflags capstone) -o $B/bench tests/bench/bench.c \
	$B/libhotsim.a $(pkg-config --libs unicorn capstone libelf) -lm
$B/bench build/kernels/7.2-base.vmlinux build/kernels/7.2-cswitch-inline.vmlinux ./hotsim build/kernels/debian-7.2.vmlinux
