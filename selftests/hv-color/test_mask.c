// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color host tests: geometry, masks, list syntax.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <colorguard/hv_color.h>
#include "kselftest_harness.h"

static int parse(struct hvc_mask *m, const char *s, unsigned int nbits,
		 struct hvc_parse_error *e)
{
	return hvc_mask_parse(m, s, strlen(s), nbits, e);
}

/* Reference: the mask from an explicit list of bits (-1 ends it). */
static void mask_of(struct hvc_mask *m, const int *bits)
{
	hvc_mask_zero(m);
	for (; *bits >= 0; bits++)
		hvc_mask_set(m, *bits);
}

TEST(geometry_valid)
{
	struct hvc_geometry g;

	/* 2 MiB 16-way, 64 B lines: 2048 sets, 128 KiB ways, 32 colors */
	ASSERT_EQ(0, hvc_geometry_from_cache(&g, 64, 2048, 16, 12, 1));
	EXPECT_EQ(131072, g.way_size);
	EXPECT_EQ(32, g.nr_colors);
	EXPECT_EQ(5, g.color_shift);
	EXPECT_EQ(12, g.chunk_shift);
	EXPECT_EQ(2048, g.nr_sets);
	EXPECT_EQ(5, hvc_color_of(&g, 0x12345678ull));
	EXPECT_EQ(5, hvc_color_of_pfn(&g, 0x12345));
	/* two pages per color halves the colors */
	ASSERT_EQ(0, hvc_geometry_from_cache(&g, 64, 2048, 16, 12, 2));
	EXPECT_EQ(16, g.nr_colors);
	EXPECT_EQ(13, g.chunk_shift);
	EXPECT_EQ((0x12345678ull >> 13) & 15, hvc_color_of(&g, 0x12345678ull));
	/* the maximum */
	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 4ull << 20, 0, 0, 12, 1));
	EXPECT_EQ(1024, g.nr_colors);
	EXPECT_EQ(0, g.nr_sets);
	/* 64 KiB pages */
	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 1ull << 20, 64, 8, 16, 1));
	EXPECT_EQ(16, g.nr_colors);
}

TEST(geometry_invalid)
{
	struct hvc_geometry g = { .nr_colors = 77 };

	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_cache(&g, 48, 2048, 16, 12, 1));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_cache(&g, 64, 3000, 16, 12, 1));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_cache(&g, 64, 2048, 0, 12, 1));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_cache(&g, 0, 2048, 16, 12, 1));
	/* one color is no coloring */
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 4096, 64, 8, 12, 1));
	/* way smaller than a page */
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 2048, 64, 8, 12, 1));
	EXPECT_EQ(-HVC_ERANGE, hvc_geometry_from_way_size(&g, 8ull << 20, 64, 8, 12, 1));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 3ull << 16, 64, 8, 12, 1));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 1ull << 20, 64, 8, 11, 1));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 1ull << 20, 64, 8, 17, 1));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 1ull << 20, 64, 8, 12, 3));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 1ull << 20, 64, 8, 12, 0));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 1ull << 20, 64, 8, 12, 512));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 1ull << 20, 96, 8, 12, 1));
	EXPECT_EQ(-HVC_EINVAL, hvc_geometry_from_way_size(&g, 1ull << 20, 8192, 8, 12, 1));
	EXPECT_EQ(-HVC_ERANGE, hvc_geometry_from_way_size(&g, 1ull << 20, 64, 2000, 12, 1));
	EXPECT_EQ(-HVC_ERANGE, hvc_geometry_from_way_size(&g, 1ull << 63, 64, 8, 12, 256));
	/* a failed call leaves the geometry alone */
	EXPECT_EQ(77, g.nr_colors);
}

