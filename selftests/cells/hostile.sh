#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile inmates (issue 25): what an inmate does to the comm page, the
# console and the exits must end with the cell failed or limited, with a
# one-line reason, and `colorguard cell run` alive (no signal, status 0
# or 1). Sourced by vm-run (mm-color set up, KVM's static keys held).
# A second vCPU races the comm fields the runner reads (fault_cpu over
# 300 rounds of race_runner: a runner that checks one read and uses
# another crashes); garbage in every comm byte; a console flood; exit
# storms of refused requests and past exit_rate; random MMIO and port
# accesses; a console turned off. 11 points (vm-run's plan counts them).

ESC=$(printf '\033')
# alive NAME: the runner exited by itself, status 0 or 1
alive() { [ "$RC" -le 1 ]; }
# raw NAME: the run's output holds a raw escape character
raw() { grep -q "$ESC" "$1.out"; }
fail_line() { grep "^cell $2: failed on CPU" "$1.out" | head -n1; }

### a second vCPU races the comm fields the runner reads

# race FIELD ROUNDS: race_runner (one process, one VM, ROUNDS runs of
# inmates/race.bin) with vCPU 1 flipping FIELD; output in race-FIELD.out
race() {
	./race_runner ./smp.cfg duo inmates/race.bin field=$1 $2 > race-$1.out 2>&1
	RC=$?
}
# fault_cpu flips between 0 and 0xffffffff while vCPU 0 reports a fault:
# each round is a chance for a runner that checks one read of fault_cpu
# and indexes vm->vcpus[] with another to crash. On x86_64 vCPU 1 goes on
# flipping while the runner serves vCPU 0's stop (both values are seen);
# on arm64 KVM stops every vCPU at PSCI SYSTEM_OFF before the runner
# reads, so only the last value is seen there.
race fault_cpu 300
odd=$(grep -v '^300 rounds$' race-fault_cpu.out | grep -cv \
	'x inmate fault \(on vCPU 0: race (\|reported for vCPU 4294967295, not a vCPU of the cell\)')
if [ $RC = 0 ] && has race-fault_cpu '^300 rounds$' && [ "$odd" = 0 ]; then
	tap_ok "race on fault_cpu: 300 rounds failed with a reason, runner alive: $(grep ' x ' race-fault_cpu.out | cut -c1-90 | tr '\n' ';')"
else
	show race-fault_cpu 20
	tap_not_ok "race on fault_cpu: status $RC (a signal: the runner crashed), $odd unexpected outcomes"
fi

# inmate_state flips between DONE, FAILED and garbage while vCPU 0 stops;
# fault_reason between a line and escape sequences without a NUL.
race state 100
ok=$RC
race reason 100
ok="$ok $RC"
run race-cli ./smp.cfg duo inmates/race.bin -s field=reason --timeout 30
if [ "$ok" = "0 0" ] && [ $RC = 1 ] && has race-state '^100 rounds$' &&
   has race-reason '^100 rounds$' && ! raw race-reason && ! raw race-cli &&
   [ -n "$(fail_line race-cli duo)" ]; then
	tap_ok "races on inmate_state and fault_reason: 100 rounds each, runner alive, no raw escape: $(grep ' x ' race-state.out | cut -c1-60 | tr '\n' ';')"
else
	show race-state 8
	show race-reason 8
	show race-cli 8
	tap_not_ok "races on inmate_state and fault_reason (status $ok, $RC)"
fi

### garbage in every byte of the comm page

run garbage $CFG rt inmates/garbage.bin --results
n=$(grep -c '^result ' garbage.out)
if [ $RC = 1 ] && ! raw garbage && [ "$n" -le 94 ] &&
   has garbage '^cell rt: failed on CPU 0: inmate fault reported for vCPU 4294967295, not a vCPU of the cell' &&
   has garbage 'x1b\]0;owned' && [ "$(grep -c '^cell rt: shut down' garbage.out)" = 0 ]; then
	tap_ok "garbage comm page: failed with a reason, $n results of 94 at most, escapes shown escaped: $(fail_line garbage rt | cut -c1-150)"
