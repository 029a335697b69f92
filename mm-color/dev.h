/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /dev/mm-color's parts, shared by their files: dev.c (the nodes' file
 * operations, load and unload) calls file.c (the file object, its
 * ioctls), object.c (shared objects, MM_COLOR_OBJ_CREATE), mapping.c
 * (mmap, faults, parked frames) and preset.c (the /dev/mm-color-NAME
 * registry); object.c calls mapping.c (a frame's release), mapping.c
 * calls file.c, file.c calls preset.c, and none calls back (preset.c
 * registers dev.c's table mmc_preset_fops for its nodes, but calls
 * nothing there).
 */
#ifndef _MM_COLOR_DEV_H
#define _MM_COLOR_DEV_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>

#include "mm_color_int.h"

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
/*
 * Mode of /dev/mm-color and the preset nodes: root's only. A udev rule
 * (packaging/udev/60-colorguard.rules) gives a group access; the VFS
 * checks it at open().
 */
#define MMC_DEV_MODE		0600
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

/* file.c */
struct mmc_file *mmc_file_new(void);
void mmc_file_use_preset(struct mmc_file *mf, struct mmc_preset *p);
void mmc_file_get(struct mmc_file *mf);
void mmc_file_put(struct mmc_file *mf);
long mmc_file_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

/* dev.c: the preset nodes' file operations (a table preset.c registers) */
extern const struct file_operations mmc_preset_fops;

/* mapping.c */
int mmc_map_mmap(struct file *filp, struct vm_area_struct *vma);
void mmc_frame_release(struct mmc_frame *frame);
void mmc_parked_exit(void);

/* object.c */
long mmc_object_create(struct mmc_file *mf, void __user *arg);

/* Since 6.3, vm_flags may only change through vm_flags_mod(). */
static inline void mmc_vma_set_flags(struct vm_area_struct *vma,
				     vm_flags_t set, vm_flags_t clear)
{
#ifdef MMC_HAVE_VM_FLAGS_SET
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/* preset.c */
void mmc_preset_get(struct mmc_preset *p);
void mmc_preset_put(struct mmc_preset *p);
void mmc_presets_exit(void);

#endif /* _MM_COLOR_DEV_H */
