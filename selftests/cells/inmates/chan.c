// SPDX-License-Identifier: GPL-2.0
/*
 * Test inmate for channels: one end of one channel, as args say.
 *
 *   chan=NAME      the channel (the cell's directory)
 *   mode=send      send records 0..n-1 (chan_pattern.h); zc=1 writes the
 *                  odd ones in place (reserve, commit; a reservation that
 *                  finds no room is tried again, counted full); a send waits up to
 *                  timeout_ms for a reliable reader's room, and one that
 *                  times out is counted and, with give_up=1, ends the run
 *   mode=recv      receive until n records are accounted for (got + lost)
 *                  or one wait of timeout_ms finds none; wait_ms first
 *   mode=publish   publish values 1..n of a state channel, gap_us apart
 *   mode=read      read a state channel until value n or timeout_ms
 *   mode=sleep     as recv, asleep between records until the writer rings
 *                  the doorbell (its interrupt) or a 10 ms timer tick
 *   mode=stray     write into the writer's region, which is read-only
 *   mode=timeout   take what is there, then one receive of timeout_ms on a
 *                  channel nobody writes
 *
 * Results: what it did and saw (sent, received, lost, bad, broken,
 * restarts, timeouts, rung, ...); bad counts records that are not the
 * ones expected, which is also how a wrong loss count shows.
 */
#include <colorguard/chan.h>

#include "inmate.h"
#include "inmate_chan.h"
#include "../chan_pattern.h"

#define BUF_MAX		(128u << 10)

static uint8_t buf[BUF_MAX] __attribute__((aligned(16)));

static void spin_us(uint64_t us)
{
	uint64_t end = ticks() + ns_to_ticks(us * 1000);

	while (ticks() < end)
		arch_smp_wait();
}

static int do_send(struct cell_chan *c, uint64_t n, uint64_t timeout_ms, uint64_t gap_us)
{
	uint64_t k, timeouts = 0, full = 0, sent = 0, bytes = 0;
	uint32_t max = c->g.max_record, len;
	int zc = arg_u64("zc", 0), give_up = arg_u64("give_up", 0), ret = 0;
	void *p;

	for (k = 0; k < n; k++) {
		len = pat_len(k, max);
		if (zc && (k & 1)) {
			/* A reservation does not wait: try again while it is full. */
			ret = cell_chan_reserve(c, len, &p);
			if (ret == -CHAN_EAGAIN || ret == -CHAN_EPROTO) {
				full++;
				k--;
				continue;
			}
			if (!ret) {
				pat_fill(p, k, len);
				ret = cell_chan_commit(c, len);
			}
		} else {
			pat_fill(buf, k, len);
			ret = cell_chan_send(c, buf, len, timeout_ms * 1000);
		}
		if (ret == -CHAN_ETIMEDOUT || ret == -CHAN_EAGAIN) {
			timeouts++;
			if (give_up)
				break;
			k--;
			continue;
		}
		if (ret)
			break;
		sent++;
		bytes += len;
		if (gap_us)
			spin_us(gap_us);
	}
	result_set("sent", sent);
	result_set("bytes", bytes);
	result_set("timeouts", timeouts);
	result_set("full", full);
	result_set("rung", c->rung);
	result_set("error", -ret);
	iprintf("sent %llu records, %llu bytes, %llu timeouts, error %d\n",
		(unsigned long long)sent, (unsigned long long)bytes,
		(unsigned long long)timeouts, ret);
	return 0;
}

static int do_recv(struct cell_chan *c, uint64_t n, uint64_t timeout_ms)
{
	uint64_t got = 0, bad = 0, bytes = 0, k, restarts = 0, got0 = 0, lost0 = 0;
	uint32_t max = c->g.max_record, len;
	int ret = 0;

	spin_us(arg_u64("wait_ms", 0) * 1000);
	while (got + cell_chan_lost(c) < n) {
		ret = cell_chan_recv(c, buf, BUF_MAX, &len, timeout_ms * 1000);
		if (ret)
			break;
		/* After a restart the new writer's records count from 0. */
		if (c->restarts != restarts) {
			restarts = c->restarts;
			got0 = got;
			lost0 = c->lost_before;
		}
		k = got - got0 + cell_chan_lost(c) - lost0;
		if (!pat_ok(buf, len, k, max)) {
			if (!bad)
				iprintf("record %llu: %u bytes, not the expected %u or not its bytes\n",
					(unsigned long long)k, len, pat_len(k, max));
			bad++;
		}
		got++;
		bytes += len;
	}
	result_set("received", got);
	result_set("lost", cell_chan_lost(c));
	result_set("bad", bad);
	result_set("bytes", bytes);
	result_set("broken", cell_chan_broken(c));
	result_set("restarts", c->restarts);
	result_set("error", -ret);
	iprintf("received %llu records, lost %llu, bad %llu, broken %s, error %d\n",
		(unsigned long long)got, (unsigned long long)cell_chan_lost(c),
		(unsigned long long)bad, chan_broken_str(cell_chan_broken(c)), ret);
	return 0;
}

static volatile uint64_t timer_ticks;

static void tick(uint64_t deadline, uint64_t now)
{
	(void)deadline;
	(void)now;
	timer_ticks++;
}

