// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color: LLC geometry, color masks and the Linux list syntax.
 */
#include "hvc_internal.h"

int hvc_geometry_from_way_size(struct hvc_geometry *g, hvc_u64 way_size,
			       hvc_u32 line_size, hvc_u32 nr_ways,
			       hvc_u32 page_shift, hvc_u32 pages_per_color)
{
	hvc_u32 gran_shift;
	hvc_u64 colors;

	if (!hvc_is_pow2(way_size) || !hvc_is_pow2(pages_per_color) ||
	    pages_per_color > (1u << HVC_MAX_GRAN_SHIFT) ||
	    page_shift < HVC_MIN_PAGE_SHIFT || page_shift > HVC_MAX_PAGE_SHIFT)
		return -HVC_EINVAL;
	gran_shift = hvc_ilog2(pages_per_color);
	/* also rejects a way smaller than one color chunk */
	colors = way_size >> (page_shift + gran_shift);
	if (colors < 2)
		return -HVC_EINVAL;
	if (colors > HVC_MAX_COLORS)
		return -HVC_ERANGE;
	if (line_size && (!hvc_is_pow2(line_size) ||
			  line_size > CG_LINE_SIZE_MAX))
		return -HVC_EINVAL;
	if (nr_ways > HVC_MAX_WAYS)
		return -HVC_ERANGE;

	g->way_size = way_size;
	g->line_size = line_size;
	g->nr_sets = line_size ? (hvc_u32)hvc_div64(way_size, line_size) : 0;
	g->nr_ways = nr_ways;
	g->page_shift = page_shift;
	g->gran_shift = gran_shift;
	g->nr_colors = (hvc_u32)colors;
	g->color_shift = hvc_ilog2(colors);
	g->chunk_shift = page_shift + gran_shift;
	return 0;
}

int hvc_geometry_from_cache(struct hvc_geometry *g, hvc_u32 line_size,
			    hvc_u32 nr_sets, hvc_u32 nr_ways,
			    hvc_u32 page_shift, hvc_u32 pages_per_color)
{
	if (!hvc_is_pow2(line_size) || !hvc_is_pow2(nr_sets) || !nr_ways)
		return -HVC_EINVAL;
	return hvc_geometry_from_way_size(g, (hvc_u64)line_size * nr_sets,
					  line_size, nr_ways, page_shift,
					  pages_per_color);
}

int hvc_budget_events(hvc_u32 mbps, hvc_u32 period_us, hvc_u32 line_size,
		      hvc_u64 *events)
{
	if (period_us < CG_PERIOD_US_MIN || period_us > CG_PERIOD_US_MAX ||
	    line_size < CG_LINE_SIZE_MIN || line_size > CG_LINE_SIZE_MAX)
		return -HVC_EINVAL;
	if (mbps > CG_MBPS_MAX)
		return -HVC_ERANGE;
	*events = cg_mbps_to_events(mbps, period_us, line_size);
	return 0;
}

void hvc_mask_zero(struct hvc_mask *m)
{
	hvc_u32 i;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		m->bits[i] = 0;
}

/* Bits from a up to end (excluded) and HVC_MAX_COLORS */
static void set_range(struct hvc_mask *m, hvc_u32 a, hvc_u32 end)
{
	for (; a < end && a < HVC_MAX_COLORS; a++)
		m->bits[a / 64] |= hvc_bit_word(a);
}

void hvc_mask_fill(struct hvc_mask *m, hvc_u32 nbits)
{
	hvc_mask_zero(m);
	set_range(m, 0, nbits);
}

void hvc_mask_copy(struct hvc_mask *dst, const struct hvc_mask *src)
{
	hvc_u32 i;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		dst->bits[i] = src->bits[i];
}

void hvc_mask_set(struct hvc_mask *m, hvc_u32 bit)
{
	if (bit < HVC_MAX_COLORS)
		m->bits[bit / 64] |= hvc_bit_word(bit);
}

int hvc_mask_test(const struct hvc_mask *m, hvc_u32 bit)
{
	return bit < HVC_MAX_COLORS && (m->bits[bit / 64] & hvc_bit_word(bit));
}

hvc_u32 hvc_mask_weight(const struct hvc_mask *m)
{
	hvc_u32 i, n = 0;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		n += hvc_popcount64(m->bits[i]);
	return n;
}

void hvc_mask_and(struct hvc_mask *dst, const struct hvc_mask *a,
		  const struct hvc_mask *b)
{
	hvc_u32 i;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		dst->bits[i] = a->bits[i] & b->bits[i];
}

void hvc_mask_or(struct hvc_mask *dst, const struct hvc_mask *a,
		 const struct hvc_mask *b)
{
	hvc_u32 i;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		dst->bits[i] = a->bits[i] | b->bits[i];
}

