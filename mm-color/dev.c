// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/mm-color: a file carries a color mask; MAP_SHARED mappings of it
 * are filled on fault with zeroed pages of the mask's colors.
 *
 * Each mmap() call creates one mapping object with its own copy of the
 * mask, an array of the frames it holds, indexed by page offset, and a
 * list of the vmas that cover it. The vma is VM_DONTCOPY (not inherited
 * by fork) and VM_IO, which keeps MADV_DOFORK from undoing that and the
 * slow get_user_pages() path away. The pages are ordinary refcounted
 * pages in ordinary PTEs (VM_MIXEDMAP, vm_insert_page()), so KVM can back
 * guest RAM with them (GUP-fast, else hva_to_pfn_remapped() for VM_IO),
 * and GUP-fast users (vmsplice, O_DIRECT) can take references that
 * outlive the mapping (on 6.1; Debian's 6.12 GUP-fast refuses order-0
 * pages without a mapping when CONFIG_SECRETMEM is set, and these fail).
 *
 * A frame leaves its mapping when no vma of the mapping covers its offset
 * any more: vma close() gives up the frames of its range that no other
 * vma of the object covers, which keeps partial munmap exact and keeps
 * the frames of a range that mremap moved (the new vma exists before the
 * old one is closed), present or dropped by MADV_DONTNEED alike. A frame
 * that leaves goes back to the pool only if the pool's own reference is
 * the last one; otherwise it is parked and goes back once its other
 * holders let go, checked by a deferred work and by faults that find the
 * mask's colors empty. At unload the pool's reference to a parked page is
 * dropped, and the page goes to the buddy allocator with the last holder.
 */
#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>
#include <linux/workqueue.h>

#include <colorguard/user_text.h>

#include "mm_color_int.h"

static int mmc_gid = -1;
module_param_named(group, mmc_gid, int, 0444);
MODULE_PARM_DESC(group, "Group ID (initial user namespace) that may open /dev/mm-color besides root (default: none)");
/* mmc_gid resolved once, at load, in the initial user namespace. */
static kgid_t mmc_kgid = INVALID_GID;

/* Frames out of their mapping that something else still references. */
static LIST_HEAD(mmc_parked);
static DEFINE_SPINLOCK(mmc_park_lock);	/* mmc_parked, mmc_parked_nr */
static unsigned long mmc_parked_nr;
static void mmc_reap_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(mmc_reap_work, mmc_reap_fn);
#define MMC_REAP_DELAY	HZ

struct mmc_preset;

struct mmc_file {
	struct kref ref;
	struct mutex lock;		/* mask */
	bool mask_set;
	struct mmc_mask mask;
	atomic_long_t committed;	/* pages of live mappings */
	struct mmc_preset *preset;	/* opened through /dev/mm-color-NAME */
	unsigned long limit_pages;	/* the preset's size, 0: none */
};

/*
 * /dev/mm-color-NAME: a device whose open() gives a file with the
 * preset's mask and size limit already set, for programs that only open
 * a path, such as QEMU's memory-backend-file. Made and removed through
 * the sysfs file "devices". Files keep their preset alive (ref), so a
 * file that raced a removal keeps working after the node is gone.
 */
#define MMC_MAX_PRESETS		32
#define MMC_PRESET_NAME_MAX	31

struct mmc_preset {
	struct kref ref;
	struct list_head node;
	struct miscdevice misc;
	char name[MMC_PRESET_NAME_MAX + 1];
	char devname[sizeof("mm-color-") + MMC_PRESET_NAME_MAX];
	struct mmc_mask mask;
	unsigned long size_mb;
	atomic_t files;			/* files opened through it, alive */
};

static LIST_HEAD(mmc_presets);
static DEFINE_MUTEX(mmc_presets_lock);	/* mmc_presets, mmc_nr_presets */
static unsigned int mmc_nr_presets;

/* last_cmd_status is written under mmc.lock. */
#define mmc_status_locked(...) do {		\
		mutex_lock(&mmc.lock);		\
		mmc_set_status(__VA_ARGS__);	\
		mutex_unlock(&mmc.lock);	\
	} while (0)

static void mmc_preset_free(struct kref *ref)
{
	kfree(container_of(ref, struct mmc_preset, ref));
}

