/* SPDX-License-Identifier: GPL-2.0 */
/* mm_color.ko internals shared by its source files. */
#ifndef _MM_COLOR_INT_H
#define _MM_COLOR_INT_H

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

int mmc_probe_llc(struct mmc_llc *llc, const char **why);

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

extern struct mmc_state mmc;

__printf(1, 2) void mmc_set_status(const char *fmt, ...);
int mmc_set_geometry(u64 way_size, u32 line_size, const char *source);
int mmc_pool_resize(unsigned long target);
int mmc_set_root_colors(const struct mmc_mask *mask);
int mmc_mask_check(const struct mmc_mask *mask);
int mmc_mask_format(const struct mmc_mask *mask, char *buf, size_t size);
unsigned long mmc_foreign_in_use(void);
unsigned long mmc_color_free(u32 color);
u32 mmc_color_of(unsigned long pfn);
const char *mmc_hvc_error(int err);
int mmc_core_init(void);
void mmc_core_exit(void);
int mmc_sysfs_init(void);
void mmc_sysfs_exit(void);
int mmc_sysfs_colors_resize(u32 nr_colors);

static inline struct page *mmc_frame_page(struct mmc_frame *frame)
{
	return frame->page;
}

int mmc_mask_parse(const char *buf, struct mmc_mask *mask, bool report);
int mmc_mask_from_bits(const u64 *bits, u32 nbits, struct mmc_mask *mask);
int mmc_mask_to_bits(const struct mmc_mask *mask, u64 *bits, u32 nbits);
u32 mmc_mask_weight(const struct mmc_mask *mask);

struct mmc_frame *mmc_pool_alloc(const struct mmc_mask *mask);
void mmc_pool_free(struct mmc_frame *frame);
int mmc_commit(const struct mmc_mask *mask, unsigned long nr_pages,
	       unsigned long file_pages);
void mmc_uncommit(unsigned long nr_pages);
void mmc_fill_info(struct mm_color_info *info);

int mmc_dev_init(void);
void mmc_dev_exit(void);
unsigned long mmc_dev_parked_pages(void);
int mmc_dev_presets_store(const char *buf);
ssize_t mmc_dev_presets_show(char *buf);

#endif /* _MM_COLOR_INT_H */
