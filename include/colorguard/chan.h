/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Channels between cells: one writer, any number of readers (multicast by
 * construction: the writer's cost does not grow with the readers).
 *
 * Two kinds. A queue carries ordered records of 1 to max_record bytes in
 * a ring; the writer never waits for readers, and a reader that falls
 * behind learns exactly how many records it lost. With CHAN_F_RELIABLE
 * one named reader gets backpressure instead: the writer refuses to
 * overwrite what that reader has not consumed (try_send says -EAGAIN; the
 * others are still lapped). A state channel is a latest-value latch for
 * periodic data, read without tearing.
 *
 * Trust. The writer's region is writable by the writer only; readers map
 * it read-only. Each reader owns a small feedback block (its consumed
 * position, its doorbell word) that the writer maps read-only. Geometry
 * (sizes, offsets, reader counts) never comes from shared memory: each
 * side gets struct chan_geom privately, from the config. Whatever the
 * other side's memory holds, a side makes no out-of-bounds access, does
 * not crash and does not hang: a reader marks the channel broken for
 * itself (sticky, with an enum chan_broken reason); the writer refuses
 * the send (-EPROTO) and counts the fault.
 *
 * Byte layout (little endian, every field naturally aligned):
 *
 * Control block, at ctrl_off in the writer's region (64 bytes):
 *
 *   off  size  field   meaning
 *     0     8  head    queue: byte position after the last committed record;
 *                      state: generation of the latest value (0: none yet)
 *     8     8  tail    queue: oldest position still intact, raised before
 *                      the bytes below it are overwritten; state: 0
 *    16    48  spare   0
 *
 * Queue ring, at data_off, ring_size bytes (a power of two). Positions
 * grow forever (u64); a position's offset in the ring is pos & (ring - 1).
 * A record is a header and the payload, padded to CHAN_ALIGN, and never
 * wraps: one that does not fit before the end of the ring is preceded by
 * a skip record that fills the rest of it (a skip at offset 0 is invalid).
 *
 *   off  size  field   meaning
 *     0     4  len     payload bytes, 1..max_record; CHAN_REC_SKIP: skip
 *     4     4  spare   0
 *     8     8  seq     record number, from 0 (0 in a skip record)
 *    16   len  payload
 *
 * State slots, at data_off: two of CHAN_SLOT_SIZE(max_record) bytes.
 * Generation g goes to slot g & 1; the slot's seq is 2g - 1 while it is
 * written and 2g once it is complete (a seqlock per slot).
 *
 *   off  size  field   meaning
 *     0     8  seq     2g - 1 or 2g
 *     8     4  len     value bytes, 0..max_record
 *    12     4  spare   0
 *    16   len  value
 *
 * Feedback block, at feedback_off in each reader's region (64 bytes):
 *
 *   off  size  field     meaning
 *     0     8  consumed  queue: the position this reader has read up to
 *                        (the writer heeds it for the reliable reader only)
 *     8     4  wake      doorbell: the reader changes it to ask for a wake-up
 *    12    52  spare     0
 *
 * Peers page, CHAN_PEERS_SIZE bytes, written only by the channel keeper
 * (cells/keeper/) and read-only for every side:
 *
 *   off  size  field     meaning
 *     0     8  epoch     grows each time a peer attaches or detaches
 *     8     4  nr_peers  1 + nr_readers
 *    12     4  spare     0
 *    16  16*n  peer[n]   peer 0 the writer, peer 1 + i reader i:
 *                          u32 state     CHAN_PEER_*
 *                          u32 attaches  times it attached
 *                          u64 epoch     the epoch of its last change
 *
 * A writer attaches only while no writer is: the keeper then resets the
 * control block (head and tail 0), then publishes the writer ATTACHED
 * with attaches + 1 (release). A reader that sees the writer's attaches
 * change re-opens; one that finds the channel broken while the writer is
 * not ATTACHED, or attached anew, waits or re-opens instead of calling
 * it broken.
 *
 * Doorbell (CHAN_F_DOORBELL): before sleeping a reader changes its wake
 * word (chan_arm()), then looks again; a commit or publish that sees a
 * wake word it has not answered yet returns CHAN_WAKE once for it, so a
 * reader is rung at most once per arming. Ringing is the caller's job.
 *
 * Freestanding: no libc, no allocation (callers own every struct), no
 * clock (blocking calls take a struct chan_wait). Errors are negative
 * errno values (CHAN_E*, equal to Linux's numbers).
 */
#ifndef _COLORGUARD_CHAN_H
#define _COLORGUARD_CHAN_H

#define chan_u8		__UINT8_TYPE__
#define chan_u32	__UINT32_TYPE__
#define chan_u64	__UINT64_TYPE__
#define chan_s32	__INT32_TYPE__
#define chan_size	__SIZE_TYPE__
#define chan_uptr	__UINTPTR_TYPE__

/* Errors, returned negated */
#define CHAN_EBUSY	16	/* the writer outran the reader CHAN_RETRIES times */
#define CHAN_EINVAL	22	/* bad geometry, argument or pointer */
#define CHAN_EPIPE	32	/* reader: the channel is broken, see chan_broken() */
#define CHAN_EAGAIN	11	/* nothing to read; reliable reader has no room */
#define CHAN_EPROTO	71	/* writer: the reliable reader's feedback is invalid */
#define CHAN_EMSGSIZE	90	/* record larger than max_record or the buffer */
#define CHAN_ETIMEDOUT	110	/* the wait ended */

#define CHAN_WAKE	1	/* commit/publish: a reader asked for a wake-up */

#define CHAN_KIND_QUEUE		1
#define CHAN_KIND_STATE		2

#define CHAN_F_RELIABLE		1	/* queue: reliable_reader gets backpressure */
#define CHAN_F_DOORBELL		2	/* commits look at the readers' wake words */
#define CHAN_F_ALL		(CHAN_F_RELIABLE | CHAN_F_DOORBELL)

#define CHAN_ALIGN		16	/* records and positions */
#define CHAN_REC_HDR		16
#define CHAN_REC_SKIP		0xffffffffu
#define CHAN_CTRL_SIZE		64
#define CHAN_FB_SIZE		64
#define CHAN_REGION_ALIGN	64	/* regions and blocks in them */
#define CHAN_MAX_READERS	32
#define CHAN_RING_MIN		256
#define CHAN_RING_MAX		0x100000000ull	/* 4 GiB */
#define CHAN_REGION_MAX		0x10000000000ull	/* 1 TiB */
/* A reader retries this often when the writer overwrites what it reads. */
#define CHAN_RETRIES		8
/* Ring bytes a record of n payload bytes takes. */
#define CHAN_REC_SIZE(n)	(CHAN_REC_HDR + (((chan_u64)(n) + CHAN_ALIGN - 1) & \
				 ~(chan_u64)(CHAN_ALIGN - 1)))
