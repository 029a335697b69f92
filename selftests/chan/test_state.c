// SPDX-License-Identifier: GPL-2.0
/*
 * Channel state latch tests: latest value, lost generations, a writer
 * thread against reader threads that must never see a torn value, and
 * writers that break the protocol.
 */
#include <pthread.h>
#include <stdio.h>
#include "chan_test.h"
#include "kselftest_harness.h"

#define VAL_MAX		4096
#define PUBLISHES	100000

static uint64_t val[VAL_MAX / 8];

/* Value of generation @gen: 8 to VAL_MAX bytes, every word @gen. */
static uint32_t make_val(uint64_t gen)
{
	uint32_t i, len = 8 * (1 + gen % (VAL_MAX / 8));

	for (i = 0; i < len / 8; i++)
		val[i] = gen;
	return len;
}

TEST(latest_value)
{
	struct chan_geom g;
	struct tchan t;
	uint8_t out[VAL_MAX];
	uint64_t gen;
	uint32_t len;

	tchan_state_geom(&g, VAL_MAX, 2, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	EXPECT_EQ(-CHAN_EAGAIN, chan_state_read(&t.r[0], out, &len, &gen));
	EXPECT_EQ(0, chan_state_publish(&t.w, val, make_val(1)));
	EXPECT_EQ(1, chan_state_read(&t.r[0], out, &len, &gen));
	EXPECT_EQ(1, gen);
	EXPECT_EQ(16, len);
	EXPECT_EQ(0, memcmp(out, val, len));
	/* the same value again is not new */
	EXPECT_EQ(0, chan_state_read(&t.r[0], out, &len, NULL));
	for (gen = 2; gen <= 4; gen++)
		EXPECT_EQ(0, chan_state_publish(&t.w, val, make_val(gen)));
	EXPECT_EQ(1, chan_state_read(&t.r[0], out, &len, &gen));
	EXPECT_EQ(4, gen);
	EXPECT_EQ(40, len);
	EXPECT_EQ(0, memcmp(out, val, len));
	EXPECT_EQ(2, chan_lost(&t.r[0]));
	/* reader 1 starts late: generations 1-3 lost */
	EXPECT_EQ(1, chan_state_read(&t.r[1], out, &len, &gen));
	EXPECT_EQ(3, chan_lost(&t.r[1]));
	/* empty and largest values */
	EXPECT_EQ(0, chan_state_publish(&t.w, val, 0));
	EXPECT_EQ(1, chan_state_read(&t.r[0], out, &len, &gen));
	EXPECT_EQ(0, len);
	memset(val, 0x3c, sizeof(val));
	EXPECT_EQ(0, chan_state_publish(&t.w, val, VAL_MAX));
	EXPECT_EQ(1, chan_state_read(&t.r[0], out, &len, &gen));
	EXPECT_EQ(VAL_MAX, len);
	EXPECT_EQ(0, memcmp(out, val, VAL_MAX));
	EXPECT_EQ(-CHAN_EMSGSIZE, chan_state_publish(&t.w, val, VAL_MAX + 1));
	EXPECT_EQ(-CHAN_EINVAL, chan_try_send(&t.w, val, 8));
	EXPECT_EQ(-CHAN_EINVAL, chan_try_recv(&t.r[0], out, sizeof(out), &len));
	tchan_close(&t);
}

TEST(doorbell)
{
	struct chan_geom g;
	struct tchan t;
	uint8_t out[64];
	uint32_t len;

	tchan_state_geom(&g, 64, 1, CHAN_F_DOORBELL);
	ASSERT_EQ(0, tchan_open(&t, &g));
	EXPECT_EQ(0, chan_arm(&t.r[0]));
	EXPECT_EQ(CHAN_WAKE, chan_state_publish(&t.w, val, 8));
	EXPECT_EQ(0, chan_state_publish(&t.w, val, 8));
	EXPECT_EQ(1, chan_arm(&t.r[0]));
	EXPECT_EQ(1, chan_state_read(&t.r[0], out, &len, NULL));
	EXPECT_EQ(0, chan_arm(&t.r[0]));
	tchan_close(&t);
}

struct reader_arg {
	struct chan_reader *r;
	volatile int *done;
	uint64_t reads, fresh, busy, torn, back;
};

static void *reader_thread(void *p)
{
	struct reader_arg *a = p;
	uint64_t buf[VAL_MAX / 8], gen, last = 0;
	uint32_t len, i;
	int ret;

	while (!*a->done) {
		ret = chan_state_read(a->r, buf, &len, &gen);
		if (ret == -CHAN_EBUSY) {
			a->busy++;
			continue;
		}
		if (ret < 0)
			continue;
		a->reads++;
		a->fresh += ret;
		if (gen < last)
			a->back++;
		last = gen;
		if (len != 8 * (1 + gen % (VAL_MAX / 8))) {
			a->torn++;
			continue;
		}
		for (i = 0; i < len / 8; i++) {
			if (buf[i] != gen) {
				a->torn++;
				break;
			}
		}
	}
	return NULL;
}

TEST(no_torn_value_under_threads)
{
	struct reader_arg a[2];
	pthread_t th[2];
	volatile int done = 0;
	struct chan_geom g;
	struct tchan t;
	uint64_t gen;
	int i;

	tchan_state_geom(&g, VAL_MAX, 2, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	for (i = 0; i < 2; i++) {
		a[i] = (struct reader_arg){ .r = &t.r[i], .done = &done };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, reader_thread, &a[i]));
	}
	for (gen = 1; gen <= PUBLISHES; gen++)
		ASSERT_EQ(0, chan_state_publish(&t.w, val, make_val(gen)));
	done = 1;
	for (i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		TH_LOG("reader %d: %llu reads, %llu new, %llu busy, %llu lost", i,
		       (unsigned long long)a[i].reads, (unsigned long long)a[i].fresh,
		       (unsigned long long)a[i].busy, (unsigned long long)chan_lost(&t.r[i]));
		EXPECT_EQ(0, a[i].torn);
		EXPECT_EQ(0, a[i].back);
		EXPECT_GT(a[i].fresh, 0);
		EXPECT_EQ(0, chan_broken(&t.r[i]));
		/* every generation was either read or counted lost */
		EXPECT_EQ(t.r[i].seq, a[i].fresh + chan_lost(&t.r[i]));
	}
	tchan_close(&t);
}