TEST(budget_events)
{
	hvc_u64 ev;

	/* MemGuard's figures: 1000 MB/s, 1 ms, 64 B lines: 16384 events */
	ASSERT_EQ(0, hvc_budget_events(1000, 1000, 64, &ev));
	EXPECT_EQ(1000ull * 1048576 * 1000 / 1000000 / 64, ev);
	/* The largest budget and period: no overflow on the way. */
	ASSERT_EQ(0, hvc_budget_events(CG_MBPS_MAX, CG_PERIOD_US_MAX,
				       CG_LINE_SIZE_MIN, &ev));
	EXPECT_EQ((unsigned long long)(((__uint128_t)CG_MBPS_MAX << 20) *
				       CG_PERIOD_US_MAX / 1000000 /
				       CG_LINE_SIZE_MIN), ev);
	/* A budget never rounds down to no event (memguard counts the same). */
	ASSERT_EQ(0, hvc_budget_events(1, CG_PERIOD_US_MIN, CG_LINE_SIZE_MAX,
				       &ev));
	EXPECT_EQ(1, ev);
	ASSERT_EQ(0, hvc_budget_events(0, 1000, 64, &ev));
	EXPECT_EQ(0, ev);
	EXPECT_EQ(-HVC_ERANGE, hvc_budget_events(CG_MBPS_MAX + 1, 1000, 64, &ev));
	EXPECT_EQ(-HVC_EINVAL, hvc_budget_events(10, 0, 64, &ev));
	EXPECT_EQ(-HVC_EINVAL, hvc_budget_events(10, CG_PERIOD_US_MAX + 1, 64,
						 &ev));
	EXPECT_EQ(-HVC_EINVAL, hvc_budget_events(10, 1000, 0, &ev));
	EXPECT_EQ(-HVC_EINVAL, hvc_budget_events(10, 1000, CG_LINE_SIZE_MAX * 2,
						 &ev));
}

TEST(mask_ops)
{
	struct hvc_mask a, b, c;
	unsigned int i, n;

	hvc_mask_zero(&a);
	EXPECT_TRUE(hvc_mask_empty(&a));
	EXPECT_EQ(HVC_MAX_COLORS, hvc_mask_next(&a, 0));
	hvc_mask_set(&a, 0);
	hvc_mask_set(&a, 63);
	hvc_mask_set(&a, 64);
	hvc_mask_set(&a, 1023);
	hvc_mask_set(&a, 1024);		/* ignored */
	EXPECT_EQ(4, hvc_mask_weight(&a));
	EXPECT_EQ(0, hvc_mask_next(&a, 0));
	EXPECT_EQ(63, hvc_mask_next(&a, 1));
	EXPECT_EQ(64, hvc_mask_next(&a, 64));
	EXPECT_EQ(1023, hvc_mask_next(&a, 65));
	EXPECT_EQ(HVC_MAX_COLORS, hvc_mask_next(&a, 1024));
	EXPECT_FALSE(hvc_mask_fits(&a, 1023));
	EXPECT_TRUE(hvc_mask_fits(&a, 1024));
	a.bits[1023 / 64] = 0;
	EXPECT_TRUE(hvc_mask_fits(&a, 65));
	EXPECT_FALSE(hvc_mask_fits(&a, 64));

	for (n = 0; n <= HVC_MAX_COLORS; n++) {
		hvc_mask_fill(&b, n);
		ASSERT_EQ(n, hvc_mask_weight(&b));
		ASSERT_TRUE(hvc_mask_fits(&b, n));
		if (n)
			ASSERT_TRUE(hvc_mask_test(&b, n - 1));
		ASSERT_FALSE(hvc_mask_test(&b, n));
	}
	hvc_mask_fill(&b, 64);
	hvc_mask_and(&c, &a, &b);
	EXPECT_EQ(2, hvc_mask_weight(&c));
	EXPECT_TRUE(hvc_mask_test(&c, 0));
	EXPECT_TRUE(hvc_mask_test(&c, 63));
	hvc_mask_or(&c, &a, &b);
	EXPECT_EQ(65, hvc_mask_weight(&c));
	EXPECT_TRUE(hvc_mask_test(&c, 64));
	EXPECT_TRUE(hvc_mask_intersects(&a, &b));
	hvc_mask_zero(&b);
	hvc_mask_set(&b, 5);
	EXPECT_FALSE(hvc_mask_intersects(&a, &b));
	hvc_mask_copy(&c, &a);
	EXPECT_TRUE(hvc_mask_equal(&c, &a));
	EXPECT_FALSE(hvc_mask_equal(&b, &a));
	for (i = 0; i < HVC_MAX_COLORS; i++)
		ASSERT_EQ(i == 0 || i == 63 || i == 64, hvc_mask_test(&a, i));
}

struct good_case {
	const char *in;
	int bits[12];
};

/* Accepted forms, as bitmap_parselist() accepts them */
static const struct good_case good[] = {
	{ "", { -1 } },
	{ "0", { 0, -1 } },
	{ "0-3,8,10-11", { 0, 1, 2, 3, 8, 10, 11, -1 } },
	{ "3-3", { 3, -1 } },
	{ "007", { 7, -1 } },
	{ ",1", { 1, -1 } },
	{ "1,", { 1, -1 } },
	{ "1,,2", { 1, 2, -1 } },
	{ "1 2", { 1, 2, -1 } },
	{ " \t1 ,\t2 ", { 1, 2, -1 } },
	{ "1\n", { 1, -1 } },
	{ "1\n\t\n", { 1, -1 } },
	{ "5,1-2,2-3", { 1, 2, 3, 5, -1 } },
	{ "1023", { 1023, -1 } },
	{ "\n", { -1 } },
};

