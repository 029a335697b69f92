// SPDX-License-Identifier: GPL-2.0
/*
 * The root Linux end of the channel tests (chan.sh): the same records as
 * the test inmate (chan_pattern.h), through libcolorguard-chan.
 *
 *   chanpeer [-s SLOT] [-t TIMEOUT_MS] [-g GAP_US] [-d] CELL CHANNEL MODE [N]
 *
 * MODE send: records 0..N-1, a send waiting up to TIMEOUT_MS for a
 * reliable reader's room (counted and retried when it times out), GAP_US
 * apart; recv: until N records are accounted for (got + lost) or one wait
 * of TIMEOUT_MS finds none, after taking what is already there with -d
 * (a writer's earlier run: "drained"); publish: values 1..N, GAP_US
 * apart; read: until value N or TIMEOUT_MS without a new one; stray: try
 * to make the reader's mapping of the writer's region writable. SLOT is
 * a reader's slot among the cell's.
 *
 * It prints "result NAME VALUE" lines as `cell run --results` does, and
 * "ready" once its end is open (a script waits for it before it starts
 * the other side). Exit status: 0 when it ran to its end, 1 when it could
 * not open the channel, 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <colorguard/chan_linux.h>

#include "chan_pattern.h"

#define BUF_MAX		(128u << 10)

static uint8_t buf[BUF_MAX];

static void print_result(const char *name, unsigned long long v)
{
	printf("result %s %llu\n", name, v);
}

static void sleep_us(unsigned long long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int do_send(struct cg_chan *c, unsigned long long n, int timeout_ms,
		   unsigned long long gap_us)
{
	uint32_t max = cg_chan_geometry(c)->max_record, len;
	unsigned long long k, timeouts = 0;
	struct cg_chan_stats st;
	int ret = 0;

	for (k = 0; k < n; k++) {
		len = pat_len(k, max);
		pat_fill(buf, k, len);
		ret = cg_chan_send(c, buf, len, timeout_ms);
		if (ret == -ETIMEDOUT || ret == -EAGAIN) {
			timeouts++;
			k--;
			continue;
		}
		if (ret)
			break;
		if (gap_us)
			sleep_us(gap_us);
	}
	cg_chan_get_stats(c, &st);
	print_result("sent", st.records);
	print_result("bytes", st.bytes);
	print_result("timeouts", timeouts);
	print_result("rung", st.rung);
	print_result("faults", st.faults);
	print_result("error", -ret);
	return 0;
}

static int do_recv(struct cg_chan *c, unsigned long long n, int timeout_ms, int drain)
{
	uint32_t max = cg_chan_geometry(c)->max_record, len;
	unsigned long long got = 0, bad = 0, restarts, got0 = 0, lost0, k, drained = 0;
	unsigned long long bytes = 0, restarts_seen, lost_at;
	struct cg_chan_stats st;
	int ret = 0;

	while (drain && !cg_chan_recv(c, buf, BUF_MAX, &len, 0))
		drained++;
	/* What follows is counted from here. */
	cg_chan_get_stats(c, &st);
	restarts = st.restarts;
	restarts_seen = restarts;
	lost0 = st.lost;
	lost_at = lost0;
	for (;;) {
		cg_chan_get_stats(c, &st);
		if (got + st.lost - lost0 >= n)
			break;
		ret = cg_chan_recv(c, buf, BUF_MAX, &len, timeout_ms);
		if (ret)
			break;
		cg_chan_get_stats(c, &st);
		/* After a restart the new writer's records count from 0. */
		if (st.restarts != restarts_seen) {
			restarts_seen = st.restarts;
			got0 = got;
			lost_at = st.lost;
		}
		k = got - got0 + st.lost - lost_at;
		if (!pat_ok(buf, len, k, max)) {
			if (!bad)
				fprintf(stderr, "chanpeer: record %llu: %u bytes, not the expected %u or not its bytes\n",
					k, len, pat_len(k, max));
			bad++;
		}
		got++;
		bytes += len;
	}
	cg_chan_get_stats(c, &st);
	print_result("drained", drained);
	print_result("bytes", bytes);
	print_result("received", got);
	print_result("lost", st.lost - lost0);
	print_result("bad", bad);
	print_result("broken", st.broken);
	print_result("restarts", st.restarts - restarts);
	print_result("wakeups", st.wakeups);
	print_result("error", -ret);
	return 0;
}

