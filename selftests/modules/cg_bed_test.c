// SPDX-License-Identifier: GPL-2.0
/*
 * Test-bed module: proves that modules build, load and unload on every
 * guest architecture, and plants a bug on request so that the VM runner's
 * detectors (kernel log splats, KASAN, kmemleak, the soft lockup panic)
 * can be shown to work.
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *plant = "none";
module_param(plant, charp, 0444);
MODULE_PARM_DESC(plant, "bug to plant at load: none, warn, uaf, leak or lockup");

static int plant_use_after_free(void)
{
	char *buf = kmalloc(64, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	kfree(buf);
	/* Keep the compiler from seeing (and refusing) the planted bug. */
	OPTIMIZER_HIDE_VAR(buf);
	pr_info("cg_bed_test: read after free: %d\n", READ_ONCE(buf[8]));
	return 0;
}

/*
 * Several leaks, not one: a stale copy of a pointer (a register spilled to
 * a stack that the kernel caches after the task exits) can hide one
 * object from kmemleak's scan, and did once in CI. Each pointer here is
 * overwritten by the next, so at most the last can stay visible.
 */
#define CG_BED_LEAKS	16

static int plant_leak(void)
{
	char *buf;
	int i;

	for (i = 0; i < CG_BED_LEAKS; i++) {
		buf = kmalloc(512, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		/* The only reference dies here: kmemleak must find it. */
		memset(buf, 0x5a, 512);
		OPTIMIZER_HIDE_VAR(buf);
	}
	return 0;
}

/*
 * 40 s on the CPU with preemption off: twice the soft lockup threshold,
 * so the watchdog reports it (and the test bed's guest panics) while
 * insmod still waits.
 */
#define CG_BED_LOCKUP_MS	40000

static noinline void plant_lockup(void)
{
	unsigned int ms;

	preempt_disable();
	for (ms = 0; ms < CG_BED_LOCKUP_MS; ms++)
		mdelay(1);
	preempt_enable();
}

static int __init cg_bed_test_init(void)
{
	int err = 0;

	if (!strcmp(plant, "warn"))
		WARN(1, "cg_bed_test: planted warning\n");
	else if (!strcmp(plant, "uaf"))
		err = plant_use_after_free();
	else if (!strcmp(plant, "leak"))
		err = plant_leak();
	else if (!strcmp(plant, "lockup"))
		plant_lockup();
	else if (strcmp(plant, "none"))
		return -EINVAL;
	if (err)
		return err;
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