TEST(list_accepts_kernel_forms)
{
	struct hvc_parse_error e;
	struct hvc_mask m, want;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		mask_of(&want, good[i].bits);
		memset(&m, 0xa5, sizeof(m));
		ASSERT_EQ(0, parse(&m, good[i].in, 1024, &e)) {
			TH_LOG("'%s': %s at %u", good[i].in, e.reason, e.pos);
		}
		ASSERT_TRUE(hvc_mask_equal(&m, &want)) {
			TH_LOG("'%s' parsed wrong", good[i].in);
		}
	}
	/* len bounds the input and a NUL ends it */
	ASSERT_EQ(0, hvc_mask_parse(&m, "1-3,9", 3, 16, &e));
	mask_of(&want, (const int[]){ 1, 2, 3, -1 });
	EXPECT_TRUE(hvc_mask_equal(&m, &want));
	ASSERT_EQ(0, hvc_mask_parse(&m, "4\0junk", 6, 16, &e));
	EXPECT_EQ(1, hvc_mask_weight(&m));
	EXPECT_EQ(0, hvc_mask_parse(&m, "0-15", 4, 16, HVC_NULL));
	EXPECT_EQ(16, hvc_mask_weight(&m));
}

struct bad_case {
	const char *in;
	unsigned int nbits;
	int code;
	unsigned int pos;
};

static const struct bad_case bad[] = {
	{ "a", 64, -HVC_EINVAL, 0 },
	{ "-1", 64, -HVC_EINVAL, 0 },
	{ "+1", 64, -HVC_EINVAL, 0 },
	{ "1-", 64, -HVC_EINVAL, 2 },
	{ "1--2", 64, -HVC_EINVAL, 2 },
	{ "1-2-3", 64, -HVC_EINVAL, 3 },
	{ "3-1", 64, -HVC_EINVAL, 0 },
	{ "2,5-4", 64, -HVC_EINVAL, 2 },
	{ "64", 64, -HVC_ERANGE, 0 },
	{ "0-64", 64, -HVC_ERANGE, 2 },
	{ "1,1024", 1024, -HVC_ERANGE, 2 },
	{ "8", 8, -HVC_ERANGE, 0 },
	{ "0", 0, -HVC_ERANGE, 0 },
	{ "4294967296", 1024, -HVC_EOVERFLOW, 0 },
	{ "1-99999999999999999999999", 1024, -HVC_EOVERFLOW, 2 },
	{ "4294967295", 1024, -HVC_ERANGE, 0 },
	{ "0x10", 1024, -HVC_EINVAL, 1 },
	{ "1.5", 1024, -HVC_EINVAL, 1 },
	{ "0-7:2/4", 1024, -HVC_EINVAL, 3 },
	{ "N", 1024, -HVC_EINVAL, 0 },
	{ "0-N", 1024, -HVC_EINVAL, 2 },
	{ "all", 1024, -HVC_EINVAL, 0 },
	{ "1 - 3", 1024, -HVC_EINVAL, 2 },
	{ "1;2", 1024, -HVC_EINVAL, 1 },
	{ "1\n2", 1024, -HVC_EINVAL, 2 },
	{ "1\nx", 1024, -HVC_EINVAL, 2 },
	{ "0-3,8,10-11,a", 1024, -HVC_EINVAL, 12 },
	{ "1-2,", 2, -HVC_ERANGE, 2 },
	{ "\xff", 1024, -HVC_EINVAL, 0 },
	{ "1\x7f", 1024, -HVC_EINVAL, 1 },
	{ "^1", 1024, -HVC_EINVAL, 0 },
	{ "1-3,^2", 1024, -HVC_EINVAL, 4 },
	{ "(1)", 1024, -HVC_EINVAL, 0 },
	{ "1 ,-2", 1024, -HVC_EINVAL, 3 },
	{ "5", 2000, -HVC_ERANGE, 0 },
};

