/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-disk layout of the cell-colors blob, revision 1.
 *
 * The header's version field is the format's revision. A parser reads
 * exactly one revision, HVC_BLOB_VERSION, and refuses any other with
 * -HVC_EPROTO ("header.version": unsupported revision): a blob is never
 * half understood. The magic, the version and their offsets (0 and 4)
 * never change, so every future parser can say why it refuses a blob.
 *
 * Changing the format: any change a parser of the current revision would
 * read differently (a field moved, resized, added or removed, a record
 * size, a new meaning for a value or a flag bit, a relaxed rule) takes
 * HVC_BLOB_VERSION + 1, and the same commit changes all of:
 *  - this header: the comment's tables, the HVC_*_OFF_* and *_SIZE
 *    macros, the layout structs below (the build checks them against
 *    each other);
 *  - hv-color/blob.c: the writer (hvc_blob_write) writes the new layout,
 *    the parser (hvc_blob_parse) accepts the new revision only;
 *  - the tests: selftests/hv-color/test_blob.c (the golden header bytes,
 *    the malformed-blob table, the revision test) and fuzz_blob.c's seeds,
 *    selftests/colorguard (compile/decode round trip and the decode of a
 *    blob of another revision);
 *  - Documentation/colorguard/reference/cell-blob.rst: the revision
 *    history, what changed and why, so that a hypervisor port knows
 *    what to update;
 *  - the tool: colorguard compile and decode go through hv-color, so
 *    they follow; their man page (colorguard.8) and README name the
 *    revision decode prints.
 * A reader of older revisions, if ever needed, is a new function beside
 * the parser, not a relaxed check in it.
 *
 * Every field is little-endian, at a fixed byte offset, without padding
 * the reader has to guess. The blob is exactly
 *
 *	header (HVC_BLOB_HDR_SIZE bytes)
 *	cells[nr_cells] (HVC_BLOB_CELL_SIZE bytes each)
 *	regions[nr_regions] (HVC_BLOB_REGION_SIZE bytes each)
 *
 * in that order, with nothing after. A mask (colors or CPUs) is stored as
 * HVC_MASK_WORDS little-endian 64-bit words, bit n of the mask being bit
 * (n % 64) of word n / 64. Cell i owns the regions first_region ..
 * first_region + nr_regions - 1; the cells' ranges follow each other in
 * cell order and cover every region exactly once.
 *
 * Header:
 *	off size field
 *	  0   4 magic             HVC_BLOB_MAGIC ("HVCB")
 *	  4   2 version           HVC_BLOB_VERSION
 *	  6   2 header_size       HVC_BLOB_HDR_SIZE
 *	  8   4 total_size        bytes of the whole blob
 *	 12   4 flags             0
 *	 16   8 way_size          LLC way size in bytes
 *	 24   4 line_size         LLC line size in bytes
 *	 28   4 nr_ways           LLC associativity
 *	 32   4 page_shift        log2 of the page size
 *	 36   4 pages_per_color   consecutive pages of one color
 *	 40   4 nr_colors         must match the geometry above
 *	 44   4 nr_cells          1 .. HVC_MAX_CELLS
 *	 48   4 cells_offset      HVC_BLOB_HDR_SIZE
 *	 52   4 cell_size         HVC_BLOB_CELL_SIZE
 *	 56   4 nr_regions        0 .. HVC_MAX_REGIONS
 *	 60   4 regions_offset    cells_offset + nr_cells * cell_size
 *	 64   4 region_size       HVC_BLOB_REGION_SIZE
 *	 68   4 reserved          0
 *	 72 128 hv_colors         the hypervisor's own colors
 *
 * Cell:
 *	  0  32 name              NUL-padded, [A-Za-z0-9_.-], not empty
 *	 32 128 cpus              CPU set
 *	160 128 colors            color mask
 *	288   4 flags             HVC_CELL_CRITICAL | HVC_CELL_ROOT
 *	292   4 read_mbps         read budget in MB/s (2^20 bytes), 0: none
 *	296   4 write_mbps        write budget in MB/s, 0: none
 *	300   4 first_region
 *	304   4 nr_regions
 *	308   4 reserved          0
 *
 * Region:
 *	  0   8 cell_base         cell-physical address of the region
 *	  8   8 host_base         host-physical start of the backing span
 *	 16   8 host_size         bytes of host span reserved for it
 *	 24   8 cell_size         bytes the cell sees
 *	 32   4 flags             HVC_REGION_COLORED
 *	 36   4 reserved          0
 */
#ifndef _COLORGUARD_CELL_BLOB_H
#define _COLORGUARD_CELL_BLOB_H

