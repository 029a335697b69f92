// SPDX-License-Identifier: GPL-2.0
/*
 * A process of `cell exec` moved into the cell's partition (a domain
 * cgroup then), from the cgroup it came from, which the journal records
 * first: "enter ORIGIN". Its undo, which comes before the partition's,
 * moves what is left of it in the partition back there, not to the root.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cell_host_int.h"
#include "cell_why.h"

/* The calling process's cgroup below CG_ROOT ("/" for the root). */
static int own_cgroup(char *buf, size_t len)
{
	char line[CG_PATH_MAX + 8];
	FILE *f = fopen("/proc/self/cgroup", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "0::/", 4))
			continue;
		ret = strlen(line + 3) < len ? 0 : -ENAMETOOLONG;
		if (!ret)
			snprintf(buf, len, "%s", line + 3);
		break;
	}
	fclose(f);
	return ret;
}

int cell_host_enter(struct cell_host *h, pid_t pid, char *why,
		    size_t why_len)
{
	char path[PATH_MAX], val[24], origin[CG_PATH_MAX];
	int ret;

	/*
	 * Where pid comes from (our cgroup: it is our child), recorded first:
	 * what is left of it in the partition goes back there, not to the
	 * root. The journal's words cannot hold a blank.
	 */
	ret = own_cgroup(origin, sizeof(origin));
	if (!ret && strpbrk(origin, " \t"))
		ret = -EINVAL;
	if (ret) {
		cell_why(why, why_len, "/proc/self/cgroup: no cgroup v2 path the journal can record (%s)",
			 strerror(-ret));
		return ret;
	}
	ret = host_journal_add(h, why, why_len, "enter %s", origin);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/cgroup.procs", h->cgroup);
	snprintf(val, sizeof(val), "%d", (int)pid);
	ret = host_write_val(path, val);
	if (ret) {
		cell_why(why, why_len, "moving pid %d into %s: %s", (int)pid,
			 h->cgroup, strerror(-ret));
		return ret;
	}
	host_journal_point();
	return 0;
}

static int parse_enter(struct host_entry *e, char *const *args)
{
	const char *p = args[0];

	if (p[0] != '/' || strlen(p) >= sizeof(e->origin) || strstr(p, "/..") ||
	    strstr(p, "//"))
		return -EINVAL;
	snprintf(e->origin, sizeof(e->origin), "%s", p);
	return 0;
}

/*
 * The processes `cell exec` left in the partition back to the cgroup they
 * came from, or, when that is gone, to its nearest ancestor left (a
 * conflict, reported).
 */
static int undo_enter(struct cell_host *h, const struct host_entry *e,
		      struct host_undo *u)
{
	char path[PATH_MAX], to[sizeof(CG_ROOT) + CG_PATH_MAX], buf[24];
	int ret, first = 0;
	char *slash;
	FILE *f;

	snprintf(to, sizeof(to), "%s%s", CG_ROOT, strcmp(e->origin, "/") ? e->origin : "");
	while (access(to, F_OK) && (slash = strrchr(to, '/')) &&
	       slash > to + strlen(CG_ROOT))
		*slash = '\0';
	if (strcmp(to + strlen(CG_ROOT), strcmp(e->origin, "/") ? e->origin : ""))
		host_conflict(h, "cgroup %s is gone: the cell's processes go to %s",
			      e->origin, to);
	snprintf(path, sizeof(path), "%s/%s%s/cgroup.procs", CG_ROOT,
		 CELL_CGROUP_PREFIX, h->name);
	f = fopen(path, "re");
	if (!f)
		return 0;
	snprintf(path, sizeof(path), "%s/cgroup.procs", to);
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = host_write_val(path, buf);
		/* ESRCH: it exited meanwhile. */
		if (ret && ret != -ESRCH) {
			host_undo_fail(u, ret, "moving pid %s back to %s: %s",
				       buf, to, strerror(-ret));
			first = first ?: ret;
		}
	}
	fclose(f);
	return first;
}

const struct host_kind host_kind_enter = {
	.name = "enter", .nr_args = 1, .parse = parse_enter, .undo = undo_enter,
};
