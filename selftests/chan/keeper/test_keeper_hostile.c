// SPDX-License-Identifier: GPL-2.0
/*
 * Clients that do not play by the keeper's protocol: garbage packets of
 * every size, wrong magic and version, unknown op and role, names without
 * their NUL, spare fields set, slot numbers out of range, descriptors
 * sent to the keeper, a client that connects and never sends, one that
 * closes before its reply, one that never reads its replies and more
 * connections than the keeper serves. Each gets a refusal with a reason
 * or loses its connection, and the keeper goes on serving: a good
 * request is answered after each.
 */
#define _GNU_SOURCE
#include <dirent.h>

#include "keeper_test.h"
#include "kselftest_harness.h"

FIXTURE(hostile) {
	struct kt t;
	int fd;
};

FIXTURE_SETUP(hostile)
{
	ASSERT_EQ(0, kt_start(&self->t));
	self->fd = kt_connect(self->t.sock);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(hostile)
{
	close(self->fd);
	EXPECT_EQ(0, kt_stop(&self->t)) TH_LOG("keeper status 0x%x", self->t.status);
}

/* The keeper answers a good request: alive and serving. */
static int serves(struct kt *t)
{
	char why[CHAN_KEEP_WHY_MAX];
	struct cg_chan *c;
	int ret;

	if (!kt_alive(t))
		return -1;
	ret = cg_chan_open(t->sock, "linux", "log", CHAN_KEEP_READER, ~0u, 1, &c, why,
			   sizeof(why));
	if (ret)
		return ret;
	cg_chan_close(c);
	return kt_sync(t);
}

/* Send @len bytes of @req; the reply's err, its reason in @why. */
static int refused(int fd, const void *req, size_t len, char *why)
{
	struct chan_keep_reply rep;
	int fds[CHAN_KEEP_MAX_FDS];
	unsigned int n;
	ssize_t got = kt_call(fd, req, len, &rep, sizeof(rep), fds, &n);

	kt_close_fds(fds, n);
	if (got != sizeof(rep) || rep.magic != CHAN_KEEP_MAGIC || n)
		return 1;
	snprintf(why, CHAN_KEEP_WHY_MAX, "%s", rep.why);
	return rep.err;
}

TEST_F(hostile, garbage_of_every_size)
{
	static const size_t sizes[] = { 1, 7, 8, 64, sizeof(struct chan_keep_req) - 1,
		sizeof(struct chan_keep_req) + 1, 4096, 60000 };
	static uint8_t junk[60000];
	char why[CHAN_KEEP_WHY_MAX], want[CHAN_KEEP_WHY_MAX];
	unsigned int i;

	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 167 + 13);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		EXPECT_EQ(-EINVAL, refused(self->fd, junk, sizes[i], why)) TH_LOG("%zu", sizes[i]);
		snprintf(want, sizeof(want), "a request of %zu bytes: a request is %zu",
			 sizes[i], sizeof(struct chan_keep_req));
		EXPECT_STREQ(want, why);
	}
	/* Right size, random content: bad magic. */
	EXPECT_EQ(-EPROTO, refused(self->fd, junk, sizeof(struct chan_keep_req), why));
	ASSERT_EQ(0, serves(&self->t));
}

TEST_F(hostile, bad_header_fields)
{
	char why[CHAN_KEEP_WHY_MAX];
	struct chan_keep_req req;

	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_READER, "linux", "log", 0);
	req.magic ^= 1;
	EXPECT_EQ(-EPROTO, refused(self->fd, &req, sizeof(req), why));
	EXPECT_STREQ("bad magic 0x4b4e4842", why);

	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_READER, "linux", "log", 0);
	req.version = 2;
	EXPECT_EQ(-EPROTONOSUPPORT, refused(self->fd, &req, sizeof(req), why));
	EXPECT_STREQ("version 2: this keeper speaks 1", why);

	kt_req(&req, 77, CHAN_KEEP_READER, "linux", "log", 0);
	EXPECT_EQ(-EOPNOTSUPP, refused(self->fd, &req, sizeof(req), why));
	EXPECT_STREQ("unknown op 77", why);

	kt_req(&req, CHAN_KEEP_OPEN, 0, "linux", "log", 0);
	EXPECT_EQ(-EINVAL, refused(self->fd, &req, sizeof(req), why));
	EXPECT_STREQ("unknown role 0", why);
	kt_req(&req, CHAN_KEEP_OPEN, 3, "linux", "log", 0);
	EXPECT_EQ(-EINVAL, refused(self->fd, &req, sizeof(req), why));

	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_READER, "linux", "log", 0);
	req.spare[2] = 5;
	EXPECT_EQ(-EINVAL, refused(self->fd, &req, sizeof(req), why));
	EXPECT_STREQ("spare[2] is 0x5, not 0", why);

	kt_req(&req, CHAN_KEEP_STAT, CHAN_KEEP_READER, "", "", 0);
	EXPECT_EQ(-EINVAL, refused(self->fd, &req, sizeof(req), why));
	ASSERT_EQ(0, serves(&self->t));
}

TEST_F(hostile, names_without_their_nul)
{
	char why[CHAN_KEEP_WHY_MAX];
	struct chan_keep_req req;

	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_READER, "linux", "log", 0);
	memset(req.cell, 'a', sizeof(req.cell));
	EXPECT_EQ(-EINVAL, refused(self->fd, &req, sizeof(req), why));
	EXPECT_STREQ("a name without its NUL in 32 bytes", why);
	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_READER, "linux", "log", 0);
	memset(req.channel, 'b', sizeof(req.channel));
	EXPECT_EQ(-EINVAL, refused(self->fd, &req, sizeof(req), why));
	kt_req(&req, CHAN_KEEP_STAT, 0, "", "", 0);
	memset(req.channel, 0xff, sizeof(req.channel));
	EXPECT_EQ(-EINVAL, refused(self->fd, &req, sizeof(req), why));
	/* Terminated, but not a name of the config; bytes shown safely. */
	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_READER, "linux", "\x1b[2Jx\n", 0);
	EXPECT_EQ(-ENOENT, refused(self->fd, &req, sizeof(req), why));
	EXPECT_STREQ("no channel \"?[2Jx?\"", why);
	ASSERT_EQ(0, serves(&self->t));
}

