// SPDX-License-Identifier: GPL-2.0
/*
 * Fan-out: what one send costs the writer with 1 reader and with 4, on
 * the writer's side. Paced (a 64 B record every 50 us, each send timed:
 * the readers have caught up and wait, as in a periodic task) and back
 * to back (the loop's time over its records). Polled readers cost the
 * writer nothing by construction: it writes once whatever their number
 * and never looks at them. With a doorbell the writer rings, one
 * eventfd write() each, every reader that armed before sleeping: that
 * cost grows with the readers, and is shown apart.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define FAN_GAP_NS	50000ull
#define FAN_LEN		64

struct fan;

struct fan_reader {
	struct fan *f;
	struct cg_chan *r;
	uint8_t buf[BENCH_REC_MAX];
};

struct fan {
	unsigned int readers;
	uint64_t n;
	int paced, timeout_ms;
	struct cg_chan *w;
	struct fan_reader rd[BENCH_READERS];
	pthread_barrier_t go;
	int done;
	uint64_t w_ns;
	struct samples s;
	uint8_t buf[BENCH_REC_MAX];
};

/* A run's cost per send: mean, and median when each send was timed. */
struct fan_cost {
	double mean, p50;
};

static void *fan_writer(void *arg)
{
	struct fan *f = arg;
	uint64_t k, next, t0;

	pin(bench.cpu_w);
	pthread_barrier_wait(&f->go);
	next = now_ns();
	t0 = next;
	for (k = 0; k < f->n; k++) {
		memcpy(f->buf, &k, sizeof(k));
		if (f->paced) {
			uint64_t a;

			next += FAN_GAP_NS;
			spin_until(next);
			a = now_ns();
			bench_send(f->w, f->buf, FAN_LEN, NULL);
			samples_add(&f->s, now_ns() - a);
		} else {
			bench_send(f->w, f->buf, FAN_LEN, NULL);
		}
	}
	f->w_ns = now_ns() - t0;
	bench_done(&f->done);
	return NULL;
}

static void *fan_reader(void *arg)
{
	struct fan_reader *rd = arg;
	uint32_t len;

	pin(bench.cpu_r);
	pthread_barrier_wait(&rd->f->go);
	while (bench_recv(rd->r, rd->buf, &len, rd->f->timeout_ms, &rd->f->done))
		;
	return NULL;
}

static struct fan_cost fan_run(const char *what, const char *chan,
			       unsigned int readers, int paced, int timeout_ms)
{
	static struct fan f;
	struct cg_chan_stats ws, rs;
	pthread_t tw, tr[BENCH_READERS];
	uint64_t lost = 0, wakeups = 0;
	unsigned int i;
	struct fan_cost cost = { 0, 0 };
	char extra[96];

	memset(&f, 0, sizeof(f));
	f.readers = readers;
	f.n = paced ? scaled(10000) : scaled(1000000);
	f.paced = paced;
	f.timeout_ms = timeout_ms;
	samples_init(&f.s, f.n);
	f.w = bench_open(BENCH_CELL, chan, CHAN_KEEP_WRITER, 0);
	for (i = 0; i < readers; i++) {
		f.rd[i].f = &f;
		f.rd[i].r = bench_open(BENCH_ROOT, chan, CHAN_KEEP_READER, i);
	}
	pthread_barrier_init(&f.go, NULL, 1 + readers);
	for (i = 0; i < readers; i++)
		bench_thread(&tr[i], fan_reader, &f.rd[i]);
	bench_thread(&tw, fan_writer, &f);
	bench_join(tw);
	for (i = 0; i < readers; i++) {
		bench_join(tr[i]);
		cg_chan_get_stats(f.rd[i].r, &rs);
		lost += rs.lost;
		wakeups += rs.wakeups;
		cg_chan_close(f.rd[i].r);
	}
	pthread_barrier_destroy(&f.go);
	cg_chan_get_stats(f.w, &ws);
	cg_chan_close(f.w);
	cost.mean = paced ? samples_mean(&f.s) : (double)f.w_ns / f.n;
	cost.p50 = samples_pct(&f.s, 500);
	snprintf(extra, sizeof(extra), "rung/msg %.2f, wake-ups/msg %.2f, lost %llu",
		 (double)ws.rung / ws.records, (double)wakeups / ws.records,
		 (unsigned long long)lost);
	if (paced)
		printf("%-28s %7u %9.1f %8llu %8llu %8llu  %s\n", what, readers,
		       cost.mean, (unsigned long long)cost.p50,
		       (unsigned long long)samples_pct(&f.s, 990),
		       (unsigned long long)samples_pct(&f.s, 999), extra);
	else
		printf("%-28s %7u %9.1f %8s %8s %8s  %s\n", what, readers, cost.mean,
		       "-", "-", "-", extra);
	fflush(stdout);
	samples_free(&f.s);
	return cost;
}

/* What a clock read adds to each timed send. */
static double clock_cost(void)
{
	uint64_t t0 = now_ns(), k;

	for (k = 0; k < 100000; k++)
		now_ns();
	return (double)(now_ns() - t0) / 100000;
}

void bench_fanout(void)
{
	struct fan_cost pp1, pp4, bp1, bp4, b2b1, b2b4;

	table_section("fan-out: the writer's cost per 64 B send, 1 vs 4 readers (readers share one CPU)",
		      NULL);
	printf("%-28s %7s %9s %8s %8s %8s\n", "", "readers", "mean ns", "p50 ns",
	       "p99 ns", "p99.9 ns");
	pp1 = fan_run("polled, paced 50 us", "fan", 1, 1, 0);
	pp4 = fan_run("polled, paced 50 us", "fan", 4, 1, 0);
	bp1 = fan_run("doorbell, paced 50 us", "fand", 1, 1, 100);
	bp4 = fan_run("doorbell, paced 50 us", "fand", 4, 1, 100);
	b2b1 = fan_run("polled, back to back", "fan", 1, 0, 0);
	b2b4 = fan_run("polled, back to back", "fan", 4, 0, 0);
	/* The median first: a preempted send (ms on this host) swamps a mean. */
	printf("ratio 4/1 readers, polled, paced:        %.2fx median, %.2fx mean (goal <= 1.1x)\n",
	       pp4.p50 / pp1.p50, pp4.mean / pp1.mean);
	printf("ratio 4/1 readers, polled, back to back: %.2fx (goal <= 1.1x)\n",
	       b2b4.mean / b2b1.mean);
	printf("ratio 4/1 readers, doorbell, paced:      %.2fx median, %.2fx mean (an eventfd write() per armed reader)\n",
	       bp4.p50 / bp1.p50, bp4.mean / bp1.mean);
	printf("timed sends include one clock read, %.1f ns\n", clock_cost());
}
