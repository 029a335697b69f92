/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text from an inmate (console lines, fault reasons, result names) on its
 * way to a terminal or a log: every byte that is not printable ASCII
 * becomes \xNN and a backslash becomes \\, so that an inmate can neither
 * send escape sequences to a terminal nor forge lines of the runner's own.
 */
#ifndef COLORGUARD_GUEST_TEXT_H
#define COLORGUARD_GUEST_TEXT_H

#include <stddef.h>

/* Room for n escaped bytes and the NUL. */
#define CELL_TEXT_ESCAPED(n)	(4 * (n) + 1)

/*
 * Escape src[0..len) (stopping at a NUL) into dst[size], NUL-terminated;
 * an escape that does not fit whole is left out. Returns strlen(dst).
 */
size_t cell_text_escape(char *dst, size_t size, const char *src, size_t len);

#endif
