// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color host tests: cell-colors blob round trips, malformed blobs and
 * the whole-system validator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <colorguard/hv_color.h>
#include "kselftest_harness.h"

#define MIB (1ull << 20)

static struct hvc_system sys, back;
static unsigned char blob[HVC_BLOB_MAX_SIZE + 64], blob2[HVC_BLOB_MAX_SIZE];

static void set_list(struct hvc_mask *m, const char *list)
{
	if (hvc_mask_parse(m, list, strlen(list), HVC_MAX_COLORS, NULL))
		abort();
}

static void add_cell(struct hvc_system *s, const char *name, const char *cpus,
		     const char *colors, unsigned int flags, unsigned int rd,
		     unsigned int wr)
{
	struct hvc_cell_desc *c = &s->cells[s->nr_cells++];

	strcpy(c->name, name);
	set_list(&c->cpus, cpus);
	set_list(&c->colors, colors);
	c->flags = flags;
	c->read_mbps = rd;
	c->write_mbps = wr;
	c->first_region = s->nr_regions;
	c->nr_regions = 0;
}

static void add_region(struct hvc_system *s, hvc_u64 cell_base,
		       hvc_u64 host_base, hvc_u64 host_size, hvc_u64 cell_size,
		       unsigned int flags)
{
	struct hvc_region_desc *r = &s->regions[s->nr_regions++];

	r->cell_base = cell_base;
	r->host_base = host_base;
	r->host_size = host_size;
	r->cell_size = cell_size;
	r->flags = flags;
	s->cells[s->nr_cells - 1].nr_regions++;
}

/*
 * 16 colors of 4 KiB (64 KiB ways): root Linux on CPU 0 with colors 9-15
 * and a plain low region, a critical cell on CPU 1 with 0-3, a regulated
 * cell on CPUs 2-3 with 4-7; the hypervisor keeps color 8. The colored
 * regions share one host range, which is fine for disjoint colors.
 */
static void make_system(struct hvc_system *s)
{
	memset(s, 0, sizeof(*s));
	if (hvc_geometry_from_cache(&s->geo, 64, 1024, 16, 12, 1))
		abort();
	set_list(&s->hv_colors, "8");
	add_cell(s, "root", "0", "9-15", HVC_CELL_ROOT, 0, 0);
	add_region(s, 0, 0, 256 * MIB, 256 * MIB, 0);
	add_region(s, 0x40000000, 0x40000000, 512 * MIB, 64 * MIB, HVC_REGION_COLORED);
	add_cell(s, "rt0", "1", "0-3", HVC_CELL_CRITICAL, 0, 0);
	add_region(s, 0, 0x40000000, 512 * MIB, 128 * MIB, HVC_REGION_COLORED);
	add_cell(s, "nrt.1", "2-3", "4-7", 0, 500, 250);
	add_region(s, 0, 0x40000000, 512 * MIB, 64 * MIB, HVC_REGION_COLORED);
}

static size_t make_blob(struct __test_metadata *_metadata, unsigned char *buf)
{
	size_t len = 0;

	make_system(&sys);
	ASSERT_EQ(0, hvc_blob_write(&sys, buf, HVC_BLOB_MAX_SIZE, &len));
	ASSERT_EQ((size_t)hvc_blob_size(&sys), len);
	return len;
}

static void put32(unsigned char *p, unsigned int off, unsigned int v)
{
	p[off] = v;
	p[off + 1] = v >> 8;
	p[off + 2] = v >> 16;
	p[off + 3] = v >> 24;
}

static void put64(unsigned char *p, unsigned int off, unsigned long long v)
{
	put32(p, off, (unsigned int)v);
	put32(p, off + 4, (unsigned int)(v >> 32));
}

