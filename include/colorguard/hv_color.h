/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hv-color: the freestanding page-color core of colorguard.
 *
 * LLC geometry and color math, color masks and their list syntax, colored
 * region mapping, the colored frame allocator and the cell-colors blob.
 * It is the single source of color math for the hypervisor, mm_color.ko
 * and the tools. No libc, no allocation (callers supply all storage), no
 * floating point, no recursion, no locking (callers serialise).
 *
 * Errors are negative errno values (HVC_E*, equal to Linux's numbers).
 */
#ifndef _COLORGUARD_HV_COLOR_H
#define _COLORGUARD_HV_COLOR_H

#include "cell_blob.h"
#include "limits.h"

/*
 * Fixed-width types: the kernel's own in Kbuild, the compiler's elsewhere
 * (macros rather than typedefs so no libc header is needed).
 */
#ifdef __KERNEL__
#include <linux/types.h>
#define hvc_u8		u8
#define hvc_u16		u16
#define hvc_u32		u32
#define hvc_u64		u64
#define hvc_s32		s32
#define hvc_s64		s64
#define hvc_size	size_t
#define hvc_uptr	uintptr_t
#else
#define hvc_u8		__UINT8_TYPE__
#define hvc_u16		__UINT16_TYPE__
#define hvc_u32		__UINT32_TYPE__
#define hvc_u64		__UINT64_TYPE__
#define hvc_s32		__INT32_TYPE__
#define hvc_s64		__INT64_TYPE__
#define hvc_size	__SIZE_TYPE__
#define hvc_uptr	__UINTPTR_TYPE__
#endif

#define HVC_NULL	((void *)0)

/* Error codes, returned negated; same values as Linux's errno */
#define HVC_ENOENT	2	/* not this cell's page; nothing found */
#define HVC_E2BIG	7	/* more cells/regions than the format allows */
#define HVC_ENOMEM	12	/* no free frame of an allowed color */
#define HVC_EBUSY	16	/* frame in use */
#define HVC_EEXIST	17	/* already present (frame, name) */
#define HVC_EINVAL	22	/* malformed value */
#define HVC_ENOSPC	28	/* output buffer too small */
#define HVC_ERANGE	34	/* value out of range */
#define HVC_EPROTO	71	/* unknown blob version */
#define HVC_EBADMSG	74	/* structurally broken blob */
#define HVC_EOVERFLOW	75	/* arithmetic overflow */
#define HVC_EALREADY	114	/* frame already free (double free) */

/* Limits */
#define HVC_MAX_COLORS		1024	/* colors in a mask; power of two */
#define HVC_MASK_WORDS		(HVC_MAX_COLORS / 64)
#define HVC_MAX_CPUS		HVC_MAX_COLORS	/* CPU sets use struct hvc_mask */
#define HVC_PA_BITS		52	/* physical addresses below 2^52 */
#define HVC_PA_LIMIT		0x0010000000000000ull	/* 2^HVC_PA_BITS */
#define HVC_MIN_PAGE_SHIFT	12
#define HVC_MAX_PAGE_SHIFT	16
#define HVC_MAX_GRAN_SHIFT	8	/* at most 256 pages per color */
#define HVC_MAX_WAYS		1024
#define HVC_MAX_CELLS		32
#define HVC_MAX_REGIONS		128	/* in a whole system */
#define HVC_NAME_LEN		32	/* cell name, including the NUL */
#define HVC_MASK_LIST_MAX	4096	/* any formatted mask fits, with NUL */
#define HVC_BLOB_MAX_SIZE	(HVC_BLOB_HDR_SIZE + \
				 HVC_MAX_CELLS * HVC_BLOB_CELL_SIZE + \
				 HVC_MAX_REGIONS * HVC_BLOB_REGION_SIZE)

/* ---------------------------------------------------------------------
 * Geometry
 *
 * way_size = line_size * nr_sets; a color is a run of pages_per_color
 * pages (1 << gran_shift), so nr_colors = way_size / (page size << gran).
 * color(pa) = (pa >> (page_shift + gran_shift)) & (nr_colors - 1).
 */
