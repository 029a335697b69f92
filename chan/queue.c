// SPDX-License-Identifier: GPL-2.0
/*
 * The queue: records in a ring of power-of-two bytes, one writer, any
 * number of readers.
 *
 * The writer raises the tail past whole records before it overwrites
 * them, and publishes the head after a record is complete. A reader
 * copies a record, then reads the tail again: if the tail passed the
 * record's position, the writer may have overwritten it while it was
 * copied, and the reader starts again from the new tail, counting the
 * records it lost by their numbers. Every value read from the writer's
 * memory is bounded before use; what cannot happen with an honest writer
 * breaks the channel for the reader.
 */
#include "chan_internal.h"

/* Outcome of one attempt at the record at r->pos. */
#define RD_RETRY	1	/* overwritten while read, or a skip: go on */

static chan_u64 ring_off(chan_u64 ring, chan_u64 pos)
{
	return pos & (ring - 1);
}

/*
 * Ring bytes of the record at @pos of the writer's own ring, 0 if it
 * makes no sense (a caller wrote past its reservation).
 */
static chan_u64 rec_span(const struct chan_writer *w, chan_u64 pos)
{
	chan_u64 ring = w->g.ring_size, off = ring_off(ring, pos);
	const struct chan_rec_hdr *h = (const void *)(w->data + off);
	chan_u32 len = ld32(&h->len);

	if (len == CHAN_REC_SKIP)
		return off ? ring - off : 0;
	if (!len || len > w->g.max_record || off + CHAN_REC_SIZE(len) > ring)
		return 0;
	return CHAN_REC_SIZE(len);
}

/* The lowest record boundary at or above @need, from the current tail. */
static chan_u64 new_tail(const struct chan_writer *w, chan_u64 need)
{
	chan_u64 tail = w->tail, span;

	while (tail < need) {
		span = rec_span(w, tail);
		if (!span || span > w->head - tail)
			return w->head;
		tail += span;
	}
	return tail;
}

int chan_reserve(struct chan_writer *w, chan_u32 len, void **payload)
{
	chan_u64 ring = w->g.ring_size, size, start, end, need, tail, c;

	if (w->g.kind != CHAN_KIND_QUEUE)
		return -CHAN_EINVAL;
	if (!len || len > w->g.max_record)
		return -CHAN_EMSGSIZE;
	size = CHAN_REC_SIZE(len);
	start = w->head;
	if (ring_off(ring, start) + size > ring)
		start += ring - ring_off(ring, start);
	end = start + size;
	/* With size <= ring / 2, need stays below head: no tail passes it. */
	need = end > ring ? end - ring : 0;
	tail = new_tail(w, need);
	if (w->g.flags & CHAN_F_RELIABLE) {
		c = ld_acq64(&w->fb[w->g.reliable_reader]->consumed);
		if (c < w->tail || c > w->head || (c & (CHAN_ALIGN - 1))) {
			w->fb_faults++;
			w->fb_bad = c;
			return -CHAN_EPROTO;
		}
		if (tail > c)
			return -CHAN_EAGAIN;
	}
	if (tail != w->tail) {
		w->tail = tail;
		/*
		 * Release: a reader that sees this tail sees a head at least
		 * as high. The fence: it sees the tail before any byte below
		 * it changes.
		 */
		st_rel64(&w->ctrl->tail, tail);
		fence_rel();
	}
	w->res_pos = start;
	w->res_len = len;
	w->reserved = 1;
	*payload = w->data + ring_off(ring, start) + CHAN_REC_HDR;
	return 0;
}

static void put_hdr(struct chan_writer *w, chan_u64 pos, chan_u32 len, chan_u64 seq)
{
	struct chan_rec_hdr *h = (void *)(w->data + ring_off(w->g.ring_size, pos));

	st32(&h->len, len);
	st32(&h->spare, 0);
	st64(&h->seq, seq);
}

int chan_commit(struct chan_writer *w, chan_u32 len)
{
	if (w->g.kind != CHAN_KIND_QUEUE || !w->reserved || !len || len > w->res_len)
		return -CHAN_EINVAL;
	if (w->res_pos != w->head)
		put_hdr(w, w->head, CHAN_REC_SKIP, 0);
	put_hdr(w, w->res_pos, len, w->seq++);
	w->head = w->res_pos + CHAN_REC_SIZE(len);
	w->reserved = 0;
	st_rel64(&w->ctrl->head, w->head);
	return chan_wake_due(w);
}

