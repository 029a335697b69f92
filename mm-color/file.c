// SPDX-License-Identifier: GPL-2.0
/*
 * An mm-color file: the color mask an fd carries (set once for a preset
 * node's files), its lifetime (mappings keep it alive), and the ioctls
 * that set and read the mask and tell the geometry and limits.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <colorguard/user_text.h>

#include "dev.h"

static void mmc_file_release(struct kref *ref)
{
	struct mmc_file *mf = container_of(ref, struct mmc_file, ref);

	if (mf->preset)
		mmc_preset_put(mf->preset);
	kfree(mf);
}

/**
 * mmc_file_new() - a file object without a mask
 *
 * Return: the file, one reference held, or NULL.
 */
struct mmc_file *mmc_file_new(void)
{
	struct mmc_file *mf = kzalloc(sizeof(*mf), GFP_KERNEL);

	if (!mf)
		return NULL;
	kref_init(&mf->ref);
	mutex_init(&mf->lock);
	atomic_long_set(&mf->committed, 0);
	return mf;
}

/**
 * mmc_file_use_preset() - a new file takes a preset's mask and size
 * @mf: from mmc_file_new(), not yet visible to anyone else
 * @p: the preset, which the file keeps alive until its last reference
 */
void mmc_file_use_preset(struct mmc_file *mf, struct mmc_preset *p)
{
	mf->mask = p->mask;
	mf->mask_set = true;
	mf->limit_pages = p->size_mb << (20 - PAGE_SHIFT);
	mmc_preset_get(p);
	mf->preset = p;
}

/**
 * mmc_file_get() - another reference, for a mapping
 * @mf: the file
 */
void mmc_file_get(struct mmc_file *mf)
{
	kref_get(&mf->ref);
}

/**
 * mmc_file_put() - drop a reference; the last one frees the file
 * @mf: the file
 */
void mmc_file_put(struct mmc_file *mf)
{
	kref_put(&mf->ref, mmc_file_release);
}

static long mmc_set_list(struct mmc_file *mf, void __user *arg)
{
	struct mm_color_list req;
	struct mmc_mask mask;
	const char *why;
	char *buf;
	long err;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.flags || !req.len)
		return -EINVAL;
	/* Bounds the copy; cg_user_text_check() below says the same. */
	if (req.len > MM_COLOR_LIST_MAX)
		return -E2BIG;
	buf = memdup_user_nul(u64_to_user_ptr(req.addr), req.len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/* A NUL would end the list early; one line, as in sysfs. */
	err = cg_user_text_check(buf, req.len, MM_COLOR_LIST_MAX, &why);
	if (!err) {
		mutex_lock(&mmc.lock);
		err = mmc_mask_parse(buf, &mask, false);
		mutex_unlock(&mmc.lock);
	}
	kfree(buf);
	if (err)
		return err;
	mutex_lock(&mf->lock);
	mf->mask = mask;
	mf->mask_set = true;
	mutex_unlock(&mf->lock);
	return 0;
}

static long mmc_bitmap_req(void __user *arg, struct mm_color_bitmap *req,
			   size_t *words)
{
	if (copy_from_user(req, arg, sizeof(*req)))
		return -EFAULT;
	if (req->flags || !req->nbits || req->nbits > MM_COLOR_MAX_COLORS)
		return -EINVAL;
	*words = DIV_ROUND_UP(req->nbits, 64);
	return 0;
}

static long mmc_set_bitmap(struct mmc_file *mf, void __user *arg)
{
	u64 bits[MM_COLOR_MAX_COLORS / 64];
	struct mm_color_bitmap req;
	struct mmc_mask mask;
	size_t words;
	long err;

	err = mmc_bitmap_req(arg, &req, &words);
	if (err)
		return err;
	if (copy_from_user(bits, u64_to_user_ptr(req.addr), words * sizeof(u64)))
		return -EFAULT;
	if (req.nbits % 64 && bits[words - 1] >> (req.nbits % 64))
		return -EINVAL;
	mutex_lock(&mmc.lock);
	err = mmc_mask_from_bits(bits, req.nbits, &mask);
	mutex_unlock(&mmc.lock);
	if (err)
		return err;
	mutex_lock(&mf->lock);
	mf->mask = mask;
	mf->mask_set = true;
	mutex_unlock(&mf->lock);
	return 0;
}