struct hvc_geometry {
	hvc_u64 way_size;	/* bytes */
	hvc_u32 line_size;	/* bytes; 0 if unknown */
	hvc_u32 nr_sets;	/* 0 if unknown */
	hvc_u32 nr_ways;	/* 0 if unknown */
	hvc_u32 page_shift;
	hvc_u32 gran_shift;	/* log2(pages per color) */
	hvc_u32 nr_colors;
	hvc_u32 color_shift;	/* log2(nr_colors) */
	hvc_u32 chunk_shift;	/* page_shift + gran_shift: log2(color chunk) */
};

/**
 * hvc_geometry_from_cache() - the coloring geometry of a cache level
 * @g: filled on success
 * @line_size: line size in bytes, a power of two up to CG_LINE_SIZE_MAX
 * @nr_sets: sets, a power of two
 * @nr_ways: associativity, at least 1
 * @page_shift: log2 of the page size, HVC_MIN_PAGE_SHIFT to HVC_MAX_PAGE_SHIFT
 * @pages_per_color: pages in one color's run, a power of two (1: plain
 *	page coloring)
 *
 * The way size is @line_size * @nr_sets; see hvc_geometry_from_way_size().
 *
 * Return: 0, -HVC_EINVAL for a value that is not a power of two, a way
 * smaller than two color chunks or a page shift out of range, -HVC_ERANGE
 * for more than HVC_MAX_COLORS colors or HVC_MAX_WAYS ways.
 */
int hvc_geometry_from_cache(struct hvc_geometry *g, hvc_u32 line_size,
			    hvc_u32 nr_sets, hvc_u32 nr_ways,
			    hvc_u32 page_shift, hvc_u32 pages_per_color);
/**
 * hvc_geometry_from_way_size() - the coloring geometry of a way size
 * @g: filled on success
 * @way_size: bytes of one way (line size times sets), a power of two
 * @line_size: line size in bytes, or 0 when unknown
 * @nr_ways: associativity, or 0 when unknown
 * @page_shift: log2 of the page size, HVC_MIN_PAGE_SHIFT to HVC_MAX_PAGE_SHIFT
 * @pages_per_color: pages in one color's run, a power of two
 *
 * Colors are the way size divided by the color chunk (page size times
 * @pages_per_color): 2 to HVC_MAX_COLORS of them.
 *
 * Return: 0, -HVC_EINVAL or -HVC_ERANGE as hvc_geometry_from_cache().
 */
int hvc_geometry_from_way_size(struct hvc_geometry *g, hvc_u64 way_size,
			       hvc_u32 line_size, hvc_u32 nr_ways,
			       hvc_u32 page_shift, hvc_u32 pages_per_color);

/**
 * hvc_color_of_pfn() - the color of a page frame
 * @g: the geometry
 * @pfn: the page frame number
 *
 * Return: the color, below @g->nr_colors.
 */
static inline hvc_u32 hvc_color_of_pfn(const struct hvc_geometry *g,
				       hvc_u64 pfn)
{
	return (hvc_u32)(pfn >> g->gran_shift) & (g->nr_colors - 1);
}

/**
 * hvc_color_of() - the color of a physical address
 * @g: the geometry
 * @pa: the physical address
 *
 * Return: the color, below @g->nr_colors.
 */
static inline hvc_u32 hvc_color_of(const struct hvc_geometry *g, hvc_u64 pa)
{
	return (hvc_u32)(pa >> g->chunk_shift) & (g->nr_colors - 1);
}

/**
 * hvc_budget_events() - a budget in MB/s as line events per period
 * @mbps: the budget, 0 (unregulated) to CG_MBPS_MAX
 * @period_us: the regulation period, CG_PERIOD_US_MIN to CG_PERIOD_US_MAX
 * @line_size: bytes per event, CG_LINE_SIZE_MIN to CG_LINE_SIZE_MAX
 * @events: the events memguard.ko counts for the budget
 *	(cg_mbps_to_events(): 0 for @mbps 0, at least 1 otherwise)
 *
 * Return: 0, -HVC_EINVAL for a period or line size out of range,
 * -HVC_ERANGE above CG_MBPS_MAX.
 */
int hvc_budget_events(hvc_u32 mbps, hvc_u32 period_us, hvc_u32 line_size,
		      hvc_u64 *events);

/* ---------------------------------------------------------------------
 * Masks (colors or CPUs): a bitmap of HVC_MAX_COLORS bits.
 */
