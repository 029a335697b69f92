// SPDX-License-Identifier: GPL-2.0
/*
 * corpus mm-color|memguard...: malformed writes to every writable sysfs
 * file of the module (and, for mm-color, every ioctl of /dev/mm-color),
 * one TAP point per interface. Each rejected write must fail with the
 * errno the ABI document gives (E2BIG too long, EINVAL malformed, ERANGE
 * out of range or overflowing), leave every readable file of the module
 * as it was and, for sysfs, put a reason into last_cmd_status. Each
 * interface also gets valid writes, which must pass, so that a module
 * refusing everything fails too.
 *
 * The corpus is generic inputs (page-long and longer writes, valid text
 * cut by the page limit, NUL bytes, several lines, white space only,
 * garbage, unicode, numbers in other notations) completed with the file's
 * valid value, plus per-kind inputs (negative, overflowing, out-of-range
 * numbers, reversed ranges, out-of-range colors and CPUs, boolean
 * look-alikes, bad budgets and events).
 *
 * A zero-length write never reaches a store (sysfs returns 0 before): it
 * is checked once per file to return 0 and change nothing.
 *
 * Expects the module loaded and quiet (see vm-run): mm-color with a
 * 16-color geometry and a non-empty pool, memguard with enable 0.
 * CORPUS_SKIP=name,name leaves interfaces out (to run the corpus against
 * an old module that a case would take down); CORPUS_VERBOSE=1 prints
 * every failing case, not only the first MAX_SHOWN per interface.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <colorguard/mm_color.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define MMC_DIR		"/sys/kernel/mm/color"
#define MG_DIR		"/sys/kernel/memguard"
#define MMC_DEV		"/dev/mm-color"
#define PAGE		4096
#define SNAP_MAX	(1 << 20)
#define SHORT_WRITE	(-1000)		/* write(2) took part of the bytes */
#define MAX_SHOWN	8		/* failing cases printed per interface */

enum kind {
	K_NUM,		/* one unsigned decimal number, min..max */
	K_LIST,		/* mm-color list syntax (root_colors) */
	K_BOOL,		/* exactly 0 or 1 */
	K_TRIGGER,	/* reset_stats: exactly 1 */
	K_EVENT,	/* memguard event name */
	K_BUDGET,	/* memguard per-CPU budget */
	K_BUDGETS,	/* memguard budgets file */
	K_CPULIST,	/* memguard critical */
	K_DEVICES,	/* mm-color devices: add NAME COLORS SIZE_MB | remove NAME */
};

struct iface {
	const char *file;	/* relative to the module's directory */
	enum kind kind;
	const char *base;	/* value restored between cases */
	const char *valid;	/* a valid write (may equal base) */
	int valid_err;		/* what the valid write returns (way_size: EBUSY) */
	unsigned long long min, max;
};

/* Written after each valid write of a file whose valid write adds something. */
static const char *undo_of(const struct iface *f)
{
	return f->kind == K_DEVICES ? "remove cgcorpus" : NULL;
}

struct kase {
	char *buf;
	size_t len;
	int err;
};

struct corpus {
	struct kase *c;
	unsigned int n, cap;
};

static const char *dir;		/* MMC_DIR or MG_DIR */
static unsigned int max_shown = MAX_SHOWN;
static int failed_points, point;
static char snap_buf[2][SNAP_MAX];
static char *snap_a = snap_buf[0], *snap_b = snap_buf[1];

static void add(struct corpus *k, const void *buf, size_t len, int err)
{
	/* Generic inputs built from a short value can repeat a specific one. */
	for (unsigned int i = 0; i < k->n; i++)
		if (k->c[i].len == len && !memcmp(k->c[i].buf, buf, len))
			return;
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 128;
		k->c = realloc(k->c, k->cap * sizeof(*k->c));
		if (!k->c)
			abort();
	}
	k->c[k->n].buf = malloc(len + 1);
	if (!k->c[k->n].buf)
		abort();
	memcpy(k->c[k->n].buf, buf, len);
	k->c[k->n].buf[len] = 0;
	k->c[k->n].len = len;
	k->c[k->n].err = err;
	k->n++;
}

static void adds(struct corpus *k, const char *s, int err)
{
	add(k, s, strlen(s), err);
}

/* printf-built case */
static void addf(struct corpus *k, int err, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	adds(k, buf, err);
}

/* @a then @b (both may hold NULs): the case @a followed by @b. */
static void add2(struct corpus *k, const char *a, size_t alen, const char *b,
		 size_t blen, int err)
{
	char *buf = malloc(alen + blen);

	if (!buf)
		abort();
	memcpy(buf, a, alen);
	memcpy(buf + alen, b, blen);
	add(k, buf, alen + blen, err);
	free(buf);
}

static void free_corpus(struct corpus *k)
{
	for (unsigned int i = 0; i < k->n; i++)
		free(k->c[i].buf);
	free(k->c);
	*k = (struct corpus){ 0 };
}

/*
 * The valid value stretched to @len bytes: numbers with leading zeros,
 * the rest with trailing spaces (which the old code took as well).
 */
static char *pad(const struct iface *f, size_t len)
{
	size_t vl = strlen(f->valid);
	char *buf = malloc(len + 1);

	if (!buf)
		abort();
	if (f->kind == K_NUM) {
		memset(buf, '0', len - vl);
		memcpy(buf + len - vl, f->valid, vl);
	} else {
		memcpy(buf, f->valid, vl);
		memset(buf + vl, ' ', len - vl);
	}
	buf[len] = 0;
	return buf;
}

/* Kinds where white space around the value is allowed (token lists). */
static int space_ok(enum kind kind)
{
	return kind == K_LIST || kind == K_BUDGETS || kind == K_CPULIST ||
	       kind == K_DEVICES;
}

/* Kinds whose valid value pad() stretches to 4095 valid bytes. */
static int long_ok(enum kind kind)
{
	return kind == K_NUM || space_ok(kind);
}

static void fill(struct corpus *k, size_t len, char c, int err)
{
	char *buf = malloc(len);

	if (!buf)
		abort();
	memset(buf, c, len);
	add(k, buf, len, err);
	free(buf);
}

