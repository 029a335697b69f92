#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interrupts and the local timer in a cell (issue 27): KVM's in-kernel
# local APIC and its timer on x86_64, its GICv3 and the virtual timer on
# arm64. timer-latency takes every tick it armed (count == samples, none
# lost; a tick handled before its deadline, which KVM's timer advance
# allows on x86, is shown, not failed), at the programmed rate within 1 %
# by the inmate's own clock (TSC, CNTVCT), in the deadline and the
# one-shot (count-down) mode, with no exit per tick (the vCPU halts in
# the kernel between ticks: its exits in all, the console line's bytes
# and the stop, stay below a quarter of the ticks); a cell that masks
# interrupts and halts forever with its timer pending is still ended by
# --timeout and by SIGTERM, with a reason. What is asserted is the
# mechanism, not the latency, which is shown. Sourced by vm-run (mm-color set up, KVM's
# static keys held). 6 points (vm-run's plan counts them).

# exits NAME: every exit of a run (cell run's exits line, summed)
exits_of() {
	sed -n 's/.* exits mmio=\([0-9]*\) io=\([0-9]*\) hlt=\([0-9]*\) system_event=\([0-9]*\) intr=\([0-9]*\) other=\([0-9]*\).*/\1 \2 \3 \4 \5 \6/p' "$1.out" |
		head -n1 | awk '{ print $1 + $2 + $3 + $4 + $5 + $6 }'
}
# ticks NAME N HZ: timer-latency's results are whole and consistent
ticks() {
	_c=$(result "$1" count)
	_h=0
	for _k in $(sed -n 's/^result lat_log2_[0-9]* //p' "$1.out"); do
		_h=$((_h + _k))
	done
	[ "$RC" = 0 ] && has "$1" '^cell rt: shut down$' && [ "$_c" = "$2" ] &&
	[ "$(result "$1" lost)" = 0 ] &&
	[ "$_h" = "$2" ] &&
	[ "$(result "$1" lat_min_ns)" -le "$(result "$1" lat_mean_ns)" ] &&
	[ "$(result "$1" lat_mean_ns)" -le "$(result "$1" lat_max_ns)" ] &&
	[ "$(result "$1" lat_p99_ns)" -le "$(result "$1" lat_max_ns)" ] &&
	[ "$(result "$1" period_ns)" -gt 0 ]
}
# rate NAME HZ: measured rate within 1 % of HZ (rate_mhz is in mHz)
rate_ok() {
	_r=$(result "$1" rate_mhz)
	[ -n "$_r" ] && [ "$_r" -ge $(($2 * 990)) ] && [ "$_r" -le $(($2 * 1010)) ]
}
lat_line() {
	echo "latency min $(result "$1" lat_min_ns) mean $(result "$1" lat_mean_ns) p99 $(result "$1" lat_p99_ns) max $(result "$1" lat_max_ns) ns, missed $(result "$1" missed), early $(result "$1" early) (by at most $(result "$1" early_max_ns) ns), rate $(result "$1" rate_mhz) mHz"
}

N=500
HZ=250
run tl $CFG rt timer-latency.bin -s "hz=$HZ samples=$N" --results --timeout 60
show tl 6
if ticks tl $N $HZ; then
	tap_ok "timer-latency: $N ticks at $HZ Hz all taken ($(sed -n 's/^\[rt\] timer-latency: //p' tl.out)), none lost, histogram of $N; host-noise figures: $(lat_line tl)"
else
	grep '^result' tl.out | sed 's/^/# /' | head -n 30
	tap_not_ok "timer-latency: $N ticks at $HZ Hz (status $RC, count $(result tl count), lost $(result tl lost))"
fi
if rate_ok tl $HZ; then
	tap_ok "tick rate by the inmate's clock: $(result tl rate_mhz) mHz for $HZ Hz (within 1 %, tick_khz $(result tl tick_khz))"
else
	tap_not_ok "tick rate by the inmate's clock: '$(result tl rate_mhz)' mHz for $HZ Hz"
fi
# The console line, the results and the stop take exits; a tick none.
X=$(exits_of tl)
if [ -n "$X" ] && [ "$X" -lt $((N / 4)) ]; then
	tap_ok "no exit per tick: $X exits in all for $N ticks ($(sed -n 's/.*\(exits .*\)/\1/p' tl.out | head -n1))"
else
	tap_not_ok "exits of timer-latency: '$X' for $N ticks ($(sed -n 's/.*\(exits .*\)/\1/p' tl.out | head -n1))"
fi
run tl1 $CFG rt timer-latency.bin -s "hz=$HZ samples=200 timer=oneshot" --results --timeout 60
if ticks tl1 200 $HZ && rate_ok tl1 $HZ && [ "$(result tl1 mode)" = 2 ]; then
	tap_ok "one-shot mode (count-down: the LAPIC's, calibrated, or CNTV_TVAL): 200 ticks taken, rate $(result tl1 rate_mhz) mHz; host-noise figures: $(lat_line tl1)"
else
	show tl1 6
	tap_not_ok "one-shot mode: status $RC, count $(result tl1 count), mode $(result tl1 mode), rate $(result tl1 rate_mhz) mHz"
fi

# Interrupts masked, halted forever, a timer pending (on arm64 the WFI
# then returns at once, again and again, inside KVM): the watchdog's
# kick still ends the vCPU's KVM_RUN.
run halt $CFG rt inmates/halt.bin -s timer=1 --timeout 2
if [ $RC = 1 ] && has halt '^\[rt\] halting with interrupts off' &&
   has halt '^cell rt: failed on CPU 0: watchdog: still running after 2 s' && left; then
	tap_ok "masked and halted, stopped by --timeout 2: $(grep '^cell rt: failed' halt.out)"
else
	show halt
	tap_not_ok "masked and halted cell and --timeout 2 (status $RC)"
fi
: > haltterm.out
$CG cell run $CFG rt inmates/halt.bin -s timer=1 --timeout 60 > haltterm.out 2>&1 &
_pid=$!
_s=0
while ! has haltterm '^\[rt\] halting' && [ $_s -lt 300 ]; do
	sleep 0.1
	_s=$((_s + 1))
done
sleep 0.5
kill -TERM $_pid
if ! gone $_pid 300; then
	tap_diag "cell run of a halted cell still there 30 s after SIGTERM:"
	stacks $_pid
	kill -9 $_pid
fi
wait $_pid
RC=$?
if [ $RC = 143 ] && has haltterm '^cell rt: stopped by SIGTERM' && left; then
	tap_ok "masked and halted, stopped by SIGTERM: $(grep '^cell rt: \(stopped\|failed\)' haltterm.out | tr '\n' ';')"
else
	show haltterm
	tap_not_ok "masked and halted cell and SIGTERM (status $RC)"
fi
