// SPDX-License-Identifier: GPL-2.0
/*
 * mm_color's load and unload: the module parameters, the first geometry
 * (from the parameters if given, else from the CPU's description of its
 * last-level cache; sysfs can replace it while the pool is empty), the
 * knobs' defaults, and bringing up and tearing down the engine, sysfs and
 * /dev/mm-color in order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>

#include "mm_color_int.h"

static ulong way_size;
module_param(way_size, ulong, 0444);
MODULE_PARM_DESC(way_size, "LLC way size in bytes (overrides the probe)");

static ulong llc_size;
module_param(llc_size, ulong, 0444);
MODULE_PARM_DESC(llc_size, "LLC size in bytes, with llc_ways (overrides the probe)");

static uint llc_ways;
module_param(llc_ways, uint, 0444);
MODULE_PARM_DESC(llc_ways, "LLC associativity, with llc_size");

static uint line_size;
module_param(line_size, uint, 0444);
MODULE_PARM_DESC(line_size, "LLC line size in bytes (default: probed, else 64)");

static uint pool_mb;
module_param(pool_mb, uint, 0444);
MODULE_PARM_DESC(pool_mb, "Colored pool to take at load, in MiB (default 0)");

static int __init mmc_geometry_init(void)
{
	struct mmc_llc llc;
	const char *why;
	int err;

	mmc.line_size = line_size ? line_size : 64;
	if (way_size && (llc_size || llc_ways)) {
		pr_err("give way_size or llc_size+llc_ways, not both\n");
		return -EINVAL;
	}
	if (llc_size || llc_ways) {
		if (!llc_size || !llc_ways || llc_size % llc_ways) {
			pr_err("llc_size must be a nonzero multiple of llc_ways\n");
			return -EINVAL;
		}
		way_size = llc_size / llc_ways;
	}
	if (way_size) {
		err = mmc_sysfs_set_geometry(way_size, 0, "param");
		if (err)
			pr_err("way_size %lu: %s\n", way_size, mmc.status);
		return err;
	}
	err = mmc_probe_llc(&llc, &why);
	if (!err) {
		pr_info("probed L%u: line %u, %llu sets, %u ways, way size %llu\n",
			llc.level, llc.line_size, llc.sets, llc.ways, llc.way_size);
		err = mmc_sysfs_set_geometry(llc.way_size,
					     line_size ? 0 : llc.line_size, "arch");
		if (err)
			why = mmc.status;
	}
	if (err)
		pr_info("no usable cache geometry from the CPU (%s); set way_size\n",
			why);
	mmc_set_status("ok");
	return 0;
}

/* The engine's own state: the quarantine's frames and the default reserve. */
static int __init mmc_engine_init(void)
{
	int err = mmc_quarantine_init();

	if (err)
		return err;
	mmc.reserve_mb = max_t(unsigned long, 64,
			       (totalram_pages() >> (20 - PAGE_SHIFT)) / 16);
	return 0;
}

/* Everything back to the page allocator: no file is open, no frame used. */
static void mmc_engine_exit(void)
{
	mmc_quarantine_exit();
	mmc_pool_exit();
	mmc_geometry_exit();
}

static int __init mmc_init(void)
{
	int err;

	BUILD_BUG_ON(MM_COLOR_MAX_COLORS < HVC_MAX_COLORS);
	err = mmc_engine_init();
	if (err)
		return err;
	err = mmc_sysfs_init();
	if (err)
		goto engine;
	mutex_lock(&mmc.lock);
	err = mmc_geometry_init();
	if (!err && pool_mb)
		err = mmc_pool_resize((unsigned long)pool_mb << (20 - PAGE_SHIFT));
	if (err && pool_mb)
		pr_err("pool of %u MiB: %s\n", pool_mb, mmc.status);
	mutex_unlock(&mmc.lock);
	if (err)
		goto sysfs;
	mmc_set_status("ok");
	err = mmc_dev_init();
	if (err)
		goto sysfs;
	return 0;
sysfs:
	mmc_sysfs_exit();
engine:
	mmc_engine_exit();
	return err;
}

static void __exit mmc_exit(void)
{
	mmc_dev_exit();
	mmc_sysfs_exit();
	mmc_engine_exit();
}

module_init(mmc_init);
module_exit(mmc_exit);
MODULE_DESCRIPTION("Colored memory pools and root-color restriction");
MODULE_LICENSE("GPL");
