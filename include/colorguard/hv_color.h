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

/*
 * Both validate: powers of two, 2 <= nr_colors <= HVC_MAX_COLORS, way size
 * a multiple of the color chunk, page_shift within the limits.
 * pages_per_color is a power of two, 1 for plain page coloring.
 */
int hvc_geometry_from_cache(struct hvc_geometry *g, hvc_u32 line_size,
			    hvc_u32 nr_sets, hvc_u32 nr_ways,
			    hvc_u32 page_shift, hvc_u32 pages_per_color);
/* line_size and nr_ways may be 0 (unknown) */
int hvc_geometry_from_way_size(struct hvc_geometry *g, hvc_u64 way_size,
			       hvc_u32 line_size, hvc_u32 nr_ways,
			       hvc_u32 page_shift, hvc_u32 pages_per_color);

static inline hvc_u32 hvc_color_of_pfn(const struct hvc_geometry *g,
				       hvc_u64 pfn)
{
	return (hvc_u32)(pfn >> g->gran_shift) & (g->nr_colors - 1);
}

static inline hvc_u32 hvc_color_of(const struct hvc_geometry *g, hvc_u64 pa)
{
	return (hvc_u32)(pa >> g->chunk_shift) & (g->nr_colors - 1);
}

/*
 * Events of line_size bytes per period for a budget of mbps MB/s: the
 * events memguard.ko counts for it (cg_mbps_to_events() in limits.h; 0
 * for mbps 0, at least 1 otherwise). -HVC_EINVAL for a period or line
 * size outside limits.h's ranges, -HVC_ERANGE above CG_MBPS_MAX.
 */
int hvc_budget_events(hvc_u32 mbps, hvc_u32 period_us, hvc_u32 line_size,
		      hvc_u64 *events);

/* ---------------------------------------------------------------------
 * Masks (colors or CPUs): a bitmap of HVC_MAX_COLORS bits.
 */
struct hvc_mask {
	hvc_u64 bits[HVC_MASK_WORDS];
};

void hvc_mask_zero(struct hvc_mask *m);
void hvc_mask_fill(struct hvc_mask *m, hvc_u32 nbits);	/* bits 0..nbits-1 */
void hvc_mask_copy(struct hvc_mask *dst, const struct hvc_mask *src);
void hvc_mask_set(struct hvc_mask *m, hvc_u32 bit);	/* out of range: no-op */
int hvc_mask_test(const struct hvc_mask *m, hvc_u32 bit);
hvc_u32 hvc_mask_weight(const struct hvc_mask *m);
void hvc_mask_and(struct hvc_mask *dst, const struct hvc_mask *a,
		  const struct hvc_mask *b);
void hvc_mask_or(struct hvc_mask *dst, const struct hvc_mask *a,
		 const struct hvc_mask *b);
int hvc_mask_empty(const struct hvc_mask *m);
int hvc_mask_equal(const struct hvc_mask *a, const struct hvc_mask *b);
int hvc_mask_intersects(const struct hvc_mask *a, const struct hvc_mask *b);
/* no bit at or above nbits */
int hvc_mask_fits(const struct hvc_mask *m, hvc_u32 nbits);
/* first set bit >= from, or HVC_MAX_COLORS when there is none */
hvc_u32 hvc_mask_next(const struct hvc_mask *m, hvc_u32 from);

struct hvc_parse_error {
	int code;		/* -HVC_EINVAL, -HVC_ERANGE or -HVC_EOVERFLOW */
	hvc_u32 pos;		/* byte offset of the offending character */
	const char *reason;	/* static one-line text */
};

/*
 * Parse the Linux list syntax ("0-3,8,10-11") as bitmap_parselist() does
 * for singletons and ranges: regions separated by commas and/or white
 * space, decimal numbers, "a-b" with a <= b, every bit below nbits; the
 * empty list is the empty mask; a newline ends the list (only white space
 * may follow it). Group ("0-7:2/4") and "N"/"all" forms are rejected.
 * Reads at most len bytes and stops at a NUL. On error *m is untouched
 * and err (if not NULL) says where and why.
 */
int hvc_mask_parse(struct hvc_mask *m, const char *s, hvc_size len,
		   hvc_u32 nbits, struct hvc_parse_error *err);
/*
 * Canonical shortest form, ascending, runs of two or more as "a-b" (as the
 * kernel's %*pbl). Returns the length without the NUL, or -HVC_ENOSPC.
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

/*
 * Host span a cell of cell_size bytes (a multiple of the page size) needs:
 * whole way blocks, or cell_size itself when the mask holds every color.
 */
int hvc_span_for_size(const struct hvc_geometry *g, const struct hvc_mask *m,
		      hvc_u64 cell_size, hvc_u64 *span);
