/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cell's partition watched while the cell exists: when the kernel
 * makes it invalid (a cell CPU taken offline: its vCPU threads would run
 * on root Linux's CPUs, unisolated), the running cell is failed at once
 * with the reason (cell_host_partition_check()). A thread blocked in
 * poll() on the partition's state file, on root Linux's CPUs: nothing
 * polls on a timer.
 */
#ifndef COLORGUARD_CELL_WATCH_H
#define COLORGUARD_CELL_WATCH_H

#include <stddef.h>

struct cell_host;
struct cell_vm;
struct cell_watch;

/* Start watching; *out for cell_watch_stop(). 0 or -errno with why. */
int cell_watch_start(struct cell_host *h, struct cell_vm *vm,
		     struct cell_watch **out, char *why, size_t why_len);
/* Stop and free (NULL: nothing); before the VM and the claim go. */
void cell_watch_stop(struct cell_watch *w);

#endif