struct mmc_map {
	struct kref ref;		/* one per vma */
	struct mmc_file *file;
	struct mutex lock;		/* frames[], vmas, untracked */
	struct mmc_mask mask;
	unsigned long nr_pages;
	struct mmc_frame **frames;
	struct list_head vmas;		/* struct mmc_vma */
	bool untracked;			/* a vma is missing from vmas */
};

/* A vma of a mapping; its range is read from the vma when needed. */
struct mmc_vma {
	struct list_head node;
	struct vm_area_struct *vma;
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
	struct mmc_file *mf = container_of(ref, struct mmc_file, ref);

	if (mf->preset) {
		atomic_dec(&mf->preset->files);
		kref_put(&mf->preset->ref, mmc_preset_free);
	}
	kfree(mf);
}

static bool mmc_page_unshared(struct page *page)
{
	/* Only the pool's reference left (no PTE, no GUP holder). */
	return page_count(page) == 1;
}

/*
 * A frame has left its mapping: back to the pool, unless something
 * still holds its page (a pipe after vmsplice, a bio of O_DIRECT). Such
 * a frame stays allocated (used_pages) and is parked until it is free.
 */
static void mmc_frame_put(struct mmc_frame *frame)
{
	if (mmc_page_unshared(mmc_frame_page(frame))) {
		mmc_pool_free(frame);
		return;
	}
	spin_lock(&mmc_park_lock);
	list_add_tail(&frame->pnode, &mmc_parked);
	mmc_parked_nr++;
	spin_unlock(&mmc_park_lock);
	queue_delayed_work(system_wq, &mmc_reap_work, MMC_REAP_DELAY);
}

/* Return parked frames nothing holds any more; how many are left. */
static unsigned long mmc_parked_reap(void)
{
	struct mmc_frame *frame, *tmp;
	unsigned long left;
	LIST_HEAD(done);

	spin_lock(&mmc_park_lock);
	list_for_each_entry_safe(frame, tmp, &mmc_parked, pnode) {
		if (!mmc_page_unshared(mmc_frame_page(frame)))
			continue;
		list_move(&frame->pnode, &done);
		mmc_parked_nr--;
	}
	left = mmc_parked_nr;
	spin_unlock(&mmc_park_lock);
	list_for_each_entry_safe(frame, tmp, &done, pnode) {
		list_del(&frame->pnode);
		mmc_pool_free(frame);
	}
	return left;
}

static void mmc_reap_fn(struct work_struct *work)
{
	if (mmc_parked_reap())
		queue_delayed_work(system_wq, &mmc_reap_work, MMC_REAP_DELAY);
}

/**
 * mmc_dev_parked_pages() - frames waiting for other holders to let go
 *
 * Return: the number of parked frames (counted in used_pages too).
 */
unsigned long mmc_dev_parked_pages(void)
{
	unsigned long n;

	spin_lock(&mmc_park_lock);
	n = mmc_parked_nr;
	spin_unlock(&mmc_park_lock);
	return n;
}

/* Before a fault gives up: do parked frames of the mask's colors free it? */
static void mmc_reap_for(const struct mmc_mask *mask)
{
	u32 c;

	if (!READ_ONCE(mmc_parked_nr))
		return;
	for (c = 0; c < mmc.nr_colors; c++)
		if (hvc_mask_test(&mask->m, c) && mmc_color_free(c))
			return;
	mmc_parked_reap();
}

static void mmc_map_release(struct kref *ref)
{
	struct mmc_map *map = container_of(ref, struct mmc_map, ref);
	struct mmc_vma *mv, *tmp;
	unsigned long i;

	for (i = 0; i < map->nr_pages; i++)
		if (map->frames[i])
			mmc_frame_put(map->frames[i]);
	list_for_each_entry_safe(mv, tmp, &map->vmas, node)
		kfree(mv);
	mmc_uncommit(map->nr_pages);
	atomic_long_sub(map->nr_pages, &map->file->committed);
	kref_put(&map->file->ref, mmc_file_release);
	kvfree(map->frames);
	kfree(map);
}

/* Called with map->lock held. */
static void mmc_map_track(struct mmc_map *map, struct vm_area_struct *vma,
			  struct mmc_vma *mv)
{
	if (!mv) {
		map->untracked = true;
		return;
	}
	mv->vma = vma;
	list_add(&mv->node, &map->vmas);
}

