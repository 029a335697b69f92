// SPDX-License-Identifier: GPL-2.0
/*
 * Read-only summaries of the engine's state for sysfs and
 * MM_COLOR_GET_INFO: free pages per color, the estimate of foreign pages
 * Linux holds, the foreign free pages of CMA areas and ZONE_MOVABLE, and
 * the geometry and limits a file's user needs.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>

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

/* What a walk of free blocks counts: pages of non-root colors. */
struct mmc_foreign_count {
	const u32 *below;	/* below[c]: non-root colors under color c */
	unsigned long pages;
};

/*
 * Pages of non-root colors in the free block of 2^@order pages at @pfn,
 * which is aligned to its size: a color covers 2^gran_shift pages in a
 * row, nr_colors of them make a way block.
 */
static void mmc_count_foreign_block(unsigned long pfn, unsigned int order,
				    void *arg)
{
	struct mmc_foreign_count *fc = arg;
	unsigned int gran = mmc.geo.gran_shift;
	unsigned int way = gran + ilog2(mmc.nr_colors);
	u32 first, span;

	if (order >= way) {
		fc->pages += (1UL << (order - way)) *
			     ((unsigned long)fc->below[mmc.nr_colors] << gran);
		return;
	}
	first = mmc_color_of(pfn);
	if (order <= gran) {
		if (!hvc_mask_test(&mmc.root.m, first))
			fc->pages += 1UL << order;
		return;
	}
	span = 1U << (order - gran);
	fc->pages += (unsigned long)(fc->below[first + span] -
				     fc->below[first]) << gran;
}

/**
 * mmc_foreign_movable_free() - free pages of non-root colors in CMA areas
 *	and ZONE_MOVABLE
 * @pages: set to the count (0 when root_colors is all colors)
 *
 * The free pages that movable allocations of root Linux can still get on
 * colors it should not use: those a drain with drain_movable 0 leaves, or
 * that were freed there since the last drain (see
 * foreign_movable_free_pages in the ABI document). Called with mmc.lock
 * held and a geometry set. Sleeps.
 *
 * Return: 0, or -ENOMEM.
 */
int mmc_foreign_movable_free(unsigned long *pages)
{
	struct mmc_foreign_count fc = { .pages = 0 };
	u32 *below, c;

	*pages = 0;
	if (mmc_mask_weight(&mmc.root) == mmc.nr_colors)
		return 0;
	below = kmalloc_array(mmc.nr_colors + 1, sizeof(*below), GFP_KERNEL);
	if (!below)
		return -ENOMEM;
	below[0] = 0;
	for (c = 0; c < mmc.nr_colors; c++)
		below[c + 1] = below[c] + !hvc_mask_test(&mmc.root.m, c);
	fc.below = below;
	mmc_buddy_movable_free_walk(mmc_count_foreign_block, &fc);
	kfree(below);
	*pages = fc.pages;
	return 0;
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
