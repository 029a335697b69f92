/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The comm region of a colorguard cell: one 4 KiB page of the cell's RAM
 * (colored like the rest of it) that the cell runner and the inmate share.
 * Results travel through it rather than through exits, because every exit
 * is expensive (0.1-0.3 ms in a nested test VM).
 *
 * Byte layout (little endian, every field naturally aligned):
 *
 *   off  size  field            written by  meaning
 *     0     8  signature        runner      "CGCOMM\0\0"
 *     8     4  revision         runner      CELL_COMM_REVISION
 *    12     4  cell_state       runner      enum cell_comm_state
 *    16     4  msg_to_cell      runner      CELL_MSG_*, NONE when read
 *    20     4  reply_from_cell  inmate      CELL_REPLY_*
 *    24     4  inmate_state     inmate      enum cell_inmate_state
 *    28     4  fault_cpu        inmate      vCPU index that faulted
 *    32     8  console          runner      guest address of the console
 *                                           byte register (MMIO, write-only)
 *    40     8  ram_base         runner      guest address of memory[0]
 *    48     8  ram_size         runner      bytes of memory[0]
 *    56     4  nr_cpus          runner      vCPUs of the cell
 *    60     4  flags            runner      CELL_COMM_F_*
 *    64    32  fault_info[4]    inmate      arch code (arm64 ESR_EL1, x86
 *                                           vector), address (FAR_EL1 or 0),
 *                                           pc, error code / spare
 *    96    64  fault_reason     inmate      NUL-terminated one line
 *   160   768  args             runner      NUL-terminated argument string
 *                                           ("key=value key=value")
 *   928     8  bwlock_reg       runner      guest address of the bandwidth-lock
 *                                           register (MMIO, console + 8)
 *   936     4  bwlock_level     runner      per mille the cell holds, 0: none
 *   940     4  bwlock_status    runner      CELL_BWLOCK_* of the last request
 *   944     4  bwlock_requests  runner      requests seen (writes of the register)
 *   948     4  bwlock_acquired  runner      acquisitions and level changes served
 *   952     4  bwlock_refused   runner      requests refused
 *   956     4  bwlock_forced    runner      holds the runner ended (see below)
 *   960    56  bwlock_reason    runner      NUL-terminated one line: why the
 *                                           last refused request was refused,
 *                                           or why the hold was ended
 *  1016     4  bwlock_max_hold_ms  runner   the cell's limits on the lock,
 *  1020     2  bwlock_min_gap_ms   runner   the config's keys of these names
 *  1022     2  bwlock_min_level    runner   (0: a runner without limits)
 *  1024     4  results_count    inmate      entries used (<= RESULTS_MAX)
 *  1028     4  tsc_khz          runner      x86: the vCPUs' TSC frequency in
 *                                           kHz (KVM_GET_TSC_KHZ); 0: unknown
 *  1032  32*n  results[n]       inmate      name[24] (NUL-terminated) +
 *                                           u64 value (n = 94, to 4040)
 *  4040    24  spare            runner      0
 *  4064     8  chan_dir         runner      guest address of the cell's
 *                                           channel directory
 *                                           (include/colorguard/cell_chan.h);
 *                                           0: the cell has no channels
 *  4072     8  gic_dist         runner      arm64: guest address of the
 *                                           vGIC's distributor (GICv3)
 *  4080     8  gic_redist       runner      arm64: guest address of vCPU 0's
 *                                           redistributor, vCPU i's at
 *                                           + i * 128 KiB
 *  4088     4  gic_version      runner      arm64: 3; 0: no vGIC (x86)
 *  4092     4  timer_irq        runner      arm64: INTID of the virtual
 *                                           timer's PPI (27)
 *
 * The inmate checks signature and revision before it uses anything else.
 * The shutdown handshake: the runner writes CELL_REPLY_NONE to
 * reply_from_cell, then CELL_MSG_SHUTDOWN_REQUEST to msg_to_cell; the
 * inmate answers CELL_REPLY_SHUTDOWN_OK (and then stops) or
 * CELL_REPLY_SHUTDOWN_DENIED (and goes on).
 *
 * The bandwidth lock (memguard's, include/colorguard/memguard.h): the
 * inmate writes a 32-bit level to the register at bwlock_reg, once per
 * transition: 1..1000 takes the lock at that per mille (or changes the
 * level it holds: a cell holds at most one acquisition), 0 releases it.
 * The runner serves the write before the inmate's next instruction, so
 * the bwlock_* fields hold the outcome when the write returns. A request
 * is refused (status and reason, the lock as before) when the config does
 * not allow the cell the lock (CELL_COMM_F_BWLOCK clear), for a level
 * above 1000, a release of nothing, an access that is not a 32-bit write,
 * more than CELL_BWLOCK_RATE_MAX acquisitions a second, or when
 * /dev/memguard cannot be used. A read returns the level held. The lock
 * ends with the cell (stopped, failed, destroyed, or its runner gone).
 *
 * The stop register (x86 only, at console + CELL_STOP_REG_OFFSET): a
 * 32-bit write stops the writing vCPU. With KVM's in-kernel local APIC a
 * hlt no longer reaches the runner, so this is the inmate's stop: on vCPU
 * 0, or on any vCPU once inmate_state says DONE or FAILED, it stops the
 * cell; on another vCPU it only parks that vCPU. arm64 stops with PSCI.
 *
 * The cell's limits (bwlock_max_hold_ms, bwlock_min_gap_ms,
 * bwlock_min_level): a level below bwlock_min_level is refused
 * (TOO_LOW), and so is an acquisition less than bwlock_min_gap_ms after
 * the cell's last release of this run (TOO_SOON; a change of the level
 * held waits for nothing). A hold that reaches bwlock_max_hold_ms from
 * its acquisition (changes of level included) is ended by the runner,
 * whatever the inmate does: bwlock_level becomes 0, bwlock_forced grows,
 * bwlock_status becomes FORCED and bwlock_reason says why; the gap runs
 * from then.
 * Freestanding: no libc types.
 * The runner and the inmate library check this layout at build time.
 */
