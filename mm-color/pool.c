// SPDX-License-Identifier: GPL-2.0
/*
 * The colored pool: blocks from the buddy allocator split into hv-color's
 * per-color free lists, growing and shrinking it, the fault path's frame
 * allocation and free, and the commit accounting of mappings against the
 * limits.
 */
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "mm_color_int.h"

/* Preferred block order: 1 MiB keeps the allocation count low. */
#define MMC_BLOCK_ORDER	8

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
				     mmc_buddy_max_order());
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
						   ilog2(mmc.nr_colors),
						   mmc_buddy_max_order());
	int err = 0;

	while (have < target) {
		if (signal_pending(current)) {
			err = -EINTR;
			mmc_set_status("pool: interrupted, size unchanged");
			break;
		}
		if (mmc_buddy_free_pages() < mmc_reserve_pages() + block_pages) {
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
 * mmc_pool_exit() - module exit: every pool block back to the buddy allocator
 *
 * No file is open, so no frame is in use; the quarantine is gone already
 * (mmc_quarantine_exit()).
 */
void mmc_pool_exit(void)
{
	struct mmc_block *block, *tmp;

	/* One block per alloc_lock section, as in mmc_pool_shrink(). */
	list_for_each_entry_safe(block, tmp, &mmc.blocks, node) {
		spin_lock(&mmc.alloc_lock);
		mmc_block_remove(block);
		spin_unlock(&mmc.alloc_lock);
		mmc_block_free(block);
		cond_resched();
	}
	mmc_pcp_flush();
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
 * mmc_pool_alloc_bulk() - @nr frames of the mask's colors at once, or none
 * @mask: the colors allowed
 * @frames: where the frames go, @nr entries
 * @nr: how many
 *
 * hv-color's rule for each frame, as mmc_pool_alloc(); MMC_LOCK_BATCH
 * frames per alloc_lock section. A miss gives back what was taken and
 * does not count in failed_faults (no fault failed). Takes
 * mmc.alloc_lock; may sleep.
 *
 * Return: 0 with every entry of @frames a used frame, or -ENOMEM with
 * nothing taken.
 */
int mmc_pool_alloc_bulk(const struct mmc_mask *mask, struct mmc_frame **frames,
			unsigned long nr)
{
	struct mmc_frame *frame;
	struct hvc_frame *hf;
	unsigned long i = 0, n;
	bool miss = false;

	while (i < nr && !miss) {
		spin_lock(&mmc.alloc_lock);
		for (n = 0; n < MMC_LOCK_BATCH && i < nr; n++) {
			hf = hvc_alloc_frame(&mmc.alloc, &mask->m);
			if (!hf) {
				miss = true;
				break;
			}
			frame = container_of(hf, struct mmc_frame, hf);
			if (frame->block)
				frame->block->nr_used++;
			mmc.used_pages++;
			frames[i++] = frame;
		}
		spin_unlock(&mmc.alloc_lock);
		cond_resched();
	}
	if (!miss)
		return 0;
	while (i--) {
		mmc_pool_free(frames[i]);
		frames[i] = NULL;
		if (!(i % MMC_BATCH))
			cond_resched();
	}
	return -ENOMEM;
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
	if (release)
		mmc_quarantine_frame_free(frame);
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
