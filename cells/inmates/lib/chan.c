// SPDX-License-Identifier: GPL-2.0
/*
 * Channels in an inmate: the cell's directory, the waits on the tick
 * counter, the doorbell, and following the writer through restarts with
 * the peers page. The protocol itself is the core's (chan/).
 */
#include "inmate.h"
#include "inmate_chan.h"

/* What the peers page says of the writer, for a reader. */
enum writer_news {
	WRITER_SAME,		/* attached, the one this reader opened on */
	WRITER_AWAY,		/* detached (a new one is reset before it attaches) */
	WRITER_NEW,		/* attached again since this reader opened */
};

static const struct cell_chan_dir *directory(void)
{
	const struct cell_chan_dir *d;

	if (!comm || !comm->chan_dir)
		return NULL;
	d = (const struct cell_chan_dir *)(uintptr_t)comm->chan_dir;
	if (strncmp(d->signature, CELL_CHAN_SIGNATURE, 8) || d->nr > CELL_CHAN_MAX)
		return NULL;
	return d;
}

static uint32_t peer_load(const volatile uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static enum writer_news writer_news(const struct cell_chan *c)
{
	const volatile struct chan_peer *w = &c->peers->peer[0];

	if (peer_load(&w->state) != CHAN_PEER_ATTACHED)
		return WRITER_AWAY;
	return peer_load(&w->attaches) == c->writer_attaches ? WRITER_SAME : WRITER_NEW;
}

static int reader_open(struct cell_chan *c)
{
	void *fb = c->window + c->g.writer_size + CHAN_PEERS_SIZE;

	c->writer_attaches = peer_load(&c->peers->peer[0].attaches);
	return chan_reader_open(&c->r, &c->g, c->window, fb, c->index);
}

static int writer_open(struct cell_chan *c)
{
	const void *fb[CHAN_MAX_READERS];
	uint8_t *first = c->window + c->g.writer_size + CHAN_PEERS_SIZE;
	uint32_t i;

	for (i = 0; i < c->g.nr_readers; i++)
		fb[i] = first + (uint64_t)i * c->g.feedback_size;
	return chan_writer_open(&c->w, &c->g, c->window, c->g.flags ? fb : NULL);
}

int cell_chan_open(struct cell_chan *c, const char *name)
{
	const struct cell_chan_dir *d = directory();
	const struct cell_chan_entry *e = NULL;
	uint32_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; d && i < d->nr; i++) {
		if (!strncmp(d->entry[i].name, name, CELL_CHAN_NAME_MAX)) {
			e = &d->entry[i];
			break;
		}
	}
	if (!e || (e->role != CELL_CHAN_WRITER && e->role != CELL_CHAN_READER))
		return -CHAN_EINVAL;
	/* A private copy: the directory is the cell's own memory anyway. */
	memcpy(&c->g, &e->geom, sizeof(c->g));
	c->role = e->role;
	c->index = e->index;
	c->window = (uint8_t *)(uintptr_t)e->window;
	c->peers = (const volatile struct chan_peers *)(c->window + c->g.writer_size);
	c->doorbell = (volatile uint32_t *)(uintptr_t)e->doorbell;
	c->irq = e->irq;
	return c->role == CELL_CHAN_WRITER ? writer_open(c) : reader_open(c);
}

/* Ring the readers that asked, after a commit or publish said CHAN_WAKE. */
static int rung(struct cell_chan *c, int ret)
{
	uint32_t i;

	if (ret != CHAN_WAKE)
		return ret;
	for (i = 0; c->doorbell && i < c->g.nr_readers; i++) {
		if (c->w.wake_mask & (1ull << i)) {
			*c->doorbell = i;
			c->rung++;
		}
	}
	return 0;
}

/* Ticks of a timeout, or 0 when the frequency is unknown. */
static uint64_t timeout_ticks(uint64_t timeout_us)
{
	return ns_to_ticks(timeout_us * 1000);
}

int cell_chan_try_send(struct cell_chan *c, const void *buf, uint32_t len)
{
	if (c->role != CELL_CHAN_WRITER)
		return -CHAN_EINVAL;
	return rung(c, chan_try_send(&c->w, buf, len));
}

/*
 * Room for a reliable reader's sake. Invalid feedback (-CHAN_EPROTO) is
 * waited out too: a reliable reader that follows a restarted writer
 * shows its old position until it re-opens.
 */
int cell_chan_send(struct cell_chan *c, const void *buf, uint32_t len,
		   uint64_t timeout_us)
{
	uint64_t start = ticks(), limit = timeout_ticks(timeout_us);
	int ret;

	if (c->role != CELL_CHAN_WRITER)
		return -CHAN_EINVAL;
	if (timeout_us && !limit)
		return -CHAN_EINVAL;
	for (;;) {
		ret = chan_try_send(&c->w, buf, len);
		if (ret != -CHAN_EAGAIN && ret != -CHAN_EPROTO)
			return rung(c, ret);
		if (ticks() - start >= limit)
			return timeout_us ? -CHAN_ETIMEDOUT : ret;
		arch_smp_wait();
	}
}

