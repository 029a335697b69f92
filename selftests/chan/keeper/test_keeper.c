// SPDX-License-Identifier: GPL-2.0
/*
 * The keeper and root Linux's channel library together, on the host
 * (--no-color: memfds): round trips of every record size and of state
 * values, one writer to three readers, read-only descriptors that cannot
 * be made writable, who may open which slot, the peers page on attach
 * and detach, a writer that comes back, exact losses of a lapped reader,
 * reliable backpressure, receive timeouts and the doorbell.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/mman.h>

#include "keeper_test.h"
#include "kselftest_harness.h"

#define LOG_MAX		4096

FIXTURE(keeper) {
	struct kt t;
};

FIXTURE_SETUP(keeper)
{
	ASSERT_EQ(0, kt_start(&self->t));
}

FIXTURE_TEARDOWN(keeper)
{
	/* SIGTERM ends it with status 0 and no socket left. */
	EXPECT_EQ(0, kt_stop(&self->t)) TH_LOG("keeper status 0x%x", self->t.status);
}

static int open_end(struct kt *t, const char *cell, const char *chan, int role,
		    unsigned int slot, struct cg_chan **c, char *why, size_t len)
{
	return cg_chan_open(t->sock, cell, chan, role, slot, 1, c, why, len);
}

#define OPEN_OK(cell, chan, role, slot, c) do {					\
	const char *_cell = (cell), *_chan = (chan);				\
	char _why[CHAN_KEEP_WHY_MAX];						\
	int _ret = open_end(&self->t, _cell, _chan, role, slot, c, _why,	\
			    sizeof(_why));					\
	ASSERT_EQ(0, _ret) TH_LOG("open %s %s: %s", _cell, _chan, _why);	\
} while (0)

static uint32_t ld32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static uint64_t ld64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

TEST_F(keeper, queue_round_trip_of_every_size)
{
	static uint8_t buf[LOG_MAX], out[LOG_MAX];
	struct cg_chan *w, *r;
	struct cg_chan_stats st;
	uint32_t len, got;
	uint64_t seq = 0, bytes = 0;

	OPEN_OK("rt", "log", CHAN_KEEP_WRITER, 0, &w);
	OPEN_OK("linux", "log", CHAN_KEEP_READER, 0, &r);
	ASSERT_EQ(LOG_MAX, cg_chan_geometry(r)->max_record);
	for (len = 1; len <= LOG_MAX; len++, seq++) {
		kt_fill(buf, seq, len);
		ASSERT_EQ(0, cg_chan_send(w, buf, len, 0)) TH_LOG("len %u", len);
		ASSERT_EQ(0, cg_chan_recv(r, out, sizeof(out), &got, 0)) TH_LOG("len %u", len);
		ASSERT_EQ(len, got);
		ASSERT_EQ(0, kt_check(out, seq, len)) TH_LOG("len %u", len);
		bytes += len;
	}
	/* A record larger than max_record is refused whole. */
	EXPECT_EQ(-EMSGSIZE, cg_chan_send(w, buf, LOG_MAX + 1, 0));
	cg_chan_get_stats(r, &st);
	EXPECT_EQ(LOG_MAX, st.records);
	EXPECT_EQ(bytes, st.bytes);
	EXPECT_EQ(0, st.lost);
	cg_chan_close(r);
	cg_chan_close(w);
}

