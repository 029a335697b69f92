// SPDX-License-Identifier: GPL-2.0
/*
 * Who may hold a /dev/mm-color page, and for how long:
 * - a page vmspliced into a pipe outlives its mapping: it is parked, no
 *   other process gets that frame while the pipe holds it (pagemap PFNs,
 *   parked_pages), the pipe keeps the first owner's data, and once the
 *   pipe is drained the frame comes back to the pool;
 * - O_DIRECT to and from a loop device over a tmpfs file works on these
 *   mappings and leaves nothing parked;
 * - the group the node's mode lets in is a gid of the initial user
 *   namespace: an unprivileged user who maps it in a user namespace of
 *   its own is refused;
 * - mremap() after MADV_DONTNEED keeps the dropped pages' contents.
 * Needs a loaded module with a geometry of at least 8 colors and a pool;
 * the group tests need a group on the node (vm-run gives it group 1234,
 * mode 0660, as the udev rule does).
 *
 * "holders unload": a page held by a pipe across rmmod mm_color.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/loop.h>

#include "kselftest_harness.h"

/* TCG on arm64 runs these about ten times slower than x86. */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300
#include "mmc_util.h"

#define NOBODY		65534
#define SEED		0x5eedc0105eedULL

static long parked(void)
{
	return (long)mmc_read_ul("parked_pages");
}

static unsigned long color_free(unsigned int c)
{
	char name[32];

	snprintf(name, sizeof(name), "free/%u", c);
	return mmc_read_ul(name);
}

/*
 * The unprivileged side of a test: drop to uid/gid NOBODY, with @group as
 * the only supplementary group if it is >= 0. 0 or -errno.
 */
static int drop_privileges(long group)
{
	gid_t g = group;

	if (setgroups(group >= 0 ? 1 : 0, &g) || setgid(NOBODY) || setuid(NOBODY))
		return -errno;
	/* Really dropped: root's way back must be closed. */
	if (!setuid(0))
		return -EPERM;
	return 0;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	n = n == (ssize_t)strlen(val) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return n;
}

static int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

/* PFN of @addr in process @pid (root reads real PFNs). */
static __u64 pid_pfn(pid_t pid, const void *addr)
{
	char path[64];
	__u64 pfn;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	pfn = mmc_pfn(fd, addr);
	close(fd);
	return pfn;
}

/*
 * The first owner, as an unprivileged group member when a group is set:
 * maps one page of @color, fills it, reports its address, waits for the
 * go (the parent reads its PFN meanwhile), vmsplices the page into
 * @pipe_w, unmaps it and exits. Exit 0 iff all of it worked.
 */
/* splice_owner()'s exit status when vmsplice failed with EFAULT. */
#define SPLICE_EFAULT	16

static int splice_owner(int color, long group, int sync_w, int go_r, int pipe_w)
{
	char list[16];
	struct iovec iov;
	char *p;
	int fd;

	if (group >= 0 && drop_privileges(group))
		return 10;
	snprintf(list, sizeof(list), "%d", color);
	fd = mmc_open_list(list);
	if (fd < 0)
		return 11;
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 12;
	mmc_fill(p, PAGE, SEED);
	if (write(sync_w, &p, sizeof(p)) != sizeof(p) || read(go_r, list, 1) != 1)
		return 13;
	iov.iov_base = p;
	iov.iov_len = PAGE;
	/* GUP-fast takes the page's reference (VM_IO stops only the slow path). */
	if (vmsplice(pipe_w, &iov, 1, 0) != PAGE)
		return errno == EFAULT ? SPLICE_EFAULT : 14;
	if (munmap(p, PAGE) || close(fd))
		return 15;
	return 0;
}

/*
 * From 6.5 on, GUP-fast refuses an order-0 folio without a mapping when
 * the kernel has CONFIG_SECRETMEM (gup_fast_folio_allowed(): Debian's
 * 6.12 does), and the slow path refuses VM_IO: there vmsplice and
 * O_DIRECT on these mappings fail with EFAULT, so no reference can
 * outlive a mapping. 6.1 pins them, and there they must work.
 */
static int gup_refused(int err)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (err != EFAULT || uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major > 6 || (major == 6 && minor >= 5);
}

/*
 * Fork the first owner of a page of @color that ends up in the pipe
 * @pfd; its PFN in *@pfn. 0 if the owner did it all.
 */
