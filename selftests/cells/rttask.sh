#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A periodic real-time task in a cell (rt-task: the inmate library's
# periodic helper running the critical workload each period). Asserted is
# the mechanism, by the inmate's own clock: every job runs, once per
# period (rate within 1 %), the results are whole and ordered, no exit
# per job (only the console's bytes and the stop); a job longer than its period misses every deadline, delays the
# next ones and loses none. Latencies and response times are TCG host
# noise and only shown. Sourced by vm-run after timer.sh (run, result,
# exits_of, rate_ok). 3 points (vm-run's plan counts them).

# le A B: A <= B, both numbers
le() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -le "$2" ]; }
# ordered NAME: min <= mean <= max of latency, execution and response;
# the longest execution within the longest response; jitter is the
# response's max - min (1 ns of rounding each way)
ordered() {
	_j=$(($(result "$1" resp_max_ns) - $(result "$1" resp_min_ns)))
	le "$(result "$1" lat_min_ns)" "$(result "$1" lat_mean_ns)" &&
	le "$(result "$1" lat_mean_ns)" "$(result "$1" lat_max_ns)" &&
	le "$(result "$1" exec_min_ns)" "$(result "$1" exec_mean_ns)" &&
	le "$(result "$1" exec_mean_ns)" "$(result "$1" wcet_ns)" &&
	le "$(result "$1" resp_min_ns)" "$(result "$1" resp_mean_ns)" &&
	le "$(result "$1" resp_mean_ns)" "$(result "$1" resp_max_ns)" &&
	le "$(result "$1" wcet_ns)" "$(($(result "$1" resp_max_ns) + 1))" &&
	le "$(($(result "$1" jitter_ns) - 1))" "$_j" && le "$_j" "$(($(result "$1" jitter_ns) + 1))"
}
rt_line() {
	echo "latency $(result "$1" lat_min_ns)/$(result "$1" lat_mean_ns)/$(result "$1" lat_max_ns) ns, WCET $(result "$1" wcet_ns) ns (mean $(result "$1" exec_mean_ns)), response max $(result "$1" resp_max_ns) ns, jitter $(result "$1" jitter_ns) ns, misses $(result "$1" misses)"
}

RT_JOBS=500
RT_HZ=500
run rt $CFG rt rt-task.bin -s "period_us=$((1000000 / RT_HZ)) jobs=$RT_JOBS" --results --timeout 60
if [ "$RC" = 0 ] && has rt '^cell rt: shut down$' && [ "$(result rt jobs)" = $RT_JOBS ] &&
   [ "$(result rt period_ns)" = $((1000000000 / RT_HZ)) ] && ordered rt && rate_ok rt $RT_HZ; then
	tap_ok "rt-task: $RT_JOBS jobs at $RT_HZ Hz all run, rate $(result rt rate_mhz) mHz, results ordered; host-noise figures: $(rt_line rt)"
else
	show rt 8
	grep '^result' rt.out | sed 's/^/# /' | head -n 24
	tap_not_ok "rt-task: $RT_JOBS jobs at $RT_HZ Hz (status $RC, jobs $(result rt jobs), rate $(result rt rate_mhz) mHz)"
fi
# Every console byte is an exit (an MMIO write); besides them only the
# stop may exit: none per job.
X=$(exits_of rt)
B=$(sed -n 's/^\[rt\] //p' rt.out | awk '{ n += length($0) + 1 } END { print n + 0 }')
if [ -n "$X" ] && [ "$X" -le $((B + 4)) ]; then
	tap_ok "rt-task: no exit per job: $X exits for $RT_JOBS jobs, $B of them the console's bytes"
else
	tap_not_ok "rt-task: exits '$X' for $RT_JOBS jobs, $B console bytes ($(sed -n 's/.*\(exits .*\)/\1/p' rt.out | head -n1))"
fi
# Each job spins 3 ms in a 2 ms period: job k starts at least k ms after
# its release, so the last of 50 at least 49 ms late, and every job misses.
run over $CFG rt rt-task.bin -s "period_us=2000 jobs=50 spin_us=3000" --results --timeout 60
if [ "$RC" = 0 ] && [ "$(result over jobs)" = 50 ] && [ "$(result over misses)" = 50 ] &&
   le 3000000 "$(result over wcet_ns)" && le 48000000 "$(result over lat_max_ns)" && ordered over; then
	tap_ok "rt-task overrun (3 ms jobs every 2 ms): all 50 jobs run late, none lost, 50 misses; $(rt_line over)"
else
	show over 8
	grep '^result' over.out | sed 's/^/# /' | head -n 24
	tap_not_ok "rt-task overrun: status $RC, jobs $(result over jobs), misses $(result over misses), WCET $(result over wcet_ns), latency max $(result over lat_max_ns)"
fi
