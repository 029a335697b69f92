// SPDX-License-Identifier: GPL-2.0
/*
 * The host side's leaf helpers: one value read from or written to a file
 * of /proc, /sys or the cgroup tree, CPU lists parsed and formatted, an
 * undo step's failure noted.
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

void host_undo_fail(int *first, char *why, size_t why_len, int err,
		    const char *fmt, ...)
{
	va_list ap;

	if (*first)
		return;
	*first = err;
	if (!why || !why_len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
}