struct hvc_mask {
	hvc_u64 bits[HVC_MASK_WORDS];
};

/**
 * hvc_mask_zero() - clear every bit
 * @m: the mask
 */
void hvc_mask_zero(struct hvc_mask *m);
/**
 * hvc_mask_fill() - set bits 0 to @nbits - 1, clear the others
 * @m: the mask
 * @nbits: how many bits, at most HVC_MAX_COLORS
 */
void hvc_mask_fill(struct hvc_mask *m, hvc_u32 nbits);
/**
 * hvc_mask_copy() - copy a mask
 * @dst: the copy
 * @src: the original
 */
void hvc_mask_copy(struct hvc_mask *dst, const struct hvc_mask *src);
/**
 * hvc_mask_set() - set one bit
 * @m: the mask
 * @bit: the bit; at or above HVC_MAX_COLORS nothing happens
 */
void hvc_mask_set(struct hvc_mask *m, hvc_u32 bit);
/**
 * hvc_mask_test() - test one bit
 * @m: the mask
 * @bit: the bit
 *
 * Return: 1 if @bit is set, 0 if not or out of range.
 */
int hvc_mask_test(const struct hvc_mask *m, hvc_u32 bit);
/**
 * hvc_mask_weight() - count the set bits
 * @m: the mask
 *
 * Return: the number of set bits.
 */
hvc_u32 hvc_mask_weight(const struct hvc_mask *m);
/**
 * hvc_mask_and() - intersection
 * @dst: @a AND @b (may be one of them)
 * @a: a mask
 * @b: a mask
 */
void hvc_mask_and(struct hvc_mask *dst, const struct hvc_mask *a,
		  const struct hvc_mask *b);
/**
 * hvc_mask_or() - union
 * @dst: @a OR @b (may be one of them)
 * @a: a mask
 * @b: a mask
 */
void hvc_mask_or(struct hvc_mask *dst, const struct hvc_mask *a,
		 const struct hvc_mask *b);
/**
 * hvc_mask_empty() - whether no bit is set
 * @m: the mask
 *
 * Return: 1 if empty, else 0.
 */
int hvc_mask_empty(const struct hvc_mask *m);
/**
 * hvc_mask_equal() - whether two masks have the same bits
 * @a: a mask
 * @b: a mask
 *
 * Return: 1 if equal, else 0.
 */
int hvc_mask_equal(const struct hvc_mask *a, const struct hvc_mask *b);
/**
 * hvc_mask_intersects() - whether two masks share a bit
 * @a: a mask
 * @b: a mask
 *
 * Return: 1 if they share one, else 0.
 */
int hvc_mask_intersects(const struct hvc_mask *a, const struct hvc_mask *b);
/**
 * hvc_mask_fits() - whether every set bit is below @nbits
 * @m: the mask
 * @nbits: the bound (e.g. the geometry's colors)
 *
 * Return: 1 if no bit at or above @nbits is set, else 0.
 */
int hvc_mask_fits(const struct hvc_mask *m, hvc_u32 nbits);
/**
 * hvc_mask_next() - the next set bit
 * @m: the mask
 * @from: the first bit to look at
 *
 * Return: the first set bit at or above @from, HVC_MAX_COLORS if none.
 */
hvc_u32 hvc_mask_next(const struct hvc_mask *m, hvc_u32 from);

struct hvc_parse_error {
	int code;		/* -HVC_EINVAL, -HVC_ERANGE or -HVC_EOVERFLOW */
	hvc_u32 pos;		/* byte offset of the offending character */
	const char *reason;	/* static one-line text */
};

/**
 * hvc_mask_parse() - parse a list such as "0-3,8,10-11"
 * @m: the mask, untouched on error
 * @s: the text
 * @len: at most this many bytes are read; a NUL ends the text sooner
 * @nbits: every bit must be below this
 * @err: if not NULL, where and why on error
 *
 * The Linux list syntax as bitmap_parselist() reads singletons and
 * ranges: regions separated by commas and/or white space, decimal
 * numbers, "a-b" with a <= b; the empty list is the empty mask; a newline
 * ends the list (only white space may follow it). Group ("0-7:2/4") and
 * "N"/"all" forms are refused.
 *
 * Return: 0, -HVC_EINVAL for bad syntax, -HVC_ERANGE for a bit at or
 * above @nbits (or @nbits above HVC_MAX_COLORS), -HVC_EOVERFLOW for a
 * number too large.
 */
