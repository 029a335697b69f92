#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# memguard's bandwidth lock (/dev/memguard) and monitor mode. vm-run
# sources this at its end; alone it is a suite of its own
# (scripts/vm/run ... memguard/bwlock.sh). Loads memguard.ko with a device
# busy loop (./spin) on CPU1 as the hog and CPU0 critical, and checks:
# the device node's mode and who may open it (the group a udev rule
# gives, set by hand: the guest has no udev); a lock taken and released changes the
# hog's budget within about one period (trace) and its share of CPU time,
# and the configured budget is intact afterwards; a killed holder and a
# holder that exits without releasing release the lock; nested and
# concurrent holders are counted and the strictest level wins; an MB/s
# level regulates a CPU without a budget; bad ioctls are rejected with
# the state intact; the ioctl numbers of 0.1.0 and the current ones;
# a level change in place (SET_LEVEL) never leaves a boundary of CPU1
# unlocked, where release then acquire does; the maximum hold time
# ends a hold, restores the level and tells the holder; monitor mode
# measures every CPU and holds none. Leaves the module unloaded.
BWLOCK_POINTS=54
if [ -z "${BWLOCK_IN_SUITE:-}" ]; then
	. ../lib/tap.sh
	tap_plan $BWLOCK_POINTS
fi

M=/sys/kernel/memguard
BW=$M/bwlock
MOD=/modules/memguard.ko
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
BW_PERIOD=10000
BW_GROUP=1234
if [ "$CG_ARCH" = arm64 ]; then EV=cycles; else EV=sw:cpu-clock; fi

