/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Root tasks' own CPU pinning across a claim: the tasks found and their
 * affinity read and set (cell_host_pin.c journals and undoes it).
 *
 * Before Linux 6.2 a cpuset change sets the affinity of the cpuset's tasks
 * to its CPUs and forgets what a task had asked for: a root task pinned to
 * CPUs 0-1 would run on every other CPU of root Linux while a cell holds
 * CPU 0, and on every CPU after the cell is gone. So before a claim the
 * runner notes each user task whose affinity includes a cell CPU but not
 * all of root's CPUs; after the partition is made it keeps such a task on
 * its own CPUs minus the cell's, and after the partition is gone it gives
 * the task its own CPUs back. From 6.2 the kernel keeps the requested mask
 * itself and these calls change nothing. A task that exits, or whose id
 * now names another task (start time differs), is left alone.
 */
#ifndef COLORGUARD_CELL_PIN_H
#define COLORGUARD_CELL_PIN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <colorguard/hv_color.h>

/* Tasks noted at most (a claim with more is refused). */
#define CELL_PIN_MAX	4096

struct cell_pin {
	pid_t tid;
	unsigned long long start;	/* /proc/TID/stat starttime */
	struct hvc_mask cpus;		/* its own affinity before the claim */
};

/*
 * Note the user tasks whose affinity includes a CPU of cell and not every
 * CPU of root: *pins (malloc'd, NULL for none) and *nr. Returns 0 or a
 * negative errno with a one-line reason in why.
 */
int cell_pin_snapshot(const struct hvc_mask *cell, const struct hvc_mask *root,
		      struct cell_pin **pins, unsigned int *nr,
		      char *why, size_t why_len);

/* The task tid names is still the one p noted (same start time). */
bool cell_pin_alive(const struct cell_pin *p);

/* A task's CPU affinity, read and set; -errno (-ESRCH: it is gone). */
int cell_pin_get(pid_t tid, struct hvc_mask *m);
int cell_pin_set(pid_t tid, const struct hvc_mask *m);

#endif
