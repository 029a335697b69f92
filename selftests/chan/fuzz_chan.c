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

static struct hside queue, state;

static void fail(const char *err)
{
	fprintf(stderr, "fuzz_chan: %s\n", err);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *err = NULL;
	uint64_t records = 0, c;
	uint16_t len;
	int last;

	if (!queue.snap && (hside_init(&queue, hq_open) || hside_init(&state, hs_open)))
		fail("the valid channels do not open");
	if (!size)
		return 0;
	switch (data[0] % 4) {
	case 0:		/* a reader behind, lapped */
	case 1:		/* a reader up to date */
		hside_reset(&queue, data + 1, size - 1);
		err = hq_drain(&queue.t.r[data[0] % 2], &last, &records);
		break;
	case 2:
		hside_reset(&state, data + 1, size - 1);
		err = hs_read(&state.t.r[0], &last);
		break;
	default:
		hside_reset(&queue, NULL, 0);
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
