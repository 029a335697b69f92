#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Where a cell's threads run, and a cell CPU taken offline (issue 25).
# Only the vCPU threads enter the cell's partition, each pinned to its
# CPU (and SCHED_FIFO when vcpu_priority says so); the runner's other
# threads stay on root Linux's CPUs. A CPU of a running cell taken
# offline fails the cell at once with the CPU named, and everything is
# given back, for a cell of one CPU (its partition made invalid) and of
# two (its partition still valid with the other). Sourced by vm-run
# after the SIGTERM test (run, gone, has, show, left, host_state, HOST_BASE);
# needs 3 guest CPUs. 3 points (vm-run's plan counts them).

ONLINE=/sys/devices/system/cpu
# start NAME CFG CELL: a spinning cell run in the background, PID in
# RUN_PID, once its vCPUs run (the "started" line); 0 when it did
start() {
	$CG cell run "$2" "$3" inmates/spin.bin --timeout 60 > "$1.out" 2>&1 &
	RUN_PID=$!
	_s=0
	while ! has "$1" '^cell .*: created in' && [ $_s -lt 300 ] &&
	      kill -0 $RUN_PID 2>/dev/null; do
		sleep 0.1
		_s=$((_s + 1))
	done
	# The vCPU threads are placed before cell_vm_start() returns.
	sleep 1
	kill -0 $RUN_PID 2>/dev/null
}
# finish NAME: wait up to 10 s for the run, status in RC (124: killed)
finish() {
	if ! gone $RUN_PID 100; then
		kill -9 $RUN_PID
		wait $RUN_PID
		RC=124
		return
	fi
	wait $RUN_PID
	RC=$?
}
# give_back_cpu CPU: the cell's release ran while CPU was offline, so the
# partition's removal gave root's tasks the cell's other CPUs only, and
# Linux leaves the masks of the cgroup root's tasks alone when a CPU comes
# back (cpuset_hotplug_workfn). A partition made and removed again widens
# them to every online CPU, as a cell's claim and release would: the
# suites after this one need the guest's CPUs back.
give_back_cpu() {
	_w=/sys/fs/cgroup/place-widen
	mkdir $_w && echo "$1" > $_w/cpuset.cpus &&
		echo root > $_w/cpuset.cpus.partition
	echo member > $_w/cpuset.cpus.partition 2>/dev/null
	rmdir $_w
}
# threads PID: one line per thread: TID CGROUP CPUS POLICY PRIO
threads() {
	for _t in /proc/$1/task/*; do
		# After the last ")": field 3 is the 1st; rt_priority is 40, policy 41.
		set -- $(sed 's/.*) //' $_t/stat)
		shift 37
		echo "${_t##*/} $(sed -n 's/^0:://p' $_t/cgroup) $(sed -n 's/^Cpus_allowed_list:\t//p' $_t/status) $2 $1"
	done
}

### only the vCPU thread in the partition, SCHED_FIFO 10 on CPU 1

if start place ./place.cfg one; then
	threads $RUN_PID > place.threads
	IN=$(grep -c ' /colorguard-one ' place.threads)
	VCPU=$(grep ' /colorguard-one ' place.threads | head -n1)
	# Every other thread: outside the partition, CPU 1 not among its CPUs.
	OUT_OK=$(grep -v ' /colorguard-one ' place.threads |
		awk '{ n = split($3, r, ","); for (i = 1; i <= n; i++) {
			split(r[i], b, "-"); hi = b[2] == "" ? b[1] : b[2];
			if (b[1] <= 1 && hi >= 1) bad = 1 } } END { print bad ? "no" : "yes" }')
	set -- $VCPU
	if [ "$IN" = 1 ] && [ "$3" = 1 ] && [ "$4" = 1 ] && [ "$5" = 10 ] &&
	   [ "$OUT_OK" = yes ]; then
		tap_ok "only the vCPU thread in /colorguard-one (CPU $3, SCHED_FIFO $5); $(($(wc -l < place.threads) - 1)) other threads on root's CPUs ($(grep -v ' /colorguard-one ' place.threads | head -n1 | cut -d' ' -f2-3))"
	else
		tap_not_ok "threads of the runner (TID cgroup CPUs policy priority): want one in /colorguard-one on CPU 1 at policy 1 priority 10, the others off CPU 1"
		sed 's/^/# /' place.threads
	fi
else
	show place
	tap_not_ok "cell run of place.cfg one did not start"
fi

### a CPU of the running cell taken offline

# offline NAME CPU CELL: CPU goes offline under the running cell; the run
# must end by itself within 10 s, failed with the CPU named (or, for a
# cell's last CPU, with the kernel's reason for the invalid partition,
# which may come first), then the CPU comes back and the host side is as
# before the run.
offline() {
	echo 0 > $ONLINE/cpu$2/online
	finish "$1"
	echo 1 > $ONLINE/cpu$2/online
	give_back_cpu $2
	if [ $RC = 1 ] &&
	   has "$1" "^cell $3: failed on CPU [0-9]*: \(CPU $2 of the cell went offline\|the kernel made the cell's partition \"[a-z]* invalid[^\"]*\"\)" &&
	   left && [ "$(host_state)" = "$HOST_BASE" ]; then
		tap_ok "CPU $2 of cell $3 offline: $(grep "^cell $3: failed" "$1.out"), host side given back"
	else
		show "$1"
		tap_not_ok "CPU $2 of cell $3 offline (status $RC): the cell must fail at once, the host side be given back"
		host_state > "$1.state"
		echo "$HOST_BASE" | diff - "$1.state" | head -n 6 | sed 's/^/# /'
	fi
}
offline place 1 one
if start place2 ./place2.cfg two; then
	offline place2 2 two
else
	show place2
	tap_not_ok "cell run of place2.cfg two did not start"
fi