int hvc_mask_empty(const struct hvc_mask *m)
{
	return hvc_mask_next(m, 0) == HVC_MAX_COLORS;
}

int hvc_mask_equal(const struct hvc_mask *a, const struct hvc_mask *b)
{
	hvc_u32 i;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		if (a->bits[i] != b->bits[i])
			return 0;
	return 1;
}

int hvc_mask_intersects(const struct hvc_mask *a, const struct hvc_mask *b)
{
	hvc_u32 i;

	for (i = 0; i < HVC_MASK_WORDS; i++)
		if (a->bits[i] & b->bits[i])
			return 1;
	return 0;
}

int hvc_mask_fits(const struct hvc_mask *m, hvc_u32 nbits)
{
	return hvc_mask_next(m, nbits) == HVC_MAX_COLORS;
}

hvc_u32 hvc_mask_next(const struct hvc_mask *m, hvc_u32 from)
{
	hvc_u64 x, keep = ~0ull << (from % 64);	/* of the first word */
	hvc_u32 w;

	for (w = from / 64; w < HVC_MASK_WORDS; w++, keep = ~0ull) {
		x = m->bits[w] & keep;
		if (x)
			return w * 64 + hvc_ctz64(x);
	}
	return HVC_MAX_COLORS;
}

static int parse_fail(struct hvc_parse_error *err, int code, hvc_size pos,
		      const char *reason)
{
	if (err) {
		err->code = code;
		err->pos = (hvc_u32)pos;
		err->reason = reason;
	}
	return code;
}

static int is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A decimal number at s[*i] that fits 32 bits, as the kernel requires. */
static int parse_num(const char *s, hvc_size len, hvc_size *i, hvc_u32 *num,
		     struct hvc_parse_error *err)
{
	hvc_size start = *i;
	hvc_u64 v = 0;

	if (start >= len || !is_digit(s[start]))
		return parse_fail(err, -HVC_EINVAL, start,
				  start < len && s[start] == 'N' ?
				  "'N' (last bit) is not supported" :
				  "expected a decimal number");
	while (*i < len && is_digit(s[*i])) {
		v = v * 10 + (hvc_u64)(s[*i] - '0');
		if (v > 0xffffffffu)
			return parse_fail(err, -HVC_EOVERFLOW, start,
					  "number too large");
		(*i)++;
	}
	*num = (hvc_u32)v;
	return 0;
}

int hvc_mask_parse(struct hvc_mask *m, const char *s, hvc_size len,
		   hvc_u32 nbits, struct hvc_parse_error *err)
{
	struct hvc_mask t;
	hvc_size i = 0, n, at, end_at;
	hvc_u32 a, b;
	int ret;

	if (nbits > HVC_MAX_COLORS)
		return parse_fail(err, -HVC_ERANGE, 0, "mask wider than HVC_MAX_COLORS");
	for (n = 0; n < len && s[n]; n++)
		;
	len = n;
	hvc_mask_zero(&t);
	while (i < len) {
		if (s[i] == '\n') {
			for (n = i + 1; n < len; n++)
				if (!is_space(s[n]))
					return parse_fail(err, -HVC_EINVAL, n,
							  "text after the newline that ends the list");
			break;
		}
		if (is_space(s[i]) || s[i] == ',') {
			i++;
			continue;
		}
		at = i;
		ret = parse_num(s, len, &i, &a, err);
		b = a;
		end_at = at;
		if (!ret && i < len && s[i] == '-') {
			end_at = ++i;
			ret = parse_num(s, len, &i, &b, err);
		}
		if (ret)
			return ret;
		if (i < len && !is_space(s[i]) && s[i] != ',')
			return parse_fail(err, -HVC_EINVAL, i, s[i] == ':' ?
					  "group syntax (a-b:n/m) is not supported" :
					  "expected ',', '-' or the end of the list");
		if (a > b)
			return parse_fail(err, -HVC_EINVAL, at,
					  "range start above its end");
		if (b >= nbits)
			return parse_fail(err, -HVC_ERANGE, end_at,
					  "bit beyond the mask width");
		set_range(&t, a, b + 1);
	}
	hvc_mask_copy(m, &t);
	return 0;
}

int hvc_mask_format(const struct hvc_mask *m, char *buf, hvc_size size)
{
	struct hvc_sbuf b = { .buf = buf, .size = size };
	hvc_u32 bit, end;

	for (bit = hvc_mask_next(m, 0); bit < HVC_MAX_COLORS && !b.full;
	     bit = hvc_mask_next(m, end + 1)) {
		end = bit;
		while (hvc_mask_test(m, end + 1))
			end++;
		hvc_sb_num(&b, b.pos ? "," : "", bit);
		if (end > bit)
			hvc_sb_num(&b, "-", end);
	}
	return hvc_sb_end(&b);
}
