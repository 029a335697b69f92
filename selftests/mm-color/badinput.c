// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed sysfs writes and ioctls are rejected with the right errno and
 * change nothing; non-root callers are kept out. Expects a loaded module
 * with a geometry and a non-empty pool.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

/* TCG on arm64 runs these about ten times slower than x86. */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300
#include "mmc_util.h"

struct bad_write {
	const char *file;
	const char *val;
	int err;
};

static const struct bad_write bad_writes[] = {
	{ "way_size", "\n", EINVAL },
	{ "way_size", "abc", EINVAL },
	{ "way_size", "12345", EINVAL },		/* not a power of two */
	{ "way_size", "4096", ERANGE },			/* one color */
	{ "way_size", "-1", EINVAL },
	{ "way_size", "65536 junk", EINVAL },
	{ "way_size", "99999999999999999999999", ERANGE },
	{ "way_size", "65536", EBUSY },			/* pool not empty */
	{ "line_size", "48", EINVAL },
	{ "line_size", "0", ERANGE },
	{ "pool_mb", "\n", EINVAL },
	{ "pool_mb", "x1", EINVAL },
	{ "pool_mb", "100000000", ERANGE },
	{ "pool_mb", "0x10", EINVAL },
	{ "root_colors", "\n", EINVAL },
	{ "root_colors", "0-", EINVAL },
	{ "root_colors", "5-2", EINVAL },
	{ "root_colors", "0-99999", ERANGE },
	{ "root_colors", "garbage", EINVAL },
	{ "root_colors", "3a", EINVAL },
	{ "root_colors", "-3", EINVAL },
	{ "reserve_mb", "abc", EINVAL },
	{ "reserve_mb", "99999999", ERANGE },
	{ "limit_fd_mb", "99999999", ERANGE },
	{ "limit_total_mb", "1.5", EINVAL },
};

static const char *const state_files[] = {
	"way_size", "nr_colors", "line_size", "geometry_source", "pool_mb",
	"pool_pages", "free_pages", "root_colors", "quarantined_pages",
	"reserve_mb", "limit_fd_mb", "limit_total_mb",
};

#define NR_STATE ARRAY_SIZE(state_files)

static void snapshot(char (*vals)[4200])
{
	unsigned int i;

	for (i = 0; i < NR_STATE; i++)
		mmc_read(state_files[i], vals[i], sizeof(vals[i]));
}

static char before[NR_STATE][4200], after[NR_STATE][4200];

TEST(sysfs_writes_rejected)
{
	char status[256];
	unsigned int i, j;

	ASSERT_LT(0, mmc_read_ul("pool_pages"));
	for (i = 0; i < ARRAY_SIZE(bad_writes); i++) {
		const struct bad_write *w = &bad_writes[i];

		snapshot(before);
		EXPECT_EQ(-w->err, mmc_write(w->file, w->val))
			TH_LOG("%s <- \"%s\"", w->file, w->val);
		snapshot(after);
		for (j = 0; j < NR_STATE; j++)
			EXPECT_STREQ(before[j], after[j])
				TH_LOG("%s changed by %s <- \"%s\"", state_files[j],
				       w->file, w->val);
		ASSERT_EQ(0, mmc_read("last_cmd_status", status, sizeof(status)));
		EXPECT_STRNE("ok", status);
	}
}

TEST(sysfs_overlong_and_readonly)
{
	static char big[6000];

	memset(big, '1', sizeof(big));
	snapshot(before);
	EXPECT_EQ(-E2BIG, mmc_write_len("root_colors", big, sizeof(big)));
	EXPECT_EQ(-EACCES, mmc_write("nr_colors", "8"));
	EXPECT_EQ(-EACCES, mmc_write("free_pages", "0"));
	EXPECT_EQ(-EACCES, mmc_write("free/0", "0"));
	snapshot(after);
	for (unsigned int j = 0; j < NR_STATE; j++)
		EXPECT_STREQ(before[j], after[j]);
}

/* Shrinking below what mappings hold is refused, all or nothing. */
TEST(shrink_busy)
{
	unsigned long pool = mmc_read_ul("pool_pages");
	size_t len = pool / 2 * PAGE;
	char all[32];
	int fd;
	char *p;

	snprintf(all, sizeof(all), "0-%u", mmc_nr_colors() - 1);
	fd = mmc_open_list(all);

	ASSERT_LE(0, fd);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	mmc_fill(p, len, 1);
	snapshot(before);
	EXPECT_EQ(-EBUSY, mmc_write("pool_mb", "0"));
	snapshot(after);
	for (unsigned int j = 0; j < NR_STATE; j++)
		EXPECT_STREQ(before[j], after[j]);
	munmap(p, len);
	close(fd);
	EXPECT_EQ(pool, mmc_read_ul("pool_pages"));
}

