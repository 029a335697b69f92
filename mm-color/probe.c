// SPDX-License-Identifier: GPL-2.0
/*
 * Last-level cache geometry straight from the CPU: the kernel's cacheinfo
 * is not exported to modules in 6.1, so each architecture reads its cache
 * description registers (arch/<arch>/probe.c, chosen by Kbuild) and this
 * file checks that the figures make sense for page coloring. The result is
 * only a proposal: the caller validates it with hv-color and a module
 * parameter or sysfs overrides it.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mm.h>

#include "mm_color_int.h"

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