rd() { cat "$M/$1" 2>/dev/null; }
bw() { echo "$(rd bwlock/state) $(rd bwlock/holders) $(rd bwlock/holder_files) $(rd bwlock/level_permille) $(rd bwlock/level_mbps)"; }
share() { echo "$OUT" | awk -v c="cpu$1" '$1 == c { print $3 }'; }
mark() { echo "$1" > $T/trace_marker; }
# budget_within A B BUDGET: the first period of CPU1 after marker A whose
# budget is BUDGET is at most the second after the ioctl (periods that
# ended between markers A and B may have ended before the ioctl did).
budget_within() {
	_n=$(awk -v a="$1" -v want="$3" '
		index($0, "tracing_mark_write: " a) { on = 1; next }
		on && /memguard_period: cpu=1 / {
			n++
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			if (v["read_budget"] == want) { print n; exit }
		}' $T/trace)
	_slack=$(awk -v a="$1" -v b="$2" '
		index($0, "tracing_mark_write: " a) { on = 1; next }
		index($0, "tracing_mark_write: " b) { on = 0 }
		on && /memguard_period: cpu=1 / { n++ }
		END { print n + 0 }' $T/trace)
	tap_diag "budget $3 in period ${_n:-never} after $1 ($_slack ended before the ioctl returned)"
	[ -n "$_n" ] && [ "$_n" -le $((2 + _slack)) ]
}
# holder OPS...: a background mglock that runs OPS then waits; $HOLDER
# is its pid once it waits (its output is in holder.$HOLDER).
holder() {
	./mglock "$@" wait > holder.out 2>&1 &
	HOLDER=$!
	_n=0
	while ! grep -q waiting holder.out && [ $_n -lt 100 ]; do
		sleep 0.05
		_n=$((_n + 1))
	done
	mv holder.out holder.$HOLDER
}
unhold() {	# unhold PID [SIGNAL]
	kill -"${2:-TERM}" "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

### Load: the device, its group, an empty lock

# The holds below last seconds (the hog's runs): a maximum above them.
insmod $MOD read_event=$EV write_event=none period_us=$BW_PERIOD critical=0 \
	bwlock_max_hold_ms=60000
tap_check "/dev/memguard is a character device; the lock is free at load ($(bw))" \
	test -c /dev/memguard -a "$(bw)" = "free 0 0 1000 unlimited"

### Permission: the node's mode, as udev's rule would set it

NODE=$(ls -ln /dev/memguard | awk '{ print $1, $3, $4 }')
tap_check "the node is root's, mode 0600, without udev ($NODE)" \
	test "$NODE" = "crw------- 0 0"
tap_check "root opens /dev/memguard" test "$(./mglock open)" = "ok "
tap_check "another user is refused (EACCES)" \
	test "$(./mglock -u 65534 open)" = "EACCES "
# What packaging/udev/60-colorguard.rules does, with a group of the test's.
chgrp $BW_GROUP /dev/memguard && chmod 0660 /dev/memguard
tap_check "group $BW_GROUP given access (as the udev rule does): a member may open" \
	test "$(./mglock -u 65534 -g $BW_GROUP open)" = "ok "
tap_check "a user outside that group is refused (EACCES)" \
	test "$(./mglock -u 65534 -g $((BW_GROUP + 1)) open)" = "EACCES "
knob=/proc/sys/kernel/unprivileged_userns_clone
[ -e $knob ] && echo 1 > $knob
got=$(./mglock -u 65534 -n $BW_GROUP open 2>&1)
case $got in
*"changing credentials"*)
	tap_skip "gid $BW_GROUP mapped in an own user namespace is refused" "no user namespaces: $got" ;;
*)	tap_check "gid $BW_GROUP mapped in an own user namespace is refused ($got)" \
		test "$got" = "EACCES " ;;
esac
chgrp 0 /dev/memguard && chmod 0600 /dev/memguard

### A lock taken and released: the hog's budget within a period, its share

echo events:100000000000 > $M/cpu1/read_budget
./spin -t 1 1 > /dev/null
C=$(rd cpu1/read_used_avg)
BUD=$((C * 60 / 100))
LOCKED=$((BUD * 250 / 1000))
echo events:$BUD > $M/cpu1/read_budget
tap_diag "CPU1 counts $C events per busy period; budget $BUD (60%), locked at 250 per mille: $LOCKED"
echo > $T/trace
echo 1 > $T/events/memguard/memguard_period/enable
echo 1 > $T/events/memguard/memguard_bwlock/enable
echo 1 > $M/reset_stats
OUT=$(./spin -t 1.5 0 1)
FREE1=$(share 1) FREE0=$(share 0)
TF=$(rd cpu1/throttled_periods) PF=$(rd cpu1/periods) NF=$(rd cpu1/throttled_ns)
./spin -t 8 1 > /dev/null &
SPIN=$!
sleep 0.3
holder open mark:lk-a acq:p:250 mark:lk-b
LK=$HOLDER
sleep 0.3
tap_check "the lock's level reaches the hog's budget within a period" \
	budget_within lk-a lk-b $LOCKED
tap_check "sysfs: held by one file at 250 per mille ($(bw))" \
	test "$(bw)" = "held 1 1 250 unlimited"
tap_check "status names the lock" \
	sh -c "grep -q '^bandwidth lock held: 1 acquisitions, 250 per mille' $M/status"
tap_check "the configured budget stays as written (read_budget events:$BUD)" \
	test "$(rd cpu1/read_budget)" = "events:$BUD"
wait $SPIN
echo 1 > $M/reset_stats
OUT=$(./spin -t 1.5 0 1)
HELD1=$(share 1) HELD0=$(share 0)
TH=$(rd cpu1/throttled_periods) PH=$(rd cpu1/periods) NH=$(rd cpu1/throttled_ns)
tap_diag "CPU1 time share: $FREE1 permille without the lock (throttled $TF/$PF periods," \
	"$((NF / 1000 / (PF > 0 ? PF : 1))) us held per period)," \
	"$HELD1 with it at 250 per mille (throttled $TH/$PH, $((NH / 1000 / (PH > 0 ? PH : 1))) us);" \
	"critical CPU0: $FREE0 and $HELD0 permille"
# Under TCG the hold starts late by up to milliseconds on a loaded host
# (issue 17), so the share is bounded on one side only: it drops, and the
# hog is held longer per period. (At a 60 % budget nearly every period
# ends in a hold already, so the count of held periods cannot grow.)
tap_check "the hog runs less under the lock ($HELD1 < $FREE1 permille), held longer per period ($NH/$PH > $NF/$PF ns)" \
	test "$HELD1" -lt "$FREE1" -a $((NH * PF)) -gt $((NF * PH))
tap_check "critical CPU0 is never held under the lock (armed $(rd cpu0/armed), $HELD0 permille)" \
	test "$(rd cpu0/armed) $(rd cpu0/throttled_periods)" = "0 0" -a $((HELD0 * 100)) -ge $((FREE0 * 90))
./spin -t 4 1 > /dev/null &
SPIN=$!
sleep 0.3
mark kill-a
unhold $LK KILL
mark kill-b
sleep 0.3
tap_check "a killed holder releases the lock ($(bw))" \
	test "$(bw)" = "free 0 0 1000 unlimited"
tap_check "after the lock the hog's own budget applies again within a period" \
	budget_within kill-a kill-b $BUD
wait $SPIN
tap_check "trace: memguard_bwlock shows the acquisition and the release at close" \
	sh -c "grep -q 'memguard_bwlock: op=acquire pid=$LK holders=1 permille=250' $T/trace &&
		grep -q 'memguard_bwlock: op=close pid=[0-9]* holders=0 permille=1000 mbps=0 held_ns=[1-9]' $T/trace"
tap_check "held_ns counts the time held ($(rd bwlock/held_ns) ns), acquisitions 1" \
	test "$(rd bwlock/held_ns)" -gt 100000000 -a "$(rd bwlock/acquisitions)" = 1
GOT=$(./mglock open acq:p:300 get)
tap_check "a holder that exits without releasing leaves the lock free ($GOT, then $(bw))" \
	test "$GOT $(bw)" = "ok ok 1,1,300,0  free 0 0 1000 unlimited"
tap_check "an explicit release ends the lock" \
	test "$(./mglock open acq:p:300 rel get)" = "ok ok ok 0,0,1000,0 "

### Nested and concurrent holders: counted, the strictest level wins

tap_check "nested on one file: counted, strictest wins, each release pops one" \
	test "$(./mglock open acq:p:500 get acq:p:800 get acq:p:200 get rel get rel get rel get rel)" = \
		"ok ok 1,1,500,0 ok 2,2,500,0 ok 3,3,200,0 ok 2,2,500,0 ok 1,1,500,0 ok 0,0,1000,0 EPERM "
holder open acq:p:400
A=$HOLDER
holder open acq:p:700
B=$HOLDER
tap_check "two files: a looser level does not loosen the lock ($(bw))" \
	test "$(bw)" = "held 2 2 400 unlimited"
holder open acq:p:100 acq:p:900
D=$HOLDER
tap_check "three files, four acquisitions: the strictest holds ($(bw))" \
	test "$(bw)" = "held 4 3 100 unlimited"
unhold $D
tap_check "the strictest holder gone: the next strictest holds ($(bw))" \
	test "$(bw)" = "held 2 2 400 unlimited"
unhold $A
unhold $B
tap_check "the last holder gone: free ($(bw))" test "$(bw)" = "free 0 0 1000 unlimited"

### An MB/s level: caps every non-critical CPU, regulates one without budget

MBPS=$((C / 4 * 64 * 1000000 / BW_PERIOD / 1048576))
MBEV=$((MBPS * 1048576 * BW_PERIOD / 64 / 1000000))
echo unlimited > $M/cpu1/read_budget
ARMED0=$(rd cpu1/armed)
./spin -t 4 1 > /dev/null &
SPIN=$!
holder open mark:mb-a acq:m:$MBPS mark:mb-b
A=$HOLDER
sleep 0.3
tap_check "an MB/s level arms CPU1 without a budget (armed $ARMED0 -> $(rd cpu1/armed))" \
	test "$ARMED0 $(rd cpu1/armed) $(rd cpu0/armed)" = "0 1 0"
tap_check "$MBPS MB/s becomes CPU1's budget ($MBEV events) within a period" \
	budget_within mb-a mb-b $MBEV
wait $SPIN
echo events:$BUD > $M/cpu1/read_budget
holder open acq:p:900
B=$HOLDER
tap_check "per mille and MB/s levels together: each applies ($(bw))" \
	test "$(bw)" = "held 2 2 900 $MBPS"
unhold $A
unhold $B
tap_check "released: CPU1 keeps its own budget and arming ($(rd cpu1/read_budget), armed $(rd cpu1/armed))" \
	test "$(rd cpu1/read_budget) $(rd cpu1/armed) $(bw)" = "events:$BUD 1 free 0 0 1000 unlimited"

### Bad ioctls: the documented errno, the state intact

holder open acq:p:400
A=$HOLDER
# acquisitions is left out: the depth test's first 16 are accepted ones.
snap() { echo "$(bw) $(rd budgets) $(rd critical) $(rd monitor) $(rd cpu1/armed)"; }
BEFORE=$(snap)
tap_check "release without a hold: EPERM" test "$(./mglock open rel get)" = "ok EPERM 1,0,400,0 "
tap_check "levels out of range: ERANGE (p:0 p:1001 m:0 m:1000001)" \
	test "$(./mglock open acq:p:0 acq:p:1001 acq:m:0 acq:m:1000001)" = "ok ERANGE ERANGE ERANGE ERANGE "
tap_check "unknown kind, flags set: EINVAL" \
	test "$(./mglock open acq:3:100 acq:0:100 acq:p:100:1)" = "ok EINVAL EINVAL EINVAL "
tap_check "bad pointers: EFAULT" test "$(./mglock open badacq badget)" = "ok EFAULT EFAULT "
tap_check "unknown requests: ENOTTY (0xC924, 0xCC23: no SET_LEVEL of 0.1.0)" \
	test "$(./mglock open cmd:0 cmd:0x1234 cmd:0xcc21cc cmd:0xc924 cmd:0xcc23)" = "ok ENOTTY ENOTTY ENOTTY ENOTTY ENOTTY "
tap_check "SET_LEVEL: bad levels and address as ACQUIRE's (ERANGE EINVAL EFAULT)" \
	test "$(./mglock open acq:p:900 chg:p:0 chg:m:1000001 chg:3:100 chg:p:100:1 badchg get)" = \
		"ok ok ERANGE ERANGE EINVAL EINVAL EFAULT 2,1,400,0 "
OPS=
for i in $(seq 16); do OPS="$OPS acq:p:900"; done
WANT="ok"
for i in $(seq 16); do WANT="$WANT ok"; done
tap_check "nesting deeper than 16 on one file: EBUSY" \
	test "$(./mglock open $OPS acq:p:900 get)" = "$WANT EBUSY 17,16,400,0 "
tap_check "state intact after the rejected calls" test "$(snap)" = "$BEFORE"
tap_check "the module cannot be unloaded while a file is open" \
	sh -c "! rmmod memguard 2>/dev/null"
unhold $A

### ioctl numbers: type 0xC9, and 0.1.0's 0xCC as aliases until 0.3.0

tap_check "the current numbers are of type 0xC9 (acquire, get, release)" \
	test "$(./mglock open acq:p:300 get rel get)" = "ok ok 1,1,300,0 ok 0,0,1000,0 "
tap_check "0.1.0's numbers still work, mixed with the current ones" \
	test "$(./mglock open acq0:p:300 get0 acq:p:600 get0 rel0 get rel get0 rel0)" = \
		"ok ok 1,1,300,0 ok 2,2,300,0 ok 1,1,300,0 ok 0,0,1000,0 EPERM "

### A level change in place: SET_LEVEL

tap_check "SET_LEVEL changes the most recent acquisition; EPERM holding nothing" \
	test "$(./mglock open chg:p:300 acq:p:500 acq:p:800 get chg:p:100 get chg:m:50 get rel get chg:p:700 get rel chg:p:100)" = \
		"ok EPERM ok ok 2,2,500,0 ok 2,2,100,0 ok 2,2,500,50 ok 1,1,500,0 ok 1,1,700,0 ok EPERM "
# Many changes between 500 and 250 per mille while CPU1's periods are
# traced: a boundary must never find the lock free (CPU1's own budget).
# mglock runs on critical CPU0; the acquisition is older than the
# marker by 5 periods, so every period ending after it began locked.
# Released then acquired again instead, the lock is free in between and
# boundaries see it: the same probe must find that (else it sees nothing).
echo 0 > $T/events/memguard/memguard_bwlock/enable
unlocked() {	# unlocked A B: CPU1's periods between the markers, unlocked ones
	awk -v a="$1" -v b="$2" -v bud="$BUD" '
		index($0, "tracing_mark_write: " a) { on = 1; next }
		index($0, "tracing_mark_write: " b) { on = 0 }
		on && /memguard_period: cpu=1 / {
			n++
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			if (v["read_budget"] == bud) u++
		}
		END { print n + 0, u + 0 }' $T/trace
}
echo > $T/trace
FL=$(./mglock cpu:0 open acq:p:500 sleep:$((BW_PERIOD * 5 / 1000))e-3 mark:fl-a \
	flip:500:250:2 mark:fl-b rel)
set -- $(unlocked fl-a fl-b)
FLN=$1 FLU=$2
echo > $T/trace
RF=$(./mglock cpu:0 open acq:p:500 sleep:$((BW_PERIOD * 5 / 1000))e-3 mark:rf-a \
	reflip:500:250:2 mark:rf-b rel)
set -- $(unlocked rf-a rf-b)
RFN=$1 RFU=$2
tap_diag "SET_LEVEL: $(echo $FL | awk '{ print $6 }') changes in 2 s, $FLU of $FLN periods of CPU1 unlocked;" \
	"release+acquire: $(echo $RF | awk '{ print $6 }') changes, $RFU of $RFN unlocked"
FLC=$(echo $FL | awk '{ print $6 }')
case $FLC in [0-9]*) ;; *) FLC=0 ;; esac
tap_check "SET_LEVEL: thousands of changes, no period of CPU1 unlocked ($FLU of $FLN; $FL)" \
	test "$FLC" -ge 1000 -a "$FLN" -ge 50 -a "$FLU" = 0
