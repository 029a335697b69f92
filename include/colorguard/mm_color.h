/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Userspace API of /dev/mm-color (mm_color.ko).
 *
 * An open file carries a color mask. mmap(MAP_SHARED, offset 0) of the
 * file then gives memory whose pages all have colors of that mask; the
 * mask is copied into the mapping, so changing the file's mask later
 * only affects later mappings. See Documentation/ABI/testing/
 * sysfs-kernel-mm-color for the semantics of fork, munmap, mremap and
 * mprotect and for the limits.
 */
#ifndef _COLORGUARD_MM_COLOR_H
#define _COLORGUARD_MM_COLOR_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* The most colors a mask can name (bits of a bitmap mask). */
#define MM_COLOR_MAX_COLORS	1024
/* The longest list-syntax mask accepted, in bytes, without the NUL. */
#define MM_COLOR_LIST_MAX	4096

/*
 * List-syntax mask ("0-3,8,10-11"): @addr points to @len bytes, which need
 * no NUL terminator; a trailing newline is accepted. @flags must be 0.
 * The text is checked whole, as a sysfs write is: 1 <= @len <=
 * MM_COLOR_LIST_MAX (E2BIG above), no NUL byte and no newline but one as
 * the last byte (EINVAL).
 */
struct mm_color_list {
	__u64 addr;
	__u32 len;
	__u32 flags;
};

/*
 * Bitmap mask: @addr points to DIV_ROUND_UP(@nbits, 64) __u64 words, color
 * c being bit (c % 64) of word (c / 64). 1 <= @nbits <= MM_COLOR_MAX_COLORS;
 * bits at and above @nbits must be clear. @flags must be 0. For GET, @nbits
 * gives the size of the buffer and the driver fills it.
 */
struct mm_color_bitmap {
	__u64 addr;
	__u32 nbits;
	__u32 flags;
};

/* What the file and the driver currently look like. */
struct mm_color_info {
	__u32 nr_colors;	/* 0: no geometry yet */
	__u32 page_size;
	__u64 way_size;
	__u32 mask_weight;	/* colors in this file's mask, 0 if unset */
	__u32 reserved;
	__u64 mapped_bytes;	/* committed by live mappings of this file */
	__u64 limit_bytes;	/* per-file limit, 0 if none */
};

/*
 * ioctl numbers: type 0xC9, which Linux's Documentation/userspace-api/
 * ioctl/ioctl-number.rst (as of 6.1) gives to no one. colorguard uses
 * numbers 0x00-0x3F of it: 0x00-0x1F for /dev/mm-color, 0x20-0x3F for
 * /dev/memguard (<colorguard/memguard.h>). Documentation/colorguard/
 * architecture.rst keeps the table.
 */
#define MM_COLOR_IOC_MAGIC	0xC9

/*
 * Errnos, the convention of all of mm_color.ko's and memguard.ko's
 * interfaces: E2BIG too long, EINVAL malformed (syntax, layout, flags, an
 * empty mask), ERANGE out of range (a color at or above nr_colors, a
 * number too large, a mask that does not fit the caller's buffer), EFAULT
 * for a bad address, ENOTTY for an unknown request. A rejected call leaves
 * the file's mask as it was; ioctls do not change last_cmd_status.
 */

/* Set the file's mask from a list string; EINVAL syntax, ERANGE color. */
#define MM_COLOR_SET_LIST	_IOW(MM_COLOR_IOC_MAGIC, 1, struct mm_color_list)
/* Set the file's mask from a bitmap; EINVAL layout, ERANGE color. */
#define MM_COLOR_SET_BITMAP	_IOW(MM_COLOR_IOC_MAGIC, 2, struct mm_color_bitmap)
/* Read the file's mask as a bitmap (ENODATA if unset, ERANGE if a color
 * is at or above @nbits).
 */
#define MM_COLOR_GET_BITMAP	_IOW(MM_COLOR_IOC_MAGIC, 3, struct mm_color_bitmap)
#define MM_COLOR_GET_INFO	_IOR(MM_COLOR_IOC_MAGIC, 4, struct mm_color_info)

/*
 * Shared colored objects, for memory that several processes map: a
 * channel's region, written by one cell and read by others and by root
 * Linux programs. MM_COLOR_OBJ_CREATE on a file of /dev/mm-color makes an
 * object of @size bytes from the file's current mask: every frame is
 * allocated at once from the colored pool and zeroed, or the call fails
 * with nothing held. It returns a new fd for the object (O_RDWR,
 * O_CLOEXEC). @size: a multiple of the page size (EINVAL; 0 too), at
 * most CG_MMC_OBJECT_MAX_BYTES of <colorguard/limits.h>, 1 GiB (ERANGE);
 * @flags and @reserved must be 0 (EINVAL). A file without a mask, or an
 * empty one: EINVAL; a color not below nr_colors: ERANGE; no geometry:
 * ENODEV; over limit_fd_mb, limit_total_mb, a preset's size or what the
 * pool has free of the mask's colors: ENOMEM.
 *
 * mmap() of an object fd maps the object's frames: MAP_SHARED only
 * (EINVAL for MAP_PRIVATE), offset and length within the object
 * (EINVAL), not executable (EPERM). Every process that holds the fd
 * (fork, SCM_RIGHTS) maps the same frames. The frames go back to the
 * pool when the last fd and the last mapping of the object are gone.
 */
struct mm_color_obj_create {
	__u64 size;
	__u32 flags;
	__u32 reserved;
};

/*
 * MM_COLOR_OBJ_READONLY on an object fd: a new fd (O_RDONLY, O_CLOEXEC)
 * for the same object. Its mappings cannot be written: mmap() with
 * PROT_WRITE and MAP_SHARED fails with EACCES, and mprotect() cannot add
 * PROT_WRITE later (EACCES). @flags and @reserved must be 0 (EINVAL).
 */
struct mm_color_obj_readonly {
	__u32 flags;
	__u32 reserved;
};

/* On /dev/mm-color: a new object; returns its fd. */
#define MM_COLOR_OBJ_CREATE	_IOW(MM_COLOR_IOC_MAGIC, 5, struct mm_color_obj_create)
/* On an object's fd: a read-only fd of the same object; returns it. */
#define MM_COLOR_OBJ_READONLY	_IOW(MM_COLOR_IOC_MAGIC, 6, struct mm_color_obj_readonly)

/*
 * colorguard 0.1.0's numbers: type 0xCC, which ioctl-number.rst gives to
 * the pseries VMC driver (ibmvmc, 0x00-0x0F, the range of these). Packages
 * of 0.1.0 shipped programs using them, so mm_color.ko accepts them as
 * aliases of the numbers above for one more release: they go in
 * colorguard 0.3.0. Do not use them in new code.
 */
#define MM_COLOR_IOC_MAGIC_V0	0xCC
#define MM_COLOR_SET_LIST_V0	_IOW(MM_COLOR_IOC_MAGIC_V0, 1, struct mm_color_list)
#define MM_COLOR_SET_BITMAP_V0	_IOW(MM_COLOR_IOC_MAGIC_V0, 2, struct mm_color_bitmap)
#define MM_COLOR_GET_BITMAP_V0	_IOW(MM_COLOR_IOC_MAGIC_V0, 3, struct mm_color_bitmap)
#define MM_COLOR_GET_INFO_V0	_IOR(MM_COLOR_IOC_MAGIC_V0, 4, struct mm_color_info)

#endif /* _COLORGUARD_MM_COLOR_H */
