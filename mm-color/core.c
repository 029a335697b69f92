// SPDX-License-Identifier: GPL-2.0
/*
 * mm_color core: the geometry in use, the colored pool (blocks from the
 * buddy allocator, split into hv-color's per-color free lists), the
 * quarantine of root_colors and the accounting behind the sysfs files.
 *
 * Locking: mmc.lock (a mutex) serialises every configuration change and
 * is held across the long operations (pool resize, drain); mmc.alloc_lock
 * (a spinlock) protects hv-color's allocator and the counters that the
 * fault and unmap paths touch.
 */
#include <linux/cpu.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include "mm_color_int.h"

struct mmc_state mmc = {
	.lock = __MUTEX_INITIALIZER(mmc.lock),
	.alloc_lock = __SPIN_LOCK_UNLOCKED(mmc.alloc_lock),
	.blocks = LIST_HEAD_INIT(mmc.blocks),
	.quarantine = LIST_HEAD_INIT(mmc.quarantine),
	.geo_source = "none",
	.status = "ok",
};

static struct kmem_cache *mmc_frame_cache;

/*
 * Pool blocks and drains take only what the buddy allocator has to spare.
 * These are unmovable allocations: never from CMA pageblocks or
 * ZONE_MOVABLE, which must stay free for contiguous allocations and
 * memory offline.
 */
#define MMC_GFP		(GFP_HIGHUSER | __GFP_NORETRY | __GFP_NOWARN | __GFP_NOMEMALLOC)
/*
 * Movable, for the page-by-page drain only where it cannot reach CMA or
 * ZONE_MOVABLE, or where drain_movable allows that (see mmc_drain_gfp()).
 */
#define MMC_DRAIN_GFP	(MMC_GFP | __GFP_MOVABLE)
/* Preferred block order: 1 MiB keeps the allocation count low. */
#define MMC_BLOCK_ORDER	8
/*
 * The highest order the buddy allocator hands out: MAX_ORDER - 1 before
 * 6.4, MAX_ORDER from 6.4, MAX_PAGE_ORDER from 6.8. MAX_ORDER_NR_PAGES
 * has been its number of pages all along.
 */
#define MMC_MAX_ORDER	ilog2(MAX_ORDER_NR_PAGES)
/* Pages between two signal checks in long loops. */
#define MMC_BATCH	256
/*
 * Frames handled per alloc_lock section in the walks over a whole pool or
 * quarantine (shrink, release, exit): a few microseconds each, with
 * cond_resched() between them.
 */
#define MMC_LOCK_BATCH	256
/* Page-by-page drain passes at most, see mmc_drain(). */
#define MMC_DRAIN_PASSES	8
/* Order-1 pairs freed at most per CPU to empty its per-cpu lists. */
#define MMC_PCP_FLUSH_ROUNDS	64
/*
 * Order-1 pages freed in a row to empty them on 6.7 and later: twice a
 * per-cpu batch of pages (63 where the batch is largest) and some more.
 */
#define MMC_PCP_FLUSH_RUN	80

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

/*
 * Free memory as reserve_mb counts it: outside CMA areas, since the
 * unmovable allocations of the kernel (and of the pool) cannot use CMA.
 * Counting CMA's free pages let a drain stop with free memory made mostly
 * of an untouched CMA area (arm64: 64 MiB), whose pages of every color a
 * movable allocation takes first once the movable free lists are empty.
 */
static unsigned long mmc_free_pages(void)
{
	unsigned long free = global_zone_page_state(NR_FREE_PAGES);
	unsigned long cma = global_zone_page_state(NR_FREE_CMA_PAGES);

	return free > cma ? free - cma : 0;
}

static unsigned long mmc_reserve_pages(void)
{
	return mmc.reserve_mb << (20 - PAGE_SHIFT);
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

/* Pages waiting on this CPU's per-cpu lists beyond one batch, all zones. */
static unsigned long mmc_pcp_excess_local(void)
{
	unsigned long excess = 0;
	int nid, z;

	for_each_online_node(nid) {
		for (z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];
			struct per_cpu_pages *pcp;
			int count, batch;

			if (!populated_zone(zone))
				continue;
			/* work_on_cpu(): a worker bound to this CPU */
			pcp = raw_cpu_ptr(zone->per_cpu_pageset);
			count = READ_ONCE(pcp->count);
			batch = READ_ONCE(pcp->batch);
			if (count > batch)
				excess += count - batch;
		}
	}
	return excess;
}

