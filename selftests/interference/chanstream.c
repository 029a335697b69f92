// SPDX-License-Identifier: GPL-2.0
/*
 * chanstream: a busy channel for the LLC-model comparison of comm colors
 * (chan-llc.sh). One end of a queue channel through libcolorguard-chan,
 * as fast as it goes, until SIGTERM or SIGINT:
 *
 *   chanstream write|read --cell CELL --channel NAME [--socket PATH]
 *              [--record BYTES] [--cpu N] [--llc-window ID]
 *
 * write sends records of BYTES (default: the channel's max_record), each
 * filled whole, the first 8 bytes its sequence number; a full ring (a
 * reliable reader behind) makes it yield the CPU and try again. It prints
 * "chanstream filled" once it has sent a ring's worth, so that every page
 * of the ring has been touched. read takes the records as they come,
 * yielding the CPU when there is none, checks their order and, with
 * --llc-window, frames what it does from its first record to its stop as
 * that window of the LLC model (colorguard/llcsim.h). It prints "ready"
 * once open, then at its stop its counts and where the ring's pages are:
 * the number of pages of each LLC color, from /proc/self/pagemap and
 * mm-color's nr_colors.
 *
 * Exit status: 0 when it ran until stopped, 1 when the channel could not
 * be opened or broke, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <colorguard/chan_linux.h>
#include <colorguard/llcsim.h>

#define RECORD_MAX	(64u << 10)
#define COLORS_MAX	1024
#define NR_COLORS_FILE	"/sys/kernel/mm/color/nr_colors"
#define PM_PRESENT	(1ull << 63)
#define PM_PFN_MASK	((1ull << 55) - 1)

struct options {
	int writer;
	const char *cell;
	const char *channel;
	const char *sock;
	uint32_t record;	/* 0: the channel's max_record */
	int cpu;		/* -1: wherever the scheduler puts it */
	int llc_window;		/* -1: no markers */
};

static volatile sig_atomic_t stop;
static uint8_t record[RECORD_MAX];

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: chanstream write|read --cell CELL --channel NAME [--socket PATH]\n"
		"                  [--record BYTES] [--cpu N] [--llc-window ID]\n");
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "chanstream: cpu %d: %s\n", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

static int do_write(struct cg_chan *c, uint32_t len)
{
	uint64_t ring = cg_chan_geometry(c)->ring_size, sent = 0, seq = 0;
	unsigned long long full = 0;
	struct cg_chan_stats st;
	int filled = 0, ret;

	while (!stop) {
		/* Every byte written, as a producer filling its record would. */
		memset(record, (int)(seq & 0xff), len);
		memcpy(record, &seq, sizeof(seq));
		ret = cg_chan_send(c, record, len, 0);
		if (ret == -EAGAIN) {
			full++;
			sched_yield();
			continue;
		}
		if (ret) {
			fprintf(stderr, "chanstream: send: %s\n", strerror(-ret));
			return 1;
		}
		seq++;
		sent += len;
		if (!filled && sent >= ring) {
			printf("chanstream filled\n");
			fflush(stdout);
			filled = 1;
		}
	}
	cg_chan_get_stats(c, &st);
	printf("chanstream write records=%llu bytes=%llu ring_full=%llu faults=%llu\n",
	       (unsigned long long)st.records, (unsigned long long)st.bytes, full,
	       (unsigned long long)st.faults);
	return 0;
}

/* Pages of each color under [addr, addr + len), from pagemap. */
static void print_colors(const void *addr, size_t len)
{
	static unsigned long per_color[COLORS_MAX];
	unsigned long nr_colors = 0, pages = 0, present = 0, i;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t va = (uintptr_t)addr;
	FILE *f;
	int fd;

	f = fopen(NR_COLORS_FILE, "r");
	if (!f || fscanf(f, "%lu", &nr_colors) != 1 || !nr_colors ||
	    nr_colors > COLORS_MAX) {
		printf("chanstream pages: no color count in %s\n", NR_COLORS_FILE);
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("chanstream pages: pagemap: %s\n", strerror(errno));
		return;
	}
	for (; va < (uintptr_t)addr + len; va += page, pages++) {
		uint64_t e;

		if (pread(fd, &e, sizeof(e), va / page * sizeof(e)) != sizeof(e) ||
		    !(e & PM_PRESENT) || !(e & PM_PFN_MASK))
			continue;
		present++;
		per_color[(e & PM_PFN_MASK) % nr_colors]++;
	}
	close(fd);
	printf("chanstream pages=%lu present=%lu per_color=", pages, present);
	for (i = 0; i < nr_colors; i++)
		printf("%s%lu", i ? "," : "", per_color[i]);
	printf("\n");
}

