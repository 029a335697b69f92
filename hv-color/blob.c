// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color: the cell-colors blob, both ways: the writer and the parser of
 * hostile input (every field checked against the format before use; the
 * whole system's consistency is validate.c's).
 */
#include "hvc_internal.h"

#define HVC_STR_(x)	#x
#define HVC_STR(x)	HVC_STR_(x)
#define HVC_BLOB_REV	"revision " HVC_STR(HVC_BLOB_VERSION)

hvc_s64 hvc_blob_size(const struct hvc_system *s)
{
	if (s->nr_cells > HVC_MAX_CELLS || s->nr_regions > HVC_MAX_REGIONS)
		return -HVC_E2BIG;
	return HVC_BLOB_HDR_SIZE + (hvc_s64)s->nr_cells * HVC_BLOB_CELL_SIZE +
	       (hvc_s64)s->nr_regions * HVC_BLOB_REGION_SIZE;
}

static void put_mask(hvc_u8 *p, const struct hvc_mask *m)
{
	hvc_u32 i;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		hvc_put_le(p + 8 * i, 8, m->bits[i]);
}

static void get_mask(struct hvc_mask *m, const hvc_u8 *p)
{
	hvc_u32 i;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		m->bits[i] = hvc_get_le(p + 8 * i, 8);
}

int hvc_blob_write(const struct hvc_system *s, void *buf, hvc_size size,
		   hvc_size *len)
{
	hvc_s64 total = hvc_blob_size(s);
	hvc_u8 *p = buf, *q;
	hvc_u32 i, j, regions_off;

	if (total < 0)
		return (int)total;
	if (size < (hvc_u64)total)
		return -HVC_ENOSPC;
	for (i = 0; i < (hvc_u32)total; i++)
		p[i] = 0;
	regions_off = HVC_BLOB_HDR_SIZE + s->nr_cells * HVC_BLOB_CELL_SIZE;
	hvc_put_le(p + HVC_BLOB_OFF_MAGIC, 4, HVC_BLOB_MAGIC);
	hvc_put_le(p + HVC_BLOB_OFF_VERSION, 2, HVC_BLOB_VERSION);
	hvc_put_le(p + HVC_BLOB_OFF_HDR_SIZE, 2, HVC_BLOB_HDR_SIZE);
	hvc_put_le(p + HVC_BLOB_OFF_TOTAL_SIZE, 4, (hvc_u64)total);
	hvc_put_le(p + HVC_BLOB_OFF_WAY_SIZE, 8, s->geo.way_size);
	hvc_put_le(p + HVC_BLOB_OFF_LINE_SIZE, 4, s->geo.line_size);
	hvc_put_le(p + HVC_BLOB_OFF_NR_WAYS, 4, s->geo.nr_ways);
	hvc_put_le(p + HVC_BLOB_OFF_PAGE_SHIFT, 4, s->geo.page_shift);
	hvc_put_le(p + HVC_BLOB_OFF_PAGES_PER_COLOR, 4, 1ull << s->geo.gran_shift);
	hvc_put_le(p + HVC_BLOB_OFF_NR_COLORS, 4, s->geo.nr_colors);
	hvc_put_le(p + HVC_BLOB_OFF_NR_CELLS, 4, s->nr_cells);
	hvc_put_le(p + HVC_BLOB_OFF_CELLS_OFFSET, 4, HVC_BLOB_HDR_SIZE);
	hvc_put_le(p + HVC_BLOB_OFF_CELL_SIZE, 4, HVC_BLOB_CELL_SIZE);
	hvc_put_le(p + HVC_BLOB_OFF_NR_REGIONS, 4, s->nr_regions);
	hvc_put_le(p + HVC_BLOB_OFF_REGIONS_OFFSET, 4, regions_off);
	hvc_put_le(p + HVC_BLOB_OFF_REGION_SIZE, 4, HVC_BLOB_REGION_SIZE);
	put_mask(p + HVC_BLOB_OFF_HV_COLORS, &s->hv_colors);

	for (i = 0; i < s->nr_cells; i++) {
		const struct hvc_cell_desc *c = &s->cells[i];

		q = p + HVC_BLOB_HDR_SIZE + i * HVC_BLOB_CELL_SIZE;
		for (j = 0; j + 1 < HVC_NAME_LEN && c->name[j]; j++)
			q[HVC_CELL_OFF_NAME + j] = (hvc_u8)c->name[j];
		put_mask(q + HVC_CELL_OFF_CPUS, &c->cpus);
		put_mask(q + HVC_CELL_OFF_COLORS, &c->colors);
		hvc_put_le(q + HVC_CELL_OFF_FLAGS, 4, c->flags);
		hvc_put_le(q + HVC_CELL_OFF_READ_MBPS, 4, c->read_mbps);
		hvc_put_le(q + HVC_CELL_OFF_WRITE_MBPS, 4, c->write_mbps);
		hvc_put_le(q + HVC_CELL_OFF_FIRST_REGION, 4, c->first_region);
		hvc_put_le(q + HVC_CELL_OFF_NR_REGIONS, 4, c->nr_regions);
	}
	for (i = 0; i < s->nr_regions; i++) {
		const struct hvc_region_desc *r = &s->regions[i];

		q = p + regions_off + i * HVC_BLOB_REGION_SIZE;
		hvc_put_le(q + HVC_REGION_OFF_CELL_BASE, 8, r->cell_base);
		hvc_put_le(q + HVC_REGION_OFF_HOST_BASE, 8, r->host_base);
		hvc_put_le(q + HVC_REGION_OFF_HOST_SIZE, 8, r->host_size);
		hvc_put_le(q + HVC_REGION_OFF_CELL_SIZE, 8, r->cell_size);
		hvc_put_le(q + HVC_REGION_OFF_FLAGS, 4, r->flags);
	}
	*len = (hvc_size)total;
	return 0;
}

