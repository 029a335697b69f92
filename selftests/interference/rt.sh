#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The real-time cell next to a hog (make rt-report): the demo.cfg cell
# "rt" on CPU 0 runs timer-latency (a 1 kHz local timer) and rt-task (a
# periodic job: a chase over 256 KiB, a 64 KiB stream), a stress-ng
# --stream hog runs in root Linux on CPU 1, in six configurations: solo,
# hog without protection, coloring only (the cell's RAM in colors 8-15,
# root Linux on 0-7), memguard only (CPU 1 held to its budget), both
# (colorguard apply), and both with the cell holding memguard's bandwidth
# lock over its jobs. Unprotected configurations run the cell on ordinary
# memory (cell run --no-color) and root Linux on every color.
# Booted plain (rt.sh) the figures are TCG's host time, labelled so; booted
# under the shared-LLC model (rt-llc.sh) each rt-task job is also a model
# window (llc_window= 30 + the configuration's number), whose modelled time
# selftests/interference/rt-report reads from the plugin's TSV.
# The points check the mechanics only: every configuration ran, every
# tick arrived, none was lost, every job ran, the lock was served, and in
# the plain boot ticks and jobs came at their rate within 1 %. Each
# run's results go out as "# rt-result CONFIG DEMO NAME VALUE" lines.
. ../lib/tap.sh
. ../lib/static_keys.sh

M=/sys/kernel/memguard
C=/sys/kernel/mm/color
# demo.cfg's system, the cell rt granted the bandwidth lock for a whole
# run (memguard's module-wide limit, 10 s, still applies), with 4 MiB of
# RAM instead of 32: the demos use 320 KiB of it, and under the model
# every byte the runner maps and clears costs its share.
CFG=./rt.cfg
awk '/virt = "0";/ { sub(/size = "32M"/, "size = \"4M\"") } { print }
	/type = "critical";/ {
	print "\t\tbwlock = true;"; print "\t\tbwlock_max_hold_ms = 10000;" }' \
	demo.cfg > $CFG
if [ "$CG_ARCH" = arm64 ]; then EV=cycles; else EV=sw:cpu-clock; fi
# Under the model (-icount on arm64) a guest second next to the hog costs
# some 40 s of host time: fewer samples there.
if [ "$CG_LLC" = 1 ]; then
	TICKS=200 JOBS=100
else
	TICKS=1000 JOBS=500
fi
HZ=1000 PERIOD_US=2000
LOCK=100	# per mille of root's budget while the cell holds the lock
CONFIGS="solo none color memguard both both+lock"
tap_plan 15
rd() { cat "$1" 2>/dev/null; }
result() { sed -n "s/^result $2 //p" "$1.out" | head -n 1; }
# rate_ok NAME HZ: the run's rate within 1 % of HZ by the inmate's clock;
# not checked under the model, which slows the guest unevenly
rate_ok() {
	[ "$CG_LLC" = 1 ] && return 0
	_r=$(result "$1" rate_mhz)
	[ -n "$_r" ] && [ "$_r" -ge $(($2 * 990)) ] && [ "$_r" -le $(($2 * 1010)) ]
}

if [ "$CG_ARCH" = x86_64 ]; then
	for m in irqbypass ccp kvm kvm-amd; do
		insmod /modules/linux/$m.ko 2>/dev/null
	done
fi
if [ ! -c /dev/kvm ]; then
	for c in modules apply $CONFIGS hwrun; do
		tap_skip "$c" "no /dev/kvm in this guest (scripts/vm/run VM_KVM=1)"
		case $c in modules|apply|hwrun) ;; *) tap_skip "$c: rt-task" "no /dev/kvm" ;; esac
	done
	tap_done
	exit 0
fi
tap_check "mm_color.ko and memguard.ko load" \
	sh -c "insmod /modules/mm_color.ko && insmod /modules/memguard.ko"
echo $EV > $M/read_event && echo none > $M/write_event
static_keys_hold ../cells
tap_check "colorguard apply $CFG (the pool, root's colors, CPU 1's budget)" \
	sh -c "./colorguard apply $CFG > apply.out 2>&1"
echo 0 > $M/enable
echo 0-15 > $C/root_colors

