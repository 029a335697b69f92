// SPDX-License-Identifier: GPL-2.0
/*
 * Busy loops pinned to CPUs, for memguard's tests and benchmarks.
 *   spin -t SECONDS CPU...   loop for a wall-clock time, print
 *                            "cpuN ITERATIONS_PER_SECOND PERMILLE PPM" per
 *                            CPU, PERMILLE and PPM the thread's CPU time per
 *                            wall time in 1/1000 and 1/1000000
 *   spin -n MILLIONS CPU     fixed work, print "cpuN NANOSECONDS"
 *   spin -t SECONDS [-d BUSY_US:IDLE_US] [-f] CPU...
 *                            as -t; -d: each loop sleeps IDLE_US after
 *                            every BUSY_US of looping (a duty cycle);
 *                            -f: each step of the loop takes a page
 *                            fault instead of adding (events a CPU
 *                            counts only while busy)
 * All threads start together, so concurrent progress is comparable.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

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
static uint64_t busy_ns, idle_ns;
static int faulting;

#define FAULT_AREA (4u << 20)

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
	uint64_t n = 0, t0, t1, c0, deadline, busy_end, now;
	struct timespec idle = { idle_ns / 1000000000ull, idle_ns % 1000000000ull };
	long page = sysconf(_SC_PAGESIZE);
	char *area = NULL;
	size_t off = 0;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "spin: cannot pin a thread to CPU %d\n", w->cpu);
		exit(2);
	}
	if (faulting) {
		area = mmap(NULL, FAULT_AREA, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (area == MAP_FAILED) {
			perror("spin: mmap");
			exit(2);
		}
		/* A fault per page, not one per huge page. */
		madvise(area, FAULT_AREA, MADV_NOHUGEPAGE);
	}
	pthread_barrier_wait(&start);
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_ns();
	deadline = t0 + (uint64_t)(seconds * 1e9);
	busy_end = t0 + busy_ns;
	for (;;) {
		if (area) {
			/* One minor fault: a page dropped again at the end. */
			area[off] = 1;
			off += page;
			if (off == FAULT_AREA) {
				madvise(area, FAULT_AREA, MADV_DONTNEED);
				off = 0;
			}
			n++;
		} else {
			for (i = 0; i < CHUNK; i++)
				sink += i;
			n += CHUNK;
		}
		if (work) {
			if (n >= work)
				break;
			continue;
		}
		now = now_ns();
		if (now >= deadline)
			break;
		if (busy_ns && now >= busy_end) {
			nanosleep(&idle, NULL);
			busy_end = now_ns() + busy_ns;
		}
	}
	t1 = now_ns();
	w->ppm = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) * 1000000 / (t1 - t0);
	w->permille = w->ppm / 1000;
	w->result = work ? t1 - t0 : (uint64_t)(n * 1e9 / (t1 - t0));
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long long busy_us, idle_us;
	struct worker w[MAX_CPUS];
	int n = 0, i = 3;

	if (argc < 4 || (strcmp(argv[1], "-t") && strcmp(argv[1], "-n"))) {
		fprintf(stderr, "usage: spin -t SECONDS [-d BUSY_US:IDLE_US] [-f]|-n MILLIONS CPU...\n");
		return 2;
	}
	if (!strcmp(argv[1], "-t"))
		seconds = atof(argv[2]);
	else
		work = (uint64_t)(atof(argv[2]) * 1e6);
	if (!work && i + 1 < argc && !strcmp(argv[i], "-d")) {
		if (sscanf(argv[i + 1], "%llu:%llu", &busy_us, &idle_us) != 2 ||
		    !busy_us) {
			fprintf(stderr, "spin: -d wants BUSY_US:IDLE_US, BUSY_US > 0\n");
			return 2;
		}
		busy_ns = busy_us * 1000;
		idle_ns = idle_us * 1000;
		i += 2;
	}
	if (!work && i < argc && !strcmp(argv[i], "-f")) {
		faulting = 1;
		i++;
	}
	for (; i < argc && n < MAX_CPUS; i++, n++)
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