TEST(list_rejects_malformed)
{
	struct hvc_parse_error e;
	struct hvc_mask m, before;
	unsigned int i;

	ASSERT_GE(ARRAY_SIZE(bad), 30);
	hvc_mask_zero(&before);
	hvc_mask_set(&before, 17);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		hvc_mask_copy(&m, &before);
		memset(&e, 0, sizeof(e));
		EXPECT_EQ(bad[i].code, parse(&m, bad[i].in, bad[i].nbits, &e)) {
			TH_LOG("'%s'", bad[i].in);
		}
		EXPECT_EQ(bad[i].code, e.code);
		EXPECT_EQ(bad[i].pos, e.pos) {
			TH_LOG("'%s': %s", bad[i].in, e.reason);
		}
		EXPECT_NE(NULL, e.reason);
		EXPECT_TRUE(hvc_mask_equal(&m, &before)) {
			TH_LOG("'%s' changed the mask on error", bad[i].in);
		}
	}
}

TEST(format_canonical)
{
	char buf[HVC_MASK_LIST_MAX];
	struct hvc_mask m;
	int n;

	hvc_mask_zero(&m);
	EXPECT_EQ(0, hvc_mask_format(&m, buf, sizeof(buf)));
	EXPECT_STREQ("", buf);
	ASSERT_EQ(-HVC_EINVAL, parse(&m, "3-0", 64, NULL));
	ASSERT_EQ(0, parse(&m, "11, 10,8 ,0-3", 64, NULL));
	n = hvc_mask_format(&m, buf, sizeof(buf));
	EXPECT_EQ(11, n);
	EXPECT_STREQ("0-3,8,10-11", buf);
	hvc_mask_fill(&m, 1024);
	hvc_mask_format(&m, buf, sizeof(buf));
	EXPECT_STREQ("0-1023", buf);
	/* exactly fitting and one byte short */
	ASSERT_EQ(0, parse(&m, "0-3,8,10-11", 64, NULL));
	EXPECT_EQ(11, hvc_mask_format(&m, buf, 12));
	EXPECT_EQ(-HVC_ENOSPC, hvc_mask_format(&m, buf, 11));
	EXPECT_EQ('\0', buf[strlen(buf)]);
	EXPECT_EQ(-HVC_ENOSPC, hvc_mask_format(&m, buf, 0));
}

static void roundtrip(struct __test_metadata *_metadata,
		      const struct hvc_mask *m)
{
	char buf[HVC_MASK_LIST_MAX];
	struct hvc_parse_error e;
	struct hvc_mask back;
	int n;

	n = hvc_mask_format(m, buf, sizeof(buf));
	ASSERT_GE(n, 0);
	ASSERT_EQ(strlen(buf), (size_t)n);
	ASSERT_EQ(0, hvc_mask_parse(&back, buf, n, HVC_MAX_COLORS, &e));
	ASSERT_TRUE(hvc_mask_equal(m, &back)) {
		TH_LOG("round trip of '%s'", buf);
	}
}

TEST(roundtrip_exhaustive_small)
{
	struct hvc_mask m;
	unsigned int v, b;

	/* every mask of 12 bits, at offsets that cross a word boundary */
	for (v = 0; v < (1u << 12); v++) {
		hvc_mask_zero(&m);
		for (b = 0; b < 12; b++)
			if (v & (1u << b)) {
				hvc_mask_set(&m, b);
				hvc_mask_set(&m, 58 + b);
				hvc_mask_set(&m, 1012 + b);
			}
		roundtrip(_metadata, &m);
	}
}

TEST(roundtrip_random_and_worst_case)
{
	struct hvc_mask m;
	unsigned int i, b, longest = 0;
	char buf[HVC_MASK_LIST_MAX];
	int n;

	srand(3);
	for (i = 0; i < 3000; i++) {
		hvc_mask_zero(&m);
		for (b = 0; b < HVC_MAX_COLORS; b++)
			if (rand() % 4 < (int)(i % 4))
				hvc_mask_set(&m, b);
		roundtrip(_metadata, &m);
	}
	/* the longest forms: pairs with gaps, and alternating bits */
	for (i = 2; i <= 3; i++) {
		hvc_mask_zero(&m);
		for (b = 0; b < HVC_MAX_COLORS; b++)
			if (b % (i + 1) != i)
				hvc_mask_set(&m, b);
		n = hvc_mask_format(&m, buf, sizeof(buf));
		ASSERT_GT(n, 0);
		if ((unsigned int)n > longest)
			longest = n;
		roundtrip(_metadata, &m);
	}
	hvc_mask_zero(&m);
	for (b = 0; b < HVC_MAX_COLORS; b += 2)
		hvc_mask_set(&m, b);
	n = hvc_mask_format(&m, buf, sizeof(buf));
	ASSERT_GT(n, 0);
	TH_LOG("longest list seen: %u bytes (limit %d)", longest, HVC_MASK_LIST_MAX);
}

TEST_HARNESS_MAIN
