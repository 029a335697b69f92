/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rule every text write from userspace to mm_color.ko and memguard.ko
 * passes before a file or ioctl parses it: the sysfs stores of both
 * modules (through each module's sysfs_ops) and /dev/mm-color's
 * MM_COLOR_SET_LIST. Kernel-only.
 *
 * A write is one line of text: no NUL byte, no newline except one as the
 * last byte, and no longer than the interface allows.
 *
 * sysfs hands a store at most PAGE_SIZE bytes of any longer write (6.1
 * kernfs_fop_write_iter(): no atomic_write_len for sysfs attributes, so
 * it copies min(count, PAGE_SIZE), NUL-terminates the copy and returns
 * what the store returns). A store that accepted the cut would make
 * write(2) return PAGE_SIZE, a short write with the cut applied, and a
 * caller that writes the rest (stdio, a shell's echo) would send it as a
 * second value of its own. A store cannot tell a cut from a write of
 * exactly PAGE_SIZE bytes, so sysfs files accept at most
 * CG_SYSFS_TEXT_MAX bytes: a longer write fails whole with E2BIG
 * (write(2) returns -1), nothing applied.
 */
#ifndef _COLORGUARD_USER_TEXT_H
#define _COLORGUARD_USER_TEXT_H

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>

#define CG_SYSFS_TEXT_MAX	(PAGE_SIZE - 1)

/**
 * cg_user_text_check() - check a text write before it is parsed
 * @buf: the bytes written (need not be NUL-terminated)
 * @len: their number
 * @max: the most bytes the interface accepts
 * @why: set to a short reason when the write is refused
 *
 * Return: 0, -E2BIG if @len is above @max, -EINVAL for a NUL byte or a
 * newline that is not the last byte.
 */
static inline int cg_user_text_check(const char *buf, size_t len, size_t max,
				     const char **why)
{
	const char *nl;

	if (len > max) {
		*why = "write too long";
		return -E2BIG;
	}
	if (memchr(buf, '\0', len)) {
		*why = "NUL byte in the write";
		return -EINVAL;
	}
	nl = memchr(buf, '\n', len);
	if (nl && nl != buf + len - 1) {
		*why = "more than one line";
		return -EINVAL;
	}
	return 0;
}

/**
 * cg_user_bool() - parse a 0/1 file's write
 * @buf: the bytes written
 * @len: their number
 * @val: set to the value on success
 *
 * Return: 0 for exactly "0" or "1", optionally followed by a newline;
 * -EINVAL for anything else ("1abc", "10", "y", "on").
 */
static inline int cg_user_bool(const char *buf, size_t len, bool *val)
{
	if (len == 2 && buf[1] == '\n')
		len = 1;
	if (len != 1 || (buf[0] != '0' && buf[0] != '1'))
		return -EINVAL;
	*val = buf[0] == '1';
	return 0;
}

#endif /* _COLORGUARD_USER_TEXT_H */
