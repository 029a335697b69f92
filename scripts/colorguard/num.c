// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow-checked number parsing for the config tool, and a guard that
 * runs over the raw config text before libconfig sees it: libconfig 1.5
 * silently truncates integer literals that do not fit (atoi/strtoul),
 * drops or cuts at an escaped NUL (\x00) in a string, and follows @include
 * directives, none of which is acceptable for an untrusted file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "colorguard.h"

/* Digits in base 10 or 16 into *out; returns the number of chars used, 0 on error. */
static size_t parse_digits(const char *s, unsigned int base, uint64_t *out,
			   int *overflow)
{
	uint64_t v = 0;
	size_t i = 0;

	*overflow = 0;
	for (;; i++) {
		unsigned int d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			*overflow = 1;
		else
			v = v * base + d;
	}
	*out = v;
	return i;
}

int cg_parse_u64(const char *s, uint64_t *out, const char **why)
{
	unsigned int base = 10, shift = 0;
	uint64_t v;
	size_t n;
	int overflow;

	if (!s || !*s) {
		*why = "empty number";
		return -EINVAL;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	n = parse_digits(s, base, &v, &overflow);
	if (n == 0) {
		*why = "not a number";
		return -EINVAL;
	}
	s += n;
	switch (*s) {
	case 'K': case 'k':
		shift = 10;
		break;
	case 'M': case 'm':
		shift = 20;
		break;
	case 'G': case 'g':
		shift = 30;
		break;
	case 'T': case 't':
		shift = 40;
		break;
	}
	if (shift) {
		s++;
		if (s[0] == 'i' && s[1] == 'B')
			s += 2;
	}
	if (*s) {
		*why = "trailing characters after number (units: K, M, G, T)";
		return -EINVAL;
	}
	if (overflow || (shift && v > (UINT64_MAX >> shift))) {
		*why = "number too large";
		return -ERANGE;
	}
	*out = v << shift;
	return 0;
}

static int is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '*';
}

/*
 * Check every integer literal outside strings and comments against what
 * libconfig can store, and refuse \x00 in strings and @include. Reports
 * each problem with its line; returns the number of problems.
 */
int cg_guard_text(struct cg_diag *d, const char *text, size_t len)
{
	unsigned int line = 1;
	int problems = 0;
	size_t i = 0;

	while (i < len) {
		char c = text[i];

		if (c == '\n') {
			line++;
			i++;
		} else if (c == '#' || (c == '/' && i + 1 < len && text[i + 1] == '/')) {
			while (i < len && text[i] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			unsigned int start_line = line;

			for (i += 2; i < len; i++) {
				if (text[i] == '\n')
					line++;
				else if (text[i] == '*' && i + 1 < len && text[i + 1] == '/')
					break;
			}
			if (i >= len) {
				cg_err(d, start_line, NULL, NULL,
				       "unterminated comment");
				problems++;
			}
			i += 2;
		} else if (c == '"') {
			unsigned int start_line = line;

			for (i++; i < len && text[i] != '"'; i++) {
				/*
				 * libconfig turns \x00 into a NUL that cuts or
				 * vanishes from the value: "1\x00 2" is no list.
				 */
				if (text[i] == '\\' && len - i > 3 &&
				    (text[i + 1] == 'x' || text[i + 1] == 'X') &&
				    text[i + 2] == '0' && text[i + 3] == '0') {
					cg_err(d, line, NULL, NULL,
					       "\\x00 (a NUL byte) in a string is not allowed");
					problems++;
				}
				if (text[i] == '\\' && i + 1 < len)
					i++;
				if (text[i] == '\n')
					line++;
			}
			/* libconfig 1.5 leaks its buffer on this error. */
			if (i >= len) {
				cg_err(d, start_line, NULL, NULL,
				       "unterminated string");
				problems++;
			}
			i++;
		} else if (c == '@') {
			if (len - i >= 8 && !memcmp(text + i, "@include", 8)) {
				cg_err(d, line, NULL, NULL, "@include is not allowed");
				problems++;
			}
			i++;
		} else if (isalpha((unsigned char)c) || c == '_' || c == '*') {
			while (i < len && is_ident_char(text[i]))
				i++;
		} else if (isdigit((unsigned char)c) ||
			   ((c == '-' || c == '+') && i + 1 < len &&
			    isdigit((unsigned char)text[i + 1]))) {
			size_t start = i;
			unsigned int base = 10;
			int neg = 0, overflow, is_float = 0, is_long = 0;
			uint64_t v, limit;

			if (c == '-' || c == '+') {
				neg = c == '-';
				i++;
			}
			if (text[i] == '0' && i + 1 < len &&
			    (text[i + 1] == 'x' || text[i + 1] == 'X')) {
				base = 16;
				i += 2;
			}
			/* The text is NUL-terminated by the loader. */
			i += parse_digits(text + i, base, &v, &overflow);
			while (i < len && (isalnum((unsigned char)text[i]) ||
					   text[i] == '.' ||
					   ((text[i] == '-' || text[i] == '+') &&
					    (text[i - 1] == 'e' || text[i - 1] == 'E')))) {
				if (text[i] == 'L')
					is_long = 1;
				else if (base == 10)
					is_float = 1;
				i++;
			}
			if (is_float)
				continue;
			/* libconfig stores hex as signed too: same limits. */
			limit = is_long ? (uint64_t)INT64_MAX : INT32_MAX;
			limit += neg;
			if (overflow || v > limit) {
				cg_err(d, line, NULL, NULL,
				       "number %.*s out of range (write large values as strings, e.g. \"0x80000000\" or \"2G\")",
				       (int)(i - start > 40 ? 40 : i - start), text + start);
				problems++;
			}
		} else {
			i++;
		}
	}
	return problems;
}
