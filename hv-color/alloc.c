// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color: the colored frame allocator.
 *
 * Colors with free frames sit in buckets of equal free count, in a list
 * sorted by count, most first. An allocation takes the lowest allowed color
 * of the first bucket from the top that has one: it costs the buckets above
 * the answer, not the colors. A count moves by one per call, so a color
 * only moves to a neighbouring bucket; a color is in one bucket at most,
 * so HVC_MAX_COLORS buckets suffice.
 */
#include "hvc_internal.h"

#define frame_of(l) \
	((struct hvc_frame *)((char *)(l) - __builtin_offsetof(struct hvc_frame, link)))

/* Makes prev and next neighbours; HVC_NO_BUCKET is the list's end. */
static void bucket_join(struct hvc_allocator *a, hvc_u16 prev, hvc_u16 next)
{
	if (prev == HVC_NO_BUCKET)
		a->head = next;
	else
		a->buckets[prev].next = next;
	if (next == HVC_NO_BUCKET)
		a->tail = prev;
	else
		a->buckets[next].prev = prev;
}

static void bucket_add_color(struct hvc_allocator *a, hvc_u16 b, hvc_u32 c)
{
	struct hvc_alloc_bucket *bk = &a->buckets[b];

	bk->bits[c / 64] |= hvc_bit_word(c);
	bk->members++;
	a->bucket_of[c] = b;
}

/* Takes c out of its bucket; drops the bucket once empty. */
static void bucket_del_color(struct hvc_allocator *a, hvc_u32 c)
{
	hvc_u16 b = a->bucket_of[c];
	struct hvc_alloc_bucket *bk = &a->buckets[b];

	bk->bits[c / 64] &= ~hvc_bit_word(c);
	if (!--bk->members) {
		bucket_join(a, bk->prev, bk->next);
		bk->next = a->spare;
		a->spare = b;
	}
	a->bucket_of[c] = HVC_NO_BUCKET;
}

/*
 * a->free[c] has just gone up or down by one: c moves to the neighbouring
 * bucket of its new count (a new one if there is none) or, alone in its
 * bucket, keeps it. A color new to the pool goes after the tail.
 */
static void color_moved(struct hvc_allocator *a, hvc_u32 c, int up)
{
	hvc_u64 n = a->free[c];
	hvc_u16 b = a->bucket_of[c], to, nb;

	if (!n) {
		bucket_del_color(a, c);
		return;
	}
	if (b == HVC_NO_BUCKET)
		to = a->tail;
	else
		to = up ? a->buckets[b].prev : a->buckets[b].next;
	if (to == HVC_NO_BUCKET || a->buckets[to].count != n) {
		if (b != HVC_NO_BUCKET && a->buckets[b].members == 1) {
			a->buckets[b].count = n;	/* order still holds */
			return;
		}
		nb = a->spare;
		a->spare = a->buckets[nb].next;
		a->buckets[nb].count = n;
		bucket_join(a, up ? to : b, nb);
		bucket_join(a, nb, up ? b : to);
		to = nb;
	}
	if (b != HVC_NO_BUCKET)
		bucket_del_color(a, c);
	bucket_add_color(a, to, c);
}

void hvc_frame_init(struct hvc_frame *f)
{
	f->link.next = HVC_NULL;
	f->link.prev = HVC_NULL;
	f->pfn = 0;
	f->owner = HVC_NULL;
	f->color = 0;
	f->state = HVC_FRAME_DETACHED;
}

int hvc_alloc_init(struct hvc_allocator *a, const struct hvc_geometry *g)
{
	hvc_u32 i, w;

	if (g->nr_colors < 2 || g->nr_colors > HVC_MAX_COLORS ||
	    !hvc_is_pow2(g->nr_colors) || g->page_shift < HVC_MIN_PAGE_SHIFT ||
	    g->page_shift > HVC_MAX_PAGE_SHIFT)
		return -HVC_EINVAL;
	a->nr_colors = g->nr_colors;
	a->gran_shift = g->gran_shift;
	a->pfn_limit = HVC_PA_LIMIT >> g->page_shift;
	a->nr_free = 0;
	a->nr_used = 0;
	a->head = HVC_NO_BUCKET;
	a->tail = HVC_NO_BUCKET;
	a->spare = 0;
	a->reserved = 0;
	for (i = 0; i < HVC_MAX_COLORS; i++) {
		a->free[i] = 0;
		a->used[i] = 0;
		a->free_list[i].next = &a->free_list[i];	/* empty */
		a->free_list[i].prev = &a->free_list[i];
		a->bucket_of[i] = HVC_NO_BUCKET;
		a->buckets[i].count = 0;
		for (w = 0; w < HVC_MASK_WORDS; w++)
			a->buckets[i].bits[w] = 0;
		a->buckets[i].prev = HVC_NO_BUCKET;
		a->buckets[i].next = i + 1 < HVC_MAX_COLORS ? (hvc_u16)(i + 1) :
							      HVC_NO_BUCKET;
		a->buckets[i].members = 0;
	}
	return 0;
}

