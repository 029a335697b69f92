// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color host tests: colored regions, extents and translation,
 * exhaustively over small geometries (every mask of up to 8 colors).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <colorguard/hv_color.h>
#include "kselftest_harness.h"

#define PAGE 4096ull

static struct hvc_region reg;

static unsigned int runs_of(unsigned int v, unsigned int nr)
{
	unsigned int c, runs = 0;

	for (c = 0; c < nr; c++)
		if ((v >> c & 1) && (c == 0 || !(v >> (c - 1) & 1)))
			runs++;
	return runs;
}

static void mask_from(struct hvc_mask *m, unsigned int v)
{
	unsigned int c;

	hvc_mask_zero(m);
	for (c = 0; c < 32; c++)
		if (v >> c & 1)
			hvc_mask_set(m, c);
}

/*
 * Checks one region against a reference built the slow way: cell page g
 * is the g-th page of an allowed color in ascending host order.
 */
static int check_region(struct __test_metadata *_metadata,
			const struct hvc_geometry *g, unsigned int v,
			hvc_u64 host_base, hvc_u64 cell_base, hvc_u64 pages)
{
	hvc_u64 span, hp, cell_pages = 0, a, want_ext = 0, got_ext = 0;
	hvc_u64 prev_host = 0, next_cell = cell_base, *host_of;
	struct hvc_extent_iter it;
	struct hvc_extent e;
	struct hvc_mask m;
	unsigned int color;
	int ret, full;

	mask_from(&m, v);
	ASSERT_EQ(0, hvc_region_init(&reg, g, &m, host_base, cell_base, pages * PAGE));
	span = reg.host_span;
	full = __builtin_popcount(v) == (int)g->nr_colors;
	/* every color: the span is the cell itself, else whole way blocks */
	ASSERT_EQ(full ? pages * PAGE : span - span % g->way_size, span);
	ASSERT_EQ(0, hvc_span_for_size(g, &m, pages * PAGE, &a));
	ASSERT_EQ(span, a);
	host_of = calloc(pages, sizeof(*host_of));
	ASSERT_NE(NULL, host_of);

	/* host side: every page of the span */
	for (hp = host_base; hp < host_base + span; hp += PAGE) {
		color = hvc_color_of(g, hp);
		ret = hvc_region_host_to_cell(&reg, hp + 5, &a);
		if (!(v >> color & 1) || cell_pages == pages) {
			ASSERT_EQ(-HVC_ENOENT, ret);
			continue;
		}
		ASSERT_EQ(0, ret);
		ASSERT_EQ(cell_base + cell_pages * PAGE + 5, a);
		host_of[cell_pages++] = hp;
	}
	ASSERT_EQ(pages, cell_pages);
	/* the span is the smallest whole number of way blocks */
	ASSERT_TRUE(full ||
		    span - g->way_size < host_of[pages - 1] - host_base + 1);

	/* cell side: every page, and the extent count the slow way */
	for (a = 0; a < pages; a++) {
		hvc_u64 h;

		ASSERT_EQ(0, hvc_region_cell_to_host(&reg, cell_base + a * PAGE + 7, &h));
		ASSERT_EQ(host_of[a] + 7, h);
		if (a == 0 || host_of[a] != host_of[a - 1] + PAGE)
			want_ext++;
	}

	hvc_extent_iter_init(&it, &reg);
	while (hvc_extent_next(&it, &e)) {
		ASSERT_LT(got_ext, pages);
		ASSERT_EQ(next_cell, e.cell_addr);
		ASSERT_GT(e.size, 0);
		ASSERT_EQ(0, e.size % PAGE);
		if (got_ext)
			ASSERT_LT(prev_host, e.host_addr);	/* ascending, no overlap */
		a = (e.cell_addr - cell_base) / PAGE;
		ASSERT_EQ(host_of[a], e.host_addr);
		for (hp = 0; hp < e.size; hp += PAGE)
			ASSERT_EQ(host_of[a + hp / PAGE], e.host_addr + hp);
		prev_host = e.host_addr + e.size;
		next_cell += e.size;
		got_ext++;
	}
	ASSERT_EQ(cell_base + pages * PAGE, next_cell);
	EXPECT_EQ(0, hvc_extent_next(&it, &e));

	/* batches give the same extents */
	hvc_extent_iter_init(&it, &reg);
	for (a = 0, next_cell = cell_base;; a++) {
		struct hvc_extent batch[3];
		unsigned int n = hvc_extent_fill(&it, batch, 1 + a % 3), j;

		if (!n)
			break;
		for (j = 0; j < n; j++) {
			ASSERT_EQ(next_cell, batch[j].cell_addr);
			ASSERT_EQ(host_of[(next_cell - cell_base) / PAGE], batch[j].host_addr);
			next_cell += batch[j].size;
		}
	}
	ASSERT_EQ(cell_base + pages * PAGE, next_cell);
	/* minimal: as many extents as breaks in host contiguity */
	ASSERT_EQ(want_ext, got_ext);
	ASSERT_EQ(got_ext, hvc_region_nr_extents(&reg));

	/* outside */
	ASSERT_EQ(-HVC_ERANGE, hvc_region_cell_to_host(&reg, cell_base + pages * PAGE, &a));
	ASSERT_EQ(-HVC_ERANGE, hvc_region_host_to_cell(&reg, host_base + span, &a));
	if (cell_base)
		ASSERT_EQ(-HVC_ERANGE, hvc_region_cell_to_host(&reg, cell_base - 1, &a));
	if (host_base)
		ASSERT_EQ(-HVC_ERANGE, hvc_region_host_to_cell(&reg, host_base - 1, &a));
	free(host_of);
	return (int)got_ext;
}

