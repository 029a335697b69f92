/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the keeper's host tests: a keeper (--no-color, memfds) of a
 * test config in a child, on a socket in a temporary folder, ready once
 * it says READY=1 to a stand-in service manager; raw requests for the
 * tests that speak the protocol themselves; the payload pattern.
 */
#ifndef _KEEPER_TEST_H
#define _KEEPER_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <colorguard/chan_keep.h>
#include <colorguard/chan_linux.h>

#include "keeper.h"

/*
 * rt (critical) writes log (a queue), vehicle (state), small (a 4 KiB
 * queue of 64-byte records, to lap readers) and bell (a queue with a
 * doorbell), and reads commands (reliable, doorbell), which root Linux
 * writes. Root Linux reads log and vehicle with 3 reader slots.
 */
static const char kt_config[] =
"llc = { size = \"1M\"; ways = 16; line_size = 64; };\n"
"channels = (\n"
"  { name = \"log\"; kind = \"queue\"; size = \"64K\"; max_record = \"4K\"; colors = \"6-7\"; },\n"
"  { name = \"vehicle\"; kind = \"state\"; max_record = 256; colors = \"6-7\"; },\n"
"  { name = \"small\"; kind = \"queue\"; size = \"4K\"; max_record = 64; colors = \"6-7\"; },\n"
"  { name = \"commands\"; kind = \"queue\"; size = \"4K\"; max_record = 256; colors = \"6-7\";\n"
"    reliable = \"rt\"; doorbell = true; },\n"
"  { name = \"bell\"; kind = \"queue\"; size = \"4K\"; max_record = 64; colors = \"6-7\";\n"
"    doorbell = true; }\n"
");\n"
"cells = (\n"
"  { name = \"rt\"; type = \"critical\"; cpus = \"0\"; colors = \"8-15\";\n"
"    memory = ( { phys = \"0x30000000\"; virt = \"0\"; size = \"32M\"; } );\n"
"    channels = (\n"
"      { name = \"log\"; role = \"writer\"; address = \"0x90000000\"; },\n"
"      { name = \"vehicle\"; role = \"writer\"; address = \"0x90100000\"; },\n"
"      { name = \"small\"; role = \"writer\"; address = \"0x90200000\"; },\n"
"      { name = \"commands\"; role = \"reader\"; address = \"0x90300000\"; },\n"
"      { name = \"bell\"; role = \"writer\"; address = \"0x90400000\"; } ); },\n"
"  { name = \"linux\"; type = \"root\"; cpus = \"1\"; colors = \"0-5\";\n"
"    read_mbps = 18000; write_mbps = 18000;\n"
"    memory = ( { phys = \"0x0\"; size = \"192M\"; span = \"512M\"; } );\n"
"    channels = (\n"
"      { name = \"log\"; role = \"reader\"; readers = 3; },\n"
"      { name = \"vehicle\"; role = \"reader\"; readers = 3; },\n"
"      { name = \"small\"; role = \"reader\"; },\n"
"      { name = \"commands\"; role = \"writer\"; },\n"
"      { name = \"bell\"; role = \"reader\"; } ); }\n"
");\n";

struct kt {
	char dir[64];
	char cfg[128];
	char sock[128];
	char notify[128];
	pid_t pid;
	int status;		/* the keeper's, once kt_stop() reaped it */
};

