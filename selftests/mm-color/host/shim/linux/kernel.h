/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim: just enough of the kernel's headers for mm-color's pure files
 * (mask_adapt.c, state.c) and mm_color_int.h to compile in a userspace
 * test. Locks are never taken there; the types only need to exist.
 */
#ifndef _MMC_SHIM_KERNEL_H
#define _MMC_SHIM_KERNEL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

struct mutex {
	int unused;
};

#define __MUTEX_INITIALIZER(name)	{ 0 }

typedef struct {
	int unused;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name)	{ 0 }

struct page;

#endif /* _MMC_SHIM_KERNEL_H */