static int spliced_page(int color, long group, int pfd[2], __u64 *pfn)
{
	int sync[2], go[2], status;
	void *addr;
	pid_t pid;

	if (pipe(sync) || pipe(go))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(pfd[0]);
		_exit(splice_owner(color, group, sync[1], go[0], pfd[1]));
	}
	close(sync[1]);
	close(go[0]);
	*pfn = 0;
	if (read(sync[0], &addr, sizeof(addr)) == sizeof(addr))
		*pfn = pid_pfn(pid, addr);
	if (write(go[1], "g", 1) != 1)
		*pfn = 0;
	close(sync[0]);
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(vmsplice_outlives_mapping)
{
	unsigned int nr = mmc_nr_colors(), color = 5, i;
	long group = mmc_dev_group();
	unsigned long n0, n1, hit = 0;
	__u64 pfn, *got;
	char list[16], *q, *data;
	int pfd[2], fd, pagemap, err;
	size_t k;

	ASSERT_GE(nr, 8);
	ASSERT_EQ(0, pipe(pfd));
	n0 = color_free(color);
	ASSERT_GE(n0, 2);
	err = spliced_page(color, group, pfd, &pfn);
	if (gup_refused(err == SPLICE_EFAULT ? EFAULT : 0)) {
		TH_LOG("vmsplice of a mapped page: EFAULT (this kernel's GUP refuses these pages)");
		EXPECT_EQ(0, parked());
		EXPECT_EQ(n0, color_free(color));
		return;
	}
	ASSERT_EQ(0, err);
	ASSERT_NE(0, pfn);
	close(pfd[1]);
	TH_LOG("owner (uid %d, group %ld) spliced pfn 0x%llx of color %u and unmapped it",
	       group >= 0 ? NOBODY : 0, group, (unsigned long long)pfn, color);

	/* The pipe holds the frame: not free, parked. */
	n1 = color_free(color);
	EXPECT_EQ(n0 - 1, n1);
	EXPECT_EQ(1, parked());

	/* Another process takes every free frame of the color, plus one. */
	snprintf(list, sizeof(list), "%u", color);
	fd = mmc_open_list(list);
	ASSERT_LE(0, fd);
	k = n1 + 1;
	q = mmap(NULL, k * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, q);
	mmc_fill(q, (k - 1) * PAGE, ~SEED);
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	ASSERT_LE(0, pagemap);
	got = calloc(k, sizeof(*got));
	ASSERT_NE(NULL, got);
	for (i = 0; i < k - 1; i++) {
		got[i] = mmc_pfn(pagemap, q + i * PAGE);
		hit += got[i] == pfn;
	}
	EXPECT_EQ(0, hit) {
		TH_LOG("the spliced frame was handed to the next owner");
	}
	EXPECT_EQ(0, color_free(color));

	/* The pipe still has the first owner's data. */
	data = malloc(PAGE);
	ASSERT_NE(NULL, data);
	ASSERT_EQ(0, read_full(pfd[0], data, PAGE));
	EXPECT_EQ(0, mmc_check(data, PAGE, SEED)) {
		TH_LOG("the pipe's page now holds someone else's data");
	}
	close(pfd[0]);
	ASSERT_EQ(0, hit);

	/*
	 * Drained: the color's last free frame is that one. The fault that
	 * finds the color empty takes parked frames back first (or the
	 * deferred work already did).
	 */
	q[(k - 1) * PAGE] = 1;
	EXPECT_EQ(pfn, mmc_pfn(pagemap, q + (k - 1) * PAGE));
	EXPECT_EQ(0, parked());
	close(pagemap);
	ASSERT_EQ(0, munmap(q, k * PAGE));
	close(fd);
	EXPECT_EQ(n0, color_free(color));
	EXPECT_EQ(0, parked());
	free(got);
	free(data);
}

/* A loop device over a file in /tmp (tmpfs), opened with O_DIRECT. */
struct loopdev {
	int ctl, back, dev, nr;
};

