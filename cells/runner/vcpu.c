// SPDX-License-Identifier: GPL-2.0
/*
 * vCPU threads: one per cell CPU, each placed by itself (into the cell's
 * partition, pinned to its CPU, SCHED_FIFO if the cell says so) before it
 * runs KVM_RUN and hands every exit to exit.c; the cell's end, start and
 * wait.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

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

/*
 * The calling thread into the partition (only a thread can name itself:
 * its TID), then onto its CPU, which is the partition's, then its policy.
 */
static int vcpu_place(struct cell_vcpu *v, char *why, size_t len)
{
	struct cell_vm *vm = v->vm;
	struct sched_param sp = { .sched_priority = vm->vcpu_priority };
	char tid[24];
	cpu_set_t set;
	int fd, n, ret;

	if (vm->vcpu_threads[0]) {
		n = snprintf(tid, sizeof(tid), "%d", (int)gettid());
		fd = open(vm->vcpu_threads, O_WRONLY | O_CLOEXEC);
		ret = fd < 0 || write(fd, tid, n) != n ? -errno : 0;
		if (fd >= 0)
			close(fd);
		if (ret) {
			cell_why(why, len, "thread %s into %s: %s", tid,
				 vm->vcpu_threads, strerror(-ret));
			return ret;
		}
	}
	CPU_ZERO(&set);
	CPU_SET(v->host_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		ret = -errno;
		cell_why(why, len, "pinning to CPU %d: %s", v->host_cpu,
			 strerror(errno));
		return ret;
	}
	if (vm->vcpu_priority && sched_setscheduler(0, SCHED_FIFO, &sp)) {
		ret = -errno;
		cell_why(why, len, "SCHED_FIFO priority %d: %s",
			 vm->vcpu_priority, strerror(errno));
		return ret;
	}
	return 0;
}

static void *vcpu_thread(void *arg)
{
	struct cell_vcpu *v = arg;
	struct cell_vm *vm = v->vm;
	char why[sizeof(v->place_why)];
	int ret = vcpu_place(v, why, sizeof(why));

	pthread_mutex_lock(&vm->lock);
	v->placed = true;
	v->place_err = ret;
	if (ret)
		snprintf(v->place_why, sizeof(v->place_why), "%s", why);
	pthread_cond_broadcast(&vm->cond);
	/*
	 * No vCPU runs before every one is placed: placing (a cgroup move)
	 * can take the guest a while, and an SMP inmate starts its other
	 * vCPUs at once.
	 */
	while (!vm->vcpus_go)
		pthread_cond_wait(&vm->cond, &vm->lock);
	pthread_mutex_unlock(&vm->lock);
	while (!ret && !atomic_load(&vm->stopping)) {
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
	int ret = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIG_KICK, &sa, NULL);
	atomic_store(&vm->stopping, false);
	pthread_mutex_lock(&vm->lock);
	vm->vcpus_go = false;
	pthread_mutex_unlock(&vm->lock);
	for (i = 0; i < vm->nr_vcpus; i++) {
		struct cell_vcpu *v = &vm->vcpus[i];

		v->run->immediate_exit = 0;
		v->line_len = 0;
		v->placed = false;
		ret = cell_arch_vcpu_reset(vm, v, why, len);
		if (ret)
			goto fail;
		/* Running before it exists: its own exit may clear it first. */
		pthread_mutex_lock(&vm->kick_lock);
		v->thread_running = true;
		ret = -pthread_create(&v->thread, NULL, vcpu_thread, v);
		if (ret)
			v->thread_running = false;
		pthread_mutex_unlock(&vm->kick_lock);
		if (ret) {
			cell_why(why, len, "vCPU %u on CPU %d: %s", i,
				 v->host_cpu, strerror(-ret));
			goto fail;
		}
		pthread_mutex_lock(&vm->join_lock);
		v->thread_created = true;
		pthread_mutex_unlock(&vm->join_lock);
	}
	/* Every one placed, or the start fails whole with the first reason. */
	pthread_mutex_lock(&vm->lock);
	for (i = 0; i < vm->nr_vcpus && !ret; i++) {
		struct cell_vcpu *v = &vm->vcpus[i];

		while (!v->placed)
			pthread_cond_wait(&vm->cond, &vm->lock);
		ret = v->place_err;
		if (ret)
			cell_why(why, len, "vCPU %u on CPU %d: %s", i,
				 v->host_cpu, v->place_why);
	}
	if (ret)
		atomic_store(&vm->stopping, true);
	vm->vcpus_go = true;
	pthread_cond_broadcast(&vm->cond);
	pthread_mutex_unlock(&vm->lock);
	if (!ret)
		return 0;
fail:
	/* Threads made so far wait for the go: let them see the stop. */
	atomic_store(&vm->stopping, true);
	pthread_mutex_lock(&vm->lock);
	vm->vcpus_go = true;
	pthread_cond_broadcast(&vm->cond);
	pthread_mutex_unlock(&vm->lock);
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
	cell_chans_dir_write(vm);
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
