#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `colorguard chan` from the shell: a --no-color keeper in the background
# on a socket in a temporary folder, then chan ls, stat, send and cat
# (queue records from arguments and from standard input, escaping, hex,
# a state channel), their refusals and usage errors, a second keeper on
# the same socket and one of a config with problems, and the keeper's
# clean stop at SIGTERM.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/selftests/lib/tap.sh"
cg=${COLORGUARD:-$top/build/host/colorguard/colorguard}
tmp=$(mktemp -d)
sock=$tmp/chan.sock
keeper=
cleanup() {
	[ -n "$keeper" ] && kill "$keeper" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

cat > "$tmp/system.cfg" <<'EOF'
llc = { size = "1M"; ways = 16; line_size = 64; };
channels = (
	{ name = "log"; kind = "queue"; size = "64K"; max_record = "4K"; colors = "6-7"; },
	{ name = "vehicle"; kind = "state"; max_record = 16; colors = "6-7"; }
);
cells = (
	{ name = "rt"; type = "critical"; cpus = "0"; colors = "8-15";
	  memory = ( { phys = "0x30000000"; virt = "0"; size = "32M"; } );
	  channels = (
		{ name = "log"; role = "writer"; address = "0x90000000"; },
		{ name = "vehicle"; role = "writer"; address = "0x90100000"; } ); },
	{ name = "linux"; type = "root"; cpus = "1"; colors = "0-5";
	  memory = ( { phys = "0x0"; size = "192M"; span = "512M"; } );
	  channels = (
		{ name = "log"; role = "reader"; readers = 2; },
		{ name = "vehicle"; role = "reader"; } ); }
);
EOF

# Run the tool on the keeper's socket: $tmp/out, $tmp/err, $rc.
run() {
	"$cg" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
}

show() {
	tap_diag "status $rc; stdout:"
	sed 's/^/#   /' "$tmp/out"
	tap_diag "stderr:"
	sed 's/^/#   /' "$tmp/err"
}

# expect DESC STATUS: the last run's status, its stdout equal to $tmp/want.
expect() {
	if [ "$rc" -eq "$2" ] && diff -u "$tmp/want" "$tmp/out" > "$tmp/diff"; then
		tap_ok "$1"
	else
		show
		sed 's/^/#   /' "$tmp/diff"
		tap_not_ok "$1"
	fi
}

# expect_err DESC STATUS TEXT: status, and TEXT in stderr.
expect_err() {
	if [ "$rc" -eq "$2" ] && grep -qF -- "$3" "$tmp/err"; then
		tap_ok "$1"
	else
		tap_diag "wanted status $2 and: $3"
		show
		tap_not_ok "$1"
	fi
}

tap_plan 16

"$cg" chan keep "$tmp/system.cfg" --no-color --socket "$sock" \
	> "$tmp/keep.out" 2> "$tmp/keep.err" &
keeper=$!
# Listening once `chan ls` answers (a bound, not a speed check).
for _ in $(seq 300); do
	run chan ls --socket "$sock"
	[ "$rc" -eq 0 ] && break
	kill -0 "$keeper" 2>/dev/null || break
	sleep 0.1
done
printf '%s\n' "CHANNEL          KIND  FLAGS             SLOTS (pid: attached)" \
	"log              queue -                 writer rt readers linux/0 linux/1" \
	"vehicle          state -                 writer rt readers linux/0" > "$tmp/want"
expect "chan keep --no-color listens; chan ls lists its channels and slots" 0

COLORGUARD_CHAN_SOCK=$sock run chan send log --cell rt one two 'three four'
expect_err "chan send: each argument a record (socket from \$COLORGUARD_CHAN_SOCK)" 0 \
	"log: 3 records"
run chan cat log --cell linux -n 3 --timeout 5000 --socket "$sock"
printf '%s\n' one two 'three four' > "$tmp/want"
expect "chan cat -n 3: the three records, a line each" 0

printf 'tab\there\nback\\slash\n\001\n' |
	run chan send log --cell rt --socket "$sock"
run chan cat log --cell linux -n 3 --timeout 5000 --socket "$sock"
printf '%s\n' 'tab\there' 'back\\slash' '\x01' > "$tmp/want"
expect "chan send from standard input; chan cat escapes what is not printable" 0

run chan send log --cell rt --socket "$sock" AB
run chan cat log --cell linux --slot 1 --hex -n 1 --timeout 5000 --socket "$sock"
printf '4142\n' > "$tmp/want"
expect "chan cat --hex, reader slot 1" 0
expect_err "chan cat's counts on stderr" 0 "log: 1 records, lost 0, broken no, restarts 0"

run chan send vehicle --cell rt --socket "$sock" v1 v2 v3
run chan cat vehicle --cell linux -n 1 --timeout 5000 --socket "$sock"
printf 'v3\n' > "$tmp/want"
expect "chan send publishes on a state channel; chan cat takes the latest value" 0

run chan cat log --cell linux -n 2 --timeout 200 --socket "$sock"
expect_err "chan cat: a timeout is status 1 with its reason" 1 \
	"log: timeout: nothing came in 200 ms"

run chan send log --cell linux --socket "$sock" x
expect_err "chan send: a reader cannot write (the keeper's reason)" 1 \
	'cell "linux" does not write "log"'
run chan cat log --cell linux --slot 2 --socket "$sock"
expect_err "chan cat: a slot the cell does not have" 1 \
	'cell "linux" has 2 reader slots of "log"'
run chan send vehicle --cell rt --socket "$sock" 12345678901234567
expect_err "chan send: a record longer than max_record" 1 \
	"record 0: 17 bytes, vehicle takes 0 to 16"

run chan cat log --socket "$sock"
expect_err "chan cat without --cell: usage error" 2 "cat: needs --cell CELL"

# The refused send above attached the writer a second time: the keeper
# reset the region for it (head 0) and it published nothing.
run chan stat vehicle --socket "$sock"
if [ "$rc" -eq 0 ] && grep -q '^channel vehicle kind=state .* head=0 .* epoch=6$' "$tmp/out" &&
   grep -q '^slot vehicle writer cell=rt attached=no pid=0 attaches=2$' "$tmp/out" &&
   ! grep -q '^channel log' "$tmp/out"; then
	tap_ok "chan stat NAME: that channel's lines; a writer's attach resets the head"
else
	show
	tap_not_ok "chan stat NAME: that channel's lines; a writer's attach resets the head"
fi

run chan keep "$tmp/system.cfg" --no-color --socket "$sock"
expect_err "a second keeper on a socket being served is refused" 1 \
	"a keeper already listens there"

sed 's/colors = "6-7"; },$/colors = "8-9"; },/' "$tmp/system.cfg" > "$tmp/bad.cfg"
run chan keep "$tmp/bad.cfg" --no-color --socket "$tmp/bad.sock"
if [ "$rc" -eq 1 ] && grep -q 'are also cell "rt"'"'"'s' "$tmp/err" &&
   grep -q 'nothing kept' "$tmp/err" && [ ! -e "$tmp/bad.sock" ]; then
	tap_ok "chan keep refuses a config with problems, with the checker's lines"
else
	show
	tap_not_ok "chan keep refuses a config with problems, with the checker's lines"
fi

kill -TERM "$keeper"
wait "$keeper"
rc=$?
keeper=
if [ "$rc" -eq 0 ] && [ ! -e "$sock" ]; then
	tap_ok "SIGTERM: the keeper exits with 0 and removes its socket"
else
	tap_diag "status $rc; socket $([ -e "$sock" ] && echo left || echo removed)"
	sed 's/^/#   /' "$tmp/keep.err"
	tap_not_ok "SIGTERM: the keeper exits with 0 and removes its socket"
fi
tap_done
