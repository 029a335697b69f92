// SPDX-License-Identifier: GPL-2.0
/*
 * llcsim's DRAM queueing term (scripts/llcsim/dram.c) on the host, against
 * mean-value analysis of a closed system. Requesters run side by side as
 * the plugin's vCPUs do in modelled time: the one furthest behind goes
 * next, with a request after a think time Z (instructions and LLC hits)
 * that takes the fixed DRAM latency D plus the wait dram_wait_ps() gives
 * for the shares of the others that run (an idle one shows none, as
 * model.c's active shares); at each global window's end dram_queue_ps()
 * takes each one's share afresh from its running time. The converged wait
 * must be the analytic one: with the arriving requester absent, another of
 * think time Z_j keeps S / (Z_j + D) requests at the server, so a request
 * waits S * S / (Z_j + D) per other stream (exact for two), and a lone
 * stream does not wait. (The open M/M/1 term it replaces made a lone
 * stream at 45 % of the bandwidth wait 52 ns behind itself.)
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dram.h"
#include "kselftest_harness.h"

#define S_PS	64000ull	/* 64 B at 1000 MB/s */
#define D_PS	140500ull	/* the A53's DRAM latency, S included */
#define WIN_PS	1000000000ull	/* a window: 1 ms */
#define WINDOWS	40
#define MAXN	4

struct stream {
	uint64_t think_ps;
	double busy;		/* share of each window it runs (0: all), idle after */
	uint64_t clock_ps;
	/* over the window: requests, running time, waiting */
	uint64_t requests, run_ps, wait_ps;
	/* over the last window */
	double mean_wait;
};

/* Run n streams through WINDOWS windows of modelled time. */
static void run(struct stream *st, unsigned int n)
{
	uint64_t queue_ps[MAXN] = { 0 }, active_ps[MAXN] = { 0 };

	for (unsigned int w = 0; w < WINDOWS; w++) {
		uint64_t start = w * WIN_PS, end = start + WIN_PS;

		for (;;) {
			struct stream *s = NULL;
			unsigned int i, k = 0;

			for (i = 0; i < n; i++)
				if (st[i].clock_ps < end && (!s || st[i].clock_ps < s->clock_ps)) {
					s = &st[i];
					k = i;
				}
			if (!s)
				break;
			if (s->busy && s->clock_ps >= start + s->busy * WIN_PS) {
				/* held: idle to the window's end, no share meanwhile */
				active_ps[k] = 0;
				s->clock_ps = end;
				continue;
			}
			uint64_t wait = dram_wait_ps(active_ps, n, k);

			s->clock_ps += s->think_ps + D_PS + wait;
			s->run_ps += s->think_ps + D_PS + wait;
			s->wait_ps += wait;
			s->requests++;
		}
		for (unsigned int i = 0; i < n; i++) {
			struct stream *s = &st[i];

			s->mean_wait = (double)s->wait_ps / s->requests;
			queue_ps[i] = dram_queue_ps(S_PS, s->requests, s->run_ps - s->wait_ps);
			active_ps[i] = queue_ps[i];
			s->requests = 0;
			s->run_ps = 0;
			s->wait_ps = 0;
		}
	}
}

/* S * Q of a stream of think time z, alone */
static double mva_queue(uint64_t z)
{
	return (double)S_PS * S_PS / (z + D_PS);
}

/* got within rel of want (and a ps of rounding) */
static bool near(double want, double got, double rel)
{
	if (fabs(got - want) <= rel * want + 1.0)
		return true;
	fprintf(stderr, "# want %.1f ps, got %.1f ps\n", want, got);
	return false;
}

TEST(lone_stream_does_not_wait)
{
	struct stream st[1] = { { .think_ps = 0 } };

	run(st, 1);
	EXPECT_EQ(0, st[0].wait_ps);
	/* an open M/M/1 term would have made it wait behind itself */
	EXPECT_EQ(0, dram_wait_ps((uint64_t[]){ S_PS }, 1, 0));
}

TEST(two_equal_streams)
{
	struct stream st[2] = {
		{ .think_ps = 50000 }, { .think_ps = 50000 },
	};

	run(st, 2);
	/* 64 * 64 / 190.5 = 21.50 ns per request */
	EXPECT_TRUE(near(mva_queue(50000), st[0].mean_wait, 0.005));
	EXPECT_TRUE(near(mva_queue(50000), st[1].mean_wait, 0.005));
}

TEST(two_streams_of_different_rates)
{
	struct stream st[2] = {
		{ .think_ps = 20000 }, { .think_ps = 500000 },
	};

	run(st, 2);
	/* each waits for the other's queue, not its own */
	EXPECT_TRUE(near(mva_queue(500000), st[0].mean_wait, 0.005));
	EXPECT_TRUE(near(mva_queue(20000), st[1].mean_wait, 0.005));
}

TEST(held_stream_adds_its_share)
{
	/*
	 * A stream held after a tenth of each window (as memguard holds a
	 * hog) keeps its queue while it runs and none while held: a stream
	 * beside it waits a tenth of its time, as much then as next to the
	 * stream running. Per request that is less than a tenth: it makes
	 * fewer requests while it waits.
	 */
	struct stream st[2] = {
		{ .think_ps = 50000 }, { .think_ps = 0, .busy = 0.1 },
	};
	double wa = mva_queue(0), ra = 0.1 / (50000 + D_PS + wa),
		ri = 0.9 / (50000 + D_PS);

	run(st, 2);
	EXPECT_TRUE(near(wa * ra / (ra + ri), st[0].mean_wait, 0.02));
	EXPECT_TRUE(near(mva_queue(50000), st[1].mean_wait, 0.005));
}

TEST(three_streams_add_up)
{
	struct stream st[3] = {
		{ .think_ps = 50000 }, { .think_ps = 200000 },
		{ .think_ps = 400000 },
	};

	run(st, 3);
	/*
	 * Beyond two requesters the term is Schweitzer's approximation: the
	 * others' queues as measured with their own waits taken out. Each
	 * one's wait lies between its peers' queues alone (the sum of
	 * mva_queue()) and that sum scaled by the peers' slowdown.
	 */
	for (unsigned int i = 0; i < 3; i++) {
		double lo = 0;

		for (unsigned int j = 0; j < 3; j++)
			if (j != i)
				lo += mva_queue(st[j].think_ps);
		EXPECT_GE(st[i].mean_wait, 0.97 * lo);
		EXPECT_LE(st[i].mean_wait, 1.03 * lo);
	}
}

TEST(queue_share_bounds)
{
	/* no time: no share; one request always in service: Q = 1 at most */
	EXPECT_EQ(0, dram_queue_ps(S_PS, 10, 0));
	EXPECT_EQ(S_PS, dram_queue_ps(S_PS, 10, 10 * S_PS));
	EXPECT_EQ(S_PS, dram_queue_ps(S_PS, 1000, 10 * S_PS));
	EXPECT_EQ(S_PS / 2, dram_queue_ps(S_PS, 5, 10 * S_PS));
	/* the others' shares add up, its own is left out */
	EXPECT_EQ(30, dram_wait_ps((uint64_t[]){ 10, 1000, 20 }, 3, 1));
}

TEST_HARNESS_MAIN