tap_check "release then acquire: boundaries do find the lock free ($RFU of $RFN periods)" \
	test "$RFN" -ge 50 -a "$RFU" -gt 0
echo 1 > $T/events/memguard/memguard_bwlock/enable

### The maximum hold time

MH=$M/bwlock_max_hold_ms
tap_check "bwlock_max_hold_ms: 60000 from the load parameter" test "$(rd bwlock_max_hold_ms)" = 60000
bad_max_hold() {
	for v in 0 3600001 1e3 -1 ""; do
		echo "$v" > $MH 2>/dev/null && return 1
	done
	test "$(rd bwlock_max_hold_ms)" = 60000 &&
		grep -q '^bwlock_max_hold_ms: expected 1..3600000 milliseconds' $M/last_cmd_status
}
tap_check "bwlock_max_hold_ms refuses 0, 3600001, 1e3, -1 and empty, keeps 60000 ($(rd last_cmd_status))" \
	bad_max_hold
# After the op=expire event, CPU1's configured budget in its first or
# second period (the one in flight began under the lock).
expire_then_budget() {
	awk -v bud="$BUD" '
		/memguard_bwlock: op=expire pid=[0-9]+ holders=0 permille=1000 mbps=0 / { on = 1; next }
		on && /memguard_period: cpu=1 / {
			n++
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			if (v["read_budget"] == bud) { found = n; exit }
		}
		END { exit !(found && found <= 2) }' $T/trace
}
echo 300 > $MH
echo > $T/trace
GOT=$(./mglock open acq:p:250 acq:p:500 get sleep:1 get acq:p:200 get rel)
tap_check "a hold past 300 ms is ended: both acquisitions dropped, the holder told ($GOT)" \
	test "$GOT" = "ok ok ok 2,2,250,0 ok 0,0,1000,0,expired ETIMEDOUT 0,0,1000,0 EPERM "
