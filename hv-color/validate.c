// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color: the whole-system validator. It collects every problem of a
 * system (from the tool's config or a parsed blob) rather than stopping
 * at the first, so that `colorguard check` can list them all.
 */
#include "hvc_internal.h"

/* The validation context: where the problems go, and how many came. */
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
	hvc_error_fill(e, code, cell, region, 0, field, msg);
	e->other_cell = other;
	if (cell >= 0)
		hvc_name_copy(e->cell_name, v->s->cells[cell].name);
	if (other >= 0)
		hvc_name_copy(e->other_name, v->s->cells[other].name);
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
