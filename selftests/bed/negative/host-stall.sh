#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A stall of the host is not a lockup of the guest: while this script
# keeps CPU 0 busy, selftests/bed/negative/run (arm64) stops the whole
# runner (QEMU and scripts/vm/run's watcher) as a paused host would. The
# guest's clock jumps, and often its soft lockup detector fires and the
# guest panics; the runner must then boot it once more, and the second
# boot, which nothing stops, passes. The spin lasts until the clock has
# run 12 s without a jump, so that the host can pause it more than once.
. ../../lib/tap.sh
tap_plan 1
taskset -c 0 sh -c 'while :; do :; done' &
spin=$!
tap_diag "host stall window: CPU 0 busy until 12 s pass without a jump of the clock"
quiet=0 jumps=0
last=$(cut -d. -f1 /proc/uptime)
while [ $quiet -lt 12 ]; do
	sleep 1
	now=$(cut -d. -f1 /proc/uptime)
	if [ $((now - last)) -gt 5 ]; then
		jumps=$((jumps + 1)) quiet=0
	else
		quiet=$((quiet + 1))
	fi
	last=$now
done
tap_check "CPU 0 spun until its clock ran 12 s without a jump ($jumps jumps)" kill $spin
wait $spin 2> /dev/null
tap_done
