// SPDX-License-Identifier: GPL-2.0
/*
 * mglock [-u UID [-g GID] [-n GID]] OP...: drive /dev/memguard's bandwidth
 * lock from shell tests. The OPs run in order on one file and each prints
 * one word (flushed at once): "ok", the errno's name, or what it read.
 *   open            open /dev/memguard
 *   acq:KIND:VALUE  MEMGUARD_BWLOCK_ACQUIRE; KIND p (per mille), m (MB/s)
 *                   or a number; acq:KIND:VALUE:FLAGS sets flags
 *   rel             MEMGUARD_BWLOCK_RELEASE
 *   get             MEMGUARD_BWLOCK_GET: holders,depth,permille,mbps
 *   badacq, badget  the two with an address that cannot be accessed
 *   cmd:NUMBER      an ioctl request number (unknown ones)
 *   mark:TEXT       TEXT to the trace marker
 *   sleep:SECONDS   sleep
 *   wait            sleep until killed
 *   close           close the file
 * -u UID: first become UID (group UID, supplementary group -g GID if
 * given); -n GID then also enters a new user namespace in which GID is
 * the caller's own group, before open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <colorguard/memguard.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define DEV	"/dev/memguard"

static const struct {
	int err;
	const char *name;
} names[] = {
	{ EINVAL, "EINVAL" }, { ERANGE, "ERANGE" }, { EPERM, "EPERM" },
	{ EACCES, "EACCES" }, { EBUSY, "EBUSY" }, { EFAULT, "EFAULT" },
	{ ENOTTY, "ENOTTY" }, { ENOENT, "ENOENT" }, { EBADF, "EBADF" },
	{ ENOMEM, "ENOMEM" },
};

static void say(const char *word)
{
	printf("%s ", word);
	fflush(stdout);
}

static void say_errno(int err)
{
	char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (names[i].err == err) {
			say(names[i].name);
			return;
		}
	}
	snprintf(buf, sizeof(buf), "E%d", err);
	say(buf);
}

static void result(int ret)
{
	if (ret < 0)
		say_errno(errno);
	else
		say("ok");
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int become(long uid, long gid, long ns_gid)
{
	gid_t g = (gid_t)gid;
	char map[64];

	if (setgroups(gid >= 0 ? 1 : 0, &g) || setgid((gid_t)uid) ||
	    setuid((uid_t)uid))
		return -1;
	if (ns_gid < 0)
		return 0;
	/* setuid() made us undumpable: /proc/self/ would stay root's. */
	if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER) ||
	    write_file("/proc/self/setgroups", "deny"))
		return -1;
	snprintf(map, sizeof(map), "%ld %ld 1", ns_gid, uid);
	if (write_file("/proc/self/gid_map", map) || (long)getgid() != ns_gid)
		return -1;
	return 0;
}

static void op_acquire(int fd, const char *spec)
{
	struct memguard_bwlock req = { 0 };
	char kind[16] = "";
	unsigned long long value = 0;
	unsigned int flags = 0;

	if (sscanf(spec, "%15[^:]:%llu:%u", kind, &value, &flags) < 2) {
		say("usage");
		return;
	}
	if (!strcmp(kind, "p"))
		req.kind = MEMGUARD_BWLOCK_PERMILLE;
	else if (!strcmp(kind, "m"))
		req.kind = MEMGUARD_BWLOCK_MBPS;
	else
		req.kind = (uint32_t)strtoul(kind, NULL, 0);
	req.value = value;
	req.flags = flags;
	result(ioctl(fd, MEMGUARD_BWLOCK_ACQUIRE, &req));
}

static void op_get(int fd)
{
	struct memguard_bwlock_info info;
	char buf[128];

	memset(&info, 0xff, sizeof(info));
	if (ioctl(fd, MEMGUARD_BWLOCK_GET, &info) < 0) {
		say_errno(errno);
		return;
	}
	snprintf(buf, sizeof(buf), "%u,%u,%u,%llu", info.holders, info.depth,
		 info.level_permille, (unsigned long long)info.level_mbps);
	say(buf);
}

int main(int argc, char **argv)
{
	long uid = -1, gid = -1, ns_gid = -1;
	int fd = -1, opt, i;

	while ((opt = getopt(argc, argv, "u:g:n:")) != -1) {
		switch (opt) {
		case 'u':
			uid = strtol(optarg, NULL, 10);
			break;
		case 'g':
			gid = strtol(optarg, NULL, 10);
			break;
		case 'n':
			ns_gid = strtol(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: mglock [-u UID [-g GID] [-n GID]] OP...\n");
			return 2;
		}
	}
	if (uid >= 0 && become(uid, gid, ns_gid)) {
		perror("mglock: changing credentials");
		return 2;
	}
	for (i = optind; i < argc; i++) {
		const char *op = argv[i];

		if (!strcmp(op, "open")) {
			fd = open(DEV, O_RDWR | O_CLOEXEC);
			result(fd);
		} else if (!strncmp(op, "acq:", 4)) {
			op_acquire(fd, op + 4);
		} else if (!strcmp(op, "rel")) {
			result(ioctl(fd, MEMGUARD_BWLOCK_RELEASE));
		} else if (!strcmp(op, "get")) {
			op_get(fd);
		} else if (!strcmp(op, "badacq")) {
			result(ioctl(fd, MEMGUARD_BWLOCK_ACQUIRE, (void *)8));
		} else if (!strcmp(op, "badget")) {
			result(ioctl(fd, MEMGUARD_BWLOCK_GET, (void *)8));
		} else if (!strncmp(op, "cmd:", 4)) {
			result(ioctl(fd, strtoul(op + 4, NULL, 0), 0));
		} else if (!strncmp(op, "mark:", 5)) {
			result(write_file("/sys/kernel/tracing/trace_marker", op + 5) &&
			       write_file("/sys/kernel/debug/tracing/trace_marker", op + 5) ?
			       -1 : 0);
		} else if (!strncmp(op, "sleep:", 6)) {
			double s = atof(op + 6);
			struct timespec ts = { (time_t)s,
					       (long)((s - (time_t)s) * 1e9) };

			nanosleep(&ts, NULL);
			say("ok");
		} else if (!strcmp(op, "wait")) {
			say("waiting");
			for (;;)
				pause();
		} else if (!strcmp(op, "close")) {
			result(close(fd));
			fd = -1;
		} else {
			say("usage");
		}
	}
	printf("\n");
	return 0;
}
