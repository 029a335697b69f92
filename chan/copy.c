// SPDX-License-Identifier: GPL-2.0
/*
 * Copies between private and shared memory, a word at a time on the
 * shared side (which is always 8-byte aligned): each shared word is
 * read or written once, atomically. Private bytes go through relaxed
 * atomic byte accesses too, only so that no compiler turns a loop into
 * a memcpy() call, which a freestanding build has no definition of.
 */
#include "chan_internal.h"

union chan_word {
	chan_u64 w;
	chan_u8 b[8];
};

/**
 * chan_copy_in() - copy private bytes into shared memory
 * @shared: the destination, 8-byte aligned
 * @src: the source, any alignment
 * @len: bytes; the last word is completed with zeros
 */
void chan_copy_in(void *shared, const void *src, chan_u32 len)
{
	chan_u64 *d = shared;
	const chan_u8 *s = src;
	chan_u32 i = 0, j, n;
	union chan_word u;

	/* An aligned source goes a word at a time (4 KiB records: 8x fewer loads). */
	if (!((chan_uptr)src & 7)) {
		const chan_u64 *s64 = src;

		for (; i + 8 <= len; i += 8)
			st64(&d[i / 8], __atomic_load_n(&s64[i / 8], __ATOMIC_RELAXED));
	}
	for (; i < len; i += 8) {
		n = len - i < 8 ? len - i : 8;
		u.w = 0;
		for (j = 0; j < n; j++)
			u.b[j] = __atomic_load_n(&s[i + j], __ATOMIC_RELAXED);
		st64(&d[i / 8], u.w);
	}
}

/**
 * chan_copy_out() - copy shared memory into private bytes
 * @dst: the destination, any alignment
 * @shared: the source, 8-byte aligned
 * @len: bytes; whole words are read, only @len bytes are written
 */
void chan_copy_out(void *dst, const void *shared, chan_u32 len)
{
	const chan_u64 *s = shared;
	chan_u8 *d = dst;
	chan_u32 i, j, n;
	union chan_word u;

	if (!((chan_uptr)dst & 7)) {
		chan_u64 *d64 = dst;

		for (i = 0; i + 8 <= len; i += 8)
			__atomic_store_n(&d64[i / 8], ld64(&s[i / 8]), __ATOMIC_RELAXED);
	} else {
		i = 0;
	}
	for (; i < len; i += 8) {
		n = len - i < 8 ? len - i : 8;
		u.w = ld64(&s[i / 8]);
		for (j = 0; j < n; j++)
			__atomic_store_n(&d[i + j], u.b[j], __ATOMIC_RELAXED);
	}
}

/**
 * chan_words_copy() - copy a private struct, or zero it
 * @dst: the destination, 4-byte aligned
 * @src: the source, 4-byte aligned, or NULL to zero @dst
 * @bytes: a multiple of 4
 *
 * A plain struct assignment would become a memcpy() or memset() call.
 */
void chan_words_copy(void *dst, const void *src, chan_size bytes)
{
	const chan_u32 *s = src;
	chan_u32 *d = dst;
	chan_size i;

	for (i = 0; i < bytes / 4; i++)
		st32(&d[i], s ? ld32(&s[i]) : 0);
}
