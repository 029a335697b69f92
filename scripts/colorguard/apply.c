// SPDX-License-Identifier: GPL-2.0
/*
 * `colorguard apply`: configure the running root Linux. mm-color gets the
 * geometry and the root cell's colors (Documentation/ABI/testing/
 * sysfs-kernel-mm-color); memguard gets the period, the line size, the
 * critical CPUs and the budgets of all other CPUs the config names (only
 * the root cell's with root_only, for a root Linux under a hypervisor
 * that has the other cells' CPUs), in single writes that its sysfs files
 * take atomically. Every value ends in a newline, as echo writes it: sysfs
 * drops a zero-length write before the module sees it, so an empty list
 * (no critical CPU) must go out as a lone "\n", which the modules read as
 * the empty list.
 *
 * Before root_colors, whose drain reads it, mm-color's drain_movable gets
 * the config's cma mode (cg_cma_mode(): "quarantine", 1, by default when
 * a critical cell exists): with 1 a narrowing quarantines the free pages
 * of foreign colors in CMA areas and ZONE_MOVABLE too, which otherwise
 * stay with Linux and go to its movable allocations (on arm64's Debian
 * kernel, with a 64 MiB CMA area, fresh process memory came back only
 * 50-59% in root colors). It is written whatever the root cell's colors,
 * so that `colorguard status` can compare it.
 *
 * A root cell with fewer than all colors also turns proactive compaction
 * off (vm.compaction_proactiveness, where the kernel has it): kcompactd
 * then stops moving pages and free pages around in the background, which
 * would put frames of the other colors back at the head of the free lists
 * after the narrowing's drain (see "root_colors" in the ABI document).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system_int.h"

#define MM_COLOR_DIR	"kernel/mm/color"
#define MEMGUARD_DIR	"kernel/memguard"
#define VM_SYSCTL_DIR	"sys/vm"

/* way_size: rewriting it resets root_colors */
#define SKIP_IF_SAME	1
/* a sysctl that kernels without its feature lack */
#define IF_PRESENT	2

struct write {
	const char *root;	/* the sysfs or procfs root */
	const char *dir;
	const char *file;
	char value[CG_LIST_MAX * 2];
	int flags;
};

static void add(struct write *w, const char *root, const char *dir,
		const char *file, int flags)
{
	w->root = root;
	w->dir = dir;
	w->file = file;
	w->value[0] = '\0';
	w->flags = flags;
}

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int do_write(const struct write *w)
{
	char path[PATH_MAX], cur[CG_LIST_MAX * 2], status[256];
	char line[CG_LIST_MAX * 2 + 1];
	size_t len = (size_t)snprintf(line, sizeof(line), "%s\n", w->value);
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s/%s", w->root, w->dir, w->file);
	if ((w->flags & SKIP_IF_SAME) && !read_small(path, cur, sizeof(cur)) &&
	    !strcmp(cur, w->value))
		return 0;
	/* O_TRUNC is a no-op on sysfs; a fake tree then holds just the write. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && (w->flags & IF_PRESENT))
		return 0;
	if (fd < 0) {
		fprintf(stderr, "colorguard: apply: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	/* One write(2): sysfs takes the value whole or not at all. */
	n = write(fd, line, len);
	err = errno;
	close(fd);
	if (n == (ssize_t)len)
		return 0;
	fprintf(stderr, "colorguard: apply: %s: %s", path,
		n < 0 ? strerror(err) : "short write");
	snprintf(path, sizeof(path), "%s/%s/last_cmd_status", w->root, w->dir);
	if (!read_small(path, status, sizeof(status)))
		fprintf(stderr, " (%s)", status);
	fputc('\n', stderr);
	return -1;
}

static void append(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s", s);
}

static void budget_str(const struct cg_u64 *b, char *buf, size_t len)
{
	if (b->line)
		snprintf(buf, len, "%llu", (unsigned long long)b->v);
	else
		snprintf(buf, len, "unlimited");
}

