// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color's errors in the tool's words: a one-line reason for a bad way
 * size, list, region or system, and decode's listing of a blob. No color
 * math here, and no types of its own: the tool holds hv-color's.
 */
#include <stdlib.h>
#include <string.h>

#include <colorguard/hv_color.h>

#include "hv.h"

int cg_hv_geometry(uint64_t way_size, uint64_t line_size,
		   unsigned int pages_per_color, struct hvc_geometry *g,
		   char *why, size_t len)
{
	int ret;

	ret = hvc_geometry_from_way_size(g, way_size, line_size, 0,
					 CG_PAGE_SHIFT, pages_per_color);
	if (ret) {
		snprintf(why, len,
			 "way size %llu: hv-color needs a power of two that gives 2 to %u colors of %u x 4K (%s)",
			 (unsigned long long)way_size, HVC_MAX_COLORS,
			 pages_per_color, strerror(-ret));
		return -1;
	}
	return 0;
}

int cg_hv_mask_parse(struct hvc_mask *m, const char *s, unsigned int nbits,
		     char *why, size_t len)
{
	struct hvc_parse_error err = { 0 };

	if (!hvc_mask_parse(m, s, strlen(s), nbits, &err))
		return 0;
	snprintf(why, len, "\"%.40s\" at position %u: %s", s, err.pos,
		 err.reason ? err.reason : strerror(-err.code));
	if (err.code == -HVC_ERANGE) {
		size_t used = strlen(why);

		snprintf(why + used, len - used, " (0-%u)", nbits - 1);
	}
	return -1;
}

int cg_hv_region(const struct hvc_geometry *g, const struct hvc_mask *m,
		 uint64_t base, uint64_t want, uint64_t *span,
		 uint64_t *cell_size, uint64_t *extents, char *why, size_t len)
{
	char a[32], page[32], way[32];
	struct hvc_region *r;
	hvc_u64 v;
	int ret;

	cg_size_str(1ull << g->page_shift, page, sizeof(page));
	cg_size_str(g->way_size, way, sizeof(way));
	if (!*span) {
		ret = hvc_span_for_size(g, m, want, &v);
		if (ret) {
			cg_size_str(want, a, sizeof(a));
			if (ret == -HVC_EINVAL)
				snprintf(why, len, "size %s is not a multiple of the page size (%s)",
					 a, page);
			else
				snprintf(why, len, "size %s needs a span beyond the 52-bit physical limit",
					 a);
			return -1;
		}
		*span = v;
	}
	ret = hvc_size_for_span(g, m, *span, &v);
	if (ret) {
		/* every color: whole pages; fewer: whole way blocks */
		cg_size_str(*span, a, sizeof(a));
		if (ret != -HVC_EINVAL)
			snprintf(why, len, "span %s ends beyond the 52-bit physical limit",
				 a);
		else if (hvc_mask_weight(m) == g->nr_colors)
			snprintf(why, len, "span %s is not a multiple of the page size (%s)",
				 a, page);
		else
			snprintf(why, len, "span %s is not a whole number of way blocks (%s)",
				 a, way);
		return -1;
	}
	*cell_size = v;
	*extents = 0;
	/* The system check says what is wrong with a short span. */
	if (v < want)
		return 0;
	r = malloc(sizeof(*r));
	if (!r) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	ret = hvc_region_init(r, g, m, base, base, want);
	if (!ret)
		*extents = hvc_region_nr_extents(r);
	free(r);
	/* hv-color's validator reports a misaligned or oversized region. */
	return 0;
}

