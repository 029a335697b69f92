// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color host tests: the colored frame allocator against a slow model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <colorguard/hv_color.h>
#include "kselftest_harness.h"

static struct hvc_allocator alloc_a, alloc_b;

/* The allocator's bucket list must be exactly the sorted free counts. */
static void check_invariants(struct __test_metadata *_metadata,
			     const struct hvc_allocator *a)
{
	unsigned int c, seen = 0, nr_buckets = 0;
	hvc_u64 prev = ~0ull, nfree = 0;
	hvc_u16 b;

	for (b = a->head; b != HVC_NO_BUCKET; b = a->buckets[b].next) {
		const struct hvc_alloc_bucket *bk = &a->buckets[b];
		unsigned int members = 0, w;

		ASSERT_LT(nr_buckets++, HVC_MAX_COLORS);
		ASSERT_LT(bk->count, prev);
		ASSERT_GT(bk->count, 0);
		prev = bk->count;
		for (w = 0; w < HVC_MASK_WORDS; w++)
			members += __builtin_popcountll(bk->bits[w]);
		ASSERT_EQ(members, bk->members);
		for (c = 0; c < a->nr_colors; c++)
			if (bk->bits[c / 64] >> (c % 64) & 1) {
				ASSERT_EQ(bk->count, a->free[c]);
				ASSERT_EQ(b, a->bucket_of[c]);
			}
		if (bk->next == HVC_NO_BUCKET)
			ASSERT_EQ(b, a->tail);
		seen += members;
	}
	for (c = 0; c < a->nr_colors; c++) {
		nfree += a->free[c];
		/* an ASSERT is not a single statement: not in an if arm */
		ASSERT_EQ(!a->free[c], a->bucket_of[c] == HVC_NO_BUCKET);
		seen -= !!a->free[c];
	}
	ASSERT_EQ(0, seen);
	ASSERT_EQ(nfree, a->nr_free);
}

/* The rule, the slow way: most free frames, ties to the lowest color */
static int model_pick(const struct hvc_allocator *a, const struct hvc_mask *m)
{
	unsigned int c;
	int best = -1;

	for (c = 0; c < a->nr_colors; c++)
		if (hvc_mask_test(m, c) && a->free[c] &&
		    (best < 0 || a->free[c] > a->free[best]))
			best = c;
	return best;
}

static void random_mask(struct hvc_mask *m, unsigned int nr)
{
	unsigned int c, kind = rand() % 4;

	hvc_mask_zero(m);
	for (c = 0; c < nr; c++)
		if (kind == 0 ? rand() % 2 : kind == 1 ? rand() % 16 == 0 :
		    kind == 2 ? c < nr / 2 : rand() % 64 != 0)
			hvc_mask_set(m, c);
}

#define NR_FRAMES 6000

TEST(random_ops_match_model)
{
	static struct hvc_frame frames[NR_FRAMES];
	static unsigned char handed_out[NR_FRAMES];
	struct hvc_geometry g;
	unsigned int nr, step, added = 0, i;
	struct hvc_mask m;
	hvc_u64 used[64] = { 0 };

	for (nr = 2; nr <= 1024; nr *= 8) {
		ASSERT_EQ(0, hvc_geometry_from_way_size(&g, nr * 4096ull, 64, 8, 12, 1));
		ASSERT_EQ(0, hvc_alloc_init(&alloc_a, &g));
		memset(frames, 0, sizeof(frames));
		memset(handed_out, 0, sizeof(handed_out));
		memset(used, 0, sizeof(used));
		added = 0;
		srand(nr);
		for (step = 0; step < 40000; step++) {
			unsigned int op = rand() % 10;

			if (op < 2 && added < NR_FRAMES) {
				/* a lumpy pool: pfns in random runs */
				hvc_u64 pfn = (hvc_u64)rand() * 64 + added % 7;
				unsigned int n = 1 + rand() % 40;

				if (n > NR_FRAMES - added)
					n = NR_FRAMES - added;
				ASSERT_EQ(0, hvc_alloc_add_range(&alloc_a, &frames[added], n, pfn));
				added += n;
			} else if (op < 6) {
				struct hvc_frame *f;
				int want;

				random_mask(&m, nr);
				want = model_pick(&alloc_a, &m);
				f = hvc_alloc_frame(&alloc_a, &m);
				if (want < 0) {
					ASSERT_NULL(f);
					continue;
				}
				ASSERT_NE(NULL, f);
				ASSERT_EQ(want, (int)f->color);
				ASSERT_TRUE(hvc_mask_test(&m, f->color));
				ASSERT_EQ(hvc_color_of_pfn(&g, f->pfn), f->color);
				ASSERT_EQ(HVC_FRAME_USED, f->state);
				i = f - frames;
				ASSERT_LT(i, added);
				ASSERT_FALSE(handed_out[i]);
				handed_out[i] = 1;
			} else if (added) {
				i = rand() % added;
				if (op < 9) {
					ASSERT_EQ(handed_out[i] ? 0 : -HVC_EALREADY,
						  hvc_alloc_free(&alloc_a, &frames[i]));
					handed_out[i] = 0;
				} else if (!handed_out[i] && frames[i].owner) {
					ASSERT_EQ(0, hvc_alloc_remove(&alloc_a, &frames[i]));
					ASSERT_EQ(HVC_FRAME_DETACHED, frames[i].state);
					/* re-add it at once so indices stay dense */
					ASSERT_EQ(0, hvc_alloc_add(&alloc_a, &frames[i],
								   frames[i].pfn));
				}
			}
			if (step % 97 == 0)
				check_invariants(_metadata, &alloc_a);
		}
		check_invariants(_metadata, &alloc_a);
		for (i = 0; i < added; i++)
			if (handed_out[i])
				used[frames[i].color % 64]++;
		for (i = 0; i < nr && i < 64; i++) {
			hvc_u64 sum = 0;
			unsigned int c;

			for (c = i; c < nr; c += 64)
				sum += hvc_alloc_used_count(&alloc_a, c);
			ASSERT_EQ(used[i], sum);
		}
	}
}

