// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the readiness message to a service manager
 * (cells/runner/unit_notify.c): a datagram socket stands in for systemd's
 * at a path and at an abstract name; no $NOTIFY_SOCKET sends nothing; a
 * name systemd would never give is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "unit_notify.h"
#include "kselftest_harness.h"

FIXTURE(manager) {
	int fd;
	char path[108];
};

FIXTURE_SETUP(manager)
{
	self->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, self->fd);
	snprintf(self->path, sizeof(self->path), "/tmp/cg-notify-%d",
		 (int)getpid());
	unlink(self->path);
}

FIXTURE_TEARDOWN(manager)
{
	close(self->fd);
	unlink(self->path);
	unsetenv("NOTIFY_SOCKET");
}

/* What the manager received, NUL-terminated; "" if nothing is waiting. */
static void received(int fd, char *buf, size_t len)
{
	ssize_t n = recv(fd, buf, len - 1, MSG_DONTWAIT);

	buf[n > 0 ? n : 0] = '\0';
}

TEST_F(manager, ready_reaches_a_socket_at_a_path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char buf[128];

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", self->path);
	ASSERT_EQ(0, bind(self->fd, (struct sockaddr *)&a, sizeof(a)));
	setenv("NOTIFY_SOCKET", self->path, 1);
	EXPECT_EQ(1, unit_notify("READY=1\nSTATUS=created"));
	received(self->fd, buf, sizeof(buf));
	EXPECT_STREQ("READY=1\nSTATUS=created", buf);
}

TEST_F(manager, ready_reaches_an_abstract_socket)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char name[64], buf[128];
	socklen_t len;

	snprintf(name, sizeof(name), "@cg-notify-%d", (int)getpid());
	memcpy(a.sun_path, name, strlen(name));
	a.sun_path[0] = '\0';
	len = offsetof(struct sockaddr_un, sun_path) + strlen(name);
	ASSERT_EQ(0, bind(self->fd, (struct sockaddr *)&a, len));
	setenv("NOTIFY_SOCKET", name, 1);
	EXPECT_EQ(1, unit_notify("READY=1"));
	received(self->fd, buf, sizeof(buf));
	EXPECT_STREQ("READY=1", buf);
}

TEST_F(manager, no_manager_no_message)
{
	unsetenv("NOTIFY_SOCKET");
	EXPECT_EQ(0, unit_notify("READY=1"));
	setenv("NOTIFY_SOCKET", "", 1);
	EXPECT_EQ(0, unit_notify("READY=1"));
}

TEST_F(manager, names_systemd_never_gives_are_refused)
{
	char longname[200];

	setenv("NOTIFY_SOCKET", "relative/sock", 1);
	EXPECT_EQ(-EINVAL, unit_notify("READY=1"));
	memset(longname, 'x', sizeof(longname) - 1);
	longname[0] = '/';
	longname[sizeof(longname) - 1] = '\0';
	setenv("NOTIFY_SOCKET", longname, 1);
	EXPECT_EQ(-EINVAL, unit_notify("READY=1"));
}

TEST_F(manager, a_manager_gone_is_an_error)
{
	setenv("NOTIFY_SOCKET", self->path, 1);
	EXPECT_EQ(-ENOENT, unit_notify("READY=1"));
}

TEST_HARNESS_MAIN
