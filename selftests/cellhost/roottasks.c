// SPDX-License-Identifier: GPL-2.0
/*
 * roottasks CPU: root Linux's user tasks that could run on CPU, seen from
 * every thread in /proc: prints "ALLOWED RAN", the number of threads
 * outside the colorguard-* cgroups (each thread's own: a runner's vCPU
 * threads are in its cell's partition, its other threads are not) whose
 * affinity (sched_getaffinity) includes CPU, and the number of runnable
 * ones (state R) whose CPU (field 39 of /proc/PID/task/TID/stat) is CPU.
 * A sleeping thread keeps the CPU it last ran on, from before the claim
 * too: not counted. Kernel threads are left out (PF_KTHREAD): per-CPU
 * kthreads stay on every CPU. With -v, names the threads counted.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PF_KTHREAD	0x00200000

static int in_cell(const char *pid, const char *tid)
{
	char path[600], line[512];
	FILE *f;
	int found = 0;

	/* Per thread: only a runner's vCPU threads are in its partition. */
	snprintf(path, sizeof(path), "/proc/%s/task/%s/cgroup", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "/colorguard-"))
			found = 1;
	fclose(f);
	return found;
}

/* state (field 3), flags (field 9), processor (field 39); -1 if gone. */
static int stat_of(const char *pid, const char *tid, unsigned long *flags,
		   int *cpu, char *state)
{
	char path[600], buf[2048], *p;
	int i, ok = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');
		/* p + 2 is field 3 */
		if (p)
			*state = p[2];
		for (i = 3, p = p ? p + 2 : NULL; p && i < 39; i++) {
			if (i == 9)
				*flags = strtoul(p, NULL, 10);
			p = strchr(p, ' ');
			if (p)
				p++;
		}
		if (p) {
			*cpu = atoi(p);
			ok = 1;
		}
	}
	fclose(f);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	int verbose = argc > 2 && !strcmp(argv[1], "-v");
	int cpu, allowed = 0, ran = 0;
	struct dirent *e, *t;
	DIR *d, *td;

	if (argc < 2) {
		fprintf(stderr, "usage: roottasks [-v] CPU\n");
		return 2;
	}
	cpu = atoi(argv[argc - 1]);
	d = opendir("/proc");
	if (!d)
		return 1;
	while ((e = readdir(d))) {
		char path[600];

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", e->d_name);
		td = opendir(path);
		if (!td)
			continue;
		while ((t = readdir(td))) {
			unsigned long flags = 0;
			cpu_set_t set;
			char state = '?';
			int last;

			if (t->d_name[0] < '0' || t->d_name[0] > '9' ||
			    in_cell(e->d_name, t->d_name) ||
			    stat_of(e->d_name, t->d_name, &flags, &last, &state) ||
			    (flags & PF_KTHREAD))
				continue;
			CPU_ZERO(&set);
			if (sched_getaffinity(atoi(t->d_name), sizeof(set), &set))
				continue;
			if (CPU_ISSET(cpu, &set)) {
				allowed++;
				if (verbose)
					fprintf(stderr, "allowed: %s\n", t->d_name);
			}
			if (last == cpu && state == 'R') {
				ran++;
				if (verbose)
					fprintf(stderr, "ran: %s\n", t->d_name);
			}
		}
		closedir(td);
	}
	closedir(d);
	printf("%d %d\n", allowed, ran);
	return 0;
}
