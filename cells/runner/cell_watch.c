// SPDX-License-Identifier: GPL-2.0
/* The cell's partition watched for the kernel's POLLPRI (cell_watch.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "cell_host.h"
#include "cell_vm.h"
#include "cell_watch.h"
#include "cell_why.h"

struct cell_watch {
	struct cell_host *host;
	struct cell_vm *vm;
	int fd;			/* cpuset.cpus.partition */
	int uevents;		/* the kernel's uevents (CPU offline), or -1 */
	int quit[2];		/* a pipe: its write end ends the thread */
	pthread_t thread;
};

/*
 * The kernel's uevent broadcast, where a CPU going offline is announced:
 * a CPU of a cell of several can go with the partition still valid. -1
 * (no socket) leaves the partition's own POLLPRI.
 */
static int uevents_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			NETLINK_KOBJECT_UEVENT);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void *watch(void *arg)
{
	struct cell_watch *w = arg;
	char buf[256], why[256];

	for (;;) {
		struct pollfd p[3] = {
			{ .fd = w->quit[0], .events = POLLIN },
			{ .fd = w->fd, .events = POLLPRI },
			{ .fd = w->uevents, .events = POLLIN },
		};

		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents)
			break;
		/* Read through this fd: kernfs raises POLLPRI until it is. */
		if (p[1].revents && (lseek(w->fd, 0, SEEK_SET) < 0 ||
				     read(w->fd, buf, sizeof(buf)) < 0))
			break;
		/* Any uevent: only the check says whether it was ours. */
		while (p[2].revents &&
		       recv(w->uevents, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			;
		if (cell_host_partition_check(w->host, why, sizeof(why)) == -ENXIO)
			cell_vm_fail(w->vm, why);
	}
	return NULL;
}

int cell_watch_start(struct cell_host *h, struct cell_vm *vm,
		     struct cell_watch **out, char *why, size_t why_len)
{
	struct cell_watch *w = calloc(1, sizeof(*w));
	char buf[256];
	int ret;

	*out = NULL;
	if (!w) {
		cell_why(why, why_len, "out of memory");
		return -ENOMEM;
	}
	w->host = h;
	w->vm = vm;
	w->quit[0] = -1;
	w->quit[1] = -1;
	w->uevents = uevents_open();
	w->fd = cell_host_partition_open(h);
	ret = w->fd < 0 ? w->fd : 0;
	/* Read once: poll() then waits for the next change. */
	if (!ret && read(w->fd, buf, sizeof(buf)) < 0)
		ret = -errno;
	if (!ret && pipe2(w->quit, O_CLOEXEC))
		ret = -errno;
	if (!ret)
		ret = -pthread_create(&w->thread, NULL, watch, w);
	if (ret) {
		cell_why(why, why_len, "watching the cell's partition: %s",
			 strerror(-ret));
		if (w->fd >= 0)
			close(w->fd);
		if (w->uevents >= 0)
			close(w->uevents);
		if (w->quit[0] >= 0) {
			close(w->quit[0]);
			close(w->quit[1]);
		}
		free(w);
		return ret;
	}
	*out = w;
	return 0;
}

void cell_watch_stop(struct cell_watch *w)
{
	if (!w)
		return;
	if (write(w->quit[1], "q", 1) != 1)
		pthread_cancel(w->thread);
	pthread_join(w->thread, NULL);
	close(w->quit[0]);
	close(w->quit[1]);
	close(w->fd);
	if (w->uevents >= 0)
		close(w->uevents);
	free(w);
}
