/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel helpers memguard/parse.c uses, for building it on the host:
 * types, str_has_prefix(), scnprintf() and kstrtou64() with the kernel's
 * semantics (lib/kstrtox.c: an optional '+', base 0 reads 0x and 0
 * prefixes, one trailing newline allowed, -ERANGE on overflow, -EINVAL for
 * anything else).
 */
#ifndef MG_HOST_SHIM_H
#define MG_HOST_SHIM_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef uint32_t u32;
typedef uint64_t u64;

#define BIT_ULL(n)	(1ULL << (n))
#define U64_MAX		UINT64_MAX
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

static inline size_t str_has_prefix(const char *str, const char *prefix)
{
	size_t len = strlen(prefix);

	return strncmp(str, prefix, len) ? 0 : len;
}

static inline int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(buf, size, fmt, args);
	va_end(args);
	if (n < 0 || !size)
		return 0;
	return (size_t)n < size ? n : (int)size - 1;
}

static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	u64 value = 0;
	unsigned int digits = 0;
	bool overflow = false;

	if (*s == '+')
		s++;
	if (base == 0) {
		if (s[0] == '0' && (s[1] | 0x20) == 'x' &&
		    strchr("0123456789abcdefABCDEF", s[2]) && s[2])
			base = 16;
		else
			base = s[0] == '0' ? 8 : 10;
	}
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (;; s++, digits++) {
		unsigned int c = *s, lc = c | 0x20, val;

		if (c >= '0' && c <= '9')
			val = c - '0';
		else if (lc >= 'a' && lc <= 'f')
			val = lc - 'a' + 10;
		else
			break;
		if (val >= base)
			break;
		if (value > (UINT64_MAX - val) / base)
			overflow = true;
		value = value * base + val;
	}
	if (overflow)
		return -ERANGE;
	if (!digits)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = value;
	return 0;
}

#endif /* MG_HOST_SHIM_H */