/* Inputs malformed for every sysfs file; @v is the file's valid value. */
static void generic(struct corpus *k, const struct iface *f)
{
	static const char *const junk[] = {
		/* unicode */
		"\xef\xbc\x91", "\xd9\xa3", "\xc2\xbd", "\xe2\x82\xac",
		"\xe2\x84\x95", "\xf0\x9f\x92\xa9", "\xef\xbf\xbd",
		/* other notations and words */
		"0x1", "1e3", "1.0", "nan", "inf", "null", "true", "yes", "on",
		"%s%n%x", "'1'", "\"1\"", "$(reboot)", "1;2", "{}", "*", "?",
		"\\n", "\x7f", "\x01", "\xff", "\x1b[0m",
	};
	const char *v = f->valid;
	size_t vl = strlen(v);
	char *p;

	/* A page or more: sysfs hands the store a page at most. */
	fill(k, PAGE, 'x', E2BIG);
	fill(k, PAGE, '0', E2BIG);
	fill(k, PAGE, ' ', E2BIG);
	fill(k, PAGE, '\n', E2BIG);
	fill(k, PAGE, '\0', E2BIG);
	fill(k, PAGE + 1, '1', E2BIG);
	/* Valid text cut by the page limit (the "000...012" case). */
	p = pad(f, PAGE);
	add2(k, p, PAGE, "2", 1, E2BIG);
	add2(k, p, PAGE, "\n", 1, E2BIG);
	add(k, p, PAGE, E2BIG);
	free(p);
	p = pad(f, PAGE - 1);
	add2(k, p, PAGE - 1, "\n", 1, E2BIG);
	free(p);
	p = pad(f, 2 * PAGE);
	add(k, p, 2 * PAGE, E2BIG);
	free(p);
	p = pad(f, 16 * PAGE);
	add(k, p, 16 * PAGE, E2BIG);
	free(p);
	p = pad(f, 256 * PAGE);
	add(k, p, 256 * PAGE, E2BIG);
	free(p);

	/* NUL bytes: the text before one must not be taken. */
	add(k, "\0", 1, EINVAL);
	add(k, "\0\n", 2, EINVAL);
	add2(k, v, vl, "\0", 1, EINVAL);
	add2(k, "\0", 1, v, vl, EINVAL);
	add2(k, v, vl, "\0 2", 3, EINVAL);
	add2(k, v, vl, "\n\0", 2, EINVAL);
	add(k, "1\0 2", 4, EINVAL);
	add(k, "0\0 1", 4, EINVAL);
	if (vl > 1) {
		add2(k, v, 1, "\0", 1, EINVAL);
		k->c[k->n - 1].buf[1] = 0;
		add2(k, v, vl, "", 0, 0);
		k->c[k->n - 1].buf[vl / 2] = 0;
		k->c[k->n - 1].err = EINVAL;
	}
	fill(k, 100, '\0', EINVAL);

	/* More than one line. */
	add2(k, v, vl, "\n\n", 2, EINVAL);
	add2(k, v, vl, "\n ", 2, EINVAL);
	add2(k, "\n", 1, v, vl, EINVAL);
	p = malloc(2 * vl + 1);
	if (!p)
		abort();
	sprintf(p, "%s\n%s", v, v);
	adds(k, p, EINVAL);
	free(p);

	/* White space only. */
	adds(k, " ", EINVAL);
	adds(k, "\t", EINVAL);
	adds(k, "  \n", EINVAL);
	adds(k, "\t\n", EINVAL);
	adds(k, " \t \n", EINVAL);
	adds(k, "\v", EINVAL);

	/* Garbage around the valid value. */
	addf(k, EINVAL, "%sx", v);
	addf(k, EINVAL, "%sabc\n", v);
	addf(k, EINVAL, "x%s", v);
	addf(k, EINVAL, "%s#", v);
	addf(k, EINVAL, "%s\x01", v);
	addf(k, EINVAL, "%s\xff", v);
	addf(k, EINVAL, "\xef\xbb\xbf%s", v);	/* byte-order mark */
	addf(k, EINVAL, "%s\xc2\xa0", v);	/* no-break space */
	if (!space_ok(f->kind)) {
		addf(k, EINVAL, " %s", v);
		addf(k, EINVAL, "%s ", v);
		addf(k, EINVAL, "%s \n", v);
	}

	for (size_t i = 0; i < ARRAY_SIZE(junk); i++)
		adds(k, junk[i], EINVAL);
}