/* Header checks, in the order a reader can make them safely. */
static int parse_header(struct hvc_system *s, const hvc_u8 *p, hvc_size len,
			struct hvc_error *err)
{
	hvc_u64 want;
	int ret;

	if (len < HVC_BLOB_HDR_SIZE)
		return hvc_error_fill(err, -HVC_EBADMSG, -1, -1, 0, "header",
				  "truncated: shorter than the header");
	if (hvc_get_le(p + HVC_BLOB_OFF_MAGIC, 4) != HVC_BLOB_MAGIC)
		return hvc_error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_MAGIC,
				  "header.magic", "not a cell-colors blob");
	/* the format's revision: see include/colorguard/cell_blob.h */
	if (hvc_get_le(p + HVC_BLOB_OFF_VERSION, 2) != HVC_BLOB_VERSION)
		return hvc_error_fill(err, -HVC_EPROTO, -1, -1, HVC_BLOB_OFF_VERSION,
				  "header.version",
				  "unsupported revision: this parser reads " HVC_BLOB_REV);
	if (hvc_get_le(p + HVC_BLOB_OFF_HDR_SIZE, 2) != HVC_BLOB_HDR_SIZE)
		return hvc_error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_HDR_SIZE,
				  "header.header_size", "wrong header size for " HVC_BLOB_REV);
	want = hvc_get_le(p + HVC_BLOB_OFF_TOTAL_SIZE, 4);
	if (want != len)
		return hvc_error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_TOTAL_SIZE,
				  "header.total_size", want > len ?
				  "truncated: shorter than total_size" :
				  "trailing bytes after total_size");
	if (hvc_get_le(p + HVC_BLOB_OFF_FLAGS, 4))
		return hvc_error_fill(err, -HVC_EINVAL, -1, -1, HVC_BLOB_OFF_FLAGS,
				  "header.flags", "unknown flags");
	if (hvc_get_le(p + HVC_BLOB_OFF_RESERVED, 4))
		return hvc_error_fill(err, -HVC_EINVAL, -1, -1, HVC_BLOB_OFF_RESERVED,
				  "header.reserved", "reserved field not zero");
	ret = hvc_geometry_from_way_size(&s->geo,
					 hvc_get_le(p + HVC_BLOB_OFF_WAY_SIZE, 8),
					 (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_LINE_SIZE, 4),
					 (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_NR_WAYS, 4),
					 (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_PAGE_SHIFT, 4),
					 (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_PAGES_PER_COLOR, 4));
	if (ret)
		return hvc_error_fill(err, ret, -1, -1, HVC_BLOB_OFF_WAY_SIZE,
				  "header.geometry", "invalid LLC geometry");
	if (hvc_get_le(p + HVC_BLOB_OFF_NR_COLORS, 4) != s->geo.nr_colors)
		return hvc_error_fill(err, -HVC_EINVAL, -1, -1, HVC_BLOB_OFF_NR_COLORS,
				  "header.nr_colors", "does not match the geometry");
	s->nr_cells = (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_NR_CELLS, 4);
	if (!s->nr_cells)
		return hvc_error_fill(err, -HVC_EINVAL, -1, -1, HVC_BLOB_OFF_NR_CELLS,
				  "header.nr_cells", "no cells");
	if (s->nr_cells > HVC_MAX_CELLS)
		return hvc_error_fill(err, -HVC_E2BIG, -1, -1, HVC_BLOB_OFF_NR_CELLS,
				  "header.nr_cells", "more cells than HVC_MAX_CELLS");
	s->nr_regions = (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_NR_REGIONS, 4);
	if (s->nr_regions > HVC_MAX_REGIONS)
		return hvc_error_fill(err, -HVC_E2BIG, -1, -1, HVC_BLOB_OFF_NR_REGIONS,
				  "header.nr_regions", "more regions than HVC_MAX_REGIONS");
	if (hvc_get_le(p + HVC_BLOB_OFF_CELL_SIZE, 4) != HVC_BLOB_CELL_SIZE)
		return hvc_error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_CELL_SIZE,
				  "header.cell_size", "wrong cell record size");
	if (hvc_get_le(p + HVC_BLOB_OFF_REGION_SIZE, 4) != HVC_BLOB_REGION_SIZE)
		return hvc_error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_REGION_SIZE,
				  "header.region_size", "wrong region record size");
	if (hvc_get_le(p + HVC_BLOB_OFF_CELLS_OFFSET, 4) != HVC_BLOB_HDR_SIZE)
		return hvc_error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_CELLS_OFFSET,
				  "header.cells_offset", "cells must follow the header");
	want = HVC_BLOB_HDR_SIZE + s->nr_cells * HVC_BLOB_CELL_SIZE;
	if (hvc_get_le(p + HVC_BLOB_OFF_REGIONS_OFFSET, 4) != want)
		return hvc_error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_REGIONS_OFFSET,
				  "header.regions_offset", "regions must follow the cells");
	if (len != want + s->nr_regions * HVC_BLOB_REGION_SIZE)
		return hvc_error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_TOTAL_SIZE,
				  "header.total_size", "does not match the cell and region counts");
	get_mask(&s->hv_colors, p + HVC_BLOB_OFF_HV_COLORS);
	return 0;
}