/*
 * Pages freed one by one wait on the freeing CPU's per-cpu lists, up to
 * their high marks (56 MB together in the x86_64 test VM, and 6.12 raises
 * the marks of CPUs that free a lot), and MemFree does not count them:
 * after a release of the quarantine MemFree came back 16-41 MB short,
 * those pages sitting there until some allocation took them. The
 * allocator empties a CPU's lists when it frees high-order pages right
 * after a run of frees, so freeing order-1 pages hands what a drain,
 * release or shrink gave back to the buddy allocator, where it counts as
 * free and can merge. What counts as a run differs:
 * - 6.1 flushes all of the lists on one order-1 free while a count of
 *   recent frees is above zero, which each allocation halves: pairs of
 *   order-1 pages freed right after their allocation do it;
 * - 6.7 on wants at least a batch of pages freed since the last
 *   allocation (each allocation halves that count too) and then frees up
 *   to 32 batches per order-1 free: that takes MMC_PCP_FLUSH_RUN order-1
 *   pages allocated first and freed in a row.
 * Both are repeated while the lists hold more than a batch.
 */
static void mmc_pcp_flush_pairs(void)
{
	unsigned int round;

	for (round = 0; round < MMC_PCP_FLUSH_ROUNDS; round++) {
		struct page *a = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 1);
		struct page *b = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 1);

		if (a)
			__free_pages(a, 1);
		if (b)
			__free_pages(b, 1);
		if (!mmc_pcp_excess_local())
			break;
	}
}

static void mmc_pcp_flush_runs(void)
{
	struct page *run[MMC_PCP_FLUSH_RUN];
	unsigned int round, n;

	for (round = 0; round < 4 && mmc_pcp_excess_local(); round++) {
		for (n = 0; n < ARRAY_SIZE(run); n++) {
			run[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 1);
			if (!run[n])
				break;
		}
		while (n)
			__free_pages(run[--n], 1);
	}
}

static long mmc_pcp_flush_local(void *arg)
{
	mmc_pcp_flush_pairs();
	mmc_pcp_flush_runs();
	return 0;
}

static void mmc_pcp_flush(void)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		work_on_cpu(cpu, mmc_pcp_flush_local, NULL);
	cpus_read_unlock();
}

/**
 * mmc_hvc_error() - a short text for one of hv-color's error codes
 * @err: a negative -HVC_E* code (hv-color's codes are errno values)
 *
 * Return: a static string.
 */
const char *mmc_hvc_error(int err)
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

/* Per color, the pages the buddy allocator manages (the estimate's base). */
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
 * mmc_set_geometry() - switch to a new cache geometry
 * @way_size: bytes of one LLC way
 * @line_size: the LLC line size, or 0 when unknown
 * @source: where it came from, for geometry_source (a static string)
 *
 * Only with an empty pool and quarantine and no mapping, since every
 * frame's color would change. Root Linux gets every color of the new
 * geometry. Called with mmc.lock held.
 *
 * Return: 0, -EINVAL for a way size hv-color refuses, -EBUSY while pages
 * are pooled, quarantined or mapped, -ENOMEM; last_cmd_status says why.
 */
