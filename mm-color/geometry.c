// SPDX-License-Identifier: GPL-2.0
/*
 * The cache geometry in use: validating a new one and switching to it
 * (only while the pool, quarantine and mappings are empty, since every
 * frame's color would change), a frame's color, and the per-color count
 * of pages the buddy allocator manages, taken at each switch.
 *
 * A switch has two steps so that a caller can make its own state follow
 * (sysfs.c resizes free/ in between) and still leave everything as it was
 * when that fails: mmc_geometry_prepare() checks and allocates,
 * mmc_geometry_commit() cannot fail. Both run under one hold of mmc.lock.
 */
#include <linux/kernel.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "mm_color_int.h"

/* A short text for one of hv-color's error codes (errno values). */
static const char *mmc_hvc_error(int err)
{
	switch (-err) {
	case HVC_EINVAL:
		return "not a valid geometry (power of two, 2 to 1024 colors)";
	case HVC_ERANGE:
		return "out of range";
	case HVC_EOVERFLOW:
		return "overflow";
	default:
		return "rejected";
	}
}

/**
 * mmc_color_of() - the color of a page frame in the current geometry
 * @pfn: the page frame number
 *
 * Return: the color, below mmc.nr_colors (only with a geometry set).
 */
u32 mmc_color_of(unsigned long pfn)
{
	return hvc_color_of_pfn(&mmc.geo, pfn);
}

/*
 * Per color, the pages the buddy allocator manages (the estimate's base).
 * Walks the nodes' spans (pgdat fields, see buddy.c's list).
 */
static void mmc_count_managed(unsigned long *managed)
{
	unsigned long pfn, end, n = 0;
	int nid;

	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);

		end = pgdat->node_start_pfn + pgdat->node_spanned_pages;
		for (pfn = pgdat->node_start_pfn; pfn < end; pfn++) {
			struct page *page = pfn_to_online_page(pfn);

			if (page && !PageReserved(page))
				managed[mmc_color_of(pfn)]++;
			if (!(++n % (64 * MMC_BATCH)))
				cond_resched();
		}
	}
}

static bool mmc_pool_empty(void)
{
	return !mmc.pool_pages && !mmc.quarantined && !mmc.committed;
}

/**
 * mmc_geometry_prepare() - check a new cache geometry and allocate for it
 * @chg: filled with the geometry and its per-color arrays
 * @way_size: bytes of one LLC way
 *
 * Only with an empty pool and quarantine and no mapping. Called with
 * mmc.lock held, which must stay held until mmc_geometry_commit() or
 * mmc_geometry_abort().
 *
 * Return: 0, -EINVAL for a way size hv-color refuses, -EBUSY while pages
 * are pooled, quarantined or mapped, -ENOMEM; last_cmd_status says why.
 */
int mmc_geometry_prepare(struct mmc_geometry_change *chg, u64 way_size)
{
	int err;

	err = hvc_geometry_from_way_size(&chg->geo, way_size, 0, 0, PAGE_SHIFT, 1);
	if (err) {
		mmc_set_status("geometry: way size %llu rejected: %s", way_size,
			       mmc_hvc_error(err));
		return -EINVAL;
	}
	if (!mmc_pool_empty()) {
		mmc_set_status("geometry: pool, quarantine or mappings not empty");
		return -EBUSY;
	}
	chg->way_size = way_size;
	chg->managed = kcalloc(chg->geo.nr_colors, sizeof(*chg->managed),
			       GFP_KERNEL);
	chg->quar_per_color = kcalloc(chg->geo.nr_colors,
				      sizeof(*chg->quar_per_color), GFP_KERNEL);
	if (!chg->managed || !chg->quar_per_color) {
		mmc_geometry_abort(chg);
		mmc_set_status("geometry: out of memory");
		return -ENOMEM;
	}
	return 0;
}

/**
 * mmc_geometry_abort() - drop a prepared geometry
 * @chg: from a successful mmc_geometry_prepare()
 */
void mmc_geometry_abort(struct mmc_geometry_change *chg)
{
	kfree(chg->managed);
	kfree(chg->quar_per_color);
	chg->managed = NULL;
	chg->quar_per_color = NULL;
}

/**
 * mmc_geometry_commit() - switch to a prepared geometry
 * @chg: from a successful mmc_geometry_prepare(), under the same hold of
 *	mmc.lock; its arrays now belong to mmc
 * @line_size: the LLC line size, or 0 when unknown
 * @source: where it came from, for geometry_source (a static string)
 *
 * Root Linux gets every color of the new geometry.
 */
void mmc_geometry_commit(struct mmc_geometry_change *chg, u32 line_size,
			 const char *source)
{
	kfree(mmc.managed);
	kfree(mmc.quar_per_color);
	mmc.geo = chg->geo;
	mmc.nr_colors = chg->geo.nr_colors;
	mmc.way_size = chg->way_size;
	if (line_size)
		mmc.line_size = line_size;
	mmc.managed = chg->managed;
	mmc.quar_per_color = chg->quar_per_color;
	/* Cannot fail: the pool is empty and the geometry valid. */
	hvc_alloc_init(&mmc.alloc, &mmc.geo);
	hvc_mask_fill(&mmc.root.m, mmc.nr_colors);
	mmc.geo_source = source;
	mmc.have_geo = true;
	mmc_count_managed(mmc.managed);
}

/**
 * mmc_geometry_exit() - module exit: free the per-color counts
 */
void mmc_geometry_exit(void)
{
	kfree(mmc.managed);
	kfree(mmc.quar_per_color);
}