/* Bytes of one state slot for values of up to n bytes. */
#define CHAN_SLOT_SIZE(n)	CHAN_REC_SIZE(n)
/* A wait without an end (chan_recv(), chan_send()). */
#define CHAN_FOREVER		(~(chan_u64)0)

struct chan_ctrl {
	chan_u64 head;
	chan_u64 tail;
	chan_u64 spare[6];
};

struct chan_rec_hdr {
	chan_u32 len;
	chan_u32 spare;
	chan_u64 seq;
};

struct chan_slot_hdr {
	chan_u64 seq;
	chan_u32 len;
	chan_u32 spare;
};

struct chan_fb {
	chan_u64 consumed;
	chan_u32 wake;
	chan_u32 spare[13];
};

_Static_assert(sizeof(struct chan_ctrl) == CHAN_CTRL_SIZE, "chan_ctrl size");
_Static_assert(__builtin_offsetof(struct chan_ctrl, tail) == 8, "chan_ctrl.tail");
_Static_assert(sizeof(struct chan_rec_hdr) == CHAN_REC_HDR, "chan_rec_hdr size");
_Static_assert(__builtin_offsetof(struct chan_rec_hdr, seq) == 8, "chan_rec_hdr.seq");
_Static_assert(sizeof(struct chan_slot_hdr) == CHAN_REC_HDR, "chan_slot_hdr size");
_Static_assert(__builtin_offsetof(struct chan_slot_hdr, len) == 8, "chan_slot_hdr.len");
_Static_assert(sizeof(struct chan_fb) == CHAN_FB_SIZE, "chan_fb size");
_Static_assert(__builtin_offsetof(struct chan_fb, wake) == 8, "chan_fb.wake");

#define CHAN_PEERS_SIZE		4096
#define CHAN_PEER_ABSENT	0
#define CHAN_PEER_ATTACHED	1

struct chan_peer {
	chan_u32 state;
	chan_u32 attaches;
	chan_u64 epoch;
};