tap_check "the lock is free again ($(bw)), one forced release counted" \
	test "$(bw) $(rd bwlock/forced_releases)" = "free 0 0 1000 unlimited 1"
tap_check "trace: op=expire, then CPU1's own budget within two periods" \
	expire_then_budget
echo 60000 > $MH
holder open acq:p:400
A=$HOLDER
sleep 0.5
echo 200 > $MH
sleep 0.2
tap_check "a lower maximum ends a longer hold at once ($(bw), forced $(rd bwlock/forced_releases))" \
	test "$(bw) $(rd bwlock/forced_releases)" = "free 0 0 1000 unlimited 2"
unhold $A
echo 60000 > $MH

### Monitor mode: measured and reported, never held

B20=$((C * 20 / 100))
echo events:$B20 > $M/cpu1/read_budget
echo 1 > $M/monitor
echo 1 > $M/reset_stats
echo > $T/trace
echo 1 > $T/events/memguard/enable
holder open acq:p:100
A=$HOLDER
OUT=$(./spin -t 1.5 0 1)
unhold $A
echo 0 > $T/events/memguard/enable
U1=$(rd cpu1/read_used_avg)
tap_diag "monitor: CPU1 used $U1 per period against a budget of $B20," \
	"throttled $(rd cpu1/throttled_periods)/$(rd cpu1/periods), time share $(share 1) permille;" \
	"CPU0 (critical) used $(rd cpu0/read_used_avg), $(rd cpu0/periods) periods"
