// SPDX-License-Identifier: GPL-2.0
/*
 * Shared colored objects (MM_COLOR_OBJ_CREATE, MM_COLOR_OBJ_READONLY):
 * - every frame has a color of the mask (pagemap), zeroed, all taken at
 *   creation (used_pages, committed_pages, free/<c>) and back in the
 *   pool once the last fd and the last mapping are gone;
 * - a forked child and a process that got the fd over a unix socket
 *   (SCM_RIGHTS) map the same frames and see each other's writes;
 * - the read-only fd's mappings cannot be written: mmap(PROT_WRITE,
 *   MAP_SHARED) and mprotect(PROT_WRITE) fail with EACCES, a store
 *   faults, /proc/PID/mem and a reopen through /proc/self/fd give no
 *   write access; the writer's stores show through the reader's mapping;
 * - a frame that a pipe holds (vmsplice) when the object goes is parked
 *   and comes back to the pool once the pipe is drained;
 * - bad requests fail with the documented errno and change nothing;
 * - an object fd or mapping keeps the module loaded.
 * Needs a loaded module with a geometry of at least 4 colors, all of them
 * root's, and a pool of at least 1 MB per color and below 1 GiB (vm-run's
 * 16 colors and 64 MB).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

/* TCG on arm64 runs these about ten times slower than x86. */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300
#include "mmc_util.h"

#include <colorguard/limits.h>

#define MAX_COLORS	MM_COLOR_MAX_COLORS
#define OBJ_SIZE	(4UL << 20)

/* What an object may change in mm-color's state. */
struct state {
	unsigned long used, committed, failed;
	unsigned long free[MAX_COLORS];
};

static void state_read(struct state *s)
{
	s->used = mmc_read_ul("used_pages");
	s->committed = mmc_read_ul("committed_pages");
	s->failed = mmc_read_ul("failed_faults");
	mmc_free_counts(s->free, mmc_nr_colors());
}

static int state_equal(const struct state *a, const struct state *b)
{
	return a->used == b->used && a->committed == b->committed &&
	       a->failed == b->failed &&
	       mmc_counts_equal(a->free, b->free, mmc_nr_colors());
}

/* The upper half of the colors: the test's mask, as a list and a mask. */
static void test_mask(char *list, size_t size, struct hvc_mask *m)
{
	unsigned int nr = mmc_nr_colors();

	snprintf(list, size, "%u-%u", nr / 2, nr - 1);
	hvc_mask_zero(m);
	for (unsigned int c = nr / 2; c < nr; c++)
		hvc_mask_set(m, c);
}

static int obj_create(int devfd, uint64_t size)
{
	struct mm_color_obj_create req = { .size = size };

	return ioctl(devfd, MM_COLOR_OBJ_CREATE, &req);
}

/* A new object of OBJ_SIZE bytes of @list's colors: its fd, or -1. */
static int obj_of_list(const char *list)
{
	int dev = mmc_open_list(list), fd;

	if (dev < 0)
		return -1;
	fd = obj_create(dev, OBJ_SIZE);
	close(dev);
	return fd;
}

static int obj_readonly(int objfd)
{
	struct mm_color_obj_readonly req = { 0 };

	return ioctl(objfd, MM_COLOR_OBJ_READONLY, &req);
}

static unsigned int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Pages of [p, p + len) that are not all zero. */
static unsigned long nonzero_pages(const char *p, size_t len)
{
	unsigned long bad = 0;

	for (size_t off = 0; off < len; off += PAGE)
		for (size_t i = 0; i < PAGE; i += sizeof(uint64_t))
			if (*(const uint64_t *)(p + off + i)) {
				bad++;
				break;
			}
	return bad;
}

/* The frame behind @addr, read first so that it is mapped. */
static uint64_t pfn_of(const void *addr)
{
	int pm = open("/proc/self/pagemap", O_RDONLY);
	uint64_t pfn;

	(void)*(const volatile char *)addr;
	if (pm < 0)
		return 0;
	pfn = mmc_pfn(pm, addr);
	close(pm);
	return pfn;
}

