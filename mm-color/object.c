// SPDX-License-Identifier: GPL-2.0
/*
 * Shared colored objects: memory of a file's colors that several
 * processes map, such as a channel's region, written by one side and read
 * by others (include/colorguard/mm_color.h, MM_COLOR_OBJ_CREATE).
 *
 * An object holds all its frames from its creation to its end: they are
 * taken from the pool at once, all or nothing, and zeroed. Each open file
 * of the object (an anon inode file, O_RDWR or O_RDONLY) holds one
 * reference; a vma holds its file, so the last reference goes with the
 * last fd and the last mapping, and then the frames leave as a mapping's
 * do (mmc_frame_release(): parked while something else holds a page).
 * The files pin the module (the file operations' owner).
 *
 * A mapping inserts the object's frames at fault (VM_MIXEDMAP, VM_IO, as
 * mapping.c does, so KVM can back a memslot with it); it has no state of
 * its own, so fork() copies it and mremap() moves it. A read-only file
 * maps without VM_MAYWRITE: mprotect() cannot make its mappings writable.
 * That is what keeps a channel's readers from writing the writer's
 * region.
 */
#include <linux/anon_inodes.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <colorguard/limits.h>

#include "dev.h"

#define MMC_OBJECT_NAME	"[mm-color-object]"

struct mmc_object {
	struct kref ref;		/* one per open file */
	unsigned long nr_pages;
	struct mmc_frame **frames;	/* all of them, for the whole life */
};

static void mmc_object_free_frames(struct mmc_object *obj)
{
	unsigned long i;

	for (i = 0; i < obj->nr_pages; i++) {
		mmc_frame_release(obj->frames[i]);
		if (!((i + 1) % MMC_BATCH))
			cond_resched();
	}
}

static void mmc_object_release(struct kref *ref)
{
	struct mmc_object *obj = container_of(ref, struct mmc_object, ref);

	mmc_object_free_frames(obj);
	mmc_uncommit(obj->nr_pages);
	kvfree(obj->frames);
	kfree(obj);
}

static int mmc_object_file_release(struct inode *inode, struct file *filp)
{
	struct mmc_object *obj = filp->private_data;

	kref_put(&obj->ref, mmc_object_release);
	return 0;
}

static vm_fault_t mmc_object_fault(struct vm_fault *vmf)
{
	struct mmc_object *obj = vmf->vma->vm_private_data;
	int err;

	if (vmf->pgoff >= obj->nr_pages)
		return VM_FAULT_SIGBUS;
	err = vm_insert_page(vmf->vma, vmf->address & PAGE_MASK,
			     mmc_frame_page(obj->frames[vmf->pgoff]));
	/* -EBUSY: another thread mapped it first. */
	if (err && err != -EBUSY)
		return vmf_error(err);
	return VM_FAULT_NOPAGE;
}

static const struct vm_operations_struct mmc_object_vm_ops = {
	.fault = mmc_object_fault,
};

/*
 * MAP_SHARED of a read-only file has VM_MAYSHARE without VM_SHARED (the
 * core drops VM_SHARED and VM_MAYWRITE then); MAP_PRIVATE has neither.
 * A private mapping would give copy-on-write copies outside the colors.
 */
static int mmc_object_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct mmc_object *obj = filp->private_data;
	unsigned long nr = vma_pages(vma);
	vm_flags_t clear = VM_MAYEXEC;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff >= obj->nr_pages || nr > obj->nr_pages - vma->vm_pgoff)
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	if (!(filp->f_mode & FMODE_WRITE)) {
		/*
		 * do_mmap() already refuses this and drops VM_MAYWRITE for a
		 * read-only file; the readers' guarantee rests on it, so it
		 * is said here too, whatever the core does.
		 */
		if (vma->vm_flags & VM_WRITE)
			return -EACCES;
		clear |= VM_MAYWRITE;
	}
	mmc_vma_set_flags(vma, VM_MIXEDMAP | VM_IO | VM_DONTEXPAND | VM_DONTDUMP,
			  clear);
	vma->vm_ops = &mmc_object_vm_ops;
	vma->vm_private_data = obj;
	return 0;
}