TEST_F(keeper, state_values)
{
	uint8_t buf[256], out[256];
	struct cg_chan *w, *r;
	uint32_t len, got;
	uint64_t gen;

	OPEN_OK("rt", "vehicle", CHAN_KEEP_WRITER, 0, &w);
	OPEN_OK("linux", "vehicle", CHAN_KEEP_READER, 2, &r);
	EXPECT_EQ(2, cg_chan_index(r));
	EXPECT_EQ(-EAGAIN, cg_chan_read_state(r, out, sizeof(out), &got, &gen));
	for (len = 0; len <= 256; len++) {
		kt_fill(buf, len, len);
		ASSERT_EQ(0, cg_chan_publish(w, buf, len));
		ASSERT_EQ(1, cg_chan_read_state(r, out, sizeof(out), &got, &gen));
		ASSERT_EQ(len, got);
		ASSERT_EQ(len + 1, gen);
		ASSERT_EQ(0, kt_check(out, len, len));
		/* The same value again is not new. */
		ASSERT_EQ(0, cg_chan_read_state(r, out, sizeof(out), &got, &gen));
	}
	/* A buffer smaller than max_record could not take every value. */
	EXPECT_EQ(-EMSGSIZE, cg_chan_read_state(r, out, 255, &got, &gen));
	cg_chan_close(r);
	cg_chan_close(w);
}

TEST_F(keeper, one_writer_three_readers)
{
	struct cg_chan *w, *r[3], *extra = NULL;
	char why[CHAN_KEEP_WHY_MAX];
	uint8_t buf[64], out[64];
	unsigned int i;
	uint64_t seq;
	uint32_t got;

	OPEN_OK("rt", "log", CHAN_KEEP_WRITER, 0, &w);
	for (i = 0; i < 3; i++) {
		OPEN_OK("linux", "log", CHAN_KEEP_READER, ~0u, &r[i]);
		EXPECT_EQ(i, cg_chan_index(r[i]));
	}
	EXPECT_EQ(-EBUSY, open_end(&self->t, "linux", "log", CHAN_KEEP_READER, ~0u,
				   &extra, why, sizeof(why)));
	EXPECT_STREQ("all 3 reader slots of cell \"linux\" in \"log\" are attached", why);
	for (seq = 0; seq < 100; seq++) {
		kt_fill(buf, seq, sizeof(buf));
		ASSERT_EQ(0, cg_chan_send(w, buf, sizeof(buf), 0));
	}
	for (i = 0; i < 3; i++) {
		for (seq = 0; seq < 100; seq++) {
			ASSERT_EQ(0, cg_chan_recv(r[i], out, sizeof(out), &got, 0));
			ASSERT_EQ(0, kt_check(out, seq, got))
				TH_LOG("reader %u seq %llu", i, (unsigned long long)seq);
		}
		EXPECT_EQ(-EAGAIN, cg_chan_recv(r[i], out, sizeof(out), &got, 0));
		cg_chan_close(r[i]);
	}
	cg_chan_close(w);
}

/* A shared mapping of @fd cannot be made writable, at mmap or later. */
static int stays_read_only(int fd, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int ret = 0;

	if (p != MAP_FAILED) {
		munmap(p, size);
		return -1;
	}
	if (errno != EACCES)
		return -2;
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -3;
	if (!mprotect(p, size, PROT_READ | PROT_WRITE))
		ret = -4;
	else if (errno != EACCES)
		ret = -5;
	munmap(p, size);
	return ret;
}

static int writable(int fd, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return 0;
	munmap(p, size);
	return 1;
}

