#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo, inside the guest: a two-cell partition from
# scripts/colorguard/examples/demo.cfg applied by colorguard, a critical
# task on CPU 0 over colored memory (checked page by page through
# pagemap), a stress-ng hog on CPU 1 held to its memguard budget; where the
# guest runs KVM (make demo boots it so), the critical side once more as
# a real cell: critbench as a KVM inmate with all its RAM in colors 8-15,
# under the LLC model that cell's chase solo, next to an unprotected hog
# and next to the hog with colorguard on (model windows 24-26), then
# timer-latency there (a 1 kHz local timer: its latency line), then
# rt-task there publishing each job's time through a channel that a root
# Linux reader prints (channels.cfg); then a table of what happened and a
# verdict. Prints TAP points.
. ../lib/tap.sh

M=/sys/kernel/memguard
C=/sys/kernel/mm/color
CFG=./demo.cfg
HOG_S=4
if [ "$CG_ARCH" = arm64 ]; then EV=cycles; else EV=sw:cpu-clock; fi
START=$(date +%s)
step() { echo "[demo +$(($(date +%s) - START))s] $*"; }
rd() { cat "$1" 2>/dev/null; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2" | head -n 1; }
result() { sed -n "s/^result $2 //p" "$1.out" | head -n 1; }
median_ns() { sed -n 's/.* ns_per_op=\([^ ]*\).*/\1/p' "$1" | sort -g |
	awk '{ v[++n] = $1 } END { if (n) print n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'; }

echo "TAP version 13"
step "loading mm_color.ko and memguard.ko"
if ! insmod /modules/mm_color.ko || ! insmod /modules/memguard.ko; then
	tap_not_ok "modules load"
	echo "1..$TAP_N"
	exit 1
fi
tap_ok "modules load"

step "the partition (colorguard plan demo.cfg):"
./colorguard plan $CFG | sed 's/^/    /'
# memguard counts a stand-in event in the VM (see demo.cfg).
echo $EV > $M/read_event && echo none > $M/write_event
# The VM's arm64 kernel has a 64 MB CMA area, which a narrowing leaves
# alone by default (its free pages of every color would serve root
# Linux's process memory); nothing here needs CMA, so let the drain take it.
# Booted with the LLC model (make demo does): the critical task's chase
# over 256 KiB, each run a model window (ids 21-23; host-check prints the
# model's line): alone and next to an unprotected hog before the
# partition exists, next to the hog with colorguard on after it.
llc_chase() {	# llc_chase ID [COLORS]
	./critbench --mode chase --size 256K --ops 100K --cpu 0 ${2:+--colors $2} \
		--llc-window $1 > llc-$1.out 2>&1
}
llc_hog() {
	stress-ng --stream 1 --stream-l3-size 1M --taskset 1 -t 60 --quiet &
	LLC_HOG=$!
	sleep 2
}
llc_hog_stop() {
	kill $LLC_HOG 2>/dev/null
	wait $LLC_HOG 2>/dev/null
}
# The same chase as the cell rt (where the guest runs KVM), each measured
# round of 100K steps (the task's --ops) a model window (ids 24-26,
# host-check's second line; the last round of an id counts). 4 MiB of
# cell RAM instead of 32: under the model every byte the runner maps and
# clears costs its share. A one-line stream leaves the chase's lines in
# the LLC between rounds.
LLC_CFG=./demo-llc.cfg
llc_cell() {	# llc_cell ID [--no-color]
	./colorguard cell run $LLC_CFG rt ../cells/critbench.bin $2 \
		-s "ws=256K accesses=100K stream=64 rounds=3 llc_window=$1" --results --timeout 120 \
		> llc-cell-$1.out 2>&1
	_rc=$?
	echo $_rc >> llc-cell.rc
	if [ $_rc = 0 ]; then
		grep 'per chase access' llc-cell-$1.out | sed 's/^/    /'
	else
		sed 's/^/    /' llc-cell-$1.out
	fi
}
if [ "$CG_ARCH" = x86_64 ]; then
	for m in irqbypass ccp kvm kvm-amd; do
		insmod /modules/linux/$m.ko 2>/dev/null
	done
fi
if [ "$CG_LLC" = 1 ]; then
	step "LLC model: critical task alone, then next to an unprotected hog"
	llc_chase 21
	llc_hog
	llc_chase 22
	if [ -c /dev/kvm ]; then
		awk '/virt = "0";/ { sub(/size = "32M"/, "size = \"4M\"") } { print }' \
			$CFG > $LLC_CFG
		: > llc-cell.rc
		# Before the partition nothing protects the cell: root Linux
		# (the hog) has every color, CPU 1 no budget, and the runner
		# gives a colored cell no colors root Linux has, so anonymous.
		step "LLC model: critical cell rt next to the same unprotected hog (window 25):" \
			"no partition yet (root_colors $(rd $C/root_colors), memguard budgets" \
			"$(rd $M/budgets)), the cell on anonymous memory of every color (--no-color)"
		llc_cell 25 --no-color
	fi
	llc_hog_stop
fi
step "colorguard apply demo.cfg (memguard read event $EV; root Linux leaves colors 8-15)"
tap_check "colorguard apply demo.cfg" ./colorguard apply $CFG

crit() {	# crit OUT SECONDS: the critical task on CPU 0, colored memory
	./critbench --mode stream --size 4M --ops 1M --cpu 0 --colors 8-15 \
		--verify --time "$2" > "$1" 2>&1
}
step "critical task alone on CPU 0 (critbench stream over 4 MiB of colors 8-15)"
crit solo.out 1
solo=$(median_ns solo.out)

step "stress-ng --stream hog on CPU 1 for $HOG_S s, critical task on CPU 0"
echo 1 > $M/reset_stats
crit hog.out $((HOG_S + 1)) &
CRIT=$!
stress-ng --stream 1 --stream-l3-size 1M --taskset 1 -t $HOG_S --quiet &
HOG=$!
while kill -0 $HOG 2>/dev/null; do
	sleep 1
	echo "    CPU 1: $(rd $M/cpu1/throttled_periods) of $(rd $M/cpu1/periods) periods held so far"
done
wait $HOG
# One snapshot of the statistics as the hog ends.
for c in 0 1; do
	for f in critical read_budget_events periods throttled_periods read_used_avg armed; do
		eval "s${c}_$f=\$(rd $M/cpu$c/$f)"
	done
done
wait $CRIT
crit_rc=$?
under=$(median_ns hog.out)
if [ "$CG_LLC" = 1 ]; then
	step "LLC model: critical task next to the hog, colorguard on"
	llc_hog
	llc_chase 23 8-15
	llc_hog_stop
fi
# The critical side as a real cell: critbench as a KVM inmate on CPU 0,
# its whole RAM in colors 8-15 (the demo.cfg cell "rt"), next to the hog.
cell_rc=skip lat_rc=skip pub_rc=skip
LAT_N=2000 PUB_N=20
if [ -c /dev/kvm ]; then
	step "critical cell rt as a KVM inmate: critbench on CPU 0 over colors 8-15, the hog on CPU 1"
	stress-ng --stream 1 --stream-l3-size 1M --taskset 1 -t 30 --quiet &
	HOG=$!
	./colorguard cell run $CFG rt ../cells/critbench.bin \
		-s "ws=256K stream=1M rounds=5" --results --timeout 120 > cell.out 2>&1
	cell_rc=$?
	kill $HOG 2>/dev/null
	wait $HOG 2>/dev/null
	sed 's/^/    /' cell.out
	if [ "$CG_LLC" = 1 ]; then
		step "LLC model: critical cell rt alone (critbench inmate, chase 256 KiB, CPU 0; window 24)"
		llc_cell 24
		step "LLC model: critical cell rt next to the hog, colorguard on (window 26)"
		llc_hog
		llc_cell 26
		llc_hog_stop
	fi
	step "critical cell rt: timer-latency, a 1 kHz local timer on CPU 0, the hog on CPU 1"
	stress-ng --stream 1 --stream-l3-size 1M --taskset 1 -t 30 --quiet &
	HOG=$!
	./colorguard cell run $CFG rt ../cells/timer-latency.bin \
		-s "hz=1000 samples=$LAT_N" --results --timeout 120 > lat.out 2>&1
	lat_rc=$?
	kill $HOG 2>/dev/null
	wait $HOG 2>/dev/null
	grep -v '^result lat_log2' lat.out | sed 's/^/    /'
	# The critical cell's results to root Linux through a channel:
	# channels.cfg's "vehicle", a latest-value latch in comm colors 6-7
	# (root Linux on 0-5 meanwhile, as channels.cfg has it).
	step "critical cell rt publishes each job's time through channel \"vehicle\" (channels.cfg, comm colors 6-7); root Linux reads it"
	echo 0-5 > $C/root_colors
	./colorguard chan keep channels.cfg > keeper.out 2>&1 &
	KEEPER=$!
	i=0
	while [ ! -S /run/colorguard/chan.sock ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	step "the keeper is up after $((i / 10)) s: $(./colorguard chan ls 2>&1 | head -n 1)"
	# The cell's creation alone (32 MiB prefaulted) takes seconds here.
	./colorguard chan cat vehicle --cell linux -n $PUB_N --timeout 120000 \
		> pub.out 2> pub.err &
	READER=$!
	./colorguard cell run channels.cfg rt ../cells/rt-task.bin \
		-s "jobs=1000 publish=vehicle" --results --timeout 120 > pubcell.out 2>&1
	pub_rc=$?
	wait $READER
	reader_rc=$?
	kill $KEEPER 2>/dev/null
	wait $KEEPER 2>/dev/null
	echo 0-7 > $C/root_colors
	grep -v '^result' pubcell.out | sed 's/^/    /'
	echo "    root Linux: colorguard chan cat vehicle --cell linux -n $PUB_N (status $reader_rc)"
	sed 's/^/      /' pub.out | tail -n 5
	sed 's/^/      /' pub.err keeper.out
fi
# Root Linux's side: fresh anonymous memory checked against its colors.
./critbench --mode chase --size 16M --ops 1000 --verify --check-colors 0-7 > root.out 2>&1

step "results"
echo
printf '%-4s %-9s %14s %14s %9s %10s\n' CPU role "budget/period" "used/period" periods throttled
for c in 0 1; do
	eval "cr=\$s${c}_critical b=\$s${c}_read_budget_events p=\$s${c}_periods t=\$s${c}_throttled_periods u=\$s${c}_read_used_avg"
	if [ "$cr" = 1 ]; then role=critical b="never held"; else role=regulated; fi
	[ "$p" = 0 ] && u=-
	printf '%-4s %-9s %14s %14s %9s %10s\n' $c $role "$b" "$u" "$p" \
		"$t$([ "$p" -gt 0 ] && echo " ($((t * 100 / p))%)")"
done
echo "    (events: $EV, the VM's stand-in for LLC refills; used: moving average,"
echo "     above the budget where TCG delivers the overflow interrupt late)"
echo
cp=$(field pages hog.out) ci=$(field in_colors hog.out)
rp=$(field pages root.out) ri=$(field in_colors root.out)
printf '%-6s %-9s %-5s %-7s %s\n' cell type CPUs colors "pages verified in its colors (pagemap)"
printf '%-6s %-9s %-5s %-7s %s\n' rt critical 0 8-15 \
	"${ci:-?}/${cp:-?} ($(( ${ci:-0} * 100 / ${cp:-1} ))%) of the critical task's buffer"
printf '%-6s %-9s %-5s %-7s %s\n' linux root 1 "$(rd $C/root_colors)" \
	"${ri:-?}/${rp:-?} ($(( ${ri:-0} * 100 / ${rp:-1} ))%) of fresh anonymous memory"
echo
echo "critical task: $solo ns/op alone, $under ns/op next to the hog (TCG: no real cache to share)"
if [ "$cell_rc" != skip ]; then
	cpg=$(sed -n 's/^cell rt: pages \([0-9]*\/[0-9]*\) in colors.*/\1/p' cell.out)
	cx=$(sed -n 's/^result chase_cyc_x100 //p' cell.out)
	sx=$(sed -n 's/^result stream_cyc_x100 //p' cell.out)
	echo "critical cell rt (KVM): ${cpg:-?} guest pages in colors 8-15; from its comm region:" \
		"$(awk "BEGIN { printf \"%.2f\", ${cx:-0} / 100 }") cycles per chase access," \
		"$(awk "BEGIN { printf \"%.2f\", ${sx:-0} / 100 }") per stream line, next to the hog"
fi
if [ "$lat_rc" != skip ]; then
	lus() { awk "BEGIN { printf \"%.1f\", $(result lat "$1") / 1000 }"; }
	echo "critical cell rt (KVM): 1 kHz timer, $(result lat count) ticks next to the hog:" \
		"latency min $(lus lat_min_ns) mean $(lus lat_mean_ns) p99 $(lus lat_p99_ns)" \
		"max $(lus lat_max_ns) us, $(result lat missed) missed, $(result lat lost) lost" \
		"(TCG: the host's timing, not a board's)"
fi
if [ "$pub_rc" != skip ]; then
	echo "critical cell rt (KVM): published $(result pubcell published) job lines through channel" \
		"\"vehicle\"; root Linux's reader took $(grep -c '^job [0-9]* exec_ns [0-9]*$' pub.out) of them," \
		"the last: $(tail -n 1 pub.out)"
fi
echo

t1=$s1_throttled_periods t0=$s0_throttled_periods
tap_check "the hog on CPU 1 was held ($t1 periods)" test "${t1:-0}" -gt 0
tap_check "critical CPU 0 was never held" test "$t0" = 0 -a "$s0_armed" = 0
tap_check "critical task: data intact, every page in colors 8-15" \
	test "$crit_rc" = 0 -a -n "$cp" -a "$ci" = "$cp"
if [ "$cell_rc" != skip ]; then
	cpn=${cpg%/*} cpt=${cpg#*/}
	tap_check "critical cell rt ran on KVM: shut down, every guest page in colors 8-15, results read back" \
		test "$cell_rc" = 0 -a -n "$cpg" -a "$cpn" = "$cpt" -a "${cx:-0}" -gt 0
fi
if [ "$lat_rc" != skip ]; then
	tap_check "critical cell rt's timer: every one of $LAT_N ticks taken, none lost" \
		test "$lat_rc" = 0 -a "$(result lat count)" = "$LAT_N" -a "$(result lat lost)" = 0
fi
if [ "$pub_rc" != skip ]; then
	tap_check "critical cell rt published every job through a channel; a root Linux reader got $PUB_N of them" \
		test "$pub_rc" = 0 -a "$(result pubcell published)" = 1000 -a "$reader_rc" = 0 \
		-a "$(grep -c '^job [0-9]* exec_ns [0-9]*$' pub.out)" = $PUB_N
fi
if [ -s llc-cell.rc ]; then
	tap_check "LLC model: the cell's three runs (windows 24-26) shut down" \
		test "$(sort -u llc-cell.rc)" = 0 -a "$(wc -l < llc-cell.rc)" = 3
fi
tap_check "root Linux: >= 95% of fresh anonymous pages in its colors" \
	test -n "$rp" -a $(( ${ri:-0} * 100 / ${rp:-1} )) -ge 95

if [ "$TAP_FAILED" = 0 ]; then
	echo "VERDICT: PASS - CPU 1 held in $t1 periods to its budget, critical CPU 0 never; the critical task ran intact on colors 8-15 ($ci/$cp pages), root Linux on 0-7"
else
	echo "VERDICT: FAIL - $TAP_FAILED of $TAP_N checks failed (see 'not ok' above)"
fi
rmmod memguard
rmmod mm_color
echo "1..$TAP_N"
tap_done
