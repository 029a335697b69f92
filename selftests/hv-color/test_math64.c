// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color host tests: the portable 64-bit helpers of math64.h, which
 * 32-bit targets use instead of libgcc, against the compiler's own 64-bit
 * (and 128-bit) arithmetic: edge cases, then many pseudo-random operands
 * of every bit length. The _32 forms are built here on the 64-bit host;
 * they use only operations a 32-bit target does inline
 * (selftests/hv-color/freestanding checks that part).
 */
#include <stdio.h>
#include <colorguard/math64.h>
#include "kselftest_harness.h"

typedef unsigned long long u64;

static const u64 edge[] = {
	0, 1, 2, 3, 7, 10, 63, 64, 1000, 0xffff, 0x10000, 0x10001,
	0x7fffffffull, 0x80000000ull, 0xfffffffeull, 0xffffffffull,
	0x100000000ull, 0x100000001ull, 0x1ffffffffull, 0x123456789abcdefull,
	0x7fffffffffffffffull, 0x8000000000000000ull, 0x8000000000000001ull,
	0xfffffffffffffffeull, 0xffffffffffffffffull,
};

#define NR_EDGE ARRAY_SIZE(edge)

static u64 rng = 0x9e3779b97f4a7c15ull;

/* xorshift64*, cut to a random bit length so every length is covered */
static u64 rand64(void)
{
	u64 x;

	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	x = rng * 0x2545f4914f6cdd1dull;
	return x >> (x % 64);
}

static unsigned int logged;

static int check_div(struct __test_metadata *_metadata, u64 n, u64 d)
{
	u64 rem = ~0ull, q = cg_div64_u64_rem_32(n, d, &rem);

	if (q == n / d && rem == n % d)
		return 0;
	if (logged++ < 8)
		TH_LOG("%llu / %llu: got %llu rem %llu, want %llu rem %llu",
		       n, d, q, rem, n / d, n % d);
	return 1;
}

TEST(div_edges)
{
	unsigned int i, j, bad = 0;

	for (i = 0; i < NR_EDGE; i++)
		for (j = 0; j < NR_EDGE; j++)
			if (edge[j])
				bad += check_div(_metadata, edge[i], edge[j]);
	EXPECT_EQ(0, bad);
}

TEST(div_random)
{
	unsigned int i, bad = 0;
	u64 n, d;

	for (i = 0; i < 2000000 && bad < 10; i++) {
		n = rand64();
		d = rand64();
		if (!d)
			d = 1;
		bad += check_div(_metadata, n, d);
		/* a quotient of all 64 bits */
		bad += check_div(_metadata, n | 1ull << 63, (d & 0xf) | 1);
	}
	EXPECT_EQ(0, bad);
}

/* The wrapper hv-color calls: the compiler's on this host, same results. */
TEST(div_wrapper)
{
	u64 rem;

	EXPECT_EQ(0x1999999999999999ull, cg_div64_u64(~0ull, 10));
	EXPECT_EQ(1, cg_div64_u64_rem(~0ull, 0xfffffffffffffffeull, &rem));
	EXPECT_EQ(1, rem);
	EXPECT_EQ(0, cg_div64_u64_rem(5, 6, &rem));
	EXPECT_EQ(5, rem);
}

TEST(bit_scans)
{
	unsigned int i, bad = 0;
	u64 x;

	for (i = 0; i < 64; i++) {
		x = 1ull << i;
		bad += cg_ctz64_32(x) != i || cg_clz64_32(x) != 63 - i;
		bad += cg_ctz64_32(~0ull << i) != i;
		bad += cg_clz64_32(~0ull >> i) != i;
		bad += cg_ctz64(x) != i || cg_clz64(x) != 63 - i;
	}
	for (i = 0; i < 1000000; i++) {
		x = rand64() | 1ull << (i % 64);
		bad += cg_ctz64_32(x) != (unsigned int)__builtin_ctzll(x);
		bad += cg_clz64_32(x) != (unsigned int)__builtin_clzll(x);
	}
	EXPECT_EQ(0, bad);
}

static u64 mulhi128(u64 a, u64 b)
{
	return (u64)(((__uint128_t)a * b) >> 64);
}

TEST(mul_hi)
{
	unsigned int i, j, bad = 0;
	u64 a, b;

	for (i = 0; i < NR_EDGE; i++)
		for (j = 0; j < NR_EDGE; j++)
			bad += cg_mul_u64_u64_hi_32(edge[i], edge[j]) !=
			       mulhi128(edge[i], edge[j]);
	for (i = 0; i < 2000000; i++) {
		a = rand64();
		b = rand64();
		bad += cg_mul_u64_u64_hi_32(a, b) != mulhi128(a, b);
	}
	EXPECT_EQ(0, bad);
}

/*
 * What region.c builds from them: n / k as the high half of n times the
 * reciprocal of k (div_magic, set up with cg_div64_u64_rem), for every
 * weight k of a mask and chunk numbers up to 2^40.
 */
TEST(region_reciprocal)
{
	unsigned int k, i, bad = 0;
	u64 magic, rem, q, n;

	for (k = 2; k <= 1024; k++) {
		q = cg_div64_u64_rem_32(~0ull, k, &rem);
		magic = q + (rem + 1 == k) + 1;
		for (i = 0; i < 4000; i++) {
			n = i < 2000 ? i : rand64() >> 24;
			if (cg_mul_u64_u64_hi_32(n, magic) != n / k && bad++ < 5)
				TH_LOG("k %u n %llu: %llu", k, n,
				       cg_mul_u64_u64_hi_32(n, magic));
		}
		n = (1ull << 40) - 1;
		bad += cg_mul_u64_u64_hi_32(n, magic) != n / k;
	}
	EXPECT_EQ(0, bad);
}

TEST_HARNESS_MAIN