TEST(roundtrip)
{
	struct hvc_error e;
	size_t len, len2;
	unsigned int i;

	len = make_blob(_metadata, blob);
	EXPECT_EQ(HVC_BLOB_HDR_SIZE + 3 * HVC_BLOB_CELL_SIZE + 4 * HVC_BLOB_REGION_SIZE,
		  len);
	/* the documented layout */
	EXPECT_EQ('H', blob[0]);
	EXPECT_EQ('V', blob[1]);
	EXPECT_EQ('C', blob[2]);
	EXPECT_EQ('B', blob[3]);
	EXPECT_EQ(1, blob[HVC_BLOB_OFF_VERSION]);
	EXPECT_EQ(16, blob[HVC_BLOB_OFF_NR_COLORS]);
	EXPECT_EQ(1, blob[HVC_BLOB_OFF_HV_COLORS + 1]);	/* color 8 */
	EXPECT_STREQ("rt0", (char *)blob + HVC_BLOB_HDR_SIZE + HVC_BLOB_CELL_SIZE);
	EXPECT_EQ(0xf4, blob[HVC_BLOB_HDR_SIZE + 2 * HVC_BLOB_CELL_SIZE +
			     HVC_CELL_OFF_READ_MBPS]);

	memset(&back, 0x5a, sizeof(back));
	ASSERT_EQ(0, hvc_blob_parse(&back, blob, len, &e)) {
		TH_LOG("%s: %s", e.field, e.msg);
	}
	EXPECT_EQ(sys.geo.way_size, back.geo.way_size);
	EXPECT_EQ(sys.geo.nr_colors, back.geo.nr_colors);
	EXPECT_EQ(sys.geo.line_size, back.geo.line_size);
	EXPECT_EQ(sys.geo.nr_ways, back.geo.nr_ways);
	EXPECT_EQ(sys.geo.nr_sets, back.geo.nr_sets);
	EXPECT_TRUE(hvc_mask_equal(&sys.hv_colors, &back.hv_colors));
	ASSERT_EQ(sys.nr_cells, back.nr_cells);
	ASSERT_EQ(sys.nr_regions, back.nr_regions);
	for (i = 0; i < sys.nr_cells; i++) {
		EXPECT_STREQ(sys.cells[i].name, back.cells[i].name);
		EXPECT_TRUE(hvc_mask_equal(&sys.cells[i].cpus, &back.cells[i].cpus));
		EXPECT_TRUE(hvc_mask_equal(&sys.cells[i].colors, &back.cells[i].colors));
		EXPECT_EQ(sys.cells[i].flags, back.cells[i].flags);
		EXPECT_EQ(sys.cells[i].read_mbps, back.cells[i].read_mbps);
		EXPECT_EQ(sys.cells[i].write_mbps, back.cells[i].write_mbps);
		EXPECT_EQ(sys.cells[i].first_region, back.cells[i].first_region);
		EXPECT_EQ(sys.cells[i].nr_regions, back.cells[i].nr_regions);
	}
	for (i = 0; i < sys.nr_regions; i++) {
		EXPECT_EQ(sys.regions[i].cell_base, back.regions[i].cell_base);
		EXPECT_EQ(sys.regions[i].host_base, back.regions[i].host_base);
		EXPECT_EQ(sys.regions[i].host_size, back.regions[i].host_size);
		EXPECT_EQ(sys.regions[i].cell_size, back.regions[i].cell_size);
		EXPECT_EQ(sys.regions[i].flags, back.regions[i].flags);
	}
	ASSERT_EQ(0, hvc_blob_write(&back, blob2, sizeof(blob2), &len2));
	ASSERT_EQ(len, len2);
	EXPECT_EQ(0, memcmp(blob, blob2, len));
	EXPECT_EQ(0, hvc_system_validate(&back, NULL, 0, NULL));
}

TEST(writer_limits)
{
	size_t len = 0;

	make_system(&sys);
	EXPECT_EQ(-HVC_ENOSPC, hvc_blob_write(&sys, blob, hvc_blob_size(&sys) - 1, &len));
	EXPECT_EQ(0, len);
	sys.nr_cells = HVC_MAX_CELLS + 1;
	EXPECT_EQ(-HVC_E2BIG, hvc_blob_size(&sys));
	EXPECT_EQ(-HVC_E2BIG, hvc_blob_write(&sys, blob, sizeof(blob), &len));
	sys.nr_cells = 3;
	sys.nr_regions = HVC_MAX_REGIONS + 1;
	EXPECT_EQ(-HVC_E2BIG, hvc_blob_size(&sys));
}

enum mut {
	LEN,		/* the blob is arg bytes long (negative: shorter by) */
	SET32,		/* u32 at off = arg */
	SET16,
	SET64,
	SET8,
	FILL,		/* arg bytes at off are 'A' */
	GARBAGE,	/* append arg bytes, total_size unchanged */
};

