#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Channels between cells and root Linux (issue 28), on chan.cfg: the
# keeper makes every channel's memory in comm colors 6-7, the runner maps
# each cell's windows (read-only where it only reads), the test inmate
# (inmates/chan.c) and chanpeer, a root Linux program on libcolorguard-chan,
# send and check the same records (chan_pattern.h: records of 1 byte to
# max_record, each checked, so a miscounted loss shows as a bad record).
# cell->Linux and Linux->cell with a reliable reader, one cell writer to
# a cell and two root readers woken by the doorbell (KVM_IOEVENTFD), a
# lapped reader's exact losses, a state latch never read torn, a writer
# that restarts (the readers follow it), a receive that times out, and a
# reader's stray write, which fails that reader only, and a reading cell
# woken by the doorbell's interrupt. Sourced by vm-run
# (mm-color set up, KVM's static keys held). 13 points (vm-run's plan
# counts them).

CCFG=./chan.cfg
PEER=./chanpeer
KEEP_SOCK=/run/colorguard/chan.sock

# peer NAME ARGS...: chanpeer in the background, output in NAME.out; it
# prints "ready" once its end is open.
peer() {
	_n=$1
	shift
	$PEER "$@" > "$_n.out" 2> "$_n.err" &
	eval "PID_$_n=$!"
	_s=0
	while ! grep -q '^ready' "$_n.out" 2>/dev/null && [ $_s -lt 100 ]; do
		sleep 0.1
		_s=$((_s + 1))
	done
}
# peer_wait NAME: its exit status in RC (killed after 120 s)
peer_wait() {
	eval "_p=\$PID_$1"
	if ! gone "$_p" 1200; then
		tap_diag "chanpeer $1 hangs after 120 s"
		kill -9 "$_p" 2>/dev/null
	fi
	wait "$_p"
	RC=$?
}
# cell_bg NAME ARGS...: cell run in the background
cell_bg() {
	_n=$1
	shift
	$CG cell run "$@" --results > "$_n.out" 2>&1 &
	eval "PID_$_n=$!"
}
# all_of NAME KEY...: "KEY=VALUE ..." of a run's results, for the diagnostics
all_of() {
	_f=$1
	shift
	for _k in "$@"; do
		printf '%s=%s ' "$_k" "$(result "$_f" "$_k")"
	done
}
# clean NAME N: a reader got every one of N records, all right
clean() {
	[ "$(result "$1" received)" = "$2" ] && [ "$(result "$1" lost)" = 0 ] &&
	[ "$(result "$1" bad)" = 0 ] && [ "$(result "$1" broken)" = 0 ]
}
# whole NAME N: a reader accounted for N records (got + lost), none bad
whole() {
	_g=$(result "$1" received)
	_l=$(result "$1" lost)
	[ -n "$_g" ] && [ -n "$_l" ] && [ $((_g + _l)) = "$2" ] &&
	[ "$(result "$1" bad)" = 0 ] && [ "$(result "$1" broken)" = 0 ]
}

# Root Linux off the comm colors while the channels run.
echo 0-5 > $C/root_colors

# Without the keeper a cell with channels is refused, with the reason.
run nokeeper $CCFG rt -s "chan=up mode=send n=1" --results
if [ $RC -eq 1 ] && grep -q 'channel "up": .*keeper' nokeeper.out; then
	tap_ok "no keeper: the cell is refused: $(grep -m1 'channel "up"' nokeeper.out | cut -c1-150)"
else
	show nokeeper
	tap_not_ok "no keeper: cell run (status $RC) not refused with a reason"
fi

$CG chan keep $CCFG > keeper.out 2>&1 &
KEEPER=$!
_s=0
while [ ! -S $KEEP_SOCK ] && [ $_s -lt 100 ]; do
	sleep 0.1
	_s=$((_s + 1))
done

# cell -> Linux: 300 records of 1 B to 64 KiB, half of them written in
# place, to a reliable root reader: nothing lost.
peer up -t 20000 linux up recv 300
run up_w $CCFG rt -s "chan=up mode=send n=300 zc=1 timeout_ms=20000" --results
peer_wait up
if [ "$RC" = 0 ] && has up_w '^cell rt: shut down' &&
   [ "$(result up_w sent)" = 300 ] && clean up 300; then
	tap_ok "cell -> Linux: 300 records of 1 B to 64 KiB ($(result up bytes) B) all received and right: $(all_of up received lost bad) writer $(all_of up_w timeouts full)"