/* f goes first on its color's free list */
static void put_free(struct hvc_allocator *a, struct hvc_frame *f)
{
	struct hvc_list *h = &a->free_list[f->color];

	f->link.next = h->next;
	f->link.prev = h;
	h->next->prev = &f->link;
	h->next = &f->link;
	f->state = HVC_FRAME_FREE;
	a->free[f->color]++;
	a->nr_free++;
	color_moved(a, f->color, 1);
}

static void take_free(struct hvc_allocator *a, struct hvc_frame *f)
{
	f->link.prev->next = f->link.next;
	f->link.next->prev = f->link.prev;
	f->link.next = HVC_NULL;
	f->link.prev = HVC_NULL;
	a->free[f->color]--;
	a->nr_free--;
	color_moved(a, f->color, 0);
}

int hvc_alloc_add(struct hvc_allocator *a, struct hvc_frame *f, hvc_u64 pfn)
{
	if (!f)
		return -HVC_EINVAL;
	if (f->owner || f->state != HVC_FRAME_DETACHED)
		return -HVC_EEXIST;
	if (pfn >= a->pfn_limit)
		return -HVC_ERANGE;
	f->pfn = pfn;
	f->owner = a;
	f->color = (hvc_u32)(pfn >> a->gran_shift) & (a->nr_colors - 1);
	put_free(a, f);
	return 0;
}

int hvc_alloc_add_range(struct hvc_allocator *a, struct hvc_frame *frames,
			hvc_u64 nr, hvc_u64 first_pfn)
{
	hvc_u64 i;

	if (!frames)
		return -HVC_EINVAL;
	if (first_pfn >= a->pfn_limit || nr > a->pfn_limit - first_pfn)
		return -HVC_ERANGE;
	for (i = 0; i < nr; i++)
		if (frames[i].owner || frames[i].state != HVC_FRAME_DETACHED)
			return -HVC_EEXIST;
	for (i = 0; i < nr; i++)
		hvc_alloc_add(a, &frames[i], first_pfn + i);
	return 0;
}

int hvc_alloc_remove(struct hvc_allocator *a, struct hvc_frame *f)
{
	if (!f || f->owner != a || f->color >= a->nr_colors)
		return -HVC_EINVAL;
	if (f->state == HVC_FRAME_USED)
		return -HVC_EBUSY;
	if (f->state != HVC_FRAME_FREE)
		return -HVC_EINVAL;
	take_free(a, f);
	f->owner = HVC_NULL;
	f->state = HVC_FRAME_DETACHED;
	return 0;
}

struct hvc_frame *hvc_alloc_frame(struct hvc_allocator *a,
				  const struct hvc_mask *allowed)
{
	struct hvc_frame *f;
	hvc_u32 w, c;
	hvc_u16 b;
	hvc_u64 x;

	for (b = a->head; b != HVC_NO_BUCKET; b = a->buckets[b].next) {
		for (w = 0; w * 64 < a->nr_colors; w++) {
			x = a->buckets[b].bits[w] & allowed->bits[w];
			if (x)
				goto found;
		}
	}
	return HVC_NULL;
found:
	c = w * 64 + hvc_ctz64(x);
	f = frame_of(a->free_list[c].next);
	take_free(a, f);
	f->state = HVC_FRAME_USED;
	a->used[c]++;
	a->nr_used++;
	return f;
}

int hvc_alloc_free(struct hvc_allocator *a, struct hvc_frame *f)
{
	if (!f || f->owner != a || f->color >= a->nr_colors)
		return -HVC_EINVAL;
	if (f->state == HVC_FRAME_FREE)
		return -HVC_EALREADY;
	if (f->state != HVC_FRAME_USED)
		return -HVC_EINVAL;
	a->used[f->color]--;
	a->nr_used--;
	put_free(a, f);
	return 0;
}

hvc_u64 hvc_alloc_free_count(const struct hvc_allocator *a, hvc_u32 color)
{
	return color < a->nr_colors ? a->free[color] : 0;
}

hvc_u64 hvc_alloc_used_count(const struct hvc_allocator *a, hvc_u32 color)
{
	return color < a->nr_colors ? a->used[color] : 0;
}
