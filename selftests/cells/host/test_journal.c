// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the claim journal (cells/runner/cell_host_journal.c) and
 * of compare-and-restore (host_give_back() in cell_host_io.c): no root,
 * nothing of the machine's state is written. Two cells claimed and
 * released in either order on a four-CPU machine; journals that are
 * cut, corrupt or random are refused with one line, never crash; a
 * journal that cannot be written stops the step.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cell_host_int.h"
#include "kselftest_harness.h"

static struct hvc_mask list(const char *s)
{
	struct hvc_mask m;

	hvc_mask_zero(&m);
	if (host_parse_jlist(s, &m))
		abort();
	return m;
}

/* What a claim of cell writes for an IRQ on old (cell_host_irq.c). */
static struct hvc_mask claim(const struct hvc_mask *old,
			     const struct hvc_mask *root)
{
	struct hvc_mask m;

	hvc_mask_and(&m, old, root);
	if (hvc_mask_empty(&m))
		hvc_mask_copy(&m, root);
	return m;
}

static void minus(struct hvc_mask *m, const struct hvc_mask *cpus)
{
	unsigned int i;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		m->bits[i] &= ~cpus->bits[i];
}

TEST(give_back_restores_only_its_own_value)
{
	struct hvc_mask old = list("0-3"), new = list("0,2-3"),
		cell = list("1"), out;

	ASSERT_EQ(HOST_GB_RESTORE, host_give_back(&old, &new, &new, &cell, &out));
	ASSERT_TRUE(hvc_mask_equal(&out, &old));
	ASSERT_EQ(HOST_GB_NOTHING, host_give_back(&old, &new, &old, &cell, &out));
	/* `colorguard apply` or an admin set 3 since: only CPU 1 back. */
	{
		struct hvc_mask cur = list("3"), want = list("1,3");

		ASSERT_EQ(HOST_GB_CONFLICT,
			  host_give_back(&old, &new, &cur, &cell, &out));
		ASSERT_TRUE(hvc_mask_equal(&out, &want));
	}
}

/*
 * Cells A (CPU 1) and B (CPU 2) on CPUs 0-3, every IRQ mask over them:
 * whichever is released first, no IRQ lands on the other cell's CPUs
 * while it lives, and after both every mask is as it was.
 */
TEST(two_cells_released_in_either_order)
{
	struct hvc_mask a = list("1"), b = list("2"), all = list("0-3");
	unsigned int v, order, bad = 0, changed = 0;

	for (v = 1; v < 16; v++) {
		for (order = 0; order < 2; order++) {
			struct hvc_mask x, a_old, a_new, b_old, b_new, root, out;
			bool a_took, b_took;
			unsigned int c;

			hvc_mask_zero(&x);
			for (c = 0; c < 4; c++)
				if (v & (1u << c))
					hvc_mask_set(&x, c);
			/* A claims, then B: each moves x off its CPUs. */
			root = all;
			minus(&root, &a);
			a_old = x;
			a_took = hvc_mask_intersects(&x, &a);
			if (a_took)
				x = claim(&x, &root);
			a_new = x;
			minus(&root, &b);
			b_old = x;
			b_took = hvc_mask_intersects(&x, &b);
			if (b_took)
				x = claim(&x, &root);
			b_new = x;
			/* A journal has a line only for what its claim moved. */
			if (order == 0) {	/* A first, B still there */
				if (a_took)
					host_give_back(&a_old, &a_new, &x, &a, &x);
				bad += hvc_mask_intersects(&x, &b);
				if (b_took)
					host_give_back(&b_old, &b_new, &x, &b, &x);
			} else {		/* B first, A still there */
				if (b_took)
					host_give_back(&b_old, &b_new, &x, &b, &x);
				bad += hvc_mask_intersects(&x, &a);
				if (a_took)
					host_give_back(&a_old, &a_new, &x, &a, &x);
			}
			out = x;
			/*
			 * A mask on a root CPU comes back as it was; one on
			 * the cells' CPUs alone may end wider (each claim sent
			 * it to all of root's CPUs).
			 */
			if (v & 1 || v & 8)
				changed += !hvc_mask_equal(&out, &a_old);
		}
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, changed);
}

