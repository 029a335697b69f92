/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The limits and the one conversion that memguard.ko, hv-color (and
 * through it the cell blob and mm_color.ko) and the colorguard tool share:
 * written here once, so that `colorguard check` refuses exactly what the
 * modules refuse and `colorguard plan` prints the budgets memguard uses.
 * Plain C types, no libc: usable in the kernel, in a hypervisor and on the
 * host. The 64-bit division is math64.h's: div64_u64_rem() in the kernel
 * (32-bit kernels need it), the compiler's on other 64-bit targets and
 * hv-color's own on 32-bit ones, which have no libgcc to call.
 */
#ifndef _COLORGUARD_LIMITS_H
#define _COLORGUARD_LIMITS_H

#include "math64.h"

/* memguard's regulation period, microseconds. */
#define CG_PERIOD_US_MIN	100
#define CG_PERIOD_US_MAX	1000000
#define CG_PERIOD_US_DEFAULT	1000

/*
 * The LLC line, bytes: what one memguard event counts and what the
 * coloring geometry's sets are made of. A power of two in this range
 * (mm-color's way size further needs it no larger than a page).
 */
#define CG_LINE_SIZE_MIN	16
#define CG_LINE_SIZE_MAX	4096
#define CG_LINE_SIZE_DEFAULT	64

/* A bandwidth budget, MB/s (MB = 2^20 bytes, as MemGuard counts). */
#define CG_MBPS_MAX		1000000

/*
 * memguard's bwlock_max_hold_ms: the longest hold of the bandwidth lock
 * by one open file of /dev/memguard, milliseconds (a hold starts at the
 * file's first acquisition). Always finite: the lock holds every
 * non-critical CPU back, and a holder that never releases must not keep
 * it forever. The default is ten times the longest hold the project's
 * own users make (critbench around a measured run under the LLC model, a
 * cell's measured rounds: about a second each) and thousands of times a
 * BWLOCK critical section (milliseconds).
 */
#define CG_BWLOCK_MAX_HOLD_MS_MIN	1
#define CG_BWLOCK_MAX_HOLD_MS_MAX	3600000
#define CG_BWLOCK_MAX_HOLD_MS_DEFAULT	10000

/*
 * A cell's own limits on the lock (the config's bwlock_max_hold_ms,
 * bwlock_min_gap_ms and bwlock_min_level; the runner enforces them):
 * memguard's limit is module-wide, so that one cell with bwlock = true
 * could otherwise hold every other CPU at 1 per mille for ten seconds at
 * a time, again and again. The defaults keep root Linux at a tenth of
 * its budgets at worst, for at most half of the time.
 */
#define CG_CELL_BWLOCK_HOLD_MS_DEFAULT	100
#define CG_CELL_BWLOCK_GAP_MS_MAX	60000
#define CG_CELL_BWLOCK_GAP_MS_DEFAULT	100
#define CG_CELL_BWLOCK_LEVEL_MAX	1000	/* per mille, as memguard's */
#define CG_CELL_BWLOCK_LEVEL_DEFAULT	100

/*
 * The largest shared colored object of mm_color.ko (MM_COLOR_OBJ_CREATE),
 * bytes. All its frames are allocated when it is made and its frame table
 * is one allocation (2 MiB at this size with 4 KiB pages); a channel's
 * region is a few pages to some MiB.
 */
#define CG_MMC_OBJECT_MAX_BYTES	0x40000000ULL	/* 1 GiB */

/**
 * cg_mbps_to_events() - a budget in MB/s as line events per period
 * @mbps: the budget, 1 to CG_MBPS_MAX
 * @period_us: the period, CG_PERIOD_US_MIN to CG_PERIOD_US_MAX
 * @line_size: bytes per event, CG_LINE_SIZE_MIN to CG_LINE_SIZE_MAX
 *
 * Rounded down, but never below one event: a budget, however small,
 * lets a core run until its first counted line, and 0 would mean "held
 * from the start of every period". The caller checks the ranges; within
 * them @mbps << 20 times @period_us stays below 2^60.
 *
 * Return: the events per period; 0 only for @mbps 0 or a zero divisor.
 */
static inline unsigned long long cg_mbps_to_events(unsigned int mbps,
						   unsigned int period_us,
						   unsigned int line_size)
{
	unsigned long long events, div = 1000000ULL * line_size;

	if (!mbps || !div)
		return 0;
	events = cg_div64_u64(((unsigned long long)mbps << 20) * period_us,
			      div);
	return events ? events : 1;
}

#endif /* _COLORGUARD_LIMITS_H */
