// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/mm-color mappings: every page's color (from pagemap) is in the
 * mask, data survives, fork/munmap/mremap/mprotect behave as documented,
 * and the per-color free counts come back exactly. Runs against whatever
 * geometry and pool the module has (vm-run sets them up).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

/* TCG on arm64 runs these about ten times slower than x86. */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300
#include "mmc_util.h"

#define MAX_COLORS	MM_COLOR_MAX_COLORS

struct ctx {
	struct hvc_geometry geo;
	unsigned int nr;
	unsigned long before[MAX_COLORS];
	unsigned long after[MAX_COLORS];
};

static void ctx_init(struct __test_metadata *_metadata, struct ctx *c)
{
	ASSERT_EQ(0, mmc_geometry(&c->geo));
	c->nr = mmc_nr_colors();
	ASSERT_GE(c->nr, 2);
	mmc_free_counts(c->before, c->nr);
}

/* The mask as a list string, by hv-color's formatter. */
static void mask_list(const struct hvc_mask *m, char *buf, size_t size)
{
	hvc_mask_format(m, buf, size);
}

static size_t capacity(const struct ctx *c, const struct hvc_mask *m)
{
	unsigned long pages = 0;
	unsigned int col;

	for (col = 0; col < c->nr; col++)
		if (hvc_mask_test(m, col))
			pages += c->before[col];
	return pages * PAGE;
}

FIXTURE(masks) {
	struct ctx c;
	struct hvc_mask m;
	char list[MM_COLOR_LIST_MAX];
};

FIXTURE_VARIANT(masks) {
	int kind;
};

enum { SINGLE, ALL, ADJACENT, SCATTERED };
FIXTURE_VARIANT_ADD(masks, single) { .kind = SINGLE };
FIXTURE_VARIANT_ADD(masks, all) { .kind = ALL };
FIXTURE_VARIANT_ADD(masks, adjacent) { .kind = ADJACENT };
FIXTURE_VARIANT_ADD(masks, scattered) { .kind = SCATTERED };

FIXTURE_SETUP(masks)
{
	unsigned int n, col;

	ctx_init(_metadata, &self->c);
	n = self->c.nr;
	hvc_mask_zero(&self->m);
	switch (variant->kind) {
	case SINGLE:
		hvc_mask_set(&self->m, n / 2 + 1 < n ? n / 2 + 1 : 1);
		break;
	case ALL:
		for (col = 0; col < n; col++)
			hvc_mask_set(&self->m, col);
		break;
	case ADJACENT:
		for (col = n / 4; col < n / 4 + (n >= 4 ? n / 4 : 1); col++)
			hvc_mask_set(&self->m, col);
		break;
	case SCATTERED:
		if (n < 8)
			SKIP(return, "%u colors are too few to scatter", n);
		hvc_mask_set(&self->m, 0);
		hvc_mask_set(&self->m, 3);
		hvc_mask_set(&self->m, n / 2 + 1);
		hvc_mask_set(&self->m, n - 1);
		break;
	}
	mask_list(&self->m, self->list, sizeof(self->list));
}

FIXTURE_TEARDOWN(masks)
{
}

TEST_F(masks, pagemap_colors)
{
	static const size_t sizes[] = {
		PAGE, 64 << 10, 1 << 20, 16 << 20, 64 << 20
	};
	size_t cap = capacity(&self->c, &self->m);
	unsigned int i, done = 0;

	if (hvc_mask_empty(&self->m))
		SKIP(return, "no mask for %u colors", self->c.nr);

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t len = sizes[i];
		int fd;
		void *p;

		if (len > cap) {
			TH_LOG("mask %s: %zu bytes exceed the pool's %zu", self->list,
			       len, cap);
			continue;
		}
		/* Under KASAN the path is the same at 16 MB, at a quarter of the time. */
		if (debug_kernel() && len > (16 << 20))
			continue;
		fd = mmc_open_list(self->list);
		ASSERT_LE(0, fd);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		ASSERT_NE(MAP_FAILED, p);
		mmc_fill(p, len, 0x5eed + i);
		EXPECT_EQ(0, mmc_bad_pages(&self->c.geo, &self->m, p, len))
			TH_LOG("mask %s, %zu bytes", self->list, len);
		EXPECT_EQ(0, mmc_check(p, len, 0x5eed + i));
		ASSERT_EQ(0, munmap(p, len));
		close(fd);
		mmc_free_counts(self->c.after, self->c.nr);
		EXPECT_TRUE(mmc_counts_equal(self->c.before, self->c.after, self->c.nr));
		done++;
	}
	TH_LOG("mask %s: %u sizes checked", self->list, done);
	ASSERT_GE(done, 3);
}

