// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/mm-color: a file carries a color mask; MAP_SHARED mappings of it
 * are filled on fault with zeroed pages of the mask's colors.
 *
 * Each mmap() call creates one mapping object with its own copy of the
 * mask and an array of the frames it holds, indexed by page offset. The
 * vma is VM_DONTCOPY (not inherited by fork) and VM_IO, which keeps
 * MADV_DOFORK from undoing that and get_user_pages() from pinning our
 * pages. A frame goes back to the pool when the last vma covering it is
 * closed: vma close() frees the frames of its range that no page table
 * maps any more, which keeps partial munmap exact and survives mremap's
 * move (the page tables move before the old vma is closed).
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rmap.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <colorguard/user_text.h>

#include "mm_color_int.h"

static int mmc_gid = -1;
module_param_named(group, mmc_gid, int, 0444);
MODULE_PARM_DESC(group, "Group ID that may open /dev/mm-color besides root (default: none)");

struct mmc_file {
	struct kref ref;
	struct mutex lock;		/* mask */
	bool mask_set;
	struct mmc_mask mask;
	atomic_long_t committed;	/* pages of live mappings */
};

struct mmc_map {
	struct kref ref;		/* one per vma */
	struct mmc_file *file;
	struct mutex lock;		/* frames[] */
	struct mmc_mask mask;
	unsigned long nr_pages;
	struct mmc_frame **frames;
};

/* Since 6.3, vm_flags may only change through these helpers. */
#ifdef MMC_HAVE_VM_FLAGS_SET
static void mmc_vma_set_flags(struct vm_area_struct *vma, vm_flags_t set,
			      vm_flags_t clear)
{
	vm_flags_mod(vma, set, clear);
}
#else
static void mmc_vma_set_flags(struct vm_area_struct *vma, vm_flags_t set,
			      vm_flags_t clear)
{
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
}
#endif

static void mmc_file_release(struct kref *ref)
{
	kfree(container_of(ref, struct mmc_file, ref));
}

static void mmc_map_release(struct kref *ref)
{
	struct mmc_map *map = container_of(ref, struct mmc_map, ref);
	unsigned long i;

	for (i = 0; i < map->nr_pages; i++)
		if (map->frames[i])
			mmc_pool_free(map->frames[i]);
	mmc_uncommit(map->nr_pages);
	atomic_long_sub(map->nr_pages, &map->file->committed);
	kref_put(&map->file->ref, mmc_file_release);
	kvfree(map->frames);
	kfree(map);
}

static void mmc_vm_open(struct vm_area_struct *vma)
{
	struct mmc_map *map = vma->vm_private_data;

	kref_get(&map->ref);
}

static void mmc_vm_close(struct vm_area_struct *vma)
{
	struct mmc_map *map = vma->vm_private_data;
	unsigned long i, first = vma->vm_pgoff;
	unsigned long end = min(first + vma_pages(vma), map->nr_pages);

	/* The range's page tables are gone; a frame still mapped is in
	 * another vma of this object (mremap moved it there).
	 */
	mutex_lock(&map->lock);
	for (i = first; i < end; i++) {
		struct mmc_frame *frame = map->frames[i];

		if (frame && !page_mapped(mmc_frame_page(frame))) {
			map->frames[i] = NULL;
			mmc_pool_free(frame);
		}
	}
	mutex_unlock(&map->lock);
	kref_put(&map->ref, mmc_map_release);
}

static vm_fault_t mmc_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct mmc_map *map = vma->vm_private_data;
	struct mmc_frame *frame;
	struct page *page;
	int err;

	if (vmf->pgoff >= map->nr_pages)
		return VM_FAULT_SIGBUS;
	mutex_lock(&map->lock);
	frame = map->frames[vmf->pgoff];
	if (!frame) {
		frame = mmc_pool_alloc(&map->mask);
		if (!frame) {
			mutex_unlock(&map->lock);
			return VM_FAULT_SIGBUS;
		}
		clear_highpage(mmc_frame_page(frame));
		map->frames[vmf->pgoff] = frame;
	}
	page = mmc_frame_page(frame);
	err = vm_insert_page(vma, vmf->address & PAGE_MASK, page);
	mutex_unlock(&map->lock);
	/* -EBUSY: another thread mapped it first. */
	if (err && err != -EBUSY)
		return vmf_error(err);
	return VM_FAULT_NOPAGE;
}

static const struct vm_operations_struct mmc_vm_ops = {
	.open = mmc_vm_open,
	.close = mmc_vm_close,
	.fault = mmc_vm_fault,
};

static int mmc_dev_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct mmc_file *mf = filp->private_data;
	unsigned long nr = vma_pages(vma);
	struct mmc_map *map;
	int err;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_pgoff)
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	/* The limits bound nr before anything is sized by it. */
	mutex_lock(&mf->lock);
	map->mask = mf->mask;
	err = mf->mask_set ? 0 : -EINVAL;
	if (!err)
		err = mmc_commit(&map->mask, nr, atomic_long_read(&mf->committed));
	if (!err)
		atomic_long_add(nr, &mf->committed);
	mutex_unlock(&mf->lock);
	if (err) {
		kfree(map);
		return err;
	}
	map->frames = kvcalloc(nr, sizeof(*map->frames), GFP_KERNEL);
	if (!map->frames) {
		atomic_long_sub(nr, &mf->committed);
		mmc_uncommit(nr);
		kfree(map);
		return -ENOMEM;
	}
	kref_init(&map->ref);
	mutex_init(&map->lock);
	map->nr_pages = nr;
	kref_get(&mf->ref);
	map->file = mf;
	mmc_vma_set_flags(vma, VM_MIXEDMAP | VM_IO | VM_DONTCOPY |
			  VM_DONTEXPAND | VM_DONTDUMP, VM_MAYEXEC);
	vma->vm_ops = &mmc_vm_ops;
	vma->vm_private_data = map;
	return 0;
}

static int mmc_dev_open(struct inode *inode, struct file *filp)
{
	struct mmc_file *mf;

	if (!capable(CAP_SYS_ADMIN) &&
	    !(mmc_gid >= 0 && in_group_p(make_kgid(current_user_ns(), mmc_gid))))
		return -EPERM;
	mf = kzalloc(sizeof(*mf), GFP_KERNEL);
	if (!mf)
		return -ENOMEM;
	kref_init(&mf->ref);
	mutex_init(&mf->lock);
	atomic_long_set(&mf->committed, 0);
	filp->private_data = mf;
	return 0;
}

static int mmc_dev_release(struct inode *inode, struct file *filp)
{
	struct mmc_file *mf = filp->private_data;

	kref_put(&mf->ref, mmc_file_release);
	return 0;
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
	if (copy_to_user(arg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static long mmc_dev_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct mmc_file *mf = filp->private_data;
	void __user *uarg = (void __user *)arg;

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

static const struct file_operations mmc_fops = {
	.owner = THIS_MODULE,
	.open = mmc_dev_open,
	.release = mmc_dev_release,
	.mmap = mmc_dev_mmap,
	.unlocked_ioctl = mmc_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/* open() does the permission check: root, or the module's group. */
static struct miscdevice mmc_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "mm-color",
	.fops = &mmc_fops,
	.mode = 0666,
};

int mmc_dev_init(void)
{
	return misc_register(&mmc_misc);
}

void mmc_dev_exit(void)
{
	misc_deregister(&mmc_misc);
}
