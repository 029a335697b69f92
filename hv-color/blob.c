// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color: the cell-colors blob (writer, hostile-input parser) and the
 * whole-system validator.
 */
#include "hvc_internal.h"

/* A printable copy of a name; "" for one without its NUL */
static void name_copy(char *dst, const char *src)
{
	hvc_u32 i;

	for (i = 0; i < HVC_NAME_LEN && src[i]; i++)
		dst[i] = (src[i] >= ' ' && src[i] <= '~') ? src[i] : '?';
	dst[i < HVC_NAME_LEN ? i : 0] = '\0';
}

/* Fills e, if any, without names or other cell; returns code */
static int error_fill(struct hvc_error *e, int code, int cell, int region,
		      hvc_u32 offset, const char *field, const char *msg)
{
	if (e) {
		e->code = code;
		e->cell = cell;
		e->region = region;
		e->other_cell = -1;
		e->offset = offset;
		e->field = field;
		e->msg = msg;
		e->cell_name[0] = '\0';
		e->other_name[0] = '\0';
	}
	return code;
}

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
		return error_fill(err, -HVC_EBADMSG, -1, -1, 0, "header",
				  "truncated: shorter than the header");
	if (hvc_get_le(p + HVC_BLOB_OFF_MAGIC, 4) != HVC_BLOB_MAGIC)
		return error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_MAGIC,
				  "header.magic", "not a cell-colors blob");
	if (hvc_get_le(p + HVC_BLOB_OFF_VERSION, 2) != HVC_BLOB_VERSION)
		return error_fill(err, -HVC_EPROTO, -1, -1, HVC_BLOB_OFF_VERSION,
				  "header.version", "unknown version");
	if (hvc_get_le(p + HVC_BLOB_OFF_HDR_SIZE, 2) != HVC_BLOB_HDR_SIZE)
		return error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_HDR_SIZE,
				  "header.header_size", "wrong header size for version 1");
	want = hvc_get_le(p + HVC_BLOB_OFF_TOTAL_SIZE, 4);
	if (want != len)
		return error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_TOTAL_SIZE,
				  "header.total_size", want > len ?
				  "truncated: shorter than total_size" :
				  "trailing bytes after total_size");
	if (hvc_get_le(p + HVC_BLOB_OFF_FLAGS, 4))
		return error_fill(err, -HVC_EINVAL, -1, -1, HVC_BLOB_OFF_FLAGS,
				  "header.flags", "unknown flags");
	if (hvc_get_le(p + HVC_BLOB_OFF_RESERVED, 4))
		return error_fill(err, -HVC_EINVAL, -1, -1, HVC_BLOB_OFF_RESERVED,
				  "header.reserved", "reserved field not zero");
	ret = hvc_geometry_from_way_size(&s->geo,
					 hvc_get_le(p + HVC_BLOB_OFF_WAY_SIZE, 8),
					 (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_LINE_SIZE, 4),
					 (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_NR_WAYS, 4),
					 (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_PAGE_SHIFT, 4),
					 (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_PAGES_PER_COLOR, 4));
	if (ret)
		return error_fill(err, ret, -1, -1, HVC_BLOB_OFF_WAY_SIZE,
				  "header.geometry", "invalid LLC geometry");
	if (hvc_get_le(p + HVC_BLOB_OFF_NR_COLORS, 4) != s->geo.nr_colors)
		return error_fill(err, -HVC_EINVAL, -1, -1, HVC_BLOB_OFF_NR_COLORS,
				  "header.nr_colors", "does not match the geometry");
	s->nr_cells = (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_NR_CELLS, 4);
	if (!s->nr_cells)
		return error_fill(err, -HVC_EINVAL, -1, -1, HVC_BLOB_OFF_NR_CELLS,
				  "header.nr_cells", "no cells");
	if (s->nr_cells > HVC_MAX_CELLS)
		return error_fill(err, -HVC_E2BIG, -1, -1, HVC_BLOB_OFF_NR_CELLS,
				  "header.nr_cells", "more cells than HVC_MAX_CELLS");
	s->nr_regions = (hvc_u32)hvc_get_le(p + HVC_BLOB_OFF_NR_REGIONS, 4);
	if (s->nr_regions > HVC_MAX_REGIONS)
		return error_fill(err, -HVC_E2BIG, -1, -1, HVC_BLOB_OFF_NR_REGIONS,
				  "header.nr_regions", "more regions than HVC_MAX_REGIONS");
	if (hvc_get_le(p + HVC_BLOB_OFF_CELL_SIZE, 4) != HVC_BLOB_CELL_SIZE)
		return error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_CELL_SIZE,
				  "header.cell_size", "wrong cell record size");
	if (hvc_get_le(p + HVC_BLOB_OFF_REGION_SIZE, 4) != HVC_BLOB_REGION_SIZE)
		return error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_REGION_SIZE,
				  "header.region_size", "wrong region record size");
	if (hvc_get_le(p + HVC_BLOB_OFF_CELLS_OFFSET, 4) != HVC_BLOB_HDR_SIZE)
		return error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_CELLS_OFFSET,
				  "header.cells_offset", "cells must follow the header");
	want = HVC_BLOB_HDR_SIZE + s->nr_cells * HVC_BLOB_CELL_SIZE;
	if (hvc_get_le(p + HVC_BLOB_OFF_REGIONS_OFFSET, 4) != want)
		return error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_REGIONS_OFFSET,
				  "header.regions_offset", "regions must follow the cells");
	if (len != want + s->nr_regions * HVC_BLOB_REGION_SIZE)
		return error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_TOTAL_SIZE,
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
		return error_fill(err, -HVC_EINVAL, i, -1, off, "name",
				  "not NUL-terminated");
	if (junk)
		return error_fill(err, -HVC_EINVAL, i, -1, off, "name",
				  "bytes after the terminating NUL");
	get_mask(&c->cpus, q + HVC_CELL_OFF_CPUS);
	get_mask(&c->colors, q + HVC_CELL_OFF_COLORS);
	c->flags = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_FLAGS, 4);
	c->read_mbps = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_READ_MBPS, 4);
	c->write_mbps = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_WRITE_MBPS, 4);
	c->first_region = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_FIRST_REGION, 4);
	c->nr_regions = (hvc_u32)hvc_get_le(q + HVC_CELL_OFF_NR_REGIONS, 4);
	if (c->flags & ~HVC_CELL_FLAGS_ALL)
		return error_fill(err, -HVC_EINVAL, i, -1, off + HVC_CELL_OFF_FLAGS,
				  "flags", "unknown flags");
	if (hvc_get_le(q + HVC_CELL_OFF_RESERVED, 4))
		return error_fill(err, -HVC_EINVAL, i, -1, off + HVC_CELL_OFF_RESERVED,
				  "reserved", "reserved field not zero");
	if (c->first_region != *next_region)
		return error_fill(err, -HVC_EBADMSG, i, -1,
				  off + HVC_CELL_OFF_FIRST_REGION, "first_region",
				  "regions overlap another cell's or leave a gap");
	if (c->nr_regions > s->nr_regions - *next_region)
		return error_fill(err, -HVC_EBADMSG, i, -1,
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
		return error_fill(err, -HVC_EINVAL, i, n, off + HVC_REGION_OFF_FLAGS,
				  "region.flags", "unknown flags");
	if (hvc_get_le(q + HVC_REGION_OFF_RESERVED, 4))
		return error_fill(err, -HVC_EINVAL, i, n, off + HVC_REGION_OFF_RESERVED,
				  "region.reserved", "reserved field not zero");
	return 0;
}