static int do_read(struct cg_chan *c, int llc_window)
{
	unsigned long long empty = 0, out_of_order = 0;
	uint64_t expect = 0, seq;
	struct cg_chan_stats st;
	int open_window = 0, ret = 0;
	uint32_t len;

	printf("ready\n");
	fflush(stdout);
	while (!stop) {
		ret = cg_chan_recv(c, record, sizeof(record), &len, 0);
		if (ret == -EAGAIN) {
			empty++;
			sched_yield();
			ret = 0;
			continue;
		}
		if (ret) {
			fprintf(stderr, "chanstream: recv: %s\n", strerror(-ret));
			break;
		}
		if (!open_window && llc_window >= 0) {
			llcsim_window_start(llc_window);
			open_window = 1;
		}
		/* A writer that came back starts again from 0. */
		memcpy(&seq, record, sizeof(seq));
		if (len < sizeof(seq) || (seq != expect && seq != 0))
			out_of_order++;
		expect = seq + 1;
	}
	if (open_window)
		llcsim_window_end();
	cg_chan_get_stats(c, &st);
	printf("chanstream read records=%llu bytes=%llu lost=%llu restarts=%llu empty=%llu out_of_order=%llu broken=%u\n",
	       (unsigned long long)st.records, (unsigned long long)st.bytes,
	       (unsigned long long)st.lost, (unsigned long long)st.restarts, empty,
	       out_of_order, st.broken);
	print_colors((const uint8_t *)cg_chan_memory(c)->region + cg_chan_geometry(c)->data_off,
		     cg_chan_geometry(c)->ring_size);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cell", required_argument, NULL, 'c' },
		{ "channel", required_argument, NULL, 'n' },
		{ "socket", required_argument, NULL, 's' },
		{ "record", required_argument, NULL, 'r' },
		{ "cpu", required_argument, NULL, 'p' },
		{ "llc-window", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct options o = { .cpu = -1, .llc_window = -1 };
	struct sigaction sa = { .sa_handler = on_stop };
	struct cg_chan *c;
	char why[256];
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			o.cell = optarg;
			break;
		case 'n':
			o.channel = optarg;
			break;
		case 's':
			o.sock = optarg;
			break;
		case 'r':
			o.record = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			o.cpu = atoi(optarg);
			break;
		case 'L':
			o.llc_window = atoi(optarg);
			if (o.llc_window < 0 || o.llc_window > 1000)
				goto usage;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || !o.cell || !o.channel)
		goto usage;
	if (!strcmp(argv[optind], "write"))
		o.writer = 1;
	else if (strcmp(argv[optind], "read"))
		goto usage;

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (o.cpu >= 0 && pin_to(o.cpu))
		return 1;
	ret = cg_chan_open(o.sock, o.cell, o.channel,
			   o.writer ? CHAN_KEEP_WRITER : CHAN_KEEP_READER, ~0u, 1,
			   &c, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "chanstream: %s: %s\n", o.channel, why);
		return 1;
	}
	if (cg_chan_geometry(c)->kind != CHAN_KIND_QUEUE) {
		fprintf(stderr, "chanstream: %s is not a queue\n", o.channel);
		cg_chan_close(c);
		return 1;
	}
	if (!o.record)
		o.record = cg_chan_geometry(c)->max_record;
	if (o.record < sizeof(uint64_t) || o.record > RECORD_MAX ||
	    o.record > cg_chan_geometry(c)->max_record) {
		fprintf(stderr, "chanstream: records of %u bytes: 8 to %u here\n",
			o.record, cg_chan_geometry(c)->max_record);
		cg_chan_close(c);
		return 2;
	}
	ret = o.writer ? do_write(c, o.record) : do_read(c, o.llc_window);
	cg_chan_close(c);
	return ret;
usage:
	print_usage(stderr);
	return 2;
}