int cell_chan_reserve(struct cell_chan *c, uint32_t len, void **payload)
{
	if (c->role != CELL_CHAN_WRITER)
		return -CHAN_EINVAL;
	return chan_reserve(&c->w, len, payload);
}

int cell_chan_commit(struct cell_chan *c, uint32_t len)
{
	if (c->role != CELL_CHAN_WRITER)
		return -CHAN_EINVAL;
	return rung(c, chan_commit(&c->w, len));
}

int cell_chan_publish(struct cell_chan *c, const void *buf, uint32_t len)
{
	if (c->role != CELL_CHAN_WRITER)
		return -CHAN_EINVAL;
	return rung(c, chan_state_publish(&c->w, buf, len));
}

/*
 * Before a read, and after one that found the channel broken: re-open on
 * a new writer. Return 0 to read, -CHAN_EAGAIN while the writer is away
 * after a break (nothing to read yet), or the read's own error.
 */
static int follow_writer(struct cell_chan *c, int ret)
{
	enum writer_news n = writer_news(c);

	if (n == WRITER_NEW) {
		c->lost_before += chan_lost(&c->r);
		/* A writer's first attach is a start, not a restart. */
		c->restarts += !!c->writer_attaches;
		return reader_open(c);
	}
	if (ret == -CHAN_EPIPE && n == WRITER_AWAY)
		return -CHAN_EAGAIN;
	return ret;
}

int cell_chan_recv(struct cell_chan *c, void *buf, uint32_t cap, uint32_t *len,
		   uint64_t timeout_us)
{
	uint64_t start = ticks(), limit = timeout_ticks(timeout_us);
	int ret;

	if (c->role != CELL_CHAN_READER)
		return -CHAN_EINVAL;
	if (timeout_us && !limit)
		return -CHAN_EINVAL;
	for (;;) {
		ret = follow_writer(c, 0);
		if (!ret)
			ret = chan_try_recv(&c->r, buf, cap, len);
		/* Broken by a writer that came back: read its channel. */
		if (ret == -CHAN_EPIPE) {
			ret = follow_writer(c, ret);
			if (!ret)
				continue;
		}
		if (ret != -CHAN_EAGAIN)
			return ret;
		if (ticks() - start >= limit)
			return timeout_us ? -CHAN_ETIMEDOUT : -CHAN_EAGAIN;
		arch_smp_wait();
	}
}

int cell_chan_read(struct cell_chan *c, void *buf, uint32_t *len, uint64_t *gen)
{
	int ret;

	if (c->role != CELL_CHAN_READER)
		return -CHAN_EINVAL;
	ret = follow_writer(c, 0);
	if (!ret)
		ret = chan_state_read(&c->r, buf, len, gen);
	if (ret == -CHAN_EPIPE) {
		ret = follow_writer(c, ret);
		if (!ret)
			ret = chan_state_read(&c->r, buf, len, gen);
	}
	return ret;
}

uint64_t cell_chan_lost(const struct cell_chan *c)
{
	return c->role == CELL_CHAN_READER ? c->lost_before + chan_lost(&c->r) : 0;
}

enum chan_broken cell_chan_broken(const struct cell_chan *c)
{
	return c->role == CELL_CHAN_READER ? chan_broken(&c->r) : CHAN_BROKEN_NONE;
}

/* The doorbells' interrupts taken, by vector. */
static volatile uint64_t doorbell_hits[INMATE_NR_IRQS];

static void doorbell_irq(unsigned int vector)
{
	doorbell_hits[vector - INMATE_IRQ_FIRST]++;
}

static int irq_ok(const struct cell_chan *c)
{
	return c->role == CELL_CHAN_READER && c->irq >= INMATE_IRQ_FIRST &&
	       c->irq < INMATE_IRQ_FIRST + INMATE_NR_IRQS &&
	       (c->g.flags & CHAN_F_DOORBELL);
}

int cell_chan_irq_on(struct cell_chan *c)
{
	if (!irq_ok(c) || irq_set_handler(c->irq, doorbell_irq))
		return -CHAN_EINVAL;
	return 0;
}

int cell_chan_sleep(struct cell_chan *c)
{
	if (c->role != CELL_CHAN_READER)
		return -CHAN_EINVAL;
	/* The ring is asked for before the last look: none is missed. */
	if (chan_arm(&c->r))
		return 1;
	wait_for_interrupt();
	return 0;
}

uint64_t cell_chan_irqs(const struct cell_chan *c)
{
	return irq_ok(c) ? doorbell_hits[c->irq - INMATE_IRQ_FIRST] : 0;
}
