# SPDX-License-Identifier: GPL-2.0
# TAP 13 helpers for shell test scripts (busybox sh in the guest, bash on
# the host). Source it, call tap_plan N, then one tap_* per test point.

TAP_N=0
TAP_FAILED=0
TAP_T=$(date +%s)

# Points that took 5 s or more say so, to show where a suite's time goes.
tap_time() {
	_now=$(date +%s)
	[ $((_now - TAP_T)) -lt 5 ] || echo "# ($((_now - TAP_T)) s)"
	TAP_T=$_now
}

tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

tap_diag() {
	echo "# $*"
}

tap_ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N $*"
	tap_time
}

tap_not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N $*"
	tap_time
}

tap_skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N $1 # SKIP $2"
	tap_time
}

# tap_check DESCRIPTION COMMAND...: one test point from a command's status.
tap_check() {
	_desc=$1
	shift
	if "$@"; then
		tap_ok "$_desc"
	else
		tap_not_ok "$_desc"
	fi
}

tap_done() {
	[ "$TAP_FAILED" -eq 0 ]
	exit $?
}
