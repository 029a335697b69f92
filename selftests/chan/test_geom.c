// SPDX-License-Identifier: GPL-2.0
/*
 * Channel geometry validation: good configs pass, each bad one is refused
 * with its reason, and neither side opens on a refused one.
 */
#include <stdio.h>
#include "chan_test.h"
#include "kselftest_harness.h"

static enum chan_geom_err check_queue(uint64_t ring, uint32_t max, uint32_t readers,
				      uint32_t flags)
{
	struct chan_geom g;

	tchan_queue_geom(&g, ring, max, readers, flags);
	return chan_geom_check(&g);
}

TEST(valid)
{
	struct chan_geom g;

	EXPECT_EQ(CHAN_GEOM_OK, check_queue(256, 1, 0, 0));
	EXPECT_EQ(CHAN_GEOM_OK, check_queue(256, 112, 1, CHAN_F_DOORBELL));
	EXPECT_EQ(CHAN_GEOM_OK, check_queue(1ull << 20, 64 * 1024, 32, CHAN_F_ALL));
	EXPECT_EQ(CHAN_GEOM_OK, check_queue(1ull << 32, (1u << 31) - 16, 1, 0));
	tchan_state_geom(&g, 1, 1, CHAN_F_DOORBELL);
	EXPECT_EQ(CHAN_GEOM_OK, chan_geom_check(&g));
	tchan_state_geom(&g, 64 * 1024, 0, 0);
	EXPECT_EQ(CHAN_GEOM_OK, chan_geom_check(&g));
	EXPECT_STREQ("ok", chan_geom_str(CHAN_GEOM_OK));
}

TEST(ring_and_records)
{
	EXPECT_EQ(CHAN_GEOM_RING_POW2, check_queue(3000, 64, 1, 0));
	EXPECT_EQ(CHAN_GEOM_RING_POW2, check_queue((1ull << 20) + 4096, 64, 1, 0));
	EXPECT_EQ(CHAN_GEOM_RING_RANGE, check_queue(0, 64, 1, 0));
	EXPECT_EQ(CHAN_GEOM_RING_RANGE, check_queue(128, 16, 1, 0));
	EXPECT_EQ(CHAN_GEOM_RING_RANGE, check_queue(1ull << 33, 64, 1, 0));
	EXPECT_EQ(CHAN_GEOM_RECORD_ZERO, check_queue(4096, 0, 1, 0));
	/* 112 bytes take 128 of a 256-byte ring, 113 take 144 */
	EXPECT_EQ(CHAN_GEOM_RECORD_LARGE, check_queue(256, 113, 1, 0));
	EXPECT_EQ(CHAN_GEOM_RECORD_LARGE, check_queue(128 * 1024, 64 * 1024, 1, 0));
	EXPECT_EQ(CHAN_GEOM_RECORD_LARGE, check_queue(1ull << 32, (1u << 31) - 15, 1, 0));
	EXPECT_STREQ("ring size not a power of two", chan_geom_str(CHAN_GEOM_RING_POW2));
}

TEST(kind_flags_readers)
{
	struct chan_geom g;

	tchan_queue_geom(&g, 4096, 64, 1, 0);
	g.kind = 3;
	EXPECT_EQ(CHAN_GEOM_KIND, chan_geom_check(&g));
	EXPECT_EQ(CHAN_GEOM_FLAGS, check_queue(4096, 64, 1, 4));
	tchan_state_geom(&g, 64, 1, CHAN_F_RELIABLE);
	EXPECT_EQ(CHAN_GEOM_FLAGS, chan_geom_check(&g));
	tchan_state_geom(&g, 64, 1, 0);
	g.ring_size = 4096;
	EXPECT_EQ(CHAN_GEOM_RING_RANGE, chan_geom_check(&g));
	tchan_queue_geom(&g, 4096, 64, 1, 0);
	g.spare = 1;
	EXPECT_EQ(CHAN_GEOM_SPARE, chan_geom_check(&g));
	/* readers: none where the flags need feedback, or too many */
	EXPECT_EQ(CHAN_GEOM_READERS, check_queue(4096, 64, 0, CHAN_F_RELIABLE));
	EXPECT_EQ(CHAN_GEOM_READERS, check_queue(4096, 64, 0, CHAN_F_DOORBELL));
	EXPECT_EQ(CHAN_GEOM_READERS, check_queue(4096, 64, CHAN_MAX_READERS + 1, 0));
	tchan_queue_geom(&g, 4096, 64, 3, CHAN_F_RELIABLE);
	g.reliable_reader = 3;
	EXPECT_EQ(CHAN_GEOM_RELIABLE, chan_geom_check(&g));
	g.reliable_reader = 2;
	EXPECT_EQ(CHAN_GEOM_OK, chan_geom_check(&g));
}

