#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile holders of the bandwidth lock (issue 25): bwlock = true alone
# must not let a cell throttle root Linux for good. Sourced by vm-run
# after bwlock.sh (mm-color set up, memguard.ko unloaded); loads
# memguard.ko and unloads it. Cell rt of ./bwlimits.cfg may take the
# lock with the default limits: holds of at most 100 ms, 100 ms apart,
# at 100 per mille or more. inmates/hog.bin takes the lock and never
# releases it, takes it again in a tight loop, asks for too low a level.
# Each must end limited, with a reason the inmate reads in the comm
# region, `colorguard cell run` alive, and root's memguard settings and
# lock as before. Uses bwlock.sh's helpers. 6 points (vm-run's plan
# counts them).

M=/sys/kernel/memguard
BW=$M/bwlock
CFGL=./bwlimits.cfg
HOG=$PWD/inmates/hog.bin

# Root's memguard state: settings, budgets, critical CPUs, the lock.
mg_state() {
	for _f in enable period_us budgets critical bwlock_max_hold_ms \
		  bwlock/state bwlock/holders bwlock/level_permille bwlock/level_mbps \
		  cpu*/read_budget cpu*/write_budget cpu*/critical; do
		echo "$_f=$(cat $M/$_f 2>/dev/null)"
	done | tr '\n' ' '
}
# same_state: root's memguard state is as it was before the cells ran
same_state() { [ "$(mg_state)" = "$MG0" ]; }
bw_line() { grep '^cell rt: bandwidth lock allowed' "$1.out" | head -n1 | cut -c1-200; }
ms_run() { sed -n 's/^cell rt: run time \([0-9]*\)\..*/\1/p' "$1.out" | head -n1; }
stat_of() { $CG cell stats rt 2>/dev/null | sed -n "s/^$1 //p"; }

if insmod /modules/memguard.ko read_event=$EV write_event=none period_us=10000; then
	MG0=$(mg_state)
	tap_ok "memguard.ko loaded for the limits, the lock $(cat $BW/state)"
else
	tap_not_ok "memguard.ko loaded for the limits"
fi

### a hold never released: ended by the runner at 100 ms

H0=$(cat $BW/held_ns) F0=$(cat $BW/forced_releases)
run hog-hold $CFGL rt "$HOG" --results --timeout 30
HELD=$((($(cat $BW/held_ns) - H0) / 1000000))
got="$(result hog-hold acquire) $(result hog-hold limit_ms) $(result hog-hold forced) $(result hog-hold status) $(result hog-hold level_after) $(result hog-hold retake)"
# 0 served, 100 ms, 1 forced, 10 FORCED, level 0, 11 TOO_SOON
if [ $RC = 0 ] && [ "$got" = "0 100 1 10 0 11" ] && [ "$HELD" -ge 90 ] &&
   [ "$HELD" -lt 1100 ] && [ "$(cat $BW/forced_releases)" = "$F0" ] &&
   has hog-hold '^\[rt\] hold ended by the runner: held for bwlock_max_hold_ms (100 ms): released' &&
   same_state; then
	tap_ok "a hold never released: ended by the runner after $HELD ms (memguard's own limit not reached), the inmate reads why; taken again at once: too soon; $(bw_line hog-hold)"
else
	show hog-hold 12
	tap_not_ok "a hold never released (status $RC, results $got, held $HELD ms, memguard forced $F0 -> $(cat $BW/forced_releases), root's memguard state $(same_state && echo intact || echo changed))"
fi

### a tight loop of acquisitions: one a gap at most

A0=$(cat $BW/acquisitions)
run hog-loop $CFGL rt "$HOG" -s "what=loop rounds=300" --results --timeout 60
T=$(ms_run hog-loop)
N=$(result hog-loop served)
got="$(result hog-loop too_soon) $(result hog-loop other) $(result hog-loop gap_ms)"
if [ $RC = 0 ] && [ -n "$N" ] && [ -n "$T" ] && [ "$N" -ge 1 ] &&
   [ "$N" -le $((1 + T / 100)) ] && [ "${got%% *}" -ge 1 ] &&
   [ "${got#* }" = "0 100" ] && [ "$(cat $BW/acquisitions)" = $((A0 + N)) ] &&
   same_state; then
	tap_ok "300 acquisitions in a tight loop: $N served in $T ms (at most 1 + $T / 100), ${got%% *} refused as too soon, memguard counted $N; $(bw_line hog-loop)"
else
	show hog-loop 12
	tap_not_ok "300 acquisitions in a tight loop (status $RC): $N served in $T ms, too_soon other gap_ms: $got, memguard acquisitions $A0 -> $(cat $BW/acquisitions)"
fi

### too low a level

run hog-low $CFGL rt "$HOG" -s "what=low level=100" --results
got="$(result hog-low floor) $(result hog-low low_1) $(result hog-low low_below) $(result hog-low at_level) $(result hog-low change_low) $(result hog-low kept) $(result hog-low release)"
# the floor 100; 12 TOO_LOW for 1 and 99, 100 served, 1 refused while
# held, 100 kept, released
if [ $RC = 0 ] && [ "$got" = "100 12 12 0 12 100 0" ] &&
   has hog-low "^\[rt\] level 1: status 12, level 1: the cell's bwlock_min_level is 100" &&
   [ "$(cat $BW/state)" = free ] && same_state; then
	tap_ok "levels below bwlock_min_level (1, 99, a change to 1) refused, 100 served and kept: $(bw_line hog-low)"
else
	show hog-low 12
	tap_not_ok "levels below bwlock_min_level (status $RC): floor, 1, 99, 100, change to 1, kept, release: $got"
fi

### the supervisor: cell stats reports the forced release

cg limcreate create $CFGL rt
cg limload load -s "retake=0" rt "$HOG"
cg limstart start rt
until_state "shut down" failed
REC=$(stat_of bwlock)
LIM=$(stat_of bwlock_limits)
WHY=$(stat_of bwlock_refusal)
ST=$(state_of)
cg limdestroy destroy rt
if [ "$ST" = "shut down" ] && [ "${REC##*forced=}" = "1 too_soon=0 too_low=0" ] &&
   [ "$LIM" = "max_hold_ms=100 min_gap_ms=100 min_level=100" ] &&
   [ "$WHY" = "held for bwlock_max_hold_ms (100 ms): released" ] &&
   [ "$(cat $BW/state)" = free ] && same_state; then
	tap_ok "cell stats: $REC; $LIM; $WHY"
else
	sed 's/^/# /' limcreate.out limload.out limstart.out | head -n 6
	tap_not_ok "cell stats reports the forced release: state $ST, bwlock $REC, limits $LIM, reason $WHY"
fi

if [ "$(cat $BW/state)" = free ] && same_state && rmmod memguard; then
	tap_ok "after the hostile holders: the lock free, root's memguard settings as before, memguard.ko unloads"
else
	tap_diag "before: $MG0"
	tap_diag "after:  $(mg_state)"
	tap_not_ok "after the hostile holders: root's memguard state"
	rmmod memguard 2>/dev/null
fi