else
	show up_w
	sed 's/^/# /' up.err
	tap_not_ok "cell -> Linux: writer $(all_of up_w sent timeouts error) reader $(all_of up received lost bad broken error)"
fi

# Linux -> cell: the same through "down", the cell the reliable reader.
peer down -t 20000 linux down send 300
run down_r $CCFG rt -s "chan=down mode=recv n=300 timeout_ms=20000" --results
peer_wait down
if [ "$RC" = 0 ] && has down_r '^cell rt: shut down' &&
   [ "$(result down sent)" = 300 ] && clean down_r 300; then
	tap_ok "Linux -> cell: 300 records of 1 B to 64 KiB all received and right in the cell: $(all_of down_r received lost bad) writer $(all_of down timeouts faults)"
else
	show down_r
	sed 's/^/# /' down.err
	tap_not_ok "Linux -> cell: writer $(all_of down sent timeouts faults error) reader $(all_of down_r received lost bad broken error)"
fi

# One cell writer, three readers: cell b and two root processes asleep
# on the doorbell.
peer fan0 -t 20000 -s 0 linux fan recv 500
peer fan1 -t 20000 -s 1 linux fan recv 500
cell_bg fan_b $CCFG b -s "chan=fan mode=recv n=500 timeout_ms=20000" --timeout 120
sleep 1
run fan_w $CCFG rt -s "chan=fan mode=send n=500 gap_us=300" --results
peer_wait fan0
rc0=$RC
peer_wait fan1
rc1=$RC
wait $PID_fan_b
if [ "$rc0$rc1" = 00 ] && has fan_w '^cell rt: shut down' &&
   has fan_b '^cell b: shut down' && [ "$(result fan_w sent)" = 500 ] &&
   whole fan_b 500 && whole fan0 500 && whole fan1 500; then
	tap_ok "cell -> cell and 2 root readers: every reader accounted for 500 records, none bad: b $(all_of fan_b received lost) root0 $(all_of fan0 received lost) root1 $(all_of fan1 received lost)"
else
	show fan_w
	show fan_b
	tap_not_ok "one writer, three readers: writer $(all_of fan_w sent error); b $(all_of fan_b received lost bad broken error); root0 $(all_of fan0 received lost bad error); root1 $(all_of fan1 received lost bad error)"
fi
if [ "$(result fan0 wakeups)" -gt 0 ] 2>/dev/null &&
   [ "$(result fan1 wakeups)" -gt 0 ] 2>/dev/null &&
   [ "$(result fan_w rung)" -gt 0 ] 2>/dev/null; then
	tap_ok "doorbell: the cell rang $(result fan_w rung) times through KVM_IOEVENTFD, the root readers woke $(result fan0 wakeups) and $(result fan1 wakeups) times"
else
	tap_not_ok "doorbell: cell rang $(result fan_w rung), root readers woke $(result fan0 wakeups) and $(result fan1 wakeups) times"
fi

# A lapped reader: 1000 records into a 4 KiB ring, read afterwards.
run lap_w $CCFG rt -s "chan=lap mode=send n=1000" --results
peer lap -t 500 linux lap recv 1000
peer_wait lap
if has lap_w '^cell rt: shut down' && whole lap 1000 &&
   [ "$(result lap lost)" -gt 900 ]; then
	tap_ok "lapped reader: $(result lap received) records read, $(result lap lost) counted lost, none bad: exactly 1000"
else
	tap_not_ok "lapped reader: $(all_of lap received lost bad broken error)"
fi

# A state latch: 2000 values of 1 to 512 B, never read torn.
peer st -t 20000 linux state read 2000
run st_w $CCFG rt -s "chan=state mode=publish n=2000 gap_us=50" --results
peer_wait st
if has st_w '^cell rt: shut down' && [ "$(result st last_gen)" = 2000 ] &&
   [ "$(result st torn)" = 0 ] && [ "$(result st values)" -gt 0 ]; then
	tap_ok "state latch: $(result st values) values read up to 2000, $(result st skipped) skipped, none torn"
else
	tap_not_ok "state latch: $(all_of st values last_gen skipped torn error)"
fi

# A writer that restarts: the reader, opened on what an earlier writer
# left, follows each new run of the writer (two restarts).
peer epoch -d -t 30000 linux up recv 200
run ep1 $CCFG rt -s "chan=up mode=send n=100 timeout_ms=20000" --results
run ep2 $CCFG rt -s "chan=up mode=send n=100 timeout_ms=20000" --results
peer_wait epoch
if [ "$(result ep1 sent)" = 100 ] && [ "$(result ep2 sent)" = 100 ] &&
   clean epoch 200 && [ "$(result epoch restarts)" = 2 ]; then
	tap_ok "writer restart: the reader (after $(result epoch drained) records of the earlier run) followed each of 2 restarts and got both runs' 100 records, right: $(all_of epoch received lost restarts)"