TEST(uniform_pool_stays_balanced)
{
	static struct hvc_frame frames[1024 * 8];
	struct hvc_geometry g;
	struct hvc_mask m;
	unsigned int trial, n, c;

	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 1024 * 4096ull, 64, 16, 12, 1));
	srand(11);
	for (trial = 0; trial < 12; trial++) {
		hvc_u64 lo = ~0ull, hi = 0, allowed_free = 0;

		ASSERT_EQ(0, hvc_alloc_init(&alloc_a, &g));
		memset(frames, 0, sizeof(frames));
		ASSERT_EQ(0, hvc_alloc_add_range(&alloc_a, frames, 1024 * 8, 0x100000));
		random_mask(&m, 1024);
		if (hvc_mask_empty(&m))
			hvc_mask_set(&m, 3);
		for (c = 0; c < 1024; c++)
			if (hvc_mask_test(&m, c))
				allowed_free += 8;
		n = rand() % allowed_free + 1;
		while (n--)
			ASSERT_NE(NULL, hvc_alloc_frame(&alloc_a, &m));
		for (c = 0; c < 1024; c++) {
			hvc_u64 f = hvc_alloc_free_count(&alloc_a, c);

			if (!hvc_mask_test(&m, c)) {
				ASSERT_EQ(8, f);	/* forbidden colors untouched */
				continue;
			}
			lo = f < lo ? f : lo;
			hi = f > hi ? f : hi;
		}
		ASSERT_LE(hi - lo, 1);
	}
}

TEST(exhaustion_and_impossible_masks)
{
	static struct hvc_frame frames[64];
	struct hvc_geometry g;
	struct hvc_mask m, none;
	unsigned int i;

	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 8 * 4096ull, 64, 8, 12, 1));
	ASSERT_EQ(0, hvc_alloc_init(&alloc_a, &g));
	memset(frames, 0, sizeof(frames));
	/* colors 0-3 only */
	for (i = 0; i < 64; i++)
		ASSERT_EQ(0, hvc_alloc_add(&alloc_a, &frames[i], (i / 4) * 8 + i % 4));
	hvc_mask_zero(&none);
	EXPECT_NULL(hvc_alloc_frame(&alloc_a, &none));
	hvc_mask_zero(&m);
	hvc_mask_set(&m, 5);
	hvc_mask_set(&m, 600);		/* beyond the geometry */
	EXPECT_NULL(hvc_alloc_frame(&alloc_a, &m));
	EXPECT_EQ(64, alloc_a.nr_free);
	hvc_mask_set(&m, 2);
	for (i = 0; i < 16; i++) {
		struct hvc_frame *f = hvc_alloc_frame(&alloc_a, &m);

		ASSERT_NE(NULL, f);
		ASSERT_EQ(2, f->color);
	}
	EXPECT_NULL(hvc_alloc_frame(&alloc_a, &m));
	EXPECT_EQ(0, hvc_alloc_free_count(&alloc_a, 2));
	EXPECT_EQ(16, hvc_alloc_used_count(&alloc_a, 2));
	EXPECT_EQ(16, hvc_alloc_free_count(&alloc_a, 0));
	EXPECT_EQ(0, hvc_alloc_free_count(&alloc_a, 5000));
	check_invariants(_metadata, &alloc_a);
}