FIXTURE(journal) {
	char dir[64], path[96];
	struct cell_host *h;
	char why[256];
};

FIXTURE_SETUP(journal)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/cg-journal-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/journal", self->dir);
	self->h = calloc(1, sizeof(*self->h));
	ASSERT_NE(NULL, self->h);
	self->h->journal_fd = -1;
	snprintf(self->h->name, sizeof(self->h->name), "cg-test-%d", getpid());
	self->h->cpus = list("2-3");
}

FIXTURE_TEARDOWN(journal)
{
	host_journal_close(self->h, true);
	free(self->h->steps);
	free(self->h);
	rmdir(self->dir);
}

static struct cell_host *fresh(void)
{
	struct cell_host *h = calloc(1, sizeof(*h));

	if (h)
		h->journal_fd = -1;
	return h;
}

static void drop(struct cell_host *h)
{
	host_journal_close(h, false);
	free(h->steps);
	free(h);
}

static void put(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		abort();
	close(fd);
}

TEST_F(journal, lines_read_back_as_written)
{
	struct cell_host *r;

	ASSERT_EQ(0, host_journal_create(self->h, self->path));
	/* Existing journal: a claim not given back, never overwritten. */
	ASSERT_EQ(-EEXIST, host_journal_create(self->h, self->path));
	ASSERT_EQ(0, host_journal_add(self->h, self->why, sizeof(self->why),
				      "pin 123 456 0,2 0"));
	ASSERT_EQ(0, host_journal_add(self->h, NULL, 0, "partition 2-3"));
	ASSERT_EQ(0, host_journal_add(self->h, NULL, 0, "irqdefault f 3"));
	ASSERT_EQ(0, host_journal_add(self->h, NULL, 0, "irq 23 0-3 0-1"));
	ASSERT_EQ(0, host_journal_add(self->h, NULL, 0,
				      "memguard 2 read_budget events:12345 100"));
	ASSERT_EQ(0, host_journal_add(self->h, NULL, 0, "claimed"));
	ASSERT_EQ(0, host_journal_add(self->h, NULL, 0, "undone 4"));
	/* What cannot be read back is not written. */
	ASSERT_EQ(-EINVAL, host_journal_add(self->h, self->why,
					    sizeof(self->why), "irq 24 0-3 x"));
	ASSERT_NE(NULL, strstr(self->why, "cannot hold"));
	ASSERT_EQ(-EINVAL, host_journal_add(self->h, NULL, 0, "undone 4"));
	ASSERT_EQ(5, self->h->nr_steps);
	ASSERT_EQ(7, self->h->last_seq);

	r = fresh();
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, host_journal_load(r, self->path, self->why,
				       sizeof(self->why)));
	EXPECT_STREQ(self->h->name, r->name);
	EXPECT_TRUE(hvc_mask_equal(&r->cpus, &self->h->cpus));
	ASSERT_EQ(5, r->nr_steps);
	EXPECT_EQ(7, r->last_seq);
	EXPECT_EQ(&host_kind_pin, r->steps[0].kind);
	EXPECT_EQ(123, r->steps[0].pin.task.tid);
	EXPECT_EQ(456, r->steps[0].pin.task.start);
	EXPECT_EQ(&host_kind_irqdefault, r->steps[2].kind);
	EXPECT_EQ(&host_kind_irq, r->steps[3].kind);
	EXPECT_EQ(23, r->steps[3].irq.irq);
	EXPECT_TRUE(r->steps[3].undone);
	EXPECT_FALSE(r->steps[2].undone);
	EXPECT_STREQ("events:12345", r->steps[4].mg.old);
	EXPECT_STREQ("read_budget", r->steps[4].mg.file);
	drop(r);
}

