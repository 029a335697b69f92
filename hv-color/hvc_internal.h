/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hv-color internals shared by its .c files; not part of the API.
 */
#ifndef _HV_COLOR_INTERNAL_H
#define _HV_COLOR_INTERNAL_H

#include <colorguard/hv_color.h>

/* Own popcount: the builtin may call into libgcc, which we do not link. */
static inline hvc_u32 hvc_popcount64(hvc_u64 x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (hvc_u32)((x * 0x0101010101010101ull) >> 56);
}

/*
 * x != 0. The bit scans and 64-bit divisions are math64.h's: inline on
 * 32-bit targets too, where the compiler's would call libgcc.
 */
static inline hvc_u32 hvc_ctz64(hvc_u64 x)
{
	return cg_ctz64(x);
}

static inline hvc_u32 hvc_ilog2(hvc_u64 x)
{
	return 63 - cg_clz64(x);
}

/* d != 0 */
static inline hvc_u64 hvc_div64(hvc_u64 n, hvc_u64 d)
{
	return cg_div64_u64(n, d);
}

static inline hvc_u64 hvc_mod64(hvc_u64 n, hvc_u64 d)
{
	unsigned long long rem;

	cg_div64_u64_rem(n, d, &rem);
	return rem;
}

static inline int hvc_is_pow2(hvc_u64 x)
{
	return x && !(x & (x - 1));
}

static inline hvc_u64 hvc_bit_word(hvc_u32 bit)
{
	return 1ull << (bit % 64);
}

/* Text into a buffer, cut and marked full when it does not fit */
struct hvc_sbuf {
	char *buf;
	hvc_size size, pos;
	int full;
};

static inline void hvc_sb_str(struct hvc_sbuf *b, const char *s)
{
	hvc_u32 i;

	for (i = 0; s[i] && i < 256; i++) {
		if (b->pos + 1 >= b->size) {
			b->full = 1;
			return;
		}
		b->buf[b->pos++] = s[i];
	}
}

/* prefix, then v in decimal */
static inline void hvc_sb_num(struct hvc_sbuf *b, const char *prefix,
			      hvc_u32 v)
{
	char d[11];
	int n = 10;

	d[10] = '\0';
	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	hvc_sb_str(b, prefix);
	hvc_sb_str(b, d + n);
}

/* NUL-terminates; the length, or -HVC_ENOSPC if anything was cut */
static inline int hvc_sb_end(struct hvc_sbuf *b)
{
	if (!b->size)
		return -HVC_ENOSPC;
	b->buf[b->pos] = '\0';
	return b->full ? -HVC_ENOSPC : (int)b->pos;
}

/* Little-endian accessors independent of the host's byte order */
static inline hvc_u64 hvc_get_le(const hvc_u8 *p, hvc_u32 bytes)
{
	hvc_u64 v = 0;
	hvc_u32 i;

	for (i = bytes; i > 0; i--)
		v = (v << 8) | p[i - 1];
	return v;
}

static inline void hvc_put_le(hvc_u8 *p, hvc_u32 bytes, hvc_u64 v)
{
	hvc_u32 i;

	for (i = 0; i < bytes; i++) {
		p[i] = (hvc_u8)v;
		v >>= 8;
	}
}

/* error.c: used by the blob parser and the validator */
void hvc_name_copy(char *dst, const char *src);
int hvc_error_fill(struct hvc_error *e, int code, int cell, int region,
		   hvc_u32 offset, const char *field, const char *msg);

#endif /* _HV_COLOR_INTERNAL_H */
