// SPDX-License-Identifier: GPL-2.0
/*
 * Opening an end through the keeper: one request on a connection that
 * then stays open (it holds the slot), the reply's descriptors taken
 * with SCM_RIGHTS, the memory mapped with each part's protection
 * (include/colorguard/chan_keep.h gives their order) and, for a program
 * that sends or receives, the protocol core's side opened on it.
 *
 * The reply is checked before use: its size, magic and version, the
 * descriptors' count against what the geometry needs (extra or cut-off
 * descriptors are an error, and closed), the geometry against
 * chan_geom_check(), each object's size against the geometry.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "chan_linux_int.h"

#define CG_CHAN_SOCK_ENV	"COLORGUARD_CHAN_SOCK"

static int fail(char *why, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

static const char *sock_path(const char *sock)
{
	const char *env = getenv(CG_CHAN_SOCK_ENV);

	if (sock)
		return sock;
	return env && env[0] ? env : CHAN_KEEP_SOCK;
}

static int keep_connect(const char *path, char *why, size_t len)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(a.sun_path))
		return fail(why, len, -ENAMETOOLONG, "%s: path too long", path);
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(why, len, -errno, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		int err = -errno;

		close(fd);
		return fail(why, len, err, "cannot reach the keeper at %s: %s", path,
			    strerror(-err));
	}
	return fd;
}

static void close_all(int *fds, unsigned int n)
{
	while (n)
		close(fds[--n]);
}

/* The descriptors of a reply: at most CHAN_KEEP_MAX_FDS, the rest closed. */
static unsigned int take_fds(struct msghdr *m, int *fds, unsigned int *extra)
{
	struct cmsghdr *c;
	unsigned int n = 0, i;

	*extra = 0;
	for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (n < CHAN_KEEP_MAX_FDS) {
				fds[n++] = fd;
			} else {
				close(fd);
				(*extra)++;
			}
		}
	}
	return n;
}

/*
 * Send @req on @fd and take the reply into @buf (@cap bytes, at least a
 * struct chan_keep_reply), its descriptors into @fds. The reply's err is
 * the caller's to look at.
 */
static int keep_call(int fd, const struct chan_keep_req *req, void *buf, size_t cap,
		     int *fds, unsigned int *nr_fds, char *why, size_t len)
{
	union {
		struct cmsghdr h;
		/* One more than the most, to see a reply that has too many. */
		char buf[CMSG_SPACE(sizeof(int) * (CHAN_KEEP_MAX_FDS + 1))];
	} ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = cap };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct chan_keep_reply *rep = buf;
	unsigned int extra;
	ssize_t n;

	*nr_fds = 0;
	n = send(fd, req, sizeof(*req), MSG_NOSIGNAL);
	if (n != sizeof(*req))
		return fail(why, len, n < 0 ? -errno : -EIO, "sending to the keeper: %s",
			    n < 0 ? strerror(errno) : "short packet");
	do
		n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(why, len, -errno, "the keeper's reply: %s", strerror(errno));
	if (n == 0)
		return fail(why, len, -ECONNRESET, "the keeper closed the connection");
	*nr_fds = take_fds(&m, fds, &extra);
	if (m.msg_flags & (MSG_CTRUNC | MSG_TRUNC) || extra) {
		close_all(fds, *nr_fds);
		*nr_fds = 0;
		return fail(why, len, -EPROTO, "the keeper's reply was cut short (%s)",
			    m.msg_flags & MSG_TRUNC ? "bytes" : "descriptors");
	}
	if ((size_t)n < sizeof(*rep) || rep->magic != CHAN_KEEP_MAGIC ||
	    rep->version != CHAN_KEEP_VERSION) {
		close_all(fds, *nr_fds);
		*nr_fds = 0;
		return fail(why, len, -EPROTO, "not a keeper's reply (%zd bytes)", n);
	}
	if (rep->err) {
		close_all(fds, *nr_fds);
		*nr_fds = 0;
		rep->why[sizeof(rep->why) - 1] = '\0';
		if (rep->err > 0 || rep->err < -4095)
			return fail(why, len, -EPROTO, "the keeper answered error %d",
				    rep->err);
		return fail(why, len, rep->err, "%s", rep->why);
	}
	if ((size_t)n != sizeof(*rep) + rep->text_len || rep->nr_fds != *nr_fds) {
		close_all(fds, *nr_fds);
		*nr_fds = 0;
		return fail(why, len, -EPROTO, "the keeper's reply does not add up");
	}
	return 0;
}