TEST(offsets)
{
	struct chan_geom g;

	tchan_queue_geom(&g, 4096, 64, 1, 0);
	g.data_off = 96;
	EXPECT_EQ(CHAN_GEOM_ALIGN, chan_geom_check(&g));
	tchan_queue_geom(&g, 4096, 64, 1, 0);
	g.feedback_off = 8;
	EXPECT_EQ(CHAN_GEOM_ALIGN, chan_geom_check(&g));
	/* the ring one byte too long for the region */
	tchan_queue_geom(&g, 4096, 64, 1, 0);
	g.writer_size--;
	EXPECT_EQ(CHAN_GEOM_REGION, chan_geom_check(&g));
	/* control block past the end; offsets that would overflow */
	tchan_queue_geom(&g, 4096, 64, 1, 0);
	g.ctrl_off = g.writer_size;
	EXPECT_EQ(CHAN_GEOM_REGION, chan_geom_check(&g));
	g.ctrl_off = ~0ull << 6;
	EXPECT_EQ(CHAN_GEOM_REGION, chan_geom_check(&g));
	tchan_queue_geom(&g, 4096, 64, 1, 0);
	g.data_off = ~0ull << 6;
	EXPECT_EQ(CHAN_GEOM_REGION, chan_geom_check(&g));
	g.data_off = 64;
	g.writer_size = 1ull << 41;
	EXPECT_EQ(CHAN_GEOM_REGION, chan_geom_check(&g));
	/* the feedback block outside the reader's region */
	tchan_queue_geom(&g, 4096, 64, 1, 0);
	g.feedback_off = g.feedback_size - 32 - 32;
	EXPECT_EQ(CHAN_GEOM_OK, chan_geom_check(&g));
	g.feedback_size -= 64;
	EXPECT_EQ(CHAN_GEOM_REGION, chan_geom_check(&g));
	/* control block inside the ring, at its start, or just before it */
	tchan_queue_geom(&g, 4096, 64, 1, 0);
	g.ctrl_off = 1024;
	EXPECT_EQ(CHAN_GEOM_OVERLAP, chan_geom_check(&g));
	g.ctrl_off = 64;
	EXPECT_EQ(CHAN_GEOM_OVERLAP, chan_geom_check(&g));
	g.ctrl_off = 4096;
	EXPECT_EQ(CHAN_GEOM_OVERLAP, chan_geom_check(&g));
	g.ctrl_off = 4096 + 64;
	g.writer_size += 128;
	EXPECT_EQ(CHAN_GEOM_OK, chan_geom_check(&g));
	/* state slots overlapping the control block */
	tchan_state_geom(&g, 100, 1, 0);
	g.ctrl_off -= 64;
	EXPECT_EQ(CHAN_GEOM_OVERLAP, chan_geom_check(&g));
}

TEST(open_refuses)
{
	static uint8_t region[8192] __attribute__((aligned(64)));
	static uint8_t fb[4096] __attribute__((aligned(64)));
	const void *fbs[1] = { fb };
	struct chan_writer w;
	struct chan_reader r;
	struct chan_geom g;

	tchan_queue_geom(&g, 4096, 64, 1, CHAN_F_RELIABLE);
	EXPECT_EQ(0, chan_writer_open(&w, &g, region, fbs));
	EXPECT_EQ(0, chan_reader_open(&r, &g, region, fb, 0));
	EXPECT_EQ(-CHAN_EINVAL, chan_writer_open(&w, &g, region + 8, fbs));
	EXPECT_EQ(-CHAN_EINVAL, chan_writer_open(&w, &g, region, NULL));
	EXPECT_EQ(-CHAN_EINVAL, chan_reader_open(&r, &g, region, fb + 8, 0));
	EXPECT_EQ(-CHAN_EINVAL, chan_reader_open(&r, &g, region, fb, 1));
	g.ring_size = 3000;
	EXPECT_EQ(-CHAN_EINVAL, chan_writer_open(&w, &g, region, fbs));
	EXPECT_EQ(-CHAN_EINVAL, chan_reader_open(&r, &g, region, fb, 0));
}

TEST(reason_strings)
{
	int i;

	for (i = 1; i < CHAN_GEOM_NR; i++)
		EXPECT_STRNE("ok", chan_geom_str(i));
	for (i = 1; i < CHAN_BROKEN_NR; i++)
		EXPECT_STRNE("not broken", chan_broken_str(i));
	EXPECT_STREQ("unknown", chan_geom_str(CHAN_GEOM_NR));
	EXPECT_STREQ("unknown", chan_broken_str(-1));
	EXPECT_STREQ("record number out of order", chan_broken_str(CHAN_BROKEN_REC_SEQ));
}

TEST_HARNESS_MAIN