int cg_apply(const struct cg_system *sys, const char *sysroot, FILE *dry,
	     int root_only)
{
	static struct write w[10];
	struct hvc_mask *critical = calloc(1, sizeof(struct hvc_mask));
	char list[CG_LIST_MAX + 1], r[24], wr[24];
	const struct cg_cell *root = NULL;
	const struct hvc_mask *root_colors;
	unsigned int i, n = 0;
	int ret = 0;

	if (!critical) {
		fprintf(stderr, "colorguard: out of memory\n");
		return -1;
	}
	for (i = 0; i < sys->cfg.nr_cells; i++) {
		const struct cg_cell *c = &sys->cfg.cells[i];

		if (c->type == CG_CELL_ROOT)
			root = c;
		if (c->type == CG_CELL_CRITICAL && !root_only)
			hvc_mask_or(critical, critical, sys->cells[i].cpus);
	}

	root_colors = sys->cells[root - sys->cfg.cells].colors;
	add(&w[n], sysroot, MM_COLOR_DIR, "line_size", 0);
	snprintf(w[n++].value, sizeof(w[0].value), "%llu",
		 (unsigned long long)sys->line_size);
	add(&w[n], sysroot, MM_COLOR_DIR, "way_size", dry ? 0 : SKIP_IF_SAME);
	snprintf(w[n++].value, sizeof(w[0].value), "%llu",
		 (unsigned long long)sys->geom.way_size);
	if (hvc_mask_weight(root_colors) < sys->geom.nr_colors) {
		add(&w[n], cg_procfs_root(), VM_SYSCTL_DIR,
		    "compaction_proactiveness", IF_PRESENT);
		snprintf(w[n++].value, sizeof(w[0].value), "0");
	}
	add(&w[n], sysroot, MM_COLOR_DIR, "drain_movable", 0);
	snprintf(w[n++].value, sizeof(w[0].value), "%d",
		 cg_cma_mode(&sys->cfg) == CG_CMA_QUARANTINE);
	add(&w[n], sysroot, MM_COLOR_DIR, "root_colors", 0);
	hvc_mask_format(root_colors, w[n++].value, sizeof(w[0].value));

	add(&w[n], sysroot, MEMGUARD_DIR, "period_us", 0);
	snprintf(w[n++].value, sizeof(w[0].value), "%llu",
		 (unsigned long long)sys->cfg.period_us.v);
	add(&w[n], sysroot, MEMGUARD_DIR, "line_size", 0);
	snprintf(w[n++].value, sizeof(w[0].value), "%llu",
		 (unsigned long long)sys->line_size);
	add(&w[n], sysroot, MEMGUARD_DIR, "critical", 0);
	hvc_mask_format(critical, w[n++].value, sizeof(w[0].value));
	add(&w[n], sysroot, MEMGUARD_DIR, "budgets", 0);
	for (i = 0; i < sys->cfg.nr_cells; i++) {
		const struct cg_cell *c = &sys->cfg.cells[i];

		if (c->type == CG_CELL_CRITICAL ||
		    (root_only && c->type != CG_CELL_ROOT))
			continue;
		hvc_mask_format(sys->cells[i].cpus, list, sizeof(list));
		budget_str(&c->read_mbps, r, sizeof(r));
		budget_str(&c->write_mbps, wr, sizeof(wr));
		if (w[n].value[0])
			append(w[n].value, sizeof(w[0].value), " ");
		append(w[n].value, sizeof(w[0].value), list);
		append(w[n].value, sizeof(w[0].value), ":");
		append(w[n].value, sizeof(w[0].value), r);
		append(w[n].value, sizeof(w[0].value), ",");
		append(w[n].value, sizeof(w[0].value), wr);
	}
	if (w[n].value[0])
		n++;
	add(&w[n], sysroot, MEMGUARD_DIR, "enable", 0);
	snprintf(w[n++].value, sizeof(w[0].value), "1");

	/*
	 * sysfs hands a store handler at most a page: refuse a value it would
	 * cut (a longer one was also cut in w[].value) before writing any.
	 */
	for (i = 0; i < n && !ret; i++) {
		size_t len = strlen(w[i].value) + 1;
		long page = sysconf(_SC_PAGESIZE);

		if (page > 0 && len + 1 < (size_t)page)
			continue;
		fprintf(stderr, "colorguard: apply: %s/%s/%s: value of %zu%s bytes is longer than one sysfs write takes (%ld)\n",
			w[i].root, w[i].dir, w[i].file, len,
			len >= sizeof(w[i].value) ? " or more" : "", page - 2);
		ret = -1;
	}
	for (i = 0; i < n && !ret; i++) {
		if (dry) {
			const char *q = !w[i].value[0] ||
				strchr(w[i].value, ' ') ? "'" : "";

			fprintf(dry, "echo %s%s%s > %s/%s/%s\n", q, w[i].value, q,
				w[i].root, w[i].dir, w[i].file);
			continue;
		}
		ret = do_write(&w[i]);
		if (ret)
			break;
	}
	free(critical);
	return ret;
}
