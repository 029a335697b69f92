// SPDX-License-Identifier: GPL-2.0
/*
 * mglock [-u UID [-g GID] [-n GID]] OP...: drive /dev/memguard's bandwidth
 * lock from shell tests. The OPs run in order on one file and each prints
 * one word (flushed at once): "ok", the errno's name, or what it read.
 *   open            open /dev/memguard
 *   acq:KIND:VALUE  MEMGUARD_BWLOCK_ACQUIRE; KIND p (per mille), m (MB/s)
 *                   or a number; acq:KIND:VALUE:FLAGS sets flags
 *   chg:KIND:VALUE  MEMGUARD_BWLOCK_SET_LEVEL, the same arguments
 *   rel             MEMGUARD_BWLOCK_RELEASE
 *   get             MEMGUARD_BWLOCK_GET: holders,depth,permille,mbps, and
 *                   ",expired" if MEMGUARD_BWLOCK_INFO_EXPIRED is set
 *   acq0:..., rel0, get0  the same with colorguard 0.1.0's numbers
 *   badacq, badget, badchg  with an address that cannot be accessed
 *   flip:A:B:SECONDS    SET_LEVEL to A, B, A, ... per mille for SECONDS:
 *                   the number of changes, or the first error
 *   reflip:A:B:SECONDS  the same by RELEASE then ACQUIRE (the way before
 *                   SET_LEVEL, which leaves the lock free in between)
 *   cpu:N           run on CPU N only
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
#include <stdbool.h>
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
	{ ENOMEM, "ENOMEM" }, { ETIMEDOUT, "ETIMEDOUT" },
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

static void op_level(int fd, unsigned long cmd, const char *spec)
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
	result(ioctl(fd, cmd, &req));
}

static void op_get(int fd, unsigned long cmd)
{
	struct memguard_bwlock_info info;
	char buf[128];

	memset(&info, 0xff, sizeof(info));
	if (ioctl(fd, cmd, &info) < 0) {
		say_errno(errno);
		return;
	}
	snprintf(buf, sizeof(buf), "%u,%u,%u,%llu%s", info.holders, info.depth,
		 info.level_permille, (unsigned long long)info.level_mbps,
		 info.flags & MEMGUARD_BWLOCK_INFO_EXPIRED ? ",expired" : "");
	say(buf);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Level changes between two per mille levels for a time, by SET_LEVEL or
 * (@reacquire) by RELEASE then ACQUIRE; the file holds one acquisition.
 */
static void op_flip(int fd, const char *spec, bool reacquire)
{
	struct memguard_bwlock req = { .kind = MEMGUARD_BWLOCK_PERMILLE };
	unsigned long long a, b, n = 0;
	double secs, end;
	char buf[32];

	if (sscanf(spec, "%llu:%llu:%lf", &a, &b, &secs) != 3) {
		say("usage");
		return;
	}
	end = now_s() + secs;
	while (now_s() < end) {
		req.value = n & 1 ? a : b;
		if (reacquire && ioctl(fd, MEMGUARD_BWLOCK_RELEASE) < 0) {
			say_errno(errno);
			return;
		}
		if (ioctl(fd, reacquire ? MEMGUARD_BWLOCK_ACQUIRE :
			  MEMGUARD_BWLOCK_SET_LEVEL, &req) < 0) {
			say_errno(errno);
			return;
		}
		n++;
	}
	snprintf(buf, sizeof(buf), "%llu", n);
	say(buf);
}

static void op_cpu(const char *cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(atoi(cpu), &set);
	result(sched_setaffinity(0, sizeof(set), &set));
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
			op_level(fd, MEMGUARD_BWLOCK_ACQUIRE, op + 4);
		} else if (!strncmp(op, "acq0:", 5)) {
			op_level(fd, MEMGUARD_BWLOCK_ACQUIRE_V0, op + 5);
		} else if (!strncmp(op, "chg:", 4)) {
			op_level(fd, MEMGUARD_BWLOCK_SET_LEVEL, op + 4);
		} else if (!strcmp(op, "rel")) {
			result(ioctl(fd, MEMGUARD_BWLOCK_RELEASE));
		} else if (!strcmp(op, "rel0")) {
			result(ioctl(fd, MEMGUARD_BWLOCK_RELEASE_V0));
		} else if (!strcmp(op, "get")) {
			op_get(fd, MEMGUARD_BWLOCK_GET);
		} else if (!strcmp(op, "get0")) {
			op_get(fd, MEMGUARD_BWLOCK_GET_V0);
		} else if (!strncmp(op, "flip:", 5)) {
			op_flip(fd, op + 5, false);
		} else if (!strncmp(op, "reflip:", 7)) {
			op_flip(fd, op + 7, true);
		} else if (!strncmp(op, "cpu:", 4)) {
			op_cpu(op + 4);
		} else if (!strcmp(op, "badacq")) {
			result(ioctl(fd, MEMGUARD_BWLOCK_ACQUIRE, (void *)8));
		} else if (!strcmp(op, "badchg")) {
			result(ioctl(fd, MEMGUARD_BWLOCK_SET_LEVEL, (void *)8));
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
