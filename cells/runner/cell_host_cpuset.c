// SPDX-License-Identifier: GPL-2.0
/*
 * The cell's cgroup v2 cpuset partition: made, entered by vCPU threads
 * (a process of `cell exec`: cell_host_enter.c), and removed with
 * the cgroup root left as found. Journal lines: "mount" (cgroup2 mounted
 * on /sys/fs/cgroup), "controller cpuset" (enabled in the root's
 * subtree_control), "partition CPUS" (colorguard-<cell> made with them).
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <colorguard/hv_color.h>

#include "cell_host.h"
#include "cell_host_int.h"
#include "cell_why.h"

static bool is_cgroup2_mounted(void)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[1024];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char dev[256], dir[512], type[64];

		if (sscanf(line, "%255s %511s %63s", dev, dir, type) == 3 &&
		    !strcmp(dir, CG_ROOT) && !strcmp(type, "cgroup2"))
			found = true;
	}
	fclose(f);
	return found;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
		p += n;
	}
	return false;
}

/* The CPUs root Linux's tasks may use now: the cgroup root's partition. */
int host_root_cpus(struct hvc_mask *m)
{
	if (is_cgroup2_mounted() &&
	    !host_read_list(CG_ROOT "/cpuset.cpus.effective", m))
		return 0;
	return host_read_list(CPU_ONLINE, m);
}

/* Root's children that are cell partitions: whether any is left. */
static bool any_partition(void)
{
	DIR *d = opendir(CG_ROOT);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d)))
		found = !strncmp(e->d_name, CELL_CGROUP_PREFIX,
				 strlen(CELL_CGROUP_PREFIX));
	if (d)
		closedir(d);
	return found;
}

static int claim_cgroup_root(struct cell_host *h, char *why, size_t why_len)
{
	char buf[VAL_MAX];
	int ret;

	if (!is_cgroup2_mounted()) {
		ret = host_journal_add(h, why, why_len, "mount");
		if (ret)
			return ret;
		if (mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL)) {
			ret = -errno;
			cell_why(why, why_len, "cannot mount cgroup2 on %s: %s",
				 CG_ROOT, strerror(errno));
			return ret;
		}
		host_journal_point();
	}
	ret = host_read_line(CG_ROOT "/cgroup.controllers", buf, sizeof(buf));
	if (ret || !has_word(buf, "cpuset")) {
		cell_why(why, why_len, "cgroup2 at %s has no cpuset controller (bound to a cgroup v1 hierarchy, or a kernel without CONFIG_CPUSETS)",
			 CG_ROOT);
		return -EOPNOTSUPP;
	}
	ret = host_read_line(CG_ROOT "/cgroup.subtree_control", buf, sizeof(buf));
	if (ret || has_word(buf, "cpuset"))
		return ret;
	ret = host_journal_add(h, why, why_len, "controller cpuset");
	if (ret)
		return ret;
	ret = host_write_val(CG_ROOT "/cgroup.subtree_control", "+cpuset");
	if (ret) {
		cell_why(why, why_len, "cannot enable cpuset in %s/cgroup.subtree_control: %s",
			 CG_ROOT, strerror(-ret));
		return ret;
	}
	host_journal_point();
	return 0;
}