struct bad_ioctl {
	const char *what;
	unsigned long cmd;
	struct mm_color_list list;
	struct mm_color_bitmap bitmap;
	int err;
};

static uint64_t words[MM_COLOR_MAX_COLORS / 64 + 1];
static char longlist[MM_COLOR_LIST_MAX + 16];

TEST(ioctls_rejected)
{
	uint64_t mask0[MM_COLOR_MAX_COLORS / 64] = { 0 }, mask1[MM_COLOR_MAX_COLORS / 64];
	unsigned int nr = mmc_nr_colors();
	char beyond[32], at_limit[32];
	struct mm_color_bitmap get;
	unsigned int i;
	int fd;

	snprintf(beyond, sizeof(beyond), "0,%u", nr);
	snprintf(at_limit, sizeof(at_limit), "5000");
	memset(longlist, '1', sizeof(longlist));
	{
		const struct bad_ioctl cases[] = {
			{ "list len 0", MM_COLOR_SET_LIST,
			  .list = { (uintptr_t)"0", 0, 0 }, .err = EINVAL },
			{ "list overlong", MM_COLOR_SET_LIST,
			  .list = { (uintptr_t)longlist, MM_COLOR_LIST_MAX + 1, 0 },
			  .err = E2BIG },
			{ "list flags", MM_COLOR_SET_LIST,
			  .list = { (uintptr_t)"0", 1, 1 }, .err = EINVAL },
			{ "list bad pointer", MM_COLOR_SET_LIST,
			  .list = { 8, 1, 0 }, .err = EFAULT },
			{ "list garbage", MM_COLOR_SET_LIST,
			  .list = { (uintptr_t)"0-3x", 4, 0 }, .err = EINVAL },
			{ "list empty range", MM_COLOR_SET_LIST,
			  .list = { (uintptr_t)"3-1", 3, 0 }, .err = EINVAL },
			{ "list beyond max", MM_COLOR_SET_LIST,
			  .list = { (uintptr_t)at_limit, 4, 0 }, .err = ERANGE },
			{ "list beyond nr_colors", MM_COLOR_SET_LIST,
			  .list = { (uintptr_t)beyond, strlen(beyond), 0 }, .err = ERANGE },
			{ "bitmap nbits 0", MM_COLOR_SET_BITMAP,
			  .bitmap = { (uintptr_t)words, 0, 0 }, .err = EINVAL },
			{ "bitmap nbits too big", MM_COLOR_SET_BITMAP,
			  .bitmap = { (uintptr_t)words, MM_COLOR_MAX_COLORS + 1, 0 },
			  .err = EINVAL },
			{ "bitmap flags", MM_COLOR_SET_BITMAP,
			  .bitmap = { (uintptr_t)words, 64, 2 }, .err = EINVAL },
			{ "bitmap bad pointer", MM_COLOR_SET_BITMAP,
			  .bitmap = { 8, 64, 0 }, .err = EFAULT },
			{ "bitmap empty", MM_COLOR_SET_BITMAP,
			  .bitmap = { (uintptr_t)mask0, 64, 0 }, .err = EINVAL },
			{ "bitmap bit past nbits", MM_COLOR_SET_BITMAP,
			  .bitmap = { (uintptr_t)words, 3, 0 }, .err = EINVAL },
			{ "bitmap color past nr_colors", MM_COLOR_SET_BITMAP,
			  .bitmap = { (uintptr_t)mask1, MM_COLOR_MAX_COLORS, 0 },
			  .err = ERANGE },
		};

		fd = mmc_open_list("1");
		ASSERT_LE(0, fd);
		words[0] = 0x8;				/* bit 3 */
		memset(mask1, 0, sizeof(mask1));
		mask1[(MM_COLOR_MAX_COLORS - 1) / 64] = 1ULL << 63;
		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			const struct bad_ioctl *k = &cases[i];
			uint64_t back[MM_COLOR_MAX_COLORS / 64] = { 0 };
			const void *arg = k->cmd == MM_COLOR_SET_LIST ?
					  (const void *)&k->list : (const void *)&k->bitmap;

			EXPECT_EQ(-1, ioctl(fd, k->cmd, arg)) TH_LOG("%s", k->what);
			EXPECT_EQ(k->err, errno) TH_LOG("%s", k->what);
			get = (struct mm_color_bitmap){ (uintptr_t)back, MM_COLOR_MAX_COLORS, 0 };
			ASSERT_EQ(0, ioctl(fd, MM_COLOR_GET_BITMAP, &get));
			EXPECT_EQ(0x2, back[0]) TH_LOG("mask changed by %s", k->what);
		}
	}
	EXPECT_EQ(-1, ioctl(fd, _IO(MM_COLOR_IOC_MAGIC, 99), 0));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IOW(MM_COLOR_IOC_MAGIC, 1, char[3]), "abc"));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);

	fd = open(MMC_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	get = (struct mm_color_bitmap){ (uintptr_t)words, 64, 0 };
	EXPECT_EQ(-1, ioctl(fd, MM_COLOR_GET_BITMAP, &get));
	EXPECT_EQ(ENODATA, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/*
 * The ioctl numbers of colorguard 0.1.0 (type 0xCC) still work, as
 * aliases of the current ones (type 0xC9) until 0.3.0; other numbers of
 * either type do not.
 */
TEST(ioctl_numbers)
{
	static const char list[] = "0,2";
	struct mm_color_list l = { (uintptr_t)list, sizeof(list) - 1, 0 };
	struct mm_color_info info_new, info_old;
	uint64_t words[MM_COLOR_MAX_COLORS / 64] = { 0 };
	struct mm_color_bitmap get = { (uintptr_t)words, MM_COLOR_MAX_COLORS, 0 };
	uint64_t one = 0x2;
	struct mm_color_bitmap set = { (uintptr_t)&one, 64, 0 };
	int fd = open(MMC_DEV, O_RDWR);

	ASSERT_LE(0, fd);
	EXPECT_EQ(0xC9, _IOC_TYPE(MM_COLOR_SET_LIST));
	EXPECT_EQ(0, ioctl(fd, MM_COLOR_SET_LIST_V0, &l));
	EXPECT_EQ(0, ioctl(fd, MM_COLOR_GET_BITMAP, &get));
	EXPECT_EQ(0x5, words[0]);
	EXPECT_EQ(0, ioctl(fd, MM_COLOR_SET_BITMAP_V0, &set));
	memset(words, 0, sizeof(words));
	EXPECT_EQ(0, ioctl(fd, MM_COLOR_GET_BITMAP_V0, &get));
	EXPECT_EQ(0x2, words[0]);
	EXPECT_EQ(0, ioctl(fd, MM_COLOR_SET_LIST, &l));
	memset(words, 0, sizeof(words));
	EXPECT_EQ(0, ioctl(fd, MM_COLOR_GET_BITMAP, &get));
	EXPECT_EQ(0x5, words[0]);
	memset(&info_new, 0xff, sizeof(info_new));
	memset(&info_old, 0xff, sizeof(info_old));
	EXPECT_EQ(0, ioctl(fd, MM_COLOR_GET_INFO, &info_new));
	EXPECT_EQ(0, ioctl(fd, MM_COLOR_GET_INFO_V0, &info_old));
	EXPECT_EQ(0, memcmp(&info_new, &info_old, sizeof(info_new)));
	EXPECT_EQ(2, info_new.mask_weight);
	EXPECT_EQ(-1, ioctl(fd, _IOR(MM_COLOR_IOC_MAGIC_V0, 5, struct mm_color_info),
			    &info_old));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IOR(MM_COLOR_IOC_MAGIC, 5, struct mm_color_info),
			    &info_old));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

/* Run @fn as uid/gid 65534 (with @gid as supplementary group if >= 0). */
static int as_nobody(int gid, int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		gid_t g = gid;

		if (setgroups(gid >= 0 ? 1 : 0, &g) || setgid(65534) || setuid(65534))
			_exit(100);
		_exit(fn());
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int open_errno(void)
{
	int fd = open(MMC_DEV, O_RDWR);

	if (fd >= 0)
		return 0;
	return errno;
}

static int write_errno(void)
{
	int a = -mmc_write("root_colors", "0");
	int b = -mmc_write("pool_mb", "0");
	int c = -mmc_write("way_size", "8192");

	return a == EACCES && b == EACCES && c == EACCES ? 0 : 1;
}

TEST(non_root)
{
	long group = mmc_dev_group();

	snapshot(before);
	EXPECT_EQ(EACCES, as_nobody(-1, open_errno));
	EXPECT_EQ(0, as_nobody(-1, write_errno));
	if (group >= 0) {
		EXPECT_EQ(0, as_nobody(group, open_errno));
		EXPECT_EQ(EACCES, as_nobody(group + 1, open_errno));
	} else {
		EXPECT_EQ(EACCES, as_nobody(1234, open_errno));
	}
	snapshot(after);
	for (unsigned int j = 0; j < NR_STATE; j++)
		EXPECT_STREQ(before[j], after[j]);
}

TEST_HARNESS_MAIN
