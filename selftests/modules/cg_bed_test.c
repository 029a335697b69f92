// SPDX-License-Identifier: GPL-2.0
/*
 * Test-bed module: proves that modules build, load and unload on every
 * guest architecture, and plants a kernel warning on request so the VM
 * runner's splat detector can be shown to work.
 */
#include <linux/bug.h>
#include <linux/module.h>
#include <linux/string.h>

static char *plant = "none";
module_param(plant, charp, 0444);
MODULE_PARM_DESC(plant, "bug to plant at load: none or warn");

static int __init cg_bed_test_init(void)
{
	if (!strcmp(plant, "warn"))
		WARN(1, "cg_bed_test: planted warning\n");
	else if (strcmp(plant, "none"))
		return -EINVAL;
	pr_info("cg_bed_test: loaded (plant=%s)\n", plant);
	return 0;
}

static void __exit cg_bed_test_exit(void)
{
	pr_info("cg_bed_test: unloaded\n");
}

module_init(cg_bed_test_init);
module_exit(cg_bed_test_exit);
MODULE_DESCRIPTION("colorguard test-bed module");
MODULE_LICENSE("GPL");