int hvc_mask_parse(struct hvc_mask *m, const char *s, hvc_size len,
		   hvc_u32 nbits, struct hvc_parse_error *err);
/**
 * hvc_mask_format() - a mask as its shortest list
 * @m: the mask
 * @buf: the text, NUL-terminated
 * @size: bytes of @buf
 *
 * Ascending, runs of two or more as "a-b", as the kernel's %*pbl prints.
 *
 * Return: the length without the NUL, or -HVC_ENOSPC if @size is too
 * small.
 */
int hvc_mask_format(const struct hvc_mask *m, char *buf, hvc_size size);

/* ---------------------------------------------------------------------
 * Colored regions
 *
 * A cell region of cell_size bytes at cell_base, backed by the host span
 * starting at host_base. Cell chunk g (a chunk is one color's run of
 * pages) lies in way block g / k at the (g % k)-th color of the mask,
 * k = weight(mask). With fewer than every color the host base is aligned
 * to the way size and the span is whole way blocks. A mask of every color
 * makes that a plain offset: page alignment will do and the span is
 * cell_size itself. Uncolored memory is the mask of every color: the same
 * code, the same rule.
 *
 * The struct carries O(nr_colors) tables; keep it off the kernel stack.
 */
struct hvc_region {
	hvc_u64 host_base;
	hvc_u64 host_span;	/* whole way blocks, or cell_size: every color */
	hvc_u64 cell_base;
	hvc_u64 cell_size;
	hvc_u64 way_size;
	hvc_u64 div_magic;	/* reciprocal of k for the cell->host divide */
	hvc_u32 chunk_shift;
	hvc_u32 color_shift;
	hvc_u32 nr_colors;
	hvc_u32 k;		/* colors in the mask */
	hvc_u32 nr_runs;	/* runs of adjacent colors */
	hvc_u32 restart;	/* 1: the last run goes on into the next block */
	hvc_u64 run_host[HVC_MAX_COLORS / 2];	/* run's offset in its block */
	hvc_u64 run_size[HVC_MAX_COLORS / 2];	/* bytes of the run's extent */
	hvc_u16 run_pos[HVC_MAX_COLORS / 2];	/* first position of each run */
	hvc_u16 index_of[HVC_MAX_COLORS];	/* color -> position, or HVC_NO_INDEX */
	hvc_u16 color_at[HVC_MAX_COLORS];	/* position -> color */
};

#define HVC_NO_INDEX	0xffffu

/**
 * hvc_span_for_size() - the host span a colored cell region needs
 * @g: the geometry
 * @m: the region's colors, not empty, within the geometry
 * @cell_size: the cell's bytes, whole pages
 * @span: whole way blocks, or @cell_size itself when @m has every color
 *
 * Return: 0, -HVC_EINVAL for an empty mask or a size not in whole pages,
 * -HVC_ERANGE for a color beyond the geometry or a span past HVC_PA_LIMIT.
 */
int hvc_span_for_size(const struct hvc_geometry *g, const struct hvc_mask *m,
		      hvc_u64 cell_size, hvc_u64 *span);
/**
 * hvc_size_for_span() - the cell bytes a host span gives
 * @g: the geometry
 * @m: the region's colors, not empty, within the geometry
 * @span: whole way blocks, or whole pages when @m has every color
 * @cell_size: the cell's share of @span
 *
 * Return: 0, -HVC_EINVAL for an empty mask or a span not in whole blocks
 * (pages), -HVC_ERANGE for a color beyond the geometry or a span past
 * HVC_PA_LIMIT.
 */
int hvc_size_for_span(const struct hvc_geometry *g, const struct hvc_mask *m,
		      hvc_u64 span, hvc_u64 *cell_size);

/**
 * hvc_region_init() - set up a colored region for translation
 * @r: the region (O(nr_colors) tables: keep it off the kernel stack)
 * @g: the geometry
 * @m: the region's colors, not empty, within the geometry
 * @host_base: start of the host span; way aligned unless @m has every
 *	color, page aligned then
 * @cell_base: the region's cell address, page aligned
 * @cell_size: the cell's bytes, whole pages
 *
 * O(nr_colors).
 *
 * Return: 0, -HVC_EINVAL for a misaligned base or size or an empty mask,
 * -HVC_ERANGE for a range past HVC_PA_LIMIT or a color beyond the geometry.
 */
