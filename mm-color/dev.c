// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/mm-color and its preset nodes as device files: the file operations
 * both kinds share, and the registration at load and unload. Who may
 * open them is the nodes' mode: root's, 0600 (MMC_DEV_MODE), unless a
 * udev rule (packaging/udev/) gives a group access. A file carries a
 * color mask (file.c); MAP_SHARED mappings of it are filled on fault
 * with zeroed pages of the mask's colors (mapping.c); MM_COLOR_OBJ_CREATE
 * makes a shared object of them with its own fd (object.c).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include "dev.h"

static int mmc_dev_open(struct inode *inode, struct file *filp)
{
	struct mmc_file *mf;

	mf = mmc_file_new();
	if (!mf)
		return -ENOMEM;
	filp->private_data = mf;
	return 0;
}

static int mmc_dev_release(struct inode *inode, struct file *filp)
{
	struct mmc_file *mf = filp->private_data;

	mmc_file_put(mf);
	return 0;
}

/* MM_COLOR_OBJ_CREATE is object.c's, the other requests the file's. */
static long mmc_dev_ioctl(struct file *filp, unsigned int cmd,
			  unsigned long arg)
{
	if (cmd == MM_COLOR_OBJ_CREATE)
		return mmc_object_create(filp->private_data, (void __user *)arg);
	return mmc_file_ioctl(filp, cmd, arg);
}

static const struct file_operations mmc_fops = {
	.owner = THIS_MODULE,
	.open = mmc_dev_open,
	.release = mmc_dev_release,
	.mmap = mmc_map_mmap,
	.unlocked_ioctl = mmc_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/* misc_open() hands us the miscdevice; misc_deregister() waits for us. */
static int mmc_preset_open(struct inode *inode, struct file *filp)
{
	struct mmc_preset *p = container_of(filp->private_data,
					    struct mmc_preset, misc);
	struct mmc_file *mf;
	int err;

	err = mmc_dev_open(inode, filp);
	if (err)
		return err;
	mf = filp->private_data;
	mmc_file_use_preset(mf, p);
	return 0;
}

const struct file_operations mmc_preset_fops = {
	.owner = THIS_MODULE,
	.open = mmc_preset_open,
	.release = mmc_dev_release,
	.mmap = mmc_map_mmap,
	.unlocked_ioctl = mmc_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice mmc_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "mm-color",
	.fops = &mmc_fops,
	.mode = MMC_DEV_MODE,
};

/**
 * mmc_dev_init() - register /dev/mm-color
 *
 * Return: 0 or a negative errno from misc_register().
 */
int mmc_dev_init(void)
{
	return misc_register(&mmc_misc);
}

/**
 * mmc_dev_exit() - remove the device nodes and let go of parked frames
 *
 * No file or mapping is left: the module could not unload otherwise.
 */
void mmc_dev_exit(void)
{
	mmc_presets_exit();
	misc_deregister(&mmc_misc);
	mmc_parked_exit();
}