#ifndef _COLORGUARD_CELL_COMM_H
#define _COLORGUARD_CELL_COMM_H

#define CELL_COMM_SIGNATURE	"CGCOMM\0"	/* 8 bytes with the NUL */
#define CELL_COMM_REVISION	5
#define CELL_COMM_SIZE		4096
#define CELL_COMM_ARGS_MAX	768		/* with the NUL */
#define CELL_COMM_NAME_MAX	24		/* result name, with the NUL */
#define CELL_COMM_RESULTS_OFF	1024
#define CELL_COMM_RESULTS_MAX	94
#define CELL_COMM_BWLOCK_REASON_MAX	56		/* with the NUL */

/* Default guest addresses (the config's `comm` and `console`). */
#define CELL_COMM_DEFAULT_ADDR		0x80000000ull
#define CELL_CONSOLE_DEFAULT_X86	0xf0000000ull
#define CELL_CONSOLE_DEFAULT_ARM64	0xc0000000ull

/* The bandwidth-lock register: next to the console, in its device page. */
#define CELL_BWLOCK_REG_OFFSET		8
#define CELL_BWLOCK_REG_SIZE		4
/* x86: the stop register, after the bandwidth-lock register. */
#define CELL_STOP_REG_OFFSET		16
#define CELL_STOP_REG_SIZE		4
/*
 * Channel doorbells (include/colorguard/cell_chan.h): the register of the
 * cell's channel k (its directory's entry k) at console + 64 + 8k.
 */
#define CELL_DOORBELL_REG_OFFSET	64
#define CELL_DOORBELL_REG_STRIDE	8
#define CELL_DOORBELL_REG_SIZE		4
#define CELL_DOORBELL_REGS		16	/* CELL_CHAN_MAX */
/* The device registers from the console on: console, lock, stop, doorbells. */
#define CELL_DEVICE_REGS_SIZE		(CELL_DOORBELL_REG_OFFSET + \
					 CELL_DOORBELL_REGS * CELL_DOORBELL_REG_STRIDE)
/* Acquisitions and level changes served per second, at most. */
#define CELL_BWLOCK_RATE_MAX		100

/* Entry registers: the comm page address and the vCPU index. */
/*   arm64: x0 = comm, x1 = vCPU index; x86_64 (long mode): rsi, rdi */

enum cell_comm_state {
	CELL_COMM_RUNNING = 1,
	CELL_COMM_SHUTDOWN_REQUESTED = 2,
	CELL_COMM_SHUT_DOWN = 3,
};

