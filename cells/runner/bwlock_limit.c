// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's limits on memguard's bandwidth lock (colorguard.cfg(5):
 * bwlock_max_hold_ms, bwlock_min_gap_ms, bwlock_min_level). memguard's
 * own bwlock_max_hold_ms is module-wide, ten seconds by default: without
 * these, one cell with bwlock = true could keep every regulated CPU of
 * root Linux at 1 per mille for good, by holding the lock or by taking
 * it again as soon as it ends. Pure functions: bwlock.c asks them, with
 * its own state, under its lock. A leaf: it calls nothing of the runner.
 */
#include <stdio.h>

#include "vm_int.h"

/* The comm region publishes the gap and the level in 16 bits each. */
_Static_assert(CG_CELL_BWLOCK_GAP_MS_MAX <= 0xffff, "bwlock_min_gap_ms");
_Static_assert(CG_CELL_BWLOCK_LEVEL_MAX <= 0xffff, "bwlock_min_level");

#define NS_PER_MS	1000000ull

void cell_bwlock_limits_of(const struct cg_cell *cell,
			   struct cell_bwlock_limits *l)
{
	l->max_hold_ms = cg_cell_bwlock_hold_ms(cell);
	l->min_gap_ms = cg_cell_bwlock_gap_ms(cell);
	l->min_level = cg_cell_bwlock_level(cell);
}

enum cell_bwlock_status cell_bwlock_limit_check(const struct cell_bwlock_limits *l,
						uint32_t level, uint32_t held,
						uint64_t released, uint64_t now,
						char *why, size_t len)
{
	uint64_t gap = l->min_gap_ms * NS_PER_MS;

	/* Lower is stricter: the floor holds for changes of level too. */
	if (level < l->min_level) {
		snprintf(why, len, "level %u: the cell's bwlock_min_level is %u",
			 level, l->min_level);
		return CELL_BWLOCK_TOO_LOW;
	}
	/* Only a new hold waits: a change keeps the hold it has. */
	if (!held && released && now - released < gap) {
		snprintf(why, len, "released %llu ms ago: bwlock_min_gap_ms is %u",
			 (unsigned long long)((now - released) / NS_PER_MS),
			 l->min_gap_ms);
		return CELL_BWLOCK_TOO_SOON;
	}
	return CELL_BWLOCK_OK;
}

uint64_t cell_bwlock_deadline(const struct cell_bwlock_limits *l,
			      uint64_t since)
{
	return since + l->max_hold_ms * NS_PER_MS;
}
