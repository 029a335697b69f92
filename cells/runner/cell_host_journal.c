// SPDX-License-Identifier: GPL-2.0
/*
 * The claim journal: one line per step, appended and synced before the
 * step is taken, read back and replayed (last step first) to give a claim
 * back, by the process that made it or by `colorguard cell gc` for one
 * that died. See cell_host.h for the format and the test hook.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <colorguard/hv_color.h>

#include "cell_host.h"
#include "cell_host_int.h"
#include "cell_why.h"

#define JOURNAL_MAGIC	"colorguard-journal 1"
#define JOURNAL_BYTES	(1u << 24)
#define LINE_MAX_BYTES	(2 * VAL_MAX + 128)
#define MAX_ARGS	6

static const struct host_kind *const kinds[] = {
	&host_kind_mount, &host_kind_controller, &host_kind_partition,
	&host_kind_enter, &host_kind_pin, &host_kind_irqdefault, &host_kind_irq,
	&host_kind_memguard,
};

/* ---- the test hook: CG_TEST_KILL_AFTER_STEP, CG_TEST_KILL_SIGNAL ---- */

void host_journal_point(void)
{
	static long kill_at = -1, points;
	static int sig = SIGKILL;
	const char *s;

	if (kill_at < 0) {
		s = getenv("CG_TEST_KILL_AFTER_STEP");
		kill_at = s ? atol(s) : 0;
		s = getenv("CG_TEST_KILL_SIGNAL");
		if (s && atoi(s) > 0 && atoi(s) < NSIG)
			sig = atoi(s);
	}
	if (kill_at > 0 && ++points == kill_at)
		raise(sig);
}

/* ---- writing ---- */

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int host_journal_create(struct cell_host *h, const char *path)
{
	char line[VAL_MAX + 96], cpus[VAL_MAX], dir[PATH_MAX];
	int fd, ret;

	if (strlen(path) >= sizeof(h->journal))
		return -ENAMETOOLONG;
	/* One there already is a claim not given back: never overwritten. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	host_fmt_list(&h->cpus, cpus, sizeof(cpus));
	snprintf(line, sizeof(line), "%s %s %s\n", JOURNAL_MAGIC, h->name, cpus);
	ret = write_all(fd, line, strlen(line));
	if (!ret && fsync(fd))
		ret = -errno;
	if (ret) {
		close(fd);
		unlink(path);
		return ret;
	}
	snprintf(h->journal, sizeof(h->journal), "%s", path);
	h->journal_fd = fd;
	/* The new name, too, must be on disk before a step is taken. */
	snprintf(dir, sizeof(dir), "%s", path);
	fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	return 0;
}

static int parse_line(struct cell_host *h, char *line, struct host_entry *e,
		      unsigned int *undone);
static int load_entry(struct cell_host *h, const struct host_entry *e,
		      unsigned int undone);

static int append(struct cell_host *h, const char *text)
{
	char line[LINE_MAX_BYTES], copy[LINE_MAX_BYTES];
	struct host_entry e, *t;
	unsigned int undone = 0;
	int n, ret;

	if (h->journal_fd < 0)
		return -EBADF;
	n = snprintf(line, sizeof(line), "%u %s\n", h->last_seq + 1, text);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -E2BIG;
	/* What is written must read back: the replay knows only the file. */
	memcpy(copy, line, (size_t)n + 1);
	copy[n - 1] = '\0';
	if (parse_line(h, copy, &e, &undone))
		return -EINVAL;
	/* Room first: a line on disk must have its entry in memory too. */
	if (e.kind) {
		t = realloc(h->steps, (h->nr_steps + 1) * sizeof(*t));
		if (!t)
			return -ENOMEM;
		h->steps = t;
	}
	ret = write_all(h->journal_fd, line, (size_t)n);
	if (!ret && fdatasync(h->journal_fd))
		ret = -errno;
	if (ret) {
		/*
		 * A line may be on disk in part: the next would glue to it.
		 * The file stays as it is, its cut last line never acted on.
		 */
		close(h->journal_fd);
		h->journal_fd = -1;
		return ret;
	}
	if (load_entry(h, &e, undone))
		return -ENOMEM;
	host_journal_point();
	return 0;
}

int host_journal_add(struct cell_host *h, char *why, size_t why_len,
		     const char *fmt, ...)
{
	char text[LINE_MAX_BYTES - 16];
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ret = n < 0 || (size_t)n >= sizeof(text) ? -E2BIG : append(h, text);
	if (ret == -EINVAL)
		cell_why(why, why_len, "the claim's journal cannot hold \"%.80s\"",
			 text);
	else if (ret)
		cell_why(why, why_len, "cannot write the claim's journal %s: %s",
			 h->journal, strerror(-ret));
	return ret;
}

void host_journal_close(struct cell_host *h, bool remove)
{
	if (h->journal_fd >= 0)
		close(h->journal_fd);
	h->journal_fd = -1;
	if (remove && h->journal[0])
		unlink(h->journal);
}

/* ---- reading ---- */

/* Printable ASCII only, no blank: what the claim writes into a field. */
static bool token_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~')
			return false;
	return true;
}

static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > CG_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.", *s))
			return false;
	return true;
}

/* Split at single blanks into at most max words; -EINVAL otherwise. */
static int split(char *line, char **w, unsigned int max)
{
	unsigned int n = 0;
	char *p = line;

	while (*p) {
		if (n == max)
			return -EINVAL;
		w[n++] = p;
		p = strchr(p, ' ');
		if (!p)
			break;
		*p++ = '\0';
		if (!*p)
			return -EINVAL;
	}
	for (max = 0; max < n; max++)
		if (!token_ok(w[max]))
			return -EINVAL;
	return (int)n;
}