enum cell_inmate_state {
	CELL_INMATE_NONE = 0,		/* not started (or old inmate) */
	CELL_INMATE_STARTED = 1,	/* checked the comm region */
	CELL_INMATE_DONE = 2,		/* finished, about to stop */
	CELL_INMATE_FAILED = 3,		/* fault: see fault_* */
};

/* flags: what the vCPU offers */
#define CELL_COMM_F_PMU		1	/* arm64: PMCCNTR usable (PMUv3 set up) */
#define CELL_COMM_F_BWLOCK	2	/* the config allows the bandwidth lock */
#define CELL_COMM_F_NO_CONSOLE	4	/* console_output = false: writes dropped */

/* bwlock_status: the outcome of the last request, or FORCED since. */
enum cell_bwlock_status {
	CELL_BWLOCK_NONE = 0,		/* no request yet */
	CELL_BWLOCK_OK = 1,		/* served */
	CELL_BWLOCK_NOT_ALLOWED = 2,	/* the config does not allow it */
	CELL_BWLOCK_BAD_LEVEL = 3,	/* above 1000 */
	CELL_BWLOCK_NOT_HELD = 4,	/* release while not held */
	CELL_BWLOCK_BAD_ACCESS = 5,	/* not a 32-bit write */
	CELL_BWLOCK_FLOOD = 6,		/* over CELL_BWLOCK_RATE_MAX a second */
	CELL_BWLOCK_NO_DEVICE = 7,	/* /dev/memguard missing or refused */
	CELL_BWLOCK_FAILED = 8,		/* memguard refused the ioctl */
	CELL_BWLOCK_STOPPING = 9,	/* the cell is ending */
	CELL_BWLOCK_FORCED = 10,	/* not a request: the hold was ended */
	CELL_BWLOCK_TOO_SOON = 11,	/* within bwlock_min_gap_ms of a release */
	CELL_BWLOCK_TOO_LOW = 12,	/* below bwlock_min_level */
};

#define CELL_MSG_NONE			0
#define CELL_MSG_SHUTDOWN_REQUEST	1

#define CELL_REPLY_NONE			0
#define CELL_REPLY_SHUTDOWN_OK		1
#define CELL_REPLY_SHUTDOWN_DENIED	2

struct cell_comm_result {
	char name[CELL_COMM_NAME_MAX];
	__UINT64_TYPE__ value;
};

struct cell_comm {
	char signature[8];
	__UINT32_TYPE__ revision;
	__UINT32_TYPE__ cell_state;
	__UINT32_TYPE__ msg_to_cell;
	__UINT32_TYPE__ reply_from_cell;
	__UINT32_TYPE__ inmate_state;
	__UINT32_TYPE__ fault_cpu;
	__UINT64_TYPE__ console;
	__UINT64_TYPE__ ram_base;
	__UINT64_TYPE__ ram_size;
	__UINT32_TYPE__ nr_cpus;
	__UINT32_TYPE__ flags;
	__UINT64_TYPE__ fault_info[4];
	char fault_reason[64];
	char args[CELL_COMM_ARGS_MAX];
	__UINT64_TYPE__ bwlock_reg;
	__UINT32_TYPE__ bwlock_level;
	__UINT32_TYPE__ bwlock_status;
	__UINT32_TYPE__ bwlock_requests;
	__UINT32_TYPE__ bwlock_acquired;
	__UINT32_TYPE__ bwlock_refused;
	__UINT32_TYPE__ bwlock_forced;
	char bwlock_reason[CELL_COMM_BWLOCK_REASON_MAX];
	__UINT32_TYPE__ bwlock_max_hold_ms;
	__UINT16_TYPE__ bwlock_min_gap_ms;
	__UINT16_TYPE__ bwlock_min_level;
	__UINT32_TYPE__ results_count;
	__UINT32_TYPE__ tsc_khz;
	struct cell_comm_result results[CELL_COMM_RESULTS_MAX];
	__UINT64_TYPE__ spare2[3];
	__UINT64_TYPE__ chan_dir;
	__UINT64_TYPE__ gic_dist;
	__UINT64_TYPE__ gic_redist;
	__UINT32_TYPE__ gic_version;
	__UINT32_TYPE__ timer_irq;
};

#endif /* _COLORGUARD_CELL_COMM_H */
