// SPDX-License-Identifier: GPL-2.0
/*
 * The only code that touches the comm page (comm_access.h). Copies go
 * byte by byte through volatile pointers: the compiler may neither merge
 * nor repeat a read of guest memory, and no volatile is cast away.
 */
#include <string.h>

#include "comm_access.h"
#include "vm_int.h"

#include "../cell_comm_check.h"

static void copy_in(void *dst, const volatile void *src, size_t n)
{
	const volatile unsigned char *s = src;
	unsigned char *d = dst;

	while (n--)
		*d++ = *s++;
}

static void copy_out(volatile void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
}

static void fill_out(volatile void *dst, size_t n)
{
	volatile unsigned char *d = dst;

	while (n--)
		*d++ = 0;
}

uint32_t cell_comm_get_inmate_state(struct cell_vm *vm)
{
	return vm->comm ? vm->comm->inmate_state : CELL_INMATE_NONE;
}

uint32_t cell_comm_get_reply(struct cell_vm *vm)
{
	return vm->comm ? vm->comm->reply_from_cell : CELL_REPLY_NONE;
}

void cell_comm_get_fault(struct cell_vm *vm, struct cell_comm_fault *f)
{
	volatile struct cell_comm *c = vm->comm;
	char reason[sizeof(c->fault_reason)];
	unsigned int i;

	memset(f, 0, sizeof(*f));
	if (!c)
		return;
	/* One read of fault_cpu: the copy is checked and the copy is used. */
	f->cpu = c->fault_cpu;
	f->cpu_ok = f->cpu < vm->nr_vcpus;
	for (i = 0; i < 4; i++)
		f->info[i] = c->fault_info[i];
	copy_in(reason, c->fault_reason, sizeof(reason));
	cell_text_escape(f->reason, sizeof(f->reason), reason,
			 sizeof(reason) - 1);
}

void cell_comm_get_results(struct cell_vm *vm, struct cell_comm_results *r)
{
	volatile struct cell_comm *c = vm->comm;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	if (!c)
		return;
	r->count_written = c->results_count;
	r->count = r->count_written < CELL_COMM_RESULTS_MAX ?
		   r->count_written : CELL_COMM_RESULTS_MAX;
	for (i = 0; i < r->count; i++) {
		copy_in(&r->r[i], &c->results[i], sizeof(r->r[i]));
		r->r[i].name[CELL_COMM_NAME_MAX - 1] = '\0';
	}
}

/* Everything but the args, which load wrote. */
void cell_comm_reset(struct cell_vm *vm)
{
	volatile struct cell_comm *c = vm->comm;

	if (!c)
		return;
	fill_out(c->fault_info, sizeof(c->fault_info));
	fill_out(c->fault_reason, sizeof(c->fault_reason));
	c->results_count = 0;
	fill_out(c->results, sizeof(c->results));
	c->revision = CELL_COMM_REVISION;
	c->cell_state = CELL_COMM_RUNNING;
	c->msg_to_cell = CELL_MSG_NONE;
	c->reply_from_cell = CELL_REPLY_NONE;
	c->inmate_state = CELL_INMATE_NONE;
	c->fault_cpu = 0;
	c->console = vm->console_gpa;
	c->ram_base = vm->slots[0].gpa;
	c->ram_size = vm->slots[0].size;
	c->nr_cpus = vm->nr_vcpus;
	c->flags = (vm->has_pmu ? CELL_COMM_F_PMU : 0) |
		   (vm->bw.allowed ? CELL_COMM_F_BWLOCK : 0) |
		   (vm->con.off ? CELL_COMM_F_NO_CONSOLE : 0);
	c->bwlock_reg = vm->bwlock_gpa;
	c->bwlock_forced = 0;
	c->bwlock_max_hold_ms = vm->bw.lim.max_hold_ms;
	c->bwlock_min_gap_ms = vm->bw.lim.min_gap_ms;
	c->bwlock_min_level = vm->bw.lim.min_level;
	c->tsc_khz = vm->tsc_khz;
	c->gic_dist = vm->gic_dist;
	c->gic_redist = vm->gic_redist;
	c->gic_version = vm->gic_version;
	c->timer_irq = vm->timer_irq;
	c->chan_dir = vm->chan_dir ? vm->chan_dir_gpa : 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	copy_out(c->signature, CELL_COMM_SIGNATURE, 8);
}

void cell_comm_put_args(struct cell_vm *vm, const char *args)
{
	volatile struct cell_comm *c = vm->comm;
	size_t n = args ? strlen(args) : 0;

	if (!c)
		return;
	if (n >= sizeof(c->args))
		n = sizeof(c->args) - 1;
	fill_out(c->args, sizeof(c->args));
	copy_out(c->args, args, n);
}

void cell_comm_put_cell_state(struct cell_vm *vm, uint32_t state)
{
	if (vm->comm)
		vm->comm->cell_state = state;
}

void cell_comm_put_msg(struct cell_vm *vm, uint32_t msg)
{
	if (vm->comm)
		vm->comm->msg_to_cell = msg;
}

void cell_comm_put_reply(struct cell_vm *vm, uint32_t reply)
{
	if (vm->comm)
		vm->comm->reply_from_cell = reply;
}

void cell_comm_put_bwlock(struct cell_vm *vm,
			  const struct cell_comm_bwlock_view *b)
{
	volatile struct cell_comm *c = vm->comm;
	size_t n = strnlen(b->reason, sizeof(c->bwlock_reason) - 1);

	if (!c)
		return;
	c->bwlock_level = b->level;
	c->bwlock_requests = b->requests;
	c->bwlock_acquired = b->acquired;
	c->bwlock_refused = b->refused;
	c->bwlock_forced = b->forced;
	fill_out(c->bwlock_reason, sizeof(c->bwlock_reason));
	copy_out(c->bwlock_reason, b->reason, n);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	c->bwlock_status = b->status;
}
