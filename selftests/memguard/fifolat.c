// SPDX-License-Identifier: GPL-2.0
/*
 * Wake-up latency of a periodic SCHED_FIFO thread, a stand-in for a
 * threaded interrupt handler (SCHED_FIFO 50) on a core memguard holds.
 *   fifolat -c CPU -p PRIO -i INTERVAL_US -t SECONDS
 * The thread, bound to CPU, sleeps INTERVAL_US from each wake-up
 * (clock_nanosleep to an absolute time) and measures how late it woke.
 * Prints "wakes N max_us M avg_us A p99_us P over_1ms K": 99% of the
 * wakes were at most P late (in 100 us steps), K were over 1 ms late.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Latency histogram in 100 us buckets up to 10 s. */
#define BUCKET_US 100
#define BUCKETS 100000

static int cpu, prio;
static long interval_us;
static double seconds;
static unsigned int hist[BUCKETS];
static unsigned long long wakes, over_1ms, sum_ns, max_ns;

static unsigned long long ts_ns(const struct timespec *ts)
{
	return (unsigned long long)ts->tv_sec * 1000000000ull + ts->tv_nsec;
}

static struct timespec ns_ts(unsigned long long ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000ull,
		.tv_nsec = ns % 1000000000ull,
	};

	return ts;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_ns(&ts);
}

static void *run(void *arg)
{
	unsigned long long end, target, late, t;
	struct timespec ts;
	size_t b;
	int err;

	(void)arg;
	end = now_ns() + (unsigned long long)(seconds * 1e9);
	for (t = now_ns(); t < end; ) {
		target = t + interval_us * 1000ull;
		ts = ns_ts(target);
		do {
			err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					      &ts, NULL);
		} while (err == EINTR);
		t = now_ns();
		late = t > target ? t - target : 0;
		wakes++;
		sum_ns += late;
		if (late > max_ns)
			max_ns = late;
		if (late > 1000000)
			over_1ms++;
		b = late / (BUCKET_US * 1000ull);
		hist[b < BUCKETS ? b : BUCKETS - 1]++;
	}
	return NULL;
}

static void bad_args(void)
{
	fprintf(stderr, "usage: fifolat -c CPU -p PRIO -i INTERVAL_US -t SECONDS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sched_param sp = { 0 };
	pthread_attr_t attr;
	pthread_t thread;
	unsigned long long seen = 0;
	cpu_set_t set;
	size_t b;
	int opt, err;

	while ((opt = getopt(argc, argv, "c:p:i:t:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'p':
			prio = atoi(optarg);
			break;
		case 'i':
			interval_us = atol(optarg);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		default:
			bad_args();
		}
	}
	if (optind != argc || prio < 1 || prio > 99 || interval_us < 1 ||
	    seconds <= 0)
		bad_args();
	/* No page fault may add to a wake-up. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("fifolat: mlockall");

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sp.sched_priority = prio;
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	err = pthread_create(&thread, &attr, run, NULL);
	if (err) {
		fprintf(stderr, "fifolat: SCHED_FIFO %d thread on CPU %d: %s\n",
			prio, cpu, strerror(err));
		return 1;
	}
	pthread_join(thread, NULL);

	for (b = 0; b < BUCKETS && wakes; b++) {
		seen += hist[b];
		if (seen * 100 >= wakes * 99)
			break;
	}
	printf("wakes %llu max_us %llu avg_us %llu p99_us %llu over_1ms %llu\n",
	       wakes, max_ns / 1000, wakes ? sum_ns / wakes / 1000 : 0,
	       (unsigned long long)(b + 1) * BUCKET_US, over_1ms);
	return 0;
}
