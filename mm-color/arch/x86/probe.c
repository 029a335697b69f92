// SPDX-License-Identifier: GPL-2.0
/*
 * x86's description of its last-level cache, for probe.c: CPUID leaf 4
 * (Intel), 0x8000001d (AMD with TOPOEXT), else AMD's legacy L3 leaf.
 */
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <asm/processor.h>
#include <asm/cpufeature.h>

#include "../../mm_color_int.h"

#define CPUID4_TYPE_UNIFIED	3

/* Deterministic cache parameters: leaf 4 (Intel) or 0x8000001d (AMD). */
static bool mmc_probe_cpuid4(u32 leaf, struct mmc_llc *llc)
{
	bool found = false;
	u32 i;

	for (i = 0; i < 16; i++) {
		u32 eax, ebx, ecx, edx, level, sharing;

		cpuid_count(leaf, i, &eax, &ebx, &ecx, &edx);
		if (!(eax & 0x1f))
			break;
		if ((eax & 0x1f) != CPUID4_TYPE_UNIFIED)
			continue;
		level = (eax >> 5) & 0x7;
		sharing = ((eax >> 14) & 0xfff) + 1;
		if (found && (level < llc->level ||
			      (level == llc->level && sharing <= llc->sharing)))
			continue;
		llc->level = level;
		llc->sharing = sharing;
		llc->line_size = (ebx & 0xfff) + 1;
		/* Physical line partitions index like extra lines per set. */
		llc->sets = (u64)(ecx + 1) * (((ebx >> 12) & 0x3ff) + 1);
		llc->ways = ((ebx >> 22) & 0x3ff) + 1;
		found = true;
	}
	return found;
}

/* AMD's legacy L3 descriptor (leaf 0x80000006 EDX), for CPUs without TOPOEXT. */
static bool mmc_probe_amd_l3(struct mmc_llc *llc)
{
	static const u8 assoc[16] = {
		0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, 0
	};
	u32 edx, ways, line;
	u64 size;

	if (boot_cpu_data.extended_cpuid_level < 0x80000006)
		return false;
	edx = cpuid_edx(0x80000006);
	size = (u64)(edx >> 18) * SZ_512K;
	ways = assoc[(edx >> 12) & 0xf];
	line = edx & 0xff;
	if (!size || !ways || !line)
		return false;
	llc->level = 3;
	llc->sharing = 0;
	llc->line_size = line;
	llc->ways = ways;
	llc->sets = div_u64(size, (u64)ways * line);
	return true;
}

/**
 * mmc_probe_arch() - the last-level cache from this architecture's
 *	cache description
 * @llc: filled with level, sharing (0 if unknown), line size, ways, sets
 *
 * Return: true if a unified cache was described; the caller checks that
 * the figures are plausible.
 */
bool mmc_probe_arch(struct mmc_llc *llc)
{
	if (boot_cpu_data.cpuid_level >= 4 && mmc_probe_cpuid4(4, llc))
		return true;
	if (boot_cpu_has(X86_FEATURE_TOPOEXT) && mmc_probe_cpuid4(0x8000001d, llc))
		return true;
	return mmc_probe_amd_l3(llc);
}
