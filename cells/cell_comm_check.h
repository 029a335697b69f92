/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The byte layout include/colorguard/cell_comm.h documents, checked where
 * the comm region is used: the runner and the inmate library (each arch).
 * Outside the header because checkpatch reads _Static_assert there as
 * CamelCase.
 */
#ifndef COLORGUARD_CELL_COMM_CHECK_H
#define COLORGUARD_CELL_COMM_CHECK_H

_Static_assert(sizeof(struct cell_comm) <= CELL_COMM_SIZE, "comm page");
_Static_assert(__builtin_offsetof(struct cell_comm, args) == 160, "args");
_Static_assert(__builtin_offsetof(struct cell_comm, bwlock_reg) == 928,
	       "bwlock_reg");
_Static_assert(__builtin_offsetof(struct cell_comm, bwlock_level) == 936,
	       "bwlock_level");
_Static_assert(__builtin_offsetof(struct cell_comm, bwlock_refused) == 952,
	       "bwlock_refused");
_Static_assert(__builtin_offsetof(struct cell_comm, bwlock_reason) == 960,
	       "bwlock_reason");
_Static_assert(__builtin_offsetof(struct cell_comm, bwlock_forced) == 956,
	       "bwlock_forced");
_Static_assert(__builtin_offsetof(struct cell_comm, bwlock_max_hold_ms) == 1016,
	       "bwlock_max_hold_ms");
_Static_assert(__builtin_offsetof(struct cell_comm, bwlock_min_level) == 1022,
	       "bwlock_min_level");
_Static_assert(__builtin_offsetof(struct cell_comm, results_count) ==
	       CELL_COMM_RESULTS_OFF, "results");
_Static_assert(__builtin_offsetof(struct cell_comm, results) ==
	       CELL_COMM_RESULTS_OFF + 8, "results[]");
_Static_assert(__builtin_offsetof(struct cell_comm, chan_dir) == 4064, "chan_dir");
_Static_assert(__builtin_offsetof(struct cell_comm, gic_dist) == 4072,
	       "gic_dist");
_Static_assert(__builtin_offsetof(struct cell_comm, timer_irq) == 4092,
	       "timer_irq");
_Static_assert(sizeof(struct cell_comm) == CELL_COMM_SIZE, "comm page size");

#endif