TEST(colors_zeroed_and_returned)
{
	struct state before, made, after;
	struct hvc_geometry geo;
	struct hvc_mask m;
	char list[64];
	int dev, fd, fl;
	char *p;

	ASSERT_EQ(0, mmc_geometry(&geo));
	test_mask(list, sizeof(list), &m);
	state_read(&before);
	dev = mmc_open_list(list);
	ASSERT_LE(0, dev);
	fd = obj_create(dev, OBJ_SIZE);
	ASSERT_LE(0, fd) TH_LOG("create: %s", strerror(errno));
	/* O_RDWR, O_CLOEXEC; every frame taken at once. */
	fl = fcntl(fd, F_GETFL);
	EXPECT_EQ(O_RDWR, fl & O_ACCMODE);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	state_read(&made);
	EXPECT_EQ(before.used + OBJ_SIZE / PAGE, made.used);
	EXPECT_EQ(before.committed + OBJ_SIZE / PAGE, made.committed);
	{
		unsigned long taken = 0;

		for (unsigned int c = 0; c < mmc_nr_colors(); c++) {
			if (!hvc_mask_test(&m, c))
				EXPECT_EQ(before.free[c], made.free[c]) TH_LOG("color %u", c);
			taken += before.free[c] - made.free[c];
		}
		EXPECT_EQ(OBJ_SIZE / PAGE, taken);
	}
	close(dev);
	p = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, nonzero_pages(p, OBJ_SIZE));
	mmc_fill(p, OBJ_SIZE, 1);
	EXPECT_EQ(0, mmc_bad_pages(&geo, &m, p, OBJ_SIZE));
	/* Mapping again (and at an offset) gives the same frames. */
	{
		char *q = mmap(NULL, OBJ_SIZE / 2, PROT_READ, MAP_SHARED, fd,
			       OBJ_SIZE / 2);

		ASSERT_NE(MAP_FAILED, q);
		EXPECT_EQ(pfn_of(p + OBJ_SIZE / 2), pfn_of(q));
		EXPECT_EQ(0, mmc_check_range(q - OBJ_SIZE / 2, OBJ_SIZE / 2,
					     OBJ_SIZE, 1));
		munmap(q, OBJ_SIZE / 2);
	}
	/* MADV_DONTNEED drops the PTEs only: the object keeps its data. */
	EXPECT_EQ(0, madvise(p, OBJ_SIZE, MADV_DONTNEED));
	EXPECT_EQ(0, mmc_check(p, OBJ_SIZE, 1));
	/* The mapping outlives the fd; the frames outlive neither. */
	close(fd);
	state_read(&after);
	EXPECT_EQ(made.used, after.used);
	EXPECT_EQ(0, mmc_check(p, OBJ_SIZE, 1));
	ASSERT_EQ(0, munmap(p, OBJ_SIZE));
	state_read(&after);
	EXPECT_TRUE(state_equal(&before, &after))
		TH_LOG("used %lu -> %lu, committed %lu -> %lu", before.used,
		       after.used, before.committed, after.committed);
	/* Closed without a mapping: back at once too. */
	dev = mmc_open_list(list);
	ASSERT_LE(0, dev);
	fd = obj_create(dev, OBJ_SIZE);
	ASSERT_LE(0, fd);
	close(fd);
	close(dev);
	state_read(&after);
	EXPECT_TRUE(state_equal(&before, &after));
}

