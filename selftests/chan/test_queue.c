// SPDX-License-Identifier: GPL-2.0
/*
 * Channel queue tests: round trips of every size class, wrap-around,
 * multicast, exact loss counts, reliable backpressure, the doorbell and
 * writers and readers that break the protocol.
 */
#include <stdio.h>
#include <string.h>
#include "chan_test.h"
#include "kselftest_harness.h"

#define BIG	(64 * 1024)

static uint8_t buf[BIG + 64], out[BIG + 64];

/* Send record @seq of @len bytes with the test pattern. */
static int send_pat(struct tchan *t, uint64_t seq, uint32_t len)
{
	tchan_fill(buf, seq, len);
	return chan_try_send(&t->w, buf, len);
}

/* Receive on reader @i and check it is record @seq of @len bytes. */
static int recv_pat(struct tchan *t, int i, uint64_t seq, uint32_t len)
{
	uint32_t got = 0;
	int ret = chan_try_recv(&t->r[i], out, sizeof(out), &got);

	if (ret)
		return ret;
	if (got != len)
		return -1000;
	return tchan_mismatch(out, seq, len) < 0 ? 0 : -1001;
}

TEST(roundtrip_every_size)
{
	struct chan_geom g;
	struct tchan t;
	uint64_t seq = 0;
	uint32_t len, got;

	tchan_queue_geom(&g, 256 * 1024, BIG, 1, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	/* every length to 1 KiB, then around every power of two to 64 KiB */
	for (len = 1; len <= BIG; len = len < 1024 ? len + 1 : len + 997) {
		ASSERT_EQ(0, send_pat(&t, seq, len));
		ASSERT_EQ(0, recv_pat(&t, 0, seq, len)) TH_LOG("len %u", len);
		seq++;
	}
	for (len = 2048; len <= BIG; len *= 2) {
		uint32_t l;

		for (l = len - 1; l <= len + 1 && l <= BIG; l++) {
			ASSERT_EQ(0, send_pat(&t, seq, l));
			ASSERT_EQ(0, recv_pat(&t, 0, seq, l)) TH_LOG("len %u", l);
			seq++;
		}
	}
	ASSERT_EQ(0, send_pat(&t, seq, BIG));
	ASSERT_EQ(0, recv_pat(&t, 0, seq, BIG));
	EXPECT_EQ(-CHAN_EMSGSIZE, chan_try_send(&t.w, buf, BIG + 1));
	EXPECT_EQ(-CHAN_EMSGSIZE, chan_try_send(&t.w, buf, 0));
	/* a buffer too small: the length is said, the record stays next */
	ASSERT_EQ(0, send_pat(&t, ++seq, 300));
	EXPECT_EQ(-CHAN_EMSGSIZE, chan_try_recv(&t.r[0], out, 299, &got));
	EXPECT_EQ(300, got);
	EXPECT_EQ(0, recv_pat(&t, 0, seq, 300));
	EXPECT_EQ(-CHAN_EAGAIN, chan_try_recv(&t.r[0], out, sizeof(out), &got));
	EXPECT_EQ(0, chan_lost(&t.r[0]));
	tchan_close(&t);
}

/* Sources and destinations at every offset in a word, both copy paths. */
TEST(roundtrip_any_alignment)
{
	static const uint32_t lens[] = { 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 4095, 4096, 4097 };
	uint32_t s, d, k, got;
	struct chan_geom g;
	struct tchan t;
	uint64_t seq = 0;

	tchan_queue_geom(&g, 64 * 1024, 8192, 1, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	for (s = 0; s < 8; s++) {
		for (d = 0; d < 8; d++) {
			for (k = 0; k < ARRAY_SIZE(lens); k++) {
				tchan_fill(buf + s, seq, lens[k]);
				ASSERT_EQ(0, chan_try_send(&t.w, buf + s, lens[k]));
				memset(out, 0xa5, sizeof(out));
				ASSERT_EQ(0, chan_try_recv(&t.r[0], out + d, lens[k], &got));
				ASSERT_EQ(lens[k], got);
				ASSERT_GT(0, tchan_mismatch(out + d, seq, lens[k]))
					TH_LOG("src +%u, dst +%u, %u bytes", s, d, lens[k]);
				/* not a byte past the record */
				ASSERT_EQ(0xa5, out[d + lens[k]]);
				seq++;
			}
		}
	}
	tchan_close(&t);
}

TEST(wrap_around)
{
	struct chan_geom g;
	struct tchan t;
	uint64_t seq;
	uint32_t len;

	/* 256-byte ring, records of 16 to 128 bytes: a skip every few */
	tchan_queue_geom(&g, 256, 112, 1, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	for (seq = 0; seq < 20000; seq++) {
		len = 1 + (seq * 37) % 112;
		ASSERT_EQ(0, send_pat(&t, seq, len));
		ASSERT_EQ(0, recv_pat(&t, 0, seq, len));
	}
	/* two in flight: at most 64 bytes each, with a skip still fits */
	for (; seq < 40000; seq += 2) {
		ASSERT_EQ(0, send_pat(&t, seq, 1 + seq % 48));
		ASSERT_EQ(0, send_pat(&t, seq + 1, 48 - seq % 48));
		ASSERT_EQ(0, recv_pat(&t, 0, seq, 1 + seq % 48));
		ASSERT_EQ(0, recv_pat(&t, 0, seq + 1, 48 - seq % 48));
	}
	EXPECT_EQ(0, chan_lost(&t.r[0]));
	/* the positions went round the ring thousands of times */
	EXPECT_GT(t.r[0].pos, 1000 * 256ull);
	EXPECT_EQ(0, chan_broken(&t.r[0]));
	tchan_close(&t);
}

TEST(one_writer_three_readers)
{
	struct chan_geom g;
	struct tchan t;
	uint64_t seq, next[3] = { 0 };
	int i;

	tchan_queue_geom(&g, 64 * 1024, 1000, 3, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	for (seq = 0; seq < 3000; seq++) {
		ASSERT_EQ(0, send_pat(&t, seq, 1 + seq % 1000));
		/* each reader reads at its own pace, none is lapped */
		for (i = 0; i < 3; i++) {
			if (seq % (i * 3 + 1))
				continue;
			for (; next[i] <= seq; next[i]++)
				ASSERT_EQ(0, recv_pat(&t, i, next[i], 1 + next[i] % 1000));
		}
	}
	for (i = 0; i < 3; i++) {
		for (; next[i] < seq; next[i]++)
			ASSERT_EQ(0, recv_pat(&t, i, next[i], 1 + next[i] % 1000));
		EXPECT_EQ(-CHAN_EAGAIN, recv_pat(&t, i, 0, 1));
		EXPECT_EQ(0, chan_lost(&t.r[i]));
		EXPECT_EQ(3000, next[i]);
	}
	tchan_close(&t);
}

TEST(lapped_reader_counts_exactly)
{
	struct chan_geom g;
	struct tchan t;
	uint64_t seq;

	/* 48-byte records take 64 bytes: 16 fit in a 1 KiB ring */
	tchan_queue_geom(&g, 1024, 48, 2, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	for (seq = 0; seq < 10; seq++)
		ASSERT_EQ(0, send_pat(&t, seq, 48));
	for (seq = 0; seq < 10; seq++)
		ASSERT_EQ(0, recv_pat(&t, 1, seq, 48));
	for (seq = 10; seq < 100; seq++)
		ASSERT_EQ(0, send_pat(&t, seq, 48));
	/* 100 records, the last 16 (84..99) intact */
	for (seq = 84; seq < 100; seq++) {
		ASSERT_EQ(0, recv_pat(&t, 0, seq, 48));
		ASSERT_EQ(0, recv_pat(&t, 1, seq, 48));
	}
	EXPECT_EQ(84, chan_lost(&t.r[0]));
	EXPECT_EQ(74, chan_lost(&t.r[1]));
	EXPECT_EQ(-CHAN_EAGAIN, recv_pat(&t, 0, 0, 1));
	/* caught up: no further loss */
	for (seq = 100; seq < 105; seq++)
		ASSERT_EQ(0, send_pat(&t, seq, 48));
	for (seq = 100; seq < 105; seq++)
		ASSERT_EQ(0, recv_pat(&t, 0, seq, 48));
	EXPECT_EQ(84, chan_lost(&t.r[0]));
	/* lapped again: 40 more, the last 16 intact */
	for (seq = 105; seq < 145; seq++)
		ASSERT_EQ(0, send_pat(&t, seq, 48));
	for (seq = 129; seq < 145; seq++)
		ASSERT_EQ(0, recv_pat(&t, 0, seq, 48));
	EXPECT_EQ(84 + 24, chan_lost(&t.r[0]));
	EXPECT_EQ(0, chan_broken(&t.r[0]));
	tchan_close(&t);
}

static uint64_t fake_now;
static int relaxes, drain_on_relax;
static struct tchan *relax_chan;

static uint64_t now_cb(void *ctx)
{
	(void)ctx;
	return fake_now++;
}

/* A relax that, once asked to, lets the reliable reader take a record. */
static void relax_cb(void *ctx)
{
	uint32_t len;

	(void)ctx;
	relaxes++;
	if (drain_on_relax && relaxes == drain_on_relax)
		chan_try_recv(&relax_chan->r[0], out, sizeof(out), &len);
}

TEST(reliable_backpressure)
{
	struct chan_wait wait = { .now = now_cb, .relax = relax_cb };
	struct chan_geom g;
	struct tchan t;
	uint64_t seq;

	tchan_queue_geom(&g, 1024, 48, 3, CHAN_F_RELIABLE);
	g.reliable_reader = 0;
	ASSERT_EQ(0, tchan_open(&t, &g));
	for (seq = 0; seq < 16; seq++)
		ASSERT_EQ(0, send_pat(&t, seq, 48));
	/* the ring is full of what reader 0 has not read */
	EXPECT_EQ(-CHAN_EAGAIN, send_pat(&t, 16, 48));
	EXPECT_EQ(16 * 64, t.w.head);
	ASSERT_EQ(0, recv_pat(&t, 0, 0, 48));
	ASSERT_EQ(0, send_pat(&t, 16, 48));
	EXPECT_EQ(-CHAN_EAGAIN, send_pat(&t, 17, 48));
	/* a bounded wait ends */
	relaxes = 0;
	fake_now = 0;
	EXPECT_EQ(-CHAN_ETIMEDOUT, chan_send(&t.w, buf, 48, &wait, 10));
	EXPECT_EQ(9, relaxes);
	/* a wait during which the reader takes one succeeds */
	relaxes = 0;
	drain_on_relax = 3;
	relax_chan = &t;
	tchan_fill(buf, 17, 48);
	EXPECT_EQ(0, chan_send(&t.w, buf, 48, &wait, CHAN_FOREVER));
	EXPECT_EQ(3, relaxes);
	drain_on_relax = 0;
	/* reader 0 got or gets everything; readers 1 and 2 were lapped */
	for (seq = 2; seq < 18; seq++)
		ASSERT_EQ(0, recv_pat(&t, 0, seq, 48));
	EXPECT_EQ(0, chan_lost(&t.r[0]));
	for (seq = 2; seq < 18; seq++)
		ASSERT_EQ(0, recv_pat(&t, 1, seq, 48));
	EXPECT_EQ(2, chan_lost(&t.r[1]));
	/* the ring empty for reader 0: 16 more go, the 17th waits */
	for (seq = 18; seq < 34; seq++)
		ASSERT_EQ(0, send_pat(&t, seq, 48));
	EXPECT_EQ(-CHAN_EAGAIN, send_pat(&t, 34, 48));
	for (seq = 18; seq < 34; seq++)
		ASSERT_EQ(0, recv_pat(&t, 2, seq, 48));
	EXPECT_EQ(18, chan_lost(&t.r[2]));
	EXPECT_EQ(0, chan_writer_faults(&t.w));
	tchan_close(&t);
}

TEST(hostile_feedback)
{
	static const uint64_t bad[] = { 20 * 64 + 16, 128, ~0ull, 1ull << 63, 264 };
	struct chan_geom g;
	struct tchan t;
	uint64_t seq, head;
	unsigned int i;

	tchan_queue_geom(&g, 1024, 48, 2, CHAN_F_RELIABLE | CHAN_F_DOORBELL);
	g.reliable_reader = 1;
	ASSERT_EQ(0, tchan_open(&t, &g));
	for (seq = 0; seq < 16; seq++)
		ASSERT_GE(send_pat(&t, seq, 48), 0);
	for (seq = 0; seq < 4; seq++)
		ASSERT_EQ(0, recv_pat(&t, 1, seq, 48));
	for (seq = 16; seq < 20; seq++)
		ASSERT_GE(send_pat(&t, seq, 48), 0);
	/* tail 4 * 64, head 20 * 64: below, above, unaligned are refused */
	head = t.w.head;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		tchan_fb(&t, 1)->consumed = bad[i];
		EXPECT_EQ(-CHAN_EPROTO, send_pat(&t, 20, 48))
			TH_LOG("consumed %llu", (unsigned long long)bad[i]);
		EXPECT_EQ(i + 1, chan_writer_faults(&t.w));
		EXPECT_EQ(bad[i], t.w.fb_bad);
		EXPECT_EQ(head, t.w.head);
	}
	/* a consumed position inside a record is not trusted past it */
	tchan_fb(&t, 1)->consumed = 4 * 64 + 16;
	EXPECT_EQ(-CHAN_EAGAIN, send_pat(&t, 20, 48));
	EXPECT_EQ(5, chan_writer_faults(&t.w));
	/* the true position back: reader 1 makes room and reads the rest */
	tchan_fb(&t, 1)->consumed = 4 * 64;
	EXPECT_EQ(-CHAN_EAGAIN, send_pat(&t, 20, 48));
	ASSERT_EQ(0, recv_pat(&t, 1, 4, 48));
	EXPECT_EQ(0, send_pat(&t, 20, 48));
	for (seq = 5; seq < 21; seq++)
		ASSERT_EQ(0, recv_pat(&t, 1, seq, 48)) TH_LOG("seq %llu", (unsigned long long)seq);
	/* a wake word that changes all the time: one wake-up per commit */
	for (seq = 21; seq < 25; seq++) {
		tchan_fb(&t, 0)->wake = (uint32_t)seq * 3;
		EXPECT_EQ(CHAN_WAKE, send_pat(&t, seq, 48));
		EXPECT_EQ(1, t.w.wake_mask);
		EXPECT_EQ(0, send_pat(&t, seq, 48));
		ASSERT_EQ(0, recv_pat(&t, 1, seq, 48));
		ASSERT_EQ(0, recv_pat(&t, 1, seq, 48));
	}
	tchan_close(&t);
}

TEST(doorbell)
{
	struct chan_geom g;
	struct tchan t;

	tchan_queue_geom(&g, 1024, 48, 2, CHAN_F_DOORBELL);
	ASSERT_EQ(0, tchan_open(&t, &g));
	EXPECT_EQ(0, send_pat(&t, 0, 48));
	/* armed with data there: do not sleep */
	EXPECT_EQ(1, chan_arm(&t.r[1]));
	ASSERT_EQ(0, recv_pat(&t, 1, 0, 48));
	EXPECT_EQ(0, chan_arm(&t.r[1]));
	/* one wake-up per arming, for the reader that armed */
	EXPECT_EQ(CHAN_WAKE, send_pat(&t, 1, 48));
	EXPECT_EQ(2, t.w.wake_mask);
	EXPECT_EQ(0, send_pat(&t, 2, 48));
	/* reader 0 has 3 records waiting: it arms, but must not sleep */
	EXPECT_EQ(1, chan_arm(&t.r[0]));
	EXPECT_EQ(CHAN_WAKE, send_pat(&t, 3, 48));
	EXPECT_EQ(1, t.w.wake_mask);
	/* without the flag the writer never looks */
	tchan_close(&t);
	tchan_queue_geom(&g, 1024, 48, 1, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	EXPECT_EQ(0, chan_arm(&t.r[0]));
	EXPECT_EQ(0, send_pat(&t, 0, 48));
	tchan_close(&t);
}

TEST(reserve_commit)
{
	struct chan_geom g;
	struct tchan t;
	void *p, *q;

	tchan_queue_geom(&g, 4096, 1000, 1, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	EXPECT_EQ(-CHAN_EINVAL, chan_commit(&t.w, 10));
	EXPECT_EQ(-CHAN_EMSGSIZE, chan_reserve(&t.w, 0, &p));
	EXPECT_EQ(-CHAN_EMSGSIZE, chan_reserve(&t.w, 1001, &p));
	ASSERT_EQ(0, chan_reserve(&t.w, 100, &p));
	EXPECT_EQ(0, (uintptr_t)p % CHAN_ALIGN);
	tchan_fill(p, 0, 100);
	EXPECT_EQ(-CHAN_EINVAL, chan_commit(&t.w, 101));
	/* nothing visible before the commit */
	EXPECT_EQ(-CHAN_EAGAIN, recv_pat(&t, 0, 0, 60));
	EXPECT_EQ(0, chan_commit(&t.w, 60));
	EXPECT_EQ(0, recv_pat(&t, 0, 0, 60));
	/* a reservation not committed is dropped by the next one */
	ASSERT_EQ(0, chan_reserve(&t.w, 100, &p));
	ASSERT_EQ(0, chan_reserve(&t.w, 200, &q));
	EXPECT_EQ(p, q);
	tchan_fill(q, 1, 200);
	EXPECT_EQ(0, chan_commit(&t.w, 200));
	EXPECT_EQ(-CHAN_EINVAL, chan_commit(&t.w, 200));
	EXPECT_EQ(0, recv_pat(&t, 0, 1, 200));
	EXPECT_EQ(-CHAN_EINVAL, chan_state_publish(&t.w, buf, 1));
	tchan_close(&t);
}

/*
 * One way to break the protocol: after two good records, @poke changes
 * the writer's memory; the reader must stop with @why, for good.
 */
static void hostile_case(struct __test_metadata *_metadata, int poke, enum chan_broken why)
{
	struct chan_geom g;
	struct tchan t;
	struct chan_ctrl *c;
	struct chan_rec_hdr *h;
	uint32_t len;

	tchan_queue_geom(&g, 1024, 100, 1, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	c = tchan_ctrl(&t);
	h = (struct chan_rec_hdr *)(t.wr + g.data_off + 128);	/* record 1 */
	ASSERT_EQ(0, send_pat(&t, 0, 100));
	ASSERT_EQ(0, send_pat(&t, 1, 100));
	ASSERT_EQ(0, recv_pat(&t, 0, 0, 100));
	switch (poke) {
	case 0:
		c->head = 64;
		break;
	case 1:
		c->head += 8;
		break;
	case 2:
		c->tail = c->head + 16;
		break;
	case 3:
		c->tail = 8;
		break;
	case 4:
		h->len = 101;
		break;
	case 5:
		h->len = 0;
		break;
	case 6:
		h->spare = 1;
		break;
	case 7:
		h->seq = 7;
		break;
	case 8: /* ends inside record 1 */
		c->head = 128 + 16 + 16;
		break;
	case 9: /* skip, nothing after it */
		h->len = CHAN_REC_SKIP;
		break;
	case 10: /* lapped onto a skip at 0 */
		c->tail = 1024;
		c->head = 2048;
		((struct chan_rec_hdr *)(t.wr + g.data_off))->len = CHAN_REC_SKIP;
		break;
	case 11: /* empty far ahead: fine */
		c->tail = 1 << 20;
		c->head = 1 << 20;
		break;
	case 12: /* lapped, numbers going back */
		c->tail = 128;
		h->seq = 0;
		break;
	}
	EXPECT_EQ(poke == 11 ? -CHAN_EAGAIN : -CHAN_EPIPE,
		  chan_try_recv(&t.r[0], out, sizeof(out), &len));
	EXPECT_EQ(why, chan_broken(&t.r[0]))
		TH_LOG("poke %d: %s", poke, chan_broken_str(chan_broken(&t.r[0])));
	if (why) {
		/* sticky: a good writer again does not mend it */
		ASSERT_EQ(0, chan_writer_open(&t.w, &g, t.wr, NULL));
		ASSERT_EQ(0, send_pat(&t, 0, 100));
		EXPECT_EQ(-CHAN_EPIPE, chan_try_recv(&t.r[0], out, sizeof(out), &len));
	}
	tchan_close(&t);
}

TEST(hostile_writer)
{
	hostile_case(_metadata, 0, CHAN_BROKEN_HEAD_BACK);
	hostile_case(_metadata, 1, CHAN_BROKEN_HEAD_ALIGN);
	hostile_case(_metadata, 2, CHAN_BROKEN_TAIL);
	hostile_case(_metadata, 3, CHAN_BROKEN_TAIL);
	hostile_case(_metadata, 4, CHAN_BROKEN_REC_LEN);
	hostile_case(_metadata, 5, CHAN_BROKEN_REC_LEN);
	hostile_case(_metadata, 6, CHAN_BROKEN_REC_SPARE);
	hostile_case(_metadata, 7, CHAN_BROKEN_REC_SEQ);
	hostile_case(_metadata, 8, CHAN_BROKEN_REC_HEAD);
	hostile_case(_metadata, 9, CHAN_BROKEN_SKIP);
	hostile_case(_metadata, 10, CHAN_BROKEN_SKIP);
	hostile_case(_metadata, 11, CHAN_BROKEN_NONE);
	hostile_case(_metadata, 12, CHAN_BROKEN_REC_SEQ);
}

TEST_HARNESS_MAIN
