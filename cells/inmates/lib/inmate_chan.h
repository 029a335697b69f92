/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Channels in an inmate: open a channel of the cell's directory by name
 * (include/colorguard/cell_chan.h), then send and receive with the
 * protocol core (include/colorguard/chan.h). No allocation: the caller
 * owns struct cell_chan. Timeouts are in microseconds and every blocking
 * call has one; they need the tick frequency (tick_hz()), without which a
 * wait returns -CHAN_EINVAL at once.
 *
 * A reader follows the writer through restarts: when the peers page says
 * the writer attached again, the reader opens its side anew (from the
 * new writer's first record) and counts a restart; while the writer is
 * away it reads what is left, then nothing new: not a broken channel.
 */
#ifndef COLORGUARD_INMATE_CHAN_H
#define COLORGUARD_INMATE_CHAN_H

#include <stdint.h>

#include <colorguard/cell_chan.h>
#include <colorguard/chan.h>

struct cell_chan {
	struct chan_geom g;
	uint32_t role;			/* CELL_CHAN_WRITER or _READER */
	uint32_t index;			/* a reader's index */
	uint32_t irq;			/* a reader's doorbell interrupt, 0: none */
	uint8_t *window;
	const volatile struct chan_peers *peers;
	volatile uint32_t *doorbell;	/* NULL: none */
	union {
		struct chan_writer w;
		struct chan_reader r;
	};
	uint32_t writer_attaches;	/* reader: the writer's, at open */
	uint64_t lost_before;		/* reader: lost before the last re-open */
	uint64_t restarts;		/* reader: re-opens after a writer restart */
	uint64_t rung;			/* writer: doorbells rung */
};

/*
 * Open channel @name of this cell. Return: 0, -CHAN_EINVAL when the cell
 * has no such channel (or the directory is not there) or its geometry is
 * refused by the core.
 */
int cell_chan_open(struct cell_chan *c, const char *name);

/* Queue writer: as chan.h's; send waits up to timeout_us for room. */
int cell_chan_try_send(struct cell_chan *c, const void *buf, uint32_t len);
int cell_chan_send(struct cell_chan *c, const void *buf, uint32_t len,
		   uint64_t timeout_us);
int cell_chan_reserve(struct cell_chan *c, uint32_t len, void **payload);
int cell_chan_commit(struct cell_chan *c, uint32_t len);

/*
 * Queue reader: as chan.h's, waiting up to timeout_us (0: not at all).
 * -CHAN_EPIPE only when the channel is broken while its writer stays the
 * same; cell_chan_broken() says why.
 */
int cell_chan_recv(struct cell_chan *c, void *buf, uint32_t cap, uint32_t *len,
		   uint64_t timeout_us);
uint64_t cell_chan_lost(const struct cell_chan *c);
enum chan_broken cell_chan_broken(const struct cell_chan *c);

/*
 * A reader asleep until its writer rings. cell_chan_irq_on() takes the
 * channel's doorbell interrupt on the calling vCPU (after irq_init()):
 * 0, or -CHAN_EINVAL for a channel without one. cell_chan_sleep(), with
 * interrupts off, asks the writer for a ring and halts until an
 * interrupt comes, the doorbell's or any other (the caller's timer bounds
 * the sleep): 1 without halting when there is something to read, 0 after
 * the halt. The halt and the ring stay in the kernel: no exit.
 * cell_chan_irqs(): the doorbell's interrupts taken.
 */
int cell_chan_irq_on(struct cell_chan *c);
int cell_chan_sleep(struct cell_chan *c);
uint64_t cell_chan_irqs(const struct cell_chan *c);

/* State channel: publish (writer), read the latest (reader). */
int cell_chan_publish(struct cell_chan *c, const void *buf, uint32_t len);
int cell_chan_read(struct cell_chan *c, void *buf, uint32_t *len, uint64_t *gen);

#endif
