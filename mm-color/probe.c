// SPDX-License-Identifier: GPL-2.0
/*
 * Last-level cache geometry straight from the CPU: the kernel's cacheinfo
 * is not exported to modules in 6.1, so read the architecture's cache
 * description registers. The result is only a proposal: the caller
 * validates it with hv-color and a module parameter or sysfs overrides it.
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/log2.h>
#include <linux/mm.h>

#include "mm_color_int.h"

#ifdef CONFIG_X86
#include <asm/processor.h>
#include <asm/cpufeature.h>

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

static bool mmc_probe_arch(struct mmc_llc *llc)
{
	if (boot_cpu_data.cpuid_level >= 4 && mmc_probe_cpuid4(4, llc))
		return true;
	if (boot_cpu_has(X86_FEATURE_TOPOEXT) && mmc_probe_cpuid4(0x8000001d, llc))
		return true;
	return mmc_probe_amd_l3(llc);
}
#elif defined(CONFIG_ARM64)
#include <asm/cpufeature.h>
#include <asm/sysreg.h>

#define CLIDR_CTYPE_UNIFIED	4

static u64 mmc_read_ccsidr(u32 level)
{
	unsigned long flags;
	u64 ccsidr, csselr;

	/*
	 * CSSELR selects for this CPU only: keep the pair together, and put
	 * back what was selected (the kernel's cacheinfo selects its own).
	 */
	local_irq_save(flags);
	csselr = read_sysreg(csselr_el1);
	write_sysreg((level - 1) << 1, csselr_el1);
	isb();
	ccsidr = read_sysreg(ccsidr_el1);
	write_sysreg(csselr, csselr_el1);
	isb();
	local_irq_restore(flags);
	return ccsidr;
}

static bool mmc_probe_arch(struct mmc_llc *llc)
{
	u64 clidr = read_sysreg(clidr_el1);
	u64 mmfr2 = read_sanitised_ftr_reg(SYS_ID_AA64MMFR2_EL1);
	bool ccidx = cpuid_feature_extract_unsigned_field(mmfr2,
				ID_AA64MMFR2_EL1_CCIDX_SHIFT) != 0;
	u32 level, last = 0;
	u64 ccsidr;

	for (level = 1; level <= 7; level++) {
		u32 ctype = (clidr >> (3 * (level - 1))) & 0x7;

		if (!ctype)
			break;
		if (ctype == CLIDR_CTYPE_UNIFIED)
			last = level;
	}
	if (!last)
		return false;
	ccsidr = mmc_read_ccsidr(last);
	llc->level = last;
	llc->sharing = 0;
	llc->line_size = 16U << (ccsidr & 0x7);
	if (ccidx) {
		llc->ways = ((ccsidr >> 3) & 0x1fffff) + 1;
		llc->sets = ((ccsidr >> 32) & 0xffffff) + 1;
	} else {
		llc->ways = ((ccsidr >> 3) & 0x3ff) + 1;
		llc->sets = ((ccsidr >> 13) & 0x7fff) + 1;
	}
	return true;
}
#else
static bool mmc_probe_arch(struct mmc_llc *llc)
{
	return false;
}
#endif

/**
 * mmc_probe_llc() - the last-level cache as the hardware describes it
 * @llc: filled with level, line size, ways, sets and way size
 * @why: on failure, a static reason
 *
 * The geometry itself is validated later by hv-color.
 *
 * Return: 0 if the description is plausible for page coloring, else
 * -ENODEV.
 */
int mmc_probe_llc(struct mmc_llc *llc, const char **why)
{
	memset(llc, 0, sizeof(*llc));
	if (!mmc_probe_arch(llc)) {
		*why = "no unified cache described";
		return -ENODEV;
	}
	if (!is_power_of_2(llc->line_size) ||
	    llc->line_size < CG_LINE_SIZE_MIN ||
	    llc->line_size > CG_LINE_SIZE_MAX) {
		*why = "implausible line size";
		return -ENODEV;
	}
	if (!is_power_of_2(llc->sets) || llc->ways < 2) {
		*why = "sets not a power of two or fewer than 2 ways";
		return -ENODEV;
	}
	llc->way_size = (u64)llc->line_size * llc->sets;
	if (llc->way_size < 2 * PAGE_SIZE || llc->way_size % PAGE_SIZE) {
		*why = "way smaller than two pages";
		return -ENODEV;
	}
	*why = NULL;
	return 0;
}
