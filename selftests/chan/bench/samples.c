// SPDX-License-Identifier: GPL-2.0
/*
 * Latency samples: kept whole (a run is tens of thousands), sorted once,
 * read by nearest rank so that p99.9 of 20000 samples is a sample seen.
 */
#include <stdlib.h>

#include "bench.h"

void samples_init(struct samples *s, size_t cap)
{
	s->v = calloc(cap, sizeof(*s->v));
	if (!s->v)
		die("out of memory for %zu samples", cap);
	s->n = 0;
	s->cap = cap;
	s->sorted = 0;
}

void samples_free(struct samples *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* Beyond the room: dropped, a run never takes more than it asked for. */
void samples_add(struct samples *s, uint64_t ns)
{
	if (s->n < s->cap)
		s->v[s->n++] = ns;
	s->sorted = 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t samples_pct(struct samples *s, unsigned int per_mille)
{
	size_t rank;

	if (!s->n)
		return 0;
	if (!s->sorted) {
		qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
		s->sorted = 1;
	}
	rank = (s->n * per_mille + 999) / 1000;
	return s->v[rank ? rank - 1 : 0];
}

double samples_mean(const struct samples *s)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < s->n; i++)
		sum += s->v[i];
	return s->n ? sum / s->n : 0;
}