else
	show garbage 20
	tap_not_ok "garbage comm page (status $RC, $n results, raw escape: $(raw garbage && echo yes || echo no))"
fi
run garbage-state $CFG rt inmates/garbage.bin -s what=state
if [ $RC = 1 ] && has garbage-state "^cell rt: failed on CPU 0: inmate stopped with an unknown inmate_state 0x5a5a5a5a"; then
	tap_ok "garbage inmate_state at the stop: $(fail_line garbage-state rt)"
else
	show garbage-state
	tap_not_ok "garbage inmate_state at the stop (status $RC)"
fi

### a console flood

run flood $CFG rt inmates/flood.bin -s lines=1000
n=$(grep -c '^\[rt\] f[0-9]' flood.out)
if [ $RC = 0 ] && ! raw flood && [ "$n" -le 300 ] &&
   has flood '^cell rt: console: [0-9]* lines dropped'; then
	tap_ok "console flood of 1000 lines: $n shown, $(grep -m1 'lines dropped' flood.out), shut down"
else
	show flood 6
	tap_not_ok "console flood of 1000 lines: status $RC, $n lines shown, raw escape: $(raw flood && echo yes || echo no), note: $(grep -c 'lines dropped' flood.out)"
fi

# console_output = false: nothing shown, and the library writes nothing
# (the one MMIO exit on x86_64 is the stop register's).
run quiet ./quiet.cfg rt --results
x=$(sed -n 's/.* exits mmio=\([0-9]*\) .*/\1/p' quiet.out)
[ "$(uname -m)" = x86_64 ] && stop_exits=1 || stop_exits=0
if [ $RC = 0 ] && ! has quiet '^\[rt\]' && [ "$(result quiet hello)" = 1 ] &&
   [ "$x" = $stop_exits ]; then
	tap_ok "console_output = false: no line shown, no console exit ($x MMIO exits), result hello=1"
else
	show quiet
	tap_not_ok "console_output = false (status $RC, mmio exits $x)"
fi

### exit storms of refused requests

for w in bwlock read; do
	run storm-$w $CFG rt inmates/storm.bin -s "what=$w n=20000" --timeout 60
	if [ $RC = 1 ] && has storm-$w '^cell rt: failed on CPU 0: exit storm'; then
		tap_ok "exit storm ($w): $(fail_line storm-$w rt)"
	else
		show storm-$w
		tap_not_ok "exit storm ($w): status $RC, $(grep '^cell rt:' storm-$w.out | tail -n2 | tr '\n' ' ')"
	fi
done

# exit_rate = 500: a console flood (served exits) fails the cell.
run rate ./storm.cfg rt inmates/flood.bin -s lines=1000
if [ $RC = 1 ] && has rate '^cell rt: failed on CPU 0: exit storm: more than 500 exits in a second'; then
	tap_ok "exit storm past exit_rate = 500: $(fail_line rate rt)"
else
	show rate
	tap_not_ok "exit storm past exit_rate = 500: status $RC"
fi

### random MMIO and port accesses

# fail_each NAME SEEDS OPTIONS REASON: every seed's run of wild.bin (with
# OPTIONS before its seed) fails the cell with REASON
fail_each() {
	_ok=1
	for s in $2; do
		run $1 $CFG rt inmates/wild.bin -s "${3}seed=$s"
		if [ $RC != 1 ] || ! has $1 "^cell rt: failed on CPU 0: $4"; then
			show $1
			_ok=0
		fi
	done
	[ $_ok = 1 ]
}
if fail_each wild "1 2 3 4 5 6" "" '\(write\|read\) of [1248] bytes at guest address'; then
	tap_ok "random MMIO (6 seeds): failed with a reason each: $(fail_line wild rt)"
else
	tap_not_ok "random MMIO"
fi
if [ "$(uname -m)" = x86_64 ]; then
	if fail_each port "1 2 3" "what=port " 'port I/O \(in\|out\) at port'; then
		tap_ok "random port I/O (3 seeds): failed with a reason each: $(fail_line port rt)"
	else
		tap_not_ok "random port I/O"
	fi
else
	tap_skip "random port I/O" "no port I/O on $(uname -m)"
fi
