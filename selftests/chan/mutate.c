// SPDX-License-Identifier: GPL-2.0
/*
 * The bounded deterministic run against hostile memory: a million random
 * mutations of a valid queue's writer memory, then of a state channel's,
 * then random feedback from the reliable reader; fixed seed, so a failure
 * repeats. It counts the outcomes (records, empty, busy, broken by
 * reason) and fails on any broken promise (see hostile.h) or when some
 * reason was never reached (the mutations would not be testing it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hostile.h"

#define QUEUE_RUNS	1000000
#define STATE_RUNS	200000
#define SEND_RUNS	200000

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static int tap_n, tap_failed;

static void tap(int ok, const char *what)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++tap_n, what);
	tap_failed += !ok;
}

/* A value a field might be set to: near what it holds, or anything. */
static uint64_t nasty(uint64_t near)
{
	switch (rnd() % 6) {
	case 0:
		return near + (rnd() % 64) * 16 - 512;
	case 1:
		return near + rnd() % 33 - 16;
	case 2:
		return rnd() % (4 * HQ_RING);
	case 3:
		return (uint64_t)CHAN_REC_SKIP;
	case 4:
		return 0;
	default:
		return rnd();
	}
}

/* One to four changes to a copy of writer memory of @size bytes. */
static void mutate(uint8_t *mem, uint64_t size, uint64_t ctrl_off)
{
	int n = 1 + rnd() % 4;
	uint64_t off, *w;

	while (n--) {
		/* the control block gets a third of them */
		if (rnd() % 3 == 0)
			off = ctrl_off + (rnd() % 2) * 8;
		else
			off = (rnd() % size) & ~7ull;
		w = (uint64_t *)(mem + off);
		switch (rnd() % 3) {
		case 0:
			mem[rnd() % size] ^= 1 << (rnd() % 8);
			break;
		case 1:
			*w = nasty(*w);
			break;
		default:
			*(uint32_t *)w = (uint32_t)nasty(*(uint32_t *)w);
			break;
		}
	}
}

/* Outcome counts: by reason when broken, then empty, busy, other. */
struct tally {
	uint64_t broken[CHAN_BROKEN_NR], empty, busy, fresh, records;
};

static void report(const char *name, const struct tally *t, int first, int last)
{
	int i;

	printf("# %s: %llu records returned, %llu ended empty, %llu busy\n", name,
	       (unsigned long long)t->records, (unsigned long long)t->empty,
	       (unsigned long long)t->busy);
	for (i = first; i <= last; i++)
		printf("#   broken: %-32s %llu\n", chan_broken_str(i),
		       (unsigned long long)t->broken[i]);
}

/* Every reason from @first to @last reached. */
static int all_reached(const struct tally *t, int first, int last)
{
	int i;

	for (i = first; i <= last; i++)
		if (!t->broken[i])
			return 0;
	return 1;
}

static void count(struct tally *t, struct chan_reader *r, int last)
{
	if (last == -CHAN_EPIPE)
		t->broken[chan_broken(r)]++;
	else if (last == -CHAN_EBUSY)
		t->busy++;
	else if (last == -CHAN_EAGAIN)
		t->empty++;
}

/* Mutation runs against the readers of one kind of channel. */
struct reader_run {
	const char *name;
	int (*open)(struct tchan *t);
	int queue;		/* else state */
	uint64_t runs;
	int first, last;	/* the broken reasons of this kind */
};

static void run_readers(const struct reader_run *run)
{
	struct tally ty = { 0 };
	const char *err = NULL;
	struct hside s = { 0 };
	char what[128];
	uint64_t i;
	int last;

	if (hside_init(&s, run->open)) {
		snprintf(what, sizeof(what), "%s: the valid channel opens", run->name);
		tap(0, what);
		return;
	}
	for (i = 0; i < run->runs && !err; i++) {
		hside_reset(&s, NULL, 0);
		mutate(s.t.wr, s.t.g.writer_size, s.t.g.ctrl_off);
		if (run->queue) {
			/* a reader behind (lapped) and one up to date, in turn */
			err = hq_drain(&s.t.r[i & 1], &last, &ty.records);
			count(&ty, &s.t.r[i & 1], last);
		} else {
			err = hs_read(&s.t.r[0], &last);
			ty.records += last >= 0;
			count(&ty, &s.t.r[0], last);
		}
	}
	report(run->name, &ty, run->first, run->last);
	if (err)
		printf("# mutation %llu: %s\n", (unsigned long long)i - 1, err);
	snprintf(what, sizeof(what), "%s: %llu mutations of writer memory, all in bounds, no hang",
		 run->name, (unsigned long long)run->runs);
	tap(!err, what);
	snprintf(what, sizeof(what), "%s: every broken reason and good %s reached", run->name,
		 run->queue ? "records" : "values");
	tap(all_reached(&ty, run->first, run->last) && ty.records, what);
	hside_close(&s);
}

static void run_send(void)
{
	uint64_t i, c, outcome[3] = { 0 };
	const char *err = NULL;
	struct hside s = { 0 };
	int last;

	if (hside_init(&s, hq_open)) {
		tap(0, "feedback: the valid channel opens");
		return;
	}
	for (i = 0; i < SEND_RUNS && !err; i++) {
		hside_reset(&s, NULL, 0);
		c = rnd() % 2 ? s.w.tail + (rnd() % (s.w.head - s.w.tail + 1) & ~15ull) :
		    nasty(s.w.head);
		err = hq_send(&s.t, c, 1 + rnd() % HQ_MAX, &last);
		outcome[last == 0 ? 0 : last == -CHAN_EAGAIN ? 1 : 2]++;
	}
	printf("# feedback: %llu sent, %llu refused for room, %llu invalid\n",
	       (unsigned long long)outcome[0], (unsigned long long)outcome[1],
	       (unsigned long long)outcome[2]);
	if (err)
		printf("# value %llu: %s\n", (unsigned long long)i - 1, err);
	tap(!err && outcome[0] && outcome[1] && outcome[2],
	    "feedback: 200000 consumed positions, none trusted out of range, no overwrite");
	hside_close(&s);
}

int main(void)
{
	static const struct reader_run queue = {
		"queue", hq_open, 1, QUEUE_RUNS, CHAN_BROKEN_HEAD_BACK, CHAN_BROKEN_SKIP
	}, state = {
		"state", hs_open, 0, STATE_RUNS, CHAN_BROKEN_GEN_BACK, CHAN_BROKEN_SLOT
	};
	clock_t start = clock();

	printf("TAP version 13\n1..5\n");
	run_readers(&queue);
	run_readers(&state);
	run_send();
	printf("# %.1f s of CPU\n", (double)(clock() - start) / CLOCKS_PER_SEC);
	return tap_failed ? 1 : 0;
}
