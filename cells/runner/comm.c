// SPDX-License-Identifier: GPL-2.0
/* The comm region: its header, the shutdown handshake, the results. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "vm_int.h"

#include "../cell_comm_check.h"

/* Everything but the args, which load wrote. */
void cell_comm_init(struct cell_vm *vm)
{
	volatile struct cell_comm *c = vm->comm;

	memset((void *)c->fault_info, 0, sizeof(c->fault_info));
	memset((void *)c->fault_reason, 0, sizeof(c->fault_reason));
	c->results_count = 0;
	memset((void *)c->results, 0, sizeof(c->results));
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
		   (vm->bw.allowed ? CELL_COMM_F_BWLOCK : 0);
	c->bwlock_reg = vm->bwlock_gpa;
	c->reserved0 = 0;
	memset((void *)c->reserved1, 0, sizeof(c->reserved1));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	memcpy((void *)c->signature, CELL_COMM_SIGNATURE, 8);
}

static int running(struct cell_vm *vm)
{
	return vm->state == CELL_RUNNING || vm->state == CELL_RUNNING_LOCKED;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000l };

	nanosleep(&ts, NULL);
}

int cell_vm_shutdown(struct cell_vm *vm, bool force, unsigned int timeout_ms,
		     char *why, size_t len)
{
	volatile struct cell_comm *c = vm->comm;
	uint64_t deadline = cell_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	uint32_t reply = CELL_REPLY_NONE;

	pthread_mutex_lock(&vm->lock);
	if (!running(vm)) {
		if (vm->state == CELL_CREATED || vm->state == CELL_LOADED)
			vm->state = CELL_SHUT_DOWN;
		pthread_mutex_unlock(&vm->lock);
		return 0;
	}
	pthread_mutex_unlock(&vm->lock);
	if (force) {
		cell_end(vm, CELL_SHUT_DOWN, -1, NULL);
		cell_vcpus_stop(vm);
		return 0;
	}
	c->reply_from_cell = CELL_REPLY_NONE;
	c->cell_state = CELL_COMM_SHUTDOWN_REQUESTED;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	c->msg_to_cell = CELL_MSG_SHUTDOWN_REQUEST;
	/* Poll: the inmate answers through RAM, with no exit. */
	while (cell_now_ns() < deadline) {
		reply = c->reply_from_cell;
		if (reply != CELL_REPLY_NONE || !running(vm))
			break;
		sleep_ms(1);
	}
	if (!running(vm) && reply == CELL_REPLY_NONE) {
		cell_vcpus_stop(vm);
		return 0;	/* it stopped on its own meanwhile */
	}
	if (reply == CELL_REPLY_SHUTDOWN_DENIED) {
		pthread_mutex_lock(&vm->lock);
		if (vm->state == CELL_RUNNING)
			vm->state = CELL_RUNNING_LOCKED;
		pthread_mutex_unlock(&vm->lock);
		c->cell_state = CELL_COMM_RUNNING;
		cell_why(why, len, "the inmate denied the shutdown request: cell running/locked");
		return -EBUSY;
	}
	if (reply != CELL_REPLY_SHUTDOWN_OK) {
		c->msg_to_cell = CELL_MSG_NONE;
		c->cell_state = CELL_COMM_RUNNING;
		cell_why(why, len, "no answer to the shutdown request in %u ms",
			 timeout_ms);
		return -ETIMEDOUT;
	}
	/* Accepted: give the inmate the rest of the time to stop itself. */
	while (running(vm) && cell_now_ns() < deadline)
		sleep_ms(1);
	if (running(vm))
		cell_end(vm, CELL_SHUT_DOWN, -1, NULL);
	cell_vcpus_stop(vm);
	return 0;
}

size_t cell_vm_results(struct cell_vm *vm, void *buf, size_t len)
{
	size_t n = CELL_COMM_SIZE - CELL_COMM_RESULTS_OFF;

	if (!vm->comm)
		return 0;
	if (n > len)
		n = len;
	memcpy(buf, (const char *)vm->comm + CELL_COMM_RESULTS_OFF, n);
	return n;
}