struct chan_peers {
	chan_u64 epoch;
	chan_u32 nr_peers;
	chan_u32 spare;
	struct chan_peer peer[1 + CHAN_MAX_READERS];
};

_Static_assert(sizeof(struct chan_peers) <= CHAN_PEERS_SIZE, "chan_peers size");
_Static_assert(__builtin_offsetof(struct chan_peers, peer) == 16, "chan_peers.peer");
_Static_assert(sizeof(struct chan_peer) == 16, "chan_peer size");

/*
 * The geometry, from the config, handed to each side privately. Offsets
 * are from the start of a region; regions are CHAN_REGION_ALIGN aligned.
 */
struct chan_geom {
	chan_u32 kind;		/* CHAN_KIND_* */
	chan_u32 flags;		/* CHAN_F_* */
	chan_u32 max_record;	/* largest record or value, bytes */
	chan_u32 nr_readers;	/* 0..CHAN_MAX_READERS (>= 1 with flags) */
	chan_u32 reliable_reader; /* with CHAN_F_RELIABLE: its index */
	chan_u32 spare;		/* 0 */
	chan_u64 ring_size;	/* queue: ring bytes, power of two; state: 0 */
	chan_u64 writer_size;	/* bytes of the writer's region */
	chan_u64 ctrl_off;	/* control block in the writer's region */
	chan_u64 data_off;	/* ring or slots in the writer's region */
	chan_u64 feedback_size;	/* bytes of each reader's region */
	chan_u64 feedback_off;	/* feedback block in a reader's region */
};

/* Why a geometry is refused (chan_geom_check()). */
enum chan_geom_err {
	CHAN_GEOM_OK = 0,
	CHAN_GEOM_KIND,		/* unknown kind */
	CHAN_GEOM_FLAGS,	/* unknown flag, or RELIABLE on a state channel */
	CHAN_GEOM_SPARE,	/* spare not 0 */
	CHAN_GEOM_RING_POW2,	/* queue ring not a power of two */
	CHAN_GEOM_RING_RANGE,	/* ring outside CHAN_RING_MIN..MAX, or set for state */
	CHAN_GEOM_RECORD_ZERO,	/* max_record 0 */
	CHAN_GEOM_RECORD_LARGE,	/* a record would take more than half the ring */
	CHAN_GEOM_READERS,	/* more than CHAN_MAX_READERS, or 0 with flags */
	CHAN_GEOM_RELIABLE,	/* reliable_reader not a reader */
	CHAN_GEOM_ALIGN,	/* an offset not CHAN_REGION_ALIGN aligned */
	CHAN_GEOM_REGION,	/* a block outside its region, or region too large */
	CHAN_GEOM_OVERLAP,	/* control block and data overlap */
	CHAN_GEOM_NR
};

/* Why a reader stopped trusting the writer (sticky, chan_broken()). */
enum chan_broken {
	CHAN_BROKEN_NONE = 0,
	CHAN_BROKEN_HEAD_BACK,	/* head below what was already read */
	CHAN_BROKEN_HEAD_ALIGN,	/* head not CHAN_ALIGN aligned */
	CHAN_BROKEN_TAIL,	/* tail above head, or not aligned */
	CHAN_BROKEN_REC_LEN,	/* length 0, over max_record or past the ring's end */
	CHAN_BROKEN_REC_HEAD,	/* record ends past head */
	CHAN_BROKEN_REC_SEQ,	/* record number not the one expected */
	CHAN_BROKEN_REC_SPARE,	/* spare field not 0 */
	CHAN_BROKEN_SKIP,	/* skip record at offset 0 or not followed by data */
	CHAN_BROKEN_GEN_BACK,	/* state generation went backwards */
	CHAN_BROKEN_SLOT,	/* state slot length or spare invalid */
	CHAN_BROKEN_NR
};

/* The writer's private state. Callers own it; its fields are the core's. */
struct chan_writer {
	struct chan_geom g;
	struct chan_ctrl *ctrl;
	chan_u8 *data;
	const struct chan_fb *fb[CHAN_MAX_READERS];
	chan_u64 head;		/* queue: next position; state: generation */
	chan_u64 tail;
	chan_u64 seq;		/* next record number */
	chan_u64 res_pos;	/* reserved record's position, after any skip */
	chan_u32 res_len;	/* reserved payload bytes */
	chan_u32 reserved;	/* a reservation is open */
	chan_u64 fb_faults;	/* invalid feedback seen from the reliable reader */
	chan_u64 fb_bad;	/* the last invalid consumed position */
	chan_u32 wake_seen[CHAN_MAX_READERS];
	chan_u64 wake_mask;	/* readers the last CHAN_WAKE was for */
};

