// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the cell runner's console (cells/runner/console.c) and
 * of the escaping of an inmate's text (guest_text.c), on a VM built by
 * hand: no KVM. The rate limit's window is real time; the tests write
 * their bursts well within a second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm_int.h"
#include "kselftest_harness.h"

static void feed(struct cell_vcpu *v, const char *s)
{
	while (*s)
		cell_console_byte(v, *s++);
}

static long size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

static unsigned int count_lines(const char *path, const char *prefix)
{
	char line[2048];
	unsigned int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n += !strncmp(line, prefix, strlen(prefix));
	fclose(f);
	return n;
}

FIXTURE(console) {
	char dir[64], log[96], old[100];
	struct cell_vm *vm;
	struct cell_vcpu *v;
};

FIXTURE_SETUP(console)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/cg-console-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->log, sizeof(self->log), "%s/log", self->dir);
	snprintf(self->old, sizeof(self->old), "%s/log.1", self->dir);
	self->vm = calloc(1, sizeof(*self->vm));
	ASSERT_NE(NULL, self->vm);
	snprintf(self->vm->name, sizeof(self->vm->name), "rt");
	pthread_mutex_init(&self->vm->lock, NULL);
	self->vm->console = fopen(self->log, "a");
	ASSERT_NE(NULL, self->vm->console);
	self->v = &self->vm->vcpus[0];
	self->v->vm = self->vm;
	self->vm->nr_vcpus = 1;
}

FIXTURE_TEARDOWN(console)
{
	fclose(self->vm->console);
	pthread_mutex_destroy(&self->vm->lock);
	free(self->vm);
	unlink(self->log);
	unlink(self->old);
	rmdir(self->dir);
}

/* A burst of 1000 lines: 100 shown, the rest counted and said at the end. */
TEST_F(console, rate_limit)
{
	char want[128];
	unsigned int i;

	for (i = 0; i < 1000; i++)
		feed(self->v, "flood\n");
	cell_console_end(self->vm);
	EXPECT_EQ(CELL_CONSOLE_LINES_PER_S, count_lines(self->log, "[rt] flood"));
	snprintf(want, sizeof(want),
		 "cell rt: console: 900 lines dropped (more than %u lines a second)",
		 CELL_CONSOLE_LINES_PER_S);
	EXPECT_EQ(1, count_lines(self->log, want));
	EXPECT_EQ(900, self->vm->con.dropped_total);
}

/* Escape sequences, a NUL-free line longer than the buffer, backslashes. */
TEST_F(console, escaped)
{
	char line[2048];
	FILE *f;

	feed(self->v, "\033[2Jred\\ \001\r\n");
	cell_console_end(self->vm);
	f = fopen(self->log, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	fclose(f);
	EXPECT_STREQ("[rt] \\x1b[2Jred\\\\ \\x01\n", line);
}

/* Past CELL_CONSOLE_LOG_MAX the log moves to log.1 and a new one starts. */
TEST_F(console, rotation)
{
	char text[200];
	unsigned int i;

	snprintf(self->vm->con.log_path, sizeof(self->vm->con.log_path), "%s",
		 self->log);
	memset(text, 'x', sizeof(text) - 2);
	text[sizeof(text) - 2] = '\n';
	text[sizeof(text) - 1] = '\0';
	for (i = 0; i < 3 * CELL_CONSOLE_LOG_MAX / 200; i++) {
		self->vm->con.window_lines = 0;	/* past the rate limit */
		feed(self->v, text);
	}
	cell_console_end(self->vm);
	EXPECT_LT(0, size_of(self->old));
	EXPECT_GE(CELL_CONSOLE_LOG_MAX + 512, size_of(self->old));
	EXPECT_GE(CELL_CONSOLE_LOG_MAX + 512, size_of(self->log));
	EXPECT_LE(1, count_lines(self->log, "cell rt: console: log rotated"));
}

/* console_output = false: nothing at all, not even a dropped note. */
TEST_F(console, off)
{
	unsigned int i;

	self->vm->con.off = true;
	for (i = 0; i < 500; i++)
		feed(self->v, "quiet\n");
	cell_console_end(self->vm);
	EXPECT_EQ(0, size_of(self->log));
	EXPECT_EQ(500, self->vm->con.lines);
}

TEST(escape_truncates_whole_escapes)
{
	char out[8];

	/* "ab" then \x1b needs 4 more: it does not fit in 8 with the NUL */
	EXPECT_EQ(6, cell_text_escape(out, sizeof(out), "ab\033\033", 4));
	EXPECT_STREQ("ab\\x1b", out);
	EXPECT_EQ(2, cell_text_escape(out, sizeof(out), "ab\0cd", 5));
	EXPECT_EQ(0, cell_text_escape(out, 1, "abc", 3));
	EXPECT_STREQ("", out);
}

TEST_HARNESS_MAIN
