// SPDX-License-Identifier: GPL-2.0
/*
 * The state latch: the latest value of periodic data. Two slots, each a
 * seqlock; generation g goes to slot g & 1, so a reader copying the
 * latest value races only with the publish after next. It retries a
 * bounded number of times, then says busy rather than spinning.
 */
#include "chan_internal.h"

/* Generations above this would overflow the slots' 2g sequence numbers. */
#define GEN_MAX		(~(chan_u64)0 >> 2)

static struct chan_slot_hdr *slot_of(chan_u8 *data, chan_u32 max_record, chan_u64 gen)
{
	return (void *)(data + (gen & 1) * CHAN_SLOT_SIZE(max_record));
}

int chan_state_publish(struct chan_writer *w, const void *buf, chan_u32 len)
{
	chan_u64 gen = w->head + 1;
	struct chan_slot_hdr *s;

	if (w->g.kind != CHAN_KIND_STATE)
		return -CHAN_EINVAL;
	if (len > w->g.max_record)
		return -CHAN_EMSGSIZE;
	s = slot_of(w->data, w->g.max_record, gen);
	st64(&s->seq, 2 * gen - 1);
	/* Readers of the slot see it odd before any byte of it changes. */
	fence_rel();
	st32(&s->len, len);
	st32(&s->spare, 0);
	chan_copy_in(s + 1, buf, len);
	st_rel64(&s->seq, 2 * gen);
	w->head = gen;
	st_rel64(&w->ctrl->head, gen);
	return chan_wake_due(w);
}

int chan_state_read(struct chan_reader *r, void *buf, chan_u32 *lenp, chan_u64 *genp)
{
	const struct chan_slot_hdr *s;
	chan_u64 gen, seq;
	chan_u32 len, spare;
	int i, ok;

	if (r->g.kind != CHAN_KIND_STATE)
		return -CHAN_EINVAL;
	if (r->broken)
		return -CHAN_EPIPE;
	for (i = 0; i < CHAN_RETRIES; i++) {
		gen = ld_acq64(&r->ctrl->head);
		if (gen < r->seq)
			return chan_break(r, CHAN_BROKEN_GEN_BACK);
		if (!gen)
			return -CHAN_EAGAIN;
		if (gen > GEN_MAX)
			return chan_break(r, CHAN_BROKEN_SLOT);
		s = slot_of((chan_u8 *)r->data, r->g.max_record, gen);
		seq = ld_acq64(&s->seq);
		/* The writer completes a slot before it publishes its generation. */
		if (seq < 2 * gen)
			return chan_break(r, CHAN_BROKEN_SLOT);
		if (seq != 2 * gen)
			continue;
		len = ld32(&s->len);
		spare = ld32(&s->spare);
		ok = len <= r->g.max_record && !spare;
		if (ok)
			chan_copy_out(buf, s + 1, len);
		/* The copy before the check that the slot did not change. */
		fence_acq();
		if (ld64(&s->seq) != seq)
			continue;
		if (!ok)
			return chan_break(r, CHAN_BROKEN_SLOT);
		*lenp = len;
		if (genp)
			*genp = gen;
		if (gen == r->seq)
			return 0;
		r->lost += gen - r->seq - 1;
		r->seq = gen;
		return 1;
	}
	return -CHAN_EBUSY;
}
