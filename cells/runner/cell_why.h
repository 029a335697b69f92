/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's one-line reasons: every call that can fail writes why it
 * failed (no newline) into a caller's buffer. Defined in vm.c.
 */
#ifndef COLORGUARD_CELL_WHY_H
#define COLORGUARD_CELL_WHY_H

#include <stddef.h>

/* vsnprintf into why[len]; nothing when why is NULL or len 0. */
void cell_why(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