int host_claim_partition(struct cell_host *h, char *why, size_t why_len)
{
	char path[PATH_MAX], buf[VAL_MAX], cpus[VAL_MAX];
	int ret;

	ret = claim_cgroup_root(h, why, why_len);
	if (ret)
		return ret;
	host_fmt_list(&h->cpus, cpus, sizeof(cpus));
	ret = host_journal_add(h, why, why_len, "partition %s", cpus);
	if (ret)
		return ret;
	snprintf(h->cgroup, sizeof(h->cgroup), "%s/%s%s", CG_ROOT,
		 CELL_CGROUP_PREFIX, h->name);
	if (mkdir(h->cgroup, 0755)) {
		ret = -errno;
		cell_why(why, why_len, "mkdir %s: %s", h->cgroup, strerror(errno));
		h->cgroup[0] = '\0';
		return ret;
	}
	snprintf(path, sizeof(path), "%s/cpuset.cpus", h->cgroup);
	ret = host_write_val(path, cpus);
	if (ret) {
		cell_why(why, why_len, "%s: %s: %s", path, cpus, strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/cpuset.cpus.partition", h->cgroup);
	if (access(path, F_OK)) {
		cell_why(why, why_len, "this kernel has no cpuset partitions (%s missing)",
			 path);
		return -EOPNOTSUPP;
	}
	/* "isolated" came after "root"; take "root" where it is refused. */
	snprintf(h->partition, sizeof(h->partition), "isolated");
	ret = host_write_val(path, "isolated");
	if (ret == -EINVAL) {
		snprintf(h->partition, sizeof(h->partition), "root");
		ret = host_write_val(path, "root");
	}
	if (!ret)
		ret = host_read_line(path, buf, sizeof(buf));
	if (ret || strcmp(buf, h->partition)) {
		cell_why(why, why_len, "%s: the kernel did not take a %s partition of CPUs %s (%s)",
			 path, h->partition, cpus, ret ? strerror(-ret) : buf);
		return ret ? ret : -EBUSY;
	}
	host_journal_point();
	return 0;
}

int cell_host_enter_threads(struct cell_host *h, char *threads, size_t len,
			    char *why, size_t why_len)
{
	char path[PATH_MAX], buf[VAL_MAX], pid[24];
	int ret;

	/*
	 * A thread may only move between the cgroups of its process's
	 * threaded domain: the partition becomes a threaded child of the
	 * cgroup root (a kernel partition root, so still a partition) and
	 * the process goes to the root, the domain of both.
	 */
	snprintf(path, sizeof(path), "%s/cgroup.type", h->cgroup);
	ret = host_read_line(path, buf, sizeof(buf));
	if (!ret && strcmp(buf, "threaded"))
		ret = host_write_val(path, "threaded");
	if (ret) {
		cell_why(why, why_len, "%s: cannot make the partition threaded: %s",
			 path, strerror(-ret));
		return ret;
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ret = host_write_val(CG_ROOT "/cgroup.procs", pid);
	if (ret) {
		cell_why(why, why_len, "moving pid %s into %s: %s", pid, CG_ROOT,
			 strerror(-ret));
		return ret;
	}
	snprintf(threads, len, "%s/cgroup.threads", h->cgroup);
	return 0;
}

int cell_host_partition_open(const struct cell_host *h)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/cpuset.cpus.partition", h->cgroup);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int cell_host_partition_check(const struct cell_host *h, char *why,
			      size_t why_len)
{
	char path[PATH_MAX], buf[VAL_MAX], off[VAL_MAX];
	struct hvc_mask online, gone;
	unsigned int c;
	int ret;

	/* A CPU of a cell of several may go with its partition still valid. */
	hvc_mask_zero(&gone);
	if (!host_read_list(CPU_ONLINE, &online))
		for (c = hvc_mask_next(&h->cpus, 0); c < HVC_MAX_CPUS;
		     c = hvc_mask_next(&h->cpus, c + 1))
			if (!hvc_mask_test(&online, c))
				hvc_mask_set(&gone, c);
	if (!hvc_mask_empty(&gone)) {
		host_fmt_list(&gone, off, sizeof(off));
		cell_why(why, why_len, "CPU %s of the cell went offline", off);
		return -ENXIO;
	}
	snprintf(path, sizeof(path), "%s/cpuset.cpus.partition", h->cgroup);
	ret = host_read_line(path, buf, sizeof(buf));
	if (ret) {
		cell_why(why, why_len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	/* "isolated invalid (reason)", "root invalid (reason)", "member". */
	if (!strncmp(buf, h->partition, strlen(h->partition)) &&
	    !buf[strlen(h->partition)])
		return 0;
	/* The kernel may say so before the CPU is out of the online mask. */
	cell_why(why, why_len, "the kernel made the cell's partition \"%s\"%s",
		 buf, strchr(buf, '(') ? "" :
		 " (a CPU of the cell going offline, or taken by another cpuset)");
	return -ENXIO;
}

/* ---- the journal's lines: "mount", "controller cpuset", "partition CPUS" ---- */

static int parse_none(struct host_entry *e, char *const *args)
{
	(void)e;
	(void)args;
	return 0;
}

static int parse_controller(struct host_entry *e, char *const *args)
{
	(void)e;
	return strcmp(args[0], "cpuset") ? -EINVAL : 0;
}

static int parse_partition(struct host_entry *e, char *const *args)
{
	return host_parse_list(args[0], &e->cpus) || hvc_mask_empty(&e->cpus) ?
		-EINVAL : 0;
}

/*
 * cgroup2 unmounted if this claim mounted it and no cell is left; busy
 * (someone else uses it since) it stays, as it is no cell's any more.
 */
static int undo_mount(struct cell_host *h, const struct host_entry *e,
		      struct host_undo *u)
{
	(void)h;
	(void)e;
	(void)u;
	if (is_cgroup2_mounted() && !any_partition())
		umount(CG_ROOT);
	return 0;
}

/* cpuset disabled in the root if this claim enabled it and no cell is left. */
static int undo_controller(struct cell_host *h, const struct host_entry *e,
			   struct host_undo *u)
{
	char buf[VAL_MAX];

	(void)h;
	(void)e;
	(void)u;
	/* Still enabled as this claim left it, or someone took it already. */
	if (is_cgroup2_mounted() && !any_partition() &&
	    !host_read_line(CG_ROOT "/cgroup.subtree_control", buf, sizeof(buf)) &&
	    has_word(buf, "cpuset"))
		host_write_val(CG_ROOT "/cgroup.subtree_control", "-cpuset");
	return 0;
}

/*
 * A task of the partition back to the cgroup root: a vCPU thread of a
 * threaded partition alone; a process of a domain one (`cell exec`, or a
 * journal of a runner before threaded partitions) whole, as the kernel
 * moves no thread out of its process's domain.
 */
static int move_to_root(const char *tid)
{
	int ret = host_write_val(CG_ROOT "/cgroup.threads", tid);

	if (ret && ret != -ESRCH)
		ret = host_write_val(CG_ROOT "/cgroup.procs", tid);
	return ret;
}

/* The partition's tasks moved to the cgroup root, the partition removed. */
static int undo_partition(struct cell_host *h, const struct host_entry *e,
			  struct host_undo *u)
{
	char cg[128], path[PATH_MAX], buf[VAL_MAX];
	int ret, tries, rm_err = 0;
	FILE *f;

	(void)e;
	snprintf(cg, sizeof(cg), "%s/%s%s", CG_ROOT, CELL_CGROUP_PREFIX, h->name);
	/*
	 * What still runs in the partition goes to the root: a `cell exec`
	 * command's processes went back to their own cgroup already (the
	 * "enter" step comes later, so it is undone first), so these are
	 * vCPU threads, whose process lives in the root. A task that exits
	 * meanwhile can keep the cgroup populated for a moment (6.12: until
	 * it is reaped), so rmdir is retried for up to a second while it
	 * says EBUSY.
	 */
	for (tries = 0; tries < 100; tries++) {
		snprintf(path, sizeof(path), "%s/cgroup.threads", cg);
		f = fopen(path, "re");
		if (!f && errno == ENOENT)
			return 0;
		while (f && fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			ret = move_to_root(buf);
			/* ESRCH: it exited meanwhile. */
			if (ret && ret != -ESRCH)
				host_undo_fail(u, ret, "moving task %s to %s: %s",
					       buf, CG_ROOT, strerror(-ret));
		}
		if (f)
			fclose(f);
		if (!tries) {
			snprintf(path, sizeof(path), "%s/cpuset.cpus.partition", cg);
			host_write_val(path, "member");
		}
		rm_err = rmdir(cg) ? errno : 0;
		if (rm_err != EBUSY)
			break;
		usleep(10000);
	}
	if (!rm_err || rm_err == ENOENT)
		return 0;
	host_undo_fail(u, -rm_err, "rmdir %s: %s", cg, strerror(rm_err));
	return -rm_err;
}

const struct host_kind host_kind_mount = {
	.name = "mount", .nr_args = 0, .parse = parse_none, .undo = undo_mount,
};

const struct host_kind host_kind_controller = {
	.name = "controller", .nr_args = 1, .parse = parse_controller,
	.undo = undo_controller,
};

const struct host_kind host_kind_partition = {
	.name = "partition", .nr_args = 1, .parse = parse_partition,
	.undo = undo_partition,
};