static long mmc_get_bitmap(struct mmc_file *mf, void __user *arg)
{
	u64 bits[MM_COLOR_MAX_COLORS / 64];
	struct mm_color_bitmap req;
	struct mmc_mask mask;
	size_t words;
	long err;

	err = mmc_bitmap_req(arg, &req, &words);
	if (err)
		return err;
	mutex_lock(&mf->lock);
	mask = mf->mask;
	err = mf->mask_set ? 0 : -ENODATA;
	mutex_unlock(&mf->lock);
	if (err)
		return err;
	err = mmc_mask_to_bits(&mask, bits, req.nbits);
	if (err)
		return err;
	if (copy_to_user(u64_to_user_ptr(req.addr), bits, words * sizeof(u64)))
		return -EFAULT;
	return 0;
}

static long mmc_get_info(struct mmc_file *mf, void __user *arg)
{
	struct mm_color_info info = {};

	mmc_fill_info(&info);
	mutex_lock(&mf->lock);
	if (mf->mask_set)
		info.mask_weight = mmc_mask_weight(&mf->mask);
	mutex_unlock(&mf->lock);
	info.page_size = PAGE_SIZE;
	info.mapped_bytes = (u64)atomic_long_read(&mf->committed) << PAGE_SHIFT;
	/* A preset's size is the file's limit when below limit_fd_mb's. */
	if (mf->limit_pages && (!info.limit_bytes ||
				(u64)mf->limit_pages << PAGE_SHIFT < info.limit_bytes))
		info.limit_bytes = (u64)mf->limit_pages << PAGE_SHIFT;
	if (copy_to_user(arg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/*
 * colorguard 0.1.0's request numbers (type 0xCC, taken by ibmvmc) as
 * aliases of the current ones, for programs of that release. Remove in
 * colorguard 0.3.0.
 */
static unsigned int mmc_cmd_v0(unsigned int cmd)
{
	switch (cmd) {
	case MM_COLOR_SET_LIST_V0:
		return MM_COLOR_SET_LIST;
	case MM_COLOR_SET_BITMAP_V0:
		return MM_COLOR_SET_BITMAP;
	case MM_COLOR_GET_BITMAP_V0:
		return MM_COLOR_GET_BITMAP;
	case MM_COLOR_GET_INFO_V0:
		return MM_COLOR_GET_INFO;
	default:
		return cmd;
	}
}

/**
 * mmc_file_ioctl() - the ioctls of <colorguard/mm_color.h>
 * @filp: an mm-color file
 * @cmd: MM_COLOR_SET_LIST, _SET_BITMAP, _GET_BITMAP or _GET_INFO
 * @arg: the request in user memory
 *
 * The numbers of colorguard 0.1.0 are accepted too, until 0.3.0.
 *
 * Return: 0 or the command's error; -EPERM for a preset's file setting a
 * mask, -ENOTTY for another command.
 */
long mmc_file_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct mmc_file *mf = filp->private_data;
	void __user *uarg = (void __user *)arg;

	cmd = mmc_cmd_v0(cmd);
	/* A preset's mask is the point of its node: it stays. */
	if (mf->preset && (cmd == MM_COLOR_SET_LIST || cmd == MM_COLOR_SET_BITMAP))
		return -EPERM;
	switch (cmd) {
	case MM_COLOR_SET_LIST:
		return mmc_set_list(mf, uarg);
	case MM_COLOR_SET_BITMAP:
		return mmc_set_bitmap(mf, uarg);
	case MM_COLOR_GET_BITMAP:
		return mmc_get_bitmap(mf, uarg);
	case MM_COLOR_GET_INFO:
		return mmc_get_info(mf, uarg);
	default:
		return -ENOTTY;
	}
}