struct bad_blob {
	const char *what;
	enum mut mut;
	unsigned int off;
	long long arg;
	int code;
	const char *field;
	int cell, region;
};

#define CELL(i, f)	(HVC_BLOB_HDR_SIZE + (i) * HVC_BLOB_CELL_SIZE + (f))
#define REGION(i, f)	(HVC_BLOB_HDR_SIZE + 3 * HVC_BLOB_CELL_SIZE + \
			 (i) * HVC_BLOB_REGION_SIZE + (f))

static const struct bad_blob bad[] = {
	{ "empty", LEN, 0, 0, -HVC_EBADMSG, "header", -1, -1 },
	{ "7 bytes", LEN, 0, 7, -HVC_EBADMSG, "header", -1, -1 },
	{ "half a header", LEN, 0, 100, -HVC_EBADMSG, "header", -1, -1 },
	{ "one byte short", LEN, 0, -1, -HVC_EBADMSG, "header.total_size", -1, -1 },
	{ "no regions table", LEN, 0, -4 * HVC_BLOB_REGION_SIZE, -HVC_EBADMSG,
	  "header.total_size", -1, -1 },
	{ "trailing garbage", GARBAGE, 0, 8, -HVC_EBADMSG, "header.total_size", -1, -1 },
	{ "total_size too big", SET32, HVC_BLOB_OFF_TOTAL_SIZE, 100000, -HVC_EBADMSG,
	  "header.total_size", -1, -1 },
	{ "bad magic", SET32, HVC_BLOB_OFF_MAGIC, 0x42435649, -HVC_EBADMSG,
	  "header.magic", -1, -1 },
	{ "big-endian magic", SET32, HVC_BLOB_OFF_MAGIC, 0x48564342, -HVC_EBADMSG,
	  "header.magic", -1, -1 },
	{ "version 2", SET16, HVC_BLOB_OFF_VERSION, 2, -HVC_EPROTO, "header.version", -1, -1 },
	{ "version 0", SET16, HVC_BLOB_OFF_VERSION, 0, -HVC_EPROTO, "header.version", -1, -1 },
	{ "header size", SET16, HVC_BLOB_OFF_HDR_SIZE, 192, -HVC_EBADMSG,
	  "header.header_size", -1, -1 },
	{ "header flags", SET32, HVC_BLOB_OFF_FLAGS, 1, -HVC_EINVAL, "header.flags", -1, -1 },
	{ "header reserved", SET32, HVC_BLOB_OFF_RESERVED, 9, -HVC_EINVAL,
	  "header.reserved", -1, -1 },
	{ "way not a power of two", SET64, HVC_BLOB_OFF_WAY_SIZE, 3 << 16, -HVC_EINVAL,
	  "header.geometry", -1, -1 },
	{ "way of 2^40", SET64, HVC_BLOB_OFF_WAY_SIZE, 1ll << 40, -HVC_ERANGE,
	  "header.geometry", -1, -1 },
	{ "page shift 11", SET32, HVC_BLOB_OFF_PAGE_SHIFT, 11, -HVC_EINVAL,
	  "header.geometry", -1, -1 },
	{ "3 pages per color", SET32, HVC_BLOB_OFF_PAGES_PER_COLOR, 3, -HVC_EINVAL,
	  "header.geometry", -1, -1 },
	{ "line 96", SET32, HVC_BLOB_OFF_LINE_SIZE, 96, -HVC_EINVAL, "header.geometry", -1, -1 },
	{ "nr_colors mismatch", SET32, HVC_BLOB_OFF_NR_COLORS, 32, -HVC_EINVAL,
	  "header.nr_colors", -1, -1 },
	{ "no cells", SET32, HVC_BLOB_OFF_NR_CELLS, 0, -HVC_EINVAL, "header.nr_cells", -1, -1 },
	{ "33 cells", SET32, HVC_BLOB_OFF_NR_CELLS, 33, -HVC_E2BIG, "header.nr_cells", -1, -1 },
	{ "huge cell count", SET32, HVC_BLOB_OFF_NR_CELLS, 0xffffffff, -HVC_E2BIG,
	  "header.nr_cells", -1, -1 },
	{ "129 regions", SET32, HVC_BLOB_OFF_NR_REGIONS, 129, -HVC_E2BIG,
	  "header.nr_regions", -1, -1 },
	{ "cell record size", SET32, HVC_BLOB_OFF_CELL_SIZE, 300, -HVC_EBADMSG,
	  "header.cell_size", -1, -1 },
	{ "region record size", SET32, HVC_BLOB_OFF_REGION_SIZE, 48, -HVC_EBADMSG,
	  "header.region_size", -1, -1 },
	{ "cells after a gap", SET32, HVC_BLOB_OFF_CELLS_OFFSET, 208, -HVC_EBADMSG,
	  "header.cells_offset", -1, -1 },
	{ "cells overlap the header", SET32, HVC_BLOB_OFF_CELLS_OFFSET, 64, -HVC_EBADMSG,
	  "header.cells_offset", -1, -1 },
	{ "regions overlap the cells", SET32, HVC_BLOB_OFF_REGIONS_OFFSET,
	  HVC_BLOB_HDR_SIZE + 2 * HVC_BLOB_CELL_SIZE, -HVC_EBADMSG,
	  "header.regions_offset", -1, -1 },
	{ "regions past the end", SET32, HVC_BLOB_OFF_REGIONS_OFFSET, 0xfffffff0,
	  -HVC_EBADMSG, "header.regions_offset", -1, -1 },
	{ "fewer cells than records", SET32, HVC_BLOB_OFF_NR_CELLS, 2, -HVC_EBADMSG,
	  "header.regions_offset", -1, -1 },
	{ "fewer regions than records", SET32, HVC_BLOB_OFF_NR_REGIONS, 3, -HVC_EBADMSG,
	  "header.total_size", -1, -1 },
	{ "name without NUL", FILL, CELL(1, HVC_CELL_OFF_NAME), HVC_NAME_LEN, -HVC_EINVAL,
	  "name", 1, -1 },
	{ "bytes after the name", SET8, CELL(0, HVC_CELL_OFF_NAME + 20), 'x', -HVC_EINVAL,
	  "name", 0, -1 },
	{ "unknown cell flag", SET32, CELL(2, HVC_CELL_OFF_FLAGS), 4, -HVC_EINVAL,
	  "flags", 2, -1 },
	{ "cell reserved", SET32, CELL(1, HVC_CELL_OFF_RESERVED), 1, -HVC_EINVAL,
	  "reserved", 1, -1 },
	{ "regions shared by two cells", SET32, CELL(1, HVC_CELL_OFF_FIRST_REGION), 0,
	  -HVC_EBADMSG, "first_region", 1, -1 },
	{ "region gap", SET32, CELL(2, HVC_CELL_OFF_FIRST_REGION), 4, -HVC_EBADMSG,
	  "first_region", 2, -1 },
	{ "regions past the table", SET32, CELL(2, HVC_CELL_OFF_NR_REGIONS), 2,
	  -HVC_EBADMSG, "nr_regions", 2, -1 },
	{ "region count wraps", SET32, CELL(2, HVC_CELL_OFF_NR_REGIONS), 0xffffffff,
	  -HVC_EBADMSG, "nr_regions", 2, -1 },
	{ "orphan region", SET32, CELL(2, HVC_CELL_OFF_NR_REGIONS), 0, -HVC_EBADMSG,
	  "header.nr_regions", -1, -1 },
	{ "unknown region flag", SET32, REGION(3, HVC_REGION_OFF_FLAGS), 3, -HVC_EINVAL,
	  "region.flags", 2, 0 },
	{ "region reserved", SET32, REGION(1, HVC_REGION_OFF_RESERVED), 1, -HVC_EINVAL,
	  "region.reserved", 0, 1 },
};

