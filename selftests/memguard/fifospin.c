// SPDX-License-Identifier: GPL-2.0
/*
 * Keep a CPU busy above memguard's holder thread for a while, the way a
 * high-priority real-time task (or a starved vCPU) keeps it from the
 * period ends: fifospin CPU PRIO MS spins MS milliseconds on CPU at
 * SCHED_FIFO PRIO, then exits 0.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { 0 };
	unsigned long long end;
	cpu_set_t set;

	if (argc != 4) {
		fprintf(stderr, "usage: fifospin CPU PRIO MS\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	sp.sched_priority = atoi(argv[2]);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("fifospin");
		return 1;
	}
	end = now_ns() + strtoull(argv[3], NULL, 10) * 1000000ull;
	while (now_ns() < end)
		;
	return 0;
}