TEST(exhaustive_small_geometries)
{
	unsigned int nr, gran, v, k, runs, wrap, i, regions = 0;
	struct hvc_geometry g;
	hvc_u64 blocks, ext, want;

	for (nr = 2; nr <= 8; nr *= 2) {
		for (gran = 1; gran <= 2; gran++) {
			ASSERT_EQ(0, hvc_geometry_from_way_size(&g, nr * gran * PAGE,
								64, 4, 12, gran));
			ASSERT_EQ(nr, g.nr_colors);
			for (v = 1; v < (1u << nr); v++) {
				hvc_u64 sizes[] = { 1, gran, (hvc_u64)__builtin_popcount(v) * gran,
						    3ull * __builtin_popcount(v) * gran,
						    2ull * __builtin_popcount(v) * gran + 1 };

				k = __builtin_popcount(v);
				runs = runs_of(v, nr);
				wrap = (v & 1) && (v >> (nr - 1) & 1);
				for (i = 0; i < ARRAY_SIZE(sizes); i++) {
					ext = check_region(_metadata, &g, v, 5 * g.way_size,
							   0x40000000ull + 3 * PAGE, sizes[i]);
					regions++;
					if (sizes[i] % (k * gran))
						continue;
					/*
					 * Whole way blocks: runs per block, less one per
					 * block boundary where the last color meets color 0.
					 */
					blocks = sizes[i] / (k * gran);
					want = k == nr ? 1 :
					       wrap ? blocks * runs - (blocks - 1) :
					       blocks * runs;
					ASSERT_EQ(want, ext);
				}
			}
		}
	}
	TH_LOG("%u regions checked page by page", regions);
}

TEST(all_colors_is_plain_offset)
{
	struct hvc_geometry g;
	struct hvc_mask m;

	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 16 * PAGE, 64, 4, 12, 1));
	hvc_mask_fill(&m, 16);
	/* page aligned is enough when every color is in */
	ASSERT_EQ(1, check_region(_metadata, &g, 0xffff, 3 * PAGE, 0, 100));
	ASSERT_EQ(1, check_region(_metadata, &g, 0xffff, 0x123456000ull,
				  0x1000, 16 * 7));
}

/*
 * Uncolored memory is the mask of every color, and that mask needs no
 * more than page granularity anywhere: base, cell size and host span.
 */
