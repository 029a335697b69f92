// SPDX-License-Identifier: GPL-2.0
/*
 * The host side's leaf helpers: one value read from or written to a file
 * of /proc, /sys or the cgroup tree, CPU lists parsed and formatted, an
 * undo step's failure or conflict noted, and the compare-and-restore of a
 * CPU set.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <colorguard/hv_color.h>

#include "cell_host_int.h"

/* Read a small file into buf, first line only, no newline. */
int host_read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* One write(2) of value and a newline, as echo does; -errno on failure. */
int host_write_val(const char *path, const char *value)
{
	char line[VAL_MAX + 2];
	size_t len = (size_t)snprintf(line, sizeof(line), "%s\n", value);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	if (len >= sizeof(line)) {
		close(fd);
		return -E2BIG;
	}
	n = write(fd, line, len);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	return n == (ssize_t)len ? 0 : -EIO;
}

int host_parse_list(const char *s, struct hvc_mask *m)
{
	struct hvc_mask t;

	if (hvc_mask_parse(&t, s, strlen(s), HVC_MAX_CPUS, NULL))
		return -EINVAL;
	*m = t;
	return 0;
}

int host_read_list(const char *path, struct hvc_mask *m)
{
	char buf[VAL_MAX];
	int ret = host_read_line(path, buf, sizeof(buf));

	return ret ? ret : host_parse_list(buf, m);
}

void host_fmt_list(const struct hvc_mask *m, char *buf, size_t len)
{
	if (hvc_mask_format(m, buf, len) < 0 && len)
		buf[0] = '\0';
}

int host_parse_jlist(const char *s, struct hvc_mask *m)
{
	if (!strcmp(s, "-")) {
		hvc_mask_zero(m);
		return 0;
	}
	/* The journal's lists are never empty text: "-" is the empty one. */
	return *s ? host_parse_list(s, m) : -EINVAL;
}

void host_fmt_jlist(const struct hvc_mask *m, char *buf, size_t len)
{
	if (hvc_mask_empty(m))
		snprintf(buf, len, "-");
	else
		host_fmt_list(m, buf, len);
}

void host_undo_fail(struct host_undo *u, int err, const char *fmt, ...)
{
	va_list ap;

	if (u->first)
		return;
	u->first = err;
	if (!u->why || !u->why_len)
		return;
	va_start(ap, fmt);
	vsnprintf(u->why, u->why_len, fmt, ap);
	va_end(ap);
}

void host_conflict(const struct cell_host *h, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "colorguard: cell %s: %s\n", h->name, line);
}

enum host_give_back host_give_back(const struct hvc_mask *old,
				   const struct hvc_mask *new,
				   const struct hvc_mask *cur,
				   const struct hvc_mask *cell,
				   struct hvc_mask *out)
{
	struct hvc_mask taken;

	if (hvc_mask_equal(cur, old)) {
		hvc_mask_copy(out, cur);
		return HOST_GB_NOTHING;
	}
	if (hvc_mask_equal(cur, new)) {
		hvc_mask_copy(out, old);
		return HOST_GB_RESTORE;
	}
	/*
	 * Changed since: by `colorguard apply`, an admin, or a cell that
	 * claimed after this one and took its own CPUs out. Restoring old
	 * would undo that; giving back only this cell's CPUs cannot put
	 * anything on another cell's CPUs.
	 */
	hvc_mask_and(&taken, old, cell);
	hvc_mask_or(out, cur, &taken);
	return HOST_GB_CONFLICT;
}