static int parse_cell(struct hvc_system *s, const hvc_u8 *p, hvc_u32 i,
		      hvc_u32 *next_region, struct hvc_error *err)
{
	hvc_u32 off = HVC_BLOB_HDR_SIZE + i * HVC_BLOB_CELL_SIZE, j, end = 0;
	struct hvc_cell_desc *c = &s->cells[i];
	const hvc_u8 *q = p + off;
	int junk = 0;

	for (j = 0; j < HVC_NAME_LEN; j++) {
		c->name[j] = (char)q[HVC_CELL_OFF_NAME + j];
		if (!end && !q[HVC_CELL_OFF_NAME + j])
			end = j + 1;
		else if (end && q[HVC_CELL_OFF_NAME + j])
			junk = 1;
	}
	if (!end)
		return hvc_error_fill(err, -HVC_EINVAL, i, -1, off, "name",
				  "not NUL-terminated");
	if (junk)
		return hvc_error_fill(err, -HVC_EINVAL, i, -1, off, "name",
				  "bytes after the terminating NUL");
	get_mask(&c->cpus, q + HVC_CELL_OFF_CPUS);
	get_mask(&c->colors, q + HVC_CELL_OFF_COLORS);
	c->flags = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_FLAGS, 4);
	c->read_mbps = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_READ_MBPS, 4);
	c->write_mbps = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_WRITE_MBPS, 4);
	c->first_region = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_FIRST_REGION, 4);
	c->nr_regions = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_NR_REGIONS, 4);
	if (c->flags & ~HVC_CELL_FLAGS_ALL)
		return hvc_error_fill(err, -HVC_EINVAL, i, -1, off + HVC_CELL_OFF_FLAGS,
				  "flags", "unknown flags");
	if (hvc_get_le(q + HVC_CELL_OFF_RESERVED, 4))
		return hvc_error_fill(err, -HVC_EINVAL, i, -1, off + HVC_CELL_OFF_RESERVED,
				  "reserved", "reserved field not zero");
	if (c->first_region != *next_region)
		return hvc_error_fill(err, -HVC_EBADMSG, i, -1,
				  off + HVC_CELL_OFF_FIRST_REGION, "first_region",
				  "regions overlap another cell's or leave a gap");
	if (c->nr_regions > s->nr_regions - *next_region)
		return hvc_error_fill(err, -HVC_EBADMSG, i, -1,
				  off + HVC_CELL_OFF_NR_REGIONS, "nr_regions",
				  "runs past the region table");
	*next_region += c->nr_regions;
	return 0;
}