HOG=
hog_start() {
	stress-ng --stream 1 --stream-l3-size 1M --taskset 1 -t 600 --quiet &
	HOG=$!
	sleep 1	# stress-ng is up and streaming
}
hog_stop() {
	[ -n "$HOG" ] || return 0
	kill $HOG 2>/dev/null
	wait $HOG 2>/dev/null
	HOG=
}
# emit NAME CONFIG DEMO: the run's results as rt-result lines
emit() {
	sed -n "s|^result \([a-z_0-9]*\) \([0-9]*\)$|# rt-result $2 $3 \1 \2|p" "$1.out"
}
# cell NAME IMAGE ARGS COLORED: one run of the cell rt
cell() {
	_nc=--no-color
	[ "$4" = 1 ] && _nc=
	./colorguard cell run $CFG rt ../cells/$2 -s "$3" --results --timeout 300 $_nc \
		> "$1.out" 2>&1
}
# config NAME ID HOG(0|1) COLORED(0|1) [LOCK]
config() {
	[ "$3" = 1 ] && hog_start
	# Where root Linux's fresh memory lands now, as the hog's did.
	./critbench --mode chase --size 16M --ops 1000 --cpu 1 --verify \
		--check-colors 0-7 > "$1-root.out" 2>&1
	tap_diag "$1: root colors $(rd $C/root_colors), fresh root memory in colors 0-7:" \
		"$(sed -n 's/.* in_colors=\([0-9]*\).*/\1/p' "$1-root.out")/$(sed -n 's/.* pages=\([0-9]*\).*/\1/p' "$1-root.out") pages"
	echo 1 > $M/reset_stats
	cell "$1-timer" timer-latency.bin "hz=$HZ samples=$TICKS" "$4"
	_trc=$?
	_lk=
	[ -n "$5" ] && _lk=" bwlock=$5"
	_w=
	[ "$CG_LLC" = 1 ] && _w=" llc_window=$((30 + $2))"
	cell "$1-task" rt-task.bin \
		"period_us=$PERIOD_US jobs=$JOBS ws=256K stream=64K$_w$_lk" "$4"
	_jrc=$?
	tap_diag "$1: CPU 1 held in $(rd $M/cpu1/throttled_periods) of $(rd $M/cpu1/periods) periods;" \
		"transparent huge pages in use $(sed -n 's/^AnonHugePages: *//p' /proc/meminfo)"
	hog_stop
	emit "$1-timer" "$1" timer
	emit "$1-task" "$1" task
	_c=$(result "$1-timer" count)
	_l=$(result "$1-timer" lost)
	if [ "$_trc" = 0 ] && [ "$_c" = "$TICKS" ] && [ "$_l" = 0 ] && rate_ok "$1-timer" $HZ; then
		tap_ok "$1: timer-latency, all $TICKS ticks at $HZ Hz taken, none lost, rate $(result "$1-timer" rate_mhz) mHz"
	else
		sed 's/^/# /' "$1-timer.out" | grep -v lat_log2 | head -n 20
		tap_not_ok "$1: timer-latency (status $_trc, $_c of $TICKS ticks, lost $_l, rate $(result "$1-timer" rate_mhz) mHz)"
	fi
	_j=$(result "$1-task" jobs)
	_s=$(result "$1-task" bwlock_status)
	if [ "$_jrc" = 0 ] && [ "$_j" = "$JOBS" ] && { [ -z "$5" ] || [ "$_s" = 0 ]; } &&
	   rate_ok "$1-task" $((1000000 / PERIOD_US)); then
		tap_ok "$1: rt-task, all $JOBS jobs run every $PERIOD_US us, rate $(result "$1-task" rate_mhz) mHz${5:+, the bandwidth lock served}"
	else
		sed 's/^/# /' "$1-task.out" | head -n 20
		tap_not_ok "$1: rt-task (status $_jrc, $_j of $JOBS jobs, rate $(result "$1-task" rate_mhz) mHz${5:+, lock status '$_s'})"
	fi
}

config solo 1 0 0
config none 2 1 0
echo 0-7 > $C/root_colors
config color 3 1 1
echo 1 > $M/enable
echo 0-15 > $C/root_colors
config memguard 4 1 0
echo 0-7 > $C/root_colors
config both 5 1 1
config both+lock 6 1 1 $LOCK
# The real-hardware runner's latency mode (scripts/interference/run, here
# hwrun) makes the same table on a board; its short mode here.
if [ "$CG_LLC" = 1 ]; then
	tap_skip "hwrun --latency --dry-run" "plain boot only (slow under the model)"
else
	./hwrun --latency $CFG:rt --inmates ../cells --dry-run --out hwlat > hwlat.log 2>&1
	_rc=$?
	sed 's/^/# /' hwlat/summary.txt 2>/dev/null
	[ $_rc = 0 ] || tail -n 20 hwlat.log | sed 's/^/# /'
	tap_check "hwrun --latency $CFG:rt --dry-run: every configuration ran (status $_rc)" \
		test $_rc = 0 -a -s hwlat/summary.txt
fi
echo 0 > $M/enable
tap_done