TEST_F(hostile, slot_numbers_out_of_range)
{
	static const uint32_t slots[] = { 3, 32, 1000, 0x7fffffff, 0xfffffffe };
	char why[CHAN_KEEP_WHY_MAX];
	struct chan_keep_req req;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(slots); i++) {
		kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_READER, "linux", "log", slots[i]);
		EXPECT_EQ(-ERANGE, refused(self->fd, &req, sizeof(req), why));
		EXPECT_STREQ("cell \"linux\" has 3 reader slots of \"log\"", why);
	}
	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_READER, "rt", "commands", 1);
	EXPECT_EQ(-ERANGE, refused(self->fd, &req, sizeof(req), why));
	EXPECT_STREQ("cell \"rt\" has 1 reader slot of \"commands\"", why);
	kt_req(&req, CHAN_KEEP_OPEN, CHAN_KEEP_WRITER, "rt", "log", 7);
	EXPECT_EQ(-ERANGE, refused(self->fd, &req, sizeof(req), why));
	EXPECT_STREQ("slot 7: a channel has one writer, slot 0", why);
	ASSERT_EQ(0, serves(&self->t));
}

static unsigned int open_fds(pid_t pid)
{
	char path[64];
	unsigned int n = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

TEST_F(hostile, descriptors_sent_to_the_keeper_are_closed)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * 8)];
	} ctl;
	struct chan_keep_req req;
	struct iovec iov = { .iov_base = &req, .iov_len = sizeof(req) };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct chan_keep_reply rep;
	unsigned int before, i;
	struct cmsghdr *c;
	int fds[8];

	ASSERT_EQ(0, kt_sync(&self->t));
	before = open_fds(self->t.pid);
	ASSERT_LT(0, before);
	for (i = 0; i < 8; i++)
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	kt_req(&req, CHAN_KEEP_STAT, 0, "", "", 0);
	ASSERT_EQ(sizeof(req), sendmsg(self->fd, &m, 0));
	ASSERT_EQ(sizeof(rep), recv(self->fd, &rep, sizeof(rep), 0));
	EXPECT_EQ(-EINVAL, rep.err);
	EXPECT_STREQ("8 descriptors sent to the keeper: it takes none", rep.why);
	kt_close_fds(fds, 8);
	/* Another test's connection may close meanwhile: never more. */
	EXPECT_GE(before, open_fds(self->t.pid));
	ASSERT_EQ(0, serves(&self->t));
}

TEST_F(hostile, silent_client_does_not_stop_others)
{
	int silent = kt_connect(self->t.sock);

	ASSERT_LE(0, silent);
	/* It holds its connection open and says nothing, throughout. */
	ASSERT_EQ(0, serves(&self->t));
	ASSERT_EQ(0, serves(&self->t));
	close(silent);
	ASSERT_EQ(0, serves(&self->t));
}

TEST_F(hostile, client_gone_before_its_reply)
{
	struct chan_keep_req req;
	struct cg_chan *c;
	char why[CHAN_KEEP_WHY_MAX];
	int i, fd;

	for (i = 0; i < 20; i++) {
		fd = kt_connect(self->t.sock);
		ASSERT_LE(0, fd);
		kt_req(&req, i % 2 ? CHAN_KEEP_STAT : CHAN_KEEP_OPEN,
		       i % 2 ? 0 : CHAN_KEEP_WRITER, i % 2 ? "" : "rt",
		       i % 2 ? "" : "log", 0);
		ASSERT_EQ(sizeof(req), send(fd, &req, sizeof(req), 0));
		close(fd);
	}
	ASSERT_EQ(0, kt_sync(&self->t));
	/* The writer slot those opened went back with their connections. */
	ASSERT_EQ(0, cg_chan_open(self->t.sock, "rt", "log", CHAN_KEEP_WRITER, 0, 1, &c,
				  why, sizeof(why))) TH_LOG("%s", why);
	cg_chan_close(c);
	ASSERT_EQ(0, serves(&self->t));
}

TEST_F(hostile, client_that_never_reads_its_replies)
{
	struct chan_keep_req req;
	int fd = kt_connect(self->t.sock), sent = 0;

	ASSERT_LE(0, fd);
	kt_req(&req, CHAN_KEEP_STAT, 0, "", "", 0);
	/* Requests until its own socket is full: the keeper's replies pile up. */
	while (sent < 100000 && send(fd, &req, sizeof(req), MSG_DONTWAIT) == sizeof(req))
		sent++;
	ASSERT_LT(0, sent);
	ASSERT_EQ(0, serves(&self->t));
	close(fd);
	ASSERT_EQ(0, serves(&self->t));
}

TEST_F(hostile, more_connections_than_served)
{
	int fds[KEEP_MAX_CONNS + 8];
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(fds); i++) {
		fds[i] = kt_connect(self->t.sock);
		if (fds[i] >= 0)
			n++;
	}
	ASSERT_LT(KEEP_MAX_CONNS - 2, n);
	ASSERT_EQ(0, kt_alive(&self->t) ? 0 : -1);
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	/* The keeper saw them all go before it answers this. */
	ASSERT_EQ(0, serves(&self->t));
}

TEST_HARNESS_MAIN