TEST(malformed_blobs_rejected)
{
	unsigned int i, ok = 0;
	struct hvc_error e;
	size_t len;

	ASSERT_GE(ARRAY_SIZE(bad), 30);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const struct bad_blob *b = &bad[i];
		int ret;

		len = make_blob(_metadata, blob);
		switch (b->mut) {
		case LEN:
			len = b->arg > 0 ? (size_t)b->arg : b->arg < 0 ? len + b->arg : 0;
			break;
		case SET32:
			put32(blob, b->off, (unsigned int)b->arg);
			break;
		case SET16:
			blob[b->off] = (unsigned char)b->arg;
			blob[b->off + 1] = (unsigned char)(b->arg >> 8);
			break;
		case SET64:
			put64(blob, b->off, b->arg);
			break;
		case SET8:
			blob[b->off] = (unsigned char)b->arg;
			break;
		case FILL:
			memset(blob + b->off, 'A', b->arg);
			break;
		case GARBAGE:
			memset(blob + len, 0, b->arg);
			len += b->arg;
			break;
		}
		memset(&e, 0, sizeof(e));
		ret = hvc_blob_parse(&back, blob, len, &e);
		EXPECT_EQ(b->code, ret) {
			TH_LOG("%s: got %d (%s: %s)", b->what, ret, e.field, e.msg);
			continue;
		}
		EXPECT_EQ(b->code, e.code);
		EXPECT_STREQ(b->field, e.field) {
			TH_LOG("%s: %s", b->what, e.msg);
		}
		EXPECT_EQ(b->cell, e.cell) {
			TH_LOG("%s", b->what);
		}
		EXPECT_EQ(b->region, e.region) {
			TH_LOG("%s", b->what);
		}
		EXPECT_NE(NULL, e.msg);
		ok++;
	}
	/* a hostile parse never reads past len: the last byte decides */
	len = make_blob(_metadata, blob);
	EXPECT_EQ(-HVC_EINVAL, hvc_blob_parse(&back, NULL, len, &e));
	EXPECT_EQ(0, hvc_blob_parse(&back, blob, len, NULL));
	TH_LOG("%u malformed blobs rejected with the expected error", ok);
}

