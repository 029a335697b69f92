// SPDX-License-Identifier: GPL-2.0
/*
 * `colorguard chan cat` and `chan send`: a reader and a writer from the
 * shell, through root Linux's channel library. What a record holds is
 * the writer's: cat prints it escaped (or in hex), one record a line.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <colorguard/chan_linux.h>

#include "cli_chan.h"
#include "colorguard.h"

/* cat waits in slices this long, to notice a stop signal. */
#define CAT_SLICE_MS	200
/* A state channel is polled this often for a new value. */
#define STATE_POLL_NS	200000

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

static void catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	/* No SA_RESTART: a sleep or poll ends at the signal. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int parse_num(const char *arg, uint64_t max, uint64_t *out)
{
	const char *why;

	return cg_parse_u64(arg, out, &why) || *out > max ? -1 : 0;
}

static void print_record(const unsigned char *p, uint32_t len, bool hex)
{
	uint32_t i;

	for (i = 0; i < len; i++) {
		if (hex)
			printf("%02x", p[i]);
		else if (p[i] == '\\')
			fputs("\\\\", stdout);
		else if (p[i] == '\n')
			fputs("\\n", stdout);
		else if (p[i] == '\t')
			fputs("\\t", stdout);
		else if (p[i] >= 0x20 && p[i] < 0x7f)
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
	putchar('\n');
}

struct cat_opts {
	const char *name, *cell, *sock;
	unsigned int slot;
	uint64_t count;		/* 0: no end */
	int timeout_ms;		/* -1: none */
	bool hex;
};

/* The next record or value within @ms: 0, -ETIMEDOUT or an error. */
static int next(struct cg_chan *c, void *buf, uint32_t cap, uint32_t *len, int ms)
{
	const struct chan_geom *g = cg_chan_geometry(c);
	struct timespec pause = { .tv_nsec = STATE_POLL_NS };
	uint64_t end = now_ms() + ms;
	int ret;

	if (g->kind == CHAN_KIND_QUEUE)
		return cg_chan_recv(c, buf, cap, len, ms);
	for (;;) {
		ret = cg_chan_read_state(c, buf, cap, len, NULL);
		if (ret == 1)
			return 0;
		if (ret < 0 && ret != -EAGAIN && ret != -EBUSY)
			return ret;
		if (now_ms() >= end || stop_sig)
			return -ETIMEDOUT;
		nanosleep(&pause, NULL);
	}
}

static int cat_run(const struct cat_opts *o)
{
	struct cg_chan_stats st;
	uint64_t n = 0, idle_since;
	const char *reason = NULL;
	char why[256], rbuf[160];
	struct cg_chan *c;
	uint32_t cap, len;
	void *buf;
	int ret, status = 0;

	ret = cg_chan_open(o->sock, o->cell, o->name, CHAN_KEEP_READER, o->slot, 1, &c,
			   why, sizeof(why));
	if (ret) {
		fprintf(stderr, "colorguard chan cat: %s: %s\n", o->name, why);
		return CHAN_EXIT_FAILED;
	}
	cap = cg_chan_geometry(c)->max_record;
	buf = malloc(cap);
	if (!buf) {
		cg_chan_close(c);
		return CHAN_EXIT_FAILED;
	}
	catch_stop();
	idle_since = now_ms();
	while ((!o->count || n < o->count) && !stop_sig) {
		int slice = CAT_SLICE_MS;

		if (o->timeout_ms >= 0) {
			uint64_t now = now_ms(), end = idle_since + o->timeout_ms;

			if (now >= end) {
				snprintf(rbuf, sizeof(rbuf), "timeout: nothing came in %d ms",
					 o->timeout_ms);
				reason = rbuf;
				break;
			}
			if (end - now < (uint64_t)slice)
				slice = end - now;
		}
		ret = next(c, buf, cap, &len, slice);
		if (ret == -ETIMEDOUT || ret == -EAGAIN || ret == -EBUSY)
			continue;
		if (ret) {
			cg_chan_get_stats(c, &st);
			snprintf(rbuf, sizeof(rbuf), "%s%s", ret == -EPIPE ? "broken: " : "",
				 ret == -EPIPE ? chan_broken_str(st.broken) : strerror(-ret));
			reason = rbuf;
			break;
		}
		print_record(buf, len, o->hex);
		n++;
		idle_since = now_ms();
	}
	fflush(stdout);
	cg_chan_get_stats(c, &st);
	fprintf(stderr, "colorguard chan cat: %s: %llu records, lost %llu, broken %s, restarts %llu, wakeups %llu\n",
		o->name, (unsigned long long)st.records, (unsigned long long)st.lost,
		st.broken ? chan_broken_str(st.broken) : "no",
		(unsigned long long)st.restarts, (unsigned long long)st.wakeups);
	if (reason) {
		fprintf(stderr, "colorguard chan cat: %s: %s\n", o->name, reason);
		status = CHAN_EXIT_FAILED;
	} else if (stop_sig) {
		status = 128 + stop_sig;
	}
	free(buf);
	cg_chan_close(c);
	return status;
}