int mmc_set_geometry(u64 way_size, u32 line_size, const char *source)
{
	struct hvc_geometry geo;
	unsigned long *managed, *quar;
	int err;

	err = hvc_geometry_from_way_size(&geo, way_size, 0, 0, PAGE_SHIFT, 1);
	if (err) {
		mmc_set_status("geometry: way size %llu rejected: %s", way_size,
			       mmc_hvc_error(err));
		return -EINVAL;
	}
	if (!mmc_pool_empty()) {
		mmc_set_status("geometry: pool, quarantine or mappings not empty");
		return -EBUSY;
	}
	managed = kcalloc(geo.nr_colors, sizeof(*managed), GFP_KERNEL);
	quar = kcalloc(geo.nr_colors, sizeof(*quar), GFP_KERNEL);
	if (!managed || !quar) {
		kfree(managed);
		kfree(quar);
		mmc_set_status("geometry: out of memory");
		return -ENOMEM;
	}
	err = mmc_sysfs_colors_resize(geo.nr_colors);
	if (err) {
		kfree(managed);
		kfree(quar);
		mmc_set_status("geometry: cannot create free/ files");
		return err;
	}
	kfree(mmc.managed);
	kfree(mmc.quar_per_color);
	mmc.geo = geo;
	mmc.nr_colors = geo.nr_colors;
	mmc.way_size = way_size;
	if (line_size)
		mmc.line_size = line_size;
	mmc.managed = managed;
	mmc.quar_per_color = quar;
	/* Cannot fail: the pool is empty and the geometry valid. */
	hvc_alloc_init(&mmc.alloc, &mmc.geo);
	hvc_mask_fill(&mmc.root.m, mmc.nr_colors);
	mmc.geo_source = source;
	mmc.have_geo = true;
	mmc_count_managed(managed);
	return 0;
}

/**
 * mmc_mask_check() - whether a mask names colors of this geometry
 * @mask: a mask from userspace
 *
 * Return: 0, -ENODEV without a geometry, -EINVAL for an empty mask,
 * -ERANGE for a color not below nr_colors.
 */
int mmc_mask_check(const struct mmc_mask *mask)
{
	if (!mmc.have_geo)
		return -ENODEV;
	if (hvc_mask_empty(&mask->m))
		return -EINVAL;
	if (!hvc_mask_fits(&mask->m, mmc.nr_colors))
		return -ERANGE;
	return 0;
}

static void mmc_frame_init(struct mmc_frame *frame, struct page *page,
			   struct mmc_block *block)
{
	hvc_frame_init(&frame->hf);
	frame->page = page;
	frame->block = block;
	INIT_LIST_HEAD(&frame->qnode);
}

static void mmc_block_free(struct mmc_block *block)
{
	unsigned long i;

	for (i = 0; i < block->nr_pages; i++)
		__free_page(block->frames[i].page);
	kvfree(block);
}

/* One block: a naturally aligned run holding every color equally often. */
static struct mmc_block *mmc_block_alloc(void)
{
	unsigned int min_order = ilog2(mmc.nr_colors);
	unsigned int order = clamp_t(unsigned int, MMC_BLOCK_ORDER, min_order,
				     MMC_MAX_ORDER);
	struct mmc_block *block;
	struct page *page;
	unsigned long i;

	for (;;) {
		page = alloc_pages(MMC_GFP, order);
		if (page || order == min_order)
			break;
		order = min_order;
	}
	if (!page)
		return NULL;
	block = kvzalloc(struct_size(block, frames, 1UL << order), GFP_KERNEL);
	if (!block) {
		__free_pages(page, order);
		return NULL;
	}
	split_page(page, order);
	block->nr_pages = 1UL << order;
	for (i = 0; i < block->nr_pages; i++)
		mmc_frame_init(&block->frames[i], page + i, block);
	return block;
}

static void mmc_block_add(struct mmc_block *block)
{
	unsigned long i;

	spin_lock(&mmc.alloc_lock);
	for (i = 0; i < block->nr_pages; i++)
		WARN_ON_ONCE(hvc_alloc_add(&mmc.alloc, &block->frames[i].hf,
					   page_to_pfn(block->frames[i].page)));
	mmc.pool_pages += block->nr_pages;
	spin_unlock(&mmc.alloc_lock);
	list_add(&block->node, &mmc.blocks);
}

/* Caller holds alloc_lock and has checked that nothing is in use. */
static void mmc_block_remove(struct mmc_block *block)
{
	unsigned long i;

	for (i = 0; i < block->nr_pages; i++)
		WARN_ON_ONCE(hvc_alloc_remove(&mmc.alloc, &block->frames[i].hf));
	mmc.pool_pages -= block->nr_pages;
	list_del(&block->node);
}

