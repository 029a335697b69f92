// SPDX-License-Identifier: GPL-2.0
/*
 * The critical workload's parts, shared by the demos that run it
 * (critbench, rt-task): a pointer chase through cache lines in a random
 * cyclic order, which defeats the prefetchers and so measures the cache
 * hierarchy, and a read-modify-write stream over whole lines; and the
 * pseudo-random numbers of the chase and the test inmates.
 */
#include "inmate.h"

#define LINE	64

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* xorshift64: the same sequence every run, a reproducible workload. */
uint64_t inmate_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Sattolo's shuffle: one cycle through every line of buf. */
void chase_build(uintptr_t *buf, size_t lines)
{
	const size_t step = LINE / sizeof(uintptr_t);
	size_t i;

	for (i = 0; i < lines; i++)
		buf[i * step] = i;
	for (i = lines - 1; i > 0; i--) {
		size_t j = (size_t)(inmate_rand() % i);
		uintptr_t t = buf[i * step];

		buf[i * step] = buf[j * step];
		buf[j * step] = t;
	}
	for (i = 0; i < lines; i++)
		buf[i * step] = (uintptr_t)&buf[buf[i * step] * step];
}

uintptr_t chase_run(uintptr_t *p, uint64_t n)
{
	while (n--)
		p = (uintptr_t *)*p;
	return (uintptr_t)p;
}

uint64_t stream_rw(volatile uint64_t *s, uint64_t bytes, uint64_t sum)
{
	uint64_t i;

	for (i = 0; i < bytes / 8; i += LINE / 8) {
		sum += s[i];
		s[i] = sum;
	}
	return sum;
}