TEST(fork_shares_frames)
{
	struct state before, after;
	struct hvc_mask m;
	int fd, status, go[2];
	char list[64], c;
	pid_t pid;
	char *p;

	test_mask(list, sizeof(list), &m);
	state_read(&before);
	fd = obj_of_list(list);
	ASSERT_LE(0, fd);
	p = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* The inherited mapping and a new one of the inherited fd. */
		char *q = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE,
			       MAP_SHARED, fd, 0);
		int bad = 0;

		if (q == MAP_FAILED)
			_exit(10);
		if (read(go[0], &c, 1) != 1)
			_exit(11);
		/* The parent's first half, through both. */
		bad |= mmc_check_range(p, 0, OBJ_SIZE / 2, 2) ? 1 : 0;
		bad |= mmc_check_range(q, 0, OBJ_SIZE / 2, 2) ? 2 : 0;
		mmc_fill(q + OBJ_SIZE / 2, OBJ_SIZE / 2, 3);
		_exit(bad);
	}
	mmc_fill(p, OBJ_SIZE / 2, 2);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("child: %d", WEXITSTATUS(status));
	/* The child's second half, seeded from offset 0 of its range. */
	EXPECT_EQ(0, mmc_check(p + OBJ_SIZE / 2, OBJ_SIZE / 2, 3));
	close(fd);
	ASSERT_EQ(0, munmap(p, OBJ_SIZE));
	state_read(&after);
	EXPECT_TRUE(state_equal(&before, &after));
	close(go[0]);
	close(go[1]);
}

