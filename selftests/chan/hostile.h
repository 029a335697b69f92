/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the mutation run (mutate.c) and the fuzzer (fuzz_chan.c) share:
 * small valid channels to start from, and the checks that a side facing
 * hostile memory keeps its promises: no record out of bounds, no write
 * past a buffer, no endless loop, a reason for every refusal.
 */
#ifndef _CHAN_HOSTILE_H
#define _CHAN_HOSTILE_H

#include "chan_test.h"

#define HQ_RING		1024
#define HQ_MAX		200
#define HQ_GUARD	16
/* A ring holds at most HQ_RING / 32 records; each takes a new number. */
#define HQ_DRAIN_MAX	(HQ_RING / 32 + 8)

/*
 * A queue (one plain reader, one reliable reader) after records of many
 * lengths: wrapped with skips, reader 0 lapped and resynced, reader 1
 * holding the writer back.
 */
static inline int hq_open(struct tchan *t)
{
	static uint8_t rec[HQ_MAX];
	struct chan_geom g;
	uint32_t i, len;
	int ret;

	tchan_queue_geom(&g, HQ_RING, HQ_MAX, 2, CHAN_F_RELIABLE | CHAN_F_DOORBELL);
	g.reliable_reader = 1;
	ret = tchan_open(t, &g);
	for (i = 0; !ret && i < 40; i++) {
		len = 1 + (i * 53) % HQ_MAX;
		tchan_fill(rec, i, len);
		ret = chan_try_send(&t->w, rec, len);
		if (ret == -CHAN_EAGAIN)
			ret = chan_try_recv(&t->r[1], rec, HQ_MAX, &len);
		if (i == 20)
			chan_try_recv(&t->r[0], rec, HQ_MAX, &len);
	}
	return ret < 0 ? ret : 0;
}

/* A state channel after a few values. */
static inline int hs_open(struct tchan *t)
{
	static uint8_t val[HQ_MAX];
	struct chan_geom g;
	uint32_t i, len;
	int ret;

	tchan_state_geom(&g, HQ_MAX, 1, 0);
	ret = tchan_open(t, &g);
	for (i = 1; !ret && i <= 3; i++) {
		tchan_fill(val, i, HQ_MAX);
		ret = chan_state_publish(&t->w, val, i * 50);
		/* the reader has seen generation 2 */
		if (!ret && i == 2)
			ret = chan_state_read(&t->r[0], val, &len, NULL) - 1;
	}
	return ret < 0 ? ret : 0;
}

/* A valid channel kept aside, to start each hostile run from. */
struct hside {
	struct tchan t;
	uint8_t *snap;
	struct chan_reader r[2];
	struct chan_writer w;
};

/* Open @s with @open and keep its state aside: 0 or an error. */
static inline int hside_init(struct hside *s, int (*open)(struct tchan *t))
{
	if (open(&s->t))
		return -1;
	s->snap = malloc(s->t.g.writer_size);
	if (!s->snap)
		return -1;
	memcpy(s->snap, s->t.wr, s->t.g.writer_size);
	s->r[0] = s->t.r[0];
	s->r[1] = s->t.r[1];
	s->w = s->t.w;
	return 0;
}

/* The valid channel again, with @data (may be NULL) XORed onto its memory. */
static inline void hside_reset(struct hside *s, const uint8_t *data, size_t size)
{
	size_t i;

	memcpy(s->t.wr, s->snap, s->t.g.writer_size);
	for (i = 0; data && i < size && i < s->t.g.writer_size; i++)
		s->t.wr[i] ^= data[i];
	s->t.r[0] = s->r[0];
	s->t.r[1] = s->r[1];
	s->t.w = s->w;
}

static inline void hside_close(struct hside *s)
{
	free(s->snap);
	tchan_close(&s->t);
}

/* A reader's result is one of these, or the check failed. */
static inline int hq_code_ok(int ret)
{
	return ret == 0 || ret == -CHAN_EAGAIN || ret == -CHAN_EBUSY || ret == -CHAN_EPIPE;
}