/*
 * Cell bytes a host span gives: whole way blocks (-HVC_EINVAL otherwise), or
 * for a mask of every color whole pages, all of them the cell's.
 */
int hvc_size_for_span(const struct hvc_geometry *g, const struct hvc_mask *m,
		      hvc_u64 span, hvc_u64 *cell_size);

/*
 * O(nr_colors) setup. cell_size and cell_base are page aligned, the mask
 * is not empty and fits the geometry, and both address ranges stay below
 * HVC_PA_LIMIT.
 */
int hvc_region_init(struct hvc_region *r, const struct hvc_geometry *g,
		    const struct hvc_mask *m, hvc_u64 host_base,
		    hvc_u64 cell_base, hvc_u64 cell_size);

/* O(1). -HVC_ERANGE outside the region. */
int hvc_region_cell_to_host(const struct hvc_region *r, hvc_u64 cell_addr,
			    hvc_u64 *host_addr);
/*
 * O(1). -HVC_ENOENT for a host address inside the span that is not this
 * cell's (another color, or past the cell's end); -HVC_ERANGE outside.
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

void hvc_extent_iter_init(struct hvc_extent_iter *it,
			  const struct hvc_region *r);
/* 1 and *e filled, or 0 at the end */
int hvc_extent_next(struct hvc_extent_iter *it, struct hvc_extent *e);
/* Up to max extents into e[]; returns how many, 0 at the end. */
hvc_u32 hvc_extent_fill(struct hvc_extent_iter *it, struct hvc_extent *e,
			hvc_u32 max);
/* How many extents the iterator yields, in O(nr_runs). */
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

void hvc_frame_init(struct hvc_frame *f);
int hvc_alloc_init(struct hvc_allocator *a, const struct hvc_geometry *g);
/* The frame becomes free in the pool. -HVC_EEXIST if attached somewhere. */
int hvc_alloc_add(struct hvc_allocator *a, struct hvc_frame *f, hvc_u64 pfn);
/* frames[i] gets pfn first_pfn + i; all or nothing */
int hvc_alloc_add_range(struct hvc_allocator *a, struct hvc_frame *frames,
			hvc_u64 nr, hvc_u64 first_pfn);
/* Takes a free frame out of the pool (shrink): -HVC_EBUSY if in use. */
int hvc_alloc_remove(struct hvc_allocator *a, struct hvc_frame *f);
/* NULL when no allowed color has a free frame */
struct hvc_frame *hvc_alloc_frame(struct hvc_allocator *a,
				  const struct hvc_mask *allowed);
/*
 * -HVC_EALREADY for a frame already free, -HVC_EINVAL for a frame this
 * allocator does not own; neither changes anything.
 */
int hvc_alloc_free(struct hvc_allocator *a, struct hvc_frame *f);
hvc_u64 hvc_alloc_free_count(const struct hvc_allocator *a, hvc_u32 color);
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

/* Bytes hvc_blob_write() produces, or -HVC_E2BIG. */
hvc_s64 hvc_blob_size(const struct hvc_system *s);
/* Serialise; *len gets the blob size. -HVC_ENOSPC if size is too small. */
int hvc_blob_write(const struct hvc_system *s, void *buf, hvc_size size,
		   hvc_size *len);
/*
 * Hostile-input parser: every length, offset, flag and reserved field is
 * checked; the blob must be exactly len bytes. On error *s is unspecified
 * and err (if not NULL) names the cell and field.
 */
int hvc_blob_parse(struct hvc_system *s, const void *buf, hvc_size len,
		   struct hvc_error *err);
/*
 * Whole-system rules: well-formed cells (names, CPU sets, masks within the
 * geometry, budgets in range, exactly one root cell), non-root cells'
 * masks pairwise disjoint, hypervisor colors disjoint from every cell, the
 * root cell's colors disjoint from critical cells', CPU sets disjoint,
 * every colored region large enough and aligned (hvc_span_for_size()),
 * every uncolored region (the mask of every color) page aligned with
 * host_size equal to cell_size, no host memory shared except by colored
 * regions of cells with disjoint masks.
 * Records up to max_errs problems in errs and the total in *nr_errs (both
 * may be NULL/0); returns 0 when clean, else the first problem's code.
 */
int hvc_system_validate(const struct hvc_system *s, struct hvc_error *errs,
			hvc_u32 max_errs, hvc_u32 *nr_errs);
/*
 * "cell 2 'rt0' region 1 host_size: too small for the cell size" into buf;
 * returns the length or -HVC_ENOSPC (buf then holds a cut, terminated text).
 */
int hvc_error_format(const struct hvc_error *e, char *buf, hvc_size size);

#endif /* _COLORGUARD_HV_COLOR_H */