static int send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = "f", .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, b;
	struct iovec iov = { .iov_base = &b, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * A process forked before the object exists gets the fd (writer's, then
 * a read-only one) over a unix socket, and maps the same frames.
 */
TEST(scm_rights)
{
	struct state before, after;
	int sv[2], fd, ro, status;
	struct hvc_mask m;
	char list[64], c;
	pid_t pid;
	char *p;

	test_mask(list, sizeof(list), &m);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int wfd = recv_fd(sv[1]), rfd, bad = 0;
		char *w, *r;

		if (wfd < 0)
			_exit(10);
		w = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, wfd, 0);
		if (w == MAP_FAILED)
			_exit(11);
		bad |= mmc_check(w, OBJ_SIZE / 2, 4) ? 1 : 0;
		mmc_fill(w + OBJ_SIZE / 2, OBJ_SIZE / 2, 5);
		rfd = recv_fd(sv[1]);
		if (rfd < 0)
			_exit(12);
		r = mmap(NULL, OBJ_SIZE, PROT_READ, MAP_SHARED, rfd, 0);
		if (r == MAP_FAILED)
			_exit(13);
		bad |= mmc_check(r + OBJ_SIZE / 2, OBJ_SIZE / 2, 5) ? 2 : 0;
		bad |= pfn_of(r) != pfn_of(w) ? 4 : 0;
		c = bad;
		if (write(sv[1], &c, 1) != 1)
			_exit(14);
		/* Wait for the parent's last write, seen through r. */
		if (read(sv[1], &c, 1) != 1)
			_exit(15);
		bad |= mmc_check(r, OBJ_SIZE / 2, 6) ? 8 : 0;
		_exit(bad);
	}
	state_read(&before);
	fd = obj_of_list(list);
	ASSERT_LE(0, fd);
	p = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, OBJ_SIZE / 2, 4);
	ASSERT_EQ(0, send_fd(sv[0], fd));
	ro = obj_readonly(fd);
	ASSERT_LE(0, ro);
	ASSERT_EQ(0, send_fd(sv[0], ro));
	close(ro);
	close(fd);
	ASSERT_EQ(1, read(sv[0], &c, 1));
	EXPECT_EQ(0, c);
	EXPECT_EQ(0, mmc_check(p + OBJ_SIZE / 2, OBJ_SIZE / 2, 5));
	mmc_fill(p, OBJ_SIZE / 2, 6);
	ASSERT_EQ(1, write(sv[0], "d", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("child: %d", WEXITSTATUS(status));
	ASSERT_EQ(0, munmap(p, OBJ_SIZE));
	state_read(&after);
	EXPECT_TRUE(state_equal(&before, &after));
	close(sv[0]);
	close(sv[1]);
}

/* A store to @p in a child: its signal, 0 if it went through. */
static int store_signal(volatile char *p)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		*p = 1;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

/* The isolation property: a reader cannot write the writer's object. */
TEST(readonly_fd)
{
	struct state before, after;
	struct hvc_mask m;
	char list[64], path[64];
	int fd, ro, ro2, memfd, fl;
	char *w, *r, *x;

	test_mask(list, sizeof(list), &m);
	state_read(&before);
	fd = obj_of_list(list);
	ASSERT_LE(0, fd);
	ro = obj_readonly(fd);
	ASSERT_LE(0, ro);
	fl = fcntl(ro, F_GETFL);
	EXPECT_EQ(O_RDONLY, fl & O_ACCMODE);
	EXPECT_EQ(FD_CLOEXEC, fcntl(ro, F_GETFD) & FD_CLOEXEC);
	w = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, w);

	/* No writable shared mapping of the reader's fd, now or later. */
	x = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EACCES, errno);
	r = mmap(NULL, OBJ_SIZE, PROT_READ, MAP_SHARED, ro, 0);
	ASSERT_NE(MAP_FAILED, r);
	EXPECT_EQ(-1, mprotect(r, OBJ_SIZE, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, mprotect(r, PAGE, PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	/* Nor a private one, writable or not (no copies outside the colors). */
	x = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EINVAL, errno);
	x = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, ro, 0);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EINVAL, errno);

	/* The writer's stores show through the reader's mapping. */
	mmc_fill(w, OBJ_SIZE, 7);
	EXPECT_EQ(0, mmc_check(r, OBJ_SIZE, 7));
	EXPECT_EQ(pfn_of(w), pfn_of(r));
	EXPECT_EQ(pfn_of(w + OBJ_SIZE - PAGE), pfn_of(r + OBJ_SIZE - PAGE));
	/* A store through the reader's mapping faults and changes nothing. */
	EXPECT_EQ(SIGSEGV, store_signal(r));
	/* Nor does the forced access of /proc/PID/mem write it. */
	memfd = open("/proc/self/mem", O_RDWR);
	ASSERT_LE(0, memfd);
	EXPECT_EQ(-1, pwrite(memfd, "x", 1, (uintptr_t)r));
	close(memfd);
	EXPECT_EQ(0, mmc_check(r, OBJ_SIZE, 7));

	/* A read-only fd's read-only fd is read-only. */
	ro2 = obj_readonly(ro);
	ASSERT_LE(0, ro2);
	EXPECT_EQ(O_RDONLY, fcntl(ro2, F_GETFL) & O_ACCMODE);
	x = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ro2, 0);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EACCES, errno);
	close(ro2);
	/* Reopening through /proc gives no writable mapping of the object. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", ro);
	ro2 = open(path, O_RDWR);
	if (ro2 >= 0) {
		x = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ro2, 0);
		EXPECT_EQ(MAP_FAILED, x) TH_LOG("reopened read-only fd maps writable");
		if (x != MAP_FAILED)
			munmap(x, PAGE);
		close(ro2);
	}

	close(ro);
	close(fd);
	/* The reader's mapping alone keeps the object. */
	ASSERT_EQ(0, munmap(w, OBJ_SIZE));
	EXPECT_EQ(0, mmc_check(r, OBJ_SIZE, 7));
	state_read(&after);
	EXPECT_EQ(before.used + OBJ_SIZE / PAGE, after.used);
	ASSERT_EQ(0, munmap(r, OBJ_SIZE));
	state_read(&after);
	EXPECT_TRUE(state_equal(&before, &after));
}

/* As holders.c: 6.5+ GUP-fast refuses these pages (CONFIG_SECRETMEM). */
static int gup_refused(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major > 6 || (major == 6 && minor >= 5);
}

