// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/memguard: the bandwidth lock (bwlock.c) for tasks, and its ioctls
 * (<colorguard/memguard.h>). Who may open it is the node's mode: root's,
 * 0600, unless a udev rule (packaging/udev/) gives a group access. The
 * lock belongs to the open file, and the file's release drops whatever
 * it still holds, so a task that crashes or is killed cannot leave the
 * lock set.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <colorguard/memguard.h>

#include "memguard.h"

static int mg_dev_open(struct inode *inode, struct file *filp)
{
	struct mg_bwlock_file *bf;

	bf = mg_bwlock_file_new();
	if (!bf)
		return -ENOMEM;
	filp->private_data = bf;
	return 0;
}

static int mg_dev_release(struct inode *inode, struct file *filp)
{
	mg_bwlock_file_release(filp->private_data);
	return 0;
}

/* A level from userspace, checked whole: kind, flags and range. */
static int mg_ioc_level(void __user *arg, struct mg_bwlock_level *level)
{
	struct memguard_bwlock req;
	u64 max;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.flags)
		return -EINVAL;
	if (req.kind == MEMGUARD_BWLOCK_PERMILLE)
		max = MEMGUARD_BWLOCK_PERMILLE_MAX;
	else if (req.kind == MEMGUARD_BWLOCK_MBPS)
		max = MEMGUARD_BWLOCK_MBPS_MAX;
	else
		return -EINVAL;
	if (!req.value || req.value > max)
		return -ERANGE;
	level->kind = req.kind;
	level->value = req.value;
	return 0;
}

/* ACQUIRE and SET_LEVEL: a level from userspace, then @op under mg_lock(). */
static long mg_ioc_with_level(struct mg_bwlock_file *bf, void __user *arg,
			      int (*op)(struct mg_bwlock_file *bf,
					const struct mg_bwlock_level *level))
{
	struct mg_bwlock_level level;
	int ret;

	ret = mg_ioc_level(arg, &level);
	if (ret)
		return ret;
	mg_lock();
	ret = op(bf, &level);
	mg_unlock();
	return ret;
}

static long mg_ioc_release(struct mg_bwlock_file *bf)
{
	int ret;

	mg_lock();
	ret = mg_bwlock_release(bf);
	mg_unlock();
	return ret;
}

static long mg_ioc_get(struct mg_bwlock_file *bf, void __user *arg)
{
	struct memguard_bwlock_info info = {};
	struct mg_bwlock_state st;

	mg_lock();
	mg_bwlock_state(&st);
	info.depth = mg_bwlock_depth(bf);
	if (mg_bwlock_expired(bf))
		info.flags |= MEMGUARD_BWLOCK_INFO_EXPIRED;
	mg_unlock();
	info.holders = st.holders;
	info.level_permille = st.permille;
	info.level_mbps = st.mbps;
	info.held_ns = st.held_ns;
	if (copy_to_user(arg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/*
 * colorguard 0.1.0's request numbers (type 0xCC, taken by ibmvmc) as
 * aliases of the current ones, for programs of that release. Remove in
 * colorguard 0.3.0.
 */
static unsigned int mg_cmd_v0(unsigned int cmd)
{
	switch (cmd) {
	case MEMGUARD_BWLOCK_ACQUIRE_V0:
		return MEMGUARD_BWLOCK_ACQUIRE;
	case MEMGUARD_BWLOCK_RELEASE_V0:
		return MEMGUARD_BWLOCK_RELEASE;
	case MEMGUARD_BWLOCK_GET_V0:
		return MEMGUARD_BWLOCK_GET;
	default:
		return cmd;
	}
}

static long mg_dev_ioctl(struct file *filp, unsigned int cmd,
			 unsigned long arg)
{
	struct mg_bwlock_file *bf = filp->private_data;
	void __user *uarg = (void __user *)arg;

	switch (mg_cmd_v0(cmd)) {
	case MEMGUARD_BWLOCK_ACQUIRE:
		return mg_ioc_with_level(bf, uarg, mg_bwlock_acquire);
	case MEMGUARD_BWLOCK_SET_LEVEL:
		return mg_ioc_with_level(bf, uarg, mg_bwlock_set_level);
	case MEMGUARD_BWLOCK_RELEASE:
		return mg_ioc_release(bf);
	case MEMGUARD_BWLOCK_GET:
		return mg_ioc_get(bf, uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations mg_fops = {
	.owner = THIS_MODULE,
	.open = mg_dev_open,
	.release = mg_dev_release,
	.unlocked_ioctl = mg_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/*
 * The node's mode is the permission check: root only, until udev's rule
 * gives a group access (the VFS then checks the caller's groups, which
 * a user namespace of the caller's own cannot add to).
 */
static struct miscdevice mg_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "memguard",
	.fops = &mg_fops,
	.mode = 0600,
};

/**
 * mg_dev_init() - register /dev/memguard
 *
 * Return: 0 or a negative errno from misc_register().
 */
int mg_dev_init(void)
{
	return misc_register(&mg_misc);
}

/**
 * mg_dev_exit() - remove /dev/memguard
 *
 * No file is open: the module could not unload otherwise.
 */
void mg_dev_exit(void)
{
	misc_deregister(&mg_misc);
}
