// SPDX-License-Identifier: GPL-2.0
/* Readiness to the service manager (unit_notify.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "unit_notify.h"

int unit_notify(const char *state)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	const char *path = getenv("NOTIFY_SOCKET");
	size_t plen, slen = strlen(state);
	socklen_t alen;
	ssize_t n;
	int fd, ret = 1;

	if (!path || !path[0])
		return 0;
	plen = strlen(path);
	/* A path or, after '@', an abstract name: no room for either is an error. */
	if ((path[0] != '/' && path[0] != '@') || plen >= sizeof(a.sun_path))
		return -EINVAL;
	memcpy(a.sun_path, path, plen);
	if (path[0] == '@')
		a.sun_path[0] = '\0';
	alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen +
			   (path[0] == '/'));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = sendto(fd, state, slen, MSG_NOSIGNAL, (struct sockaddr *)&a, alen);
	if (n != (ssize_t)slen)
		ret = n < 0 ? -errno : -EIO;
	close(fd);
	return ret;
}