int hvc_blob_parse(struct hvc_system *s, const void *buf, hvc_size len,
		   struct hvc_error *err)
{
	hvc_u32 i, j, next = 0;
	int ret;

	if (!buf)
		return error_fill(err, -HVC_EINVAL, -1, -1, 0, "header", "no blob");
	ret = parse_header(s, buf, len, err);
	for (i = 0; !ret && i < s->nr_cells; i++) {
		ret = parse_cell(s, buf, i, &next, err);
		for (j = 0; !ret && j < s->cells[i].nr_regions; j++)
			ret = parse_region(s, buf, i, j, err);
	}
	if (!ret && next != s->nr_regions)
		ret = error_fill(err, -HVC_EBADMSG, -1, -1, HVC_BLOB_OFF_NR_REGIONS,
				 "header.nr_regions", "regions owned by no cell");
	if (ret && err && err->cell >= 0)
		name_copy(err->cell_name, s->cells[err->cell].name);
	return ret;
}

/* Validator: collects every problem. */
struct vctx {
	const struct hvc_system *s;
	struct hvc_error *errs;
	hvc_u32 max, n;
	int first;
};

static void report(struct vctx *v, int code, int cell, int region, int other,
		   const char *field, const char *msg)
{
	struct hvc_error *e;

	if (!v->first)
		v->first = code;
	if (v->n++ >= v->max)
		return;
	e = &v->errs[v->n - 1];
	error_fill(e, code, cell, region, 0, field, msg);
	e->other_cell = other;
	if (cell >= 0)
		name_copy(e->cell_name, v->s->cells[cell].name);
	if (other >= 0)
		name_copy(e->other_name, v->s->cells[other].name);
}

