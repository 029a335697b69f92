// SPDX-License-Identifier: GPL-2.0
/*
 * What mm-color reads from, or relies on in, the page allocator beyond
 * alloc_pages() and __free_pages(). The readings and the per-cpu flush
 * are here; the rest is listed here with the file that relies on it, so
 * a new kernel version is checked against this one list:
 *
 * - NR_FREE_PAGES and NR_FREE_CMA_PAGES: free memory outside CMA, which
 *   reserve_mb is kept against (mmc_buddy_free_pages(); pool.c, drain.c).
 * - zone->per_cpu_pageset, struct per_cpu_pages' count and batch: pages
 *   waiting on a CPU's per-cpu lists, which MemFree does not count
 *   (mmc_pcp_flush() repeats while count exceeds batch).
 * - struct per_cpu_pages' high, and from 6.7 its high_max: the most one
 *   allocation can take off the free lists, a per-cpu refill
 *   (mmc_pcp_margin(), the drain's margin). From 6.7 high moves between
 *   high_min and high_max: a run of high-order frees (mmc_pcp_flush())
 *   lowers it, each refill raises it again.
 *   These fields are read racily (READ_ONCE): estimates, not invariants.
 * - When the allocator empties a CPU's per-cpu lists: on an order-1
 *   free after a run of frees, where what counts as a run differs (6.1:
 *   a count of recent frees above zero; 6.7 on: a batch of pages freed
 *   since the last allocation, and at most 32 batches per free).
 *   mmc_pcp_flush() provokes that, since drain_all_pages() is not
 *   exported.
 * - The per-cpu lists serve their own CPU first and no other CPU reaches
 *   them: the drain allocates on each CPU in turn (drain.c).
 * - The order in which free pages are handed out: a movable allocation
 *   takes the movable per-cpu lists first, then the movable free lists,
 *   smallest block first, and falls back to a CMA area (before it steals
 *   from other pageblock types, and first where CMA holds more than half
 *   of the zone's free memory); freed pages merge into larger blocks. Why
 *   the drain repeats its passes, and why a drain with drain_movable takes
 *   CMA's free blocks in a phase of its own (drain.c).
 * - Only orders up to PAGE_ALLOC_COSTLY_ORDER (and the THP order) go
 *   through the per-cpu lists: a higher-order allocation takes its own
 *   pages off the free lists and no more (drain.c's CMA phase).
 * - zone_cma_pages() and ZONE_MOVABLE: whether a movable allocation could
 *   land where unmovable pages must not stay (mmc_movable_areas()).
 * - The highest order: MAX_ORDER - 1 before 6.4, MAX_ORDER from 6.4,
 *   MAX_PAGE_ORDER from 6.8; MAX_ORDER_NR_PAGES has been its number of
 *   pages all along (mmc_buddy_max_order()).
 * - split_page() of an unmovable high-order allocation gives order-0
 *   pages that are freed one by one (pool.c's blocks, drain.c's color
 *   blocks).
 * - struct zone's free_area[order].free_list[] of MIGRATE_CMA (and of
 *   every type but MIGRATE_ISOLATE in ZONE_MOVABLE), whose free blocks are
 *   of that order and linked through struct page's buddy_list, under
 *   zone->lock: the free pages a movable allocation can get there, walked
 *   as /proc/pagetypeinfo walks them (mmc_buddy_movable_free_walk(),
 *   for foreign_movable_free_pages).
 * - pg_data_t's node_start_pfn and node_spanned_pages, with
 *   pfn_to_online_page() and PageReserved(): the pages the allocator
 *   manages, per color (geometry.c).
 */
#include <linux/cpu.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/page-isolation.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include "mm_color_int.h"

/*
 * Free blocks visited at most per free list and order by one walk, as
 * /proc/pagetypeinfo caps its counts: a bound on the time the zone's lock
 * is held with interrupts off (64 MiB of order-0 pages).
 */
#define MMC_FREE_WALK_MAX	16384

/* Order-1 pairs freed at most per CPU to empty its per-cpu lists. */
#define MMC_PCP_FLUSH_ROUNDS	64
/*
 * Order-1 pages freed in a row to empty them on 6.7 and later: twice a
 * per-cpu batch of pages (63 where the batch is largest) and some more.
 */
