// SPDX-License-Identifier: GPL-2.0
/*
 * Sending and receiving on an open end, with the protocol core and
 * CLOCK_MONOTONIC: a writer rings the eventfd of each reader that asked
 * (CHAN_WAKE); a reader waits asleep on its eventfd when the channel has
 * a doorbell, else polls with short sleeps. A reader whose writer
 * attached again since it (re-)opened (the peers page's attaches of peer
 * 0) re-opens before it reads: the keeper reset the region for the new
 * writer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "chan_linux_int.h"

/* Between two looks of a reader (or a writer that waits for room) polling. */
#define POLL_NS		50000ull
/*
 * Between two looks of a reader whose writer is gone and left it broken:
 * nothing comes before the next writer attaches, so look less often.
 */
#define ABSENT_NS	1000000ull
#define NS_PER_MS	1000000ull

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull, .tv_nsec = ns % 1000000000ull };

	nanosleep(&ts, NULL);
}

static chan_u64 wait_now(void *ctx)
{
	(void)ctx;
	return now_ns();
}

static void wait_relax(void *ctx)
{
	(void)ctx;
	sleep_ns(POLL_NS);
}

static const struct chan_wait poll_wait = { .now = wait_now, .relax = wait_relax };

static int is_writer(const struct cg_chan *c, uint32_t kind)
{
	return c->core && c->role == CHAN_KEEP_WRITER && c->geom.kind == kind;
}

static int is_reader(const struct cg_chan *c, uint32_t kind)
{
	return c->core && c->role == CHAN_KEEP_READER && c->geom.kind == kind;
}

static uint32_t writer_attaches(const struct cg_chan *c)
{
	return __atomic_load_n(&c->mem.peers->peer[0].attaches, __ATOMIC_ACQUIRE);
}

static int writer_present(const struct cg_chan *c)
{
	return __atomic_load_n(&c->mem.peers->peer[0].state, __ATOMIC_ACQUIRE) ==
	       CHAN_PEER_ATTACHED;
}

/*
 * A writer answers a wake word that differs from the last one it saw of
 * this reader slot. A reader that starts at 0 could arm to the very
 * value a former holder of the slot left (the writer would not ring):
 * start anywhere instead.
 */
static uint32_t wake_seed(void)
{
	uint32_t seed;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = (uint32_t)now_ns() ^ ((uint32_t)getpid() << 16);
	return seed;
}

int cg_chan_reader_start(struct cg_chan *c)
{
	int ret;

	/* Before the region is looked at: the keeper's reset comes first. */
	c->writer_attaches = writer_attaches(c);
	ret = chan_reader_open(&c->r, &c->geom, c->mem.region, c->mem.feedback[0],
			       c->index);
	if (ret)
		return ret;
	c->r.wake = wake_seed();
	return 0;
}

/*
 * The writer attached again: the losses so far are kept, the rest
 * restarts. A writer's first attach after the reader opened is a start,
 * not a restart, though the reader re-opens for it alike.
 */
static int writer_restarted(struct cg_chan *c)
{
	uint32_t before = c->writer_attaches;
	uint64_t lost = chan_lost(&c->r);

	if (writer_attaches(c) == before)
		return 0;
	if (cg_chan_reader_start(c))
		return 0;
	c->lost_before += lost;
	if (before)
		c->st.restarts++;
	return 1;
}

static void ring(struct cg_chan *c)
{
	uint64_t one = 1;
	unsigned int i;

	for (i = 0; i < c->mem.nr_doorbell; i++) {
		if (!(c->w.wake_mask & (1ull << i)))
			continue;
		/* EAGAIN: the counter is full, the reader has a wake-up waiting. */
		if (write(c->mem.doorbell[i], &one, sizeof(one)) == sizeof(one))
			c->st.rung++;
	}
}

static int sent(struct cg_chan *c, int ret, uint32_t len)
{
	if (ret < 0)
		return ret;
	c->st.records++;
	c->st.bytes += len;
	if (ret == CHAN_WAKE)
		ring(c);
	return 0;
}

int cg_chan_send(struct cg_chan *c, const void *buf, uint32_t len, int timeout_ms)
{
	chan_u64 timeout = timeout_ms < 0 ? CHAN_FOREVER : timeout_ms * NS_PER_MS;

	if (!is_writer(c, CHAN_KIND_QUEUE))
		return -EINVAL;
	return sent(c, chan_send(&c->w, buf, len, timeout_ms ? &poll_wait : NULL,
				 timeout), len);
}

