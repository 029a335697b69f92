// SPDX-License-Identifier: GPL-2.0
/*
 * chan-bench: the channel benchmarks on the host (selftests/chan/bench/run
 * starts the keeper and writes the table to build/bench/chan.txt).
 *
 *   chan-bench [-S SOCK] [-w CPU] [-r CPU] [-x PERCENT] [PART...]
 *
 * PART: throughput, latency, roundtrip, fanout (default: all, in that
 * order). -w and -r: the writer's and the readers' CPUs (default: the
 * first two this process may run on). -x: counts as a percent of the
 * defaults (a quick look: -x 10). SOCK: the keeper's socket (default
 * $COLORGUARD_CHAN_SOCK, as the library's).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

struct bench_opts bench = { .cpu_w = -1, .cpu_r = -1, .scale = 100 };

static const struct {
	const char *name;
	void (*run)(void);
} parts[] = {
	{ "throughput", bench_throughput },
	{ "latency", bench_latency },
	{ "roundtrip", bench_roundtrip },
	{ "fanout", bench_fanout },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NR_PARTS	ARRAY_SIZE(parts)

static int bad_args(void)
{
	fprintf(stderr, "usage: chan-bench [-S SOCK] [-w CPU] [-r CPU] [-x PERCENT] [throughput|latency|roundtrip|fanout]...\n");
	return 2;
}

/* The first two CPUs this process may use; one alone serves both. */
static void default_cpus(void)
{
	cpu_set_t set;
	int cpu, found = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity failed");
	for (cpu = 0; cpu < CPU_SETSIZE && found < 2; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if (!found++) {
			if (bench.cpu_w < 0)
				bench.cpu_w = cpu;
		} else if (bench.cpu_r < 0) {
			bench.cpu_r = cpu == bench.cpu_w ? -1 : cpu;
		}
	}
	if (bench.cpu_r < 0)
		bench.cpu_r = bench.cpu_w;
}

static void exits_note(void)
{
	table_section("exits per message", NULL);
	printf("host, polled: 0 system calls per send or receive (no doorbell: neither side enters the kernel)\n");
	printf("host, doorbell: rung/msg above is eventfd write()s by the writer, wake-ups/msg the readers' poll() returns\n");
	printf("cell writer: KVM exits per message need the KVM boot (selftests/cells/chan-bench.sh): not measured here\n");
}

int main(int argc, char **argv)
{
	unsigned int i;
	int opt, j;

	while ((opt = getopt(argc, argv, "S:w:r:x:")) != -1) {
		switch (opt) {
		case 'S':
			bench.sock = optarg;
			break;
		case 'w':
			bench.cpu_w = atoi(optarg);
			break;
		case 'r':
			bench.cpu_r = atoi(optarg);
			break;
		case 'x':
			bench.scale = strtoul(optarg, NULL, 0);
			break;
		default:
			return bad_args();
		}
	}
	for (j = optind; j < argc; j++) {
		for (i = 0; i < NR_PARTS && strcmp(argv[j], parts[i].name); i++)
			;
		if (i == NR_PARTS)
			return bad_args();
	}
	if (!bench.scale)
		return bad_args();
	default_cpus();
	printf("chan-bench: libcolorguard-chan on the host, --no-color keeper; writer on CPU %d, readers on CPU %d%s; counts at %u%%\n",
	       bench.cpu_w, bench.cpu_r,
	       bench.cpu_w == bench.cpu_r ? " (one CPU: busy polls share it)" : "",
	       bench.scale);
	for (i = 0; i < NR_PARTS; i++) {
		int want = optind == argc;

		for (j = optind; j < argc; j++)
			want |= !strcmp(argv[j], parts[i].name);
		if (want)
			parts[i].run();
	}
	exits_note();
	return 0;
}