/* After generation 2, @poke changes the writer's memory. */
static int hostile_case(struct __test_metadata *_metadata, int poke, enum chan_broken *why)
{
	struct chan_slot_hdr *s0, *s1;
	struct chan_geom g;
	struct tchan t;
	uint8_t out[128];
	uint32_t len;
	int ret;

	tchan_state_geom(&g, 100, 1, 0);
	ASSERT_EQ(0, tchan_open(&t, &g));
	s0 = (struct chan_slot_hdr *)(t.wr + g.data_off);
	s1 = (struct chan_slot_hdr *)(t.wr + g.data_off + CHAN_SLOT_SIZE(100));
	chan_state_publish(&t.w, val, 8);
	chan_state_publish(&t.w, val, 8);
	EXPECT_EQ(1, chan_state_read(&t.r[0], out, &len, NULL));
	switch (poke) {
	case 0:
		tchan_ctrl(&t)->head = 1;
		break;
	case 1: /* slot 1 still holds gen 1 */
		tchan_ctrl(&t)->head = 3;
		break;
	case 2:
		tchan_ctrl(&t)->head = 3;
		s1->seq = 6;
		s1->len = 101;
		break;
	case 3:
		tchan_ctrl(&t)->head = 3;
		s1->seq = 6;
		s1->spare = 2;
		break;
	case 4: /* always being rewritten */
		s0->seq = 7;
		break;
	case 5:
		tchan_ctrl(&t)->head = ~0ull;
		break;
	}
	ret = chan_state_read(&t.r[0], out, &len, NULL);
	*why = chan_broken(&t.r[0]);
	tchan_close(&t);
	return ret;
}

TEST(hostile_writer)
{
	enum chan_broken why;

	EXPECT_EQ(-CHAN_EPIPE, hostile_case(_metadata, 0, &why));
	EXPECT_EQ(CHAN_BROKEN_GEN_BACK, why);
	EXPECT_EQ(-CHAN_EPIPE, hostile_case(_metadata, 1, &why));
	EXPECT_EQ(CHAN_BROKEN_SLOT, why);
	EXPECT_EQ(-CHAN_EPIPE, hostile_case(_metadata, 2, &why));
	EXPECT_EQ(CHAN_BROKEN_SLOT, why);
	EXPECT_EQ(-CHAN_EPIPE, hostile_case(_metadata, 3, &why));
	EXPECT_EQ(CHAN_BROKEN_SLOT, why);
	EXPECT_EQ(-CHAN_EBUSY, hostile_case(_metadata, 4, &why));
	EXPECT_EQ(CHAN_BROKEN_NONE, why);
	EXPECT_EQ(-CHAN_EPIPE, hostile_case(_metadata, 5, &why));
	EXPECT_EQ(CHAN_BROKEN_SLOT, why);
}

TEST_HARNESS_MAIN