TEST_F(keeper, read_only_descriptors_stay_read_only)
{
	struct chan_keep_reply rep;
	struct chan_keep_req req;
	int fds[CHAN_KEEP_MAX_FDS], rd, wr;
	unsigned int n, i;
	struct cg_chan *c;

	/* A reader: region and peers read-only, its feedback writable. */
	rd = kt_connect(self->t.sock);
	ASSERT_LE(0, rd);
	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_READER, "rt", "commands", 0);
	ASSERT_EQ(sizeof(rep), kt_call(rd, &req, sizeof(req), &rep, sizeof(rep), fds, &n));
	ASSERT_EQ(0, rep.err) TH_LOG("%s", rep.why);
	ASSERT_EQ(4, n);
	EXPECT_EQ(0, stays_read_only(fds[0], rep.geom.writer_size));
	EXPECT_EQ(0, stays_read_only(fds[1], CHAN_PEERS_SIZE));
	EXPECT_EQ(1, writable(fds[2], rep.geom.feedback_size));
	kt_close_fds(fds, n);

	/* The writer: its region writable, the readers' feedback read-only. */
	wr = kt_connect(self->t.sock);
	ASSERT_LE(0, wr);
	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_WRITER, "linux", "commands", 0);
	ASSERT_EQ(sizeof(rep), kt_call(wr, &req, sizeof(req), &rep, sizeof(rep), fds, &n));
	ASSERT_EQ(0, rep.err) TH_LOG("%s", rep.why);
	/* region, peers, 1 feedback, 1 eventfd */
	ASSERT_EQ(4, n);
	EXPECT_EQ(1, writable(fds[0], rep.geom.writer_size));
	EXPECT_EQ(0, stays_read_only(fds[1], CHAN_PEERS_SIZE));
	EXPECT_EQ(0, stays_read_only(fds[2], rep.geom.feedback_size));
	kt_close_fds(fds, n);
	close(rd);
	close(wr);

	/* The library's own mappings: a reader cannot make its region writable. */
	ASSERT_EQ(0, kt_sync(&self->t));
	OPEN_OK("linux", "log", CHAN_KEEP_READER, 0, &c);
	EXPECT_NE(0, mprotect(cg_chan_memory(c)->region, cg_chan_geometry(c)->writer_size,
			      PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_NE(0, mprotect((void *)cg_chan_memory(c)->peers, CHAN_PEERS_SIZE,
			      PROT_READ | PROT_WRITE));
	for (i = 0; i < cg_chan_memory(c)->nr_feedback; i++)
		EXPECT_EQ(0, mprotect(cg_chan_memory(c)->feedback[i],
				      cg_chan_geometry(c)->feedback_size,
				      PROT_READ | PROT_WRITE));
	cg_chan_close(c);
}

TEST_F(keeper, who_may_open_what)
{
	char why[CHAN_KEEP_WHY_MAX];
	struct cg_chan *c = NULL;

	EXPECT_EQ(-EPERM, open_end(&self->t, "linux", "log", CHAN_KEEP_WRITER, 0, &c,
				   why, sizeof(why)));
	EXPECT_STREQ("cell \"linux\" does not write \"log\"", why);
	EXPECT_EQ(-EPERM, open_end(&self->t, "rt", "log", CHAN_KEEP_READER, 0, &c,
				   why, sizeof(why)));
	EXPECT_STREQ("cell \"rt\" does not read \"log\"", why);
	EXPECT_EQ(-ENOENT, open_end(&self->t, "rt", "nope", CHAN_KEEP_WRITER, 0, &c,
				    why, sizeof(why)));
	EXPECT_STREQ("no channel \"nope\"", why);
	EXPECT_EQ(-ENOENT, open_end(&self->t, "ghost", "log", CHAN_KEEP_WRITER, 0, &c,
				    why, sizeof(why)));
	EXPECT_STREQ("no cell \"ghost\"", why);
	EXPECT_EQ(-ERANGE, open_end(&self->t, "linux", "log", CHAN_KEEP_READER, 3, &c,
				    why, sizeof(why)));
	EXPECT_STREQ("cell \"linux\" has 3 reader slots of \"log\"", why);
	EXPECT_EQ(NULL, c);
	ASSERT_TRUE(kt_alive(&self->t));
}

TEST_F(keeper, attached_slot_is_busy_until_closed)
{
	char why[CHAN_KEEP_WHY_MAX], want[CHAN_KEEP_WHY_MAX];
	struct cg_chan *a, *b = NULL, *w;

	OPEN_OK("linux", "log", CHAN_KEEP_READER, 1, &a);
	EXPECT_EQ(-EBUSY, open_end(&self->t, "linux", "log", CHAN_KEEP_READER, 1, &b,
				   why, sizeof(why)));
	snprintf(want, sizeof(want), "reader slot 1 of cell \"linux\" is attached (pid %d)",
		 (int)getpid());
	EXPECT_STREQ(want, why);
	cg_chan_close(a);
	ASSERT_EQ(0, kt_sync(&self->t));
	OPEN_OK("linux", "log", CHAN_KEEP_READER, 1, &b);
	cg_chan_close(b);

	OPEN_OK("rt", "log", CHAN_KEEP_WRITER, 0, &w);
	EXPECT_EQ(-EBUSY, open_end(&self->t, "rt", "log", CHAN_KEEP_WRITER, 0, &b,
				   why, sizeof(why)));
	snprintf(want, sizeof(want), "the writer of \"log\" is attached (pid %d)",
		 (int)getpid());
	EXPECT_STREQ(want, why);
	cg_chan_close(w);
	ASSERT_EQ(0, kt_sync(&self->t));
	OPEN_OK("rt", "log", CHAN_KEEP_WRITER, 0, &w);
	cg_chan_close(w);
}

TEST_F(keeper, peers_page_follows_attach_and_detach)
{
	const struct chan_peers *p;
	struct cg_chan *w, *r;
	uint64_t epoch;

	OPEN_OK("rt", "log", CHAN_KEEP_WRITER, 0, &w);
	p = cg_chan_memory(w)->peers;
	EXPECT_EQ(4, ld32(&p->nr_peers));
	EXPECT_EQ(1, ld64(&p->epoch));
	EXPECT_EQ(CHAN_PEER_ATTACHED, ld32(&p->peer[0].state));
	EXPECT_EQ(1, ld32(&p->peer[0].attaches));
	EXPECT_EQ(1, ld64(&p->peer[0].epoch));
	EXPECT_EQ(CHAN_PEER_ABSENT, ld32(&p->peer[2].state));

	OPEN_OK("linux", "log", CHAN_KEEP_READER, 1, &r);
	EXPECT_EQ(2, ld64(&p->epoch));
	EXPECT_EQ(CHAN_PEER_ATTACHED, ld32(&p->peer[2].state));
	EXPECT_EQ(1, ld32(&p->peer[2].attaches));
	EXPECT_EQ(2, ld64(&p->peer[2].epoch));

	cg_chan_close(r);
	ASSERT_EQ(0, kt_sync(&self->t));
	epoch = ld64(&p->epoch);
	EXPECT_EQ(3, epoch);
	EXPECT_EQ(CHAN_PEER_ABSENT, ld32(&p->peer[2].state));
	EXPECT_EQ(1, ld32(&p->peer[2].attaches));
	EXPECT_EQ(3, ld64(&p->peer[2].epoch));

	OPEN_OK("linux", "log", CHAN_KEEP_READER, 1, &r);
	EXPECT_EQ(4, ld64(&p->epoch));
	EXPECT_EQ(2, ld32(&p->peer[2].attaches));
	/* Other peers did not move. */
	EXPECT_EQ(1, ld32(&p->peer[0].attaches));
	EXPECT_EQ(0, ld32(&p->peer[1].attaches));
	cg_chan_close(r);
	cg_chan_close(w);
}

TEST_F(keeper, reader_follows_a_writer_that_comes_back)
{
	struct cg_chan *w, *r;
	struct cg_chan_stats st;
	uint8_t buf[100], out[100];
	uint64_t seq;
	uint32_t got;

	OPEN_OK("rt", "log", CHAN_KEEP_WRITER, 0, &w);
	OPEN_OK("linux", "log", CHAN_KEEP_READER, 0, &r);
	for (seq = 0; seq < 5; seq++) {
		kt_fill(buf, seq, sizeof(buf));
		ASSERT_EQ(0, cg_chan_send(w, buf, sizeof(buf), 0));
		ASSERT_EQ(0, cg_chan_recv(r, out, sizeof(out), &got, 0));
	}
	/* Left unread by the reader: the next writer starts afresh. */
	ASSERT_EQ(0, cg_chan_send(w, buf, sizeof(buf), 0));
	cg_chan_close(w);
	ASSERT_EQ(0, kt_sync(&self->t));
	OPEN_OK("rt", "log", CHAN_KEEP_WRITER, 0, &w);
	for (seq = 1000; seq < 1003; seq++) {
		kt_fill(buf, seq, sizeof(buf));
		ASSERT_EQ(0, cg_chan_send(w, buf, sizeof(buf), 0));
	}
	for (seq = 1000; seq < 1003; seq++) {
		ASSERT_EQ(0, cg_chan_recv(r, out, sizeof(out), &got, 1000));
		ASSERT_EQ(sizeof(buf), got);
		ASSERT_EQ(0, kt_check(out, seq, got)) TH_LOG("seq %llu", (unsigned long long)seq);
	}
	EXPECT_EQ(-EAGAIN, cg_chan_recv(r, out, sizeof(out), &got, 0));
	cg_chan_get_stats(r, &st);
	EXPECT_EQ(1, st.restarts);
	EXPECT_EQ(8, st.records);
	EXPECT_EQ(0, st.broken);
	cg_chan_close(r);
	cg_chan_close(w);
}

TEST_F(keeper, reader_waits_for_the_first_writer)
{
	struct cg_chan *w, *r;
	struct cg_chan_stats st;
	uint8_t buf[32], out[32];
	uint32_t got;

	OPEN_OK("linux", "log", CHAN_KEEP_READER, 0, &r);
	EXPECT_EQ(-EAGAIN, cg_chan_recv(r, out, sizeof(out), &got, 0));
	OPEN_OK("rt", "log", CHAN_KEEP_WRITER, 0, &w);
	kt_fill(buf, 7, sizeof(buf));
	ASSERT_EQ(0, cg_chan_send(w, buf, sizeof(buf), 0));
	ASSERT_EQ(0, cg_chan_recv(r, out, sizeof(out), &got, 1000));
	EXPECT_EQ(0, kt_check(out, 7, got));
	cg_chan_get_stats(r, &st);
	/* It re-opened for the writer's first attach: a start, not a restart. */
	EXPECT_EQ(0, st.restarts);
	cg_chan_close(w);
	cg_chan_close(r);
}

TEST_F(keeper, lapped_reader_counts_its_losses)
{
	struct cg_chan *w, *r;
	struct cg_chan_stats st;
	uint8_t buf[64], out[64];
	uint64_t seq, first = 0, got_n = 0;
	uint32_t got, len;
	int ret;

	OPEN_OK("rt", "small", CHAN_KEEP_WRITER, 0, &w);
	OPEN_OK("linux", "small", CHAN_KEEP_READER, 0, &r);
	/* Lengths that do not divide the ring: skip records too. */
	for (seq = 0; seq < 500; seq++) {
		len = 8 + seq % 57;
		kt_fill(buf, seq, len);
		ASSERT_EQ(0, cg_chan_send(w, buf, len, 0));
	}
	while ((ret = cg_chan_recv(r, out, sizeof(out), &got, 0)) == 0) {
		memcpy(&seq, out, sizeof(seq));
		if (!got_n)
			first = seq;
		ASSERT_EQ(first + got_n, seq);
		ASSERT_EQ(0, kt_check(out, seq, got));
		got_n++;
	}
	EXPECT_EQ(-EAGAIN, ret);
	ASSERT_LT(0, first);
	EXPECT_EQ(500, first + got_n);
	cg_chan_get_stats(r, &st);
	EXPECT_EQ(first, st.lost);
	cg_chan_close(r);
	cg_chan_close(w);
}

TEST_F(keeper, reliable_reader_holds_the_writer_back)
{
	struct cg_chan *w, *r;
	uint8_t buf[100], out[256];
	unsigned int sent = 0, i;
	uint32_t got;
	int ret;

	OPEN_OK("linux", "commands", CHAN_KEEP_WRITER, 0, &w);
	OPEN_OK("rt", "commands", CHAN_KEEP_READER, 0, &r);
	while ((ret = cg_chan_send(w, buf, sizeof(buf), 0)) == 0 && sent < 1000)
		sent++;
	EXPECT_EQ(-EAGAIN, ret);
	/* 4 KiB of 128-byte records. */
	EXPECT_EQ(32, sent);
	EXPECT_EQ(-ETIMEDOUT, cg_chan_send(w, buf, sizeof(buf), 20));
	/* Room for one more once one is read, and not for two. */
	ASSERT_EQ(0, cg_chan_recv(r, out, sizeof(out), &got, 0));
	EXPECT_EQ(0, cg_chan_send(w, buf, sizeof(buf), 0));
	EXPECT_EQ(-EAGAIN, cg_chan_send(w, buf, sizeof(buf), 0));
	for (i = 0; i < sent; i++)
		ASSERT_EQ(0, cg_chan_recv(r, out, sizeof(out), &got, 0));
	EXPECT_EQ(-EAGAIN, cg_chan_recv(r, out, sizeof(out), &got, 0));
	cg_chan_close(r);
	cg_chan_close(w);
}

TEST_F(keeper, recv_times_out)
{
	struct cg_chan *r, *b;
	uint8_t out[64];
	uint32_t got;

	OPEN_OK("linux", "log", CHAN_KEEP_READER, 0, &r);
	EXPECT_EQ(-EAGAIN, cg_chan_recv(r, out, sizeof(out), &got, 0));
	EXPECT_EQ(-ETIMEDOUT, cg_chan_recv(r, out, sizeof(out), &got, 30));
	/* Asleep on a doorbell nobody rings, too. */
	OPEN_OK("linux", "bell", CHAN_KEEP_READER, 0, &b);
	EXPECT_EQ(1, cg_chan_memory(b)->nr_doorbell);
	EXPECT_EQ(-ETIMEDOUT, cg_chan_recv(b, out, sizeof(out), &got, 30));
	/* The wrong kind of call for the end. */
	EXPECT_EQ(-EINVAL, cg_chan_send(r, out, 1, 0));
	EXPECT_EQ(-EINVAL, cg_chan_publish(r, out, 1));
	cg_chan_close(b);
	cg_chan_close(r);
}

struct sleeper {
	struct cg_chan *r;
	int ret;
	uint32_t got;
	uint8_t out[64];
};

static void *sleep_in_recv(void *arg)
{
	struct sleeper *s = arg;

	/* A bound on a doorbell that never rings: the test fails, not hangs. */
	s->ret = cg_chan_recv(s->r, s->out, sizeof(s->out), &s->got, 20000);
	return NULL;
}

/*
 * The reader asked for a wake-up: its wake word, which opening it set to
 * @before, moved (chan_arm()).
 */
static int wait_armed(const struct cg_chan *w, uint32_t before)
{
	const struct chan_fb *fb = cg_chan_memory(w)->feedback[0];
	int i;

	for (i = 0; i < 200000; i++) {
		if (__atomic_load_n(&fb->wake, __ATOMIC_ACQUIRE) != before)
			return 0;
		usleep(100);
	}
	return -1;
}

TEST_F(keeper, doorbell_wakes_a_sleeping_reader)
{
	struct cg_chan_stats st;
	struct sleeper s;
	struct cg_chan *w;
	pthread_t th;
	uint8_t buf[16];
	int round;

	OPEN_OK("rt", "bell", CHAN_KEEP_WRITER, 0, &w);
	ASSERT_EQ(1, cg_chan_memory(w)->nr_doorbell);
	/* Twice: a second reader of the slot must be rung as the first was. */
	for (round = 0; round < 2; round++) {
		memset(&s, 0, sizeof(s));
		OPEN_OK("linux", "bell", CHAN_KEEP_READER, 0, &s.r);
		/* A new reader starts at the ring's beginning: the last round's first. */
		while (cg_chan_recv(s.r, s.out, sizeof(s.out), &s.got, 0) == 0)
			;
		ASSERT_EQ(0, pthread_create(&th, NULL, sleep_in_recv, &s));
		ASSERT_EQ(0, wait_armed(w, 0));
		kt_fill(buf, round, sizeof(buf));
		ASSERT_EQ(0, cg_chan_send(w, buf, sizeof(buf), 0));
		pthread_join(th, NULL);
		ASSERT_EQ(0, s.ret);
		EXPECT_EQ(0, kt_check(s.out, round, s.got));
		cg_chan_get_stats(s.r, &st);
		EXPECT_EQ(1, st.wakeups);
		cg_chan_get_stats(w, &st);
		EXPECT_EQ(round + 1, st.rung);
		cg_chan_close(s.r);
		ASSERT_EQ(0, kt_sync(&self->t));
	}
	cg_chan_close(w);
}

TEST_F(keeper, stat_shows_slots_and_positions)
{
	char text[4096], why[CHAN_KEEP_WHY_MAX], want[128];
	uint8_t buf[16] = { 1 }, out[16];
	struct cg_chan *w, *r;
	uint32_t got;

	OPEN_OK("rt", "log", CHAN_KEEP_WRITER, 0, &w);
	OPEN_OK("linux", "log", CHAN_KEEP_READER, 2, &r);
	ASSERT_EQ(0, cg_chan_send(w, buf, sizeof(buf), 0));
	ASSERT_EQ(0, cg_chan_recv(r, out, sizeof(out), &got, 0));
	ASSERT_EQ(0, cg_chan_keeper_stat(self->t.sock, "log", text, sizeof(text), why,
					 sizeof(why))) TH_LOG("%s", why);
	/* One 16-byte record: head 32; the writer's and the reader's attach: epoch 2. */
	EXPECT_NE(NULL, strstr(text, "channel log kind=queue flags=- max_record=4096 "
			       "ring=65536 region=69632 feedback=4096 readers=3 head=32 "
			       "tail=0 epoch=2\n")) TH_LOG("%s", text);
	snprintf(want, sizeof(want), "slot log writer cell=rt attached=yes pid=%d attaches=1\n",
		 (int)getpid());
	EXPECT_NE(NULL, strstr(text, want)) TH_LOG("%s", text);
	snprintf(want, sizeof(want),
		 "slot log reader=2 cell=linux slot=2 attached=yes pid=%d attaches=1 consumed=32\n",
		 (int)getpid());
	EXPECT_NE(NULL, strstr(text, want)) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "slot log reader=0 cell=linux slot=0 attached=no pid=0 "
			       "attaches=0 consumed=0\n"));
	EXPECT_EQ(NULL, strstr(text, "channel vehicle"));
	EXPECT_EQ(-ENOENT, cg_chan_keeper_stat(self->t.sock, "nope", text, sizeof(text), why,
					       sizeof(why)));
	cg_chan_close(r);
	cg_chan_close(w);
}

/* Root Linux's processes (group colorguard) may open the root cell's slots only. */
TEST_F(keeper, other_users_open_only_root_cell_slots)
{
	int status;
	pid_t pid;

	if (geteuid())
		SKIP(return, "needs root to become another user");
	ASSERT_EQ(0, chmod(self->t.dir, 0711));
	ASSERT_EQ(0, chmod(self->t.sock, 0666));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char why[CHAN_KEEP_WHY_MAX];
		struct cg_chan *c;

		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (cg_chan_open(self->t.sock, "rt", "log", CHAN_KEEP_WRITER, 0, 1, &c,
				 why, sizeof(why)) != -EACCES)
			_exit(11);
		if (strcmp(why, "uid 65534 may open only the slots of the root cell \"linux\""))
			_exit(12);
		if (cg_chan_open(self->t.sock, "linux", "log", CHAN_KEEP_READER, 0, 1, &c,
				 why, sizeof(why)))
			_exit(13);
		cg_chan_close(c);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