static bool mmc_vma_covers(struct vm_area_struct *vma, unsigned long pgoff)
{
	return pgoff >= vma->vm_pgoff && pgoff - vma->vm_pgoff < vma_pages(vma);
}

static void mmc_vm_open(struct vm_area_struct *vma)
{
	struct mmc_map *map = vma->vm_private_data;
	struct mmc_vma *mv = kmalloc(sizeof(*mv), GFP_KERNEL);

	kref_get(&map->ref);
	mutex_lock(&map->lock);
	mmc_map_track(map, vma, mv);
	mutex_unlock(&map->lock);
}

/*
 * Give up the frames of [first, end) that no remaining vma covers. Two
 * vmas of one object cover the same offsets only while mremap moves a
 * range (MREMAP_DONTUNMAP and duplicating mremap are refused for
 * VM_DONTEXPAND): the moved frames, mapped or dropped by MADV_DONTNEED,
 * belong to the new vma. Called with map->lock held.
 */
static void mmc_map_drop(struct mmc_map *map, unsigned long first,
			 unsigned long end)
{
	struct mmc_vma *mv;
	bool overlap = false;
	unsigned long i;

	list_for_each_entry(mv, &map->vmas, node)
		if (mv->vma->vm_pgoff < end &&
		    mv->vma->vm_pgoff + vma_pages(mv->vma) > first)
			overlap = true;
	for (i = first; i < end; i++) {
		struct mmc_frame *frame = map->frames[i];

		if (!frame)
			continue;
		if (overlap) {
			bool covered = false;

			list_for_each_entry(mv, &map->vmas, node)
				covered |= mmc_vma_covers(mv->vma, i);
			if (covered)
				continue;
		}
		map->frames[i] = NULL;
		mmc_frame_put(frame);
	}
}

