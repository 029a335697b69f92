// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/mm-color's mappings: MAP_SHARED mappings of a file are filled on
 * fault with zeroed pages of the file's colors, and give their frames
 * back to the pool when nothing holds them any more.
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
#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "dev.h"

/* Frames out of their mapping that something else still references. */
static LIST_HEAD(mmc_parked);
static DEFINE_SPINLOCK(mmc_park_lock);	/* mmc_parked, mmc_parked_nr */
static unsigned long mmc_parked_nr;
static void mmc_reap_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(mmc_reap_work, mmc_reap_fn);
#define MMC_REAP_DELAY	HZ

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

static bool mmc_page_unshared(struct page *page)
{
	/* Only the pool's reference left (no PTE, no GUP holder). */
	return page_count(page) == 1;
}

/**
 * mmc_frame_release() - a frame has left its mapping or object
 * @frame: a used frame that no mapping or object holds any more
 *
 * Back to the pool, unless something still holds its page (a pipe after
 * vmsplice, a bio of O_DIRECT). Such a frame stays allocated
 * (used_pages) and is parked until it is free. Takes mmc_park_lock or
 * mmc.alloc_lock.
 */
void mmc_frame_release(struct mmc_frame *frame)
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
 * mmc_parked_pages() - frames waiting for other holders to let go
 *
 * Return: the number of parked frames (counted in used_pages too).
 */
unsigned long mmc_parked_pages(void)
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
			mmc_frame_release(map->frames[i]);
	list_for_each_entry_safe(mv, tmp, &map->vmas, node)
		kfree(mv);
	mmc_uncommit(map->nr_pages);
	atomic_long_sub(map->nr_pages, &map->file->committed);
	mmc_file_put(map->file);
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
		mmc_frame_release(frame);
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

/**
 * mmc_map_mmap() - mmap of an mm-color file: a mapping of its colors
 * @filp: the file, with its mask set
 * @vma: the new vma, MAP_SHARED, from offset 0, not executable
 *
 * Commits the pages against the file's preset size and the limits; pages
 * come on fault.
 *
 * Return: 0, -EINVAL without a mask or for a private mapping or an
 * offset, -EPERM for an executable one, -ENOMEM over a limit or out of
 * memory, or an error of mmc_commit().
 */
int mmc_map_mmap(struct file *filp, struct vm_area_struct *vma)
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
	mmc_file_get(mf);
	map->file = mf;
	mmc_vma_set_flags(vma, VM_MIXEDMAP | VM_IO | VM_DONTCOPY |
			  VM_DONTEXPAND | VM_DONTDUMP, VM_MAYEXEC);
	vma->vm_ops = &mmc_vm_ops;
	vma->vm_private_data = map;
	return 0;
}

/**
 * mmc_parked_exit() - module exit: let go of parked frames
 *
 * No file or mapping is left (the module cannot unload before), but pages
 * may still be held through a pipe or an I/O. They go back to the pool as
 * free frames; the pool's teardown then drops its reference and each page
 * reaches the buddy allocator when its last holder lets go.
 */
void mmc_parked_exit(void)
{
	struct mmc_frame *frame, *tmp;
	LIST_HEAD(parked);

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