static void req_init(struct chan_keep_req *req, unsigned int op)
{
	memset(req, 0, sizeof(*req));
	req->magic = CHAN_KEEP_MAGIC;
	req->version = CHAN_KEEP_VERSION;
	req->op = op;
}

static int name_ok(const char *name)
{
	return name && strlen(name) < CHAN_KEEP_NAME_MAX;
}

static unsigned int fds_wanted(int role, const struct chan_geom *g)
{
	unsigned int bells = g->flags & CHAN_F_DOORBELL ? 1 : 0;

	if (role == CHAN_KEEP_READER)
		return 3 + bells;
	return 2 + (g->flags ? g->nr_readers : 0) + bells * g->nr_readers;
}

static void *map(int fd, uint64_t size, int prot, char *why, size_t len,
		 const char *what)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st)) {
		fail(why, len, 0, "%s: %s", what, strerror(errno));
		return NULL;
	}
	/* A memfd (--no-color) smaller than the geometry would fault. */
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < size) {
		fail(why, len, 0, "%s: %lld bytes, the geometry says %llu", what,
		     (long long)st.st_size, (unsigned long long)size);
		return NULL;
	}
	p = mmap(NULL, size, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fail(why, len, 0, "mapping the %s: %s", what, strerror(errno));
		return NULL;
	}
	return p;
}

static int map_all(struct cg_chan *c, const int *fds, char *why, size_t len)
{
	const struct chan_geom *g = &c->geom;
	struct cg_chan_mem *m = &c->mem;
	int writer = c->role == CHAN_KEEP_WRITER;
	unsigned int i, n = 2;

	m->region = map(fds[0], g->writer_size, PROT_READ | (writer ? PROT_WRITE : 0),
			why, len, "region");
	if (!m->region)
		return -EPROTO;
	m->peers = map(fds[1], CHAN_PEERS_SIZE, PROT_READ, why, len, "peers page");
	if (!m->peers)
		return -EPROTO;
	if (!writer) {
		m->feedback[0] = map(fds[n++], g->feedback_size, PROT_READ | PROT_WRITE,
				     why, len, "feedback page");
		if (!m->feedback[0])
			return -EPROTO;
		m->nr_feedback = 1;
	}
	for (i = 0; writer && g->flags && i < g->nr_readers; i++) {
		m->feedback[i] = map(fds[n++], g->feedback_size, PROT_READ, why, len,
				     "feedback page");
		if (!m->feedback[i])
			return -EPROTO;
		m->nr_feedback = i + 1;
	}
	/* The eventfds are kept; the memory's descriptors are closed by the caller. */
	for (i = 0; (g->flags & CHAN_F_DOORBELL) && i < (writer ? g->nr_readers : 1); i++) {
		m->doorbell[i] = fds[n];
		m->nr_doorbell = i + 1;
		n++;
	}
	return 0;
}

static int check_reply(struct cg_chan *c, const struct chan_keep_reply *rep,
		       unsigned int nr_fds, char *why, size_t len)
{
	enum chan_geom_err e = chan_geom_check(&rep->geom);

	if (e != CHAN_GEOM_OK)
		return fail(why, len, -EPROTO, "the keeper's geometry: %s", chan_geom_str(e));
	if (c->role == CHAN_KEEP_READER && rep->index >= rep->geom.nr_readers)
		return fail(why, len, -EPROTO, "the keeper's reader index %u of %u",
			    rep->index, rep->geom.nr_readers);
	if (nr_fds != fds_wanted(c->role, &rep->geom))
		return fail(why, len, -EPROTO, "%u descriptors from the keeper, %u expected",
			    nr_fds, fds_wanted(c->role, &rep->geom));
	c->geom = rep->geom;
	c->index = c->role == CHAN_KEEP_READER ? rep->index : 0;
	return 0;
}

static int open_core(struct cg_chan *c, char *why, size_t len)
{
	int ret;

	if (c->role == CHAN_KEEP_WRITER)
		ret = chan_writer_open(&c->w, &c->geom, c->mem.region,
				       c->geom.flags ?
				       (const void *const *)c->mem.feedback : NULL);
	else
		ret = cg_chan_reader_start(c);
	if (ret)
		return fail(why, len, ret, "opening the channel's %s side: %s",
			    c->role == CHAN_KEEP_WRITER ? "writer" : "reader",
			    strerror(-ret));
	c->core = 1;
	return 0;
}