int cg_hv_sys_validate(const struct hvc_system *s, cg_hv_report_fn report,
		       void *ctx)
{
	enum { MAX_ERRS = 256 };
	struct hvc_error *errs = calloc(MAX_ERRS, sizeof(*errs));
	hvc_u32 nr = 0, i;
	char reason[160];
	int ret;

	if (!errs) {
		report(ctx, -1, -1, NULL, "out of memory");
		return -1;
	}
	ret = hvc_system_validate(s, errs, MAX_ERRS, &nr);
	for (i = 0; i < nr && i < MAX_ERRS; i++) {
		const struct hvc_error *e = &errs[i];

		if (e->other_cell >= 0 && e->other_name[0])
			snprintf(reason, sizeof(reason), "%s (cell \"%s\")",
				 e->msg, e->other_name);
		else
			snprintf(reason, sizeof(reason), "%s", e->msg);
		report(ctx, e->cell, e->region, e->field, reason);
	}
	free(errs);
	return ret ? -1 : 0;
}

int cg_hv_sys_blob(const struct hvc_system *s, void **buf, size_t *len)
{
	hvc_s64 size = hvc_blob_size(s);
	hvc_size got;

	if (size <= 0)
		return -1;
	*buf = malloc(size);
	if (!*buf)
		return -1;
	if (hvc_blob_write(s, *buf, size, &got)) {
		free(*buf);
		return -1;
	}
	*len = got;
	return 0;
}

static void show_mask(FILE *out, const char *what, const struct hvc_mask *m)
{
	char list[HVC_MASK_LIST_MAX];

	if (hvc_mask_format(m, list, sizeof(list)) < 0)
		list[0] = '\0';
	fprintf(out, " %s %s", what, list[0] ? list : "none");
}

int cg_hv_blob_show(FILE *out, const void *buf, size_t len, char *why,
		    size_t why_len)
{
	struct hvc_system *s = malloc(sizeof(*s));
	struct hvc_error err;
	hvc_u32 i, j, nr = 0;
	char a[32], b[32];

	if (!s) {
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	memset(&err, 0, sizeof(err));
	if (hvc_blob_parse(s, buf, len, &err)) {
		hvc_error_format(&err, why, why_len);
		if (err.code == -HVC_EPROTO) {
			const unsigned char *v = (const unsigned char *)buf +
						 HVC_BLOB_OFF_VERSION;
			size_t used = strlen(why);

			snprintf(why + used, why_len - used,
				 " (this blob: revision %u)", v[0] | v[1] << 8);
		}
		free(s);
		return -1;
	}
	memset(&err, 0, sizeof(err));
	if (hvc_system_validate(s, &err, 1, &nr)) {
		hvc_error_format(&err, why, why_len);
		free(s);
		return -1;
	}
	cg_size_str(s->geo.way_size, a, sizeof(a));
	fprintf(out, "blob: revision %u, %zu bytes, way %s, %u colors, line %u\n",
		HVC_BLOB_VERSION, len, a, s->geo.nr_colors, s->geo.line_size);
	fprintf(out, "hypervisor");
	show_mask(out, "colors", &s->hv_colors);
	fputc('\n', out);
	for (i = 0; i < s->nr_cells; i++) {
		const struct hvc_cell_desc *c = &s->cells[i];

		fprintf(out, "cell \"%.*s\" %s", HVC_NAME_LEN - 1, c->name,
			c->flags & HVC_CELL_ROOT ? "root" :
			c->flags & HVC_CELL_CRITICAL ? "critical" : "normal");
		show_mask(out, "cpus", &c->cpus);
		show_mask(out, "colors", &c->colors);
		if (c->read_mbps)
			fprintf(out, " read %u", c->read_mbps);
		if (c->write_mbps)
			fprintf(out, " write %u", c->write_mbps);
		fputc('\n', out);
		for (j = 0; j < c->nr_regions; j++) {
			const struct hvc_region_desc *r =
				&s->regions[c->first_region + j];

			cg_size_str(r->cell_size, a, sizeof(a));
			cg_size_str(r->host_size, b, sizeof(b));
			fprintf(out, "  %s cell 0x%llx +%s host 0x%llx +%s\n",
				r->flags & HVC_REGION_COLORED ? "colored" : "uncolored",
				(unsigned long long)r->cell_base, a,
				(unsigned long long)r->host_base, b);
		}
	}
	free(s);
	return 0;
}
