// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput: a writer sending back to back, one reader on the other CPU.
 * Reliable: the writer waits for the reader's room, so the rate is what a
 * reader that keeps up gets, nothing lost. Lossy: the writer never waits;
 * its own rate, and what the reader got and lost (received + lost is
 * every record sent).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

struct tput {
	const char *chan;
	uint32_t len;
	uint64_t n;
	struct cg_chan *w, *r;
	pthread_barrier_t go;
	int done;
	uint64_t w_ns, r_ns, full, got;
	uint8_t wbuf[BENCH_REC_MAX], rbuf[BENCH_REC_MAX];
};

static void *tput_writer(void *arg)
{
	struct tput *t = arg;
	uint64_t k, t0;

	pin(bench.cpu_w);
	pthread_barrier_wait(&t->go);
	t0 = now_ns();
	for (k = 0; k < t->n; k++) {
		memcpy(t->wbuf, &k, sizeof(k));
		bench_send(t->w, t->wbuf, t->len, &t->full);
	}
	t->w_ns = now_ns() - t0;
	bench_done(&t->done);
	return NULL;
}

static void *tput_reader(void *arg)
{
	struct tput *t = arg;
	uint64_t t0, last;
	uint32_t len;

	pin(bench.cpu_r);
	pthread_barrier_wait(&t->go);
	t0 = now_ns();
	last = t0;
	while (bench_recv(t->r, t->rbuf, &len, 0, &t->done)) {
		t->got++;
		last = now_ns();
	}
	t->r_ns = last - t0;
	return NULL;
}

static void tput_run(const char *what, const char *chan, uint32_t len, uint64_t n)
{
	static struct tput t;
	struct cg_chan_stats st;
	pthread_t tw, tr;

	memset(&t, 0, sizeof(t));
	t.chan = chan;
	t.len = len;
	t.n = n;
	t.w = bench_open(BENCH_CELL, chan, CHAN_KEEP_WRITER, 0);
	t.r = bench_open(BENCH_ROOT, chan, CHAN_KEEP_READER, 0);
	pthread_barrier_init(&t.go, NULL, 2);
	bench_thread(&tr, tput_reader, &t);
	bench_thread(&tw, tput_writer, &t);
	bench_join(tw);
	bench_join(tr);
	pthread_barrier_destroy(&t.go);
	cg_chan_get_stats(t.r, &st);
	printf("%-28s %11.0f %9.1f %11.0f %10llu %10llu %10llu\n", what,
	       t.r_ns ? t.got * 1e9 / t.r_ns : 0.0,
	       t.r_ns ? t.got * (double)len * 1e3 / t.r_ns : 0.0,
	       t.w_ns ? n * 1e9 / t.w_ns : 0.0, (unsigned long long)t.got,
	       (unsigned long long)st.lost, (unsigned long long)t.full);
	fflush(stdout);
	cg_chan_close(t.r);
	cg_chan_close(t.w);
}

void bench_throughput(void)
{
	table_section("throughput: one writer, one reader, back to back (1 MiB rings)",
		      NULL);
	printf("%-28s %11s %9s %11s %10s %10s %10s\n", "", "read msg/s", "read MB/s",
	       "sent msg/s", "received", "lost", "full waits");
	tput_run("64 B, reliable reader", "t64", 64, scaled(2000000));
	tput_run("4 KiB, reliable reader", "t4k", 4096, scaled(200000));
	tput_run("64 B, writer never waits", "p64", 64, scaled(2000000));
	tput_run("4 KiB, writer never waits", "p4k", 4096, scaled(200000));
}
