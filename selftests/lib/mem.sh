# SPDX-License-Identifier: GPL-2.0
# Memory readings for leak checks in the guest suites (busybox sh).

# mem_free_kb: free memory in kB, comparable between two readings:
# reclaimable caches dropped first, and MemFree plus the pages waiting on
# the per-CPU free lists (/proc/zoneinfo "count:", 4 KiB pages in the test
# VMs), which MemFree does not count and which a burst of frees fills up to
# their high marks (up to 56 MB in the x86_64 test VM).
mem_free_kb() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	_pcp=$(awk '$1 == "count:" { n += $2 } END { print n * 4 }' /proc/zoneinfo)
	awk -v pcp="$_pcp" '/^MemFree:/ { print $2 + pcp }' /proc/meminfo
}

# mem_kernel_kb: unreclaimable slab plus vmalloc in kB, where a leak of
# kernel objects shows.
mem_kernel_kb() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	awk '/^(SUnreclaim|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}