int chan_cmd_cat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cell", required_argument, NULL, 'c' },
		{ "slot", required_argument, NULL, 'S' },
		{ "timeout", required_argument, NULL, 't' },
		{ "hex", no_argument, NULL, 'x' },
		{ "socket", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cat_opts o = { .slot = ~0u, .timeout_ms = -1 };
	uint64_t v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.cell = optarg;
			break;
		case 'S':
			if (parse_num(optarg, CHAN_MAX_READERS - 1, &v))
				return chan_usage_error("cat: --slot: 0 to 31");
			o.slot = v;
			break;
		case 'n':
			if (parse_num(optarg, UINT64_MAX, &v) || !v)
				return chan_usage_error("cat: -n: a count from 1");
			o.count = v;
			break;
		case 't':
			if (parse_num(optarg, 86400000, &v))
				return chan_usage_error("cat: --timeout: 0 to 86400000 ms");
			o.timeout_ms = v;
			break;
		case 'x':
			o.hex = true;
			break;
		case 's':
			o.sock = optarg;
			break;
		case 'h':
			chan_usage(stdout);
			return 0;
		default:
			return chan_usage_error("cat: bad option");
		}
	}
	if (optind + 1 != argc)
		return chan_usage_error("cat: needs exactly one NAME");
	if (!o.cell)
		return chan_usage_error("cat: needs --cell CELL");
	o.name = argv[optind];
	return cat_run(&o);
}

/* One record (a value): 0, or CHAN_EXIT_FAILED with the reason said. */
static int send_one(struct cg_chan *c, const char *name, uint64_t nr,
		    const char *p, size_t len, int timeout_ms)
{
	const struct chan_geom *g = cg_chan_geometry(c);
	int ret;

	if (len > g->max_record || (g->kind == CHAN_KIND_QUEUE && !len)) {
		fprintf(stderr, "colorguard chan send: %s: record %llu: %zu bytes, %s takes %u to %u\n",
			name, (unsigned long long)nr, len, name,
			g->kind == CHAN_KIND_QUEUE ? 1 : 0, g->max_record);
		return CHAN_EXIT_FAILED;
	}
	if (g->kind == CHAN_KIND_QUEUE)
		ret = cg_chan_send(c, p, len, timeout_ms);
	else
		ret = cg_chan_publish(c, p, len);
	if (!ret)
		return 0;
	fprintf(stderr, "colorguard chan send: %s: record %llu: %s\n", name,
		(unsigned long long)nr,
		ret == -ETIMEDOUT || ret == -EAGAIN ?
		"the reliable reader made no room in time" :
		ret == -EPROTO ? "the reliable reader's feedback is invalid" :
		strerror(-ret));
	return CHAN_EXIT_FAILED;
}

int chan_cmd_send(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cell", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "socket", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *cell = NULL, *sock = NULL, *name;
	int c, timeout_ms = -1, status = 0, ret;
	struct cg_chan_stats st;
	char why[256], *line = NULL;
	struct cg_chan *ch;
	size_t cap = 0;
	uint64_t v, nr = 0;
	ssize_t n;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cell = optarg;
			break;
		case 't':
			if (parse_num(optarg, 86400000, &v))
				return chan_usage_error("send: --timeout: 0 to 86400000 ms");
			timeout_ms = v;
			break;
		case 's':
			sock = optarg;
			break;
		case 'h':
			chan_usage(stdout);
			return 0;
		default:
			return chan_usage_error("send: bad option");
		}
	}
	if (optind >= argc)
		return chan_usage_error("send: needs a NAME");
	if (!cell)
		return chan_usage_error("send: needs --cell CELL");
	name = argv[optind++];
	ret = cg_chan_open(sock, cell, name, CHAN_KEEP_WRITER, 0, 1, &ch, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "colorguard chan send: %s: %s\n", name, why);
		return CHAN_EXIT_FAILED;
	}
	if (optind < argc) {
		for (; optind < argc && !status; optind++)
			status = send_one(ch, name, nr++, argv[optind],
					  strlen(argv[optind]), timeout_ms);
	} else {
		while (!status && (n = getline(&line, &cap, stdin)) >= 0) {
			if (n && line[n - 1] == '\n')
				n--;
			status = send_one(ch, name, nr++, line, n, timeout_ms);
		}
		free(line);
	}
	cg_chan_get_stats(ch, &st);
	fprintf(stderr, "colorguard chan send: %s: %llu records, rung %llu, faults %llu\n",
		name, (unsigned long long)st.records, (unsigned long long)st.rung,
		(unsigned long long)st.faults);
	cg_chan_close(ch);
	return status;
}
