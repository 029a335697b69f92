/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memguard's sysfs files: the type every file is, and what a write
 * carries from its text to the value applied. sysfs.c builds the tree and
 * runs every read and write; the files themselves are in sysfs_global.c
 * (/sys/kernel/memguard/) and sysfs_cpu.c (its cpuN/ folders).
 */
#ifndef MEMGUARD_SYSFS_H
#define MEMGUARD_SYSFS_H

#include <linux/compiler_attributes.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <colorguard/user_text.h>

#include "memguard.h"

/* last_cmd_status, and a write's reason: one line of at most this. */
#define MG_CMD_LEN	160

/* One write to a file, from its text to the value applied. */
struct mg_write {
	unsigned int cpu;	/* the cpuN/ folder's CPU */
	enum mg_slot slot;	/* the file's slot (read_* or write_* files) */
	const char *in;		/* the text written, without its newline */
	union {			/* what @parse made of @in */
		bool on;
		u32 num;
		struct mg_budget budget;
		struct mg_event_spec event;
	} val;
	cpumask_var_t cpus;	/* a CPU list; freed after the write */
	char why[MG_CMD_LEN];	/* why the write was refused */
};

/*
 * A memguard file. sysfs.c writes every file the same way: the text rule
 * of <colorguard/user_text.h>, then @parse without locks, then @apply
 * under mg_lock(), then last_cmd_status ("ok", or the file's name and
 * w->why). @parse and @apply refuse a write with an errno, and set w->why;
 * nothing has changed then. Read-only files have no @apply.
 */
struct mg_file {
	struct attribute attr;
	enum mg_slot slot;
	size_t stat;		/* statistics: offset in struct mg_stats */
	ssize_t (*show)(const struct mg_file *file, unsigned int cpu,
			char *buf);
	int (*parse)(struct mg_write *w);
	int (*apply)(struct mg_write *w);
};

#define MG_FILE(_var, _name, _mode, _slot, _show, _parse, _apply)	\
	static struct mg_file _var = {					\
		.attr = { .name = _name, .mode = _mode },		\
		.slot = _slot,						\
		.show = _show,						\
		.parse = _parse,					\
		.apply = _apply,					\
	}

/* A file read and written as a whole (mode 0644), and one only read. */
#define MG_FILE_RW(_var, _name, _slot, _show, _parse, _apply)		\
	MG_FILE(_var, _name, 0644, _slot, _show, _parse, _apply)
#define MG_FILE_RO(_var, _name, _slot, _show)				\
	MG_FILE(_var, _name, 0444, _slot, _show, NULL, NULL)

/* Say why @w is refused. */
static inline __printf(2, 3)
void mg_why(struct mg_write *w, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(w->why, sizeof(w->why), fmt, args);
	va_end(args);
}

/* @parse of the 0/1 files. */
static inline int mg_parse_bool(struct mg_write *w)
{
	int ret = cg_user_bool(w->in, strlen(w->in), &w->val.on);

	if (ret)
		mg_why(w, "expected 0 or 1");
	return ret;
}

/* sysfs_global.c */
extern const struct attribute_group mg_global_group;
/* sysfs_bwlock.c */
extern const struct attribute_group mg_bwlock_group;
/* sysfs_cpu.c */
extern const struct attribute_group *mg_cpu_groups[];

#endif /* MEMGUARD_SYSFS_H */
