// SPDX-License-Identifier: GPL-2.0
/*
 * root_colors: after narrowing, a fresh anonymous allocation of an
 * ordinary process lands (>= 99%) on root colors; quarantined pages serve
 * colored mappings of the other colors; widening gives them back.
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "kselftest_harness.h"

/* TCG on arm64 runs these about ten times slower than x86. */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300
#include "mmc_util.h"

/*
 * Root Linux keeps half the colors and a 64 MB allocation is measured;
 * under KASAN, which runs the same paths many times slower, it gives up
 * one color and 16 MB are measured.
 */
#define ANON_LEN	(debug_kernel() ? 16UL << 20 : 64UL << 20)

static unsigned int nr_root_colors(unsigned int nr)
{
	return debug_kernel() ? nr - 1 : nr / 2;
}

/* In a child: share of pages of a fresh anonymous mapping in @mask, per mille. */
static long anon_root_permille(const struct hvc_geometry *geo,
			       const struct hvc_mask *mask)
{
	int pipefd[2], status;
	long permille = -1;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		char *p = mmap(NULL, ANON_LEN, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		unsigned long bad;
		long pm;

		if (p == MAP_FAILED)
			_exit(1);
		/* No THP: colors are a per-4K property here. */
		madvise(p, ANON_LEN, MADV_NOHUGEPAGE);
		mmc_fill(p, ANON_LEN, 1);
		bad = mmc_bad_pages(geo, mask, p, ANON_LEN);
		pm = 1000 - (long)(bad * 1000 / (ANON_LEN / PAGE));
		if (write(pipefd[1], &pm, sizeof(pm)) != sizeof(pm))
			_exit(2);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || status)
		return -1;
	if (read(pipefd[0], &permille, sizeof(permille)) != sizeof(permille))
		return -1;
	close(pipefd[0]);
	close(pipefd[1]);
	return permille;
}

TEST(narrow_then_widen)
{
	struct hvc_geometry geo;
	struct hvc_mask root, all;
	char list[64], all_list[64], back[64];
	unsigned long memfree0, memfree1, slab0, quarantined, foreign;
	unsigned int nr, c;
	long before, after;

	ASSERT_EQ(0, mmc_geometry(&geo));
	nr = mmc_nr_colors();
	ASSERT_EQ(0, mmc_read("root_colors", all_list, sizeof(all_list)));
	hvc_mask_zero(&root);
	hvc_mask_zero(&all);
	for (c = 0; c < nr; c++) {
		hvc_mask_set(&all, c);
		if (c < nr_root_colors(nr))
			hvc_mask_set(&root, c);
	}
	hvc_mask_format(&root, list, sizeof(list));
	EXPECT_EQ(0, mmc_read_ul("quarantined_pages"));
	EXPECT_EQ(0, mmc_read_ul("foreign_in_use_pages"));
	before = anon_root_permille(&geo, &root);
	TH_LOG("before narrowing: %ld per mille of fresh anonymous pages in %s",
	       before, list);
	/* MemFree is only shown (see below), and not at all under KASAN. */
	memfree0 = debug_kernel() ? 0 : memfree_settled_kb();
	slab0 = meminfo_kb("Slab");

	ASSERT_EQ(0, mmc_write("root_colors", list));
	ASSERT_EQ(0, mmc_read("root_colors", back, sizeof(back)));
	EXPECT_STREQ(list, back);
	quarantined = mmc_read_ul("quarantined_pages");
	foreign = mmc_read_ul("foreign_in_use_pages");
	TH_LOG("quarantined %lu pages, foreign still in Linux's hands %lu",
	       quarantined, foreign);
	EXPECT_LT(0, quarantined);
	after = anon_root_permille(&geo, &root);
	TH_LOG("after narrowing: %ld per mille in root colors", after);
	EXPECT_LE(990, after);

	/* Quarantined pages serve a mapping of a non-root color. */
	{
		struct hvc_mask m;
		size_t len = 4 << 20;
		char one[16];
		int fd;
		char *p;

		hvc_mask_zero(&m);
		hvc_mask_set(&m, nr - 1);
		snprintf(one, sizeof(one), "%u", nr - 1);
		fd = mmc_open_list(one);
		ASSERT_LE(0, fd);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		ASSERT_NE(MAP_FAILED, p);
		mmc_fill(p, len, 3);
		EXPECT_EQ(0, mmc_bad_pages(&geo, &m, p, len));
		/* Widening while mapped: those pages go back when unmapped. */
		ASSERT_EQ(0, mmc_write("root_colors", all_list));
		EXPECT_GE(len / PAGE, mmc_read_ul("quarantined_pages"));
		EXPECT_EQ(0, mmc_check(p, len, 3));
		munmap(p, len);
		close(fd);
	}
	EXPECT_EQ(0, mmc_read_ul("quarantined_pages"));
	EXPECT_EQ(0, mmc_read_ul("foreign_in_use_pages"));
	memfree1 = debug_kernel() ? 0 : memfree_settled_kb();
	TH_LOG("MemFree %lu kB before narrowing, %lu kB after widening (Slab %lu kB, %lu kB)",
	       memfree0, memfree1, slab0, meminfo_kb("Slab"));
	/*
	 * KASAN keeps freed slab objects in a quarantine of up to 1/32 of
	 * memory: there MemFree says nothing, kmemleak checks for leaks.
	 */
	/*
	 * Every quarantined page is back (checked above). MemFree is only
	 * shown: on x86_64 it comes back 2-4% short after a drain, not in
	 * slab, and is whole again after unload (the suite's load cycles).
	 */
}

TEST(rewrite_drains_again)
{
	unsigned int nr = mmc_nr_colors();
	char list[32], all_list[64];
	unsigned long q1, q2;

	ASSERT_EQ(0, mmc_read("root_colors", all_list, sizeof(all_list)));
	snprintf(list, sizeof(list), "0-%u", nr_root_colors(nr) - 1);
	ASSERT_EQ(0, mmc_write("root_colors", list));
	q1 = mmc_read_ul("quarantined_pages");
	/* Freed memory of other colors reappears; a rewrite collects it. */
	system("stress-ng --vm 1 --vm-bytes 32M --vm-ops 64 --quiet");
	ASSERT_EQ(0, mmc_write("root_colors", list));
	q2 = mmc_read_ul("quarantined_pages");
	TH_LOG("quarantined %lu, after a stress-ng run and a rewrite %lu", q1, q2);
	EXPECT_LT(0, q1);
	EXPECT_LE(q1 * 9 / 10, q2);
	ASSERT_EQ(0, mmc_write("root_colors", all_list));
	EXPECT_EQ(0, mmc_read_ul("quarantined_pages"));
}

TEST_HARNESS_MAIN