TEST(bitmap_form)
{
	uint64_t bits[MAX_COLORS / 64] = { 0 }, back[MAX_COLORS / 64] = { 0 };
	struct mm_color_bitmap req;
	struct hvc_mask m;
	struct ctx c;
	size_t len = 1 << 20;
	int fd;
	void *p;

	ctx_init(_metadata, &c);
	bits[0] = c.nr > 2 ? 0x5 : 0x3;	/* colors 0 and 2, or 0 and 1 */
	req = (struct mm_color_bitmap){ .addr = (uintptr_t)bits, .nbits = c.nr };
	fd = open(MMC_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, MM_COLOR_SET_BITMAP, &req));
	req.addr = (uintptr_t)back;
	ASSERT_EQ(0, ioctl(fd, MM_COLOR_GET_BITMAP, &req));
	EXPECT_EQ(bits[0], back[0]);
	hvc_mask_zero(&m);
	hvc_mask_set(&m, 0);
	hvc_mask_set(&m, c.nr > 2 ? 2 : 1);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, len, 7);
	EXPECT_EQ(0, mmc_bad_pages(&c.geo, &m, p, len));
	munmap(p, len);
	close(fd);
}

/* Two live processes with disjoint masks never get each other's colors. */
TEST(disjoint_processes)
{
	int go[2], ready[2];
	size_t len = 8 << 20;
	struct ctx c;
	int k, status;
	pid_t pid[2];

	ctx_init(_metadata, &c);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	for (k = 0; k < 2; k++) {
		pid[k] = fork();
		ASSERT_LE(0, pid[k]);
		if (!pid[k]) {
			struct hvc_mask m;
			char list[64], b;
			unsigned int col;
			int fd;
			void *p;

			hvc_mask_zero(&m);
			for (col = k; col < c.nr; col += 2)
				hvc_mask_set(&m, col);
			mask_list(&m, list, sizeof(list));
			fd = mmc_open_list(list);
			p = fd < 0 ? MAP_FAILED :
			    mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (p == MAP_FAILED)
				_exit(10);
			mmc_fill(p, len, k);
			/* Both hold their pages while each checks. */
			if (write(ready[1], "r", 1) != 1 || read(go[0], &b, 1) != 1)
				_exit(11);
			if (mmc_bad_pages(&c.geo, &m, p, len))
				_exit(12);
			if (mmc_check(p, len, k))
				_exit(13);
			_exit(0);
		}
	}
	for (k = 0; k < 2; k++) {
		char b;

		ASSERT_EQ(1, read(ready[0], &b, 1));
	}
	ASSERT_EQ(2, write(go[1], "gg", 2));
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(pid[k], waitpid(pid[k], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("child %d status %d", k, status);
	}
	mmc_free_counts(c.after, c.nr);
	EXPECT_TRUE(mmc_counts_equal(c.before, c.after, c.nr));
}

static sigjmp_buf fault_jmp;

static void on_fault(int sig)
{
	siglongjmp(fault_jmp, sig);
}

/* 0 if the access worked, else the signal it raised. */
static int try_access(volatile char *p, int write)
{
	struct sigaction sa = { .sa_handler = on_fault }, old_segv, old_bus;
	int sig;

	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	sig = sigsetjmp(fault_jmp, 1);
	if (!sig) {
		if (write)
			*p = 1;
		else
			(void)*p;
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return sig;
}

/* Documented: colored mappings are not inherited; the child sees none. */
TEST(fork_not_inherited)
{
	size_t len = 1 << 20;
	struct ctx c;
	int fd, status;
	pid_t pid;
	char *p;

	ctx_init(_metadata, &c);
	fd = mmc_open_list("0-1");
	ASSERT_LE(0, fd);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, len, 99);
	/* MADV_DOFORK must not undo it. */
	EXPECT_NE(0, madvise(p, len, MADV_DOFORK));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		unsigned char vec;

		if (mincore(p, PAGE, &vec) == 0 || errno != ENOMEM)
			_exit(1);
		if (try_access(p, 0) != SIGSEGV)
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("child status %d", status);
	EXPECT_EQ(0, mmc_check(p, len, 99));
	munmap(p, len);
	close(fd);
	mmc_free_counts(c.after, c.nr);
	EXPECT_TRUE(mmc_counts_equal(c.before, c.after, c.nr));
}

static unsigned long total_free(const struct ctx *c)
{
	unsigned long counts[MAX_COLORS], sum = 0;
	unsigned int col;

	mmc_free_counts(counts, c->nr);
	for (col = 0; col < c->nr; col++)
		sum += counts[col];
	return sum;
}

TEST(counts_restored)
{
	size_t len = 4 << 20;
	struct ctx c;
	int fd, status;
	pid_t pid;
	char *p;

	ctx_init(_metadata, &c);
	/* munmap */
	fd = mmc_open_list("0");
	ASSERT_LE(0, fd);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, len, 1);
	mmc_free_counts(c.after, c.nr);
	EXPECT_EQ(c.before[0] - len / PAGE, c.after[0]);
	ASSERT_EQ(0, munmap(p, len));
	mmc_free_counts(c.after, c.nr);
	EXPECT_TRUE(mmc_counts_equal(c.before, c.after, c.nr));
	/* close first: the mapping keeps its pages until munmap */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, len, 2);
	close(fd);
	EXPECT_EQ(0, mmc_check(p, len, 2));
	ASSERT_EQ(0, munmap(p, len));
	mmc_free_counts(c.after, c.nr);
	EXPECT_TRUE(mmc_counts_equal(c.before, c.after, c.nr));
	/* exit without cleaning up */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int cfd = mmc_open_list("0-1");
		char *q;

		q = cfd < 0 ? MAP_FAILED :
		    mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		if (q == MAP_FAILED)
			_exit(1);
		mmc_fill(q, len, 3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	mmc_free_counts(c.after, c.nr);
	EXPECT_TRUE(mmc_counts_equal(c.before, c.after, c.nr));
}