TEST(all_colors_span_is_the_cell)
{
	struct hvc_geometry g;
	struct hvc_mask m, most;
	hvc_u64 v;

	/* 16 colors of 2 pages: 32-page way blocks */
	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 32 * PAGE, 64, 4, 12, 2));
	hvc_mask_fill(&m, 16);
	hvc_mask_fill(&most, 15);
	EXPECT_EQ(0, hvc_span_for_size(&g, &m, 5 * PAGE, &v));
	EXPECT_EQ(5 * PAGE, v);
	EXPECT_EQ(0, hvc_size_for_span(&g, &m, 5 * PAGE, &v));
	EXPECT_EQ(5 * PAGE, v);
	EXPECT_EQ(0, hvc_size_for_span(&g, &m, 33 * PAGE, &v));
	EXPECT_EQ(33 * PAGE, v);
	EXPECT_EQ(-HVC_EINVAL, hvc_size_for_span(&g, &m, 5 * PAGE + 1, &v));
	EXPECT_EQ(-HVC_ERANGE, hvc_size_for_span(&g, &m, HVC_PA_LIMIT + PAGE, &v));
	/* one color short of all: whole way blocks again */
	EXPECT_EQ(0, hvc_span_for_size(&g, &most, 5 * PAGE, &v));
	EXPECT_EQ(32 * PAGE, v);
	EXPECT_EQ(-HVC_EINVAL, hvc_size_for_span(&g, &most, 5 * PAGE, &v));
	/* odd pages at a page-aligned base, checked page by page */
	ASSERT_EQ(1, check_region(_metadata, &g, 0xffff, 7 * PAGE, 0x2000, 5));
	EXPECT_EQ(5 * PAGE, reg.host_span);
	EXPECT_EQ(-HVC_ERANGE, hvc_region_host_to_cell(&reg, 12 * PAGE, &v));
}

TEST(reciprocal_divide_exact)
{
	struct hvc_geometry g;
	struct hvc_mask m;
	unsigned int k, i;
	hvc_u64 blocks, chunk, h, want;

	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 1024 * PAGE, 64, 16, 12, 1));
	blocks = HVC_PA_LIMIT / g.way_size;
	srand(7);
	for (k = 1; k <= 1024; k++) {
		hvc_mask_fill(&m, k);
		ASSERT_EQ(0, hvc_region_init(&reg, &g, &m, 0, 0, blocks * k * PAGE));
		ASSERT_EQ(HVC_PA_LIMIT, reg.host_span);
		for (i = 0; i < 400; i++) {
			switch (i % 4) {
			case 0:
				chunk = ((hvc_u64)rand() << 31 ^ rand()) % (blocks * k);
				break;
			case 1:
				chunk = (i / 4 + 1) * (hvc_u64)k - 1;
				break;
			case 2:
				chunk = blocks * k - 1 - i / 4;
				break;
			default:
				chunk = (blocks - 1 - i) * (hvc_u64)k;
				break;
			}
			want = ((chunk / k) * 1024 + chunk % k) * PAGE;
			ASSERT_EQ(0, hvc_region_cell_to_host(&reg, chunk * PAGE, &h));
			ASSERT_EQ(want, h) {
				TH_LOG("k %u chunk %llu", k, (unsigned long long)chunk);
			}
		}
	}
}

