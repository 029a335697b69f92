// SPDX-License-Identifier: GPL-2.0
/* The shutdown handshake through the comm region. */
#include <errno.h>
#include <time.h>

#include "vm_int.h"

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
	cell_comm_put_reply(vm, CELL_REPLY_NONE);
	cell_comm_put_cell_state(vm, CELL_COMM_SHUTDOWN_REQUESTED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	cell_comm_put_msg(vm, CELL_MSG_SHUTDOWN_REQUEST);
	/* Poll: the inmate answers through RAM, with no exit. */
	while (cell_now_ns() < deadline) {
		reply = cell_comm_get_reply(vm);
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
		cell_comm_put_cell_state(vm, CELL_COMM_RUNNING);
		cell_why(why, len, "the inmate denied the shutdown request: cell running/locked");
		return -EBUSY;
	}
	if (reply != CELL_REPLY_SHUTDOWN_OK) {
		cell_comm_put_msg(vm, CELL_MSG_NONE);
		cell_comm_put_cell_state(vm, CELL_COMM_RUNNING);
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