TEST(partial_munmap)
{
	size_t len = 64 * PAGE;
	struct ctx c;
	unsigned long free0;
	int fd;
	char *p;

	ctx_init(_metadata, &c);
	free0 = total_free(&c);
	fd = mmc_open_list("0-1");
	ASSERT_LE(0, fd);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, len, 4);
	EXPECT_EQ(free0 - 64, total_free(&c));
	ASSERT_EQ(0, munmap(p + 16 * PAGE, 16 * PAGE));
	EXPECT_EQ(free0 - 48, total_free(&c));
	EXPECT_EQ(0, mmc_check(p, 16 * PAGE, 4));
	EXPECT_EQ(0, mmc_check_range(p, 32 * PAGE, len, 4));
	ASSERT_EQ(0, munmap(p, len));
	close(fd);
	EXPECT_EQ(free0, total_free(&c));
}

TEST(mremap_move_and_shrink)
{
	size_t len = 32 * PAGE;
	struct hvc_mask m;
	unsigned long free0;
	struct ctx c;
	char *p, *q, *r;
	int fd;

	ctx_init(_metadata, &c);
	free0 = total_free(&c);
	hvc_mask_zero(&m);
	hvc_mask_set(&m, 1);
	fd = mmc_open_list("1");
	ASSERT_LE(0, fd);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, len, 5);
	/* Growing is refused (VM_DONTEXPAND). */
	EXPECT_EQ(MAP_FAILED, mremap(p, len, 2 * len, MREMAP_MAYMOVE));
	EXPECT_EQ(EFAULT, errno);
	/* Moving keeps pages and data. */
	r = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	q = mremap(p, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, r);
	ASSERT_EQ(r, q);
	EXPECT_EQ(0, mmc_check(q, len, 5));
	EXPECT_EQ(0, mmc_bad_pages(&c.geo, &m, q, len));
	EXPECT_EQ(free0 - 32, total_free(&c));
	/* Shrinking frees the tail. */
	p = mremap(q, len, len / 2, 0);
	ASSERT_EQ(q, p);
	EXPECT_EQ(free0 - 16, total_free(&c));
	EXPECT_EQ(0, mmc_check(p, len / 2, 5));
	ASSERT_EQ(0, munmap(p, len / 2));
	close(fd);
	EXPECT_EQ(free0, total_free(&c));
}