TEST_F(journal, a_cut_last_line_was_never_taken)
{
	static const char text[] = "colorguard-journal 1 rt 1\n1 partition 1\n"
		"2 irq 5 0-1 0\n3 irq 6 0-";
	struct cell_host *r = fresh();
	struct stat st;

	put(self->path, text, sizeof(text) - 1);
	ASSERT_EQ(0, host_journal_load(r, self->path, self->why,
				       sizeof(self->why)));
	EXPECT_EQ(2, r->nr_steps);
	/* Cut off, so the next line does not glue to it. */
	ASSERT_EQ(0, stat(self->path, &st));
	EXPECT_EQ(sizeof(text) - 1 - strlen("3 irq 6 0-"), (size_t)st.st_size);
	ASSERT_EQ(0, host_journal_add(r, NULL, 0, "undone 2"));
	drop(r);
	r = fresh();
	ASSERT_EQ(0, host_journal_load(r, self->path, self->why,
				       sizeof(self->why)));
	EXPECT_TRUE(r->steps[1].undone);
	drop(r);
	unlink(self->path);
}

/* Each: refused with "PATH:LINE: ...", one line, nothing parsed used. */
TEST_F(journal, corrupt_journals_are_refused_with_one_line)
{
	static const char *const bad[] = {
		"",
		"colorguard-journal 2 rt 1\n",
		"colorguard-journal 1 ../x 1\n",
		"colorguard-journal 1 rt \n",
		"colorguard-journal 1 rt 1\n2 partition 1\n",
		"colorguard-journal 1 rt 1\n1 partition 1\n1 claimed\n",
		"colorguard-journal 1 rt 1\n01 partition 1\n",
		"colorguard-journal 1 rt 1\n1 partition 1 2\n",
		"colorguard-journal 1 rt 1\n1 partition  1\n",
		"colorguard-journal 1 rt 1\n1 partition 1 \n",
		"colorguard-journal 1 rt 1\n1 partition 1\r\n",
		"colorguard-journal 1 rt 1\n1 partition -\n",
		"colorguard-journal 1 rt 1\n1 bogus 1\n",
		"colorguard-journal 1 rt 1\n1 irq x 0 1\n",
		"colorguard-journal 1 rt 1\n1 irq 4 0-99999 1\n",
		"colorguard-journal 1 rt 1\n1 irqdefault zz 1\n",
		"colorguard-journal 1 rt 1\n1 memguard 1 ../../x 0 1\n",
		"colorguard-journal 1 rt 1\n1 memguard 1 critical 0 $(reboot)\n",
		"colorguard-journal 1 rt 1\n1 memguard 4096 critical 0 1\n",
		"colorguard-journal 1 rt 1\n1 pin 0 1 1 -\n",
		"colorguard-journal 1 rt 1\n1 pin 5 x 1 -\n",
		"colorguard-journal 1 rt 1\n1 pin 5 1 - -\n",
		"colorguard-journal 1 rt 1\n1 undone 1\n",
		"colorguard-journal 1 rt 1\n1 partition 1\n2 undone 1\n3 undone 1\n",
		"colorguard-journal 1 rt 1\n1 partition 1\n2 undone 7\n",
		"colorguard-journal 1 rt 1\n1 claimed\n2 undone 1\n",
		"colorguard-journal 1 rt 1\n1 controller memory\n",
		"colorguard-journal 1 rt 1\n1 partition \xc3\xa9\n",
		"colorguard-journal 1 rt 1\n99999999999 claimed\n",
		"colorguard-journal 1 rt 1\n1 enter\n",
		"colorguard-journal 1 rt 1\n1 enter x\n",
		"colorguard-journal 1 rt 1\n1 enter /a/../../etc\n",
		"colorguard-journal 1 rt 1\n1 enter /a//b\n",
		"colorguard-journal 1 rt 1\n1 enter /a /b\n",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct cell_host *r = fresh();
		int ret;

		put(self->path, bad[i], strlen(bad[i]));
		self->why[0] = '\0';
		ret = host_journal_load(r, self->path, self->why,
					sizeof(self->why));
		EXPECT_EQ(-EINVAL, ret) TH_LOG("case %u: %s", i, bad[i]);
		EXPECT_EQ(0, strncmp(self->why, self->path, strlen(self->path)))
			TH_LOG("case %u: %s", i, self->why);
		EXPECT_EQ(NULL, strchr(self->why, '\n'));
		drop(r);
	}
	/* A NUL inside, and a file that is no journal at all. */
	{
		struct cell_host *r = fresh();

		put(self->path, "colorguard-journal 1 rt 1\n1 clai\0med\n", 37);
		EXPECT_EQ(-EINVAL, host_journal_load(r, self->path, self->why,
						     sizeof(self->why)));
		drop(r);
		r = fresh();
		EXPECT_EQ(-EFBIG, host_journal_load(r, self->dir, self->why,
						    sizeof(self->why)));
		EXPECT_NE(NULL, strstr(self->why, "not a journal"));
		drop(r);
	}
	unlink(self->path);
}