static int loop_setup(struct loopdev *l, size_t len)
{
	char path[32];

	l->ctl = open("/dev/loop-control", O_RDWR);
	if (l->ctl < 0)
		return -errno;
	l->back = open("/tmp/holders-loop.img", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (l->back < 0 || ftruncate(l->back, len))
		return -errno;
	l->nr = ioctl(l->ctl, LOOP_CTL_GET_FREE);
	if (l->nr < 0)
		return -errno;
	snprintf(path, sizeof(path), "/dev/loop%d", l->nr);
	l->dev = open(path, O_RDWR);
	if (l->dev < 0 || ioctl(l->dev, LOOP_SET_FD, l->back))
		return -errno;
	close(l->dev);
	l->dev = open(path, O_RDWR | O_DIRECT);
	return l->dev < 0 ? -errno : 0;
}

static void loop_teardown(struct loopdev *l)
{
	char path[32];
	int fd;

	snprintf(path, sizeof(path), "/dev/loop%d", l->nr);
	close(l->dev);
	fd = open(path, O_RDWR);
	if (fd >= 0) {
		ioctl(fd, LOOP_CLR_FD, 0);
		close(fd);
	}
	close(l->back);
	close(l->ctl);
	unlink("/tmp/holders-loop.img");
}

TEST(odirect_loop)
{
	size_t len = 16 * PAGE;
	unsigned long before, bad;
	struct hvc_geometry geo;
	struct hvc_mask mask;
	struct loopdev l = { -1, -1, -1, -1 };
	char *p, *q;
	int fd, err;

	if (access("/dev/loop-control", F_OK))
		SKIP(return, "no loop driver (loop.ko not loaded: %s)", strerror(errno));
	ASSERT_EQ(0, mmc_geometry(&geo));
	hvc_mask_zero(&mask);
	hvc_mask_set(&mask, 3);
	before = color_free(3);
	err = loop_setup(&l, 1 << 20);
	ASSERT_EQ(0, err) {
		TH_LOG("loop device over tmpfs: %s", strerror(-err));
	}
	fd = mmc_open_list("3");
	ASSERT_LE(0, fd);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(MAP_FAILED, q);
	mmc_fill(p, len, SEED);
	memset(q, 0, len);
	/* The block layer pins these pages for the I/O (GUP-fast). */
	if (pwrite(l.dev, p, len, PAGE) < 0 && gup_refused(errno)) {
		TH_LOG("O_DIRECT from a mapped page: EFAULT (this kernel's GUP refuses these pages)");
		EXPECT_EQ(-1, pread(l.dev, q, len, PAGE));
		EXPECT_EQ(EFAULT, errno);
	} else {
		EXPECT_EQ((ssize_t)len, pwrite(l.dev, p, len, PAGE));
		EXPECT_EQ((ssize_t)len, pread(l.dev, q, len, PAGE));
		bad = mmc_check(q, len, SEED) + mmc_bad_pages(&geo, &mask, q, len);
		EXPECT_EQ(0, bad);
	}
	EXPECT_EQ(before - 32, color_free(3));
	ASSERT_EQ(0, munmap(p, len));
	ASSERT_EQ(0, munmap(q, len));
	close(fd);
	/* The I/O is over: nothing holds the frames, nothing is parked. */
	EXPECT_EQ(0, parked());
	EXPECT_EQ(before, color_free(3));
	loop_teardown(&l);
}

/*
 * In a user namespace of its own, an unprivileged user maps the device
 * group onto its own gid, then opens the device: 0 or the errno. Other
 * exit codes say which step failed.
 */
static int userns_open(long group)
{
	char map[64];
	int fd;

	if (drop_privileges(-1))
		return 100;
	/* setuid() made us undumpable: /proc/self/ would stay root's. */
	if (prctl(PR_SET_DUMPABLE, 1))
		return 106;
	if (open(MMC_DEV, O_RDWR) >= 0)
		return 101;
	if (unshare(CLONE_NEWUSER))
		return errno == EINVAL ? 107 : 102;
	if (write_file("/proc/self/setgroups", "deny"))
		return 103;
	snprintf(map, sizeof(map), "%ld %d 1", group, NOBODY);
	if (write_file("/proc/self/gid_map", map))
		return 104;
	if ((long)getgid() != group)
		return 105;
	fd = open(MMC_DEV, O_RDWR);
	if (fd >= 0)
		return 0;
	return errno;
}

TEST(userns_group_refused)
{
	const char *knob = "/proc/sys/kernel/unprivileged_userns_clone";
	long group = mmc_dev_group();
	char old[8] = "";
	int status, fd;
	pid_t pid;

	if (group < 0)
		SKIP(return, "no group on the node (chgrp, chmod 0660)");
	/* Debian's switch for unprivileged user namespaces. */
	fd = open(knob, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, old, sizeof(old) - 1) < 0)
			old[0] = 0;
		close(fd);
		write_file(knob, "1");
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(userns_open(group));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (old[0])
		write_file(knob, old);
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 107)
		SKIP(return, "kernel without user namespaces (CONFIG_USER_NS)");
	ASSERT_GT(100, WEXITSTATUS(status)) {
		TH_LOG("setup step %d failed", WEXITSTATUS(status));
	}
	EXPECT_EQ(EACCES, WEXITSTATUS(status)) {
		TH_LOG("gid %ld mapped in a new user namespace opened the device",
		       group);
	}
}

