// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog of a cell's bandwidth-lock holds: one thread of the
 * runner per cell that may take the lock, asleep until a hold begins,
 * then until the hold's deadline (bwlock_max_hold_ms from its
 * acquisition), when it ends the hold through memguard (bwlock.c). An
 * inmate that holds the lock and never makes another exit cannot stop
 * it: the thread is the runner's, not a vCPU's, and waits on a
 * monotonic clock. The claim moves the runner's process into the cell's
 * partition, so today the thread shares the cell's CPUs with the vCPU
 * threads; both are SCHED_OTHER, and its wakeup preempts a vCPU within
 * the scheduler's granularity. Every signal is blocked in it, so that
 * the process's signals go to the threads that handle them.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "vm_int.h"

static void *watch(void *arg)
{
	struct cell_vm *vm = arg;
	struct cell_bwlock *bw = &vm->bw;

	pthread_mutex_lock(&bw->lock);
	while (!bw->quit) {
		uint64_t now = cell_now_ns(), end;
		struct timespec ts;

		if (!bw->level) {
			pthread_cond_wait(&bw->wake, &bw->lock);
			continue;
		}
		end = cell_bwlock_deadline(&bw->lim, bw->since);
		if (now >= end) {
			cell_bwlock_expire(vm, now);
			continue;
		}
		/* Woken early by a new hold or quit: look again. */
		ts.tv_sec = end / 1000000000ull;
		ts.tv_nsec = end % 1000000000ull;
		pthread_cond_timedwait(&bw->wake, &bw->lock, &ts);
	}
	pthread_mutex_unlock(&bw->lock);
	return NULL;
}

int cell_bwlock_watch_start(struct cell_vm *vm, char *why, size_t len)
{
	sigset_t all, old;
	int ret;

	if (!vm->bw.allowed)
		return 0;	/* nothing it could hold */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&vm->bw.watchdog, NULL, watch, vm);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		cell_why(why, len, "the bandwidth lock's watchdog: %s",
			 strerror(-ret));
		return ret;
	}
	vm->bw.watchdog_live = true;
	return 0;
}

void cell_bwlock_watch_stop(struct cell_vm *vm)
{
	if (!vm->bw.watchdog_live)
		return;
	pthread_mutex_lock(&vm->bw.lock);
	vm->bw.quit = true;
	pthread_cond_signal(&vm->bw.wake);
	pthread_mutex_unlock(&vm->bw.lock);
	pthread_join(vm->bw.watchdog, NULL);
	vm->bw.watchdog_live = false;
}