static int do_publish(struct cg_chan *c, unsigned long long n, unsigned long long gap_us)
{
	uint32_t max = cg_chan_geometry(c)->max_record;
	unsigned long long g;
	int ret = 0;

	for (g = 1; g <= n; g++) {
		pat_fill(buf, g, pat_len(g, max));
		ret = cg_chan_publish(c, buf, pat_len(g, max));
		if (ret)
			break;
		if (gap_us)
			sleep_us(gap_us);
	}
	print_result("published", g - 1);
	print_result("error", -ret);
	return 0;
}

static int do_read(struct cg_chan *c, unsigned long long n, int timeout_ms)
{
	uint32_t max = cg_chan_geometry(c)->max_record, len;
	unsigned long long values = 0, torn = 0, waited = 0;
	struct cg_chan_stats st;
	uint64_t gen = 0;
	int ret = 0;

	while (gen < n && waited < (unsigned long long)timeout_ms * 1000) {
		ret = cg_chan_read_state(c, buf, BUF_MAX, &len, &gen);
		if (ret == 1) {
			values++;
			torn += !pat_ok(buf, len, gen, max);
			waited = 0;
			continue;
		}
		if (ret < 0 && ret != -EAGAIN)
			break;
		sleep_us(100);
		waited += 100;
	}
	cg_chan_get_stats(c, &st);
	print_result("values", values);
	print_result("last_gen", gen);
	print_result("skipped", st.lost);
	print_result("torn", torn);
	print_result("error", ret < 0 ? -ret : 0);
	return 0;
}

/* A reader's mapping of the writer's region must not become writable. */
static int do_stray(struct cg_chan *c)
{
	const struct cg_chan_mem *m = cg_chan_memory(c);
	size_t size = cg_chan_geometry(c)->writer_size;

	if (!mprotect(m->region, size, PROT_READ | PROT_WRITE)) {
		print_result("writable", 1);
		return 0;
	}
	print_result("writable", 0);
	print_result("mprotect_errno", errno);
	return 0;
}

static int usage_error(void)
{
	fprintf(stderr, "usage: chanpeer [-s SLOT] [-t TIMEOUT_MS] [-g GAP_US] [-d] CELL CHANNEL send|recv|publish|read|stray [N]\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long n = 100, gap_us = 0;
	int timeout_ms = 2000, drain = 0, opt, ret, writer;
	unsigned int slot = 0;
	const char *mode;
	struct cg_chan *c;
	char why[160];

	while ((opt = getopt(argc, argv, "s:t:g:d")) != -1) {
		switch (opt) {
		case 's':
			slot = strtoul(optarg, NULL, 0);
			break;
		case 't':
			timeout_ms = strtol(optarg, NULL, 0);
			break;
		case 'g':
			gap_us = strtoull(optarg, NULL, 0);
			break;
		case 'd':
			drain = 1;
			break;
		default:
			return usage_error();
		}
	}
	if (argc - optind < 3)
		return usage_error();
	mode = argv[optind + 2];
	if (argc - optind > 3)
		n = strtoull(argv[optind + 3], NULL, 0);
	writer = !strcmp(mode, "send") || !strcmp(mode, "publish");
	ret = cg_chan_open(NULL, argv[optind], argv[optind + 1],
			   writer ? CHAN_KEEP_WRITER : CHAN_KEEP_READER, slot, 1, &c,
			   why, sizeof(why));
	if (ret) {
		fprintf(stderr, "chanpeer: %s: %s\n", argv[optind + 1], why);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	if (!strcmp(mode, "send"))
		ret = do_send(c, n, timeout_ms, gap_us);
	else if (!strcmp(mode, "recv"))
		ret = do_recv(c, n, timeout_ms, drain);
	else if (!strcmp(mode, "publish"))
		ret = do_publish(c, n, gap_us);
	else if (!strcmp(mode, "read"))
		ret = do_read(c, n, timeout_ms);
	else if (!strcmp(mode, "stray"))
		ret = do_stray(c);
	else
		ret = usage_error();
	cg_chan_close(c);
	return ret;
}