static int parse_seq(const char *s, unsigned int *v)
{
	unsigned long n;
	char *end;

	if (!isdigit((unsigned char)s[0]) || (s[0] == '0' && s[1]))
		return -EINVAL;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n > JOURNAL_MAX_STEPS)
		return -EINVAL;
	*v = (unsigned int)n;
	return 0;
}

/*
 * One line "SEQ KIND ARGS" after the header: into e (a step) or, for
 * "undone M", into *undone; "claimed" gives neither. The numbers count
 * up from 1 without a gap.
 */
static int parse_line(struct cell_host *h, char *line, struct host_entry *e,
		      unsigned int *undone)
{
	char *w[MAX_ARGS + 2];
	unsigned int seq, i;
	int n = split(line, w, MAX_ARGS + 2);

	memset(e, 0, sizeof(*e));
	*undone = 0;
	if (n < 2 || parse_seq(w[0], &seq) || seq != h->last_seq + 1)
		return -EINVAL;
	e->seq = seq;
	if (!strcmp(w[1], "claimed"))
		return n == 2 ? 0 : -EINVAL;
	if (!strcmp(w[1], "undone")) {
		if (n != 3 || parse_seq(w[2], undone) || !*undone)
			return -EINVAL;
		for (i = 0; i < h->nr_steps; i++)
			if (h->steps[i].seq == *undone && !h->steps[i].undone)
				return 0;
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (strcmp(w[1], kinds[i]->name))
			continue;
		if ((unsigned int)n != kinds[i]->nr_args + 2)
			return -EINVAL;
		e->kind = kinds[i];
		return kinds[i]->parse(e, w + 2);
	}
	return -EINVAL;
}

static int parse_header(struct cell_host *h, char *line)
{
	char *w[5];
	int n = split(line, w, 5);

	if (n != 4 || strcmp(w[0], "colorguard-journal") || strcmp(w[1], "1") ||
	    !name_ok(w[2]) || host_parse_list(w[3], &h->cpus) ||
	    hvc_mask_empty(&h->cpus))
		return -EINVAL;
	snprintf(h->name, sizeof(h->name), "%s", w[2]);
	return 0;
}

static int read_file(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t n;
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode) || st.st_size > JOURNAL_BYTES)
		ret = -EFBIG;
	*buf = ret ? NULL : malloc((size_t)st.st_size + 1);
	if (!ret && !*buf)
		ret = -ENOMEM;
	if (!ret) {
		n = read(fd, *buf, (size_t)st.st_size);
		if (n < 0)
			ret = -errno;
		else
			*len = (size_t)n;
	}
	close(fd);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

/* A parsed line into h: a step kept, an "undone" one marks its step. */
static int load_entry(struct cell_host *h, const struct host_entry *e,
		      unsigned int undone)
{
	struct host_entry *t;
	unsigned int i;

	h->last_seq++;
	for (i = 0; undone && i < h->nr_steps; i++)
		if (h->steps[i].seq == undone)
			h->steps[i].undone = true;
	if (!e->kind)
		return 0;
	t = realloc(h->steps, (h->nr_steps + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	h->steps = t;
	t[h->nr_steps++] = *e;
	return 0;
}

int host_journal_load(struct cell_host *h, const char *path, char *why,
		      size_t why_len)
{
	unsigned int lineno = 1, undone;
	struct host_entry e;
	size_t len = 0, good;
	char *buf = NULL, *p, *nl;
	int ret;

	h->journal_fd = -1;
	ret = read_file(path, &buf, &len);
	if (ret) {
		cell_why(why, why_len, "%s: %s", path, ret == -EFBIG ?
			 "not a journal (too big, or not a file)" : strerror(-ret));
		return ret;
	}
	buf[len] = '\0';
	p = buf;
	nl = memchr(p, '\n', len);
	/* A NUL would end a line early: nothing a claim writes. */
	ret = !nl || memchr(buf, '\0', len) ? -EINVAL : 0;
	if (!ret) {
		*nl = '\0';
		ret = parse_header(h, p);
	}
	if (ret) {
		cell_why(why, why_len, "%s:1: not a colorguard journal", path);
		free(buf);
		return -EINVAL;
	}
	p = nl + 1;
	good = (size_t)(p - buf);
	/* A last line without its newline was cut: its step was not taken. */
	while (!ret && (nl = strchr(p, '\n'))) {
		lineno++;
		*nl = '\0';
		ret = parse_line(h, p, &e, &undone);
		if (!ret)
			ret = load_entry(h, &e, undone);
		p = nl + 1;
		good = (size_t)(p - buf);
	}
	free(buf);
	if (ret) {
		cell_why(why, why_len, "%s:%u: %s", path, lineno, ret == -ENOMEM ?
			 "out of memory" : "not a journal line");
		return ret;
	}
	snprintf(h->journal, sizeof(h->journal), "%s", path);
	/* Appending after a cut line would glue the next line to it. */
	h->journal_fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (h->journal_fd >= 0 && good < len &&
	    ftruncate(h->journal_fd, (off_t)good)) {
		close(h->journal_fd);
		h->journal_fd = -1;
	}
	return 0;
}

/* ---- replaying ---- */

int host_journal_replay(struct cell_host *h, char *why, size_t why_len)
{
	struct host_undo u = { .why = why, .why_len = why_len };
	unsigned int i;

	for (i = h->nr_steps; i-- > 0;) {
		struct host_entry *e = &h->steps[i];

		if (e->undone || !e->kind->undo)
			continue;
		if (e->kind->undo(h, e, &u))
			continue;
		host_journal_point();
		/* Not fatal: a step given back twice finds its old value. */
		host_journal_add(h, NULL, 0, "undone %u", e->seq);
		e->undone = true;
	}
	return u.first;
}