else
	sed 's/^/# /' epoch.err
	tap_not_ok "writer restart: runs sent $(result ep1 sent) and $(result ep2 sent) ($(all_of ep2 error timeouts)); reader $(all_of epoch received lost bad restarts broken error)"
fi

# A reading cell asleep (halted in the kernel) until root Linux's writer
# rings its doorbell: an interrupt from KVM_IRQFD, no exit.
cell_bg bell_r $CCFG rt -s "chan=bell mode=sleep n=200 timeout_ms=20000"
sleep 1
peer bell -t 20000 -g 2000 linux bell send 200
peer_wait bell
wait $PID_bell_r
if has bell_r '^cell rt: shut down' && whole bell_r 200 &&
   [ "$(result bell_r doorbell_irqs)" -gt 0 ] 2>/dev/null &&
   [ "$(result bell_r sleeps)" -gt 0 ] 2>/dev/null; then
	tap_ok "doorbell into a cell: 200 records accounted for asleep, $(all_of bell_r received lost sleeps doorbell_irqs timer_ticks)writer $(all_of bell rung); $(sed -n 's/^cell rt: run time .*, \(exits mmio=[0-9]*\) .*/\1/p' bell_r.out) in all"
else
	show bell_r
	tap_not_ok "doorbell into a cell: $(all_of bell_r received lost bad sleeps doorbell_irqs timer_ticks no_irq error) writer $(all_of bell sent rung error)"
fi

# A receive with nobody writing ends at its timeout.
run tmo $CCFG rt -s "chan=down mode=timeout timeout_ms=300" --results
if has tmo '^cell rt: shut down' && [ "$(result tmo timed_out)" = 1 ]; then
	tap_ok "a receive of 300 ms with no writer timed out after $(result tmo waited_us) us"
else
	show tmo
	tap_not_ok "receive timeout: $(all_of tmo timed_out waited_us)"
fi

# A reader's stray write into the writer's region fails that reader only:
# the writer and the root readers of the channel go on.
peer sf0 -d -t 20000 -s 0 linux fan recv 300
peer sf1 -d -t 20000 -s 1 linux fan recv 300
cell_bg sf_w $CCFG rt -s "chan=fan mode=send n=300 gap_us=1000"
run stray $CCFG b -s "chan=fan mode=stray" --results
wait $PID_sf_w
peer_wait sf0
peer_wait sf1
if [ $RC -eq 0 ] && has stray "^cell b: failed on CPU 1: write of [0-9]* bytes at guest address 0x90000000: channel \"fan\"'s read-only region of the writer" &&
   [ -z "$(result stray stray_survived)" ] && has sf_w '^cell rt: shut down' &&
   whole sf0 300 && whole sf1 300; then
	tap_ok "stray write: $(grep -m1 '^cell b: failed' stray.out | cut -c1-140); the writer and both root readers went on ($(all_of sf0 received lost))"
else
	show stray
	tap_not_ok "stray write: b $(grep -m1 '^cell b:' stray.out); writer $(all_of sf_w sent); root $(all_of sf0 received lost bad) $(all_of sf1 received lost bad)"
fi
# And a root reader cannot make its mapping of the region writable.
$PEER -s 0 linux fan stray > rostray.out 2>&1
if [ "$(result rostray writable)" = 0 ]; then
	tap_ok "root reader: mprotect of the writer's region to writable fails (errno $(result rostray mprotect_errno))"
else
	sed 's/^/# /' rostray.out
	tap_not_ok "root reader: the writer's region became writable"
fi

# The keeper's own account, then it stops cleanly.
$CG chan stat > stat.out 2>&1
kill -TERM $KEEPER
if gone $KEEPER 100 && wait $KEEPER && [ ! -e $KEEP_SOCK ]; then
	tap_ok "keeper: stat answered ($(wc -l < stat.out) lines), SIGTERM ends it and removes its socket"
else
	sed 's/^/# /' keeper.out | tail -n 5
	kill -9 $KEEPER 2>/dev/null
	tap_not_ok "keeper: did not end cleanly on SIGTERM"
fi
echo 0-7 > $C/root_colors
