// SPDX-License-Identifier: GPL-2.0
/*
 * The exits of a vCPU: the console register (console.c), the
 * bandwidth-lock register (bwlock.c), the inmate's stop (the stop
 * register, or PSCI SYSTEM_OFF on arm64), and every exit
 * the runner cannot serve, which fails the cell.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vm_int.h"

void cell_exit_count(struct cell_vm *vm, enum cell_exit_kind k)
{
	__atomic_add_fetch(&vm->exits[k], 1, __ATOMIC_RELAXED);
}

void cell_vcpu_fail(struct cell_vcpu *v, const char *fmt, ...)
{
	char r[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r, sizeof(r), fmt, ap);
	va_end(ap);
	cell_end(v->vm, CELL_FAILED, v->host_cpu, r);
}

/*
 * The inmate stopped: cleanly, or after reporting a fault. state is the
 * one read of inmate_state the caller decided on.
 */
static void inmate_stopped(struct cell_vcpu *v, uint32_t state)
{
	struct cell_vm *vm = v->vm;
	struct cell_comm_fault f;

	if (state > CELL_INMATE_FAILED) {
		cell_vcpu_fail(v, "inmate stopped with an unknown inmate_state 0x%x",
			       state);
		return;
	}
	if (state != CELL_INMATE_FAILED) {
		cell_end(vm, CELL_SHUT_DOWN, -1, NULL);
		return;
	}
	cell_comm_get_fault(vm, &f);
	if (!f.cpu_ok) {
		cell_vcpu_fail(v, "inmate fault reported for vCPU %u, not a vCPU of the cell (stopped on vCPU %u): %s",
			       f.cpu, v->idx, f.reason);
		return;
	}
	cell_vcpu_fail(&vm->vcpus[f.cpu], "inmate fault on vCPU %u: %s (code 0x%llx, address 0x%llx, pc 0x%llx)",
		       f.cpu, f.reason, (unsigned long long)f.info[0],
		       (unsigned long long)f.info[1],
		       (unsigned long long)f.info[2]);
}

/*
 * The inmate's stop on vCPU v (x86: a write of the stop register; a hlt
 * without an in-kernel local APIC): the cell stops on vCPU 0's, or on any
 * vCPU's once the inmate says done or failed; otherwise a secondary
 * parks (its thread ends, the cell goes on).
 */
static void vcpu_stops(struct cell_vcpu *v)
{
	uint32_t state = cell_comm_get_inmate_state(v->vm);

	if (v->idx == 0 || state == CELL_INMATE_DONE ||
	    state == CELL_INMATE_FAILED)
		inmate_stopped(v, state);
}

/*
 * Count one exit the runner served, refused or not: a cell that makes
 * more than CELL_REFUSED_PER_S refused requests or more than its
 * exit_rate exits in a second is failed (an exit storm costs root Linux
 * the runner's time and locks). 0 to go on running.
 */
static int exit_budget(struct cell_vcpu *v, bool refused, const char *what)
{
	struct cell_exit_window *w = &v->vm->storm;
	uint64_t now = cell_now_ns();
	unsigned int exits, nr_refused;

	pthread_mutex_lock(&v->vm->lock);
	if (cell_new_second(&w->start, now)) {
		w->exits = 0;
		w->refused = 0;
	}
	exits = ++w->exits;
	nr_refused = w->refused += refused;
	pthread_mutex_unlock(&v->vm->lock);
	if (nr_refused > CELL_REFUSED_PER_S) {
		cell_vcpu_fail(v, "exit storm: more than %u refused requests in a second (the last: %s)",
			       CELL_REFUSED_PER_S, what);
		return -1;
	}
	if (exits > w->rate) {
		cell_vcpu_fail(v, "exit storm: more than %u exits in a second (the config's exit_rate)",
			       w->rate);
		return -1;
	}
	return 0;
}

/* The console register is write-only, a byte at a time. */
static int console_exit(struct cell_vcpu *v)
{
	struct kvm_run *run = v->run;

	if (!run->mmio.is_write) {
		memset(run->mmio.data, 0, sizeof(run->mmio.data));
		return exit_budget(v, true, "a read of the console register");
	}
	if (run->mmio.len != 1)
		return exit_budget(v, true, "a console write wider than a byte");
	cell_console_byte(v, run->mmio.data[0]);
	return exit_budget(v, false, NULL);
}

