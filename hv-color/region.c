// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color: colored regions, their extents and O(1) address translation.
 */
#include "hvc_internal.h"

static int mask_weight_in(const struct hvc_geometry *g,
			  const struct hvc_mask *m, hvc_u32 *k)
{
	if (!hvc_mask_fits(m, g->nr_colors))
		return -HVC_ERANGE;
	*k = hvc_mask_weight(m);
	return *k ? 0 : -HVC_EINVAL;
}

int hvc_span_for_size(const struct hvc_geometry *g, const struct hvc_mask *m,
		      hvc_u64 cell_size, hvc_u64 *span)
{
	hvc_u64 chunks, blocks;
	hvc_u32 k;
	int ret;

	ret = mask_weight_in(g, m, &k);
	if (ret)
		return ret;
	if (!cell_size || cell_size & ((1ull << g->page_shift) - 1))
		return -HVC_EINVAL;
	if (cell_size > HVC_PA_LIMIT)
		return -HVC_ERANGE;
	/* every color: a plain offset, the span is the cell to the page */
	if (k == g->nr_colors) {
		*span = cell_size;
		return 0;
	}
	chunks = ((cell_size - 1) >> g->chunk_shift) + 1;
	blocks = hvc_div64(chunks - 1, k) + 1;
	if (blocks > hvc_div64(HVC_PA_LIMIT, g->way_size))
		return -HVC_ERANGE;
	*span = blocks * g->way_size;
	return 0;
}

int hvc_size_for_span(const struct hvc_geometry *g, const struct hvc_mask *m,
		      hvc_u64 span, hvc_u64 *cell_size)
{
	hvc_u32 k;
	int ret;

	ret = mask_weight_in(g, m, &k);
	if (ret)
		return ret;
	if (span & (k == g->nr_colors ? (1ull << g->page_shift) - 1 :
		    g->way_size - 1))
		return -HVC_EINVAL;
	if (span > HVC_PA_LIMIT)
		return -HVC_ERANGE;
	if (k == g->nr_colors) {
		*cell_size = span;
		return 0;
	}
	*cell_size = (span >> g->color_shift) * k;
	return 0;
}

int hvc_region_init(struct hvc_region *r, const struct hvc_geometry *g,
		    const struct hvc_mask *m, hvc_u64 host_base,
		    hvc_u64 cell_base, hvc_u64 cell_size)
{
	hvc_u64 page_mask = (1ull << g->page_shift) - 1, span;
	hvc_u32 c, k, runs = 0;
	int ret;

	ret = hvc_span_for_size(g, m, cell_size, &span);
	if (ret)
		return ret;
	k = hvc_mask_weight(m);
	/* all colors: the mapping is a plain offset, page alignment will do */
	if ((host_base | cell_base) & page_mask ||
	    (k < g->nr_colors && host_base & (g->way_size - 1)))
		return -HVC_EINVAL;
	if (host_base >= HVC_PA_LIMIT || span > HVC_PA_LIMIT - host_base ||
	    cell_base >= HVC_PA_LIMIT || cell_size > HVC_PA_LIMIT - cell_base)
		return -HVC_ERANGE;

	r->host_base = host_base;
	r->host_span = span;
	r->cell_base = cell_base;
	r->cell_size = cell_size;
	r->way_size = g->way_size;
	r->chunk_shift = g->chunk_shift;
	r->color_shift = g->color_shift;
	r->nr_colors = g->nr_colors;
	r->k = k;
	/*
	 * n / k is the high half of n * magic (Granlund-Montgomery, with
	 * l = ceil(log2 k)): exact for n < 2^(64 - l); chunks stay below 2^40.
	 */
	r->div_magic = k == 1 ? 0 :
		       hvc_div64(~0ull, k) + (hvc_mod64(~0ull, k) + 1 == k) + 1;

	for (c = 0, k = 0; c < g->nr_colors; c++) {
		r->index_of[c] = HVC_NO_INDEX;
		if (!hvc_mask_test(m, c))
			continue;
		if (c == 0 || !hvc_mask_test(m, c - 1)) {
			r->run_pos[runs] = (hvc_u16)k;
			r->run_host[runs] = (hvc_u64)c << g->chunk_shift;
			r->run_size[runs++] = 0;
		}
		r->run_size[runs - 1] += 1ull << g->chunk_shift;
		r->index_of[c] = (hvc_u16)k;
		r->color_at[k++] = (hvc_u16)c;
	}
	r->nr_runs = runs;
	r->restart = 0;
	if (k == g->nr_colors) {
		r->run_size[0] = span;	/* one extent */
	} else if (hvc_mask_test(m, 0) && hvc_mask_test(m, g->nr_colors - 1)) {
		/* the last run goes on into the next block's run 0 */
		r->run_size[runs - 1] += r->run_size[0];
		r->restart = 1;
	}
	return 0;
}