TEST(mremap_after_dontneed)
{
	size_t len = 8 * PAGE;
	unsigned long n0;
	char *p, *q, *r;
	int fd;

	n0 = color_free(6);
	fd = mmc_open_list("6");
	ASSERT_LE(0, fd);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, len, SEED);
	/* Documented: the pages and their contents stay with the mapping. */
	ASSERT_EQ(0, madvise(p + 2 * PAGE, 4 * PAGE, MADV_DONTNEED));
	r = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	/* Move the whole mapping. */
	q = mremap(p, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, r);
	ASSERT_EQ(r, q);
	EXPECT_EQ(n0 - 8, color_free(6));
	EXPECT_EQ(0, mmc_check(q, len, SEED));
	/* Then part of it, dropped again first. */
	ASSERT_EQ(0, madvise(q + 3 * PAGE, 2 * PAGE, MADV_DONTNEED));
	r = mmap(NULL, 4 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	p = mremap(q + 2 * PAGE, 4 * PAGE, 4 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, r);
	ASSERT_EQ(r, p);
	EXPECT_EQ(n0 - 8, color_free(6));
	EXPECT_EQ(0, mmc_check_range(q, 0, 2 * PAGE, SEED));
	EXPECT_EQ(0, mmc_check_range(q, 6 * PAGE, len, SEED));
	/* The moved part keeps the offsets it was filled at. */
	EXPECT_EQ(0, mmc_check_range(p - 2 * PAGE, 2 * PAGE, 6 * PAGE, SEED));
	ASSERT_EQ(0, munmap(p, 4 * PAGE));
	EXPECT_EQ(n0 - 4, color_free(6));
	ASSERT_EQ(0, munmap(q, 2 * PAGE));
	ASSERT_EQ(0, munmap(q + 6 * PAGE, 2 * PAGE));
	close(fd);
	EXPECT_EQ(n0, color_free(6));
	EXPECT_EQ(0, parked());
}

/*
 * rmmod while a pipe holds a parked page: the unload goes through, the
 * page keeps the first owner's data, and draining the pipe frees it (the
 * guest log must stay clean). Prints TAP-style diagnostics; exit 0 iff
 * every step worked.
 */
static int unload_mode(void)
{
	__u64 pfn;
	char *data = malloc(PAGE);
	int pfd[2], rc;

	if (!data || pipe(pfd))
		return 2;
	rc = spliced_page(5, mmc_dev_group(), pfd, &pfn);
	close(pfd[1]);
	printf("# owner: %d, parked_pages %ld\n", rc, parked());
	if (gup_refused(rc == SPLICE_EFAULT ? EFAULT : 0)) {
		printf("# vmsplice: EFAULT (this kernel's GUP refuses these pages): nothing to hold\n");
		return parked() != 0;
	}
	if (rc || parked() != 1)
		return 1;
	rc = system("rmmod mm_color");
	printf("# rmmod with a parked page: %d\n", rc);
	if (rc || !access(MMC_SYSFS, F_OK))
		return 1;
	if (read_full(pfd[0], data, PAGE) || mmc_check(data, PAGE, SEED)) {
		printf("# the pipe lost the page's data\n");
		return 1;
	}
	printf("# pipe drained after unload, data intact\n");
	return 0;
}

/* What TEST_HARNESS_MAIN sets up besides main(). */
static void __attribute__((constructor)) __constructor_order_last(void)
{
	if (!__constructor_order)
		__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "unload"))
		return unload_mode();
	return test_harness_run(argc, argv);
}
