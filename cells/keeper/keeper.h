/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The channel keeper (`colorguard chan keep`): the memory of every
 * channel of a config, made once, and the socket that hands it out
 * (include/colorguard/chan_keep.h). One thread: a poll() loop serves
 * every client.
 *
 *   keeper.c        config, start, the loop's life, stop
 *   keeper_mem.c    the objects: mm-color shared objects or sealed memfds
 *   keeper_peers.c  the peers page: attach and detach
 *   keeper_req.c    a request checked and answered, STAT's text
 *   keeper_sock.c   the listening socket, connections, SCM_RIGHTS
 */
#ifndef COLORGUARD_KEEPER_H
#define COLORGUARD_KEEPER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <colorguard/chan.h>
#include <colorguard/chan_keep.h>

#include "colorguard.h"

/* Connections served at once; one more is accepted and closed at once. */
#define KEEP_MAX_CONNS		128

/* A client: its socket and who it is (SO_PEERCRED, at connect). */
struct keep_conn {
	int fd;			/* -1: a free entry */
	pid_t pid;
	uid_t uid;
	unsigned int slots;	/* slots it holds */
};

/* Who holds a slot: NULL when it is detached. */
struct keep_slot {
	struct keep_conn *conn;
	pid_t pid;
};

/* A channel's memory and its slots. */
struct keep_chan {
	const struct cg_channel *cfg;
	struct chan_geom geom;
	int writer_cell;			/* index in cfg->cells */
	/* Reader i: its cell and which of that cell's slots it is. */
	unsigned int reader_cell[CHAN_MAX_READERS];
	unsigned int reader_slot[CHAN_MAX_READERS];
	/* Objects: the read-write fd and the read-only one of each. */
	int region_rw, region_ro;
	int peers_rw, peers_ro;
	int fb_rw[CHAN_MAX_READERS], fb_ro[CHAN_MAX_READERS];
	int doorbell[CHAN_MAX_READERS];		/* eventfds; -1 without */
	/* The keeper's own mappings: peers to write, the rest to show. */
	struct chan_peers *peers;
	const void *region;
	const void *fb[CHAN_MAX_READERS];
	uint64_t epoch;
	struct keep_slot writer;
	struct keep_slot reader[CHAN_MAX_READERS];
};

struct keeper {
	const struct cg_config *cfg;
	bool no_color;
	int root_cell;				/* index in cfg->cells, -1: none */
	uid_t uid;				/* the keeper's own */
	unsigned int nr_chans;
	struct keep_chan chans[CG_MAX_CHANNELS];
	const char *sock_path;
	int listen_fd;
	struct keep_conn conns[KEEP_MAX_CONNS];
};

/* keeper_mem.c */
int keep_mem_create(struct keeper *k, struct keep_chan *ch, int mmc_fd,
		    char *why, size_t len);
void keep_mem_free(struct keep_chan *ch);
/* Zero the control block of the writer's region (a writer attaches). */
int keep_mem_reset_ctrl(struct keep_chan *ch);

/* keeper_peers.c */
void keep_peers_init(struct keep_chan *ch);
/* Peer 0 is the writer, 1 + i reader i. */
void keep_peers_attach(struct keep_chan *ch, unsigned int peer);
void keep_peers_detach(struct keep_chan *ch, unsigned int peer);
uint32_t keep_peers_attaches(const struct keep_chan *ch, unsigned int peer);

/* keeper_req.c */
/*
 * Answer one request of @conn (@len bytes at @buf, @nr_in descriptors
 * came with it, already closed): fill @reply, the STAT text after it in
 * @reply_buf and the descriptors to send. Returns the reply's bytes.
 */
size_t keep_request(struct keeper *k, struct keep_conn *conn, const void *buf,
		    size_t len, unsigned int nr_in, void *reply_buf, int *fds,
		    unsigned int *nr_fds);
/* The connection is gone: detach every slot it held. */
void keep_release(struct keeper *k, struct keep_conn *conn);

/* keeper_sock.c */
int keep_listen(struct keeper *k, char *why, size_t len);
void keep_unlisten(struct keeper *k);
/* Serve until a signal of @sig_fd (a signalfd); 0, or -errno. */
int keep_serve(struct keeper *k, int sig_fd);

/* keeper.c */
struct keep_opts {
	const char *config;
	const char *sock_path;		/* NULL: CHAN_KEEP_SOCK */
	bool no_color;
};

/*
 * keeper_run() - the keeper in the foreground until SIGTERM or SIGINT
 * @o: what to keep, where to listen
 *
 * Return: the exit status (0 after a signal, 1 on failure).
 */
int keeper_run(const struct keep_opts *o);

#endif