TEST(limits_and_bad_arguments)
{
	struct hvc_geometry g;
	struct hvc_mask m, wide, none;
	hvc_u64 v;

	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 16 * PAGE, 64, 4, 12, 1));
	hvc_mask_zero(&m);
	hvc_mask_set(&m, 1);
	hvc_mask_set(&m, 2);
	hvc_mask_zero(&none);
	hvc_mask_copy(&wide, &m);
	hvc_mask_set(&wide, 16);

	EXPECT_EQ(0, hvc_span_for_size(&g, &m, 2 * PAGE, &v));
	EXPECT_EQ(16 * PAGE, v);
	EXPECT_EQ(0, hvc_span_for_size(&g, &m, 3 * PAGE, &v));
	EXPECT_EQ(32 * PAGE, v);
	EXPECT_EQ(0, hvc_size_for_span(&g, &m, 32 * PAGE, &v));
	EXPECT_EQ(4 * PAGE, v);
	EXPECT_EQ(-HVC_EINVAL, hvc_size_for_span(&g, &m, 24 * PAGE, &v));
	EXPECT_EQ(-HVC_ERANGE, hvc_size_for_span(&g, &m, HVC_PA_LIMIT + g.way_size, &v));
	EXPECT_EQ(-HVC_EINVAL, hvc_span_for_size(&g, &none, PAGE, &v));
	EXPECT_EQ(-HVC_ERANGE, hvc_span_for_size(&g, &wide, PAGE, &v));
	EXPECT_EQ(-HVC_EINVAL, hvc_span_for_size(&g, &m, 0, &v));
	EXPECT_EQ(-HVC_EINVAL, hvc_span_for_size(&g, &m, PAGE + 1, &v));
	/* 2 of 16 colors: a cell of 2^49 needs a 2^52 span, one page more won't fit */
	EXPECT_EQ(0, hvc_span_for_size(&g, &m, 1ull << 49, &v));
	EXPECT_EQ(HVC_PA_LIMIT, v);
	EXPECT_EQ(-HVC_ERANGE, hvc_span_for_size(&g, &m, (1ull << 49) + PAGE, &v));
	EXPECT_EQ(-HVC_ERANGE, hvc_span_for_size(&g, &m, ~0ull << 12, &v));

	EXPECT_EQ(0, hvc_region_init(&reg, &g, &m, 0, 0, 1ull << 49));
	EXPECT_EQ(-HVC_ERANGE, hvc_region_init(&reg, &g, &m, g.way_size, 0, 1ull << 49));
	EXPECT_EQ(-HVC_ERANGE, hvc_region_init(&reg, &g, &m, HVC_PA_LIMIT, 0, PAGE));
	EXPECT_EQ(-HVC_ERANGE, hvc_region_init(&reg, &g, &m, ~0ull << 16, 0, PAGE));
	EXPECT_EQ(-HVC_ERANGE, hvc_region_init(&reg, &g, &m, 0, HVC_PA_LIMIT - PAGE, 2 * PAGE));
	EXPECT_EQ(-HVC_ERANGE, hvc_region_init(&reg, &g, &m, 0, ~0ull << 12, PAGE));
	EXPECT_EQ(0, hvc_region_init(&reg, &g, &m, 0, HVC_PA_LIMIT - PAGE, PAGE));
	/* colored spans start on a way boundary */
	EXPECT_EQ(-HVC_EINVAL, hvc_region_init(&reg, &g, &m, PAGE, 0, PAGE));
	EXPECT_EQ(-HVC_EINVAL, hvc_region_init(&reg, &g, &m, 0, 100, PAGE));
	EXPECT_EQ(-HVC_EINVAL, hvc_region_init(&reg, &g, &m, 0, 0, 100));
	EXPECT_EQ(-HVC_EINVAL, hvc_region_init(&reg, &g, &none, 0, 0, PAGE));
	EXPECT_EQ(-HVC_ERANGE, hvc_region_init(&reg, &g, &wide, 0, 0, PAGE));
}

TEST(half_of_1024_colors_one_gib)
{
	struct hvc_geometry g;
	struct hvc_mask m;
	struct hvc_extent_iter it;
	struct hvc_extent e;
	hvc_u64 n = 0, bytes = 0;
	unsigned int c;

	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 1024 * PAGE, 64, 16, 12, 1));
	hvc_mask_zero(&m);
	for (c = 0; c < 1024; c += 2)
		hvc_mask_set(&m, c);
	ASSERT_EQ(0, hvc_region_init(&reg, &g, &m, 1ull << 32, 0, 1ull << 30));
	EXPECT_EQ(2ull << 30, reg.host_span);
	hvc_extent_iter_init(&it, &reg);
	while (hvc_extent_next(&it, &e)) {
		ASSERT_EQ(PAGE, e.size);
		ASSERT_EQ(0, hvc_color_of(&g, e.host_addr) % 2);
		bytes += e.size;
		n++;
	}
	EXPECT_EQ(1ull << 30, bytes);
	EXPECT_EQ((1ull << 30) / PAGE, n);
	EXPECT_EQ(n, hvc_region_nr_extents(&reg));
}

TEST_HARNESS_MAIN
