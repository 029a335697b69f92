/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the channel tests: a channel laid out in host memory, its
 * writer and readers, and the payload pattern the tests check.
 */
#ifndef _CHAN_TEST_H
#define _CHAN_TEST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <colorguard/chan.h>

#define TCHAN_FB_BYTES	4096

struct tchan {
	struct chan_geom g;
	uint8_t *wr;			/* the writer's region */
	void *fb[CHAN_MAX_READERS];	/* each reader's region */
	struct chan_writer w;
	struct chan_reader r[CHAN_MAX_READERS];
};

/* A queue's geometry: control block at 0, ring right after it. */
static inline void tchan_queue_geom(struct chan_geom *g, uint64_t ring, uint32_t max_record,
				    uint32_t readers, uint32_t flags)
{
	memset(g, 0, sizeof(*g));
	g->kind = CHAN_KIND_QUEUE;
	g->flags = flags;
	g->max_record = max_record;
	g->nr_readers = readers;
	g->ring_size = ring;
	g->ctrl_off = 0;
	g->data_off = CHAN_CTRL_SIZE;
	g->writer_size = CHAN_CTRL_SIZE + ring;
	g->feedback_off = 0;
	g->feedback_size = TCHAN_FB_BYTES;
}

/* A state channel's geometry: two slots, then the control block. */
static inline void tchan_state_geom(struct chan_geom *g, uint32_t max_record, uint32_t readers,
				    uint32_t flags)
{
	uint64_t slots = 2 * CHAN_SLOT_SIZE(max_record);

	memset(g, 0, sizeof(*g));
	g->kind = CHAN_KIND_STATE;
	g->flags = flags;
	g->max_record = max_record;
	g->nr_readers = readers;
	g->data_off = 0;
	g->ctrl_off = (slots + 63) & ~63ull;
	g->writer_size = g->ctrl_off + CHAN_CTRL_SIZE;
	g->feedback_off = 64;
	g->feedback_size = TCHAN_FB_BYTES;
}

/*
 * Regions (the ring full of junk: readers must not rely on zeros), the
 * writer and every reader opened. 0 or the first error.
 */
static inline int tchan_open(struct tchan *t, const struct chan_geom *g)
{
	const void *fbc[CHAN_MAX_READERS];
	uint32_t i, n = g->nr_readers ? g->nr_readers : 1;
	int ret;

	memset(t, 0, sizeof(*t));
	t->g = *g;
	t->wr = aligned_alloc(64, (g->writer_size + 63) & ~63ull);
	if (!t->wr)
		return -12;
	memset(t->wr, 0xa5, g->writer_size);
	for (i = 0; i < n; i++) {
		t->fb[i] = aligned_alloc(64, TCHAN_FB_BYTES);
		if (!t->fb[i])
			return -12;
		memset(t->fb[i], 0x5a, TCHAN_FB_BYTES);
		fbc[i] = t->fb[i];
	}
	ret = chan_writer_open(&t->w, g, t->wr, fbc);
	for (i = 0; !ret && i < n; i++)
		ret = chan_reader_open(&t->r[i], g, t->wr, t->fb[i], i);
	return ret;
}

static inline void tchan_close(struct tchan *t)
{
	uint32_t i;

	free(t->wr);
	for (i = 0; i < CHAN_MAX_READERS; i++)
		free(t->fb[i]);
}

static inline struct chan_ctrl *tchan_ctrl(struct tchan *t)
{
	return (struct chan_ctrl *)(t->wr + t->g.ctrl_off);
}

static inline struct chan_fb *tchan_fb(struct tchan *t, uint32_t reader)
{
	return (struct chan_fb *)((uint8_t *)t->fb[reader] + t->g.feedback_off);
}

/* Byte @i of record @seq: differs between neighbouring records and bytes. */
static inline uint8_t tchan_pat(uint64_t seq, uint32_t i)
{
	return (uint8_t)(seq * 131 + i * 7 + (i >> 8) + (seq >> 8));
}

static inline void tchan_fill(uint8_t *buf, uint64_t seq, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		buf[i] = tchan_pat(seq, i);
}

/* The index of the first byte of @buf that is not record @seq's, or -1. */
static inline long tchan_mismatch(const uint8_t *buf, uint64_t seq, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != tchan_pat(seq, i))
			return i;
	return -1;
}

#endif /* _CHAN_TEST_H */
