// SPDX-License-Identifier: GPL-2.0
/*
 * arm64's description of its last-level cache, for probe.c: the last
 * unified level of CLIDR_EL1 and its CCSIDR_EL1 (both layouts, FEAT_CCIDX
 * or not).
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <asm/cpufeature.h>
#include <asm/sysreg.h>

#include "../../mm_color_int.h"

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