tap_check "monitor: status says monitoring every CPU, none held" \
	test "$(rd status | head -n 1)" = "enabled: monitoring CPUs 0 1 (monitor mode: no CPU is held)"
tap_check "monitor: the hog over budget, under the lock too, is never held" \
	test "$(rd cpu1/throttled_periods)" = 0 -a "$(rd cpu1/periods)" -gt 50 -a "$U1" -gt $((B20 * 2))
tap_check "monitor: no memguard_throttle event; period events report the use" \
	sh -c "! grep -q memguard_throttle: $T/trace && grep -q 'memguard_period: cpu=1 .*throttled=0' $T/trace"
tap_check "monitor: the critical CPU is measured too" \
	test "$(rd cpu0/armed)" = 1 -a "$(rd cpu0/periods)" -gt 50
echo 0 > $M/monitor
echo 1 > $M/reset_stats
OUT=$(./spin -t 1 1)
tap_check "monitor off: CPU1 is held again, CPU0 unarmed ($(rd cpu1/throttled_periods) held)" \
	test "$(rd cpu1/throttled_periods)" -gt 0 -a "$(rd cpu0/armed)" = 0
echo 0 > $T/events/memguard/enable
echo > $T/trace
rmmod memguard
tap_check "unloaded: no device node left" test ! -e /dev/memguard
rm -f holder.*

if [ -z "${BWLOCK_IN_SUITE:-}" ]; then
	tap_done
fi
