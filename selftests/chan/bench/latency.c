// SPDX-License-Identifier: GPL-2.0
/*
 * One-way latency: the writer stamps CLOCK_MONOTONIC into each record, a
 * gap apart (so that a sleeping reader is asleep when it comes), and the
 * reader takes now - stamp once it holds the record, copy included. The
 * reader polls busily (cg_chan_recv() with timeout 0), lets the library
 * poll (its 50 us sleeps), or sleeps in poll() on the doorbell's eventfd.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define LAT_WARM	200	/* records before the samples: caches, the first wake */
#define LAT_GAP_NS	50000ull

struct lat {
	uint32_t len;
	uint64_t n;
	int timeout_ms;
	struct cg_chan *w, *r;
	pthread_barrier_t go;
	int done;
	struct samples s;
	uint8_t wbuf[BENCH_REC_MAX], rbuf[BENCH_REC_MAX];
};

static void *lat_writer(void *arg)
{
	struct lat *l = arg;
	uint64_t k, next;

	pin(bench.cpu_w);
	pthread_barrier_wait(&l->go);
	next = now_ns();
	for (k = 0; k < LAT_WARM + l->n; k++) {
		next += LAT_GAP_NS;
		spin_until(next);
		rec_stamp(l->wbuf, k, now_ns());
		bench_send(l->w, l->wbuf, l->len, NULL);
	}
	bench_done(&l->done);
	return NULL;
}

static void *lat_reader(void *arg)
{
	struct lat *l = arg;
	uint64_t seq;
	uint32_t len;

	pin(bench.cpu_r);
	pthread_barrier_wait(&l->go);
	while (bench_recv(l->r, l->rbuf, &len, l->timeout_ms, &l->done)) {
		uint64_t t = now_ns();

		memcpy(&seq, l->rbuf + sizeof(uint64_t), sizeof(seq));
		if (seq >= LAT_WARM)
			samples_add(&l->s, t - rec_time(l->rbuf));
	}
	return NULL;
}

static void lat_run(const char *what, const char *chan, uint32_t len, int timeout_ms)
{
	static struct lat l;
	struct cg_chan_stats ws, rs;
	pthread_t tw, tr;
	char extra[96];

	memset(&l, 0, sizeof(l));
	l.len = len;
	l.n = scaled(20000);
	l.timeout_ms = timeout_ms;
	samples_init(&l.s, l.n);
	l.w = bench_open(BENCH_CELL, chan, CHAN_KEEP_WRITER, 0);
	l.r = bench_open(BENCH_ROOT, chan, CHAN_KEEP_READER, 0);
	pthread_barrier_init(&l.go, NULL, 2);
	bench_thread(&tr, lat_reader, &l);
	bench_thread(&tw, lat_writer, &l);
	bench_join(tw);
	bench_join(tr);
	pthread_barrier_destroy(&l.go);
	cg_chan_get_stats(l.w, &ws);
	cg_chan_get_stats(l.r, &rs);
	snprintf(extra, sizeof(extra), "lost %llu, rung/msg %.2f, wake-ups/msg %.2f",
		 (unsigned long long)rs.lost, (double)ws.rung / ws.records,
		 (double)rs.wakeups / ws.records);
	table_lat_row(what, &l.s, extra);
	samples_free(&l.s);
	cg_chan_close(l.r);
	cg_chan_close(l.w);
}

void bench_latency(void)
{
	table_section("one-way latency: writer stamp to reader's copy, a record every 50 us",
		      NULL);
	table_lat_header();
	lat_run("64 B, busy poll", "p64", 64, 0);
	lat_run("4 KiB, busy poll", "p4k", 4096, 0);
	lat_run("64 B, library poll (50 us)", "p64", 64, 100);
	lat_run("4 KiB, library poll (50 us)", "p4k", 4096, 100);
	lat_run("64 B, doorbell (eventfd)", "d64", 64, 100);
	lat_run("4 KiB, doorbell (eventfd)", "d4k", 4096, 100);
}