/* Per-kind inputs. */
static void specific(struct corpus *k, const struct iface *f)
{
	unsigned long long max = f->max, min = f->min;

	switch (f->kind) {
	case K_NUM:
		adds(k, "\n", EINVAL);
		adds(k, "-1", EINVAL);
		adds(k, "-0", EINVAL);
		adds(k, "+-1", EINVAL);
		adds(k, "--1", EINVAL);
		adds(k, "0b1", EINVAL);
		adds(k, "1 2", EINVAL);
		adds(k, "1,2", EINVAL);
		adds(k, "1-2", EINVAL);
		adds(k, "0x10", EINVAL);
		adds(k, "010a", EINVAL);
		adds(k, "18446744073709551616", ERANGE);
		adds(k, "99999999999999999999999", ERANGE);
		adds(k, "4294967296", ERANGE);
		addf(k, ERANGE, "%llu", max + 1);
		addf(k, ERANGE, "%llu\n", max + 1);
		addf(k, ERANGE, "%llu", max * 10);
		if (min > 0) {
			addf(k, ERANGE, "%llu", min - 1);
			addf(k, ERANGE, "%llu\n", min / 2);
		}
		break;
	case K_LIST:
		adds(k, "\n", EINVAL);
		adds(k, ",", EINVAL);
		adds(k, "5-2", EINVAL);
		adds(k, "15-0", EINVAL);
		adds(k, "0-", EINVAL);
		adds(k, "-3", EINVAL);
		adds(k, "0--3", EINVAL);
		adds(k, "0-3-5", EINVAL);
		adds(k, "0:1", EINVAL);
		adds(k, "0-7:2/4", EINVAL);
		adds(k, "all", EINVAL);
		adds(k, "N", EINVAL);
		adds(k, "16", ERANGE);
		adds(k, "0-16", ERANGE);
		adds(k, "0,15,16", ERANGE);
		adds(k, "1023", ERANGE);
		adds(k, "1024", ERANGE);
		adds(k, "0-99999", ERANGE);
		adds(k, "4294967296", ERANGE);
		adds(k, "99999999999999999999999", ERANGE);
		adds(k, "-1", EINVAL);
		break;
	case K_BOOL:
	case K_TRIGGER:
		adds(k, "\n", EINVAL);
		for (const char *const *b = (const char *const[]){
			"1abc", "10", "01", "00", "11", "2", "-1", "-0", "+1",
			"tomato", "offline", "on", "off", "y", "n", "Y", "N",
			"yes", "no", "true", "false", "t", "f", "enable",
			"1 ", " 1", "1\t", "0x1", "1.0", "١", NULL }; *b; b++)
			adds(k, *b, EINVAL);
		if (f->kind == K_TRIGGER) {
			adds(k, "0", EINVAL);
			adds(k, "0\n", EINVAL);
		}
		break;
	case K_EVENT:
		for (const char *const *b = (const char *const[]){
			"\n", "bogus", "raw:", "raw:0xzz", "raw:-1", "raw: 1",
			"raw:1 ", "raw:0x", "sw:", "sw:nonsense", "cycles,",
			"cycles cycles", "cyc les", "type4:0x1", "none2",
			"llc-loads-misses", NULL }; *b; b++)
			adds(k, *b, EINVAL);
		adds(k, "raw:0x1ffffffffffffffff", ERANGE);
		adds(k, "raw:18446744073709551616", ERANGE);
		adds(k, "raw:99999999999999999999999", ERANGE);
		break;
	case K_BUDGET:
		for (const char *const *b = (const char *const[]){
			"\n", "abc", "-1", "unlimitedx", "unlimited ",
			"events:", "events:-1", "events:x", "event:5",
			"events 5", "5 MB", "5M", "0x10", "1,2", "5:5",
			"EVENTS:5", "Unlimited", NULL }; *b; b++)
			adds(k, *b, EINVAL);
		for (const char *const *b = (const char *const[]){
			"0", "0\n", "1000001", "2000000", "18446744073709551616",
			"99999999999999999999999", "events:0",
			"events:281474976710657", "events:18446744073709551616",
			NULL }; *b; b++)
			adds(k, *b, ERANGE);
		break;
	case K_BUDGETS:
		for (const char *const *b = (const char *const[]){
			"\n", "0-1", "1-0:100", "0:100 0:200", "0-1:100 1:5",
			"1:100,abc", ":100", "0:", "0:,", ",:100", "0:100,",
			"0:100,200,300", "0::100", "a:100", "0-:100", NULL };
		     *b; b++)
			adds(k, *b, EINVAL);
		for (const char *const *b = (const char *const[]){
			"0-4095:100", "4096:100", "0:0", "0:1000001",
			"0:events:0", "99999999999:100", "0:18446744073709551616",
			NULL }; *b; b++)
			adds(k, *b, ERANGE);
		break;
	case K_DEVICES:
		for (const char *const *b = (const char *const[]){
			"\n", "add", "add cg0", "add cg0 8-15", "add cg0 8-15 4 5",
			"remove", "remove cg0 cg1", "frobnicate cg0", "ADD cg0 8-15 4",
			"add\tcg0 8-15 4", "add . 8-15 4", "add .. 8-15 4",
			"add a/b 8-15 4", "add a:b 8-15 4", "add cg\xc3\xa9 8-15 4",
			"add abcdefghijabcdefghijabcdefghijXY 8-15 4",
			"add cg0 5-2 4", "add cg0 all 4", "add cg0 8-15 x",
			"add cg0 8-15 -1", "add cg0 8-15 0x10", NULL }; *b; b++)
			adds(k, *b, EINVAL);
		for (const char *const *b = (const char *const[]){
			"add cg0 16 4", "add cg0 0-99999 4", "add cg0 8-15 0",
			"add cg0 8-15 99999999", "add cg0 8-15 18446744073709551616",
			NULL }; *b; b++)
			adds(k, *b, ERANGE);
		adds(k, "remove nosuch", ENOENT);
		break;
	case K_CPULIST:
		for (const char *const *b = (const char *const[]){
			",", " , ", "0-", "1-0", "-1", "0--1", "a", "0,a",
			"0:1", "1 x", NULL }; *b; b++)
			adds(k, *b, EINVAL);
		for (const char *const *b = (const char *const[]){
			"4096", "0-4095", "99999999999", "4294967296", NULL };
		     *b; b++)
			adds(k, *b, ERANGE);
		break;
	}
}

/* Write @len bytes in one write(2): 0, an errno, or SHORT_WRITE. */
static int wr(const char *file, const void *buf, size_t len)
{
	char path[256];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = SHORT_WRITE;
	close(fd);
	return err;
}

static int rd(const char *file, char *buf, size_t size)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return 0;
}

/* Every readable file under @path as "name=value" lines; write-only skipped. */
static void snap_dir(const char *path, const char *rel, char *out, size_t *used,
		     int with_status)
{
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char sub[512], srel[256], val[PAGE + 1];
		struct stat st;
		ssize_t len;
		int fd;

		if (name[0] == '.')
			goto next;
		snprintf(sub, sizeof(sub), "%s/%s", path, name);
		snprintf(srel, sizeof(srel), "%s%s", rel, name);
		if (stat(sub, &st))
			goto next;
		if (S_ISDIR(st.st_mode)) {
			strcat(srel, "/");
			snap_dir(sub, srel, out, used, with_status);
			goto next;
		}
		if (!with_status && !strcmp(srel, "last_cmd_status"))
			goto next;
		fd = open(sub, O_RDONLY);
		if (fd < 0)
			goto next;
		len = read(fd, val, PAGE);
		close(fd);
		if (len < 0)
			len = 0;
		val[len] = 0;
		*used += snprintf(out + *used, SNAP_MAX - *used, "%s=%s%s", srel,
				  val, len && val[len - 1] == '\n' ? "" : "\n");
next:
		free(names[i]);
	}
	free(names);
}

