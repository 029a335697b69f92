/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An end of a channel in root Linux (include/colorguard/chan_linux.h):
 * client.c opens it through the keeper and maps its memory, io.c sends
 * and receives on it.
 */
#ifndef _CHAN_LINUX_INT_H
#define _CHAN_LINUX_INT_H

#include <colorguard/chan_linux.h>

struct cg_chan {
	int sock;			/* the connection that holds the slot */
	int role;			/* CHAN_KEEP_WRITER or CHAN_KEEP_READER */
	unsigned int index;
	int core;			/* the protocol core's side is open */
	struct chan_geom geom;
	struct cg_chan_mem mem;
	struct chan_writer w;
	struct chan_reader r;
	/* A reader: the writer's attaches when it last (re-)opened. */
	uint32_t writer_attaches;
	/* A reader: chan_lost() of the sides it re-opened since. */
	uint64_t lost_before;
	struct cg_chan_stats st;
};

/* io.c: open a reader's side (again), with a wake word of its own. */
int cg_chan_reader_start(struct cg_chan *c);

#endif
