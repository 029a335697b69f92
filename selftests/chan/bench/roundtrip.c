// SPDX-License-Identifier: GPL-2.0
/*
 * Round trip Linux <-> Linux: a 64 B ping on one channel, echoed back on
 * another by a thread on the other CPU; the pinger takes now - stamp when
 * the echo is back. Both sides poll busily, or both sleep on their
 * doorbells. A host figure with no VM and no TCG in it: not the board's
 * Linux <-> cell round trip.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define RTT_WARM	200
#define RTT_LEN		64

struct rtt {
	uint64_t n;
	int timeout_ms;
	struct cg_chan *ping_w, *ping_r, *pong_w, *pong_r;
	pthread_barrier_t go;
	int done;
	struct samples s;
	uint8_t abuf[BENCH_REC_MAX], bbuf[BENCH_REC_MAX];
};

/* Nothing is lost in lockstep: the echo comes, or something is broken. */
static void rtt_wait_echo(struct rtt *x)
{
	/* A bound on an echo that never comes, not a speed check. */
	uint64_t give_up = now_ns() + 10000000000ull, looks = 0;
	uint32_t len;
	int ret;

	for (;;) {
		ret = cg_chan_recv(x->pong_r, x->abuf, BENCH_REC_MAX, &len, x->timeout_ms);
		if (!ret)
			return;
		if (ret != -EAGAIN && ret != -ETIMEDOUT && ret != -EBUSY)
			die("waiting for the echo: %s", strerror(-ret));
		/* The clock now and then only: it would slow a busy look. */
		if ((x->timeout_ms || !(++looks & 0xfff)) && now_ns() > give_up)
			die("no echo in 10 s");
		if (!x->timeout_ms)
			cpu_relax();
	}
}

static void *rtt_pinger(void *arg)
{
	struct rtt *x = arg;
	uint64_t k, t0;

	pin(bench.cpu_w);
	pthread_barrier_wait(&x->go);
	for (k = 0; k < RTT_WARM + x->n; k++) {
		t0 = now_ns();
		rec_stamp(x->abuf, k, t0);
		bench_send(x->ping_w, x->abuf, RTT_LEN, NULL);
		rtt_wait_echo(x);
		if (k >= RTT_WARM)
			samples_add(&x->s, now_ns() - t0);
	}
	bench_done(&x->done);
	return NULL;
}

static void *rtt_echo(void *arg)
{
	struct rtt *x = arg;
	uint32_t len;

	pin(bench.cpu_r);
	pthread_barrier_wait(&x->go);
	while (bench_recv(x->ping_r, x->bbuf, &len, x->timeout_ms, &x->done))
		bench_send(x->pong_w, x->bbuf, len, NULL);
	return NULL;
}

static void rtt_run(const char *what, const char *ping, const char *pong, int timeout_ms)
{
	static struct rtt x;
	struct cg_chan_stats st;
	pthread_t ta, tb;
	char extra[64];

	memset(&x, 0, sizeof(x));
	x.n = scaled(20000);
	x.timeout_ms = timeout_ms;
	samples_init(&x.s, x.n);
	x.ping_w = bench_open(BENCH_CELL, ping, CHAN_KEEP_WRITER, 0);
	x.ping_r = bench_open(BENCH_ROOT, ping, CHAN_KEEP_READER, 0);
	x.pong_w = bench_open(BENCH_ROOT, pong, CHAN_KEEP_WRITER, 0);
	x.pong_r = bench_open(BENCH_CELL, pong, CHAN_KEEP_READER, 0);
	pthread_barrier_init(&x.go, NULL, 2);
	bench_thread(&tb, rtt_echo, &x);
	bench_thread(&ta, rtt_pinger, &x);
	bench_join(ta);
	bench_join(tb);
	pthread_barrier_destroy(&x.go);
	cg_chan_get_stats(x.ping_r, &st);
	snprintf(extra, sizeof(extra), "wake-ups/msg %.2f",
		 (double)st.wakeups / (RTT_WARM + x.n));
	table_lat_row(what, &x.s, extra);
	samples_free(&x.s);
	cg_chan_close(x.pong_r);
	cg_chan_close(x.pong_w);
	cg_chan_close(x.ping_r);
	cg_chan_close(x.ping_w);
}

void bench_roundtrip(void)
{
	table_section("round trip Linux <-> Linux, 64 B ping and echo (host figure, not the board's Linux <-> cell)",
		      NULL);
	table_lat_header();
	rtt_run("busy poll both ways", "ping", "pong", 0);
	rtt_run("doorbell both ways", "pingd", "pongd", 100);
}