static void snapshot(char *out, int with_status)
{
	size_t used = 0;

	out[0] = 0;
	snap_dir(dir, "", out, &used, with_status);
}

/* The first line that differs between two snapshots. */
static void first_diff(const char *a, const char *b, char *out, size_t size)
{
	while (*a && *a == *b) {
		const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');

		if (!ea || !eb || ea - a != eb - b || memcmp(a, b, ea - a))
			break;
		a = ea + 1;
		b = eb + 1;
	}
	snprintf(out, size, "'%.*s' -> '%.*s'", (int)strcspn(a, "\n"), a,
		 (int)strcspn(b, "\n"), b);
}

static const char *ename(int err)
{
	static char buf[32];

	switch (err) {
	case 0: return "ok";
	case SHORT_WRITE: return "a short write";
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case E2BIG: return "E2BIG";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case EFAULT: return "EFAULT";
	case ENOTTY: return "ENOTTY";
	case EOVERFLOW: return "EOVERFLOW";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	}
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

/* A case for a log line: length and the first bytes, escaped. */
static const char *show(const char *buf, size_t len)
{
	static char out[128];
	size_t o = 0;

	o += snprintf(out, sizeof(out), "%zu bytes '", len);
	for (size_t i = 0; i < len && o < sizeof(out) - 12; i++) {
		unsigned char c = buf[i];

		if (i == 24 && len > 32) {
			o += snprintf(out + o, sizeof(out) - o, "...");
			i = len - 4;
			c = buf[i];
		}
		if (c == '\n')
			o += snprintf(out + o, sizeof(out) - o, "\\n");
		else if (c < 32 || c >= 127)
			o += snprintf(out + o, sizeof(out) - o, "\\x%02x", c);
		else
			out[o++] = c;
	}
	snprintf(out + o, sizeof(out) - o, "'");
	return out;
}

static void tap(int ok, const char *fmt, ...)
{
	static struct timespec last;
	struct timespec now;
	va_list ap;

	point++;
	if (!ok)
		failed_points++;
	printf("%sok %d - ", ok ? "" : "not ", point);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	/* Where a slow kernel (the debug build) spends the suite's time. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (last.tv_sec)
		printf("# %.1f s\n", (now.tv_sec - last.tv_sec) +
		       (now.tv_nsec - last.tv_nsec) / 1e9);
	last = now;
	fflush(stdout);
}

/* A write that sets last_cmd_status to "ok" and changes nothing. */
static const char *ok_file, *ok_value;

static void status_ok(void)
{
	char st[256];

	if (rd("last_cmd_status", st, sizeof(st)) || strcmp(st, "ok"))
		wr(ok_file, ok_value, strlen(ok_value));
}

#define STATE_MOVED	(~0u)

/*
 * The cases of @k against @f. per_case: compare the module's files after
 * every write (one snapshot per case: the state after a case is the state
 * before the next, unless that case had to be put back). Otherwise only
 * before the first and after the last write: STATE_MOVED if they differ.
 * status_ok() writes another file with its current value; if that changed
 * anything, the case after it sees the change as its own.
 */
static unsigned int run_cases(const struct iface *f, const struct corpus *k,
			      int per_case)
{
	char st[256], diff[300];
	unsigned int bad = 0, i;
	int got;

	snapshot(snap_a, 0);
	for (i = 0; i < k->n; i++) {
		const struct kase *c = &k->c[i];
		const char *why = NULL;
		char *t;

		status_ok();
		got = wr(f->file, c->buf, c->len);
		if (per_case)
			snapshot(snap_b, 0);
		rd("last_cmd_status", st, sizeof(st));
		if (got != c->err)
			why = "errno";
		else if (per_case && strcmp(snap_a, snap_b))
			why = "state";
		else if (!st[0] || !strcmp(st, "ok"))
			why = "status";
		if (!why) {
			t = snap_a;
			snap_a = per_case ? snap_b : snap_a;
			snap_b = per_case ? t : snap_b;
			continue;
		}
		if (++bad <= max_shown) {
			int moved = per_case && strcmp(snap_a, snap_b);

			if (moved)
				first_diff(snap_a, snap_b, diff, sizeof(diff));
			printf("# %s <- %s: got %s, want %s", f->file,
			       show(c->buf, c->len), ename(got), ename(c->err));
			printf("; %s; last_cmd_status '%s'\n",
			       moved ? diff : "nothing changed", st);
		}
		/* Put a changed file back, so one failure does not cascade. */
		if (per_case && strcmp(snap_a, snap_b) && f->base)
			wr(f->file, f->base, strlen(f->base));
		if (per_case)
			snapshot(snap_a, 0);
	}
	if (!per_case) {
		snapshot(snap_b, 0);
		if (strcmp(snap_a, snap_b))
			return STATE_MOVED;
	}
	return bad;
}

/*
 * Run @k against sysfs file @f; one TAP point. On the debug kernels every
 * file read costs about a millisecond and the per-case comparison took
 * most of the suite's five minutes there: every case still runs (under
 * KASAN), the state is compared around the whole corpus, and only if it
 * moved the corpus runs again case by case to name the culprit.
 */
static void run_file(const struct iface *f, const struct corpus *k,
		     unsigned int *total)
{
	const char *kernel = getenv("CG_KERNEL");
	int coarse = kernel && !strcmp(kernel, "debug");
	unsigned int bad = run_cases(f, k, !coarse);

	if (bad == STATE_MOVED) {
		printf("# %s: the files changed during the corpus; again case by case\n",
		       f->file);
		if (f->base)
			wr(f->file, f->base, strlen(f->base));
		bad = run_cases(f, k, 1);
		if (!bad)
			bad = 1;
	}
	*total += k->n;
	tap(!bad, "%s: %u malformed writes rejected with the documented errno, state kept, reason given (%u wrong)",
	    f->file, k->n, bad);
}

/* Valid writes still pass: the value, at the length limit, with a newline. */
static void run_valid(const struct iface *f)
{
	char *p, nl[256];
	int bad = 0, got;

	got = wr(f->file, f->valid, strlen(f->valid));
	if (got != f->valid_err) {
		printf("# %s <- '%s': got %s, want %s\n", f->file, f->valid,
		       ename(got), ename(f->valid_err));
		bad++;
	}
	if (undo_of(f) && wr(f->file, undo_of(f), strlen(undo_of(f))))
		bad++;
	snprintf(nl, sizeof(nl), "%s\n", f->valid);
	got = wr(f->file, nl, strlen(nl));
	if (got != f->valid_err) {
		printf("# %s <- '%s\\n': got %s, want %s\n", f->file, f->valid,
		       ename(got), ename(f->valid_err));
		bad++;
	}
	if (undo_of(f) && wr(f->file, undo_of(f), strlen(undo_of(f))))
		bad++;
	if (long_ok(f->kind)) {
		p = pad(f, PAGE - 1);
		got = wr(f->file, p, PAGE - 1);
		if (got != f->valid_err) {
			printf("# %s <- %s: got %s, want %s\n", f->file,
			       show(p, PAGE - 1), ename(got), ename(f->valid_err));
			bad++;
		}
		if (undo_of(f) && wr(f->file, undo_of(f), strlen(undo_of(f))))
			bad++;
		free(p);
	}
	if (f->base)
		wr(f->file, f->base, strlen(f->base));
	tap(!bad, "%s: valid writes accepted ('%s', with a newline%s)", f->file,
	    f->valid, long_ok(f->kind) ? ", 4095 bytes long" : "");
}

/* A zero-length write never reaches the store: 0, nothing changes. */
static void run_empty(const struct iface *files, unsigned int nr)
{
	int bad = 0;

	snapshot(snap_a, 1);
	for (unsigned int i = 0; i < nr; i++) {
		int got = wr(files[i].file, "", 0);

		if (got) {
			printf("# %s <- 0 bytes: got %s\n", files[i].file, ename(got));
			bad++;
		}
	}
	snapshot(snap_b, 1);
	if (strcmp(snap_a, snap_b)) {
		first_diff(snap_a, snap_b, snap_a, 300);
		printf("# a zero-length write changed %s\n", snap_a);
		bad++;
	}
	tap(!bad, "zero-length writes return 0 and change nothing, last_cmd_status included (%u files)",
	    nr);
}

/* Listed in $CORPUS_SKIP. */
static int skipped(const char *name)
{
	const char *list = getenv("CORPUS_SKIP");
	size_t len = strlen(name);

	for (const char *p = list; p && (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',') && (!p[len] || p[len] == ','))
			return 1;
	return 0;
}

/* Every file of @sub (under dir) that its owner may write has a corpus. */
static unsigned int uncovered(const char *sub, const struct iface *files,
			      unsigned int nr)
{
	char path[512], name[300];
	unsigned int missing = 0, i;
	struct dirent *e;
	struct stat st;
	DIR *d;

	snprintf(path, sizeof(path), "%s%s%s", dir, *sub ? "/" : "", sub);
	d = opendir(path);
	if (!d)
		return 1;
	while ((e = readdir(d))) {
		if ((size_t)snprintf(name, sizeof(name), "%s%s%s", sub, *sub ? "/" : "",
				     e->d_name) >= sizeof(name) ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
			continue;
		if (stat(path, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & 0200))
			continue;
		for (i = 0; i < nr && strcmp(files[i].file, name); i++)
			;
		if (i == nr) {
			printf("# %s/%s is writable and has no corpus\n", dir, name);
			missing++;
		}
	}
	closedir(d);
	return missing;
}

static void run_sysfs(const struct iface *files, unsigned int nr)
{
	unsigned int total = 0, i;
	struct corpus k = { 0 };

	for (i = 0; i < nr; i++)
		if (files[i].base && wr(files[i].file, files[i].base,
					strlen(files[i].base)))
			printf("# setup: %s <- '%s' failed\n", files[i].file,
			       files[i].base);
	run_empty(files, nr);
	for (i = 0; i < nr; i++) {
		if (skipped(files[i].file)) {
			printf("# %s skipped (CORPUS_SKIP)\n", files[i].file);
			continue;
		}
		generic(&k, &files[i]);
		specific(&k, &files[i]);
		run_file(&files[i], &k, &total);
		free_corpus(&k);
		run_valid(&files[i]);
	}
	printf("# %u malformed writes to %u files\n", total, nr);
}

/* /dev/mm-color */

static int dev_fd;
static uint64_t mask_words[MM_COLOR_MAX_COLORS / 64];

static int get_mask(int fd, uint64_t *words)
{
	struct mm_color_bitmap b = { (uintptr_t)words, MM_COLOR_MAX_COLORS, 0 };

	memset(words, 0, MM_COLOR_MAX_COLORS / 8);
	return ioctl(fd, MM_COLOR_GET_BITMAP, &b) ? errno : 0;
}

struct icase {
	unsigned long cmd;
	void *arg;		/* the ioctl's argument, or the words of a bitmap */
	int owned;		/* arg was allocated here */
	uint32_t nbits;		/* non-zero: pass a bitmap request over arg */
	int err;
	char what[96];
};

struct icorpus {
	struct icase *c;
	unsigned int n, cap;
};

static void iadd(struct icorpus *k, unsigned long cmd, const void *arg,
		 size_t argsize, int err, const char *fmt, ...)
{
	va_list ap;
	struct icase *c;

	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 128;
		k->c = realloc(k->c, k->cap * sizeof(*k->c));
		if (!k->c)
			abort();
	}
	c = &k->c[k->n++];
	c->cmd = cmd;
	c->err = err;
	c->nbits = 0;
	c->owned = !!argsize;
	if (argsize) {
		c->arg = malloc(argsize);
		if (!c->arg)
			abort();
		memcpy(c->arg, arg, argsize);
	} else {
		c->arg = (void *)arg;	/* a bad pointer itself */
	}
	va_start(ap, fmt);
	vsnprintf(c->what, sizeof(c->what), fmt, ap);
	va_end(ap);
}

/* Addresses no ioctl may read or write through. */
static void *bad_ptrs[12];
static unsigned int nr_bad_ptrs;

static void setup_bad_ptrs(void)
{
	char *ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *none = mmap(NULL, 2 * PAGE, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *edge = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(edge + PAGE, PAGE);
	bad_ptrs[nr_bad_ptrs++] = NULL;
	bad_ptrs[nr_bad_ptrs++] = (void *)8;
	bad_ptrs[nr_bad_ptrs++] = (void *)4095;
	bad_ptrs[nr_bad_ptrs++] = none;
	bad_ptrs[nr_bad_ptrs++] = none + PAGE - 1;
	bad_ptrs[nr_bad_ptrs++] = edge + PAGE;	/* unmapped */
	bad_ptrs[nr_bad_ptrs++] = (void *)-1UL;
	bad_ptrs[nr_bad_ptrs++] = (void *)-4096UL;
	bad_ptrs[nr_bad_ptrs++] = (void *)0xffff800000000000UL;
	bad_ptrs[nr_bad_ptrs++] = (void *)0x8000000000000000UL;
	bad_ptrs[nr_bad_ptrs++] = edge + PAGE - 4;	/* runs off the end */
	bad_ptrs[nr_bad_ptrs++] = ro;	/* last: only writes through it fail */
}

/* SET_LIST: the list corpus through the ioctl, plus its own fields. */
static void list_corpus(struct icorpus *ik)
{
	static const struct iface list = {
		"SET_LIST", K_LIST, NULL, "0-15", 0, 0, 15,
	};
	struct corpus k = { 0 };
	struct mm_color_list l;
	unsigned int i;

	generic(&k, &list);
	specific(&k, &list);
	for (i = 0; i < k.n; i++) {
		struct kase *c = &k.c[i];
		int err = c->err;

		/* The ioctl takes MM_COLOR_LIST_MAX bytes, a page in sysfs. */
		if (c->len > MM_COLOR_LIST_MAX)
			err = E2BIG;
		else if (err == E2BIG)
			continue;	/* 4096 bytes fit the ioctl */
		l = (struct mm_color_list){ (uintptr_t)c->buf, c->len, 0 };
		iadd(ik, MM_COLOR_SET_LIST, &l, sizeof(l), err, "list %s",
		     show(c->buf, c->len));
		c->buf = NULL;	/* the case keeps pointing at it */
	}
	free_corpus(&k);
	for (i = 0; i < nr_bad_ptrs - 1; i++) {
		l = (struct mm_color_list){ (uintptr_t)bad_ptrs[i], 8, 0 };
		iadd(ik, MM_COLOR_SET_LIST, &l, sizeof(l), EFAULT, "addr %p",
		     bad_ptrs[i]);
	}
	for (uint32_t f = 1; f; f <<= 3) {
		l = (struct mm_color_list){ (uintptr_t)"1", 1, f };
		iadd(ik, MM_COLOR_SET_LIST, &l, sizeof(l), EINVAL, "flags %#x", f);
	}
	for (uint32_t len = MM_COLOR_LIST_MAX + 1; len; len = len * 2 + 1) {
		l = (struct mm_color_list){ (uintptr_t)"1", len, 0 };
		iadd(ik, MM_COLOR_SET_LIST, &l, sizeof(l), E2BIG, "len %u", len);
		if (len > 0x7fffffff)
			break;
	}
	l = (struct mm_color_list){ (uintptr_t)"1", 0, 0 };
	iadd(ik, MM_COLOR_SET_LIST, &l, sizeof(l), EINVAL, "len 0");
	l = (struct mm_color_list){ (uintptr_t)"1", UINT32_MAX, 0 };
	iadd(ik, MM_COLOR_SET_LIST, &l, sizeof(l), E2BIG, "len 2^32-1");
	for (i = 0; i < nr_bad_ptrs - 1; i++)
		iadd(ik, MM_COLOR_SET_LIST, bad_ptrs[i], 0, EFAULT,
		     "struct at %p", bad_ptrs[i]);
}

static uint64_t words_of[MM_COLOR_MAX_COLORS / 64];

/* SET_BITMAP and GET_BITMAP share the request layout. */
static void bitmap_corpus(struct icorpus *ik, unsigned long cmd, unsigned int nr)
{
	const char *name = cmd == MM_COLOR_SET_BITMAP ? "SET" : "GET";
	static const uint32_t bad_nbits[] = {
		0, MM_COLOR_MAX_COLORS + 1, MM_COLOR_MAX_COLORS + 64, 2048,
		4096, 65535, 65536, 0x7fffffff, 0x80000000, UINT32_MAX,
	};
	struct mm_color_bitmap b;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_nbits); i++) {
		b = (struct mm_color_bitmap){ (uintptr_t)words_of, bad_nbits[i], 0 };
		iadd(ik, cmd, &b, sizeof(b), EINVAL, "%s nbits %u", name,
		     bad_nbits[i]);
	}
	for (uint32_t f = 1; f; f <<= 2) {
		b = (struct mm_color_bitmap){ (uintptr_t)words_of, 64, f };
		iadd(ik, cmd, &b, sizeof(b), EINVAL, "%s flags %#x", name, f);
	}
	/* A read-only buffer is fine for what only reads it. */
	for (i = 0; i < nr_bad_ptrs - 1; i++) {
		b = (struct mm_color_bitmap){ (uintptr_t)bad_ptrs[i], 64, 0 };
		iadd(ik, cmd, &b, sizeof(b), EFAULT, "%s addr %p", name,
		     bad_ptrs[i]);
		iadd(ik, cmd, bad_ptrs[i], 0, EFAULT, "%s struct at %p", name,
		     bad_ptrs[i]);
	}
	if (cmd == MM_COLOR_GET_BITMAP) {
		b = (struct mm_color_bitmap){ (uintptr_t)bad_ptrs[i], 64, 0 };
		iadd(ik, cmd, &b, sizeof(b), EFAULT, "GET addr %p (read-only)",
		     bad_ptrs[i]);
	}
	if (cmd == MM_COLOR_SET_BITMAP) {
		/* Each color from nr_colors on, alone and with color 0. */
		for (unsigned int c = nr; c < MM_COLOR_MAX_COLORS; c += 37) {
			uint64_t w[MM_COLOR_MAX_COLORS / 64] = { 0 };

			w[c / 64] = 1ULL << (c % 64);
			iadd(ik, cmd, w, sizeof(w), ERANGE, "SET color %u", c);
			ik->c[ik->n - 1].nbits = MM_COLOR_MAX_COLORS;
			w[0] |= 1;
			iadd(ik, cmd, w, sizeof(w), ERANGE, "SET colors 0,%u", c);
			ik->c[ik->n - 1].nbits = MM_COLOR_MAX_COLORS;
		}
		/* Bits set at or above nbits in the last word. */
		for (unsigned int n = 1; n < 64; n += 5) {
			uint64_t w[MM_COLOR_MAX_COLORS / 64] = { 1ULL << n | 1 };

			iadd(ik, cmd, w, sizeof(w), EINVAL, "SET bit %u, nbits %u",
			     n, n);
			ik->c[ik->n - 1].nbits = n;
		}
		/* The empty mask, at every size. */
		for (unsigned int n = 1; n <= MM_COLOR_MAX_COLORS; n = n * 2 + 1) {
			uint64_t w[MM_COLOR_MAX_COLORS / 64] = { 0 };

			iadd(ik, cmd, w, sizeof(w), EINVAL, "SET empty, nbits %u", n);
			ik->c[ik->n - 1].nbits = n;
		}
	} else {
		/* Buffers too small for the mask (colors 0-15: nbits < 16). */
		for (unsigned int n = 1; n < 16; n++) {
			b = (struct mm_color_bitmap){ (uintptr_t)words_of, n, 0 };
			iadd(ik, cmd, &b, sizeof(b), ERANGE, "GET nbits %u", n);
		}
	}
}

/* The argument of a case: its own, or a bitmap request over its words. */
static void *bitmap_arg(struct icase *c, struct mm_color_bitmap *b)
{
	if (!c->nbits)
		return c->arg;
	*b = (struct mm_color_bitmap){ (uintptr_t)c->arg, c->nbits, 0 };
	return b;
}

static void info_corpus(struct icorpus *ik)
{
	for (unsigned int i = 0; i < nr_bad_ptrs; i++)
		iadd(ik, MM_COLOR_GET_INFO, bad_ptrs[i], 0, EFAULT, "INFO at %p",
		     bad_ptrs[i]);
	/* The same number with another size or direction is another ioctl. */
	for (unsigned int sz = 1; sz < 96; sz += 2) {
		if (sz == sizeof(struct mm_color_info))
			continue;
		iadd(ik, _IOC(_IOC_READ, MM_COLOR_IOC_MAGIC, 4, sz), bad_ptrs[0],
		     0, ENOTTY, "INFO with size %u", sz);
	}
	iadd(ik, _IOW(MM_COLOR_IOC_MAGIC, 4, struct mm_color_info), bad_ptrs[0],
	     0, ENOTTY, "INFO as _IOW");
	iadd(ik, _IOWR(MM_COLOR_IOC_MAGIC, 4, struct mm_color_info), bad_ptrs[0],
	     0, ENOTTY, "INFO as _IOWR");
	iadd(ik, _IO(MM_COLOR_IOC_MAGIC, 4), bad_ptrs[0], 0, ENOTTY, "INFO as _IO");
	for (unsigned int nr = 5; nr < 20; nr++)
		iadd(ik, _IOR(MM_COLOR_IOC_MAGIC, nr, struct mm_color_info),
		     bad_ptrs[0], 0, ENOTTY, "ioctl number %u", nr);
}

static void run_ioctls(const char *name, struct icorpus *k)
{
	uint64_t back[MM_COLOR_MAX_COLORS / 64];
	char diff[300];
	unsigned int bad = 0;

	snapshot(snap_a, 1);
	for (unsigned int i = 0; i < k->n; i++) {
		struct icase *c = &k->c[i];
		struct mm_color_bitmap b;
		int got = ioctl(dev_fd, c->cmd, bitmap_arg(c, &b)) ? errno : 0;
		int mask_err = get_mask(dev_fd, back);

		if (got == c->err && !mask_err &&
		    !memcmp(back, mask_words, sizeof(back)))
			continue;
		if (++bad <= max_shown)
			printf("# %s: got %s, want %s%s\n", c->what, ename(got),
			       ename(c->err), memcmp(back, mask_words, sizeof(back)) ?
			       "; the file's mask changed" : "");
		/* Put the mask back, so one failure does not cascade. */
		{
			struct mm_color_bitmap r = { (uintptr_t)mask_words, 64, 0 };

			ioctl(dev_fd, MM_COLOR_SET_BITMAP, &r);
		}
	}
	snapshot(snap_b, 1);
	if (strcmp(snap_a, snap_b)) {
		first_diff(snap_a, snap_b, diff, sizeof(diff));
		printf("# %s calls changed sysfs: %s\n", name, diff);
		bad++;
	}
	tap(!bad, "%s: %u malformed calls rejected with the documented errno, mask and every file (last_cmd_status too) kept (%u wrong)",
	    name, k->n, bad);
	for (unsigned int i = 0; i < k->n; i++)
		if (k->c[i].owned)
			free(k->c[i].arg);
	free(k->c);
	*k = (struct icorpus){ 0 };
}

static void mm_color(void)
{
	static const struct iface files[] = {
		{ "way_size", K_NUM, NULL, "65536", EBUSY, 8192, 4194304 },
		{ "line_size", K_NUM, "64", "128", 0, 16, 4096 },
		{ "pool_mb", K_NUM, NULL, "16", 0, 0, 0 },
		{ "root_colors", K_LIST, "0-15", "0-15", 0, 0, 15 },
		{ "reserve_mb", K_NUM, "64", "65", 0, 0, 0 },
		{ "limit_fd_mb", K_NUM, "7", "1", 0, 0, 0 },
		{ "limit_total_mb", K_NUM, "0", "3", 0, 0, 0 },
		{ "drain_movable", K_BOOL, "0", "1", 0, 0, 1 },
		{ "devices", K_DEVICES, NULL, "add cgcorpus 8-15 4", 0, 0, 0 },
	};
	struct iface f[ARRAY_SIZE(files)];
	unsigned long long ram_mb;
	struct icorpus ik = { 0 };
	char buf[64];
	unsigned int i, nr;
	long pages = sysconf(_SC_PHYS_PAGES);

	memcpy(f, files, sizeof(f));
	ram_mb = (unsigned long long)pages * PAGE >> 20;
	/* The module's limit is totalram_pages, a little below PHYS_PAGES. */
	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (!f[i].max)
			f[i].max = ram_mb;
	dir = MMC_DIR;
	ok_file = "limit_fd_mb";
	ok_value = "7";
	rd("nr_colors", buf, sizeof(buf));
	nr = strtoul(buf, NULL, 10);
	rd("pool_mb", buf, sizeof(buf));
	printf("# mm-color: %u colors, pool %s MB, %llu MB of RAM\n", nr, buf, ram_mb);
	if (nr != 16 || !strcmp(buf, "0")) {
		tap(0, "mm-color set up with 16 colors and a pool");
		return;
	}
	tap(!uncovered("", f, ARRAY_SIZE(f)),
	    "every writable file of %s has a corpus", dir);
	run_sysfs(f, ARRAY_SIZE(f));

	setup_bad_ptrs();
	dev_fd = open(MMC_DEV, O_RDWR);
	if (dev_fd < 0) {
		tap(0, "open %s", MMC_DEV);
		return;
	}
	{
		struct mm_color_list l = { (uintptr_t)"1,3-4", 5, 0 };

		tap(!ioctl(dev_fd, MM_COLOR_SET_LIST, &l) && !get_mask(dev_fd, mask_words) &&
		    mask_words[0] == 0x1a, "SET_LIST '1,3-4' sets colors 1,3,4 (the mask the cases must keep)");
	}
	list_corpus(&ik);
	printf("# SET_LIST: %u cases\n", ik.n);
	run_ioctls("SET_LIST", &ik);
	bitmap_corpus(&ik, MM_COLOR_SET_BITMAP, nr);
	printf("# SET_BITMAP: %u cases\n", ik.n);
	run_ioctls("SET_BITMAP", &ik);
	{
		/* GET needs a mask with color 15 for the too-small buffers. */
		struct mm_color_list l = { (uintptr_t)"1,15", 4, 0 };

		tap(!ioctl(dev_fd, MM_COLOR_SET_LIST, &l) && !get_mask(dev_fd, mask_words),
		    "SET_LIST '1,15'");
	}
	bitmap_corpus(&ik, MM_COLOR_GET_BITMAP, nr);
	printf("# GET_BITMAP: %u cases\n", ik.n);
	run_ioctls("GET_BITMAP", &ik);
	info_corpus(&ik);
	printf("# GET_INFO: %u cases\n", ik.n);
	run_ioctls("GET_INFO", &ik);
	close(dev_fd);
}

static void memguard_files(void)
{
	static const struct iface global[] = {
		{ "enable", K_BOOL, "0", "0", 0, 0, 1 },
		{ "reclaim", K_BOOL, "0", "1", 0, 0, 1 },
		{ "monitor", K_BOOL, "0", "1", 0, 0, 1 },
		{ "period_us", K_NUM, "2000", "5000", 0, 100, 1000000 },
		{ "line_size", K_NUM, "64", "128", 0, 16, 4096 },
		{ "read_event", K_EVENT, "sw:cpu-clock", "sw:cpu-clock", 0, 0, 0 },
		{ "write_event", K_EVENT, "none", "none", 0, 0, 0 },
		{ "budgets", K_BUDGETS, "0:events:5000,unlimited", "1:700", 0, 0, 0 },
		{ "critical", K_CPULIST, "\n", "1", 0, 0, 0 },
		{ "reset_stats", K_TRIGGER, NULL, "1", 0, 0, 1 },
		{ "hold_priority", K_NUM, "48", "60", 0, 1, 99 },
		{ "bwlock_max_hold_ms", K_NUM, "10000", "2500", 0, 1, 3600000 },
	};
	struct iface f[64];
	char names[16][3][32];
	unsigned int nr = 0, cpus = 0;

	dir = MG_DIR;
	ok_file = "enable";
	ok_value = "0";
	memcpy(f, global, sizeof(global));
	nr = ARRAY_SIZE(global);
	for (unsigned int cpu = 0; cpu < 16; cpu++) {
		char path[64];

		snprintf(path, sizeof(path), MG_DIR "/cpu%u", cpu);
		if (access(path, F_OK))
			break;
		snprintf(names[cpu][0], 32, "cpu%u/read_budget", cpu);
		snprintf(names[cpu][1], 32, "cpu%u/write_budget", cpu);
		snprintf(names[cpu][2], 32, "cpu%u/critical", cpu);
		f[nr++] = (struct iface){ .file = names[cpu][0], .kind = K_BUDGET,
					  .base = "unlimited", .valid = "600" };
		f[nr++] = (struct iface){ .file = names[cpu][1], .kind = K_BUDGET,
					  .base = "events:900", .valid = "events:100" };
		f[nr++] = (struct iface){ names[cpu][2], K_BOOL, "0", "1", 0, 0, 1 };
		cpus++;
	}
	printf("# memguard: %u CPUs\n", cpus);
	{
		unsigned int missing = uncovered("", f, nr);

		for (unsigned int cpu = 0; cpu < cpus; cpu++) {
			char sub[16];

			snprintf(sub, sizeof(sub), "cpu%u", cpu);
			missing += uncovered(sub, f, nr);
		}
		tap(!missing, "every writable file of %s has a corpus", dir);
	}
	run_sysfs(f, nr);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "mm-color") && strcmp(argv[i], "memguard"))
			break;
	if (argc < 2 || i < argc) {
		fprintf(stderr, "usage: corpus mm-color|memguard...\n");
		return 2;
	}
	if (getenv("CORPUS_VERBOSE"))
		max_shown = ~0U;
	printf("TAP version 13\n");
	for (i = 1; i < argc; i++) {
		printf("# %s\n", argv[i]);
		if (!strcmp(argv[i], "mm-color"))
			mm_color();
		else
			memguard_files();
	}
	printf("1..%d\n", point);
	printf("# %d of %d points failed\n", failed_points, point);
	return failed_points ? 1 : 0;
}