/* A page of the object in a pipe outlives the object, parked. */
TEST(vmsplice_parks)
{
	struct state before, after;
	struct hvc_mask m;
	struct iovec iov;
	int dev, fd, pfd[2], i;
	char list[64], *p, *data;

	test_mask(list, sizeof(list), &m);
	state_read(&before);
	ASSERT_EQ(0, mmc_read_ul("parked_pages"));
	dev = mmc_open_list(list);
	ASSERT_LE(0, dev);
	fd = obj_create(dev, 2 * PAGE);
	ASSERT_LE(0, fd);
	close(dev);
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, 2 * PAGE, 9);
	ASSERT_EQ(0, pipe(pfd));
	iov.iov_base = p;
	iov.iov_len = PAGE;
	if (vmsplice(pfd[1], &iov, 1, 0) != PAGE) {
		EXPECT_EQ(EFAULT, errno);
		EXPECT_TRUE(gup_refused());
		TH_LOG("vmsplice of an object's page: EFAULT (this kernel's GUP refuses these pages)");
		close(fd);
		munmap(p, 2 * PAGE);
		state_read(&after);
		EXPECT_TRUE(state_equal(&before, &after));
		return;
	}
	close(fd);
	ASSERT_EQ(0, munmap(p, 2 * PAGE));
	/* The object is gone; its spliced frame is parked, the other free. */
	EXPECT_EQ(1, mmc_read_ul("parked_pages"));
	EXPECT_EQ(before.used + 1, mmc_read_ul("used_pages"));
	EXPECT_EQ(before.committed, mmc_read_ul("committed_pages"));
	data = malloc(PAGE);
	ASSERT_NE(NULL, data);
	ASSERT_EQ(PAGE, read(pfd[0], data, PAGE));
	EXPECT_EQ(0, mmc_check(data, PAGE, 9));
	free(data);
	close(pfd[0]);
	close(pfd[1]);
	/* The deferred work takes it back within about a second. */
	for (i = 0; i < 50 && mmc_read_ul("parked_pages"); i++)
		usleep(100000);
	EXPECT_EQ(0, mmc_read_ul("parked_pages"));
	state_read(&after);
	EXPECT_TRUE(state_equal(&before, &after));
}

struct bad_create {
	const char *what;
	struct mm_color_obj_create req;
	int err;
};

