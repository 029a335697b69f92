// SPDX-License-Identifier: GPL-2.0
/* Escaping an inmate's text before it is shown. See guest_text.h. */
#include "guest_text.h"

static const char hex[] = "0123456789abcdef";

size_t cell_text_escape(char *dst, size_t size, const char *src, size_t len)
{
	size_t out = 0, i;

	if (!size)
		return 0;
	for (i = 0; i < len && src[i]; i++) {
		unsigned char ch = src[i];
		char esc[4];
		size_t n = 0, k;

		if (ch == '\\') {
			esc[n++] = '\\';
			esc[n++] = '\\';
		} else if (ch >= 0x20 && ch < 0x7f) {
			esc[n++] = ch;
		} else {
			esc[n++] = '\\';
			esc[n++] = 'x';
			esc[n++] = hex[ch >> 4];
			esc[n++] = hex[ch & 15];
		}
		if (out + n >= size)
			break;
		for (k = 0; k < n; k++)
			dst[out++] = esc[k];
	}
	dst[out] = '\0';
	return out;
}
