// SPDX-License-Identifier: GPL-2.0
/*
 * Test inmate of the bandwidth lock (selftests/cells/bwlock.sh).
 * mode=hold (default): take the lock at level= (default 250), then with
 * wait=1 hold it until a shutdown request, else for mcycles= million
 * cycles (default 0); release it unless release=0; with fault=1 fault
 * while holding instead. mode=bad: every kind of bad request, then a
 * change of level, then a flood; each outcome goes to the results area.
 */
#include "inmate.h"

static void hold(void)
{
	uint64_t end = cycles() + arg_u64("mcycles", 0) * 1000000;

	if (arg_u64("wait", 0)) {
		while (!shutdown_requested())
			;
		return;
	}
	while (cycles() < end)
		;
}

static int mode_hold(void)
{
	int st = bwlock_acquire(arg_u64("level", 250));

	result_set("acquire", st);
	result_set("level_held", comm->bwlock_level);
	iprintf("acquire: status %d, level %u%s%s\n", st, comm->bwlock_level,
		st ? ", refused: " : "", st ? (const char *)comm->bwlock_reason : "");
	if (arg_u64("fault", 0)) {
#if defined(__aarch64__)
		asm volatile("udf #0");
#else
		asm volatile("ud2");
#endif
	}
	hold();
	if (arg_u64("release", 1))
		result_set("release", bwlock_release());
	result_set("level_after", comm->bwlock_level);
	if (arg_u64("wait", 0))
		shutdown_reply(1);
	return 0;
}

static volatile void *reg(void)
{
	return (volatile void *)(uintptr_t)comm->bwlock_reg;
}

static int mode_bad(void)
{
	unsigned int i, flood = 0;
	uint32_t before;

	result_set("rel_unheld", bwlock_release());
	result_set("level_1001", bwlock_acquire(1001));
	result_set("level_max", bwlock_acquire(0xffffffffu));
	*(volatile uint8_t *)reg() = 100;
	mb();	/* the write's outcome before reading it */
	result_set("byte_write", comm->bwlock_status);
	*(volatile uint64_t *)reg() = 100;
	mb();	/* as above */
	result_set("quad_write", comm->bwlock_status);
	result_set("held_after_bad", comm->bwlock_level);

	result_set("acq_300", bwlock_acquire(300));
	before = comm->bwlock_level;
	result_set("level_5000", bwlock_acquire(5000));
	*(volatile uint8_t *)reg() = 0;
	mb();	/* as above */
	result_set("byte_release", comm->bwlock_status);
	result_set("kept_level", before == 300 && comm->bwlock_level == 300);
	result_set("acq_200", bwlock_acquire(200));
	result_set("changed_to", comm->bwlock_level);
	result_set("read_back", *(volatile uint32_t *)reg());

	/* A flood: the runner serves CELL_BWLOCK_RATE_MAX a second. */
	for (i = 0; i < 3 * CELL_BWLOCK_RATE_MAX; i++)
		if (bwlock_acquire(i & 1 ? 400 : 500) == CELL_BWLOCK_FLOOD)
			flood++;
	result_set("flood_refused", flood);
	result_set("flood_level", comm->bwlock_level);
	result_set("release", bwlock_release());
	result_set("level_end", comm->bwlock_level);
	result_set("requests", comm->bwlock_requests);
	result_set("acquired", comm->bwlock_acquired);
	result_set("refused", comm->bwlock_refused);
	iprintf("bad requests done: %u refused, last: %s\n",
		comm->bwlock_refused, (const char *)comm->bwlock_reason);
	if (arg_u64("wait", 0)) {
		bwlock_acquire(arg_u64("level", 250));
		hold();
		shutdown_reply(1);
	}
	return 0;
}

int inmate_main(void)
{
	char mode[16] = "hold";

	arg_str("mode", mode, sizeof(mode));
	if (!strncmp(mode, "bad", 4))
		return mode_bad();
	return mode_hold();
}
