/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mm_color.ko internals shared by its source files, grouped by the file
 * that defines them. Calls go one way: main.c, sysfs*.c and the device
 * files (dev.h) call the engine (pool.c, drain.c, geometry.c, stats.c),
 * which calls buddy.c, mask_adapt.c and state.c, never back up.
 */
#ifndef _MM_COLOR_INT_H
#define _MM_COLOR_INT_H

#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <colorguard/hv_color.h>
#include <colorguard/mm_color.h>

/* What the hardware says about its last-level cache. */
struct mmc_llc {
	u32 level;
	u32 sharing;		/* logical CPUs sharing it, 0 if unknown */
	u32 line_size;
	u32 ways;
	u64 sets;
	u64 way_size;
};

/* A color mask: hv-color's, so its math and syntax are the only ones. */
struct mmc_mask {
	struct hvc_mask m;
};

/*
 * A pool frame: hv-color's intrusive descriptor plus the page it stands
 * for. @block is NULL for a quarantined page (taken from the buddy
 * allocator one page at a time by a root_colors narrowing), which is then
 * on the quarantine list through @qnode. A frame that left its mapping
 * while its page was still referenced elsewhere is on /dev/mm-color's
 * parked list through @pnode (not initialised otherwise).
 */
struct mmc_frame {
	struct hvc_frame hf;
	struct page *page;
	struct mmc_block *block;
	struct list_head qnode;
	struct list_head pnode;
};

/* Pages from one buddy allocation, each color equally often. */
struct mmc_block {
	struct list_head node;
	unsigned long nr_pages;
	unsigned long nr_used;
	struct mmc_frame frames[];
};

/*
 * Locking: @lock (a mutex) serialises every configuration change and is
 * held across the long operations (pool resize, drain, geometry switch);
 * @alloc_lock (a spinlock) protects hv-color's allocator, the block and
 * quarantine lists and the counters that the fault and unmap paths touch.
 */
struct mmc_state {
	struct mutex lock;		/* configuration, long operations */
	spinlock_t alloc_lock;		/* allocator, counters, lists */
	bool have_geo;
	const char *geo_source;
	struct hvc_geometry geo;
	u32 nr_colors;
	u64 way_size;
	u32 line_size;
	struct hvc_allocator alloc;
	struct list_head blocks;
	struct list_head quarantine;
	unsigned long pool_pages;	/* frames of blocks */
	unsigned long quarantined;	/* quarantined frames, free or used */
	unsigned long used_pages;
	unsigned long committed;
	unsigned long failed_faults;
	unsigned long *managed;		/* per color, at geometry time */
	unsigned long *quar_per_color;
	struct mmc_mask root;
	unsigned long limit_fd_mb;
	unsigned long limit_total_mb;
	unsigned long reserve_mb;
	bool drain_movable;		/* drains may take CMA, ZONE_MOVABLE */
	unsigned int drain_passes;	/* page-by-page passes of the last drain */
	char status[160];
};

/*
 * Pool blocks and drains take only what the buddy allocator has to spare.
 * These are unmovable allocations: never from CMA pageblocks or
 * ZONE_MOVABLE, which must stay free for contiguous allocations and
 * memory offline.
 */
#define MMC_GFP		(GFP_HIGHUSER | __GFP_NORETRY | __GFP_NOWARN | __GFP_NOMEMALLOC)
/* Pages between two signal checks in long loops. */
#define MMC_BATCH	256
/*
 * Frames handled per alloc_lock section in the walks over a whole pool or
 * quarantine (shrink, release, exit): a few microseconds each, with
 * cond_resched() between them.
 */
#define MMC_LOCK_BATCH	256

static inline struct page *mmc_frame_page(struct mmc_frame *frame)
{
	return frame->page;
}

/* A frame for @page, free, of a pool block or (@block NULL) quarantined. */
static inline void mmc_frame_init(struct mmc_frame *frame, struct page *page,
				  struct mmc_block *block)
{
	hvc_frame_init(&frame->hf);
	frame->page = page;
	frame->block = block;
	INIT_LIST_HEAD(&frame->qnode);
}

