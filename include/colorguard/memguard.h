/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Userspace API of /dev/memguard (memguard.ko): the bandwidth lock.
 *
 * While a task holds the lock, every regulated CPU that is not critical
 * gets a smaller budget: the strictest level of all holders, from the
 * next period boundary (within one period). Critical CPUs are never held.
 * The lock belongs to the open file: it is counted per acquisition
 * (nested acquisitions on one file and acquisitions on several files are
 * all counted) and ends when the last one is released, by
 * MEMGUARD_BWLOCK_RELEASE or when the file's last reference is closed
 * (also when its task is killed). A file's hold, from its first
 * acquisition on, lasts at most /sys/kernel/memguard/bwlock_max_hold_ms:
 * then the module drops all of the file's acquisitions. The budgets configured in sysfs are
 * never changed: they apply again from the boundary after the end.
 * Documentation/ABI/testing/sysfs-kernel-memguard describes the device,
 * its permissions and the sysfs files that show the lock.
 */
#ifndef _COLORGUARD_MEMGUARD_H
#define _COLORGUARD_MEMGUARD_H

#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * Level kinds. PERMILLE: each non-critical CPU gets @value per mille
 * (1..1000) of its own budget, read and write alike, at least one event;
 * an unlimited budget stays unlimited. MBPS: each non-critical CPU's read
 * and write budgets are each at most @value MB/s (2^20 bytes per second,
 * 1..1000000), converted to events as a budget in MB/s is; this also
 * regulates CPUs whose budgets are unlimited.
 */
#define MEMGUARD_BWLOCK_PERMILLE	1
#define MEMGUARD_BWLOCK_MBPS		2

#define MEMGUARD_BWLOCK_PERMILLE_MAX	1000
#define MEMGUARD_BWLOCK_MBPS_MAX	1000000
/* Acquisitions one open file may hold at once (nesting depth). */
#define MEMGUARD_BWLOCK_DEPTH_MAX	16

/* The level to impose on the non-critical CPUs; @flags must be 0. */
struct memguard_bwlock {
	__u32 kind;
	__u32 flags;
	__u64 value;
};

/* The lock as it is now. */
struct memguard_bwlock_info {
	__u32 holders;		/* acquisitions counted, all files */
	__u32 depth;		/* acquisitions of this file */
	__u32 level_permille;	/* in force: 1000 when none */
	__u32 flags;		/* MEMGUARD_BWLOCK_INFO_*; was reserved (0) */
	__u64 level_mbps;	/* in force: 0 when none */
	__u64 held_ns;		/* total time held since load, the current hold too */
};

/*
 * memguard_bwlock_info.flags: the module ended this file's hold, because
 * it lasted longer than /sys/kernel/memguard/bwlock_max_hold_ms; all of
 * the file's acquisitions were dropped. Cleared by the file's next
 * ACQUIRE, RELEASE or SET_LEVEL, which fails with ETIMEDOUT instead.
 */
#define MEMGUARD_BWLOCK_INFO_EXPIRED	0x1U

/*
 * ioctl numbers: type 0xC9, numbers 0x20-0x3F, next to /dev/mm-color's
 * 0x00-0x1F (<colorguard/mm_color.h> says why that type).
 */
#define MEMGUARD_IOC_MAGIC	0xC9

/*
 * Errnos, the convention of <colorguard/mm_color.h>: EINVAL for flags
 * other than 0 or an unknown kind, ERANGE for a value outside the kind's
 * range, EFAULT for a bad address, EBUSY when the file already holds
 * MEMGUARD_BWLOCK_DEPTH_MAX acquisitions, EPERM for a release or a level
 * change by a file that holds nothing (as pthread_mutex_unlock()),
 * ETIMEDOUT for the first ACQUIRE, RELEASE or SET_LEVEL after the module
 * ended the file's hold (MEMGUARD_BWLOCK_INFO_EXPIRED), ENOTTY for an
 * unknown request. A rejected call changes nothing.
 */

/* Take the lock (once more) at a level. */
#define MEMGUARD_BWLOCK_ACQUIRE	_IOW(MEMGUARD_IOC_MAGIC, 0x20, struct memguard_bwlock)
/* Release this file's most recent acquisition. */
#define MEMGUARD_BWLOCK_RELEASE	_IO(MEMGUARD_IOC_MAGIC, 0x21)
/* Read the lock's state. */
#define MEMGUARD_BWLOCK_GET	_IOR(MEMGUARD_IOC_MAGIC, 0x22, struct memguard_bwlock_info)
/*
 * Change the level of this file's most recent acquisition in place, in
 * one step: the lock stays held throughout, so no period boundary can
 * find it released between the old level and the new one, as it can
 * between a RELEASE and an ACQUIRE. The level is checked as ACQUIRE's;
 * EPERM when the file holds nothing.
 */
#define MEMGUARD_BWLOCK_SET_LEVEL _IOW(MEMGUARD_IOC_MAGIC, 0x23, struct memguard_bwlock)

/*
 * colorguard 0.1.0's numbers: type 0xCC, which ioctl-number.rst gives to
 * the pseries VMC driver (ibmvmc). memguard.ko accepts them as aliases of
 * the numbers above for one more release: they go in colorguard 0.3.0.
 * SET_LEVEL never had one. Do not use them in new code.
 */
#define MEMGUARD_IOC_MAGIC_V0		0xCC
#define MEMGUARD_BWLOCK_ACQUIRE_V0	_IOW(MEMGUARD_IOC_MAGIC_V0, 0x20, struct memguard_bwlock)
#define MEMGUARD_BWLOCK_RELEASE_V0	_IO(MEMGUARD_IOC_MAGIC_V0, 0x21)
#define MEMGUARD_BWLOCK_GET_V0		_IOR(MEMGUARD_IOC_MAGIC_V0, 0x22, \
					     struct memguard_bwlock_info)

#endif /* _COLORGUARD_MEMGUARD_H */