static int mmc_pool_grow(unsigned long target)
{
	LIST_HEAD(added);
	struct mmc_block *block, *tmp;
	unsigned long have = mmc.pool_pages;
	unsigned long block_pages = 1UL << clamp_t(unsigned int, MMC_BLOCK_ORDER,
						   ilog2(mmc.nr_colors), MMC_MAX_ORDER);
	int err = 0;

	while (have < target) {
		if (signal_pending(current)) {
			err = -EINTR;
			mmc_set_status("pool: interrupted, size unchanged");
			break;
		}
		if (mmc_free_pages() < mmc_reserve_pages() + block_pages) {
			err = -ENOMEM;
			mmc_set_status("pool: growing would cut into the %lu MB reserve",
				       mmc.reserve_mb);
			break;
		}
		block = mmc_block_alloc();
		if (!block) {
			err = -ENOMEM;
			mmc_set_status("pool: buddy allocator has no block to spare");
			break;
		}
		list_add(&block->node, &added);
		have += block->nr_pages;
		cond_resched();
	}
	list_for_each_entry_safe(block, tmp, &added, node) {
		list_del(&block->node);
		if (err)
			mmc_block_free(block);
		else
			mmc_block_add(block);
	}
	return err;
}

/*
 * Only blocks with no page in use go back, all or nothing. Each block
 * leaves the allocator in its own alloc_lock section (MMC_LOCK_BATCH frames
 * at most with the usual 1 MiB blocks), so a large pool is never walked
 * with preemption off. A fault may take a page of a block meanwhile: that
 * block is skipped, and if the target cannot be reached any more the
 * blocks already taken out go back. Called with mmc.lock held.
 */
static int mmc_pool_shrink(unsigned long target)
{
	struct mmc_block *block, *tmp;
	unsigned long can_drop = 0, busy;
	LIST_HEAD(dropped);

	/* First see whether enough idle blocks exist (a count per block). */
	spin_lock(&mmc.alloc_lock);
	list_for_each_entry(block, &mmc.blocks, node)
		if (!block->nr_used)
			can_drop += block->nr_pages;
	busy = mmc.pool_pages - can_drop;
	spin_unlock(&mmc.alloc_lock);
	if (busy > target) {
		mmc_set_status("pool: %lu pages in use, cannot shrink to %lu",
			       busy, target);
		return -EBUSY;
	}
	list_for_each_entry_safe(block, tmp, &mmc.blocks, node) {
		if (mmc.pool_pages <= target)
			break;
		spin_lock(&mmc.alloc_lock);
		if (!block->nr_used) {
			mmc_block_remove(block);
			list_add(&block->node, &dropped);
		}
		spin_unlock(&mmc.alloc_lock);
		cond_resched();
	}
	if (mmc.pool_pages > target) {
		/* Pages were taken meanwhile: put everything back. */
		list_for_each_entry_safe(block, tmp, &dropped, node) {
			list_del(&block->node);
			mmc_block_add(block);
			cond_resched();
		}
		mmc_set_status("pool: pages taken while shrinking, cannot shrink to %lu",
			       target);
		return -EBUSY;
	}
	list_for_each_entry_safe(block, tmp, &dropped, node) {
		list_del(&block->node);
		mmc_block_free(block);
		cond_resched();
	}
	mmc_pcp_flush();
	return 0;
}

/**
 * mmc_pool_resize() - grow or shrink the colored pool
 * @target: pages wanted; growing rounds up to whole blocks, shrinking down
 *
 * Called with mmc.lock held.
 *
 * Return: 0, -ENODEV without a geometry, -ERANGE above the machine's
 * memory, or the error of the grow or shrink (-ENOMEM, -EBUSY when pages
 * in use keep the pool from shrinking that far); last_cmd_status says why.
 */