/* The stop register: a 32-bit write stops the vCPU, nothing else does. */
static int stop_exit(struct cell_vcpu *v)
{
	struct kvm_run *run = v->run;

	if (run->mmio.is_write && run->mmio.len == CELL_STOP_REG_SIZE) {
		vcpu_stops(v);
		return -1;
	}
	if (!run->mmio.is_write)
		memset(run->mmio.data, 0, sizeof(run->mmio.data));
	return exit_budget(v, true, "a stop-register access that is not a 32-bit write");
}

/* One exit; 0 to go on running. */
int cell_exit_handle(struct cell_vcpu *v)
{
	struct kvm_run *run = v->run;
	struct cell_vm *vm = v->vm;
	char what[96];

	switch (run->exit_reason) {
	case KVM_EXIT_MMIO:
		cell_exit_count(vm, CELL_EXIT_MMIO);
		if (run->mmio.phys_addr == vm->console_gpa)
			return console_exit(v);
		if (run->mmio.phys_addr == vm->bwlock_gpa)
			return exit_budget(v, cell_bwlock_exit(v),
				     "a bandwidth-lock request");
		if (run->mmio.phys_addr == vm->stop_gpa)
			return stop_exit(v);
		if (cell_chans_describe(vm, run->mmio.phys_addr, what, sizeof(what))) {
			cell_vcpu_fail(v, "%s of %u bytes at guest address 0x%llx: %s",
				       run->mmio.is_write ? "write" : "read", run->mmio.len,
				       (unsigned long long)run->mmio.phys_addr, what);
			return -1;
		}
		cell_vcpu_fail(v, "%s of %u bytes at guest address 0x%llx: not the cell's RAM, console or bandwidth-lock register",
			       run->mmio.is_write ? "write" : "read", run->mmio.len,
			       (unsigned long long)run->mmio.phys_addr);
		return -1;
	case KVM_EXIT_IO:
		cell_exit_count(vm, CELL_EXIT_IO);
		cell_vcpu_fail(v, "port I/O %s at port 0x%x", run->io.direction ==
			       KVM_EXIT_IO_OUT ? "out" : "in", run->io.port);
		return -1;
	case KVM_EXIT_HLT:
		/*
		 * Never with the in-kernel local APIC the x86 runner creates
		 * (KVM halts the vCPU itself); kept as the stop it was.
		 */
		cell_exit_count(vm, CELL_EXIT_HLT);
		vcpu_stops(v);
		return -1;
	case KVM_EXIT_SYSTEM_EVENT:
		cell_exit_count(vm, CELL_EXIT_SYSTEM_EVENT);
		if (run->system_event.type == KVM_SYSTEM_EVENT_SHUTDOWN ||
		    run->system_event.type == KVM_SYSTEM_EVENT_RESET)
			inmate_stopped(v, cell_comm_get_inmate_state(vm));
		else
			cell_vcpu_fail(v, "system event %u (PSCI crash or unknown)",
				       run->system_event.type);
		return -1;
	case KVM_EXIT_SHUTDOWN:
		cell_exit_count(vm, CELL_EXIT_OTHER);
		cell_vcpu_fail(v, "triple fault (x86 shutdown)");
		return -1;
	case KVM_EXIT_FAIL_ENTRY:
		cell_exit_count(vm, CELL_EXIT_OTHER);
		cell_vcpu_fail(v, "VM entry failed, hardware reason 0x%llx",
			       (unsigned long long)run->fail_entry.hardware_entry_failure_reason);
		return -1;
	case KVM_EXIT_INTERNAL_ERROR:
		cell_exit_count(vm, CELL_EXIT_OTHER);
		cell_vcpu_fail(v, "KVM internal error, suberror %u", run->internal.suberror);
		return -1;
	default:
		cell_exit_count(vm, CELL_EXIT_OTHER);
		cell_vcpu_fail(v, "unexpected KVM exit reason %u", run->exit_reason);
		return -1;
	}
}