int cg_chan_open(const char *sock, const char *cell, const char *channel,
		 int role, unsigned int slot, int core, struct cg_chan **out,
		 char *why, size_t why_len)
{
	struct chan_keep_reply rep;
	struct chan_keep_req req;
	int fds[CHAN_KEEP_MAX_FDS];
	unsigned int nr_fds = 0, i;
	struct cg_chan *c;
	int ret;

	*out = NULL;
	if (!name_ok(cell) || !name_ok(channel) ||
	    (role != CHAN_KEEP_WRITER && role != CHAN_KEEP_READER))
		return fail(why, why_len, -EINVAL, "bad cell, channel or role");
	c = calloc(1, sizeof(*c));
	if (!c)
		return fail(why, why_len, -ENOMEM, "out of memory");
	c->role = role;
	for (i = 0; i < CHAN_MAX_READERS; i++)
		c->mem.doorbell[i] = -1;
	c->sock = keep_connect(sock_path(sock), why, why_len);
	if (c->sock < 0) {
		ret = c->sock;
		free(c);
		return ret;
	}
	req_init(&req, CHAN_KEEP_OPEN);
	req.role = role;
	strcpy(req.cell, cell);
	strcpy(req.channel, channel);
	req.slot = role == CHAN_KEEP_READER ? slot : 0;
	ret = keep_call(c->sock, &req, &rep, sizeof(rep), fds, &nr_fds, why, why_len);
	if (!ret)
		ret = check_reply(c, &rep, nr_fds, why, why_len);
	if (!ret)
		ret = map_all(c, fds, why, why_len);
	/* Mapped or not, only the eventfds stay open. */
	for (i = 0; i < nr_fds; i++) {
		unsigned int j;
		bool kept = false;

		for (j = 0; j < c->mem.nr_doorbell; j++)
			kept |= c->mem.doorbell[j] == fds[i];
		if (!kept)
			close(fds[i]);
	}
	if (!ret && core)
		ret = open_core(c, why, why_len);
	if (ret) {
		cg_chan_close(c);
		return ret;
	}
	*out = c;
	return 0;
}

void cg_chan_close(struct cg_chan *c)
{
	unsigned int i;

	if (!c)
		return;
	if (c->mem.region)
		munmap(c->mem.region, c->geom.writer_size);
	if (c->mem.peers)
		munmap((void *)c->mem.peers, CHAN_PEERS_SIZE);
	for (i = 0; i < c->mem.nr_feedback; i++)
		if (c->mem.feedback[i])
			munmap(c->mem.feedback[i], c->geom.feedback_size);
	for (i = 0; i < c->mem.nr_doorbell; i++)
		close(c->mem.doorbell[i]);
	/* Closing the connection detaches the slot. */
	if (c->sock >= 0)
		close(c->sock);
	free(c);
}

int cg_chan_keeper_stat(const char *sock, const char *channel, char *text,
			size_t text_len, char *why, size_t why_len)
{
	struct chan_keep_reply *rep;
	struct chan_keep_req req;
	int fds[CHAN_KEEP_MAX_FDS], fd, ret;
	unsigned int nr_fds;
	size_t n;

	if (channel && !name_ok(channel))
		return fail(why, why_len, -EINVAL, "bad channel name");
	if (!text_len)
		return fail(why, why_len, -EINVAL, "no room for the text");
	rep = malloc(CHAN_KEEP_MAX_PACKET);
	if (!rep)
		return fail(why, why_len, -ENOMEM, "out of memory");
	fd = keep_connect(sock_path(sock), why, why_len);
	if (fd < 0) {
		free(rep);
		return fd;
	}
	req_init(&req, CHAN_KEEP_STAT);
	if (channel)
		strcpy(req.channel, channel);
	ret = keep_call(fd, &req, rep, CHAN_KEEP_MAX_PACKET, fds, &nr_fds, why, why_len);
	close(fd);
	if (!ret && nr_fds) {
		close_all(fds, nr_fds);
		ret = fail(why, why_len, -EPROTO, "descriptors with STAT's reply");
	}
	if (!ret) {
		n = rep->text_len < text_len - 1 ? rep->text_len : text_len - 1;
		memcpy(text, rep + 1, n);
		text[n] = '\0';
	}
	free(rep);
	return ret;
}

const struct chan_geom *cg_chan_geometry(const struct cg_chan *c)
{
	return &c->geom;
}

const struct cg_chan_mem *cg_chan_memory(const struct cg_chan *c)
{
	return &c->mem;
}

unsigned int cg_chan_index(const struct cg_chan *c)
{
	return c->index;
}