int mmc_pool_resize(unsigned long target)
{
	if (!mmc.have_geo) {
		mmc_set_status("pool: no cache geometry set");
		return -ENODEV;
	}
	if (target > totalram_pages()) {
		mmc_set_status("pool: %lu pages is more than the machine has", target);
		return -ERANGE;
	}
	if (target > mmc.pool_pages)
		return mmc_pool_grow(target);
	return mmc_pool_shrink(target);
}

/**
 * mmc_pool_alloc() - a free frame of one of the mask's colors
 * @mask: the colors allowed
 *
 * Takes the allowed color with the most free frames (hv-color's
 * allocator); a miss counts in failed_faults. Takes mmc.alloc_lock.
 *
 * Return: the frame, now used, or NULL when no allowed color has one.
 */
struct mmc_frame *mmc_pool_alloc(const struct mmc_mask *mask)
{
	struct mmc_frame *frame = NULL;
	struct hvc_frame *hf;

	spin_lock(&mmc.alloc_lock);
	hf = hvc_alloc_frame(&mmc.alloc, &mask->m);
	if (hf) {
		frame = container_of(hf, struct mmc_frame, hf);
		if (frame->block)
			frame->block->nr_used++;
		mmc.used_pages++;
	} else {
		mmc.failed_faults++;
	}
	spin_unlock(&mmc.alloc_lock);
	return frame;
}

/**
 * mmc_pool_free() - give a used frame back
 * @frame: a frame from mmc_pool_alloc() that nothing references any more
 *
 * A quarantined frame whose color went back to root Linux while it was
 * mapped goes back to the page allocator instead. Takes mmc.alloc_lock.
 */
void mmc_pool_free(struct mmc_frame *frame)
{
	u32 color = frame->hf.color;
	bool release = false;

	spin_lock(&mmc.alloc_lock);
	mmc.used_pages--;
	if (frame->block) {
		frame->block->nr_used--;
		WARN_ON_ONCE(hvc_alloc_free(&mmc.alloc, &frame->hf));
	} else if (hvc_mask_test(&mmc.root.m, color)) {
		/* Its color went back to root Linux while it was mapped. */
		WARN_ON_ONCE(hvc_alloc_free(&mmc.alloc, &frame->hf));
		WARN_ON_ONCE(hvc_alloc_remove(&mmc.alloc, &frame->hf));
		list_del(&frame->qnode);
		mmc.quarantined--;
		mmc.quar_per_color[color]--;
		release = true;
	} else {
		WARN_ON_ONCE(hvc_alloc_free(&mmc.alloc, &frame->hf));
	}
	spin_unlock(&mmc.alloc_lock);
	if (release) {
		__free_page(frame->page);
		kmem_cache_free(mmc_frame_cache, frame);
	}
}

/**
 * mmc_commit() - reserve pages for a mapping against the limits
 * @mask: the mapping's colors
 * @nr_pages: the pages to reserve
 * @file_pages: what the file has reserved already
 *
 * Checks the mask, then that the pool and quarantine could ever hold
 * @nr_pages, limit_fd_mb for the file and limit_total_mb for everyone.
 * Takes mmc.lock and mmc.alloc_lock.
 *
 * Return: 0 with the pages counted as committed, an error of
 * mmc_mask_check(), or -ENOMEM over a limit.
 */
int mmc_commit(const struct mmc_mask *mask, unsigned long nr_pages,
	       unsigned long file_pages)
{
	unsigned long fd_limit, total_limit;
	int err;

	mutex_lock(&mmc.lock);
	err = mmc_mask_check(mask);
	fd_limit = mmc.limit_fd_mb << (20 - PAGE_SHIFT);
	total_limit = mmc.limit_total_mb << (20 - PAGE_SHIFT);
	spin_lock(&mmc.alloc_lock);
	/* More than the pool holds could never be served. */
	if (!err && nr_pages > mmc.pool_pages + mmc.quarantined)
		err = -ENOMEM;
	if (!err && fd_limit && file_pages + nr_pages > fd_limit)
		err = -ENOMEM;
	if (!err && total_limit && mmc.committed + nr_pages > total_limit)
		err = -ENOMEM;
	if (!err)
		mmc.committed += nr_pages;
	spin_unlock(&mmc.alloc_lock);
	mutex_unlock(&mmc.lock);
	return err;
}

