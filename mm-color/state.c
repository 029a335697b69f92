// SPDX-License-Identifier: GPL-2.0
/*
 * The module's one state object, mmc (geometry, pool, quarantine,
 * counters and knobs; struct mmc_state says which lock guards what), and
 * last_cmd_status, which every command sets.
 */
#include <linux/kernel.h>

#include "mm_color_int.h"

struct mmc_state mmc = {
	.lock = __MUTEX_INITIALIZER(mmc.lock),
	.alloc_lock = __SPIN_LOCK_UNLOCKED(mmc.alloc_lock),
	.blocks = LIST_HEAD_INIT(mmc.blocks),
	.quarantine = LIST_HEAD_INIT(mmc.quarantine),
	.geo_source = "none",
	.status = "ok",
};

/**
 * mmc_set_status() - say what the last command did, for last_cmd_status
 * @fmt: printf format of the one-line reason
 *
 * Called with mmc.lock held, as every command is.
 */
void mmc_set_status(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(mmc.status, sizeof(mmc.status), fmt, args);
	va_end(args);
}