int hvc_region_init(struct hvc_region *r, const struct hvc_geometry *g,
		    const struct hvc_mask *m, hvc_u64 host_base,
		    hvc_u64 cell_base, hvc_u64 cell_size);

/**
 * hvc_region_cell_to_host() - translate a cell address, O(1)
 * @r: the region
 * @cell_addr: an address of the cell
 * @host_addr: the host address that backs it
 *
 * Return: 0, or -HVC_ERANGE outside the region.
 */
int hvc_region_cell_to_host(const struct hvc_region *r, hvc_u64 cell_addr,
			    hvc_u64 *host_addr);
/**
 * hvc_region_host_to_cell() - translate a host address, O(1)
 * @r: the region
 * @host_addr: a host address
 * @cell_addr: the cell address it backs
 *
 * Return: 0, -HVC_ENOENT for an address in the span that is not the
 * cell's (another color, or past the cell's end), -HVC_ERANGE outside
 * the span.
 */
int hvc_region_host_to_cell(const struct hvc_region *r, hvc_u64 host_addr,
			    hvc_u64 *cell_addr);

/*
 * Extents: maximal ranges contiguous in both cell and host addresses, in
 * ascending order. Runs of adjacent colors coalesce, and so does a run
 * ending at the last color with the next block's run starting at color 0
 * (the whole region is one extent when the mask has every color).
 */
struct hvc_extent {
	hvc_u64 cell_addr;
	hvc_u64 host_addr;
	hvc_u64 size;
};

struct hvc_extent_iter {
	const struct hvc_region *r;
	hvc_u64 cell_off;	/* cell offset of the next extent */
	hvc_u64 block;		/* host address of its way block */
	hvc_u32 run;		/* the run it starts */
};

/**
 * hvc_extent_iter_init() - start walking a region's extents
 * @it: the iterator
 * @r: the region, set up by hvc_region_init()
 */
void hvc_extent_iter_init(struct hvc_extent_iter *it,
			  const struct hvc_region *r);
/**
 * hvc_extent_next() - the next extent
 * @it: the iterator
 * @e: filled with the extent
 *
 * Return: 1 with @e filled, 0 at the end.
 */
int hvc_extent_next(struct hvc_extent_iter *it, struct hvc_extent *e);
/**
 * hvc_extent_fill() - the next extents, in a batch
 * @it: the iterator
 * @e: room for @max extents
 * @max: how many at most
 *
 * Return: how many were filled, 0 at the end.
 */
hvc_u32 hvc_extent_fill(struct hvc_extent_iter *it, struct hvc_extent *e,
			hvc_u32 max);
/**
 * hvc_region_nr_extents() - how many extents a region has
 * @r: the region
 *
 * O(nr_runs), without walking them.
 *
 * Return: the number of extents the iterator yields.
 */
hvc_u64 hvc_region_nr_extents(const struct hvc_region *r);

/* ---------------------------------------------------------------------
 * Frame allocator
 *
 * Frames are caller-supplied descriptors (an array per memory range for a
 * hypervisor, per-block arrays for a pool that grows and shrinks). A frame
 * must be zeroed (hvc_frame_init) before it is first added. Allocation
 * takes a frame of the allowed color with the most free frames, ties to the
 * lowest color. Callers serialise all calls on one allocator.
 */
struct hvc_list {
	struct hvc_list *next;
	struct hvc_list *prev;
};

#define HVC_FRAME_DETACHED	0	/* in no pool */
#define HVC_FRAME_FREE		1
#define HVC_FRAME_USED		2

struct hvc_allocator;

struct hvc_frame {
	struct hvc_list link;		/* free list of its color while free */
	hvc_u64 pfn;
	struct hvc_allocator *owner;	/* NULL while detached */
	hvc_u32 color;
	hvc_u32 state;
};

/* Colors with the same free count, ordered by count (internal). */
struct hvc_alloc_bucket {
	hvc_u64 count;
	hvc_u64 bits[HVC_MASK_WORDS];
	hvc_u16 prev;
	hvc_u16 next;
	hvc_u16 members;
};