/**
 * mmc_uncommit() - give back what mmc_commit() reserved
 * @nr_pages: the pages
 */
void mmc_uncommit(unsigned long nr_pages)
{
	spin_lock(&mmc.alloc_lock);
	mmc.committed -= nr_pages;
	spin_unlock(&mmc.alloc_lock);
}

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

/* A foreign page the drain took: it joins the pool as a frame of its color. */
static int mmc_quarantine_add(struct page *page, u32 color)
{
	struct mmc_frame *frame = kmem_cache_alloc(mmc_frame_cache, GFP_KERNEL);

	if (!frame)
		return -ENOMEM;
	mmc_frame_init(frame, page, NULL);
	spin_lock(&mmc.alloc_lock);
	if (WARN_ON_ONCE(hvc_alloc_add(&mmc.alloc, &frame->hf, page_to_pfn(page)))) {
		spin_unlock(&mmc.alloc_lock);
		kmem_cache_free(mmc_frame_cache, frame);
		return -EINVAL;
	}
	list_add(&frame->qnode, &mmc.quarantine);
	mmc.quarantined++;
	mmc.quar_per_color[color]++;
	spin_unlock(&mmc.alloc_lock);
	return 0;
}

/*
 * Give free quarantined pages of root colors back to the buddy allocator,
 * MMC_LOCK_BATCH list entries per alloc_lock section. Entries not to be
 * released wait on a local list until the walk is done; mmc_pool_free()
 * may unlink one from there, which it does under alloc_lock like every
 * change of these lists. Called with mmc.lock held (or at exit).
 */
static void mmc_quarantine_release(void)
{
	struct mmc_frame *frame, *tmp;
	LIST_HEAD(kept);
	LIST_HEAD(out);
	unsigned long released = 0;
	unsigned int n;
	bool more = true;

	while (more) {
		spin_lock(&mmc.alloc_lock);
		for (n = 0; n < MMC_LOCK_BATCH && !list_empty(&mmc.quarantine); n++) {
			u32 color;

			frame = list_first_entry(&mmc.quarantine, struct mmc_frame, qnode);
			color = frame->hf.color;
			if (frame->hf.state != HVC_FRAME_FREE ||
			    !hvc_mask_test(&mmc.root.m, color)) {
				list_move_tail(&frame->qnode, &kept);
				continue;
			}
			WARN_ON_ONCE(hvc_alloc_remove(&mmc.alloc, &frame->hf));
			list_move(&frame->qnode, &out);
			mmc.quarantined--;
			mmc.quar_per_color[color]--;
		}
		more = !list_empty(&mmc.quarantine);
		if (!more)
			list_splice_init(&kept, &mmc.quarantine);
		spin_unlock(&mmc.alloc_lock);
		list_for_each_entry_safe(frame, tmp, &out, qnode) {
			__free_page(frame->page);
			kmem_cache_free(mmc_frame_cache, frame);
			released++;
		}
		INIT_LIST_HEAD(&out);
		cond_resched();
	}
	if (released)
		mmc_pcp_flush();
	/* A drain's metadata is megabytes of slab: give it back too. */
	if (!mmc.quarantined)
		kmem_cache_shrink(mmc_frame_cache);
}

struct mmc_drain_ctx {
	struct task_struct *writer;	/* whose signals interrupt the drain */
	struct list_head held;		/* root-colored pages, freed after a pass */
	unsigned long margin;		/* free pages one allocation may move */
	unsigned long found;		/* foreign pages quarantined this pass */
	gfp_t gfp;			/* of the page-by-page passes */
	unsigned long n;
	int err;
};

/*
 * The most pages one allocation can take off the free lists: a refill of
 * a per-cpu list, at most its high mark (the batch on 6.1, up to high
 * where the batch scales), on any CPU and zone. Stopping this far above
 * the reserve keeps free memory at or above it.
 */
