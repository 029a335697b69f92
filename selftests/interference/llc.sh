#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The interference scenario under the shared-LLC model (make llc-report;
# this folder's llc-model file boots it with scripts/llcsim/): critbench on
# CPU 0 as a process, a stress-ng --stream hog on CPU 1, in seven
# configurations: solo, hog without protection, coloring only (root Linux
# on colors 0-7, the critical buffer from /dev/mm-color in 8-15), memguard
# only (CPU 1 held to demo.cfg's budget), both (colorguard apply demo.cfg),
# and memguard only and both again with critbench holding memguard's
# bandwidth lock over each measured run (--bwlock mbps:1: the hog's CPU
# gets at most 1 MB/s while the critical task runs).
# Two critical workloads each: a chase over 256 KiB (fits its colors: the
# LLC part) and a stream over 2 MiB (exceeds the LLC: the DRAM part).
# Every critbench run is an LLC-model window (ids: chase 1-7, stream 11-17
# in the order above); host-check turns the plugin's TSV into the table
# and plot. The guest only checks that each configuration ran.
. ../lib/tap.sh

M=/sys/kernel/memguard
C=/sys/kernel/mm/color
CFG=./demo.cfg
if [ "$CG_ARCH" = arm64 ]; then EV=cycles; else EV=sw:cpu-clock; fi
CHASE="--mode chase --size 256K --ops 300K"
STREAM="--mode stream --size 2M --ops 256K"
tap_plan 8
rd() { cat "$1" 2>/dev/null; }

if [ "$CG_LLC" != 1 ]; then
	for i in 1 2 3 4 5 6 7 8; do tap_skip "scenario point $i" "booted without the LLC model"; done
	exit 0
fi
tap_check "mm_color.ko and memguard.ko load" \
	sh -c "insmod /modules/mm_color.ko && insmod /modules/memguard.ko"
echo $EV > $M/read_event && echo none > $M/write_event

HOG=
# In a deterministic boot (-icount) guest time is instructions: a second
# next to the streaming hog costs 10^9 of them, some 40 s of host time
# with the model. The hog is streaming well before 0.2 s.
SETTLE=2
[ -n "$CG_ICOUNT" ] && SETTLE=0.2
hog_start() {
	stress-ng --stream 1 --stream-l3-size 1M --taskset 1 -t 120 --quiet &
	HOG=$!
	sleep $SETTLE	# stress-ng is up and streaming
}
hog_stop() {
	[ -n "$HOG" ] || return 0
	kill $HOG 2>/dev/null
	wait $HOG 2>/dev/null
	HOG=
}
# crit NAME ID COLORS [LOCK]: both workloads, window ID (chase) and 10 + ID
# (stream), holding the bandwidth lock at LOCK (critbench --bwlock) if given
crit() {
	_c=
	[ -n "$3" ] && _c="--colors $3"
	[ -n "$4" ] && _c="$_c --bwlock $4"
	./critbench $CHASE --cpu 0 $_c --llc-window $2 > crit-$1.out 2>&1 &&
		./critbench $STREAM --cpu 0 $_c --llc-window $(($2 + 10)) >> crit-$1.out 2>&1
	_rc=$?
	tap_diag "$1: $(grep -c '^critbench mode=' crit-$1.out) critbench runs, status $_rc"
	return $_rc
}
config() {	# config NAME ID HOG(0|1) COLORS [LOCK]
	[ "$3" = 1 ] && hog_start
	echo 1 > $M/reset_stats
	crit "$1" "$2" "$4" "$5"
	_rc=$?
	tap_diag "$1: CPU 1 held in $(rd $M/cpu1/throttled_periods) of $(rd $M/cpu1/periods) periods"
	hog_stop
	tap_check "$1: critbench ran both workloads on CPU 0" test $_rc -eq 0
}

echo 0 > $M/enable
config solo 1 0 ""
config none 2 1 ""
# colorguard apply: root Linux on 0-7, memguard on CPU 1; then one at a time.
./colorguard apply $CFG > apply.out 2>&1 || sed 's/^/# /' apply.out
echo 0 > $M/enable
config color 3 1 8-15
echo 1 > $M/enable
echo 0-15 > $C/root_colors
config memguard 4 1 ""
config memguard+lock 6 1 "" mbps:1
./colorguard apply $CFG > apply.out 2>&1 || sed 's/^/# /' apply.out
config both 5 1 8-15
config both+lock 7 1 8-15 mbps:1
rmmod memguard
rmmod mm_color
tap_done