static inline int kt_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* The keeper in a child, its output in the folder: 0 once it is READY. */
static inline int kt_start(struct kt *t)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	/* A bound on a keeper that never gets ready, not a speed check. */
	struct timeval tv = { .tv_sec = 30 };
	char buf[256], out[160];
	ssize_t n;
	int fd;

	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "/tmp/cg-keep-XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	snprintf(t->cfg, sizeof(t->cfg), "%s/system.cfg", t->dir);
	snprintf(t->sock, sizeof(t->sock), "%s/chan.sock", t->dir);
	snprintf(t->notify, sizeof(t->notify), "%s/notify", t->dir);
	if (kt_write(t->cfg, kt_config))
		return -1;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	strcpy(a.sun_path, t->notify);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return -1;
	fflush(stdout);
	fflush(stderr);
	t->pid = fork();
	if (t->pid < 0)
		return -1;
	if (!t->pid) {
		struct keep_opts o = { .config = t->cfg, .sock_path = t->sock,
				       .no_color = true };

		snprintf(out, sizeof(out), "%s/keeper.out", t->dir);
		if (!freopen(out, "w", stdout))
			_exit(100);
		snprintf(out, sizeof(out), "%s/keeper.err", t->dir);
		if (!freopen(out, "w", stderr))
			_exit(100);
		setenv("NOTIFY_SOCKET", t->notify, 1);
		exit(keeper_run(&o));
	}
	n = recv(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strncmp(buf, "READY=1", 7) ? -1 : 0;
}

/* SIGTERM: 0 when the keeper exited with 0 and removed its socket. */
static inline int kt_stop(struct kt *t)
{
	char cmd[160];
	int gone;

	if (t->pid <= 0)
		return -1;
	kill(t->pid, SIGTERM);
	if (waitpid(t->pid, &t->status, 0) != t->pid)
		return -1;
	t->pid = 0;
	gone = access(t->sock, F_OK) && errno == ENOENT;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	if (system(cmd))
		return -1;
	return WIFEXITED(t->status) && !WEXITSTATUS(t->status) && gone ? 0 : -1;
}

/* The keeper is still there (not exited). */
static inline int kt_alive(const struct kt *t)
{
	int st;

	return waitpid(t->pid, &st, WNOHANG) == 0;
}

/*
 * A STAT round trip: the keeper has handled whatever a client did
 * before it (a close it saw first: one poll() sees both, and serves
 * open connections before it accepts).
 */
static inline int kt_sync(const struct kt *t)
{
	char text[256], why[128];

	return cg_chan_keeper_stat(t->sock, NULL, text, sizeof(text), why, sizeof(why));
}

static inline int kt_connect(const char *sock)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	strcpy(a.sun_path, sock);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

static inline void kt_req(struct chan_keep_req *r, uint32_t op, uint32_t role,
			  const char *cell, const char *channel, uint32_t slot)
{
	memset(r, 0, sizeof(*r));
	r->magic = CHAN_KEEP_MAGIC;
	r->version = CHAN_KEEP_VERSION;
	r->op = op;
	r->role = role;
	snprintf(r->cell, sizeof(r->cell), "%s", cell);
	snprintf(r->channel, sizeof(r->channel), "%s", channel);
	r->slot = slot;
}

/*
 * Send @len bytes, take the reply (its descriptors into @fds, up to
 * CHAN_KEEP_MAX_FDS): the reply's bytes, or -1.
 */
static inline ssize_t kt_call(int fd, const void *req, size_t len,
			      struct chan_keep_reply *rep, size_t cap,
			      int *fds, unsigned int *nr_fds)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * CHAN_KEEP_MAX_FDS)];
	} ctl;
	struct iovec iov = { .iov_base = rep, .iov_len = cap };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *c;
	ssize_t n;

	*nr_fds = 0;
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len)
		return -1;
	n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
	for (c = CMSG_FIRSTHDR(&m); n > 0 && c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_type != SCM_RIGHTS)
			continue;
		*nr_fds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(fds, CMSG_DATA(c), *nr_fds * sizeof(int));
	}
	return n;
}

static inline void kt_close_fds(int *fds, unsigned int n)
{
	while (n)
		close(fds[--n]);
}

/* Record @seq of @len bytes: its number, then a pattern of both. */
static inline void kt_fill(uint8_t *p, uint64_t seq, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seq * 131 + i * 7 + 1);
	if (len >= sizeof(seq))
		memcpy(p, &seq, sizeof(seq));
}

static inline int kt_check(const uint8_t *p, uint64_t seq, uint32_t len)
{
	uint8_t want[4096];

	if (len > sizeof(want))
		return -1;
	kt_fill(want, seq, len);
	return memcmp(p, want, len) ? -1 : 0;
}

#endif
