// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile test inmate of a cell's limits on the bandwidth lock
 * (selftests/cells/bwlimits.sh), at level= (default 100) per mille.
 * what=hold (default): take the lock and never release it; spin until
 * the runner ends the hold, then (unless retake=0) take it again at
 * once. what=loop: rounds= (default 300) acquisitions in a tight loop,
 * each served one released at once. what=low: levels 1 and level - 1,
 * then level, a change to 1 while holding, a release. Each outcome goes
 * to the results area.
 */
#include "inmate.h"

static int never_release(uint32_t level)
{
	char why[CELL_COMM_BWLOCK_REASON_MAX];
	int st = bwlock_acquire(level);
	unsigned int i;

	result_set("acquire", st);
	result_set("limit_ms", comm->bwlock_max_hold_ms);
	if (st)
		return 0;
	/* Never released: only the runner can end it. */
	while (!comm->bwlock_forced)
		;
	mb();	/* the runner's fields after its count */
	result_set("forced", comm->bwlock_forced);
	result_set("status", comm->bwlock_status);
	result_set("level_after", comm->bwlock_level);
	for (i = 0; i < sizeof(why); i++)
		why[i] = comm->bwlock_reason[i];
	why[sizeof(why) - 1] = '\0';
	/* At once, before the console's exits: well within the gap. */
	if (arg_u64("retake", 1))
		result_set("retake", bwlock_acquire(level));
	iprintf("hold ended by the runner: %s\n", why);
	if (arg_u64("retake", 1))
		iprintf("taken again at once: status %u, %s\n",
			comm->bwlock_status, (const char *)comm->bwlock_reason);
	return 0;
}

static int loop(uint32_t level)
{
	uint64_t rounds = arg_u64("rounds", 300), i;
	unsigned int served = 0, soon = 0, other = 0, first = 0;

	for (i = 0; i < rounds; i++) {
		int st = bwlock_acquire(level);

		if (!st) {
			served++;
			bwlock_release();
		} else if (st == CELL_BWLOCK_TOO_SOON) {
			soon++;
		} else if (!other++) {
			first = st;
		}
	}
	result_set("served", served);
	result_set("too_soon", soon);
	result_set("other", other);
	result_set("other_first", first);
	result_set("gap_ms", comm->bwlock_min_gap_ms);
	return 0;
}

static int low(uint32_t level)
{
	result_set("floor", comm->bwlock_min_level);
	result_set("low_1", bwlock_acquire(1));
	iprintf("level 1: status %u, %s\n", comm->bwlock_status,
		(const char *)comm->bwlock_reason);
	result_set("low_below", bwlock_acquire(level - 1));
	result_set("at_level", bwlock_acquire(level));
	result_set("change_low", bwlock_acquire(1));
	result_set("kept", comm->bwlock_level);
	result_set("release", bwlock_release());
	return 0;
}

int inmate_main(void)
{
	uint32_t level = arg_u64("level", 100);
	char what[16] = "hold";

	if (level < 2 || level > 1000)
		level = 100;
	arg_str("what", what, sizeof(what));
	if (!strncmp(what, "loop", 5))
		return loop(level);
	if (!strncmp(what, "low", 4))
		return low(level);
	return never_release(level);
}
