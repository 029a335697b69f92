/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records of the channel tests, the same for a cell (inmates/chan.c)
 * and a root Linux program (chanpeer.c): record k of a run has a length
 * and bytes that depend on k alone, so a reader checks each record it
 * gets: the k it expects is the records it got plus those it lost, so a
 * miscounted loss shows as a wrong record.
 * Record 0 is 1 byte, record 1 is max bytes, the others spread between.
 */
#ifndef COLORGUARD_CHAN_PATTERN_H
#define COLORGUARD_CHAN_PATTERN_H

#include <stdint.h>

static inline uint32_t pat_len(uint64_t k, uint32_t max)
{
	if (k == 0 || max == 1)
		return 1;
	if (k == 1)
		return max;
	return 1 + (uint32_t)((k * 2654435761u) % max);
}

static inline uint8_t pat_byte(uint64_t k, uint32_t i)
{
	return (uint8_t)(k * 131 + i * 7 + (i >> 8) + 1);
}

static inline void pat_fill(uint8_t *buf, uint64_t k, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		buf[i] = pat_byte(k, i);
}

/* Is this record k of a run with records of up to max bytes? */
static inline int pat_ok(const uint8_t *buf, uint32_t len, uint64_t k, uint32_t max)
{
	uint32_t i;

	if (len != pat_len(k, max))
		return 0;
	for (i = 0; i < len; i++)
		if (buf[i] != pat_byte(k, i))
			return 0;
	return 1;
}

#endif