#define HVC_BLOB_MAGIC		0x42435648u
#define HVC_BLOB_VERSION	1
#define HVC_BLOB_HDR_SIZE	200
#define HVC_BLOB_CELL_SIZE	312
#define HVC_BLOB_REGION_SIZE	40

#define HVC_BLOB_OFF_MAGIC		0
#define HVC_BLOB_OFF_VERSION		4
#define HVC_BLOB_OFF_HDR_SIZE		6
#define HVC_BLOB_OFF_TOTAL_SIZE		8
#define HVC_BLOB_OFF_FLAGS		12
#define HVC_BLOB_OFF_WAY_SIZE		16
#define HVC_BLOB_OFF_LINE_SIZE		24
#define HVC_BLOB_OFF_NR_WAYS		28
#define HVC_BLOB_OFF_PAGE_SHIFT		32
#define HVC_BLOB_OFF_PAGES_PER_COLOR	36
#define HVC_BLOB_OFF_NR_COLORS		40
#define HVC_BLOB_OFF_NR_CELLS		44
#define HVC_BLOB_OFF_CELLS_OFFSET	48
#define HVC_BLOB_OFF_CELL_SIZE		52
#define HVC_BLOB_OFF_NR_REGIONS		56
#define HVC_BLOB_OFF_REGIONS_OFFSET	60
#define HVC_BLOB_OFF_REGION_SIZE	64
#define HVC_BLOB_OFF_RESERVED		68
#define HVC_BLOB_OFF_HV_COLORS		72

#define HVC_CELL_OFF_NAME		0
#define HVC_CELL_OFF_CPUS		32
#define HVC_CELL_OFF_COLORS		160
#define HVC_CELL_OFF_FLAGS		288
#define HVC_CELL_OFF_READ_MBPS		292
#define HVC_CELL_OFF_WRITE_MBPS		296
#define HVC_CELL_OFF_FIRST_REGION	300
#define HVC_CELL_OFF_NR_REGIONS		304
#define HVC_CELL_OFF_RESERVED		308

#define HVC_REGION_OFF_CELL_BASE	0
#define HVC_REGION_OFF_HOST_BASE	8
#define HVC_REGION_OFF_HOST_SIZE	16
#define HVC_REGION_OFF_CELL_SIZE	24
#define HVC_REGION_OFF_FLAGS		32
#define HVC_REGION_OFF_RESERVED		36

/* Cell flags */
#define HVC_CELL_CRITICAL	0x1u	/* never throttled; root must avoid its colors */
#define HVC_CELL_ROOT		0x2u	/* the root (Linux) cell; exactly one */
#define HVC_CELL_FLAGS_ALL	(HVC_CELL_CRITICAL | HVC_CELL_ROOT)

/* Region flags */
#define HVC_REGION_COLORED	0x1u	/* mapped through the cell's colors */
#define HVC_REGION_FLAGS_ALL	HVC_REGION_COLORED

/*
 * The tables above once more, as structs of byte arrays (each array the
 * field's size): no padding, no alignment, so the compiler checks them
 * against the offset macros. Every field's offset is asserted, and each
 * record's size: as the fields follow each other without gaps, a field of
 * the wrong size moves the next one and fails too. The structs describe
 * the layout; the code reads and writes the bytes through the offsets,
 * little-endian whatever the host, and never casts a blob to them.
 */
struct hvc_blob_header_layout {
	unsigned char magic[4];
	unsigned char version[2];
	unsigned char header_size[2];
	unsigned char total_size[4];
	unsigned char flags[4];
	unsigned char way_size[8];
	unsigned char line_size[4];
	unsigned char nr_ways[4];
	unsigned char page_shift[4];
	unsigned char pages_per_color[4];
	unsigned char nr_colors[4];
	unsigned char nr_cells[4];
	unsigned char cells_offset[4];
	unsigned char cell_size[4];
	unsigned char nr_regions[4];
	unsigned char regions_offset[4];
	unsigned char region_size[4];
	unsigned char reserved[4];
	unsigned char hv_colors[128];
};

struct hvc_blob_cell_layout {
	unsigned char name[32];
	unsigned char cpus[128];
	unsigned char colors[128];
	unsigned char flags[4];
	unsigned char read_mbps[4];
	unsigned char write_mbps[4];
	unsigned char first_region[4];
	unsigned char nr_regions[4];
	unsigned char reserved[4];
};

struct hvc_blob_region_layout {
	unsigned char cell_base[8];
	unsigned char host_base[8];
	unsigned char host_size[8];
	unsigned char cell_size[8];
	unsigned char flags[4];
	unsigned char reserved[4];
};

