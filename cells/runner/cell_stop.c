// SPDX-License-Identifier: GPL-2.0
/* The stop signals of a command that holds a claim. See cell_stop.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cell_stop.h"
#include "cell_vm.h"
#include "vm_int.h"

void cell_stop_set(sigset_t *set)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, 0 };
	static sigset_t stop;
	static bool known;
	struct sigaction sa;
	const int *s;

	/* Decided once, before the block: what the caller ignored stays so. */
	if (!known) {
		sigemptyset(&stop);
		for (s = sigs; *s; s++)
			if (sigaction(*s, NULL, &sa) || sa.sa_handler != SIG_IGN)
				sigaddset(&stop, *s);
		known = true;
	}
	*set = stop;
}

void cell_stop_block(sigset_t *old)
{
	sigset_t set;

	cell_stop_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

int cell_stop_take(void)
{
	struct timespec now = { 0 };
	sigset_t set;
	int sig;

	cell_stop_set(&set);
	do {
		sig = sigtimedwait(&set, NULL, &now);
	} while (sig < 0 && errno == EINTR);
	return sig > 0 ? sig : 0;
}

const char *cell_stop_name(int sig, char *buf, size_t len)
{
	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	if (sig == SIGHUP)
		return "SIGHUP";
	snprintf(buf, len, "signal %d", sig);
	return buf;
}

struct stop_wait {
	struct cell_vm *vm;
	sigset_t set;
	struct timespec deadline;	/* CLOCK_MONOTONIC; 0: none */
	/* Under vm->lock: */
	int sig;
	bool timed_out, done;
};

/* Time left until the deadline, 0 once it is past. */
static bool time_left(const struct timespec *deadline, struct timespec *left)
{
	struct timespec now;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (deadline->tv_sec - now.tv_sec) * 1000000000ll +
	     (deadline->tv_nsec - now.tv_nsec);
	if (ns <= 0)
		return false;
	left->tv_sec = ns / 1000000000ll;
	left->tv_nsec = ns % 1000000000ll;
	return true;
}

/*
 * Takes the stop signals and the watchdog's time; never touches the
 * vCPU threads (only the waiting thread joins them): it wakes it.
 */
static void *watch(void *arg)
{
	struct stop_wait *w = arg;
	struct timespec left;
	bool timed = w->deadline.tv_sec;
	int sig;

	for (;;) {
		if (timed && !time_left(&w->deadline, &left))
			sig = -1;
		else if (timed)
			sig = sigtimedwait(&w->set, NULL, &left);
		else
			sig = sigwaitinfo(&w->set, NULL);
		if (sig < 0 && errno == EINTR)
			continue;
		pthread_mutex_lock(&w->vm->lock);
		if (w->done) {
			pthread_mutex_unlock(&w->vm->lock);
			return NULL;
		}
		if (sig > 0 && !w->sig) {
			w->sig = sig;
		} else if (sig < 0) {
			w->timed_out = true;
			timed = false;
		}
		pthread_cond_broadcast(&w->vm->cond);
		pthread_mutex_unlock(&w->vm->lock);
	}
}

static bool running(const struct cell_vm *vm)
{
	return vm->state == CELL_RUNNING || vm->state == CELL_RUNNING_LOCKED;
}

int cell_stop_wait(struct cell_vm *vm, unsigned int timeout_ms, int *sig)
{
	struct stop_wait w = { .vm = vm };
	char why[64], name[24];
	bool still;
	int wake = 0;
	pthread_t t;

	*sig = 0;
	cell_stop_set(&w.set);
	/* The thread ends on one of its own signals, sent to it alone. */
	if (sigismember(&w.set, SIGTERM))
		wake = SIGTERM;
	else if (sigismember(&w.set, SIGHUP))
		wake = SIGHUP;
	else if (sigismember(&w.set, SIGINT))
		wake = SIGINT;
	if (timeout_ms) {
		clock_gettime(CLOCK_MONOTONIC, &w.deadline);
		w.deadline.tv_sec += timeout_ms / 1000;
		w.deadline.tv_nsec += (timeout_ms % 1000) * 1000000l;
		if (w.deadline.tv_nsec >= 1000000000l) {
			w.deadline.tv_sec++;
			w.deadline.tv_nsec -= 1000000000l;
		}
	}
	/* Every stop signal ignored, or no thread: a plain wait. */
	if (!wake || pthread_create(&t, NULL, watch, &w))
		return cell_vm_wait(vm, timeout_ms);
	pthread_mutex_lock(&vm->lock);
	while ((still = running(vm)) && !w.sig && !w.timed_out)
		pthread_cond_wait(&vm->cond, &vm->lock);
	w.done = true;
	pthread_mutex_unlock(&vm->lock);
	pthread_kill(t, wake);
	pthread_join(t, NULL);
	if (still && w.sig) {
		snprintf(why, sizeof(why), "stopped by %s",
			 cell_stop_name(w.sig, name, sizeof(name)));
		cell_vm_fail(vm, why);
		*sig = w.sig;
		return 0;
	}
	if (still)
		return -ETIMEDOUT;
	/* Stopped by itself: cell_vm_wait() joins the vCPU threads. */
	return cell_vm_wait(vm, 0);
}
