// SPDX-License-Identifier: GPL-2.0
/*
 * Busy loops pinned to CPUs, for memguard's tests and benchmarks.
 *   spin -t SECONDS CPU...   loop for a wall-clock time, print
 *                            "cpuN ITERATIONS_PER_SECOND PERMILLE PPM" per
 *                            CPU, PERMILLE and PPM the thread's CPU time per
 *                            wall time in 1/1000 and 1/1000000
 *   spin -n MILLIONS CPU     fixed work, print "cpuN NANOSECONDS"
 * All threads start together, so concurrent progress is comparable.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CPUS 64
#define CHUNK 4096

struct worker {
	pthread_t thread;
	int cpu;
	uint64_t result;
	uint64_t permille;
	uint64_t ppm;
};

static pthread_barrier_t start;
static double seconds;
static uint64_t work;

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static void *run(void *arg)
{
	struct worker *w = arg;
	volatile uint64_t sink = 0;
	uint64_t n = 0, t0, t1, c0, deadline;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "spin: cannot pin a thread to CPU %d\n", w->cpu);
		exit(2);
	}
	pthread_barrier_wait(&start);
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_ns();
	deadline = t0 + (uint64_t)(seconds * 1e9);
	for (;;) {
		for (i = 0; i < CHUNK; i++)
			sink += i;
		n += CHUNK;
		if (work ? n >= work : now_ns() >= deadline)
			break;
	}
	t1 = now_ns();
	w->ppm = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) * 1000000 / (t1 - t0);
	w->permille = w->ppm / 1000;
	w->result = work ? t1 - t0 : (uint64_t)(n * 1e9 / (t1 - t0));
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[MAX_CPUS];
	int n = 0, i;

	if (argc < 4 || (strcmp(argv[1], "-t") && strcmp(argv[1], "-n"))) {
		fprintf(stderr, "usage: spin -t SECONDS|-n MILLIONS CPU...\n");
		return 2;
	}
	if (!strcmp(argv[1], "-t"))
		seconds = atof(argv[2]);
	else
		work = (uint64_t)(atof(argv[2]) * 1e6);
	for (i = 3; i < argc && n < MAX_CPUS; i++, n++)
		w[n].cpu = atoi(argv[i]);
	pthread_barrier_init(&start, NULL, n);
	for (i = 0; i < n; i++)
		pthread_create(&w[i].thread, NULL, run, &w[i]);
	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		printf("cpu%d %llu %llu %llu\n", w[i].cpu,
		       (unsigned long long)w[i].result,
		       (unsigned long long)w[i].permille,
		       (unsigned long long)w[i].ppm);
	}
	return 0;
}