int chan_try_send(struct chan_writer *w, const void *buf, chan_u32 len)
{
	void *p;
	int ret = chan_reserve(w, len, &p);

	if (ret)
		return ret;
	chan_copy_in(p, buf, len);
	return chan_commit(w, len);
}

/* The reader's position moved: tell the writer (it heeds the reliable one). */
static void consumed(struct chan_reader *r, chan_u64 pos)
{
	r->pos = pos;
	st_rel64(&r->fb->consumed, pos);
}

/* Check the header read at @off; 0 when it is a record that can be copied. */
static enum chan_broken check_hdr(const struct chan_reader *r, chan_u64 off, chan_u64 head,
				  chan_u32 len, chan_u32 spare)
{
	chan_u64 ring = r->g.ring_size;

	if (len == CHAN_REC_SKIP) {
		if (!off || spare)
			return CHAN_BROKEN_SKIP;
		/* A skip is followed by a record in the same commit. */
		if (head - r->pos <= ring - off)
			return CHAN_BROKEN_SKIP;
		return CHAN_BROKEN_NONE;
	}
	if (spare)
		return CHAN_BROKEN_REC_SPARE;
	if (!len || len > r->g.max_record || off + CHAN_REC_SIZE(len) > ring)
		return CHAN_BROKEN_REC_LEN;
	if (CHAN_REC_SIZE(len) > head - r->pos)
		return CHAN_BROKEN_REC_HEAD;
	return CHAN_BROKEN_NONE;
}

/* One attempt at the record at r->pos, below @head: 0, RD_RETRY or an error. */
static int read_one(struct chan_reader *r, chan_u64 head, void *buf, chan_u32 cap,
		    chan_u32 *lenp)
{
	chan_u64 ring = r->g.ring_size, off = ring_off(ring, r->pos), seq, tail;
	const struct chan_rec_hdr *h = (const void *)(r->data + off);
	chan_u32 len = ld32(&h->len), spare = ld32(&h->spare);
	enum chan_broken why;

	seq = ld64(&h->seq);
	why = check_hdr(r, off, head, len, spare);
	if (!why && len != CHAN_REC_SKIP && len <= cap)
		chan_copy_out(buf, h + 1, len);
	/* The copy before the check that it was not overwritten meanwhile. */
	fence_acq();
	tail = ld64(&r->ctrl->tail);
	if (tail > r->pos)
		return RD_RETRY;
	if (why)
		return chan_break(r, why);
	if (len == CHAN_REC_SKIP) {
		consumed(r, r->pos + ring - off);
		return RD_RETRY;
	}
	if (r->lapped) {
		if (seq < r->seq)
			return chan_break(r, CHAN_BROKEN_REC_SEQ);
		r->lost += seq - r->seq;
		r->seq = seq;
		r->lapped = 0;
	} else if (seq != r->seq) {
		return chan_break(r, CHAN_BROKEN_REC_SEQ);
	}
	*lenp = len;
	if (len > cap)
		return -CHAN_EMSGSIZE;
	r->seq++;
	consumed(r, r->pos + CHAN_REC_SIZE(len));
	return 0;
}

int chan_try_recv(struct chan_reader *r, void *buf, chan_u32 cap, chan_u32 *len)
{
	chan_u64 head, tail;
	int i, ret;

	if (r->g.kind != CHAN_KIND_QUEUE)
		return -CHAN_EINVAL;
	if (r->broken)
		return -CHAN_EPIPE;
	for (i = 0; i < CHAN_RETRIES; i++) {
		/* Tail first: the head read after it is at least as high. */
		tail = ld_acq64(&r->ctrl->tail);
		head = ld_acq64(&r->ctrl->head);
		if (head & (CHAN_ALIGN - 1))
			return chan_break(r, CHAN_BROKEN_HEAD_ALIGN);
		if (head < r->pos)
			return chan_break(r, CHAN_BROKEN_HEAD_BACK);
		if (tail > head || (tail & (CHAN_ALIGN - 1)))
			return chan_break(r, CHAN_BROKEN_TAIL);
		if (r->pos < tail) {
			r->pos = tail;
			r->lapped = 1;
		}
		if (head == r->pos)
			return -CHAN_EAGAIN;
		ret = read_one(r, head, buf, cap, len);
		if (ret != RD_RETRY)
			return ret;
	}
	return -CHAN_EBUSY;
}
