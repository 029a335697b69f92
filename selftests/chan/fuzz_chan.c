// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the channel core against hostile memory. The first
 * byte picks a side; the rest is XORed onto a valid channel's writer
 * memory (an empty input is the valid channel itself), or read as the
 * reliable reader's consumed positions and record lengths. A reader must
 * return records in bounds, stop, and give a reason when it refuses; the
 * writer must not trust feedback out of range (hostile.h). Any broken
 * promise aborts.
 */
#include <stdio.h>
#include "hostile.h"

struct side {
	struct tchan t;
	uint8_t *snap;
	struct chan_reader r[2];
	struct chan_writer w;
};

static struct side queue, state;

static void fail(const char *err)
{
	fprintf(stderr, "fuzz_chan: %s\n", err);
	abort();
}

static void side_init(struct side *s, int (*open)(struct tchan *t))
{
	if (open(&s->t))
		fail("the valid channel does not open");
	s->snap = malloc(s->t.g.writer_size);
	if (!s->snap)
		fail("no memory");
	memcpy(s->snap, s->t.wr, s->t.g.writer_size);
	s->r[0] = s->t.r[0];
	s->r[1] = s->t.r[1];
	s->w = s->t.w;
}

/* The valid channel again, with @data XORed onto its writer memory. */
static void side_reset(struct side *s, const uint8_t *data, size_t size)
{
	size_t i;

	memcpy(s->t.wr, s->snap, s->t.g.writer_size);
	for (i = 0; i < size && i < s->t.g.writer_size; i++)
		s->t.wr[i] ^= data[i];
	s->t.r[0] = s->r[0];
	s->t.r[1] = s->r[1];
	s->t.w = s->w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *err = NULL;
	uint64_t records = 0, c;
	uint16_t len;
	int last;

	if (!queue.snap) {
		side_init(&queue, hq_open);
		side_init(&state, hs_open);
	}
	if (!size)
		return 0;
	switch (data[0] % 4) {
	case 0:		/* a reader behind, lapped */
	case 1:		/* a reader up to date */
		side_reset(&queue, data + 1, size - 1);
		err = hq_drain(&queue.t.r[data[0] % 2], &last, &records);
		break;
	case 2:
		side_reset(&state, data + 1, size - 1);
		err = hs_read(&state.t.r[0], &last);
		break;
	default:
		side_reset(&queue, NULL, 0);
		for (data++, size--; size >= 10 && !err; data += 10, size -= 10) {
			memcpy(&c, data, 8);
			memcpy(&len, data + 8, 2);
			err = hq_send(&queue.t, c, 1 + len % HQ_MAX, &last);
		}
		break;
	}
	if (err)
		fail(err);
	return 0;
}