/* O(1) on 32-bit targets too: math64.h multiplies in 32-bit halves there */
static inline hvc_u64 div_k(const struct hvc_region *r, hvc_u64 n)
{
	if (!r->div_magic)
		return n;
	return cg_mul_u64_u64_hi(n, r->div_magic);
}

int hvc_region_cell_to_host(const struct hvc_region *r, hvc_u64 cell_addr,
			    hvc_u64 *host_addr)
{
	hvc_u64 off = cell_addr - r->cell_base, chunk, block, pos;

	if (cell_addr < r->cell_base || off >= r->cell_size)
		return -HVC_ERANGE;
	chunk = off >> r->chunk_shift;
	block = div_k(r, chunk);
	pos = chunk - block * r->k;
	*host_addr = r->host_base +
		     (((block << r->color_shift) + r->color_at[pos]) << r->chunk_shift) +
		     (off & ((1ull << r->chunk_shift) - 1));
	return 0;
}

int hvc_region_host_to_cell(const struct hvc_region *r, hvc_u64 host_addr,
			    hvc_u64 *cell_addr)
{
	hvc_u64 off = host_addr - r->host_base, chunk, cell_off;
	hvc_u32 pos;

	if (host_addr < r->host_base || off >= r->host_span)
		return -HVC_ERANGE;
	chunk = off >> r->chunk_shift;
	pos = r->index_of[chunk & (r->nr_colors - 1)];
	if (pos == HVC_NO_INDEX)
		return -HVC_ENOENT;
	cell_off = (((chunk >> r->color_shift) * r->k + pos) << r->chunk_shift) +
		   (off & ((1ull << r->chunk_shift) - 1));
	if (cell_off >= r->cell_size)
		return -HVC_ENOENT;
	*cell_addr = r->cell_base + cell_off;
	return 0;
}

void hvc_extent_iter_init(struct hvc_extent_iter *it,
			  const struct hvc_region *r)
{
	it->r = r;
	it->cell_off = 0;
	it->block = r->host_base;
	it->run = 0;
}

/*
 * An extent starts a run (run_host, run_size) of the current way block and
 * is cut at the cell's end. Returns the next extent's cell offset.
 */
static inline hvc_u64 extent_step(const struct hvc_region *r, hvc_u64 off,
				  hvc_u64 *block, hvc_u32 *run,
				  struct hvc_extent *e)
{
	hvc_u64 len = r->run_size[*run];

	e->cell_addr = r->cell_base + off;
	e->host_addr = *block + r->run_host[*run];
	if (len >= r->cell_size - off) {
		e->size = r->cell_size - off;
		return r->cell_size;
	}
	e->size = len;
	if (++*run == r->nr_runs) {
		*run = r->restart;
		*block += r->way_size;
	}
	return off + len;
}

int hvc_extent_next(struct hvc_extent_iter *it, struct hvc_extent *e)
{
	if (it->cell_off >= it->r->cell_size)
		return 0;
	it->cell_off = extent_step(it->r, it->cell_off, &it->block, &it->run,
				   e);
	return 1;
}

/* Every step moves off forward, so the loop ends by max or the cell's end. */
hvc_u32 hvc_extent_fill(struct hvc_extent_iter *it, struct hvc_extent *e,
			hvc_u32 max)
{
	hvc_u64 off = it->cell_off, block = it->block;
	hvc_u32 run = it->run, n;

	for (n = 0; n < max && off < it->r->cell_size; n++)
		off = extent_step(it->r, off, &block, &run, &e[n]);
	it->cell_off = off;
	it->block = block;
	it->run = run;
	return n;
}

hvc_u64 hvc_region_nr_extents(const struct hvc_region *r)
{
	hvc_u64 chunks = ((r->cell_size - 1) >> r->chunk_shift) + 1;
	hvc_u64 blocks = div_k(r, chunks), n;
	hvc_u32 rem = (hvc_u32)(chunks - blocks * r->k), i;

	if (r->k == r->nr_colors)
		return 1;
	n = blocks * r->nr_runs;
	for (i = 0; i < r->nr_runs && r->run_pos[i] < rem; i++)
		n++;
	/* merges across block boundaries, when both sides hold chunks */
	if (r->restart && blocks)
		n -= rem ? blocks : blocks - 1;
	return n;
}
