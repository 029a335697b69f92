#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The LLC model's repeatability workload (selftests/llc-model/repeat boots
# it twice and compares the plugin's TSVs): a short run of llcpat's
# patterns on both CPUs, over anonymous memory, so that the windows hold
# conflict misses, evictions by the other CPU and DRAM queueing. The
# guest checks only that they ran.
. ../lib/tap.sh

LLC=1048576,16,64
tap_plan 2
if [ "$CG_LLC" != 1 ]; then
	tap_skip "same" "booted without the LLC model"
	tap_skip "exceeds" "booted without the LLC model"
	exit 0
fi
pattern() {	# pattern DESC ARGS...
	_d=$1
	shift
	./llcpat --llc $LLC "$@" > pat.out 2>&1
	_rc=$?
	sed 's/^/# /' pat.out
	tap_check "$_d (status $_rc)" test $_rc -eq 0 -a "$(grep -c '^llcpat ' pat.out)" -gt 0
}
pattern "same: CPU 0 and CPU 1 over 384 KiB each" \
	--pattern same --window 1 --size 384 --sweeps 2
pattern "exceeds: CPU 0 over 1.5 MiB" --pattern exceeds --window 2 --size 1536 --sweeps 1
tap_done
