// SPDX-License-Identifier: GPL-2.0
/*
 * The cell's cgroup v2 cpuset partition: made, entered, and removed with
 * the cgroup root left as found.
 */
#include <errno.h>
#include <dirent.h>
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

int host_claim_partition(struct cell_host *h, char *why, size_t why_len)
{
	char path[PATH_MAX], buf[VAL_MAX], cpus[VAL_MAX];
	int ret;

	if (!is_cgroup2_mounted()) {
		if (mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL)) {
			cell_why(why, why_len, "cannot mount cgroup2 on %s: %s",
				 CG_ROOT, strerror(errno));
			return -errno;
		}
		h->mounted = true;
		host_record_write(h);
	}
	ret = host_read_line(CG_ROOT "/cgroup.controllers", buf, sizeof(buf));
	if (ret || !has_word(buf, "cpuset")) {
		cell_why(why, why_len, "cgroup2 at %s has no cpuset controller (bound to a cgroup v1 hierarchy, or a kernel without CONFIG_CPUSETS)",
			 CG_ROOT);
		return -EOPNOTSUPP;
	}
	ret = host_read_line(CG_ROOT "/cgroup.subtree_control", buf, sizeof(buf));
	if (ret)
		return ret;
	if (!has_word(buf, "cpuset")) {
		ret = host_write_val(CG_ROOT "/cgroup.subtree_control", "+cpuset");
		if (ret) {
			cell_why(why, why_len, "cannot enable cpuset in %s/cgroup.subtree_control: %s",
				 CG_ROOT, strerror(-ret));
			return ret;
		}
		h->enabled_cpuset = true;
		host_record_write(h);
	}
	snprintf(path, sizeof(path), "%s/%s%s", CG_ROOT, CELL_CGROUP_PREFIX,
		 h->name);
	if (mkdir(path, 0755)) {
		ret = -errno;
		cell_why(why, why_len, "mkdir %s: %s", path, strerror(errno));
		return ret;
	}
	snprintf(h->cgroup, sizeof(h->cgroup), "%s/%s%s", CG_ROOT,
		 CELL_CGROUP_PREFIX, h->name);
	host_record_write(h);
	host_fmt_list(&h->cpus, cpus, sizeof(cpus));
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
	return 0;
}

int cell_host_enter(struct cell_host *h, pid_t pid, char *why,
		    size_t why_len)
{
	char path[PATH_MAX], val[24];
	int ret;

	snprintf(path, sizeof(path), "%s/cgroup.procs", h->cgroup);
	snprintf(val, sizeof(val), "%d", (int)pid);
	ret = host_write_val(path, val);
	if (ret)
		cell_why(why, why_len, "moving pid %d into %s: %s", (int)pid,
			 h->cgroup, strerror(-ret));
	return ret;
}

void host_undo_partition(struct cell_host *h, int *first, char *why,
			 size_t why_len)
{
	char path[PATH_MAX], buf[VAL_MAX];
	int ret;

	if (h->cgroup[0]) {
		FILE *f;
		int tries, rm_err = 0;

		/*
		 * Whatever runs in the partition goes back to the root. A
		 * task that exits meanwhile can keep the cgroup populated for
		 * a moment (6.12: until it is reaped), so rmdir is retried
		 * for up to a second while it says EBUSY.
		 */
		for (tries = 0; tries < 100; tries++) {
			snprintf(path, sizeof(path), "%s/cgroup.procs", h->cgroup);
			f = fopen(path, "re");
			while (f && fgets(buf, sizeof(buf), f)) {
				buf[strcspn(buf, "\n")] = '\0';
				ret = host_write_val(CG_ROOT "/cgroup.procs", buf);
				/* ESRCH: it exited meanwhile. */
				if (ret && ret != -ESRCH)
					host_undo_fail(first, why, why_len, ret,
						       "moving pid %s to %s: %s", buf,
						       CG_ROOT, strerror(-ret));
			}
			if (f)
				fclose(f);
			if (!tries) {
				snprintf(path, sizeof(path),
					 "%s/cpuset.cpus.partition", h->cgroup);
				host_write_val(path, "member");
			}
			rm_err = rmdir(h->cgroup) ? errno : 0;
			if (rm_err != EBUSY)
				break;
			usleep(10000);
		}
		if (rm_err && rm_err != ENOENT)
			host_undo_fail(first, why, why_len, -rm_err,
				       "rmdir %s: %s", h->cgroup, strerror(rm_err));
	}
}

void host_undo_cgroup_root(struct cell_host *h)
{
	if (h->enabled_cpuset || h->mounted) {
		bool others = false;
		DIR *d = opendir(CG_ROOT);
		struct dirent *e;

		/* Left as found only when no other cell uses them. */
		while (d && (e = readdir(d)))
			if (!strncmp(e->d_name, CELL_CGROUP_PREFIX,
				     strlen(CELL_CGROUP_PREFIX)))
				others = true;
		if (d)
			closedir(d);
		if (!others && h->enabled_cpuset)
			host_write_val(CG_ROOT "/cgroup.subtree_control", "-cpuset");
		if (!others && h->mounted)
			umount(CG_ROOT);
	}
}
