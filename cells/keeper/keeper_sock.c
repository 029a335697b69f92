// SPDX-License-Identifier: GPL-2.0
/*
 * The keeper's socket (SOCK_SEQPACKET: one request, one reply, each a
 * packet) and its one poll() loop: no thread per client, every socket
 * non-blocking, so a client that stops reading or never sends costs its
 * own connection at most. Who a client is comes from SO_PEERCRED at
 * connect; a slot it opens is its while the connection stays open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "keeper.h"

#define KEEP_GROUP	"colorguard"
/* Descriptors a client may (wrongly) send with a request; closed at once. */
#define KEEP_CMSG_FDS	16

static int sock_addr(const char *path, struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(a->sun_path))
		return -ENAMETOOLONG;
	strcpy(a->sun_path, path);
	return 0;
}

/* /run/colorguard may not exist yet (a tmpfs at boot). */
static int make_parent(const char *path)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	if (mkdir(dirname(dir), 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* A socket file left by a keeper that died is removed; a live one is not. */
static int clear_stale(const char *path, const struct sockaddr_un *a)
{
	struct stat st;
	int fd, ret;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = connect(fd, (const struct sockaddr *)a, sizeof(*a));
	close(fd);
	if (!ret)
		return -EADDRINUSE;
	return unlink(path) ? -errno : 0;
}

int keep_listen(struct keeper *k, char *why, size_t len)
{
	const char *path = k->sock_path;
	struct sockaddr_un a;
	struct group *grp;
	mode_t old;
	int fd, ret;

	ret = sock_addr(path, &a);
	if (!ret)
		ret = make_parent(path);
	if (!ret)
		ret = clear_stale(path, &a);
	if (ret) {
		snprintf(why, len, "%s: %s", path,
			 ret == -EADDRINUSE ? "a keeper already listens there" :
			 ret == -EEXIST ? "exists and is not a socket" : strerror(-ret));
		return ret;
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		snprintf(why, len, "socket: %s", strerror(errno));
		return -errno;
	}
	/* Nobody else may connect before the mode and group are right. */
	old = umask(0177);
	ret = bind(fd, (struct sockaddr *)&a, sizeof(a));
	umask(old);
	if (ret || listen(fd, 64)) {
		ret = -errno;
		snprintf(why, len, "%s: %s", path, strerror(errno));
		close(fd);
		return ret;
	}
	grp = getgrnam(KEEP_GROUP);
	if (grp && (chown(path, (uid_t)-1, grp->gr_gid) || chmod(path, 0660))) {
		ret = -errno;
		snprintf(why, len, "%s: group %s: %s", path, KEEP_GROUP, strerror(errno));
		close(fd);
		unlink(path);
		return ret;
	}
	k->listen_fd = fd;
	return 0;
}

void keep_unlisten(struct keeper *k)
{
	if (k->listen_fd < 0)
		return;
	close(k->listen_fd);
	k->listen_fd = -1;
	unlink(k->sock_path);
}

static void drop(struct keeper *k, struct keep_conn *conn)
{
	keep_release(k, conn);
	close(conn->fd);
	conn->fd = -1;
}

static void accept_one(struct keeper *k)
{
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	unsigned int i;
	int fd;

	fd = accept4(k->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen)) {
		close(fd);
		return;
	}
	for (i = 0; i < KEEP_MAX_CONNS; i++) {
		if (k->conns[i].fd >= 0)
			continue;
		k->conns[i] = (struct keep_conn){
			.fd = fd, .pid = cred.pid, .uid = cred.uid,
		};
		return;
	}
	fprintf(stderr, "colorguard chan keep: pid %d: refused: %u connections already\n",
		(int)cred.pid, KEEP_MAX_CONNS);
	close(fd);
}

/* Close what came with a request: the keeper takes no descriptors. */
static unsigned int close_passed(struct msghdr *m)
{
	struct cmsghdr *c;
	unsigned int n = 0, i;

	for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		int fd;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			close(fd);
			n++;
		}
	}
	/* The kernel closed those it could not pass. */
	return n + !!(m->msg_flags & MSG_CTRUNC);
}

static int send_reply(int fd, const void *buf, size_t len, const int *fds,
		      unsigned int nr_fds)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * CHAN_KEEP_MAX_FDS)];
	} ctl;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	ssize_t n;

	if (nr_fds) {
		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.buf;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * nr_fds);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nr_fds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nr_fds);
	}
	n = sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
	return n == (ssize_t)len ? 0 : -1;
}

static void serve_conn(struct keeper *k, struct keep_conn *conn)
{
	static char reply[CHAN_KEEP_MAX_PACKET] __attribute__((aligned(8)));
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * KEEP_CMSG_FDS)];
	} ctl;
	struct chan_keep_req req;
	struct iovec iov = { .iov_base = &req, .iov_len = sizeof(req) };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	int fds[CHAN_KEEP_MAX_FDS];
	unsigned int nr_fds, nr_in;
	ssize_t n;
	size_t len;

	/* MSG_TRUNC: the packet's real length, to refuse one too long. */
	n = recvmsg(conn->fd, &m, MSG_TRUNC | MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	nr_in = n >= 0 ? close_passed(&m) : 0;
	/* 0: the client closed (an empty packet reads alike and ends it too). */
	if (n <= 0) {
		drop(k, conn);
		return;
	}
	len = keep_request(k, conn, &req, n, nr_in, reply, fds, &nr_fds);
	/* A client that does not take its reply loses its connection, and its slots. */
	if (send_reply(conn->fd, reply, len, fds, nr_fds))
		drop(k, conn);
}

int keep_serve(struct keeper *k, int sig_fd)
{
	struct pollfd pfd[2 + KEEP_MAX_CONNS];
	struct keep_conn *who[2 + KEEP_MAX_CONNS];
	struct signalfd_siginfo si;
	unsigned int i, n;

	for (;;) {
		n = 0;
		pfd[n++] = (struct pollfd){ .fd = sig_fd, .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = k->listen_fd, .events = POLLIN };
		for (i = 0; i < KEEP_MAX_CONNS; i++) {
			if (k->conns[i].fd < 0)
				continue;
			who[n] = &k->conns[i];
			pfd[n++] = (struct pollfd){ .fd = k->conns[i].fd, .events = POLLIN };
		}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (pfd[0].revents) {
			if (read(sig_fd, &si, sizeof(si)) == sizeof(si))
				fprintf(stderr, "colorguard chan keep: %s, stopping\n",
					strsignal(si.ssi_signo));
			return 0;
		}
		for (i = 2; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			if (pfd[i].revents & POLLIN)
				serve_conn(k, who[i]);
			else
				drop(k, who[i]);
		}
		if (pfd[1].revents & POLLIN)
			accept_one(k);
	}
}
