/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The channel keeper's socket: how a cell's VM process and root Linux
 * programs get the memory of their channels.
 *
 * The keeper (`colorguard chan keep CONFIG`) makes every channel's memory
 * once, as mm-color shared objects in the channel's comm colors: the
 * writer's region, one feedback page per reader and the peers page
 * (include/colorguard/chan.h). It outlives the cells, so a peer can stop
 * and come back to the same channel, and it is the one writer of the
 * peers page. It listens on CHAN_KEEP_SOCK (SOCK_SEQPACKET, root's).
 *
 * A peer sends one struct chan_keep_req and gets one struct
 * chan_keep_reply, with file descriptors (SCM_RIGHTS) when err is 0:
 *
 *   op OPEN, role WRITER:  [0] region (read-write), [1] peers page
 *	(read-only), then with geom.flags each reader's feedback page in
 *	reader order (read-only), then with CHAN_F_DOORBELL one eventfd per
 *	reader, in reader order (the writer rings reader i's);
 *   op OPEN, role READER:  [0] region (read-only), [1] peers page
 *	(read-only), [2] its feedback page (read-write), then with
 *	CHAN_F_DOORBELL its eventfd (it sleeps in poll on it).
 *
 * A read-only descriptor cannot be mapped writable (mm-color's
 * MM_COLOR_OBJ_READONLY; a sealed memfd in --no-color mode). Geometry
 * comes in the reply, from the config, never from shared memory.
 *
 * An opened slot (the writer, or reader slot `index`) is the peer's while
 * the connection that opened it stays open: a second OPEN of it is
 * refused with EBUSY. When the connection closes the slot is detached and
 * the peers page says so; its memory stays. Each attach and detach moves
 * the epoch.
 *
 * op STAT answers text (after the reply struct, in the same packet): one
 * line per channel and per slot, for `colorguard chan ls` and `stat`.
 */
#ifndef _COLORGUARD_CHAN_KEEP_H
#define _COLORGUARD_CHAN_KEEP_H

#include <colorguard/chan.h>

#define CHAN_KEEP_SOCK		"/run/colorguard/chan.sock"
#define CHAN_KEEP_MAGIC		0x4b4e4843u	/* "CHNK" */
#define CHAN_KEEP_VERSION	1
#define CHAN_KEEP_NAME_MAX	32		/* with the NUL */
#define CHAN_KEEP_WHY_MAX	128		/* with the NUL */
/* The most descriptors of one reply: region, peers, feedbacks, eventfds. */
#define CHAN_KEEP_MAX_FDS	(2 + 2 * CHAN_MAX_READERS)
/* The largest packet: a reply and its STAT text. */
#define CHAN_KEEP_MAX_PACKET	65536

enum chan_keep_op {
	CHAN_KEEP_OPEN = 1,
	CHAN_KEEP_STAT = 2,
};

enum chan_keep_role {
	CHAN_KEEP_WRITER = 1,
	CHAN_KEEP_READER = 2,
};

struct chan_keep_req {
	chan_u32 magic;				/* CHAN_KEEP_MAGIC */
	chan_u32 version;			/* CHAN_KEEP_VERSION */
	chan_u32 op;				/* enum chan_keep_op */
	chan_u32 role;				/* OPEN: enum chan_keep_role */
	char cell[CHAN_KEEP_NAME_MAX];		/* OPEN: the config's cell */
	char channel[CHAN_KEEP_NAME_MAX];	/* OPEN, STAT: "" for all */
	/*
	 * OPEN as a reader: which of the cell's reader slots, from 0
	 * (root Linux may have several); ~0u: the first free one.
	 */
	chan_u32 slot;
	chan_u32 spare[3];			/* 0 */
};

struct chan_keep_reply {
	chan_u32 magic;				/* CHAN_KEEP_MAGIC */
	chan_u32 version;
	chan_s32 err;				/* 0 or a negative errno */
	chan_u32 nr_fds;			/* descriptors that came with it */
	char why[CHAN_KEEP_WHY_MAX];		/* err != 0: one line */
	struct chan_geom geom;			/* OPEN */
	chan_u32 index;				/* OPEN as a reader: reader index */
	chan_u32 text_len;			/* STAT: text bytes after this */
};

#endif /* _COLORGUARD_CHAN_KEEP_H */