/* A reader's private state. Callers own it; its fields are the core's. */
struct chan_reader {
	struct chan_geom g;
	const struct chan_ctrl *ctrl;
	const chan_u8 *data;
	struct chan_fb *fb;
	chan_u64 pos;		/* queue: next position */
	chan_u64 seq;		/* queue: next record number; state: last gen */
	chan_u64 lost;		/* records or generations lost */
	chan_u32 index;
	chan_u32 broken;	/* enum chan_broken, sticky */
	chan_u32 lapped;	/* pos was moved to the tail: count losses */
	chan_u32 wake;		/* the last value written to the wake word */
};

/*
 * Waiting, for the blocking calls: now() reads a clock in any unit (the
 * timeouts are in it), relax() is called between attempts (a pause, a
 * yield, a sleep until the doorbell).
 */
struct chan_wait {
	chan_u64 (*now)(void *ctx);
	void (*relax)(void *ctx);
	void *ctx;
};

/**
 * chan_geom_check() - check a channel's geometry
 * @g: the geometry
 *
 * Return: CHAN_GEOM_OK, or the first reason it is refused.
 */
enum chan_geom_err chan_geom_check(const struct chan_geom *g);

/**
 * chan_geom_str() - a reason of chan_geom_check() in words
 * @e: the reason
 *
 * Return: a constant string, "unknown" for a value out of range.
 */
const char *chan_geom_str(enum chan_geom_err e);

/**
 * chan_broken_str() - a reason of chan_broken() in words
 * @b: the reason
 *
 * Return: a constant string, "unknown" for a value out of range.
 */
const char *chan_broken_str(enum chan_broken b);

/**
 * chan_writer_open() - open the writer's side and reset its region
 * @w: the writer's state, filled in
 * @g: the geometry (copied)
 * @region: the writer's region, writer_size bytes
 * @feedback: nr_readers pointers to the readers' regions (mapped read-only),
 *	or NULL for a channel without flags
 *
 * Return: 0, or -CHAN_EINVAL for a bad geometry or a misaligned region.
 */
int chan_writer_open(struct chan_writer *w, const struct chan_geom *g, void *region,
		     const void *const *feedback);

/**
 * chan_reader_open() - open a reader's side and reset its feedback block
 * @r: the reader's state, filled in
 * @g: the geometry (copied)
 * @region: the writer's region (mapped read-only)
 * @feedback: this reader's own region, feedback_size bytes
 * @index: this reader's index, below nr_readers (any value if nr_readers is 0)
 *
 * The reader starts at the channel's beginning: records the writer
 * already overwrote count as lost.
 *
 * Return: 0, or -CHAN_EINVAL for a bad geometry, index or pointer.
 */
int chan_reader_open(struct chan_reader *r, const struct chan_geom *g, const void *region,
		     void *feedback, chan_u32 index);

/**
 * chan_reserve() - reserve room for a record, to write it in place
 * @w: the writer
 * @len: payload bytes, 1..max_record
 * @payload: set to where the payload goes (CHAN_ALIGN aligned)
 *
 * Readers may lose old records from here on. A reservation not committed
 * is dropped by the next one.
 *
 * Return: 0; -CHAN_EAGAIN when the reliable reader has not consumed what
 * the record would overwrite; -CHAN_EPROTO when its feedback is invalid
 * (counted, see chan_writer_faults()); -CHAN_EMSGSIZE for a bad length;
 * -CHAN_EINVAL on a state channel.
 */
int chan_reserve(struct chan_writer *w, chan_u32 len, void **payload);

/**
 * chan_commit() - publish the reserved record
 * @w: the writer
 * @len: payload bytes written, 1..the reserved length
 *
 * Return: CHAN_WAKE if a reader asked for a wake-up, 0, or -CHAN_EINVAL
 * without a reservation or for a bad length.
 */
int chan_commit(struct chan_writer *w, chan_u32 len);

/**
 * chan_try_send() - copy a record into the queue, without waiting
 * @w: the writer
 * @buf: the payload
 * @len: its bytes, 1..max_record
 *
 * Return: as chan_reserve(), or chan_commit()'s value once sent.
 */
int chan_try_send(struct chan_writer *w, const void *buf, chan_u32 len);

