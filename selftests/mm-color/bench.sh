#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mm-color benchmarks: make check-vm ARCH=... VM_SUITES=mm-color/bench.sh
. ../lib/tap.sh
tap_plan 1
if insmod /modules/mm_color.ko way_size=65536 pool_mb=128; then
	if ./bench > bench.out 2>&1; then
		sed 's/^/# /' bench.out
		tap_ok "benchmarks ran"
	else
		sed 's/^/# /' bench.out
		tap_not_ok "benchmarks ran"
	fi
	rmmod mm_color
else
	tap_not_ok "benchmarks ran"
fi
tap_done
