# SPDX-License-Identifier: GPL-2.0
# Test-bed workaround for the KVM suites (busybox sh in the guest).
#
# Creating and destroying a cell flips kernel static keys (the first
# non-root cpuset, KVM's vCPU without an in-kernel irqchip), and each flip
# re-patches kernel text (text_poke_bp). Under QEMU 7.2's multi-threaded
# TCG that patching sometimes never finishes: in about one x86_64 cells
# run in four both guest CPUs spun with interrupts off, one at a jump
# label site crossing a page boundary (finish_task_switch+0x9f), the other
# taking int3 there over and over; soft lockups and RCU stalls, then the
# boot's timeout (reference/cells.rst). Holding each key on from the first
# KVM suite to the boot's end (a cpuset cgroup of our own, a KVM vCPU
# without an irqchip) flips each key once per boot instead of twice per
# suite. colorguard's code paths stay the same: the cells still make and
# remove their partitions and VMs.

# The hold outlives the suite that started it: the bed's init leaves the
# processes named in $TESTBED_KEEP running between suites.
TESTBED_KEEP=/tmp/testbed-keep.pids
STATIC_KEYS_PIDFILE=/tmp/kvm_hold.pid

# static_keys_hold DIR: DIR is the suite's folder (kvm_hold lives in cells/).
static_keys_hold() {
	if [ -s $STATIC_KEYS_PIDFILE ] &&
	   kill -0 "$(cat $STATIC_KEYS_PIDFILE)" 2>/dev/null; then
		STATIC_KEYS_PID=$(cat $STATIC_KEYS_PIDFILE)
		return 0
	fi
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts ||
		mount -t cgroup2 none /sys/fs/cgroup
	echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p /sys/fs/cgroup/testbed-hold
	"$1"/kvm_hold > /tmp/kvm_hold.out 2>&1 &
	STATIC_KEYS_PID=$!
	echo "$STATIC_KEYS_PID" > $STATIC_KEYS_PIDFILE
	echo "$STATIC_KEYS_PID" >> $TESTBED_KEEP
	# Ready once its vCPU exists.
	_i=0
	while ! grep -q holding /tmp/kvm_hold.out 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}

# The VM kvm_hold holds, as named under /sys/kernel/debug/kvm (PID-FD).
static_keys_vm() { echo "$STATIC_KEYS_PID-"; }

# The keys stay held until power-off: releasing them would flip them again.
static_keys_release() { :; }
