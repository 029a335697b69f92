// SPDX-License-Identifier: GPL-2.0
/*
 * Root tasks' own CPU pinning kept across a claim. See cell_pin.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell_pin.h"
#include "cell_why.h"

/* include/linux/sched.h: the task is a kernel thread. */
#define PF_KTHREAD	0x00200000u

/* A /proc entry named by a task id (at most 10 digits: pid_t). */
static bool is_tid(const char *s)
{
	if (!*s || strlen(s) > 10)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * Flags and start time of /proc/PID/task/TID/stat. The command name may
 * hold spaces and parentheses: the fields are counted from its last ')'.
 */
static int task_stat(const char *dir, unsigned int *flags,
		     unsigned long long *start)
{
	char path[96], buf[1024], *p;
	FILE *f;
	size_t n;
	int field;

	snprintf(path, sizeof(path), "%.64s/stat", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	/* p + 2 is field 3 (state); flags is field 9, starttime field 22. */
	p += 2;
	for (field = 3; field < 22 && p; field++) {
		if (field == 9 && sscanf(p, "%u", flags) != 1)
			return -EINVAL;
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%llu", start) != 1)
		return -EINVAL;
	return 0;
}

/* Cpus_allowed_list of /proc/PID/task/TID/status. */
static int task_cpus(const char *dir, struct hvc_mask *m)
{
	char path[96], line[4200];
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%.64s/status", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, "Cpus_allowed_list:", 18))
			continue;
		v = line + 18;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		ret = hvc_mask_parse(m, v, strlen(v), HVC_MAX_CPUS, NULL) ?
			-EINVAL : 0;
		break;
	}
	fclose(f);
	return ret;
}

/* A task that is pinned by its own choice and would lose a cell CPU. */
static bool pinned_into(const struct hvc_mask *cpus,
			const struct hvc_mask *cell,
			const struct hvc_mask *root)
{
	struct hvc_mask t;

	hvc_mask_and(&t, cpus, root);
	return hvc_mask_intersects(cpus, cell) && !hvc_mask_equal(&t, root);
}

static int note_task(const char *dir, pid_t tid, const struct hvc_mask *cell,
		     const struct hvc_mask *root, struct cell_pin **pins,
		     unsigned int *nr)
{
	unsigned long long start;
	unsigned int flags = 0;
	struct hvc_mask cpus;
	struct cell_pin *t;

	/* Gone meanwhile, or a kernel thread: nothing to keep. */
	if (task_stat(dir, &flags, &start) || (flags & PF_KTHREAD) ||
	    task_cpus(dir, &cpus) || !pinned_into(&cpus, cell, root))
		return 0;
	if (*nr >= CELL_PIN_MAX)
		return -E2BIG;
	t = realloc(*pins, (*nr + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	*pins = t;
	t[*nr].tid = tid;
	t[*nr].start = start;
	t[*nr].cpus = cpus;
	(*nr)++;
	return 0;
}

int cell_pin_snapshot(const struct hvc_mask *cell, const struct hvc_mask *root,
		      struct cell_pin **pins, unsigned int *nr,
		      char *why, size_t why_len)
{
	struct dirent *p, *t;
	DIR *procs, *tasks;
	int ret = 0;

	*pins = NULL;
	*nr = 0;
	procs = opendir("/proc");
	if (!procs) {
		ret = -errno;
		cell_why(why, why_len, "/proc: %s", strerror(errno));
		return ret;
	}
	while (!ret && (p = readdir(procs))) {
		char dir[64];
		long pid;

		if (!is_tid(p->d_name))
			continue;
		pid = atol(p->d_name);
		snprintf(dir, sizeof(dir), "/proc/%ld/task", pid);
		tasks = opendir(dir);
		if (!tasks)
			continue;
		while (!ret && (t = readdir(tasks))) {
			char tdir[64];
			long tid;

			if (!is_tid(t->d_name))
				continue;
			tid = atol(t->d_name);
			snprintf(tdir, sizeof(tdir), "/proc/%ld/task/%ld", pid, tid);
			ret = note_task(tdir, (pid_t)tid, cell, root, pins, nr);
		}
		closedir(tasks);
	}
	closedir(procs);
	if (ret) {
		cell_why(why, why_len, ret == -E2BIG ?
			 "more than %u root tasks pinned to the cell's CPUs" :
			 "noting root tasks' CPU pinning: out of memory",
			 CELL_PIN_MAX);
		free(*pins);
		*pins = NULL;
		*nr = 0;
	}
	return ret;
}

bool cell_pin_alive(const struct cell_pin *p)
{
	char dir[64];
	unsigned long long now;
	unsigned int flags;

	/* /proc/TID/task/TID names any thread, group leader or not. */
	snprintf(dir, sizeof(dir), "/proc/%d/task/%d", (int)p->tid, (int)p->tid);
	return !task_stat(dir, &flags, &now) && now == p->start;
}

int cell_pin_get(pid_t tid, struct hvc_mask *m)
{
	cpu_set_t set;
	unsigned int c;

	CPU_ZERO(&set);
	if (sched_getaffinity(tid, sizeof(set), &set))
		return -errno;
	hvc_mask_zero(m);
	for (c = 0; c < CPU_SETSIZE && c < HVC_MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			hvc_mask_set(m, c);
	return 0;
}

int cell_pin_set(pid_t tid, const struct hvc_mask *m)
{
	cpu_set_t set;
	unsigned int c;

	CPU_ZERO(&set);
	for (c = hvc_mask_next(m, 0); c < HVC_MAX_CPUS && c < CPU_SETSIZE;
	     c = hvc_mask_next(m, c + 1))
		CPU_SET(c, &set);
	return sched_setaffinity(tid, sizeof(set), &set) ? -errno : 0;
}