/*
 * A blob of any other revision than HVC_BLOB_VERSION, valid otherwise, is
 * refused as such: -HVC_EPROTO naming header.version, the revision this
 * parser reads and the byte, before any other check.
 */
TEST(other_revision_refused)
{
	static const unsigned int revs[] = {
		0, HVC_BLOB_VERSION + 1, 2, 0x100 | HVC_BLOB_VERSION, 0xffff,
	};
	char text[160];
	struct hvc_error e;
	unsigned int i;
	size_t len;

	len = make_blob(_metadata, blob);
	EXPECT_EQ(HVC_BLOB_VERSION, blob[HVC_BLOB_OFF_VERSION] |
		  blob[HVC_BLOB_OFF_VERSION + 1] << 8);
	ASSERT_EQ(0, hvc_blob_parse(&back, blob, len, NULL));
	for (i = 0; i < ARRAY_SIZE(revs); i++) {
		blob[HVC_BLOB_OFF_VERSION] = revs[i] & 0xff;
		blob[HVC_BLOB_OFF_VERSION + 1] = revs[i] >> 8;
		/* and a header of another size, as a new revision may have */
		put32(blob, HVC_BLOB_OFF_TOTAL_SIZE, 7);
		memset(&e, 0, sizeof(e));
		EXPECT_EQ(-HVC_EPROTO, hvc_blob_parse(&back, blob, len, &e));
		EXPECT_EQ(-HVC_EPROTO, e.code);
		EXPECT_STREQ("header.version", e.field);
		EXPECT_EQ(HVC_BLOB_OFF_VERSION, e.offset);
		ASSERT_LT(0, hvc_error_format(&e, text, sizeof(text)));
		EXPECT_STREQ("header.version: unsupported revision: this parser reads revision 1 at byte 4",
			     text);
		put32(blob, HVC_BLOB_OFF_TOTAL_SIZE, len);
	}
}

TEST(every_truncation_and_bit_flip)
{
	unsigned int i, bit, accepted = 0;
	struct hvc_error e;
	size_t len, cut;

	len = make_blob(_metadata, blob);
	for (cut = 0; cut < len; cut++)
		ASSERT_EQ(-HVC_EBADMSG, hvc_blob_parse(&back, blob, cut, &e));
	/* flips either fail cleanly or yield a blob that writes back the same */
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			size_t len2;
			int ret;

			blob[i] ^= 1u << bit;
			ret = hvc_blob_parse(&back, blob, len, &e);
			if (!ret) {
				accepted++;
				ASSERT_EQ(0, hvc_blob_write(&back, blob2, sizeof(blob2), &len2));
				ASSERT_EQ(len, len2);
				ASSERT_EQ(0, memcmp(blob, blob2, len)) {
					TH_LOG("flip at byte %u bit %u", i, bit);
				}
			} else {
				ASSERT_LT(ret, 0);
				ASSERT_NE(NULL, e.field);
			}
			blob[i] ^= 1u << bit;
		}
	}
	TH_LOG("%u of %zu single-bit flips parse (payload bits)", accepted, len * 8);
}