static int do_sleep(struct cell_chan *c, uint64_t n, uint64_t timeout_ms)
{
	uint64_t got = 0, bad = 0, sleeps = 0, last, limit = ns_to_ticks(timeout_ms * 1000000);
	uint32_t max = c->g.max_record, len;
	int ret = 0;

	if (irq_init() || cell_chan_irq_on(c) || timer_init(0) ||
	    timer_start(10000000, tick)) {
		result_set("no_irq", 1);
		iprintf("no doorbell interrupt (irq %u) or no timer\n", c->irq);
		return 0;
	}
	irq_disable();
	last = ticks();
	while (got + cell_chan_lost(c) < n) {
		ret = cell_chan_recv(c, buf, BUF_MAX, &len, 0);
		if (!ret) {
			bad += !pat_ok(buf, len, got + cell_chan_lost(c), max);
			got++;
			last = ticks();
			continue;
		}
		if (ret != -CHAN_EAGAIN)
			break;
		if (ticks() - last >= limit) {
			ret = -CHAN_ETIMEDOUT;
			break;
		}
		sleeps += !cell_chan_sleep(c);
	}
	timer_stop();
	irq_enable();
	result_set("received", got);
	result_set("lost", cell_chan_lost(c));
	result_set("bad", bad);
	result_set("broken", cell_chan_broken(c));
	result_set("sleeps", sleeps);
	result_set("doorbell_irqs", cell_chan_irqs(c));
	result_set("timer_ticks", timer_ticks);
	result_set("error", ret < 0 ? -ret : 0);
	iprintf("received %llu records asleep between them: %llu sleeps, %llu doorbell interrupts, %llu timer ticks\n",
		(unsigned long long)got, (unsigned long long)sleeps,
		(unsigned long long)cell_chan_irqs(c), (unsigned long long)timer_ticks);
	return 0;
}

static int do_publish(struct cell_chan *c, uint64_t n, uint64_t gap_us)
{
	uint32_t max = c->g.max_record;
	uint64_t g;
	int ret = 0;

	for (g = 1; g <= n; g++) {
		pat_fill(buf, g, pat_len(g, max));
		ret = cell_chan_publish(c, buf, pat_len(g, max));
		if (ret)
			break;
		if (gap_us)
			spin_us(gap_us);
	}
	result_set("published", g - 1);
	result_set("error", -ret);
	iprintf("published %llu values\n", (unsigned long long)(g - 1));
	return 0;
}

static int do_read(struct cell_chan *c, uint64_t n, uint64_t timeout_ms)
{
	uint64_t start = ticks(), limit = ns_to_ticks(timeout_ms * 1000000);
	uint64_t gen = 0, values = 0, torn = 0;
	uint32_t len;
	int ret = 0;

	while (gen < n && ticks() - start < limit) {
		ret = cell_chan_read(c, buf, &len, &gen);
		if (ret == -CHAN_EAGAIN || ret == 0)
			continue;
		if (ret < 0)
			break;
		values++;
		torn += !pat_ok(buf, len, gen, c->g.max_record);
	}
	result_set("values", values);
	result_set("last_gen", gen);
	result_set("skipped", cell_chan_lost(c));
	result_set("torn", torn);
	result_set("error", ret < 0 ? -ret : 0);
	iprintf("read %llu values up to %llu, skipped %llu, torn %llu\n",
		(unsigned long long)values, (unsigned long long)gen,
		(unsigned long long)cell_chan_lost(c), (unsigned long long)torn);
	return 0;
}

static int do_timeout(struct cell_chan *c, uint64_t timeout_ms)
{
	uint64_t t0, drained = 0;
	uint32_t len;
	int ret;

	/* What an earlier writer left is not what this waits for. */
	while (!cell_chan_recv(c, buf, BUF_MAX, &len, 0))
		drained++;
	result_set("drained", drained);
	t0 = ticks();
	ret = cell_chan_recv(c, buf, BUF_MAX, &len, timeout_ms * 1000);
	result_set("timed_out", ret == -CHAN_ETIMEDOUT);
	result_set("waited_us", ticks_to_ns(ticks() - t0) / 1000);
	iprintf("receive of %llu ms: %d\n", (unsigned long long)timeout_ms, ret);
	return 0;
}

int inmate_main(void)
{
	char name[CELL_CHAN_NAME_MAX], mode[16];
	uint64_t n = arg_u64("n", 100), timeout_ms = arg_u64("timeout_ms", 2000);
	struct cell_chan c;
	int ret;

	if (arg_str("chan", name, sizeof(name)) || arg_str("mode", mode, sizeof(mode))) {
		iprintf("usage: chan=NAME mode=send|recv|sleep|publish|read|stray|timeout\n");
		return 1;
	}
	ret = cell_chan_open(&c, name);
	result_set("opened", !ret);
	if (ret) {
		iprintf("channel %s: cannot open (%d)\n", name, ret);
		return 0;
	}
	iprintf("channel %s: %s%s, index %u, max_record %u\n", name,
		c.role == CELL_CHAN_WRITER ? "writer" : "reader",
		c.doorbell ? " with a doorbell" : "", c.index, c.g.max_record);
	if (!strncmp(mode, "send", sizeof(mode)))
		return do_send(&c, n, timeout_ms, arg_u64("gap_us", 0));
	if (!strncmp(mode, "recv", sizeof(mode)))
		return do_recv(&c, n, timeout_ms);
	if (!strncmp(mode, "sleep", sizeof(mode)))
		return do_sleep(&c, n, timeout_ms);
	if (!strncmp(mode, "publish", sizeof(mode)))
		return do_publish(&c, n, arg_u64("gap_us", 0));
	if (!strncmp(mode, "read", sizeof(mode)))
		return do_read(&c, n, timeout_ms);
	if (!strncmp(mode, "timeout", sizeof(mode)))
		return do_timeout(&c, timeout_ms);
	if (!strncmp(mode, "stray", sizeof(mode))) {
		result_set("stray_write", 1);
		*(volatile uint64_t *)c.window = 0x5354524159ull;
		result_set("stray_survived", 1);
		return 0;
	}
	iprintf("mode %s: unknown\n", mode);
	return 1;
}