static long mmc_object_readonly(struct mmc_object *obj, void __user *arg);

static long mmc_object_ioctl(struct file *filp, unsigned int cmd,
			     unsigned long arg)
{
	struct mmc_object *obj = filp->private_data;

	switch (cmd) {
	case MM_COLOR_OBJ_READONLY:
		return mmc_object_readonly(obj, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations mmc_object_fops = {
	.owner = THIS_MODULE,
	.release = mmc_object_file_release,
	.mmap = mmc_object_mmap,
	.unlocked_ioctl = mmc_object_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/* Another file of the object, read-only; its fd or an error. */
static long mmc_object_readonly(struct mmc_object *obj, void __user *arg)
{
	struct mm_color_obj_readonly req;
	int fd;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.flags || req.reserved)
		return -EINVAL;
	kref_get(&obj->ref);
	fd = anon_inode_getfd(MMC_OBJECT_NAME, &mmc_object_fops, obj,
			      O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		kref_put(&obj->ref, mmc_object_release);
	return fd;
}

/* The request's size in pages, or an error. */
static long mmc_object_req_pages(void __user *arg, unsigned long *nr)
{
	struct mm_color_obj_create req;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.flags || req.reserved || !req.size ||
	    req.size & (PAGE_SIZE - 1))
		return -EINVAL;
	if (req.size > CG_MMC_OBJECT_MAX_BYTES)
		return -ERANGE;
	*nr = req.size >> PAGE_SHIFT;
	return 0;
}

/**
 * mmc_object_create() - MM_COLOR_OBJ_CREATE: a shared object of a file's mask
 * @mf: the /dev/mm-color file, whose current mask the object takes
 * @arg: a struct mm_color_obj_create in user memory
 *
 * Commits the pages (limit_total_mb; the object alone against
 * limit_fd_mb and a preset's size, as it outlives the file), then takes
 * every frame from the pool and zeroes it.
 *
 * Return: the object's new fd (O_RDWR, O_CLOEXEC); -EFAULT, -EINVAL or
 * -ERANGE for the request, -EINVAL without a mask, an error of
 * mmc_commit(), -ENOMEM when the pool cannot give every frame or memory
 * runs out, or anon_inode_getfd()'s error. On an error nothing is held.
 */
long mmc_object_create(struct mmc_file *mf, void __user *arg)
{
	struct mmc_object *obj;
	struct mmc_mask mask;
	unsigned long nr, limit, i;
	bool mask_set;
	long err;
	int fd;

	err = mmc_object_req_pages(arg, &nr);
	if (err)
		return err;
	mutex_lock(&mf->lock);
	mask = mf->mask;
	mask_set = mf->mask_set;
	limit = mf->limit_pages;
	mutex_unlock(&mf->lock);
	if (!mask_set)
		return -EINVAL;
	if (limit && nr > limit)
		return -ENOMEM;
	err = mmc_commit(&mask, nr, 0);
	if (err)
		return err;
	err = -ENOMEM;
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		goto uncommit;
	obj->frames = kvcalloc(nr, sizeof(*obj->frames), GFP_KERNEL);
	if (!obj->frames)
		goto free_obj;
	err = mmc_pool_alloc_bulk(&mask, obj->frames, nr);
	if (err)
		goto free_frames;
	for (i = 0; i < nr; i++) {
		clear_highpage(mmc_frame_page(obj->frames[i]));
		if (!((i + 1) % MMC_BATCH))
			cond_resched();
	}
	kref_init(&obj->ref);
	obj->nr_pages = nr;
	fd = anon_inode_getfd(MMC_OBJECT_NAME, &mmc_object_fops, obj,
			      O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	err = fd;
	mmc_object_free_frames(obj);
free_frames:
	kvfree(obj->frames);
free_obj:
	kfree(obj);
uncommit:
	mmc_uncommit(nr);
	return err;
}