struct vcase {
	const char *what;
	void (*mutate)(struct hvc_system *s);
	int code;
	int cell;
	int region;
	int other;
	const char *field;
	unsigned int count;	/* problems found */
};

#define C(i) (&s->cells[i])
#define R(i) (&s->regions[i])

static void m_nrt_takes_rt_color(struct hvc_system *s) { hvc_mask_set(&C(2)->colors, 3); }
static void m_root_takes_rt_color(struct hvc_system *s) { hvc_mask_set(&C(0)->colors, 0); }
static void m_root_takes_nrt_color(struct hvc_system *s) { hvc_mask_set(&C(0)->colors, 7); }
static void m_hv_color(struct hvc_system *s) { hvc_mask_set(&s->hv_colors, 5); }
static void m_hv_color_big(struct hvc_system *s) { hvc_mask_set(&s->hv_colors, 16); }
static void m_cpus_overlap(struct hvc_system *s) { hvc_mask_set(&C(2)->cpus, 1); }
static void m_no_cpus(struct hvc_system *s) { hvc_mask_zero(&C(1)->cpus); }
static void m_no_colors(struct hvc_system *s) { hvc_mask_zero(&C(0)->colors); }
static void m_color_beyond(struct hvc_system *s) { hvc_mask_set(&C(2)->colors, 16); }
static void m_read_budget(struct hvc_system *s) { C(2)->read_mbps = CG_MBPS_MAX + 1; }
static void m_write_budget(struct hvc_system *s) { C(2)->write_mbps = 0xffffffff; }
static void m_critical_budget(struct hvc_system *s) { C(1)->write_mbps = 10; }
static void m_two_roots(struct hvc_system *s) { C(2)->flags = HVC_CELL_ROOT; }
static void m_no_root(struct hvc_system *s)
{
	C(0)->flags = 0;
}

static void m_root_critical(struct hvc_system *s) { C(0)->flags |= HVC_CELL_CRITICAL; }
static void m_unknown_flag(struct hvc_system *s) { C(2)->flags = 0x80; }
static void m_same_name(struct hvc_system *s) { strcpy(C(2)->name, "rt0"); }
static void m_bad_name(struct hvc_system *s) { strcpy(C(1)->name, "rt 0"); }
static void m_empty_name(struct hvc_system *s) { C(1)->name[0] = '\0'; }
static void m_small_host(struct hvc_system *s) { R(2)->host_size = 511 * MIB; }
static void m_unaligned_host(struct hvc_system *s) { R(3)->host_base += 4096; }
static void m_uncolored_size(struct hvc_system *s) { R(0)->host_size = 512 * MIB; }
static void m_odd_cell_size(struct hvc_system *s) { R(3)->cell_size += 100; }
static void m_zero_cell_size(struct hvc_system *s)
{
	R(3)->cell_size = 0;
}

static void m_above_52(struct hvc_system *s) { R(3)->cell_base = HVC_PA_LIMIT - MIB; }
static void m_host_above_52(struct hvc_system *s) { R(0)->host_base = ~0ull << 20; }
static void m_cell_overlap(struct hvc_system *s) { R(1)->cell_base = 128 * MIB; }
static void m_host_overlap_own(struct hvc_system *s)
{
	R(1)->host_base = 0;
}

static void m_uncolored_shared(struct hvc_system *s) { R(0)->host_base = 0x40000000; }
static void m_region_flag(struct hvc_system *s) { R(3)->flags = 7; }
static void m_ranges(struct hvc_system *s) { C(1)->first_region = 1; }
static void m_orphan(struct hvc_system *s) { s->nr_regions = 5; }
static void m_geometry(struct hvc_system *s) { s->geo.nr_colors = 32; }
static void m_no_cells(struct hvc_system *s)
{
	s->nr_cells = 0;
}