static unsigned long mmc_pcp_margin(void)
{
	unsigned long most = 1;
	unsigned int cpu;
	int nid, z;

	for_each_online_node(nid) {
		for (z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];

			if (!populated_zone(zone))
				continue;
			for_each_online_cpu(cpu) {
				struct per_cpu_pages *pcp;

				pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
				most = max_t(unsigned long, most,
					     max(READ_ONCE(pcp->high), 0));
			}
		}
	}
	return most;
}

/*
 * Whether a movable allocation could land in a CMA area or ZONE_MOVABLE:
 * then the page-by-page drain asks for unmovable pages unless
 * drain_movable says otherwise.
 */
static bool mmc_movable_areas(void)
{
	int nid, z;

	for_each_online_node(nid) {
		for (z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];

			if (!populated_zone(zone))
				continue;
			if (zone_idx(zone) == ZONE_MOVABLE || zone_cma_pages(zone))
				return true;
		}
	}
	return false;
}

/*
 * Movable allocations see free pages in the order in which process memory
 * will get them (the movable per-cpu lists first, then the movable free
 * lists, smallest block first) and reach the per-cpu lists that unmovable
 * ones never touch: the drain uses them wherever they cannot take pages
 * out of CMA or ZONE_MOVABLE, or where drain_movable allows that.
 */
static gfp_t mmc_drain_gfp(void)
{
	return mmc.drain_movable || !mmc_movable_areas() ? MMC_DRAIN_GFP : MMC_GFP;
}

/* Stop before an allocation could take free memory below the reserve. */
static bool mmc_drain_stop(struct mmc_drain_ctx *ctx, unsigned int order)
{
	if (!(++ctx->n % MMC_BATCH)) {
		cond_resched();
		if (signal_pending(ctx->writer)) {
			ctx->err = -EINTR;
			return true;
		}
	}
	return ctx->err ||
	       mmc_free_pages() < mmc_reserve_pages() + ctx->margin + (1UL << order);
}

/* Whole color blocks: keep their foreign pages, free the rest at once. */
static void mmc_drain_blocks(struct mmc_drain_ctx *ctx)
{
	unsigned int order = ilog2(mmc.nr_colors);
	struct page *page;
	unsigned long i;

	while (!mmc_drain_stop(ctx, order)) {
		page = alloc_pages(MMC_GFP, order);
		if (!page)
			break;
		split_page(page, order);
		for (i = 0; i < (1UL << order); i++) {
			u32 color = mmc_color_of(page_to_pfn(page + i));

			if (!ctx->err && !hvc_mask_test(&mmc.root.m, color)) {
				if (!mmc_quarantine_add(page + i, color))
					continue;
				ctx->err = -ENOMEM;
			}
			__free_page(page + i);
		}
	}
}

/*
 * Single pages, run on each CPU in turn: an allocation takes from its own
 * CPU's per-cpu free list first, and those lists are not reachable from
 * elsewhere (drain_all_pages() is not exported). Root-colored pages are
 * held until the pass ends, so the allocator cannot hand them out again.
 */
static long mmc_drain_local(void *arg)
{
	struct mmc_drain_ctx *ctx = arg;
	struct page *page;

	while (!mmc_drain_stop(ctx, 0)) {
		u32 color;

		page = alloc_page(ctx->gfp);
		if (!page)
			break;
		color = mmc_color_of(page_to_pfn(page));
		if (hvc_mask_test(&mmc.root.m, color)) {
			list_add(&page->lru, &ctx->held);
		} else if (mmc_quarantine_add(page, color)) {
			__free_page(page);
			ctx->err = -ENOMEM;
		} else {
			ctx->found++;
		}
	}
	return 0;
}

/*
 * Pull free pages of non-root colors out of the buddy allocator: first
 * whole color blocks (unmovable allocations), then single pages on every
 * CPU. Every allocation stops short of the reserve by what one per-cpu
 * refill can take, so free memory outside CMA never drops below
 * reserve_mb.
 *
 * A pass takes free pages down to the reserve; the pages left there are
 * the ones the allocator would hand out last, of any color. Freeing the
 * held root-colored pages changes that order (they merge into larger
 * blocks, and a movable allocation takes the smallest first or falls back
 * to a CMA area), so the next pass reaches part of what the last one left,
 * and so on: passes repeat until one finds no foreign page (at most
 * MMC_DRAIN_PASSES). What stays is a reserve of root-colored pages. A
 * fixed two passes left foreign pages there after churn, which Linux then
 * handed out first.
 */