/* Field f of record rec starts at byte off. */
#define HVC_BLOB_FIELD(rec, f, off)					\
	_Static_assert(__builtin_offsetof(struct hvc_blob_##rec##_layout, f) == \
		       (off), "cell blob: " #rec "." #f " is not at " #off)

HVC_BLOB_FIELD(header, magic, HVC_BLOB_OFF_MAGIC);
HVC_BLOB_FIELD(header, version, HVC_BLOB_OFF_VERSION);
HVC_BLOB_FIELD(header, header_size, HVC_BLOB_OFF_HDR_SIZE);
HVC_BLOB_FIELD(header, total_size, HVC_BLOB_OFF_TOTAL_SIZE);
HVC_BLOB_FIELD(header, flags, HVC_BLOB_OFF_FLAGS);
HVC_BLOB_FIELD(header, way_size, HVC_BLOB_OFF_WAY_SIZE);
HVC_BLOB_FIELD(header, line_size, HVC_BLOB_OFF_LINE_SIZE);
HVC_BLOB_FIELD(header, nr_ways, HVC_BLOB_OFF_NR_WAYS);
HVC_BLOB_FIELD(header, page_shift, HVC_BLOB_OFF_PAGE_SHIFT);
HVC_BLOB_FIELD(header, pages_per_color, HVC_BLOB_OFF_PAGES_PER_COLOR);
HVC_BLOB_FIELD(header, nr_colors, HVC_BLOB_OFF_NR_COLORS);
HVC_BLOB_FIELD(header, nr_cells, HVC_BLOB_OFF_NR_CELLS);
HVC_BLOB_FIELD(header, cells_offset, HVC_BLOB_OFF_CELLS_OFFSET);
HVC_BLOB_FIELD(header, cell_size, HVC_BLOB_OFF_CELL_SIZE);
HVC_BLOB_FIELD(header, nr_regions, HVC_BLOB_OFF_NR_REGIONS);
HVC_BLOB_FIELD(header, regions_offset, HVC_BLOB_OFF_REGIONS_OFFSET);
HVC_BLOB_FIELD(header, region_size, HVC_BLOB_OFF_REGION_SIZE);
HVC_BLOB_FIELD(header, reserved, HVC_BLOB_OFF_RESERVED);
HVC_BLOB_FIELD(header, hv_colors, HVC_BLOB_OFF_HV_COLORS);

HVC_BLOB_FIELD(cell, name, HVC_CELL_OFF_NAME);
HVC_BLOB_FIELD(cell, cpus, HVC_CELL_OFF_CPUS);
HVC_BLOB_FIELD(cell, colors, HVC_CELL_OFF_COLORS);
HVC_BLOB_FIELD(cell, flags, HVC_CELL_OFF_FLAGS);
HVC_BLOB_FIELD(cell, read_mbps, HVC_CELL_OFF_READ_MBPS);
HVC_BLOB_FIELD(cell, write_mbps, HVC_CELL_OFF_WRITE_MBPS);
HVC_BLOB_FIELD(cell, first_region, HVC_CELL_OFF_FIRST_REGION);
HVC_BLOB_FIELD(cell, nr_regions, HVC_CELL_OFF_NR_REGIONS);
HVC_BLOB_FIELD(cell, reserved, HVC_CELL_OFF_RESERVED);

HVC_BLOB_FIELD(region, cell_base, HVC_REGION_OFF_CELL_BASE);
HVC_BLOB_FIELD(region, host_base, HVC_REGION_OFF_HOST_BASE);
HVC_BLOB_FIELD(region, host_size, HVC_REGION_OFF_HOST_SIZE);
HVC_BLOB_FIELD(region, cell_size, HVC_REGION_OFF_CELL_SIZE);
HVC_BLOB_FIELD(region, flags, HVC_REGION_OFF_FLAGS);
HVC_BLOB_FIELD(region, reserved, HVC_REGION_OFF_RESERVED);

/* Each record is its fields, nothing after the last one. */
_Static_assert(sizeof(struct hvc_blob_header_layout) == HVC_BLOB_HDR_SIZE,
	       "cell blob: header size");
_Static_assert(sizeof(struct hvc_blob_cell_layout) == HVC_BLOB_CELL_SIZE,
	       "cell blob: cell record size");
_Static_assert(sizeof(struct hvc_blob_region_layout) == HVC_BLOB_REGION_SIZE,
	       "cell blob: region record size");

#endif /* _COLORGUARD_CELL_BLOB_H */