static const struct vcase vcases[] = {
	{ "cells share a color", m_nrt_takes_rt_color, -HVC_EINVAL, 2, -1, 1, "colors", 2 },
	{ "root takes a critical color", m_root_takes_rt_color, -HVC_EINVAL, 1, -1, 0,
	  "colors", 2 },
	{ "root shares a non-critical color in shared host memory",
	  m_root_takes_nrt_color, -HVC_EINVAL, 2, 0, 0, "host_base", 1 },
	{ "hypervisor color in a cell", m_hv_color, -HVC_EINVAL, 2, -1, -1, "colors", 1 },
	{ "hypervisor color beyond", m_hv_color_big, -HVC_ERANGE, -1, -1, -1, "hv_colors", 1 },
	{ "CPUs overlap", m_cpus_overlap, -HVC_EINVAL, 2, -1, 1, "cpus", 1 },
	{ "no CPUs", m_no_cpus, -HVC_EINVAL, 1, -1, -1, "cpus", 1 },
	{ "no colors", m_no_colors, -HVC_EINVAL, 0, -1, -1, "colors", 1 },
	{ "color beyond the geometry", m_color_beyond, -HVC_ERANGE, 2, -1, -1, "colors", 1 },
	{ "read budget", m_read_budget, -HVC_ERANGE, 2, -1, -1, "read_mbps", 1 },
	{ "write budget", m_write_budget, -HVC_ERANGE, 2, -1, -1, "write_mbps", 1 },
	{ "budget on a critical cell", m_critical_budget, -HVC_EINVAL, 1, -1, -1, "write_mbps", 1 },
	{ "two root cells", m_two_roots, -HVC_EINVAL, 2, -1, -1, "flags", 1 },
	{ "no root cell", m_no_root, -HVC_EINVAL, -1, -1, -1, "flags", 1 },
	{ "critical root", m_root_critical, -HVC_EINVAL, 0, -1, -1, "flags", 1 },
	{ "unknown cell flag", m_unknown_flag, -HVC_EINVAL, 2, -1, -1, "flags", 1 },
	{ "duplicate name", m_same_name, -HVC_EEXIST, 2, -1, 1, "name", 1 },
	{ "name with a space", m_bad_name, -HVC_EINVAL, 1, -1, -1, "name", 1 },
	{ "empty name", m_empty_name, -HVC_EINVAL, 1, -1, -1, "name", 1 },
	{ "colored region too small", m_small_host, -HVC_EINVAL, 1, 0, -1, "host_size", 1 },
	{ "colored region off the way grid", m_unaligned_host, -HVC_EINVAL, 2, 0, -1,
	  "host_base", 1 },
	{ "uncolored sizes differ", m_uncolored_size, -HVC_EINVAL, 0, 0, -1, "host_size", 1 },
	{ "cell size not in pages", m_odd_cell_size, -HVC_EINVAL, 2, 0, -1, "cell_size", 1 },
	{ "empty region", m_zero_cell_size, -HVC_EINVAL, 2, 0, -1, "cell_size", 1 },
	{ "cell range above 52 bits", m_above_52, -HVC_ERANGE, 2, 0, -1, "cell_base", 1 },
	{ "host range above 52 bits", m_host_above_52, -HVC_ERANGE, 0, 0, -1, "host_size", 1 },
	{ "regions of a cell overlap", m_cell_overlap, -HVC_EINVAL, 0, 1, -1, "cell_base", 1 },
	{ "own host memory twice", m_host_overlap_own, -HVC_EINVAL, 0, 1, -1, "host_base", 1 },
	{ "uncolored memory shared", m_uncolored_shared, -HVC_EINVAL, 0, 1, -1, "host_base", 3 },
	{ "unknown region flag", m_region_flag, -HVC_EINVAL, 2, 0, -1, "flags", 1 },
	{ "region ranges out of order", m_ranges, -HVC_EINVAL, 1, -1, -1, "regions", 1 },
	{ "orphan regions", m_orphan, -HVC_EINVAL, -1, -1, -1, "regions", 1 },
	{ "bad geometry", m_geometry, -HVC_EINVAL, -1, -1, -1, "geometry", 1 },
	{ "no cells", m_no_cells, -HVC_E2BIG, -1, -1, -1, "nr_cells", 1 },
};