/**
 * chan_send() - send a record, waiting a bounded time for room
 * @w: the writer
 * @buf: the payload
 * @len: its bytes, 1..max_record
 * @wait: clock and relax callbacks, or NULL not to wait
 * @timeout: in the clock's units, or CHAN_FOREVER
 *
 * Only a reliable reader makes a send wait.
 *
 * Return: as chan_try_send(), or -CHAN_ETIMEDOUT.
 */
int chan_send(struct chan_writer *w, const void *buf, chan_u32 len,
	      const struct chan_wait *wait, chan_u64 timeout);

/**
 * chan_try_recv() - take the next record, without waiting
 * @r: the reader
 * @buf: where the payload goes
 * @cap: bytes of @buf
 * @len: set to the payload's length (also on -CHAN_EMSGSIZE)
 *
 * Records lost before this one are added to chan_lost().
 *
 * Return: 0; -CHAN_EAGAIN when there is none; -CHAN_EMSGSIZE when it is
 * larger than @cap (it stays next); -CHAN_EBUSY when the writer kept
 * overwriting it; -CHAN_EPIPE when the channel is broken for this reader.
 */
int chan_try_recv(struct chan_reader *r, void *buf, chan_u32 cap, chan_u32 *len);

/**
 * chan_recv_timeout() - take the next record, waiting a bounded time
 * @r: the reader
 * @buf: where the payload goes
 * @cap: bytes of @buf
 * @len: set to the payload's length
 * @wait: clock and relax callbacks, or NULL not to wait
 * @timeout: in the clock's units, or CHAN_FOREVER
 *
 * Return: as chan_try_recv(), or -CHAN_ETIMEDOUT.
 */
int chan_recv_timeout(struct chan_reader *r, void *buf, chan_u32 cap, chan_u32 *len,
		      const struct chan_wait *wait, chan_u64 timeout);

/**
 * chan_recv() - take the next record, waiting as long as it takes
 * @r: the reader
 * @buf: where the payload goes
 * @cap: bytes of @buf
 * @len: set to the payload's length
 * @wait: clock and relax callbacks
 *
 * Return: as chan_try_recv() but never -CHAN_EAGAIN.
 */
int chan_recv(struct chan_reader *r, void *buf, chan_u32 cap, chan_u32 *len,
	      const struct chan_wait *wait);

/**
 * chan_state_publish() - make a value the latest of a state channel
 * @w: the writer
 * @buf: the value
 * @len: its bytes, 0..max_record
 *
 * Return: CHAN_WAKE if a reader asked for a wake-up, 0, -CHAN_EMSGSIZE
 * for a bad length, or -CHAN_EINVAL on a queue.
 */
int chan_state_publish(struct chan_writer *w, const void *buf, chan_u32 len);

/**
 * chan_state_read() - copy the latest value of a state channel
 * @r: the reader
 * @buf: where the value goes, at least max_record bytes
 * @len: set to the value's length
 * @gen: set to its generation (1 for the first value), may be NULL
 *
 * Generations skipped since the last read are added to chan_lost().
 *
 * Return: 1 for a value newer than the last one read, 0 for the same
 * one again; -CHAN_EAGAIN before the first value; -CHAN_EBUSY when the
 * writer overwrote it CHAN_RETRIES times; -CHAN_EPIPE when broken.
 */
int chan_state_read(struct chan_reader *r, void *buf, chan_u32 *len, chan_u64 *gen);

/**
 * chan_lost() - records (queue) or generations (state) this reader missed
 * @r: the reader
 *
 * Return: the count since the reader was opened.
 */
chan_u64 chan_lost(const struct chan_reader *r);

/**
 * chan_broken() - why the channel is broken for this reader
 * @r: the reader
 *
 * Return: an enum chan_broken, CHAN_BROKEN_NONE while it is usable.
 */
enum chan_broken chan_broken(const struct chan_reader *r);

/**
 * chan_writer_faults() - invalid feedback the writer has seen
 * @w: the writer
 *
 * Return: how many times the reliable reader's consumed position was
 * outside what the writer has written.
 */
chan_u64 chan_writer_faults(const struct chan_writer *w);

/**
 * chan_arm() - ask the writer for a wake-up, before sleeping
 * @r: the reader
 *
 * Return: 1 when something is already there to read (do not sleep), 0
 * when the reader may sleep until the doorbell.
 */
int chan_arm(struct chan_reader *r);

#endif /* _COLORGUARD_CHAN_H */