/*
 * Drain reader @r of a hostile queue: NULL, or what went wrong. *@last
 * is its last result; *@records counts the records it returned.
 */
static inline const char *hq_drain(struct chan_reader *r, int *last, uint64_t *records)
{
	uint8_t buf[HQ_MAX + HQ_GUARD];
	uint64_t pos, lost;
	uint32_t len, i, n;
	int ret = 0;

	memset(buf + HQ_MAX, 0xee, HQ_GUARD);
	for (n = 0; n <= HQ_DRAIN_MAX; n++) {
		pos = r->pos;
		lost = r->lost;
		len = 0;
		ret = chan_try_recv(r, buf, HQ_MAX, &len);
		*last = ret;
		if (!hq_code_ok(ret))
			return "unexpected result";
		if ((ret == -CHAN_EPIPE) != (chan_broken(r) != CHAN_BROKEN_NONE))
			return "broken without a reason, or a reason without broken";
		if (r->lost < lost)
			return "lost count went down";
		if (ret)
			break;
		++*records;
		if (!len || len > HQ_MAX)
			return "record length out of bounds";
		if (r->pos <= pos || (r->pos & (CHAN_ALIGN - 1)))
			return "position did not advance by whole records";
	}
	if (n > HQ_DRAIN_MAX)
		return "reader returned more records than a ring holds";
	for (i = HQ_MAX; i < HQ_MAX + HQ_GUARD; i++)
		if (buf[i] != 0xee)
			return "wrote past the buffer";
	return NULL;
}

/* Read a hostile state channel twice: NULL, or what went wrong. */
static inline const char *hs_read(struct chan_reader *r, int *last)
{
	uint8_t buf[HQ_MAX + HQ_GUARD];
	uint32_t len, i, n;
	uint64_t gen;
	int ret;

	memset(buf + HQ_MAX, 0xee, HQ_GUARD);
	for (n = 0; n < 2; n++) {
		len = ~0u;
		ret = chan_state_read(r, buf, &len, &gen);
		*last = ret;
		if (ret != 0 && ret != 1 && !hq_code_ok(ret))
			return "unexpected result";
		if ((ret == -CHAN_EPIPE) != (chan_broken(r) != CHAN_BROKEN_NONE))
			return "broken without a reason, or a reason without broken";
		if (ret >= 0 && len > HQ_MAX)
			return "value length out of bounds";
	}
	for (i = HQ_MAX; i < HQ_MAX + HQ_GUARD; i++)
		if (buf[i] != 0xee)
			return "wrote past the buffer";
	return NULL;
}

/*
 * The writer of @t sends with the reliable reader's consumed position
 * at @c: NULL, or what went wrong. *@last is try_send's result.
 */
static inline const char *hq_send(struct tchan *t, uint64_t c, uint32_t len, int *last)
{
	static uint8_t rec[HQ_MAX];
	uint64_t tail = t->w.tail, head = t->w.head, faults = t->w.fb_faults;
	int valid = c >= tail && c <= head && !(c & (CHAN_ALIGN - 1));
	int ret;

	tchan_fb(t, 1)->consumed = c;
	ret = chan_try_send(&t->w, rec, len);
	*last = ret;
	if (ret == -CHAN_EPROTO)
		return valid ? "valid feedback refused" :
		       t->w.fb_faults != faults + 1 ? "invalid feedback not counted" :
		       t->w.head != head ? "sent despite invalid feedback" : NULL;
	if (!valid)
		return "invalid feedback accepted";
	if (ret == -CHAN_EAGAIN)
		return t->w.head != head ? "sent although refused" : NULL;
	if (ret < 0)
		return "unexpected result";
	if (t->w.tail > c)
		return "overwrote what the reliable reader had not consumed";
	return NULL;
}

#endif /* _CHAN_HOSTILE_H */
