/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 64-bit division, multiply-high and bit scans for hv-color and limits.h,
 * without libgcc. On a 32-bit target the compiler turns a 64-bit '/' or
 * '%' into a call to __udivdi3 or __aeabi_uldivmod and __builtin_ctzll
 * into __ctzdi2, which a hypervisor does not link; these helpers use only
 * what a 32-bit target does inline (32-bit division, 32-bit clz and ctz,
 * 32x32->64 multiplies, 64-bit shifts and adds).
 *
 * Each helper has a portable form (the _32 suffix), built everywhere so
 * that the host tests check it against the compiler's own 64-bit
 * arithmetic (selftests/hv-color/test_math64.c), and a form for use,
 * which on a 64-bit target is the compiler's arithmetic. In the kernel
 * the division is div64_u64_rem() (32-bit kernels have no __udivdi3
 * either). Selftests/hv-color/freestanding checks that every hv-color
 * source built for i386 and ARMv7 leaves no symbol undefined.
 */
#ifndef _COLORGUARD_MATH64_H
#define _COLORGUARD_MATH64_H

#ifdef __KERNEL__
#include <linux/math64.h>
#endif

/* A 64-bit target: the compiler's 64-bit arithmetic is inline there. */
#if __SIZEOF_LONG__ >= 8
#define CG_NATIVE_64
#endif

/**
 * cg_clz64_32() - leading zero bits of a 64-bit value, from 32-bit scans
 * @x: the value, not 0
 *
 * Return: the number of leading zero bits, 0 to 63.
 */
static inline unsigned int cg_clz64_32(unsigned long long x)
{
	unsigned int hi = (unsigned int)(x >> 32);

	return hi ? (unsigned int)__builtin_clz(hi) :
		    32 + (unsigned int)__builtin_clz((unsigned int)x);
}

/**
 * cg_ctz64_32() - trailing zero bits of a 64-bit value, from 32-bit scans
 * @x: the value, not 0
 *
 * Return: the number of trailing zero bits, 0 to 63.
 */
static inline unsigned int cg_ctz64_32(unsigned long long x)
{
	unsigned int lo = (unsigned int)x;

	return lo ? (unsigned int)__builtin_ctz(lo) :
		    32 + (unsigned int)__builtin_ctz((unsigned int)(x >> 32));
}

/**
 * cg_div64_u64_rem_32() - 64-bit unsigned division from 32-bit operations
 * @n: the dividend
 * @d: the divisor, not 0
 * @rem: where the remainder goes
 *
 * Binary long division over the quotient's significant bits: at most 64
 * steps of a compare, a subtract and two shifts. Not even a 32-bit
 * division: ARMv7-A before the virtualization extensions has none in
 * hardware (the compiler would call __aeabi_uidiv).
 *
 * Return: @n / @d.
 */
static inline unsigned long long cg_div64_u64_rem_32(unsigned long long n,
						     unsigned long long d,
						     unsigned long long *rem)
{
	unsigned long long q = 0;
	unsigned int i;

	if (d > n) {
		*rem = n;
		return 0;
	}
	i = cg_clz64_32(d) - cg_clz64_32(n);
	d <<= i;
	for (i++; i; i--) {
		q <<= 1;
		if (n >= d) {
			n -= d;
			q |= 1;
		}
		d >>= 1;
	}
	*rem = n;
	return q;
}

/**
 * cg_mul_u64_u64_hi_32() - high 64 bits of a 64x64-bit product
 * @a: a factor
 * @b: the other factor
 *
 * Four 32x32->64 multiplies, carries added in 64 bits.
 *
 * Return: (@a * @b) >> 64, the product taken in 128 bits.
 */
static inline unsigned long long cg_mul_u64_u64_hi_32(unsigned long long a,
						      unsigned long long b)
{
	unsigned long long a_lo = (unsigned int)a, a_hi = a >> 32;
	unsigned long long b_lo = (unsigned int)b, b_hi = b >> 32;
	unsigned long long lo = a_lo * b_lo, m1 = a_hi * b_lo;
	unsigned long long m2 = a_lo * b_hi, hi = a_hi * b_hi;
	unsigned long long mid = (lo >> 32) + (unsigned int)m1 + (unsigned int)m2;

	return hi + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
}

/**
 * cg_clz64() - leading zero bits of a 64-bit value
 * @x: the value, not 0
 *
 * Return: the number of leading zero bits, 0 to 63.
 */
static inline unsigned int cg_clz64(unsigned long long x)
{
#ifdef CG_NATIVE_64
	return (unsigned int)__builtin_clzll(x);
#else
	return cg_clz64_32(x);
#endif
}

/**
 * cg_ctz64() - trailing zero bits of a 64-bit value
 * @x: the value, not 0
 *
 * Return: the number of trailing zero bits, 0 to 63.
 */
static inline unsigned int cg_ctz64(unsigned long long x)
{
#ifdef CG_NATIVE_64
	return (unsigned int)__builtin_ctzll(x);
#else
	return cg_ctz64_32(x);
#endif
}

/**
 * cg_div64_u64_rem() - 64-bit unsigned division and remainder
 * @n: the dividend
 * @d: the divisor, not 0
 * @rem: where the remainder goes
 *
 * div64_u64_rem() in the kernel, the compiler's division on a 64-bit
 * target, cg_div64_u64_rem_32() elsewhere.
 *
 * Return: @n / @d.
 */
static inline unsigned long long cg_div64_u64_rem(unsigned long long n,
						  unsigned long long d,
						  unsigned long long *rem)
{
#if defined(__KERNEL__)
	return div64_u64_rem(n, d, rem);
#elif defined(CG_NATIVE_64)
	*rem = n % d;
	return n / d;
#else
	return cg_div64_u64_rem_32(n, d, rem);
#endif
}

/**
 * cg_div64_u64() - 64-bit unsigned division
 * @n: the dividend
 * @d: the divisor, not 0
 *
 * Return: @n / @d.
 */
static inline unsigned long long cg_div64_u64(unsigned long long n,
					      unsigned long long d)
{
	unsigned long long rem;

	return cg_div64_u64_rem(n, d, &rem);
}

/**
 * cg_mul_u64_u64_hi() - high 64 bits of a 64x64-bit product
 * @a: a factor
 * @b: the other factor
 *
 * Return: (@a * @b) >> 64, the product taken in 128 bits.
 */
static inline unsigned long long cg_mul_u64_u64_hi(unsigned long long a,
						   unsigned long long b)
{
#ifdef __SIZEOF_INT128__
	return (unsigned long long)(((__uint128_t)a * b) >> 64);
#else
	return cg_mul_u64_u64_hi_32(a, b);
#endif
}

#endif /* _COLORGUARD_MATH64_H */
