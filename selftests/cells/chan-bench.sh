#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Channels' exits per message from a cell writer (issue 28's bench), on
# chan.cfg: the test inmate (inmates/chan.bin) sends N records, then 1;
# (MMIO exits of the N run - those of the 1 run) / (N - 1), from `cell
# run`'s exits line, is what a message costs in exits to the runner, the
# run's fixed exits (console lines, results, shutdown) cancelling out;
# shown also less the console's bytes, an exit each, as the N run's line
# is a few digits longer.
# Twice: on "up", its root reader (chanpeer) polling, and on "fan", two
# root readers asleep on the doorbell, which the cell rings through
# KVM_IOEVENTFD. Goal 0 polled; figures are reported, not asserted: a
# point fails only when a run does not complete.
#
# Sourced in the cells suite's boot once its setup is done (KVM, mm-color,
# $C, $CG, run, result, gone, show, tap_*): it uses the keeper whose
# socket is there, else starts one of chan.cfg and stops it at the end
# (after chan.sh, which stops its own). CB_N records (default 200).
# 2 points.

CB_CFG=./chan.cfg
CB_PEER=./chanpeer
CB_SOCK=/run/colorguard/chan.sock
CB_N=${CB_N:-200}

# cb_exits NAME: a run's MMIO exits, then its console's bytes (each
# console byte is an MMIO exit: the N run's line has more digits)
cb_exits() {
	sed -n 's/.* exits mmio=\([0-9]*\) .*/\1/p' "$1.out" | head -n1
	sed -n 's/^\[rt\] //p' "$1.out" | awk '{ n += length($0) + 1 } END { print n + 0 }'
}

# cb_peers NAME N CHANNEL SLOT...: a root reader of N records per slot,
# in the background; each prints "ready" once its end is open
cb_peers() {
	_cn=$1
	_cnr=$2
	_cch=$3
	shift 3
	CB_PIDS=
	for _cs in "$@"; do
		$CB_PEER -t 20000 -s "$_cs" linux "$_cch" recv "$_cnr" \
			> "$_cn$_cs.out" 2> "$_cn$_cs.err" &
		CB_PIDS="$CB_PIDS $!"
		_ct=0
		while ! grep -q '^ready' "$_cn$_cs.out" 2>/dev/null && [ $_ct -lt 100 ]; do
			sleep 0.1
			_ct=$((_ct + 1))
		done
	done
}

cb_peers_wait() {
	for _cp in $CB_PIDS; do
		if ! gone "$_cp" 1200; then
			tap_diag "chanpeer $_cp hangs after 120 s"
			kill -9 "$_cp" 2>/dev/null
		fi
		wait "$_cp"
	done
}

# cb_point WHAT CHANNEL ARGS SLOT...: the N and 1 runs, then the point
cb_point() {
	_cw=$1
	_cc=$2
	_ca=$3
	shift 3
	for _ck in 1 "$CB_N"; do
		cb_peers "cb_${_cc}_r$_ck" "$_ck" "$_cc" "$@"
		run "cb_${_cc}_$_ck" $CB_CFG rt -s "chan=$_cc mode=send n=$_ck $_ca" --results
		eval "_crc$_ck=\$RC"
		cb_peers_wait
	done
	set -- $(cb_exits "cb_${_cc}_1") $(cb_exits "cb_${_cc}_$CB_N")
	if [ "$_crc1$(eval echo \$_crc$CB_N)" = 00 ] && [ $# = 4 ] &&
	   [ "$(result "cb_${_cc}_1" sent)" = 1 ] &&
	   [ "$(result "cb_${_cc}_$CB_N" sent)" = "$CB_N" ]; then
		tap_ok "$(awk -v a="$1" -v ca="$2" -v b="$3" -v cb="$4" -v n="$CB_N" -v w="$_cw" \
			'BEGIN { printf "exits per message, %s: %.3f MMIO, %.3f less the console bytes; %d MMIO exits (%d console bytes) for %d records, %d (%d) for 1", w, (b - a) / (n - 1), (b - cb - a + ca) / (n - 1), b, cb, n, a, ca }'), doorbell rung $(result "cb_${_cc}_$CB_N" rung) times"
	else
		show "cb_${_cc}_$CB_N"
		tap_not_ok "exits per message, $_cw: runs of $CB_N and 1 records: status $(eval echo \$_crc$CB_N) and $_crc1, sent $(result "cb_${_cc}_$CB_N" sent) and $(result "cb_${_cc}_1" sent)"
	fi
}

CB_ROOT_COLORS=$(cat $C/root_colors)
# Root Linux off the comm colors while the channels run, as in chan.sh.
echo 0-5 > $C/root_colors
CB_KEEPER=
if [ ! -S $CB_SOCK ]; then
	# The runner makes the folder at its first cell; this may come first.
	mkdir -p "${CB_SOCK%/*}"
	$CG chan keep $CB_CFG > cb_keeper.out 2>&1 &
	CB_KEEPER=$!
	_ct=0
	while [ ! -S $CB_SOCK ] && [ $_ct -lt 100 ]; do
		sleep 0.1
		_ct=$((_ct + 1))
	done
	[ -S $CB_SOCK ] || sed 's/^/# keeper: /' cb_keeper.out | head -n 5
fi

cb_point "polled root reader (up, reliable)" up "timeout_ms=20000" 0
cb_point "2 root readers on the doorbell (fan)" fan "gap_us=300" 0 1

if [ -n "$CB_KEEPER" ]; then
	kill -TERM $CB_KEEPER
	gone $CB_KEEPER 100 || kill -9 $CB_KEEPER 2>/dev/null
	wait $CB_KEEPER
fi
echo "$CB_ROOT_COLORS" > $C/root_colors
