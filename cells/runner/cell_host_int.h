/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside struct cell_host: shared by the host side's files. Calls go one
 * way: cell_host.c (the claim as a whole) uses cell_host_check.c and the
 * parts (cell_host_memguard.c, cell_host_irq.c, cell_host_cpuset.c; the
 * IRQ part and the check take root's CPUs from the cpuset part); all of
 * them write the record (cell_host_record.c); every file uses
 * cell_host_io.c.
 */
#ifndef COLORGUARD_CELL_HOST_INT_H
#define COLORGUARD_CELL_HOST_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <colorguard/hv_color.h>

#include "cell_host.h"
#include "colorguard.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CPU_ONLINE	"/sys/devices/system/cpu/online"
#define VAL_MAX		4200	/* a list or mask as the kernel prints it */
#define MAX_IRQS	4096

struct host_irq {
	unsigned int irq;
	char *old;		/* smp_affinity_list before the claim */
};

struct host_mg {
	unsigned int cpu;
	bool critical;		/* else budgets */
	char old_crit[8];
	char old_read[32];
	char old_write[32];
};

struct cell_host {
	char name[CG_NAME_MAX + 1];
	char cgroup[128];	/* "" until made */
	char partition[16];	/* what the kernel took: isolated or root */
	bool mounted;		/* we mounted cgroup2 */
	bool enabled_cpuset;	/* we enabled +cpuset in the root */
	struct hvc_mask cpus;
	char *old_default;	/* /proc/irq/default_smp_affinity */
	struct host_irq *irqs;
	unsigned int nr_irqs, irqs_unmovable;
	struct host_mg *mg;
	unsigned int nr_mg;
	bool mg_absent;
	struct cell_pin *pins;	/* root tasks pinned to a cell CPU */
	unsigned int nr_pins;
	char record[PATH_MAX];	/* "" none */
};

/* cell_host_io.c */
/* Read a small file into buf, first line only, no newline. */
int host_read_line(const char *path, char *buf, size_t len);
/* One write(2) of value and a newline, as echo does; -errno on failure. */
int host_write_val(const char *path, const char *value);
/* A CPU list ("0-3,8") into m; -EINVAL, m unchanged, when it is none. */
int host_parse_list(const char *s, struct hvc_mask *m);
/* host_read_line() and host_parse_list() of a file. */
int host_read_list(const char *path, struct hvc_mask *m);
/* m as a CPU list; "" when it does not fit. */
void host_fmt_list(const struct hvc_mask *m, char *buf, size_t len);
/*
 * An undo step failed: the first failure of a release goes into *first
 * (err) and why (the reason); later ones are passed over, the undo goes
 * on.
 */
void host_undo_fail(int *first, char *why, size_t why_len, int err,
		    const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* cell_host_record.c */
/* Write h's record file anew (none: 0); 0 or -errno. */
int host_record_write(const struct cell_host *h);
/* Parse a record back (written by us, into a root-only dir; still checked). */
int host_record_read(const char *path, struct cell_host *h, char *why,
		     size_t why_len);

/* cell_host_cpuset.c */
/* The CPUs root Linux's tasks may use now: the cgroup root's partition. */
int host_root_cpus(struct hvc_mask *m);
/* Mount cgroup2 and enable cpuset where needed; make the partition. */
int host_claim_partition(struct cell_host *h, char *why, size_t why_len);
/* The partition's tasks moved to the cgroup root, the partition removed. */
void host_undo_partition(struct cell_host *h, int *first, char *why,
			 size_t why_len);
/* cpuset disabled and cgroup2 unmounted if we did it and no cell is left. */
void host_undo_cgroup_root(struct cell_host *h);

/* cell_host_irq.c */
/* Every movable IRQ and the default affinity moved off the cell's CPUs. */
int host_claim_irqs(struct cell_host *h, char *why, size_t why_len);
/* The IRQs' and the default affinity given back. */
void host_undo_irqs(struct cell_host *h, int *first, char *why,
		    size_t why_len);

/* cell_host_memguard.c */
/* memguard (when loaded): the cell's CPUs critical, or given budgets. */
int host_claim_memguard(struct cell_host *h, const struct cg_cell *cell,
			char *why, size_t why_len);
/* The old memguard settings restored; memguard gone meanwhile is fine. */
void host_undo_memguard(struct cell_host *h, int *first, char *why,
			size_t why_len);

#endif