static void mmc_vm_close(struct vm_area_struct *vma)
{
	struct mmc_map *map = vma->vm_private_data;
	unsigned long first = vma->vm_pgoff;
	unsigned long end = min(first + vma_pages(vma), map->nr_pages);
	struct mmc_vma *mv, *found = NULL;

	/*
	 * At exit every vma of the object goes (they are all in this mm):
	 * the last one's release gives up every frame.
	 */
	if (atomic_read(&vma->vm_mm->mm_users)) {
		mutex_lock(&map->lock);
		list_for_each_entry(mv, &map->vmas, node) {
			if (mv->vma == vma) {
				found = mv;
				break;
			}
		}
		if (found)
			list_del(&found->node);
		/* Without the full list, frames wait for the release. */
		if (!map->untracked)
			mmc_map_drop(map, first, end);
		mutex_unlock(&map->lock);
		kfree(found);
	}
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
		mmc_reap_for(&map->mask);
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
	struct mmc_vma *mv;
	int err;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_pgoff)
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	map = kzalloc(sizeof(*map), GFP_KERNEL);
	mv = kmalloc(sizeof(*mv), GFP_KERNEL);
	if (!map || !mv) {
		kfree(map);
		kfree(mv);
		return -ENOMEM;
	}
	/* The limits bound nr before anything is sized by it. */
	mutex_lock(&mf->lock);
	map->mask = mf->mask;
	err = mf->mask_set ? 0 : -EINVAL;
	/* A preset's size bounds all mappings of the file together. */
	if (!err && mf->limit_pages &&
	    atomic_long_read(&mf->committed) + nr > mf->limit_pages)
		err = -ENOMEM;
	if (!err)
		err = mmc_commit(&map->mask, nr, atomic_long_read(&mf->committed));
	if (!err)
		atomic_long_add(nr, &mf->committed);
	mutex_unlock(&mf->lock);
	if (err) {
		kfree(map);
		kfree(mv);
		return err;
	}
	map->frames = kvcalloc(nr, sizeof(*map->frames), GFP_KERNEL);
	if (!map->frames) {
		atomic_long_sub(nr, &mf->committed);
		mmc_uncommit(nr);
		kfree(map);
		kfree(mv);
		return -ENOMEM;
	}
	kref_init(&map->ref);
	mutex_init(&map->lock);
	INIT_LIST_HEAD(&map->vmas);
	mmc_map_track(map, vma, mv);
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

	/*
	 * The group is the one of the initial namespace: a gid mapped in a
	 * user namespace the caller made is not a way in.
	 */
	if (!capable(CAP_SYS_ADMIN) &&
	    !(gid_valid(mmc_kgid) && in_group_p(mmc_kgid)))
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
	/* A preset's size is the file's limit when below limit_fd_mb's. */
	if (mf->limit_pages && (!info.limit_bytes ||
				(u64)mf->limit_pages << PAGE_SHIFT < info.limit_bytes))
		info.limit_bytes = (u64)mf->limit_pages << PAGE_SHIFT;
	if (copy_to_user(arg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static long mmc_dev_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct mmc_file *mf = filp->private_data;
	void __user *uarg = (void __user *)arg;

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

static const struct file_operations mmc_fops = {
	.owner = THIS_MODULE,
	.open = mmc_dev_open,
	.release = mmc_dev_release,
	.mmap = mmc_dev_mmap,
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
	mf->mask = p->mask;
	mf->mask_set = true;
	mf->limit_pages = p->size_mb << (20 - PAGE_SHIFT);
	kref_get(&p->ref);
	atomic_inc(&p->files);
	mf->preset = p;
	return 0;
}

static const struct file_operations mmc_preset_fops = {
	.owner = THIS_MODULE,
	.open = mmc_preset_open,
	.release = mmc_dev_release,
	.mmap = mmc_dev_mmap,
	.unlocked_ioctl = mmc_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct mmc_preset *mmc_preset_find(const char *name)
{
	struct mmc_preset *p;

	list_for_each_entry(p, &mmc_presets, node)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static bool mmc_preset_name_ok(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n > MMC_PRESET_NAME_MAX || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum(name[i]) && !strchr("_-.", name[i]))
			return false;
	return true;
}

static int mmc_preset_add(const char *name, const char *colors,
			  const char *size)
{
	struct mmc_preset *p;
	unsigned long mb;
	int err;

	if (!mmc_preset_name_ok(name)) {
		mmc_status_locked("devices: name '%.40s': 1-%d of A-Z a-z 0-9 _ - .",
				  name, MMC_PRESET_NAME_MAX);
		return -EINVAL;
	}
	err = kstrtoul(size, 10, &mb);
	if (err || !mb || mb > totalram_pages() >> (20 - PAGE_SHIFT)) {
		mmc_status_locked("devices: size '%.20s': MiB, 1 to the machine's memory",
				  size);
		return err == -EINVAL ? -EINVAL : -ERANGE;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	mutex_lock(&mmc.lock);
	err = mmc_mask_parse(colors, &p->mask, true);
	mutex_unlock(&mmc.lock);
	if (err) {
		kfree(p);
		return err;
	}
	kref_init(&p->ref);
	atomic_set(&p->files, 0);
	p->size_mb = mb;
	strscpy(p->name, name, sizeof(p->name));
	snprintf(p->devname, sizeof(p->devname), "mm-color-%s", name);
	p->misc.minor = MISC_DYNAMIC_MINOR;
	p->misc.name = p->devname;
	p->misc.fops = &mmc_preset_fops;
	p->misc.mode = 0666;

	mutex_lock(&mmc_presets_lock);
	if (mmc_preset_find(name)) {
		err = -EEXIST;
		mmc_status_locked("devices: %s exists", p->devname);
	} else if (mmc_nr_presets >= MMC_MAX_PRESETS) {
		err = -ENOSPC;
		mmc_status_locked("devices: at most %d", MMC_MAX_PRESETS);
	} else {
		err = misc_register(&p->misc);
		if (err)
			mmc_status_locked("devices: %s: misc_register: %d",
					  p->devname, err);
	}
	if (!err) {
		list_add_tail(&p->node, &mmc_presets);
		mmc_nr_presets++;
	}
	mutex_unlock(&mmc_presets_lock);
	if (err)
		kfree(p);
	return err;
}

/* Refused while a file opened through the node lives (open or mapped). */
static int mmc_preset_remove(const char *name)
{
	struct mmc_preset *p;
	int err = 0;

	mutex_lock(&mmc_presets_lock);
	p = mmc_preset_find(name);
	if (!p) {
		err = -ENOENT;
		mmc_status_locked("devices: no mm-color-%.40s", name);
	} else if (atomic_read(&p->files)) {
		err = -EBUSY;
		mmc_status_locked("devices: %s in use (%d files open or mapped)",
				  p->devname, atomic_read(&p->files));
	} else {
		list_del(&p->node);
		mmc_nr_presets--;
		misc_deregister(&p->misc);
	}
	mutex_unlock(&mmc_presets_lock);
	if (!err)
		kref_put(&p->ref, mmc_preset_free);
	return err;
}

/**
 * mmc_dev_presets_store() - "add NAME COLORS SIZE_MB" or "remove NAME"
 * @buf: the write, checked by the sysfs layer (one line, no NUL)
 *
 * Return: 0 or a negative errno; last_cmd_status says why.
 */
int mmc_dev_presets_store(const char *buf)
{
	char *text = kstrdup(buf, GFP_KERNEL), *p, *w[5];
	unsigned int n = 0;
	int err = -EINVAL;

	if (!text)
		return -ENOMEM;
	p = strim(text);
	while (n < ARRAY_SIZE(w) && (w[n] = strsep(&p, " ")))
		if (*w[n])
			n++;
	if (n == 4 && !strcmp(w[0], "add"))
		err = mmc_preset_add(w[1], w[2], w[3]);
	else if (n == 2 && !strcmp(w[0], "remove"))
		err = mmc_preset_remove(w[1]);
	else
		mmc_status_locked("devices: expected 'add NAME COLORS SIZE_MB' or 'remove NAME'");
	if (!err)
		mmc_status_locked("ok");
	kfree(text);
	return err;
}

/**
 * mmc_dev_presets_show() - one line per preset: NAME COLORS SIZE_MB FILES
 * @buf: a sysfs page
 *
 * Return: bytes written.
 */
ssize_t mmc_dev_presets_show(char *buf)
{
	struct mmc_preset *p;
	ssize_t n = 0;

	/* The order of mmc_preset_add(): presets, then mmc.lock. */
	mutex_lock(&mmc_presets_lock);
	mutex_lock(&mmc.lock);
	list_for_each_entry(p, &mmc_presets, node) {
		if (n >= PAGE_SIZE - 64)
			break;
		n += scnprintf(buf + n, PAGE_SIZE - n, "%s ", p->name);
		n += mmc_mask_format(&p->mask, buf + n, PAGE_SIZE - 48 - n);
		n += scnprintf(buf + n, PAGE_SIZE - n, " %lu %d\n", p->size_mb,
			       atomic_read(&p->files));
	}
	mutex_unlock(&mmc.lock);
	mutex_unlock(&mmc_presets_lock);
	return n;
}

/* open() does the permission check: root, or the module's group. */
static struct miscdevice mmc_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "mm-color",
	.fops = &mmc_fops,
	.mode = 0666,
};

/**
 * mmc_dev_init() - resolve the device group and register /dev/mm-color
 *
 * Return: 0 or a negative errno from misc_register().
 */
int mmc_dev_init(void)
{
	if (mmc_gid >= 0)
		mmc_kgid = make_kgid(&init_user_ns, mmc_gid);
	return misc_register(&mmc_misc);
}

/**
 * mmc_dev_exit() - unregister /dev/mm-color and let go of parked frames
 *
 * No file or mapping is left (the module cannot unload before), but pages
 * may still be held through a pipe or an I/O. They go back to the pool as
 * free frames; the pool's teardown then drops its reference and each page
 * reaches the buddy allocator when its last holder lets go.
 */
void mmc_dev_exit(void)
{
	struct mmc_frame *frame, *tmp;
	LIST_HEAD(parked);

	struct mmc_preset *p, *ptmp;

	/* No file is open: the module could not unload otherwise. */
	list_for_each_entry_safe(p, ptmp, &mmc_presets, node) {
		list_del(&p->node);
		misc_deregister(&p->misc);
		kref_put(&p->ref, mmc_preset_free);
	}
	mmc_nr_presets = 0;
	misc_deregister(&mmc_misc);
	cancel_delayed_work_sync(&mmc_reap_work);
	spin_lock(&mmc_park_lock);
	list_splice_init(&mmc_parked, &parked);
	mmc_parked_nr = 0;
	spin_unlock(&mmc_park_lock);
	list_for_each_entry_safe(frame, tmp, &parked, pnode) {
		list_del(&frame->pnode);
		mmc_pool_free(frame);
	}
}