#define HVC_NO_BUCKET	0xffffu

struct hvc_allocator {
	hvc_u32 nr_colors;
	hvc_u32 gran_shift;
	hvc_u64 pfn_limit;		/* pfns below 2^(52 - page_shift) */
	hvc_u64 nr_free;
	hvc_u64 nr_used;
	hvc_u16 head;			/* bucket with the most free frames */
	hvc_u16 tail;			/* bucket with the fewest */
	hvc_u16 spare;			/* unused buckets */
	hvc_u16 reserved;
	hvc_u64 free[HVC_MAX_COLORS];
	hvc_u64 used[HVC_MAX_COLORS];
	struct hvc_list free_list[HVC_MAX_COLORS];
	hvc_u16 bucket_of[HVC_MAX_COLORS];
	struct hvc_alloc_bucket buckets[HVC_MAX_COLORS];
};

/**
 * hvc_frame_init() - make a frame descriptor detached, before its first add
 * @f: the frame
 */
void hvc_frame_init(struct hvc_frame *f);
/**
 * hvc_alloc_init() - an empty allocator for a geometry
 * @a: the allocator
 * @g: the geometry: its colors and page size
 *
 * Return: 0, or -HVC_EINVAL for a geometry out of hv-color's limits.
 */
int hvc_alloc_init(struct hvc_allocator *a, const struct hvc_geometry *g);
/**
 * hvc_alloc_add() - add a frame to the pool, free
 * @a: the allocator
 * @f: a detached frame
 * @pfn: its page frame number (its color follows from it)
 *
 * Return: 0, -HVC_EINVAL without a frame, -HVC_EEXIST if it is in a pool
 * already, -HVC_ERANGE for a pfn past HVC_PA_LIMIT.
 */
int hvc_alloc_add(struct hvc_allocator *a, struct hvc_frame *f, hvc_u64 pfn);
/**
 * hvc_alloc_add_range() - add consecutive frames, all or nothing
 * @a: the allocator
 * @frames: @nr detached frames
 * @nr: how many
 * @first_pfn: @frames[i] gets @first_pfn + i
 *
 * Return: 0, or an error of hvc_alloc_add() with no frame added.
 */
int hvc_alloc_add_range(struct hvc_allocator *a, struct hvc_frame *frames,
			hvc_u64 nr, hvc_u64 first_pfn);
/**
 * hvc_alloc_remove() - take a free frame out of the pool (a shrink)
 * @a: the allocator
 * @f: a frame of @a
 *
 * Return: 0, -HVC_EBUSY for a frame in use, -HVC_EINVAL for one @a does
 * not hold.
 */
int hvc_alloc_remove(struct hvc_allocator *a, struct hvc_frame *f);
/**
 * hvc_alloc_frame() - allocate a frame of an allowed color
 * @a: the allocator
 * @allowed: the colors it may have
 *
 * Takes it from the allowed color with the most free frames, ties to the
 * lowest color.
 *
 * Return: the frame, now used, or NULL when no allowed color has one.
 */
struct hvc_frame *hvc_alloc_frame(struct hvc_allocator *a,
				  const struct hvc_mask *allowed);
/**
 * hvc_alloc_free() - give a used frame back to its pool
 * @a: the allocator
 * @f: a used frame of @a
 *
 * Return: 0, -HVC_EALREADY for a frame already free, -HVC_EINVAL for one
 * @a does not own; neither error changes anything.
 */
int hvc_alloc_free(struct hvc_allocator *a, struct hvc_frame *f);
/**
 * hvc_alloc_free_count() - free frames of one color
 * @a: the allocator
 * @color: the color
 *
 * Return: the count, 0 for a color beyond the geometry.
 */
hvc_u64 hvc_alloc_free_count(const struct hvc_allocator *a, hvc_u32 color);
/**
 * hvc_alloc_used_count() - used frames of one color
 * @a: the allocator
 * @color: the color
 *
 * Return: the count, 0 for a color beyond the geometry.
 */
hvc_u64 hvc_alloc_used_count(const struct hvc_allocator *a, hvc_u32 color);

/* ---------------------------------------------------------------------
 * System description: what the cell-colors blob carries (cell_blob.h has
 * the byte layout).
 */
