/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside struct cell_host: shared by the host side's files. Calls go one
 * way: cell_host.c (the claim as a whole) uses cell_host_check.c, the
 * journal (cell_host_journal.c) and the resources, one file each with its
 * claim, its journal line's parser and its undo (cell_host_cpuset.c,
 * cell_host_enter.c, cell_host_pin.c, cell_host_irq.c,
 * cell_host_memguard.c); the journal
 * calls the resources' parsers and undos through struct host_kind only;
 * every file uses cell_host_io.c.
 */
#ifndef COLORGUARD_CELL_HOST_INT_H
#define COLORGUARD_CELL_HOST_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <colorguard/hv_color.h>

#include "cell_host.h"
#include "cell_pin.h"
#include "colorguard.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define CPU_ONLINE	"/sys/devices/system/cpu/online"
#define VAL_MAX		4200	/* a list or mask as the kernel prints it */
#define CG_PATH_MAX	256	/* a cgroup's path below CG_ROOT, as recorded */
#define MAX_IRQS	4096
/* Journal lines at most: every IRQ, pinned task and memguard file, twice. */
#define JOURNAL_MAX_STEPS	(2 * (MAX_IRQS + CELL_PIN_MAX + 3 * 64 + 8))
/* memguard's files a claim writes, and the longest value they hold. */
#define MG_VAL_MAX	32

struct cell_host;

/*
 * One step of a claim as its journal line gives it: what it changes, the
 * value it found there (old) and the value it writes (new).
 */
struct host_entry {
	unsigned int seq;		/* its line number in the journal */
	const struct host_kind *kind;
	bool undone;			/* an "undone" line names it */
	union {
		struct hvc_mask cpus;	/* partition: the cell's CPUs */
		char origin[CG_PATH_MAX]; /* enter: a cgroup below the root */
		struct {		/* irq, irqdefault */
			unsigned int irq;
			struct hvc_mask old, new;
		} irq;
		struct {		/* pin */
			struct cell_pin task;	/* own CPUs in task.cpus */
			struct hvc_mask narrowed;
		} pin;
		struct {		/* memguard */
			unsigned int cpu;
			char file[16];
			char old[MG_VAL_MAX], new[MG_VAL_MAX];
		} mg;
	};
};

/* The first failure of an undo (later ones are passed over). */
struct host_undo {
	int first;
	char *why;
	size_t why_len;
};

/* A kind of journal line: "SEQ NAME ARGS...", and how it is undone. */
struct host_kind {
	const char *name;
	unsigned int nr_args;
	/* The args into e; -EINVAL when they are not what a claim writes. */
	int (*parse)(struct host_entry *e, char *const *args);
	/*
	 * Give the step back, compare-and-restore: 0 when done (also when
	 * there was nothing to do or a conflict was reported), else -errno
	 * noted in u; the step is then tried again by the next replay.
	 */
	int (*undo)(struct cell_host *h, const struct host_entry *e,
		    struct host_undo *u);
};

struct cell_host {
	char name[CG_NAME_MAX + 1];
	struct hvc_mask cpus;
	char cgroup[128];	/* the partition's directory, "" until made */
	char partition[16];	/* what the kernel took: isolated or root */
	unsigned int irqs_moved, irqs_unmovable;
	bool mg_absent;		/* memguard not loaded */
	bool mg_critical;	/* else budgets */
	unsigned int mg_steps;
	unsigned int nr_pins;	/* root tasks pinned to a cell CPU */
	/* The journal: its file, its lines parsed, the last line's number. */
	char journal[PATH_MAX];
	int journal_fd;		/* -1: not open for appending */
	struct host_entry *steps;
	unsigned int nr_steps, last_seq;
};

extern const struct host_kind host_kind_mount, host_kind_controller,
	host_kind_partition, host_kind_enter, host_kind_pin, host_kind_irqdefault,
	host_kind_irq, host_kind_memguard;

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
/* A journal's CPU list: as host_parse_list(), "-" the empty one. */
int host_parse_jlist(const char *s, struct hvc_mask *m);
void host_fmt_jlist(const struct hvc_mask *m, char *buf, size_t len);
/* Record an undo step's failure in u (the first one wins). */
void host_undo_fail(struct host_undo *u, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A value changed since the claim: one line on stderr. */
void host_conflict(const struct cell_host *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Compare-and-restore of a CPU set the claim changed from old to new,
 * now cur: HOST_GB_RESTORE (out = old) when cur is still new,
 * HOST_GB_NOTHING when cur is old, else HOST_GB_CONFLICT with out = cur
 * plus the CPUs of cell the claim took away (old & cell): someone set
 * the value since, and only what the claim took is given back.
 */
enum host_give_back { HOST_GB_NOTHING, HOST_GB_RESTORE, HOST_GB_CONFLICT };
enum host_give_back host_give_back(const struct hvc_mask *old,
				   const struct hvc_mask *new,
				   const struct hvc_mask *cur,
				   const struct hvc_mask *cell,
				   struct hvc_mask *out);

/* cell_host_journal.c */
/* Make the journal file (0600) with its header; h->name and cpus set. */
int host_journal_create(struct cell_host *h, const char *path);
/*
 * Append a step's line ("NAME ARGS", printf-style) and sync it, before
 * the step is taken; its parsed entry goes into h->steps. -errno and a
 * reason (the claim must stop) when it cannot be written.
 */
int host_journal_add(struct cell_host *h, char *why, size_t why_len,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A step's change is made (a point of the test hook, see cell_host.h). */
void host_journal_point(void);
/* Read a journal back into h (journal_fd open for the "undone" lines). */
int host_journal_load(struct cell_host *h, const char *path, char *why,
		      size_t why_len);
/* Undo every step not yet undone, last first; the first failure. */
int host_journal_replay(struct cell_host *h, char *why, size_t why_len);
/* Close the file; with remove, unlink it (everything was given back). */
void host_journal_close(struct cell_host *h, bool remove);

/* cell_host_cpuset.c */
/* The CPUs root Linux's tasks may use now: the cgroup root's partition. */
int host_root_cpus(struct hvc_mask *m);
/* Mount cgroup2 and enable cpuset where needed; make the partition. */
int host_claim_partition(struct cell_host *h, char *why, size_t why_len);

/* cell_host_pin.c */
/* Note the root tasks pinned to a cell CPU: a "pin" line each. */
int host_claim_pins(struct cell_host *h, char *why, size_t why_len);
/* Once the partition is made: each of them on its own CPUs minus the cell's. */
void host_narrow_pins(struct cell_host *h);

/* cell_host_irq.c */
/* Every movable IRQ and the default affinity moved off the cell's CPUs. */
int host_claim_irqs(struct cell_host *h, char *why, size_t why_len);

/* cell_host_memguard.c */
/* memguard (when loaded): the cell's CPUs critical, or given budgets. */
int host_claim_memguard(struct cell_host *h, const struct cg_cell *cell,
			char *why, size_t why_len);

#endif