/* Region n of cell i, whose region range parse_cell() has checked */
static int parse_region(struct hvc_system *s, const hvc_u8 *p, hvc_u32 i,
			hvc_u32 n, struct hvc_error *err)
{
	struct hvc_region_desc *r = &s->regions[s->cells[i].first_region + n];
	hvc_u32 off = HVC_BLOB_HDR_SIZE + s->nr_cells * HVC_BLOB_CELL_SIZE +
		      (s->cells[i].first_region + n) * HVC_BLOB_REGION_SIZE;
	const hvc_u8 *q = p + off;

	r->cell_base = hvc_get_le(q + HVC_REGION_OFF_CELL_BASE, 8);
	r->host_base = hvc_get_le(q + HVC_REGION_OFF_HOST_BASE, 8);
	r->host_size = hvc_get_le(q + HVC_REGION_OFF_HOST_SIZE, 8);
	r->cell_size = hvc_get_le(q + HVC_REGION_OFF_CELL_SIZE, 8);
	r->flags = (hvc_u32)hvc_get_le(q + HVC_REGION_OFF_FLAGS, 4);
	if (r->flags & ~HVC_REGION_FLAGS_ALL)
		return hvc_error_fill(err, -HVC_EINVAL, i, n, off + HVC_REGION_OFF_FLAGS,
				  "region.flags", "unknown flags");
	if (hvc_get_le(q + HVC_REGION_OFF_RESERVED, 4))
		return hvc_error_fill(err, -HVC_EINVAL, i, n, off + HVC_REGION_OFF_RESERVED,
				  "region.reserved", "reserved field not zero");
	return 0;
}

int hvc_blob_parse(struct hvc_system *s, const void *buf, hvc_size len,
		   struct hvc_error *err)
{
	hvc_u32 i, j, next = 0;
	int ret;

	if (!buf)
		return hvc_error_fill(err, -HVC_EINVAL, -1, -1, 0, "header", "no blob");
	ret = parse_header(s, buf, len, err);
	for (i = 0; !ret && i < s->nr_cells; i++) {
		ret = parse_cell(s, buf, i, &next, err);
		for (j = 0; !ret && j < s->cells[i].nr_regions; j++)
			ret = parse_region(s, buf, i, j, err);
	}
	if (!ret && next != s->nr_regions)
		ret = hvc_error_fill(err, -HVC_EBADMSG, -1, -1,
				     HVC_BLOB_OFF_NR_REGIONS, "header.nr_regions",
				     "regions owned by no cell");
	if (ret && err && err->cell >= 0)
		hvc_name_copy(err->cell_name, s->cells[err->cell].name);
	return ret;
}
