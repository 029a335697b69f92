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

static void run_queue(void)
{
	struct tchan t;
	struct chan_reader r0, r1;
	struct tally ty = { 0 };
	const char *err = NULL;
	uint8_t *snap;
	uint64_t i, size;
	int last;

	if (hq_open(&t)) {
		tap(0, "queue: the valid channel opens");
		return;
	}
	size = t.g.writer_size;
	snap = malloc(size);
	memcpy(snap, t.wr, size);
	r0 = t.r[0];
	r1 = t.r[1];
	for (i = 0; i < QUEUE_RUNS && !err; i++) {
		memcpy(t.wr, snap, size);
		mutate(t.wr, size, t.g.ctrl_off);
		/* a reader behind (lapped) and one up to date, in turn */
		t.r[0] = i & 1 ? r0 : r1;
		err = hq_drain(&t.r[0], &last, &ty.records);
		count(&ty, &t.r[0], last);
	}
	report("queue", &ty, CHAN_BROKEN_HEAD_BACK, CHAN_BROKEN_SKIP);
	if (err)
		printf("# mutation %llu: %s\n", (unsigned long long)i - 1, err);
	tap(!err, "queue: 1000000 mutations of writer memory, every record in bounds, no hang");
	tap(all_reached(&ty, CHAN_BROKEN_HEAD_BACK, CHAN_BROKEN_SKIP) && ty.records && ty.empty,
	    "queue: every broken reason, records and an empty queue reached");
	free(snap);
	tchan_close(&t);
}

static void run_state(void)
{
	struct tchan t;
	struct chan_reader r0;
	struct tally ty = { 0 };
	const char *err = NULL;
	uint8_t *snap;
	uint64_t i, size;
	int last;

	if (hs_open(&t)) {
		tap(0, "state: the valid channel opens");
		return;
	}
	size = t.g.writer_size;
	snap = malloc(size);
	memcpy(snap, t.wr, size);
	r0 = t.r[0];
	for (i = 0; i < STATE_RUNS && !err; i++) {
		memcpy(t.wr, snap, size);
		mutate(t.wr, size, t.g.ctrl_off);
		t.r[0] = r0;
		err = hs_read(&t.r[0], &last);
		ty.records += last >= 0;
		count(&ty, &t.r[0], last);
	}
	report("state", &ty, CHAN_BROKEN_GEN_BACK, CHAN_BROKEN_SLOT);
	if (err)
		printf("# mutation %llu: %s\n", (unsigned long long)i - 1, err);
	tap(!err, "state: 200000 mutations of writer memory, every value in bounds");
	tap(all_reached(&ty, CHAN_BROKEN_GEN_BACK, CHAN_BROKEN_SLOT) && ty.records,
	    "state: every broken reason and good values reached");
	free(snap);
	tchan_close(&t);
}

static void run_send(void)
{
	uint64_t i, c, outcome[3] = { 0 };
	struct chan_writer w0;
	const char *err = NULL;
	struct tchan t;
	uint8_t *snap;
	int last;

	if (hq_open(&t)) {
		tap(0, "feedback: the valid channel opens");
		return;
	}
	snap = malloc(t.g.writer_size);
	memcpy(snap, t.wr, t.g.writer_size);
	w0 = t.w;
	for (i = 0; i < SEND_RUNS && !err; i++) {
		memcpy(t.wr, snap, t.g.writer_size);
		t.w = w0;
		c = rnd() % 2 ? w0.tail + (rnd() % (w0.head - w0.tail + 1) & ~15ull) :
		    nasty(w0.head);
		err = hq_send(&t, c, 1 + rnd() % HQ_MAX, &last);
		outcome[last == 0 ? 0 : last == -CHAN_EAGAIN ? 1 : 2]++;
	}
	printf("# feedback: %llu sent, %llu refused for room, %llu invalid\n",
	       (unsigned long long)outcome[0], (unsigned long long)outcome[1],
	       (unsigned long long)outcome[2]);
	if (err)
		printf("# value %llu: %s\n", (unsigned long long)i - 1, err);
	tap(!err && outcome[0] && outcome[1] && outcome[2],
	    "feedback: 200000 consumed positions, none trusted out of range, no overwrite");
	free(snap);
	tchan_close(&t);
}

int main(void)
{
	clock_t start = clock();

	printf("TAP version 13\n1..5\n");
	run_queue();
	run_state();
	run_send();
	printf("# %.1f s of CPU\n", (double)(clock() - start) / CLOCKS_PER_SEC);
	return tap_failed ? 1 : 0;
}
