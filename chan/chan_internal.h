/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal helpers of the channel core: accesses to shared memory and
 * the copies in and out of it.
 *
 * Every access to the other side's memory is an __atomic_* builtin, so
 * each word is read exactly once (no double fetch a hostile peer could
 * change between a check and a use) and no copy loop can turn into a
 * call of memcpy().
 */
#ifndef _CHAN_INTERNAL_H
#define _CHAN_INTERNAL_H

#include <colorguard/chan.h>

#define CHAN_NULL	((void *)0)

static inline chan_u64 ld_acq64(const chan_u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline chan_u64 ld64(const chan_u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline chan_u32 ld32(const chan_u32 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void st_rel64(chan_u64 *p, chan_u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline void st64(chan_u64 *p, chan_u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline void st32(chan_u32 *p, chan_u32 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* Loads before it are done before the loads after it. */
static inline void fence_acq(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

/* Stores before it are visible before the stores after it. */
static inline void fence_rel(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/* Both sides of the doorbell's store-then-load handshake. */
static inline void fence_full(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* A reader stops trusting the writer, for good. */
static inline int chan_break(struct chan_reader *r, enum chan_broken why)
{
	r->broken = why;
	return -CHAN_EPIPE;
}

void chan_copy_in(void *shared, const void *src, chan_u32 len);
void chan_copy_out(void *dst, const void *shared, chan_u32 len);
void chan_words_copy(void *dst, const void *src, chan_size bytes);
int chan_wake_due(struct chan_writer *w);

#endif /* _CHAN_INTERNAL_H */