/* state.c: the state object and last_cmd_status */
extern struct mmc_state mmc;
__printf(1, 2) void mmc_set_status(const char *fmt, ...);

/* mask_adapt.c: masks from and to userspace's forms */
int mmc_mask_check(const struct mmc_mask *mask);
int mmc_mask_parse(const char *buf, struct mmc_mask *mask, bool report);
int mmc_mask_from_bits(const u64 *bits, u32 nbits, struct mmc_mask *mask);
int mmc_mask_to_bits(const struct mmc_mask *mask, u64 *bits, u32 nbits);
u32 mmc_mask_weight(const struct mmc_mask *mask);
int mmc_mask_format(const struct mmc_mask *mask, char *buf, size_t size);

/* geometry.c: the geometry in use, switched in two steps */
struct mmc_geometry_change {
	struct hvc_geometry geo;
	u64 way_size;
	unsigned long *managed;
	unsigned long *quar_per_color;
};

int mmc_geometry_prepare(struct mmc_geometry_change *chg, u64 way_size);
void mmc_geometry_commit(struct mmc_geometry_change *chg, u32 line_size,
			 const char *source);
void mmc_geometry_abort(struct mmc_geometry_change *chg);
void mmc_geometry_exit(void);
u32 mmc_color_of(unsigned long pfn);

/* buddy.c: what the page allocator's internals tell or do for us */
unsigned long mmc_buddy_free_pages(void);
unsigned long mmc_reserve_pages(void);
unsigned int mmc_buddy_max_order(void);
unsigned long mmc_pcp_margin(void);
void mmc_pcp_flush(void);
bool mmc_movable_areas(void);
bool mmc_buddy_movable_free_walk(void (*fn)(unsigned long pfn,
					    unsigned int order, void *arg),
				 void *arg);

/* drain.c: root_colors, the quarantine and the drain */
int mmc_quarantine_init(void);
void mmc_quarantine_exit(void);
void mmc_quarantine_frame_free(struct mmc_frame *frame);
int mmc_set_root_colors(const struct mmc_mask *mask);

/* pool.c: the colored pool and the fault path's frames */
int mmc_pool_resize(unsigned long target);
void mmc_pool_exit(void);
struct mmc_frame *mmc_pool_alloc(const struct mmc_mask *mask);
int mmc_pool_alloc_bulk(const struct mmc_mask *mask, struct mmc_frame **frames,
			unsigned long nr);
void mmc_pool_free(struct mmc_frame *frame);
int mmc_commit(const struct mmc_mask *mask, unsigned long nr_pages,
	       unsigned long file_pages);
void mmc_uncommit(unsigned long nr_pages);

/* stats.c: read-only summaries */
void mmc_fill_info(struct mm_color_info *info);
unsigned long mmc_foreign_in_use(void);
int mmc_foreign_movable_free(unsigned long *pages);
unsigned long mmc_color_free(u32 color);

/* probe.c and arch/ARCH/probe.c: the LLC as the CPU describes it */
int mmc_probe_llc(struct mmc_llc *llc, const char **why);
bool mmc_probe_arch(struct mmc_llc *llc);

/* sysfs_dir.c: /sys/kernel/mm/color and free/, for sysfs.c */
struct attribute_group;
int mmc_sysfs_dir_create(const struct attribute_group *files);
void mmc_sysfs_dir_remove(void);
int mmc_sysfs_colors_resize(u32 nr_colors);

/* sysfs.c: the files of /sys/kernel/mm/color */
int mmc_sysfs_init(void);
void mmc_sysfs_exit(void);
int mmc_sysfs_set_geometry(u64 way_size, u32 line_size, const char *source);

/* mapping.c, preset.c, dev.c: /dev/mm-color (their own parts in dev.h) */
unsigned long mmc_parked_pages(void);
int mmc_presets_store(const char *buf);
ssize_t mmc_presets_show(char *buf);
int mmc_dev_init(void);
void mmc_dev_exit(void);

#endif /* _MM_COLOR_INT_H */