static int mmc_drain(void)
{
	struct mmc_drain_ctx ctx = {
		.writer = current,
		.held = LIST_HEAD_INIT(ctx.held),
		.margin = mmc_pcp_margin(),
		.gfp = mmc_drain_gfp(),
	};
	struct page *page, *tmp;
	unsigned int cpu, pass;

	mmc_drain_blocks(&ctx);
	mmc.drain_passes = 0;
	for (pass = 0; pass < MMC_DRAIN_PASSES && !ctx.err; pass++) {
		mmc.drain_passes++;
		ctx.found = 0;
		cpus_read_lock();
		for_each_online_cpu(cpu) {
			if (ctx.err)
				break;
			work_on_cpu(cpu, mmc_drain_local, &ctx);
		}
		cpus_read_unlock();
		list_for_each_entry_safe(page, tmp, &ctx.held, lru) {
			list_del(&page->lru);
			__free_page(page);
		}
		if (!ctx.found)
			break;
	}
	mmc_pcp_flush();
	return ctx.err;
}

/**
 * mmc_set_root_colors() - the colors root Linux may use
 * @mask: the new set
 *
 * Narrowing drains free pages of the other colors into the quarantine;
 * widening gives quarantined pages of root colors back. Called with
 * mmc.lock held.
 *
 * Return: 0, an error of mmc_mask_check(), or -EINTR/-ENOMEM from an
 * interrupted or failed drain (the old set is then restored and its
 * quarantine released); last_cmd_status says why.
 */
int mmc_set_root_colors(const struct mmc_mask *mask)
{
	struct mmc_mask old = mmc.root;
	int err;

	err = mmc_mask_check(mask);
	if (err) {
		mmc_set_status("root_colors: %s", err == -ERANGE ?
			       "color beyond nr_colors" : "empty mask");
		return err;
	}
	mmc.root = *mask;
	mmc_quarantine_release();
	/* All colors: nothing to keep Linux away from. */
	if (hvc_mask_weight(&mask->m) == mmc.nr_colors)
		return 0;
	err = mmc_drain();
	if (err) {
		mmc_set_status("root_colors: drain %s, old value restored",
			       err == -EINTR ? "interrupted" : "out of memory");
		mmc.root = old;
		mmc_quarantine_release();
	}
	return err;
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

/**
 * mmc_core_init() - module load: the frame cache and the default reserve
 *
 * Return: 0 or -ENOMEM.
 */
int mmc_core_init(void)
{
	mmc_frame_cache = KMEM_CACHE(mmc_frame, 0);
	if (!mmc_frame_cache)
		return -ENOMEM;
	mmc.reserve_mb = max_t(unsigned long, 64,
			       (totalram_pages() >> (20 - PAGE_SHIFT)) / 16);
	return 0;
}

/**
 * mmc_core_exit() - module exit: everything back to the page allocator
 *
 * No file is open, so no frame is in use: the quarantine is released and
 * every pool block freed.
 */
void mmc_core_exit(void)
{
	struct mmc_block *block, *tmp;

	if (mmc.have_geo) {
		hvc_mask_fill(&mmc.root.m, mmc.nr_colors);
		mmc_quarantine_release();
	}
	/* One block per alloc_lock section, as in mmc_pool_shrink(). */
	list_for_each_entry_safe(block, tmp, &mmc.blocks, node) {
		spin_lock(&mmc.alloc_lock);
		mmc_block_remove(block);
		spin_unlock(&mmc.alloc_lock);
		mmc_block_free(block);
		cond_resched();
	}
	mmc_pcp_flush();
	kfree(mmc.managed);
	kfree(mmc.quar_per_color);
	kmem_cache_destroy(mmc_frame_cache);
}
