// SPDX-License-Identifier: GPL-2.0
/*
 * Read-only summaries of the engine's state for sysfs and
 * MM_COLOR_GET_INFO: free pages per color, the estimate of foreign pages
 * Linux holds, and the geometry and limits a file's user needs.
 */
#include <linux/kernel.h>
#include <linux/mm.h>

#include "mm_color_int.h"

/**
 * mmc_fill_info() - MM_COLOR_GET_INFO's answer
 * @info: filled with the colors, the way size (0 without a geometry) and
 *	the per-file limit in bytes
 */
void mmc_fill_info(struct mm_color_info *info)
{
	mutex_lock(&mmc.lock);
	info->nr_colors = mmc.have_geo ? mmc.nr_colors : 0;
	info->way_size = mmc.have_geo ? mmc.way_size : 0;
	info->limit_bytes = (u64)mmc.limit_fd_mb << 20;
	mutex_unlock(&mmc.lock);
}

/**
 * mmc_foreign_in_use() - estimate of non-root-colored pages Linux holds
 *
 * Summed over the non-root colors: managed pages minus quarantined ones
 * minus the pool's share (see foreign_in_use_pages in the ABI document).
 *
 * Return: the estimate in pages.
 */
unsigned long mmc_foreign_in_use(void)
{
	unsigned long sum = 0, per_block_color, c, n;

	spin_lock(&mmc.alloc_lock);
	per_block_color = mmc.pool_pages / mmc.nr_colors;
	for (c = 0; c < mmc.nr_colors; c++) {
		if (hvc_mask_test(&mmc.root.m, c))
			continue;
		n = mmc.quar_per_color[c] + per_block_color;
		if (mmc.managed[c] > n)
			sum += mmc.managed[c] - n;
	}
	spin_unlock(&mmc.alloc_lock);
	return sum;
}

/**
 * mmc_color_free() - free pages of one color, pool and quarantine together
 * @color: the color
 *
 * Return: the count, 0 for a color beyond the geometry.
 */
unsigned long mmc_color_free(u32 color)
{
	unsigned long n;

	spin_lock(&mmc.alloc_lock);
	n = color < mmc.nr_colors ? hvc_alloc_free_count(&mmc.alloc, color) : 0;
	spin_unlock(&mmc.alloc_lock);
	return n;
}
