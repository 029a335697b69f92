// SPDX-License-Identifier: GPL-2.0
/*
 * vCPU threads: one per cell CPU, pinned to it, each running KVM_RUN and
 * handing every exit to exit.c; the cell's end, start and wait.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "vm_int.h"

#define SIG_KICK	SIGRTMIN

static void kick(int sig)
{
	(void)sig;	/* only to make KVM_RUN return -EINTR */
}

/* Stop every vCPU; caller has ended the cell (or is destroying it). */
static void request_stop(struct cell_vm *vm)
{
	unsigned int i;

	atomic_store(&vm->stopping, true);
	pthread_mutex_lock(&vm->kick_lock);
	for (i = 0; i < vm->nr_vcpus; i++) {
		struct cell_vcpu *v = &vm->vcpus[i];

		if (!v->thread_running)
			continue;
		/* KVM reads it at entry: a kick before KVM_RUN is not lost. */
		__atomic_store_n(&v->run->immediate_exit, 1, __ATOMIC_SEQ_CST);
		pthread_kill(v->thread, SIG_KICK);
	}
	pthread_mutex_unlock(&vm->kick_lock);
}

/* Leave the running states once; the first reason wins. */
void cell_end(struct cell_vm *vm, enum cell_state st, int cpu,
	      const char *reason)
{
	pthread_mutex_lock(&vm->lock);
	if (vm->state == CELL_RUNNING || vm->state == CELL_RUNNING_LOCKED) {
		vm->state = st;
		vm->t_stop = cell_now_ns();
		vm->failed_cpu = st == CELL_FAILED ? cpu : -1;
		if (reason)
			snprintf(vm->failure, sizeof(vm->failure), "%s", reason);
		cell_comm_put_cell_state(vm, CELL_COMM_SHUT_DOWN);
		pthread_cond_broadcast(&vm->cond);
	}
	pthread_mutex_unlock(&vm->lock);
	cell_console_end(vm);
	/* Whatever ended the run: the cell's lock ends with it. */
	cell_bwlock_end(vm);
	request_stop(vm);
}

static void *vcpu_thread(void *arg)
{
	struct cell_vcpu *v = arg;
	struct cell_vm *vm = v->vm;

	while (!atomic_load(&vm->stopping)) {
		if (ioctl(v->fd, KVM_RUN, 0) < 0) {
			if (errno == EINTR || errno == EAGAIN) {
				cell_exit_count(vm, CELL_EXIT_INTR);
				continue;
			}
			cell_vcpu_fail(v, "KVM_RUN: %s", strerror(errno));
			break;
		}
		if (cell_exit_handle(v))
			break;
	}
	pthread_mutex_lock(&vm->kick_lock);
	v->thread_running = false;
	pthread_mutex_unlock(&vm->kick_lock);
	return NULL;
}

int cell_vcpus_start(struct cell_vm *vm, char *why, size_t len)
{
	struct sigaction sa = { .sa_handler = kick };	/* no SA_RESTART */
	unsigned int i;
	int ret;

	sigemptyset(&sa.sa_mask);
	sigaction(SIG_KICK, &sa, NULL);
	atomic_store(&vm->stopping, false);
	for (i = 0; i < vm->nr_vcpus; i++) {
		struct cell_vcpu *v = &vm->vcpus[i];
		pthread_attr_t attr;
		cpu_set_t set;

		v->run->immediate_exit = 0;
		v->line_len = 0;
		ret = cell_arch_vcpu_reset(vm, v, why, len);
		if (ret)
			goto fail;
		CPU_ZERO(&set);
		CPU_SET(v->host_cpu, &set);
		pthread_attr_init(&attr);
		ret = -pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		/* Running before it exists: its own exit may clear it first. */
		pthread_mutex_lock(&vm->kick_lock);
		v->thread_running = true;
		if (!ret)
			ret = -pthread_create(&v->thread, &attr, vcpu_thread, v);
		if (ret)
			v->thread_running = false;
		pthread_mutex_unlock(&vm->kick_lock);
		pthread_attr_destroy(&attr);
		if (ret) {
			cell_why(why, len, "vCPU %u on CPU %d: %s", i,
				 v->host_cpu, strerror(-ret));
			goto fail;
		}
		pthread_mutex_lock(&vm->join_lock);
		v->thread_created = true;
		pthread_mutex_unlock(&vm->join_lock);
	}
	return 0;
fail:
	cell_vcpus_stop(vm);
	return ret;
}

/* Stop and join every vCPU thread. */
void cell_vcpus_stop(struct cell_vm *vm)
{
	unsigned int i;

	request_stop(vm);
	pthread_mutex_lock(&vm->join_lock);
	for (i = 0; i < vm->nr_vcpus; i++) {
		struct cell_vcpu *v = &vm->vcpus[i];

		if (!v->thread_created)
			continue;
		pthread_join(v->thread, NULL);
		v->thread_created = false;
	}
	pthread_mutex_unlock(&vm->join_lock);
}

int cell_vm_start(struct cell_vm *vm, char *why, size_t len)
{
	int ret;

	pthread_mutex_lock(&vm->lock);
	if (vm->state != CELL_LOADED) {
		cell_why(why, len, "cell is %s: load an image first",
			 cell_state_name(vm->state));
		pthread_mutex_unlock(&vm->lock);
		return vm->state == CELL_RUNNING ||
		       vm->state == CELL_RUNNING_LOCKED ? -EBUSY : -EINVAL;
	}
	/* Joined threads of an earlier run, if any. */
	pthread_mutex_unlock(&vm->lock);
	cell_vcpus_stop(vm);
	cell_comm_reset(vm);
	cell_console_reset(vm);
	cell_bwlock_reset(vm);
	pthread_mutex_lock(&vm->lock);
	vm->state = CELL_RUNNING;
	vm->t_start = cell_now_ns();
	vm->t_stop = 0;
	vm->failed_cpu = -1;
	vm->failure[0] = '\0';
	memset(vm->exits, 0, sizeof(vm->exits));
	vm->storm.start = 0;
	vm->storm.exits = 0;
	vm->storm.refused = 0;
	pthread_mutex_unlock(&vm->lock);
	ret = cell_vcpus_start(vm, why, len);
	if (ret) {
		pthread_mutex_lock(&vm->lock);
		vm->state = CELL_LOADED;
		vm->t_start = 0;
		pthread_mutex_unlock(&vm->lock);
	}
	return ret;
}

int cell_vm_wait(struct cell_vm *vm, unsigned int timeout_ms)
{
	struct timespec ts;
	int ret = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);	/* the cond's clock */
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (timeout_ms % 1000) * 1000000l;
	if (ts.tv_nsec >= 1000000000l) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000l;
	}
	pthread_mutex_lock(&vm->lock);
	while (vm->state == CELL_RUNNING || vm->state == CELL_RUNNING_LOCKED) {
		if (!timeout_ms) {
			pthread_cond_wait(&vm->cond, &vm->lock);
		} else if (pthread_cond_timedwait(&vm->cond, &vm->lock, &ts) ==
			   ETIMEDOUT) {
			ret = -ETIMEDOUT;
			break;
		}
	}
	pthread_mutex_unlock(&vm->lock);
	if (!ret)
		cell_vcpus_stop(vm);
	return ret;
}

void cell_vm_fail(struct cell_vm *vm, const char *reason)
{
	cell_end(vm, CELL_FAILED, vm->nr_vcpus ? vm->vcpus[0].host_cpu : -1,
		 reason);
	cell_vcpus_stop(vm);
}
