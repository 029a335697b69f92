/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-disk layout of the cell-colors blob, version 1.
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

#endif /* _COLORGUARD_CELL_BLOB_H */
