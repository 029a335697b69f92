// SPDX-License-Identifier: GPL-2.0
/*
 * Opening either side of a channel, the readers' feedback and the
 * doorbell handshake.
 */
#include "chan_internal.h"

static int region_ok(const void *p)
{
	return p && !((chan_uptr)p & (CHAN_REGION_ALIGN - 1));
}

int chan_writer_open(struct chan_writer *w, const struct chan_geom *g, void *region,
		     const void *const *feedback)
{
	chan_u32 i;

	if (chan_geom_check(g) || !region_ok(region) || (g->flags && !feedback))
		return -CHAN_EINVAL;
	for (i = 0; g->flags && i < g->nr_readers; i++)
		if (!region_ok(feedback[i]))
			return -CHAN_EINVAL;
	chan_words_copy(w, CHAN_NULL, sizeof(*w));
	chan_words_copy(&w->g, g, sizeof(*g));
	for (i = 0; g->flags && i < g->nr_readers; i++)
		w->fb[i] = (const void *)((const chan_u8 *)feedback[i] + g->feedback_off);
	w->ctrl = (void *)((chan_u8 *)region + g->ctrl_off);
	w->data = (chan_u8 *)region + g->data_off;
	for (i = 0; i < CHAN_CTRL_SIZE / 8; i++)
		st64(&((chan_u64 *)w->ctrl)[i], 0);
	if (g->kind == CHAN_KIND_STATE) {
		st64(&((struct chan_slot_hdr *)w->data)->seq, 0);
		st64(&((struct chan_slot_hdr *)(w->data + CHAN_SLOT_SIZE(g->max_record)))->seq, 0);
	}
	fence_rel();
	return 0;
}

int chan_reader_open(struct chan_reader *r, const struct chan_geom *g, const void *region,
		     void *feedback, chan_u32 index)
{
	chan_u32 i;

	if (chan_geom_check(g) || !region_ok(region) || !region_ok(feedback) ||
	    (g->nr_readers && index >= g->nr_readers))
		return -CHAN_EINVAL;
	chan_words_copy(r, CHAN_NULL, sizeof(*r));
	chan_words_copy(&r->g, g, sizeof(*g));
	r->index = index;
	r->ctrl = (const void *)((const chan_u8 *)region + g->ctrl_off);
	r->data = (const chan_u8 *)region + g->data_off;
	r->fb = (void *)((chan_u8 *)feedback + g->feedback_off);
	for (i = 0; i < CHAN_FB_SIZE / 8; i++)
		st64(&((chan_u64 *)r->fb)[i], 0);
	fence_rel();
	return 0;
}

chan_u64 chan_lost(const struct chan_reader *r)
{
	return r->lost;
}

enum chan_broken chan_broken(const struct chan_reader *r)
{
	return r->broken;
}

chan_u64 chan_writer_faults(const struct chan_writer *w)
{
	return w->fb_faults;
}

/**
 * chan_wake_due() - after a publish: does a reader want a wake-up?
 * @w: the writer, whose head store is done
 *
 * Each reader's wake word is answered once per value it takes: a hostile
 * reader costs at most one wake-up per commit.
 *
 * Return: CHAN_WAKE or 0; w->wake_mask says for which readers.
 */
int chan_wake_due(struct chan_writer *w)
{
	chan_u32 i, v;

	w->wake_mask = 0;
	if (!(w->g.flags & CHAN_F_DOORBELL))
		return 0;
	/* The head store before, the wake words after (pairs with chan_arm()). */
	fence_full();
	for (i = 0; i < w->g.nr_readers; i++) {
		v = ld32(&w->fb[i]->wake);
		if (v != w->wake_seen[i]) {
			w->wake_seen[i] = v;
			w->wake_mask |= 1ull << i;
		}
	}
	return w->wake_mask ? CHAN_WAKE : 0;
}

int chan_arm(struct chan_reader *r)
{
	chan_u64 head;

	__atomic_store_n(&r->fb->wake, ++r->wake, __ATOMIC_RELAXED);
	/* The wake word before, the head after (pairs with chan_wake_due()). */
	fence_full();
	head = ld64(&r->ctrl->head);
	if (r->g.kind == CHAN_KIND_STATE)
		return head != r->seq;
	return head != r->pos;
}
