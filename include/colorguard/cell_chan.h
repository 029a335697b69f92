/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cell's channel directory: one page of the cell's RAM (colored like
 * the rest of it) that the runner fills before the inmate starts and
 * never reads back, at the guest address in the comm page's chan_dir.
 * It is how each side gets a channel's geometry privately, from the
 * config, never from the channel's shared memory.
 *
 * Byte layout (little endian, every field naturally aligned):
 *
 *   off  size  field      meaning
 *     0     8  signature  "CGCHAN\0\0"
 *     8     4  nr         entries used, at most CELL_CHAN_MAX
 *    12     4  spare      0
 *    16  144n  entry[n]
 *
 * An entry, one per channel the cell takes part in (its config order):
 *
 *   off  size  field      meaning
 *     0    32  name       NUL-terminated
 *    32     4  role       CELL_CHAN_WRITER or CELL_CHAN_READER
 *    36     4  index      a reader's index (feedback slot, peer 1 + index)
 *    40     8  window     guest address of the window: the writer's region
 *                         (read-only for a reader), the peers page after
 *                         it, then the feedback pages (below)
 *    48     8  doorbell   guest address of the channel's doorbell
 *                         register, 0: none (see below)
 *    56    72  geom       struct chan_geom (include/colorguard/chan.h)
 *   128     4  irq        a reader's doorbell interrupt: x86 vector,
 *                         arm64 INTID (an edge-triggered SPI routed to
 *                         vCPU 0 by the inmate); 0: none
 *   132    12  spare      0
 *
 * The window, from window on: geom.writer_size bytes of the writer's
 * region, CHAN_PEERS_SIZE of the peers page, then a reader's own feedback
 * page (writable), or for the writer of a channel with flags each
 * reader's feedback page in reader order (read-only). Every read-only
 * page is a read-only memslot: a write to it stops the cell as failed.
 *
 * Doorbell: a writer of a channel with CHAN_F_DOORBELL rings reader i by
 * a 32-bit write of i to the channel's doorbell register (entry k's at
 * console + CELL_DOORBELL_REG_OFFSET + k * CELL_DOORBELL_REG_STRIDE),
 * handled in the kernel (KVM_IOEVENTFD): no exit to the runner. Any other
 * access of the register is an exit that fails the cell. A reading cell
 * is rung by an interrupt (irq), which KVM injects from the doorbell's
 * eventfd (KVM_IRQFD): a writer's ring wakes a reader halted in the
 * kernel, again without an exit.
 *
 * Where: the directory is the page below the comm page.
 *
 * Freestanding: no libc types.
 */
#ifndef _COLORGUARD_CELL_CHAN_H
#define _COLORGUARD_CELL_CHAN_H

#include <colorguard/cell_comm.h>
#include <colorguard/chan.h>

#define CELL_CHAN_SIGNATURE	"CGCHAN\0"	/* 8 bytes with the NUL */
#define CELL_CHAN_MAX		16		/* the config's channels per cell */
#define CELL_CHAN_NAME_MAX	32		/* with the NUL */
#define CELL_CHAN_DIR_SIZE	4096

#define CELL_CHAN_WRITER	1
#define CELL_CHAN_READER	2

struct cell_chan_entry {
	char name[CELL_CHAN_NAME_MAX];
	chan_u32 role;
	chan_u32 index;
	chan_u64 window;
	chan_u64 doorbell;
	struct chan_geom geom;
	chan_u32 irq;
	chan_u32 spare[3];
};

struct cell_chan_dir {
	char signature[8];
	chan_u32 nr;
	chan_u32 spare;
	struct cell_chan_entry entry[CELL_CHAN_MAX];
};

_Static_assert(sizeof(struct chan_geom) == 72, "chan_geom size");
_Static_assert(CELL_CHAN_MAX == CELL_DOORBELL_REGS, "a doorbell register a channel");
_Static_assert(sizeof(struct cell_chan_entry) == 144, "cell_chan_entry size");
_Static_assert(__builtin_offsetof(struct cell_chan_entry, irq) == 128,
	       "cell_chan_entry.irq");
_Static_assert(__builtin_offsetof(struct cell_chan_entry, geom) == 56,
	       "cell_chan_entry.geom");
_Static_assert(__builtin_offsetof(struct cell_chan_dir, entry) == 16,
	       "cell_chan_dir.entry");
_Static_assert(sizeof(struct cell_chan_dir) <= CELL_CHAN_DIR_SIZE,
	       "cell_chan_dir size");

#endif /* _COLORGUARD_CELL_CHAN_H */