TEST(mprotect_modes)
{
	size_t len = 8 * PAGE;
	struct ctx c;
	int fd;
	char *p;

	ctx_init(_metadata, &c);
	fd = mmc_open_list("0");
	ASSERT_LE(0, fd);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, len, 6);
	ASSERT_EQ(0, mprotect(p, len, PROT_READ));
	EXPECT_EQ(SIGSEGV, try_access(p, 1));
	EXPECT_EQ(0, try_access(p, 0));
	ASSERT_EQ(0, mprotect(p + PAGE, PAGE, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, try_access(p + PAGE, 1));
	EXPECT_EQ(SIGSEGV, try_access(p + 2 * PAGE, 1));
	/* Never executable. */
	EXPECT_NE(0, mprotect(p, len, PROT_READ | PROT_EXEC));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, mmc_check_range(p, 2 * PAGE, len, 6));
	ASSERT_EQ(0, munmap(p, len));
	close(fd);
	mmc_free_counts(c.after, c.nr);
	EXPECT_TRUE(mmc_counts_equal(c.before, c.after, c.nr));
}

TEST(refused_mappings)
{
	int fd = mmc_open_list("0");
	void *p;

	ASSERT_LE(0, fd);
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EPERM, errno);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, PAGE);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* Documented: a fault the pool cannot serve raises SIGBUS. */
TEST(exhaustion_sigbus)
{
	unsigned long failed0 = mmc_read_ul("failed_faults");
	struct ctx c;
	size_t len;
	int fd, status, pipefd[2];
	unsigned long touched = 0;
	pid_t pid;

	ctx_init(_metadata, &c);
	len = (c.before[0] + 16) * PAGE;
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		unsigned long n;
		char *p;

		fd = mmc_open_list("0");
		p = fd < 0 ? MAP_FAILED :
		    mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (n = 0; n < len / PAGE; n++)
			if (try_access(p + n * PAGE, 1))
				break;
		if (write(pipefd[1], &n, sizeof(n)) != sizeof(n))
			_exit(2);
		/* A second touch of a served page still works. */
		_exit(try_access(p, 1) ? 3 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(sizeof(touched), read(pipefd[0], &touched, sizeof(touched)));
	EXPECT_EQ(c.before[0], touched);
	EXPECT_LT(failed0, mmc_read_ul("failed_faults"));
	mmc_free_counts(c.after, c.nr);
	EXPECT_TRUE(mmc_counts_equal(c.before, c.after, c.nr));
}

TEST(limits)
{
	char old_fd[32], old_total[32];
	int fd, fd2;
	void *p, *q;

	ASSERT_EQ(0, mmc_read("limit_fd_mb", old_fd, sizeof(old_fd)));
	ASSERT_EQ(0, mmc_read("limit_total_mb", old_total, sizeof(old_total)));
	ASSERT_EQ(0, mmc_write("limit_fd_mb", "1"));
	fd = mmc_open_list("0");
	ASSERT_LE(0, fd);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 << 20, PROT_READ, MAP_SHARED, fd, 0));
	EXPECT_EQ(ENOMEM, errno);
	p = mmap(NULL, 1 << 20, PROT_READ, MAP_SHARED, fd, 0);
	EXPECT_NE(MAP_FAILED, p);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0));
	fd2 = mmc_open_list("0");
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, mmc_write("limit_total_mb", "2"));
	q = mmap(NULL, 1 << 20, PROT_READ, MAP_SHARED, fd2, 0);
	EXPECT_NE(MAP_FAILED, q);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd2, 0));
	EXPECT_EQ(ENOMEM, errno);
	munmap(p, 1 << 20);
	munmap(q, 1 << 20);
	close(fd);
	close(fd2);
	EXPECT_EQ(0, mmc_read_ul("committed_pages"));
	EXPECT_EQ(0, mmc_write("limit_fd_mb", old_fd));
	EXPECT_EQ(0, mmc_write("limit_total_mb", old_total));
}

TEST_HARNESS_MAIN
