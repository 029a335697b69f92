// SPDX-License-Identifier: GPL-2.0
/*
 * What every part of the channel bench needs: the clock, pinning,
 * threads, opening an end through the keeper, the record's stamp.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "chan-bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Busy: a writer that slept would measure the wake-up, not the send. */
void spin_until(uint64_t t)
{
	while (now_ns() < t)
		cpu_relax();
}

void pin(int cpu)
{
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err)
		die("pinning to CPU %d: %s", cpu, strerror(err));
}

uint64_t scaled(uint64_t n)
{
	uint64_t v = n * bench.scale / 100;

	return v ? v : 1;
}

struct cg_chan *bench_open(const char *cell, const char *chan, int role,
			   unsigned int slot)
{
	struct cg_chan *c;
	char why[CHAN_KEEP_WHY_MAX];
	int ret;

	ret = cg_chan_open(bench.sock, cell, chan, role, slot, 1, &c, why, sizeof(why));
	if (ret)
		die("opening %s of \"%s\" as %s: %s", role == CHAN_KEEP_WRITER ?
		    "the writer" : "a reader", chan, cell, why);
	return c;
}

void bench_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
	int err = pthread_create(t, NULL, fn, arg);

	if (err)
		die("pthread_create: %s", strerror(err));
}

void bench_join(pthread_t t)
{
	int err = pthread_join(t, NULL);

	if (err)
		die("pthread_join: %s", strerror(err));
}

void rec_stamp(void *buf, uint64_t seq, uint64_t t)
{
	memcpy(buf, &t, sizeof(t));
	memcpy((char *)buf + sizeof(t), &seq, sizeof(seq));
}

uint64_t rec_time(const void *buf)
{
	uint64_t t;

	memcpy(&t, buf, sizeof(t));
	return t;
}

int bench_recv(struct cg_chan *r, void *buf, uint32_t *len, int timeout_ms,
	       const int *done)
{
	int ret, end;

	for (;;) {
		/* Before the look: a record sent before done is never missed. */
		end = __atomic_load_n(done, __ATOMIC_ACQUIRE);
		ret = cg_chan_recv(r, buf, BENCH_REC_MAX, len, timeout_ms);
		if (!ret)
			return 1;
		/* Lapped while copying: the next look resumes at the tail. */
		if (ret == -EBUSY)
			continue;
		if (ret != -EAGAIN && ret != -ETIMEDOUT)
			die("receiving: %s", strerror(-ret));
		if (end)
			return 0;
		if (!timeout_ms)
			cpu_relax();
	}
}

void bench_done(int *done)
{
	__atomic_store_n(done, 1, __ATOMIC_RELEASE);
}

void bench_send(struct cg_chan *w, const void *buf, uint32_t len, uint64_t *full)
{
	int ret;

	/* A reliable reader without room: spin, the reader is on another CPU. */
	while ((ret = cg_chan_send(w, buf, len, 0)) == -EAGAIN) {
		if (full)
			(*full)++;
		cpu_relax();
	}
	if (ret)
		die("sending: %s", strerror(-ret));
}