TEST(double_free_and_foreign_frames)
{
	static struct hvc_frame frames[16], other[4], loose;
	struct hvc_geometry g;
	struct hvc_frame *f;
	struct hvc_mask all;
	hvc_u64 nfree, nused;

	ASSERT_EQ(0, hvc_geometry_from_way_size(&g, 4 * 4096ull, 64, 8, 12, 2));
	ASSERT_EQ(2, g.nr_colors);
	ASSERT_EQ(0, hvc_alloc_init(&alloc_a, &g));
	ASSERT_EQ(0, hvc_alloc_init(&alloc_b, &g));
	memset(frames, 0, sizeof(frames));
	hvc_frame_init(&loose);
	ASSERT_EQ(0, hvc_alloc_add_range(&alloc_a, frames, 16, 0));
	/* two pages per color */
	EXPECT_EQ(0, frames[1].color);
	EXPECT_EQ(1, frames[2].color);
	EXPECT_EQ(1, frames[3].color);
	EXPECT_EQ(0, frames[4].color);
	for (int i = 0; i < 4; i++)
		hvc_frame_init(&other[i]);
	ASSERT_EQ(0, hvc_alloc_add_range(&alloc_b, other, 4, 100));

	hvc_mask_fill(&all, 2);
	f = hvc_alloc_frame(&alloc_a, &all);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, hvc_alloc_free(&alloc_a, f));
	nfree = alloc_a.nr_free;
	nused = alloc_a.nr_used;
	EXPECT_EQ(-HVC_EALREADY, hvc_alloc_free(&alloc_a, f));
	EXPECT_EQ(-HVC_EINVAL, hvc_alloc_free(&alloc_a, &other[0]));
	EXPECT_EQ(-HVC_EINVAL, hvc_alloc_free(&alloc_a, &loose));
	EXPECT_EQ(-HVC_EINVAL, hvc_alloc_free(&alloc_a, NULL));
	EXPECT_EQ(-HVC_EINVAL, hvc_alloc_remove(&alloc_a, &other[1]));
	EXPECT_EQ(-HVC_EEXIST, hvc_alloc_add(&alloc_a, &frames[3], 3));
	EXPECT_EQ(-HVC_EEXIST, hvc_alloc_add(&alloc_a, &other[2], 3));
	EXPECT_EQ(nfree, alloc_a.nr_free);
	EXPECT_EQ(nused, alloc_a.nr_used);
	EXPECT_EQ(HVC_FRAME_FREE, f->state);
	EXPECT_EQ(4, alloc_b.nr_free);

	/* used frames cannot leave the pool; removed ones are foreign */
	f = hvc_alloc_frame(&alloc_a, &all);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(-HVC_EBUSY, hvc_alloc_remove(&alloc_a, f));
	EXPECT_EQ(0, hvc_alloc_free(&alloc_a, f));
	EXPECT_EQ(0, hvc_alloc_remove(&alloc_a, f));
	EXPECT_EQ(-HVC_EINVAL, hvc_alloc_free(&alloc_a, f));
	EXPECT_EQ(-HVC_EINVAL, hvc_alloc_remove(&alloc_a, f));
	EXPECT_EQ(15, alloc_a.nr_free);
	check_invariants(_metadata, &alloc_a);

	/* pfn limits, all or nothing */
	hvc_frame_init(&loose);
	EXPECT_EQ(-HVC_ERANGE, hvc_alloc_add(&alloc_a, &loose, HVC_PA_LIMIT >> 12));
	EXPECT_EQ(0, hvc_alloc_add(&alloc_a, &loose, (HVC_PA_LIMIT >> 12) - 1));
	for (int i = 0; i < 4; i++)
		hvc_frame_init(&other[i]);
	EXPECT_EQ(-HVC_ERANGE, hvc_alloc_add_range(&alloc_a, other, 4,
						   (HVC_PA_LIMIT >> 12) - 3));
	EXPECT_EQ(-HVC_ERANGE, hvc_alloc_add_range(&alloc_a, other, ~0ull, 1));
	other[3].state = HVC_FRAME_FREE;
	EXPECT_EQ(-HVC_EEXIST, hvc_alloc_add_range(&alloc_a, other, 4, 1000));
	EXPECT_EQ(HVC_FRAME_DETACHED, other[0].state);
	EXPECT_EQ(NULL, other[0].owner);
	EXPECT_EQ(16, alloc_a.nr_free);
	check_invariants(_metadata, &alloc_a);
}

TEST(bad_geometry)
{
	struct hvc_geometry g = { .nr_colors = 3, .page_shift = 12 };

	EXPECT_EQ(-HVC_EINVAL, hvc_alloc_init(&alloc_a, &g));
	g.nr_colors = 2048;
	EXPECT_EQ(-HVC_EINVAL, hvc_alloc_init(&alloc_a, &g));
}

TEST_HARNESS_MAIN