#define MMC_PCP_FLUSH_RUN	80

/**
 * mmc_buddy_free_pages() - free memory as reserve_mb counts it
 *
 * Outside CMA areas, since the unmovable allocations of the kernel (and
 * of the pool) cannot use CMA. Counting CMA's free pages let a drain stop
 * with free memory made mostly of an untouched CMA area (arm64: 64 MiB),
 * whose pages of every color a movable allocation takes first once the
 * movable free lists are empty.
 *
 * Return: free pages outside CMA.
 */
unsigned long mmc_buddy_free_pages(void)
{
	unsigned long free = global_zone_page_state(NR_FREE_PAGES);
	unsigned long cma = global_zone_page_state(NR_FREE_CMA_PAGES);

	return free > cma ? free - cma : 0;
}

static struct zone *mmc_next_zone(struct zone *zone);

/*
 * The zones' min watermarks as allocations see them: with their boost,
 * which the allocator adds after fallbacks steal pageblocks (a drain's
 * own allocations do, up to 1.5 times the high mark) until kswapd clears
 * it. Free memory below that fails every kernel allocation that may not
 * dip into the reserves; with nothing to reclaim, the OOM killer follows.
 */
static unsigned long mmc_min_watermark_pages(void)
{
	unsigned long pages = 0;
	struct zone *zone;

	for (zone = mmc_next_zone(NULL); zone; zone = mmc_next_zone(zone))
		pages += min_wmark_pages(zone);
	return pages;
}

/**
 * mmc_reserve_pages() - the free memory pool growth and drains leave
 *
 * reserve_mb on top of the zones' min watermarks, boost included: a
 * drain of half the colors on a 1 GiB x86_64 guest (THP: min 44 MB)
 * left 143 MB free against a boosted min of 144 MB, and the OOM killer
 * took the shell that wrote root_colors.
 *
 * Return: the free pages (outside CMA) that pool growth and drains leave
 * to Linux.
 */
unsigned long mmc_reserve_pages(void)
{
	return (mmc.reserve_mb << (20 - PAGE_SHIFT)) + mmc_min_watermark_pages();
}

/**
 * mmc_buddy_max_order() - the highest order the buddy allocator hands out
 *
 * Return: the order, under whichever name this kernel gives it.
 */
unsigned int mmc_buddy_max_order(void)
{
	return ilog2(MAX_ORDER_NR_PAGES);
}

/*
 * The populated zone after @zone (the first for NULL), NULL after the
 * last: for_each_populated_zone() walks with next_zone(), which modules
 * cannot call.
 */
static struct zone *mmc_next_zone(struct zone *zone)
{
	int nid = zone ? zone_to_nid(zone) : first_online_node;
	int z = zone ? zone_idx(zone) + 1 : 0;

	for (; nid < MAX_NUMNODES; nid = next_online_node(nid), z = 0)
		for (; z < MAX_NR_ZONES; z++)
			if (populated_zone(&NODE_DATA(nid)->node_zones[z]))
				return &NODE_DATA(nid)->node_zones[z];
	return NULL;
}