TEST(bad_input)
{
	const struct bad_create cases[] = {
		{ "size 0", { 0, 0, 0 }, EINVAL },
		{ "size not a page multiple", { PAGE + 1, 0, 0 }, EINVAL },
		{ "size half a page", { PAGE / 2, 0, 0 }, EINVAL },
		{ "size above the limit", { CG_MMC_OBJECT_MAX_BYTES + PAGE, 0, 0 },
		  ERANGE },
		{ "size 2^63", { 1ULL << 63, 0, 0 }, ERANGE },
		{ "flags", { PAGE, 1, 0 }, EINVAL },
		{ "flags high bit", { PAGE, 1U << 31, 0 }, EINVAL },
		{ "reserved", { PAGE, 0, 1 }, EINVAL },
		/* 1 GiB: more than the pool (384 MB) could ever hold. */
		{ "size at the limit, above the pool", { CG_MMC_OBJECT_MAX_BYTES, 0, 0 },
		  ENOMEM },
	};
	struct mm_color_obj_readonly rreq;
	struct mm_color_obj_create req;
	struct state before, after;
	unsigned long one_color;
	unsigned int fds, i;
	char list[64];
	int dev, fd, nomask;
	struct hvc_mask m;
	char *x;

	test_mask(list, sizeof(list), &m);
	dev = mmc_open_list(list);
	ASSERT_LE(0, dev);
	nomask = open(MMC_DEV, O_RDWR);
	ASSERT_LE(0, nomask);
	state_read(&before);
	fds = open_fds();
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(-1, ioctl(dev, MM_COLOR_OBJ_CREATE, &cases[i].req))
			TH_LOG("%s", cases[i].what);
		EXPECT_EQ(cases[i].err, errno) TH_LOG("%s", cases[i].what);
	}
	EXPECT_EQ(-1, ioctl(dev, MM_COLOR_OBJ_CREATE, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(dev, MM_COLOR_OBJ_CREATE, NULL));
	EXPECT_EQ(EFAULT, errno);
	/* No mask on the file. */
	EXPECT_EQ(-1, obj_create(nomask, PAGE));
	EXPECT_EQ(EINVAL, errno);
	/* More than one color has free: all or nothing. */
	one_color = before.free[mmc_nr_colors() - 1];
	close(dev);
	snprintf(list, sizeof(list), "%u", mmc_nr_colors() - 1);
	dev = mmc_open_list(list);
	ASSERT_LE(0, dev);
	EXPECT_EQ(-1, obj_create(dev, (one_color + 1) * PAGE));
	EXPECT_EQ(ENOMEM, errno);
	/* limit_total_mb and limit_fd_mb bound an object. */
	ASSERT_EQ(0, mmc_write("limit_total_mb", "1"));
	EXPECT_EQ(-1, obj_create(dev, 2 << 20));
	EXPECT_EQ(ENOMEM, errno);
	ASSERT_EQ(0, mmc_write("limit_total_mb", "0"));
	ASSERT_EQ(0, mmc_write("limit_fd_mb", "1"));
	EXPECT_EQ(-1, obj_create(dev, 2 << 20));
	EXPECT_EQ(ENOMEM, errno);
	ASSERT_EQ(0, mmc_write("limit_fd_mb", "0"));
	state_read(&after);
	EXPECT_TRUE(state_equal(&before, &after))
		TH_LOG("used %lu -> %lu, committed %lu -> %lu, failed %lu -> %lu",
		       before.used, after.used, before.committed, after.committed,
		       before.failed, after.failed);
	EXPECT_EQ(fds, open_fds());

	/* The object's requests, and each kind's on the other's fd. */
	fd = obj_create(dev, 2 * PAGE);
	ASSERT_LE(0, fd);
	fds = open_fds();
	rreq = (struct mm_color_obj_readonly){ .flags = 1 };
	EXPECT_EQ(-1, ioctl(fd, MM_COLOR_OBJ_READONLY, &rreq));
	EXPECT_EQ(EINVAL, errno);
	rreq = (struct mm_color_obj_readonly){ .reserved = 1 };
	EXPECT_EQ(-1, ioctl(fd, MM_COLOR_OBJ_READONLY, &rreq));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, MM_COLOR_OBJ_READONLY, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	req = (struct mm_color_obj_create){ .size = PAGE };
	EXPECT_EQ(-1, ioctl(fd, MM_COLOR_OBJ_CREATE, &req));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, MM_COLOR_GET_INFO, &before));
	EXPECT_EQ(ENOTTY, errno);
	rreq = (struct mm_color_obj_readonly){ 0 };
	EXPECT_EQ(-1, ioctl(dev, MM_COLOR_OBJ_READONLY, &rreq));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(fds, open_fds());
	/* Mappings: within the object, shared, not executable. */
	x = mmap(NULL, 3 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EINVAL, errno);
	x = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, PAGE);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EINVAL, errno);
	x = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 2 * PAGE);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EINVAL, errno);
	x = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EINVAL, errno);
	x = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	EXPECT_EQ(MAP_FAILED, x);
	EXPECT_EQ(EPERM, errno);
	x = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, x);
	EXPECT_EQ(-1, mprotect(x, PAGE, PROT_READ | PROT_EXEC));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(MAP_FAILED, mremap(x, 2 * PAGE, 4 * PAGE, 0));
	munmap(x, 2 * PAGE);
	close(fd);
	close(dev);
	close(nomask);
}

static long delete_module(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK);
}

/* An object's fd, or only its mapping, keeps the module loaded. */
TEST(pins_module)
{
	char list[64];
	struct hvc_mask m;
	int fd;
	char *p;

	test_mask(list, sizeof(list), &m);
	fd = obj_of_list(list);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, delete_module("mm_color"));
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY) TH_LOG("%s", strerror(errno));
	p = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	close(fd);
	EXPECT_EQ(-1, delete_module("mm_color"));
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY) TH_LOG("%s", strerror(errno));
	mmc_fill(p, OBJ_SIZE, 8);
	EXPECT_EQ(0, mmc_check(p, OBJ_SIZE, 8));
	munmap(p, OBJ_SIZE);
}

TEST_HARNESS_MAIN