struct hvc_region_desc {
	hvc_u64 cell_base;
	hvc_u64 host_base;
	hvc_u64 host_size;
	hvc_u64 cell_size;
	hvc_u32 flags;			/* HVC_REGION_* */
};

struct hvc_cell_desc {
	char name[HVC_NAME_LEN];
	struct hvc_mask cpus;
	struct hvc_mask colors;
	hvc_u32 flags;			/* HVC_CELL_* */
	hvc_u32 read_mbps;		/* 0: unregulated */
	hvc_u32 write_mbps;
	hvc_u32 first_region;
	hvc_u32 nr_regions;
};

struct hvc_system {
	struct hvc_geometry geo;
	struct hvc_mask hv_colors;
	hvc_u32 nr_cells;
	hvc_u32 nr_regions;
	struct hvc_cell_desc cells[HVC_MAX_CELLS];
	struct hvc_region_desc regions[HVC_MAX_REGIONS];
};

/* What went wrong and where: cell/region -1 when not about one. */
struct hvc_error {
	int code;
	int cell;			/* cell index */
	int region;			/* region index within the cell */
	int other_cell;			/* the cell it conflicts with */
	hvc_u32 offset;			/* blob byte offset (parser) */
	const char *field;		/* e.g. "colors", "header.version" */
	const char *msg;		/* static one-line reason */
	char cell_name[HVC_NAME_LEN];	/* printable copy, "" if none */
	char other_name[HVC_NAME_LEN];
};

/**
 * hvc_blob_size() - the size of a system's blob
 * @s: the system
 *
 * Return: the bytes hvc_blob_write() produces, or -HVC_E2BIG for more
 * cells or regions than the format holds.
 */
hvc_s64 hvc_blob_size(const struct hvc_system *s);
/**
 * hvc_blob_write() - serialise a system into the cell-colors blob
 * @s: the system (validate it first: the writer does not)
 * @buf: the blob
 * @size: bytes of @buf
 * @len: the blob's size
 *
 * Return: 0, -HVC_E2BIG as hvc_blob_size(), -HVC_ENOSPC if @size is too
 * small.
 */
int hvc_blob_write(const struct hvc_system *s, void *buf, hvc_size size,
		   hvc_size *len);
/**
 * hvc_blob_parse() - read a blob from an untrusted source
 * @s: the system; unspecified on error
 * @buf: the blob
 * @len: its bytes: the blob must be exactly this long
 * @err: if not NULL, the cell, field and byte offset on error
 *
 * Every length, offset, flag and reserved field is checked against the
 * format before use; hvc_system_validate() then checks the system.
 *
 * Return: 0, -HVC_EBADMSG for a broken structure, -HVC_EPROTO for an
 * unknown version, -HVC_EINVAL or -HVC_ERANGE for a bad field.
 */
int hvc_blob_parse(struct hvc_system *s, const void *buf, hvc_size len,
		   struct hvc_error *err);
/**
 * hvc_system_validate() - check a whole system, collecting every problem
 * @s: the system
 * @errs: room for @max_errs problems, or NULL
 * @max_errs: how many to record
 * @nr_errs: if not NULL, how many problems there were in all
 *
 * The rules: well-formed cells (names, CPU sets, masks within the
 * geometry, budgets in range, exactly one root cell), non-root cells'
 * masks pairwise disjoint, hypervisor colors disjoint from every cell,
 * the root cell's colors disjoint from critical cells', CPU sets
 * disjoint, every colored region large enough and aligned
 * (hvc_span_for_size()), every uncolored region (the mask of every color)
 * page aligned with host_size equal to cell_size, no host memory shared
 * except by colored regions of cells with disjoint masks.
 *
 * Return: 0 when clean, else the first problem's code.
 */
int hvc_system_validate(const struct hvc_system *s, struct hvc_error *errs,
			hvc_u32 max_errs, hvc_u32 *nr_errs);
/**
 * hvc_error_format() - one line for a problem
 * @e: the problem
 * @buf: e.g. "cell 2 'rt0' region 1 host_size: too small for the cell size"
 * @size: bytes of @buf
 *
 * Return: the length without the NUL, or -HVC_ENOSPC (@buf then holds
 * the text cut short, terminated).
 */
int hvc_error_format(const struct hvc_error *e, char *buf, hvc_size size);

#endif /* _COLORGUARD_HV_COLOR_H */