static int name_ok(const char *n)
{
	hvc_u32 i;

	for (i = 0; i < HVC_NAME_LEN && n[i]; i++) {
		char ch = n[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-'))
			return 0;
	}
	return i > 0 && i < HVC_NAME_LEN;
}

static int names_equal(const char *a, const char *b)
{
	hvc_u32 i;

	for (i = 0; i < HVC_NAME_LEN && a[i] && a[i] == b[i]; i++)
		;
	return i == HVC_NAME_LEN || a[i] == b[i];
}

/* Wrap-safe: the ranges may come from a hostile blob. */
static int ranges_overlap(hvc_u64 a, hvc_u64 alen, hvc_u64 b, hvc_u64 blen)
{
	if (!alen || !blen)
		return 0;
	return a >= b ? a - b < blen : b - a < alen;
}

static void check_cell(struct vctx *v, hvc_u32 i)
{
	const struct hvc_system *s = v->s;
	const struct hvc_cell_desc *c = &s->cells[i];

	if (!name_ok(c->name))
		report(v, -HVC_EINVAL, i, -1, -1, "name",
		       "empty, too long or not [A-Za-z0-9_.-]");
	if (c->flags & ~HVC_CELL_FLAGS_ALL)
		report(v, -HVC_EINVAL, i, -1, -1, "flags", "unknown flags");
	if ((c->flags & HVC_CELL_FLAGS_ALL) == HVC_CELL_FLAGS_ALL)
		report(v, -HVC_EINVAL, i, -1, -1, "flags",
		       "the root cell cannot be critical");
	if (hvc_mask_empty(&c->cpus))
		report(v, -HVC_EINVAL, i, -1, -1, "cpus", "no CPUs");
	if (hvc_mask_empty(&c->colors))
		report(v, -HVC_EINVAL, i, -1, -1, "colors", "no colors");
	else if (!hvc_mask_fits(&c->colors, s->geo.nr_colors))
		report(v, -HVC_ERANGE, i, -1, -1, "colors",
		       "color beyond the geometry's colors");
	if (hvc_mask_intersects(&c->colors, &s->hv_colors))
		report(v, -HVC_EINVAL, i, -1, -1, "colors",
		       "shares colors with the hypervisor");
	if (c->read_mbps > CG_MBPS_MAX)
		report(v, -HVC_ERANGE, i, -1, -1, "read_mbps", "above CG_MBPS_MAX");
	if (c->write_mbps > CG_MBPS_MAX)
		report(v, -HVC_ERANGE, i, -1, -1, "write_mbps", "above CG_MBPS_MAX");
	if (c->flags & HVC_CELL_CRITICAL && (c->read_mbps || c->write_mbps))
		report(v, -HVC_EINVAL, i, -1, -1,
		       c->read_mbps ? "read_mbps" : "write_mbps",
		       "critical cells are never throttled: budget must be 0");
}

static void check_pair(struct vctx *v, hvc_u32 i, hvc_u32 j)
{
	const struct hvc_cell_desc *a = &v->s->cells[i], *b = &v->s->cells[j];
	hvc_u32 roots = !!(a->flags & HVC_CELL_ROOT) + !!(b->flags & HVC_CELL_ROOT);
	int critical = (a->flags | b->flags) & HVC_CELL_CRITICAL;

	if (names_equal(a->name, b->name))
		report(v, -HVC_EEXIST, j, -1, i, "name", "same name as another cell");
	if (hvc_mask_intersects(&a->cpus, &b->cpus))
		report(v, -HVC_EINVAL, j, -1, i, "cpus", "shares CPUs with another cell");
	if (!hvc_mask_intersects(&a->colors, &b->colors))
		return;
	if (!roots)
		report(v, -HVC_EINVAL, j, -1, i, "colors",
		       "shares colors with another cell");
	else if (critical)
		report(v, -HVC_EINVAL, j, -1, i, "colors",
		       "root cell shares colors with a critical cell");
}

static void check_region(struct vctx *v, hvc_u32 i, hvc_u32 n)
{
	const struct hvc_system *s = v->s;
	const struct hvc_cell_desc *c = &s->cells[i];
	const struct hvc_region_desc *r = &s->regions[c->first_region + n];
	hvc_u64 page_mask = (1ull << s->geo.page_shift) - 1, span;
	int bad_size = !r->cell_size || r->cell_size & page_mask, ret;
	hvc_u32 k = hvc_mask_weight(&c->colors);

	if (r->flags & ~HVC_REGION_FLAGS_ALL) {
		report(v, -HVC_EINVAL, i, n, -1, "flags", "unknown region flags");
		return;
	}
	if (bad_size)
		report(v, -HVC_EINVAL, i, n, -1, "cell_size",
		       "zero or not a multiple of the page size");
	if ((r->cell_base | r->host_base) & page_mask)
		report(v, -HVC_EINVAL, i, n, -1,
		       r->cell_base & page_mask ? "cell_base" : "host_base",
		       "not page aligned");
	if (r->cell_base >= HVC_PA_LIMIT ||
	    r->cell_size > HVC_PA_LIMIT - r->cell_base)
		report(v, -HVC_ERANGE, i, n, -1, "cell_base",
		       "region ends above the 52-bit physical limit");
	if (r->host_base >= HVC_PA_LIMIT ||
	    r->host_size > HVC_PA_LIMIT - r->host_base)
		report(v, -HVC_ERANGE, i, n, -1, "host_size",
		       "region ends above the 52-bit physical limit");
	if (!(r->flags & HVC_REGION_COLORED)) {
		if (r->host_size != r->cell_size)
			report(v, -HVC_EINVAL, i, n, -1, "host_size",
			       "uncolored region: must equal cell_size");
		return;
	}
	if (k < s->geo.nr_colors && r->host_base & (s->geo.way_size - 1))
		report(v, -HVC_EINVAL, i, n, -1, "host_base",
		       "colored region not aligned to the way size");
	/* a bad size or mask is reported already */
	if (bad_size || !k || !hvc_mask_fits(&c->colors, s->geo.nr_colors))
		return;
	ret = hvc_span_for_size(&s->geo, &c->colors, r->cell_size, &span);
	if (ret)
		report(v, ret, i, n, -1, "cell_size",
		       "no host span can back it with these colors");
	else if (span > r->host_size)
		report(v, -HVC_EINVAL, i, n, -1, "host_size",
		       "too small for cell_size with these colors");
}

/* Host ranges may be shared only by colored regions of disjoint colors. */
static void check_overlaps(struct vctx *v, const hvc_u8 *owner)
{
	const struct hvc_system *s = v->s;
	hvc_u32 x, y, i, j, n;

	for (x = 0; x < s->nr_regions; x++) {
		const struct hvc_region_desc *a = &s->regions[x];

		for (y = x + 1; y < s->nr_regions; y++) {
			const struct hvc_region_desc *b = &s->regions[y];

			i = owner[x];
			j = owner[y];
			n = y - s->cells[j].first_region;
			if (i == j && ranges_overlap(a->cell_base, a->cell_size,
						     b->cell_base, b->cell_size))
				report(v, -HVC_EINVAL, i, n, -1, "cell_base",
				       "overlaps another region of the cell");
			if (!ranges_overlap(a->host_base, a->host_size,
					    b->host_base, b->host_size))
				continue;
			if (i == j)
				report(v, -HVC_EINVAL, i, n, -1, "host_base",
				       "host memory overlaps another region of the cell");
			else if (!(a->flags & b->flags & HVC_REGION_COLORED) ||
				 hvc_mask_intersects(&s->cells[i].colors, &s->cells[j].colors))
				report(v, -HVC_EINVAL, j, n, i, "host_base",
				       "host memory shared with another cell");
		}
	}
}

int hvc_system_validate(const struct hvc_system *s, struct hvc_error *errs,
			hvc_u32 max_errs, hvc_u32 *nr_errs)
{
	struct vctx v = { .s = s, .errs = errs, .max = errs ? max_errs : 0 };
	hvc_u8 owner[HVC_MAX_REGIONS];	/* region -> cell (in v, it is memset) */
	struct hvc_geometry g;
	hvc_u32 i, j, next = 0, roots = 0;

	/* the structure first: the first problem there ends the checks */
	if (hvc_geometry_from_way_size(&g, s->geo.way_size, s->geo.line_size,
				       s->geo.nr_ways, s->geo.page_shift,
				       1u << (s->geo.gran_shift & 31)) ||
	    g.nr_colors != s->geo.nr_colors || g.chunk_shift != s->geo.chunk_shift)
		report(&v, -HVC_EINVAL, -1, -1, -1, "geometry", "invalid LLC geometry");
	else if (!s->nr_cells || s->nr_cells > HVC_MAX_CELLS ||
		 s->nr_regions > HVC_MAX_REGIONS)
		report(&v, -HVC_E2BIG, -1, -1, -1, "nr_cells",
		       "no cells, or more cells or regions than the limits");
	for (i = 0; !v.n && i < s->nr_cells; next += s->cells[i++].nr_regions)
		if (s->cells[i].first_region != next ||
		    s->cells[i].nr_regions > s->nr_regions - next)
			report(&v, -HVC_EINVAL, i, -1, -1, "regions",
			       "region ranges must follow each other in cell order");
	if (!v.n && next != s->nr_regions)
		report(&v, -HVC_EINVAL, -1, -1, -1, "regions", "regions owned by no cell");
	if (v.n)
		goto out;
	if (!hvc_mask_fits(&s->hv_colors, s->geo.nr_colors))
		report(&v, -HVC_ERANGE, -1, -1, -1, "hv_colors",
		       "color beyond the geometry's colors");
	for (i = 0; i < s->nr_cells; i++) {
		if (s->cells[i].flags & HVC_CELL_ROOT && roots++)
			report(&v, -HVC_EINVAL, i, -1, -1, "flags",
			       "more than one root cell");
		check_cell(&v, i);
		for (j = 0; j < s->cells[i].nr_regions; j++) {
			owner[s->cells[i].first_region + j] = (hvc_u8)i;
			check_region(&v, i, j);
		}
	}
	if (!roots)
		report(&v, -HVC_EINVAL, -1, -1, -1, "flags", "no root cell");
	for (i = 0; i < s->nr_cells; i++)
		for (j = i + 1; j < s->nr_cells; j++)
			check_pair(&v, i, j);
	check_overlaps(&v, owner);
out:
	if (nr_errs)
		*nr_errs = v.n;
	return v.first;
}

static void sb_cell(struct hvc_sbuf *b, int cell, const char *name)
{
	hvc_sb_num(b, "cell ", (hvc_u32)cell);
	if (name[0]) {
		hvc_sb_str(b, " '");
		hvc_sb_str(b, name);
		hvc_sb_str(b, "'");
	}
}

int hvc_error_format(const struct hvc_error *e, char *buf, hvc_size size)
{
	struct hvc_sbuf b = { .buf = buf, .size = size };

	if (e->cell >= 0) {
		sb_cell(&b, e->cell, e->cell_name);
		hvc_sb_str(&b, " ");
	}
	if (e->region >= 0) {
		hvc_sb_num(&b, "region ", (hvc_u32)e->region);
		hvc_sb_str(&b, " ");
	}
	hvc_sb_str(&b, e->field ? e->field : "?");
	hvc_sb_str(&b, ": ");
	hvc_sb_str(&b, e->msg ? e->msg : "?");
	if (e->other_cell >= 0) {
		hvc_sb_str(&b, " (");
		sb_cell(&b, e->other_cell, e->other_name);
		hvc_sb_str(&b, ")");
	}
	if (e->offset)
		hvc_sb_num(&b, " at byte ", e->offset);
	return hvc_sb_end(&b);
}
