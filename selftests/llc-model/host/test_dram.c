// SPDX-License-Identifier: GPL-2.0
/*
 * llcsim's DRAM queueing term (scripts/llcsim/dram.c) on the host, against
 * mean-value analysis of a closed system. Requesters run as the plugin
 * runs vCPUs: each in turn through a global window, a stream of requests
 * each after a think time Z (instructions and LLC hits), taking the fixed
 * DRAM latency D plus the wait dram_wait_ps() gives; at each window's end
 * dram_queue_ps() takes each one's share afresh. The converged wait of a
 * request must be the analytic one: with the arriving requester absent,
 * another of think time Z_j keeps S / (Z_j + D) requests at the server, so
 * a request waits S * S / (Z_j + D) per other stream (exact for two), and
 * a lone stream does not wait. (The open M/M/1 term it replaces made a
 * lone stream at 45 % of the bandwidth wait 52 ns behind itself.)
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dram.h"
#include "kselftest_harness.h"

#define S_PS	64000ull	/* 64 B at 1000 MB/s */
#define D_PS	140500ull	/* the A53's DRAM latency, S included */
#define WIN_PS	1000000000ull	/* a window: 1 ms of each stream's time */
#define WINDOWS	40

struct stream {
	uint64_t think_ps;
	uint64_t budget;	/* requests per window, then idle; 0: no limit */
	/* over the window */
	uint64_t requests, time_ps, wait_ps;
	/* over the last window */
	double mean_wait;
};

/* Run n streams through WINDOWS windows; queue_ps carries the shares. */
static void run(struct stream *st, unsigned int n)
{
	uint64_t queue_ps[8] = { 0 };

	for (unsigned int w = 0; w < WINDOWS; w++) {
		for (unsigned int i = 0; i < n; i++) {
			struct stream *s = &st[i];

			s->requests = 0;
			s->time_ps = 0;
			s->wait_ps = 0;
			while (s->time_ps < WIN_PS &&
			       (!s->budget || s->requests < s->budget)) {
				uint64_t wait = dram_wait_ps(queue_ps, n, i);

				s->time_ps += s->think_ps + D_PS + wait;
				s->wait_ps += wait;
				s->requests++;
			}
			s->mean_wait = (double)s->wait_ps / s->requests;
			/* held (idle): time passes with no requests */
			s->time_ps = s->time_ps > WIN_PS ? s->time_ps : WIN_PS;
		}
		for (unsigned int i = 0; i < n; i++)
			queue_ps[i] = dram_queue_ps(S_PS, st[i].requests,
						    st[i].time_ps - st[i].wait_ps);
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
	 * A stream held after 700 requests a window (a tenth of its time,
	 * as memguard holds a hog) keeps 700 * S per window at the server.
	 * Its time less its waiting overstates that by its waiting's share
	 * of the window (1.5 % here): its rate is the regulator's, not set
	 * by its response time.
	 */
	struct stream st[2] = {
		{ .think_ps = 50000 }, { .think_ps = 0, .budget = 700 },
	};

	run(st, 2);
	EXPECT_TRUE(near(700.0 * S_PS * S_PS / WIN_PS, st[0].mean_wait, 0.03));
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