TEST(validator_names_cell_and_field)
{
	struct hvc_error errs[8];
	unsigned int i, n;

	make_system(&sys);
	ASSERT_EQ(0, hvc_system_validate(&sys, errs, 8, &n));
	ASSERT_EQ(0, n);
	for (i = 0; i < ARRAY_SIZE(vcases); i++) {
		const struct vcase *v = &vcases[i];

		make_system(&sys);
		v->mutate(&sys);
		memset(errs, 0, sizeof(errs));
		EXPECT_EQ(v->code, hvc_system_validate(&sys, errs, 8, &n)) {
			TH_LOG("%s", v->what);
			continue;
		}
		EXPECT_EQ(v->count, n) {
			TH_LOG("%s: %u problems, second %s: %s", v->what, n,
			       errs[1].field, errs[1].msg);
		}
		EXPECT_STREQ(v->field, errs[0].field) {
			TH_LOG("%s: %s", v->what, errs[0].msg);
		}
		EXPECT_EQ(v->cell, errs[0].cell) {
			TH_LOG("%s", v->what);
		}
		EXPECT_EQ(v->region, errs[0].region) {
			TH_LOG("%s", v->what);
		}
		EXPECT_EQ(v->other, errs[0].other_cell) {
			TH_LOG("%s", v->what);
		}
		if (v->cell >= 0)
			EXPECT_STREQ(sys.cells[v->cell].name, errs[0].cell_name);
	}
}

TEST(validator_reports_everything)
{
	struct hvc_error errs[3];
	unsigned int n, all;

	make_system(&sys);
	m_nrt_takes_rt_color(&sys);
	m_cpus_overlap(&sys);
	m_read_budget(&sys);
	m_small_host(&sys);
	m_no_root(&sys);
	/* colors twice (pair and shared host memory), CPUs, budget, size, root */
	EXPECT_EQ(-HVC_EINVAL, hvc_system_validate(&sys, NULL, 0, &all));
	EXPECT_EQ(6, all);
	/* fewer slots than problems: the count is still the total */
	EXPECT_EQ(-HVC_EINVAL, hvc_system_validate(&sys, errs, 3, &n));
	EXPECT_EQ(all, n);
	EXPECT_STREQ("host_size", errs[0].field);
	EXPECT_EQ(1, errs[0].cell);
	EXPECT_STREQ("read_mbps", errs[1].field);
}

TEST(error_text)
{
	struct hvc_error errs[2], e;
	char buf[160];
	unsigned int n;
	size_t len;

	make_system(&sys);
	m_nrt_takes_rt_color(&sys);
	hvc_system_validate(&sys, errs, 2, &n);
	ASSERT_LT(0, hvc_error_format(&errs[0], buf, sizeof(buf)));
	EXPECT_STREQ("cell 2 'nrt.1' colors: shares colors with another cell (cell 1 'rt0')",
		     buf);
	make_system(&sys);
	m_small_host(&sys);
	hvc_system_validate(&sys, errs, 2, &n);
	hvc_error_format(&errs[0], buf, sizeof(buf));
	EXPECT_STREQ("cell 1 'rt0' region 0 host_size: too small for cell_size with these colors",
		     buf);
	EXPECT_EQ(-HVC_ENOSPC, hvc_error_format(&errs[0], buf, 10));
	EXPECT_STREQ("cell 1 'r", buf);

	len = make_blob(_metadata, blob);
	memset(blob + CELL(1, 0), 0xff, HVC_NAME_LEN);
	EXPECT_EQ(-HVC_EINVAL, hvc_blob_parse(&back, blob, len, &e));
	hvc_error_format(&e, buf, sizeof(buf));
	EXPECT_STREQ("cell 1 name: not NUL-terminated at byte 512", buf);
	len = make_blob(_metadata, blob);
	blob[CELL(2, 3)] = 0x07;
	blob[CELL(2, 6)] = 'x';
	EXPECT_EQ(-HVC_EINVAL, hvc_blob_parse(&back, blob, len, &e));
	hvc_error_format(&e, buf, sizeof(buf));
	EXPECT_STREQ("cell 2 'nrt?1' name: bytes after the terminating NUL at byte 824", buf);
}

TEST_HARNESS_MAIN
