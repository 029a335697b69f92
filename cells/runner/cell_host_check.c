// SPDX-License-Identifier: GPL-2.0
/*
 * Whether a cell can be claimed on the running system (its CPUs, colors
 * and memory), changing nothing. See cell_host_check() in cell_host.h.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <colorguard/hv_color.h>

#include "cell_host.h"
#include "cell_host_int.h"
#include "cell_why.h"
#include "colorguard.h"

#define MMC_DIR		"/sys/kernel/mm/color"

/* Which colorguard partition holds CPU cpu: its cell name, or "". */
static void cpu_owner(unsigned int cpu, char *name, size_t len)
{
	DIR *d = opendir(CG_ROOT);
	struct dirent *e;
	size_t plen = strlen(CELL_CGROUP_PREFIX);

	snprintf(name, len, "another cpuset partition");
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[PATH_MAX];
		struct hvc_mask m;

		if (strncmp(e->d_name, CELL_CGROUP_PREFIX, plen))
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpuset.cpus", CG_ROOT,
			 e->d_name);
		if (!host_read_list(path, &m) && hvc_mask_test(&m, cpu)) {
			snprintf(name, len, "cell %.31s", e->d_name + plen);
			break;
		}
	}
	closedir(d);
}

int cell_host_check(const struct cg_config *cfg, const struct cg_cell *cell,
		    unsigned int flags, char *why, size_t why_len)
{
	struct hvc_mask cpus, online, root, colors, rootc, both;
	char buf[VAL_MAX], path[PATH_MAX], owner[64];
	unsigned long long need = 0, free_pages = 0, nr_colors;
	long page = sysconf(_SC_PAGESIZE);
	unsigned int c, i;
	struct stat st;

	(void)cfg;
	if (cell->type == CG_CELL_ROOT) {
		cell_why(why, why_len, "cell %s is the root cell: root Linux itself, not a cell to create",
			 cell->name);
		return -EINVAL;
	}
	if (host_parse_list(cell->cpus.s, &cpus) || hvc_mask_empty(&cpus)) {
		cell_why(why, why_len, "cell %s: cpus: no CPU", cell->name);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/%s%s", CG_ROOT, CELL_CGROUP_PREFIX,
		 cell->name);
	if (!stat(path, &st)) {
		cell_why(why, why_len, "cell %s: already holds its CPUs (%s exists)",
			 cell->name, path);
		return -EEXIST;
	}
	if (host_read_list(CPU_ONLINE, &online)) {
		cell_why(why, why_len, "cannot read %s", CPU_ONLINE);
		return -EIO;
	}
	for (c = hvc_mask_next(&cpus, 0); c < HVC_MAX_CPUS;
	     c = hvc_mask_next(&cpus, c + 1)) {
		if (!hvc_mask_test(&online, c)) {
			cell_why(why, why_len, "cell %s: cpus: CPU %u is offline (KVM runs vCPUs on online CPUs only)",
				 cell->name, c);
			return -ENODEV;
		}
	}
	if (host_root_cpus(&root)) {
		cell_why(why, why_len, "cannot read root Linux's CPUs");
		return -EIO;
	}
	for (c = hvc_mask_next(&cpus, 0); c < HVC_MAX_CPUS;
	     c = hvc_mask_next(&cpus, c + 1)) {
		if (!hvc_mask_test(&root, c)) {
			cpu_owner(c, owner, sizeof(owner));
			cell_why(why, why_len, "cell %s: cpus: CPU %u is not root Linux's to give: %s has it",
				 cell->name, c, owner);
			return -EBUSY;
		}
	}
	hvc_mask_copy(&both, &root);
	for (c = hvc_mask_next(&cpus, 0); c < HVC_MAX_CPUS;
	     c = hvc_mask_next(&cpus, c + 1))
		both.bits[c / 64] &= ~(1ull << (c % 64));
	if (hvc_mask_empty(&both)) {
		host_fmt_list(&root, buf, sizeof(buf));
		cell_why(why, why_len, "cell %s: cpus: would take root Linux's last CPU (root has %s)",
			 cell->name, buf);
		return -EBUSY;
	}

	if (flags & CELL_HOST_NO_COLOR)
		return 0;
	/* Memory: the running mm-color, not the config's idea of it. */
	if (host_read_line(MMC_DIR "/nr_colors", buf, sizeof(buf))) {
		cell_why(why, why_len, "mm-color is not loaded (%s): a cell's memory comes from /dev/mm-color",
			 MMC_DIR);
		return -ENODEV;
	}
	nr_colors = strtoull(buf, NULL, 10);
	if (!nr_colors) {
		cell_why(why, why_len, "mm-color has no geometry (nr_colors 0)");
		return -ENODEV;
	}
	if (hvc_mask_parse(&colors, cell->colors.s, strlen(cell->colors.s),
			   HVC_MAX_COLORS, NULL) || hvc_mask_empty(&colors)) {
		cell_why(why, why_len, "cell %s: colors: no color", cell->name);
		return -EINVAL;
	}
	if (!hvc_mask_fits(&colors, (unsigned int)nr_colors)) {
		cell_why(why, why_len, "cell %s: colors: %s: the running mm-color has only %llu colors",
			 cell->name, cell->colors.s, nr_colors);
		return -ERANGE;
	}
	if (host_read_line(MMC_DIR "/root_colors", buf, sizeof(buf)) ||
	    hvc_mask_parse(&rootc, buf, strlen(buf), HVC_MAX_COLORS, NULL)) {
		cell_why(why, why_len, "cannot read %s/root_colors", MMC_DIR);
		return -EIO;
	}
	hvc_mask_and(&both, &colors, &rootc);
	if (!hvc_mask_empty(&both)) {
		char ov[VAL_MAX];

		host_fmt_list(&both, ov, sizeof(ov));
		cell_why(why, why_len, "cell %s: colors: %s overlap root_colors %s of the running mm-color (colors %s)",
			 cell->name, cell->colors.s, buf, ov);
		return -EBUSY;
	}
	for (i = 0; i < cell->nr_regions; i++)
		need += (cell->regions[i].size.v + (unsigned long long)page - 1) /
			(unsigned long long)page;
	for (c = hvc_mask_next(&colors, 0); c < HVC_MAX_COLORS;
	     c = hvc_mask_next(&colors, c + 1)) {
		snprintf(path, sizeof(path), MMC_DIR "/free/%u", c);
		if (host_read_line(path, buf, sizeof(buf))) {
			cell_why(why, why_len, "cannot read %s", path);
			return -EIO;
		}
		free_pages += strtoull(buf, NULL, 10);
	}
	if (need > free_pages) {
		cell_why(why, why_len, "cell %s: memory: needs %llu pages, colors %s have %llu free in mm-color's pool (grow pool_mb)",
			 cell->name, need, cell->colors.s, free_pages);
		return -ENOMEM;
	}
	return 0;
}