int cg_chan_reserve(struct cg_chan *c, uint32_t len, void **payload)
{
	if (!is_writer(c, CHAN_KIND_QUEUE))
		return -EINVAL;
	return chan_reserve(&c->w, len, payload);
}

int cg_chan_commit(struct cg_chan *c, uint32_t len)
{
	if (!is_writer(c, CHAN_KIND_QUEUE))
		return -EINVAL;
	return sent(c, chan_commit(&c->w, len), len);
}

int cg_chan_publish(struct cg_chan *c, const void *buf, uint32_t len)
{
	if (!is_writer(c, CHAN_KIND_STATE))
		return -EINVAL;
	return sent(c, chan_state_publish(&c->w, buf, len), len);
}

/*
 * Asleep on the doorbell until it rings or @deadline (0: none): the wake
 * word is changed and the ring looked at once more before sleeping, so
 * a record committed in between is not slept through.
 */
static void doorbell_sleep(struct cg_chan *c, uint64_t deadline)
{
	struct pollfd pfd = { .fd = c->mem.doorbell[0], .events = POLLIN };
	uint64_t count, now;
	int ms = -1;

	/* Rings answered already are no reason to wake. */
	while (read(pfd.fd, &count, sizeof(count)) == sizeof(count))
		;
	if (chan_arm(&c->r))
		return;
	if (deadline) {
		now = now_ns();
		if (now >= deadline)
			return;
		ms = (deadline - now + NS_PER_MS - 1) / NS_PER_MS;
	}
	if (poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN) &&
	    read(pfd.fd, &count, sizeof(count)) == sizeof(count))
		c->st.wakeups++;
}

int cg_chan_recv(struct cg_chan *c, void *buf, uint32_t cap, uint32_t *len,
		 int timeout_ms)
{
	uint64_t deadline = timeout_ms > 0 ? now_ns() + timeout_ms * NS_PER_MS : 0;
	int ret, absent;

	if (!is_reader(c, CHAN_KIND_QUEUE))
		return -EINVAL;
	for (;;) {
		writer_restarted(c);
		ret = chan_try_recv(&c->r, buf, cap, len);
		if (!ret) {
			c->st.records++;
			c->st.bytes += *len;
			return 0;
		}
		absent = 0;
		if (ret == -EPIPE) {
			if (writer_restarted(c))
				continue;
			/*
			 * Broken while the writer is gone (or is being
			 * replaced: the keeper resets the region before it
			 * publishes the attach): wait for the next one.
			 */
			if (writer_present(c))
				return -EPIPE;
			absent = 1;
		} else if (ret != -EAGAIN) {
			return ret;
		}
		if (!timeout_ms)
			return -EAGAIN;
		if (deadline && now_ns() >= deadline)
			return -ETIMEDOUT;
		if (absent)
			sleep_ns(ABSENT_NS);
		else if (c->mem.nr_doorbell)
			doorbell_sleep(c, deadline);
		else
			sleep_ns(POLL_NS);
	}
}

int cg_chan_read_state(struct cg_chan *c, void *buf, uint32_t cap,
		       uint32_t *len, uint64_t *gen)
{
	int ret;

	if (!is_reader(c, CHAN_KIND_STATE))
		return -EINVAL;
	/* chan_state_read() copies up to max_record bytes. */
	if (cap < c->geom.max_record)
		return -EMSGSIZE;
	writer_restarted(c);
	ret = chan_state_read(&c->r, buf, len, gen);
	if (ret == -EPIPE && writer_restarted(c))
		ret = chan_state_read(&c->r, buf, len, gen);
	else if (ret == -EPIPE && !writer_present(c))
		ret = -EAGAIN;
	if (ret == 1) {
		c->st.records++;
		c->st.bytes += *len;
	}
	return ret;
}

void cg_chan_get_stats(const struct cg_chan *c, struct cg_chan_stats *st)
{
	*st = c->st;
	if (c->core && c->role == CHAN_KEEP_READER) {
		st->lost = c->lost_before + chan_lost(&c->r);
		st->broken = chan_broken(&c->r);
	}
	if (c->core && c->role == CHAN_KEEP_WRITER)
		st->faults = chan_writer_faults(&c->w);
}