/* Pages waiting on this CPU's per-cpu lists beyond one batch, all zones. */
static unsigned long mmc_pcp_excess_local(void)
{
	unsigned long excess = 0;
	struct zone *zone;

	for (zone = mmc_next_zone(NULL); zone; zone = mmc_next_zone(zone)) {
		/* work_on_cpu(): a worker bound to this CPU */
		struct per_cpu_pages *pcp = raw_cpu_ptr(zone->per_cpu_pageset);
		int count = READ_ONCE(pcp->count);
		int batch = READ_ONCE(pcp->batch);

		if (count > batch)
			excess += count - batch;
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

/**
 * mmc_pcp_flush() - hand the pages on every CPU's per-cpu lists back
 *
 * After a drain, release or shrink freed pages one by one; see
 * mmc_pcp_flush_local() for how. Sleeps.
 */
void mmc_pcp_flush(void)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		work_on_cpu(cpu, mmc_pcp_flush_local, NULL);
	cpus_read_unlock();
}

/*
 * The highest a per-cpu list's high mark can be while a drain runs: from
 * 6.7 it is tuned between high_min and high_max, lowered by a run of
 * high-order frees (as mmc_pcp_flush() does before a drain) and raised by
 * each refill, so its value at the start bounds nothing (a drain that
 * took it after the flush went 1.2 MB below the reserve on arm64 6.12).
 */
static int mmc_pcp_high_most(struct per_cpu_pages *pcp)
{
#ifdef MMC_HAVE_PCP_HIGH_MAX
	return max(READ_ONCE(pcp->high), READ_ONCE(pcp->high_max));
#else
	return READ_ONCE(pcp->high);
#endif
}

/**
 * mmc_pcp_margin() - the most pages one allocation can take off the free lists
 *
 * A refill of a per-cpu list, at most its high mark (the batch on 6.1, up
 * to high where the batch scales), on any CPU and zone; from 6.7 the
 * highest that mark can be tuned to. Stopping this far above the reserve
 * keeps free memory at or above it.
 *
 * Return: the largest high mark, at least 1.
 */
unsigned long mmc_pcp_margin(void)
{
	unsigned long most = 1;
	struct zone *zone;
	unsigned int cpu;

	for (zone = mmc_next_zone(NULL); zone; zone = mmc_next_zone(zone)) {
		for_each_online_cpu(cpu) {
			struct per_cpu_pages *pcp;

			pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
			most = max_t(unsigned long, most,
				     max(mmc_pcp_high_most(pcp), 0));
		}
	}
	return most;
}

/**
 * mmc_movable_areas() - whether a movable allocation could land in a CMA
 *	area or ZONE_MOVABLE
 *
 * Then the page-by-page drain asks for unmovable pages unless
 * drain_movable says otherwise.
 *
 * Return: true if some populated zone is ZONE_MOVABLE or has CMA pages.
 */
bool mmc_movable_areas(void)
{
	struct zone *zone;

	for (zone = mmc_next_zone(NULL); zone; zone = mmc_next_zone(zone))
		if (zone_idx(zone) == ZONE_MOVABLE || zone_cma_pages(zone))
			return true;
	return false;
}

/**
 * mmc_buddy_movable_free_walk() - visit the free blocks of CMA areas and
 *	ZONE_MOVABLE
 * @fn: called for each free block with its first page frame number, its
 *	order and @arg, under the zone's lock with interrupts off
 * @arg: passed to @fn
 *
 * The buddy free lists of type MIGRATE_CMA of every populated zone, and
 * those of every type but MIGRATE_ISOLATE of ZONE_MOVABLE: the free pages
 * that only movable allocations get. Pages on the per-cpu lists are not
 * seen. Each list is walked under its zone's lock, at most
 * MMC_FREE_WALK_MAX blocks of it; the lock is dropped between lists.
 * Sleeps.
 *
 * Return: true if every block was visited, false if some list was cut.
 */
bool mmc_buddy_movable_free_walk(void (*fn)(unsigned long pfn,
					    unsigned int order, void *arg),
				 void *arg)
{
	unsigned int order, max_order = mmc_buddy_max_order();
	bool whole = true;
	struct zone *zone;
	int mt;

	for (zone = mmc_next_zone(NULL); zone; zone = mmc_next_zone(zone)) {
		bool movable = zone_idx(zone) == ZONE_MOVABLE;

		if (!movable && !zone_cma_pages(zone))
			continue;
		for (order = 0; order <= max_order; order++) {
			for (mt = 0; mt < MIGRATE_TYPES; mt++) {
				struct list_head *list;
				unsigned long flags, n = 0;
				struct page *page;

				if (is_migrate_isolate(mt) ||
				    (!movable && !is_migrate_cma(mt)))
					continue;
				list = &zone->free_area[order].free_list[mt];
				spin_lock_irqsave(&zone->lock, flags);
				list_for_each_entry(page, list, buddy_list) {
					if (n++ == MMC_FREE_WALK_MAX) {
						whole = false;
						break;
					}
					fn(page_to_pfn(page), order, arg);
				}
				spin_unlock_irqrestore(&zone->lock, flags);
				cond_resched();
			}
		}
	}
	return whole;
}
