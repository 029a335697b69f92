/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Channels from root Linux (libcolorguard-chan, chan/linux/): open an end
 * of a channel through the keeper (include/colorguard/chan_keep.h), then
 * send and receive with the protocol core (include/colorguard/chan.h).
 * Root Linux programs use it, and so does the cell runner, which maps an
 * end's memory into its cell instead of using it itself.
 *
 * An end holds the connection that opened it: while the end is open its
 * slot is attached, and closing it (or the process's end) detaches it.
 * Errors are negative errno values with a one-line reason in why where a
 * why is taken.
 *
 * Not thread-safe per end: one thread per end, or the caller's lock.
 */
#ifndef _COLORGUARD_CHAN_LINUX_H
#define _COLORGUARD_CHAN_LINUX_H

#include <stddef.h>
#include <stdint.h>

#include <colorguard/chan.h>
#include <colorguard/chan_keep.h>

struct cg_chan;

/* The memory of an end, as mapped in this process. */
struct cg_chan_mem {
	void *region;			/* writer_size bytes; read-only for a reader */
	const struct chan_peers *peers;	/* CHAN_PEERS_SIZE, read-only */
	/* A reader: [0] its own, writable. A writer: each reader's, read-only. */
	void *feedback[CHAN_MAX_READERS];
	unsigned int nr_feedback;
	/* CHAN_F_DOORBELL: a reader's [0], a writer's one per reader; -1: none. */
	int doorbell[CHAN_MAX_READERS];
	unsigned int nr_doorbell;
};

/* What an end has seen, for `colorguard chan stat` and the benches. */
struct cg_chan_stats {
	uint64_t records;		/* sent or received (state: values) */
	uint64_t bytes;			/* of their payloads */
	uint64_t lost;			/* reader: chan_lost(), over re-opens */
	uint64_t restarts;		/* reader: re-opened after the writer came back */
	uint64_t rung;			/* writer: doorbells rung */
	uint64_t wakeups;		/* reader: sleeps ended by the doorbell */
	uint64_t faults;		/* writer: chan_writer_faults() */
	uint32_t broken;		/* reader: enum chan_broken */
};

/*
 * cg_chan_open() - attach to a channel through the keeper
 * @sock: the keeper's socket, NULL: $COLORGUARD_CHAN_SOCK or CHAN_KEEP_SOCK
 * @cell: the config's cell this end is (root Linux: the root cell's name)
 * @channel: the channel's name
 * @role: CHAN_KEEP_WRITER or CHAN_KEEP_READER
 * @slot: a reader's slot of @cell, from 0, or ~0u for the first free one
 * @core: true to open the protocol core's side on the mapping (a program
 *	that sends or receives); false for the runner, which only maps
 * @out: the end
 *
 * Return: 0, or a negative errno with why: the keeper's own reason
 * (no such channel, not that cell's role, slot busy), or what failed here.
 */
int cg_chan_open(const char *sock, const char *cell, const char *channel,
		 int role, unsigned int slot, int core, struct cg_chan **out,
		 char *why, size_t why_len);

/* Detach and unmap; NULL is a no-op. */
void cg_chan_close(struct cg_chan *c);

/*
 * cg_chan_keeper_stat() - the keeper's STAT text (`colorguard chan ls`)
 * @sock: the keeper's socket, as cg_chan_open()'s
 * @channel: one channel's name, or NULL for all of them
 * @text: filled with the text, NUL-terminated, cut to @text_len - 1 bytes
 *	(up to CHAN_KEEP_MAX_PACKET bytes come)
 * @text_len: bytes of @text, at least 1
 *
 * Return: 0, or a negative errno with why (the keeper's, or what failed).
 */
int cg_chan_keeper_stat(const char *sock, const char *channel, char *text,
			size_t text_len, char *why, size_t why_len);

const struct chan_geom *cg_chan_geometry(const struct cg_chan *c);
const struct cg_chan_mem *cg_chan_memory(const struct cg_chan *c);
/* A reader's index (its feedback slot); 0 for the writer. */
unsigned int cg_chan_index(const struct cg_chan *c);
void cg_chan_get_stats(const struct cg_chan *c, struct cg_chan_stats *st);

/*
 * Queue writer. cg_chan_send() waits up to timeout_ms (-1: forever) for a
 * reliable reader's room; it rings the doorbells of readers that asked.
 * Return: 0 or chan.h's errors (-EAGAIN, -ETIMEDOUT, -EPROTO, -EMSGSIZE).
 */
int cg_chan_send(struct cg_chan *c, const void *buf, uint32_t len, int timeout_ms);
int cg_chan_reserve(struct cg_chan *c, uint32_t len, void **payload);
int cg_chan_commit(struct cg_chan *c, uint32_t len);

/*
 * Queue reader: the next record, waiting up to timeout_ms (0: do not
 * wait, -1: forever) by polling, or asleep on the doorbell when the
 * channel has one. A writer that attached again since the last call
 * (the peers page) makes the reader re-open first. Return: 0,
 * -EAGAIN (timeout_ms 0), -ETIMEDOUT, -EMSGSIZE, -EBUSY, -EPIPE (broken:
 * see cg_chan_get_stats()).
 */
int cg_chan_recv(struct cg_chan *c, void *buf, uint32_t cap, uint32_t *len,
		 int timeout_ms);

/* State channel: publish (writer), read the latest (reader) as chan.h. */
int cg_chan_publish(struct cg_chan *c, const void *buf, uint32_t len);
int cg_chan_read_state(struct cg_chan *c, void *buf, uint32_t cap,
		       uint32_t *len, uint64_t *gen);

#endif /* _COLORGUARD_CHAN_LINUX_H */
