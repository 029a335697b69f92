// SPDX-License-Identifier: GPL-2.0
/*
 * root_colors: the colors root Linux may use. Narrowing them drains free
 * pages of the other colors out of the buddy allocator into the
 * quarantine, where they join the pool as frames of their color;
 * widening gives quarantined pages of root colors back. What the drain
 * relies on in the page allocator is listed at the top of buddy.c.
 */
#include <linux/cpu.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "mm_color_int.h"

/*
 * Movable, for the page-by-page drain only where it cannot reach CMA or
 * ZONE_MOVABLE, or where drain_movable allows that (see mmc_drain_gfp()).
 */
#define MMC_DRAIN_GFP	(MMC_GFP | __GFP_MOVABLE)
/* Page-by-page drain passes at most, see mmc_drain(). */
#define MMC_DRAIN_PASSES	8
/*
 * The CMA phase of a drain with drain_movable (see mmc_drain_cma()):
 * movable blocks of the lowest order that the per-cpu lists do not
 * cache, so that one allocation takes exactly its own pages off the free
 * lists, and without reclaim, kswapd or compaction, so that a failure has
 * no side effects.
 */
#define MMC_CMA_ORDER		(PAGE_ALLOC_COSTLY_ORDER + 1)
#define MMC_CMA_GFP		((MMC_GFP | __GFP_MOVABLE) & ~__GFP_RECLAIM)
/*
 * Free memory outside CMA one step of that phase may take: a block that
 * came from there after all, and a slab page for the frames of its
 * foreign pages.
 */
#define MMC_CMA_MOST		((1UL << MMC_CMA_ORDER) + 1)

/* Quarantined frames; pool blocks carry their own. */
static struct kmem_cache *mmc_frame_cache;

/**
 * mmc_quarantine_frame_free() - a quarantined page back to the buddy allocator
 * @frame: a frame off the quarantine list, out of hv-color's allocator
 */
void mmc_quarantine_frame_free(struct mmc_frame *frame)
{
	__free_page(frame->page);
	kmem_cache_free(mmc_frame_cache, frame);
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
			mmc_quarantine_frame_free(frame);
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

/*
 * Stop before an allocation that takes up to @most pages off the free
 * lists outside CMA could take free memory there below the reserve.
 */
static bool mmc_drain_stop(struct mmc_drain_ctx *ctx, unsigned long most)
{
	if (!(++ctx->n % MMC_BATCH)) {
		cond_resched();
		if (signal_pending(ctx->writer)) {
			ctx->err = -EINTR;
			return true;
		}
	}
	return ctx->err || mmc_buddy_free_pages() < mmc_reserve_pages() + most;
}

/*
 * Blocks of @order: keep their foreign pages, free the rest at once. One
 * allocation takes at most @most pages off the free lists.
 */
static void mmc_drain_blocks(struct mmc_drain_ctx *ctx, gfp_t gfp,
			     unsigned int order, unsigned long most)
{
	struct page *page;
	unsigned long i;

	while (!mmc_drain_stop(ctx, most)) {
		page = alloc_pages(gfp, order);
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

	while (!mmc_drain_stop(ctx, ctx->margin + 1)) {
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
 * With drain_movable, the free blocks of CMA areas (and of ZONE_MOVABLE).
 * A movable allocation takes the movable free lists first and a CMA area
 * only when they are empty (or when the area holds more than half of the
 * zone's free memory), and the single-page passes stop when free memory
 * outside CMA reaches the reserve plus a per-cpu margin: where that comes
 * first, the passes never reached the CMA area, and its free pages, of
 * every color, were left for the next movable allocations, which after a
 * drain find the movable free lists empty and take them first. Order
 * MMC_CMA_ORDER allocations bypass the per-cpu lists, so one takes 16
 * pages and no more: after the whole-block phase has used up the blocks
 * of that size outside CMA, they come from the CMA area without taking
 * free memory outside it, and the phase runs as long as MMC_CMA_MOST
 * pages are left above the reserve there: it also runs where the
 * single-page passes cannot start. The per-cpu refills behind the slab
 * page of its frames (and behind mmc_pcp_flush()'s order-1 pages before
 * the drain) are not in that bound: each can keep up to a per-cpu high
 * mark of free pages out of the count for a while (they count again after
 * mmc_pcp_flush()). What the phase leaves in the area
 * are fragments smaller than a block, which the single-page passes take
 * where free memory outside CMA lets them start.
 */
static void mmc_drain_cma(struct mmc_drain_ctx *ctx)
{
	if (mmc.drain_movable && mmc_movable_areas())
		mmc_drain_blocks(ctx, MMC_CMA_GFP, MMC_CMA_ORDER, MMC_CMA_MOST);
}

/*
 * Pull free pages of non-root colors out of the buddy allocator: first
 * whole color blocks (unmovable allocations), then with drain_movable the
 * free blocks of CMA areas, then single pages on every CPU. Every
 * allocation stops short of the reserve by what it can take off the free
 * lists outside CMA (a per-cpu refill for the ones that go through the
 * per-cpu lists), so free memory outside CMA never drops below
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
		.gfp = mmc_drain_gfp(),
	};
	unsigned int order = ilog2(mmc.nr_colors);
	struct page *page, *tmp;
	unsigned int cpu, pass;

	/*
	 * Pages on the per-cpu lists first into the buddy allocator, where
	 * every phase reaches them. A CPU's lists are reachable only on that
	 * CPU, and the first CPU's pass takes free memory down to the stop,
	 * so the other CPUs' passes end at once: a process that exited on
	 * one of them left up to a high mark of its pages there (57 MB on
	 * arm64 6.12), half of them foreign, and the flush at the end handed
	 * them to the buddy allocator after the drain. Fresh anonymous
	 * memory then came back at 611-886 per mille, with 2-6 k fewer pages
	 * quarantined, in narrowings where the allocator's slow path did not
	 * empty every CPU's lists on the drain's behalf (drain_all_pages()
	 * after a failed direct reclaim).
	 */
	mmc_pcp_flush();
	ctx.margin = mmc_pcp_margin();
	mmc_drain_blocks(&ctx, MMC_GFP, order, ctx.margin + (1UL << order));
	mmc_drain_cma(&ctx);
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
 * mmc_quarantine_init() - module load: the cache of quarantined frames
 *
 * Return: 0 or -ENOMEM.
 */
int mmc_quarantine_init(void)
{
	mmc_frame_cache = KMEM_CACHE(mmc_frame, 0);
	return mmc_frame_cache ? 0 : -ENOMEM;
}

/**
 * mmc_quarantine_exit() - module exit: every quarantined page back
 *
 * No file is open, so no frame is in use: root Linux gets every color
 * and the whole quarantine is released.
 */
void mmc_quarantine_exit(void)
{
	if (mmc.have_geo) {
		hvc_mask_fill(&mmc.root.m, mmc.nr_colors);
		mmc_quarantine_release();
	}
	kmem_cache_destroy(mmc_frame_cache);
}