/* Random changes to a good journal: refused or read, never a crash. */
TEST_F(journal, random_garbage_never_crashes)
{
	static const char good[] =
		"colorguard-journal 1 rt 1-2\n1 pin 77 99 1-3 3\n2 mount\n"
		"3 controller cpuset\n4 partition 1-2\n5 irqdefault f 9\n"
		"6 irq 3 0-3 0,3\n7 memguard 1 critical 0 1\n8 claimed\n"
		"9 undone 7\n10 enter /system.slice/x.service\n";
	char buf[sizeof(good)];
	unsigned int i, ok = 0;

	srand(7);
	for (i = 0; i < 3000; i++) {
		struct cell_host *r = fresh();
		unsigned int k, n = 1 + rand() % 4;

		memcpy(buf, good, sizeof(good));
		for (k = 0; k < n; k++)
			buf[rand() % (sizeof(good) - 1)] = (char)(rand() % 256);
		put(self->path, buf, sizeof(good) - 1 - rand() % 8);
		if (!host_journal_load(r, self->path, self->why,
				       sizeof(self->why)))
			ok++;
		else
			ASSERT_EQ(NULL, strchr(self->why, '\n'));
		drop(r);
	}
	TH_LOG("%u of 3000 mutated journals still parse", ok);
	unlink(self->path);
}

TEST_F(journal, a_journal_that_cannot_be_written_stops_the_step)
{
	ASSERT_EQ(0, host_journal_create(self->h, self->path));
	close(self->h->journal_fd);
	self->h->journal_fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, self->h->journal_fd);
	ASSERT_EQ(-ENOSPC, host_journal_add(self->h, self->why,
					    sizeof(self->why), "partition 2-3"));
	EXPECT_NE(NULL, strstr(self->why, "cannot write the claim's journal"));
	EXPECT_EQ(0, self->h->nr_steps);
	EXPECT_EQ(0, self->h->last_seq);
}

/*
 * A replay of steps that find nothing to give back (an IRQ and a task
 * that do not exist, a partition never made): each marked "undone", and
 * a second replay has nothing left to do.
 */
TEST_F(journal, replay_marks_each_step_undone_once)
{
	struct cell_host *r;

	ASSERT_EQ(0, host_journal_create(self->h, self->path));
	ASSERT_EQ(0, host_journal_add(self->h, NULL, 0, "pin 2147483000 1 2 -"));
	ASSERT_EQ(0, host_journal_add(self->h, NULL, 0, "partition 2-3"));
	ASSERT_EQ(0, host_journal_add(self->h, NULL, 0, "irq 999999 0-3 0-1"));
	ASSERT_EQ(0, host_journal_replay(self->h, self->why, sizeof(self->why)));
	EXPECT_EQ(6, self->h->last_seq);
	EXPECT_EQ(0, host_journal_replay(self->h, self->why, sizeof(self->why)));
	EXPECT_EQ(6, self->h->last_seq);
	r = fresh();
	ASSERT_EQ(0, host_journal_load(r, self->path, self->why,
				       sizeof(self->why)));
	EXPECT_TRUE(r->steps[0].undone && r->steps[1].undone &&
		    r->steps[2].undone);
	drop(r);
}

TEST_HARNESS_MAIN
