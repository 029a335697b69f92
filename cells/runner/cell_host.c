// SPDX-License-Identifier: GPL-2.0
/*
 * Taking a cell's CPUs from root Linux and giving them back: cgroup v2
 * cpuset partition, IRQ affinity, memguard, root tasks' own pinning
 * (cell_pin.c). See cell_host.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <colorguard/hv_color.h>

#include "cell_host.h"
#include "cell_pin.h"
#include "cell_why.h"
#include "colorguard.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define IRQ_DIR		"/proc/irq"
#define MG_DIR		"/sys/kernel/memguard"
#define MMC_DIR		"/sys/kernel/mm/color"
#define CPU_ONLINE	"/sys/devices/system/cpu/online"
#define LOCK_FILE	CELL_RUN_DIR "/.host.lock"
#define VAL_MAX		4200	/* a list or mask as the kernel prints it */
#define MAX_IRQS	4096
#define MAX_RECORD	(1u << 20)

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

/* Read a small file into buf, first line only, no newline. */
static int read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* One write(2) of value and a newline, as echo does; -errno on failure. */
static int write_val(const char *path, const char *value)
{
	char line[VAL_MAX + 2];
	size_t len = (size_t)snprintf(line, sizeof(line), "%s\n", value);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	if (len >= sizeof(line)) {
		close(fd);
		return -E2BIG;
	}
	n = write(fd, line, len);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	return n == (ssize_t)len ? 0 : -EIO;
}

static int parse_list(const char *s, struct hvc_mask *m)
{
	struct hvc_mask t;

	if (hvc_mask_parse(&t, s, strlen(s), HVC_MAX_CPUS, NULL))
		return -EINVAL;
	*m = t;
	return 0;
}

static int read_list(const char *path, struct hvc_mask *m)
{
	char buf[VAL_MAX];
	int ret = read_line(path, buf, sizeof(buf));

	return ret ? ret : parse_list(buf, m);
}

static void fmt_list(const struct hvc_mask *m, char *buf, size_t len)
{
	if (hvc_mask_format(m, buf, len) < 0 && len)
		buf[0] = '\0';
}

/*
 * The hex mask of /proc/irq/default_smp_affinity: 32-bit groups separated
 * by commas, most significant first.
 */
static int parse_hexmask(const char *s, struct hvc_mask *m)
{
	size_t n = strlen(s);
	unsigned int bit = 0;

	hvc_mask_zero(m);
	while (n--) {
		int c = (unsigned char)s[n], v, i;

		if (c == ',')
			continue;
		if (!isxdigit(c))
			return -EINVAL;
		v = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
		for (i = 0; i < 4; i++, v >>= 1)
			if (v & 1)
				hvc_mask_set(m, bit + i);
		bit += 4;
		if (bit > HVC_MAX_CPUS)
			return -ERANGE;
	}
	return 0;
}

static void fmt_hexmask(const struct hvc_mask *m, char *buf, size_t len)
{
	unsigned int last = 0, c, w, words;
	size_t used = 0;

	for (c = hvc_mask_next(m, 0); c < HVC_MAX_CPUS;
	     c = hvc_mask_next(m, c + 1))
		last = c;
	words = last / 32 + 1;
	buf[0] = '\0';
	for (w = words; w-- > 0 && used < len;) {
		unsigned int v = 0, b;

		for (b = 0; b < 32; b++)
			if (hvc_mask_test(m, w * 32 + b))
				v |= 1u << b;
		used += (size_t)snprintf(buf + used, len - used, "%08x%s", v,
					 w ? "," : "");
	}
}

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
static int root_cpus(struct hvc_mask *m)
{
	if (is_cgroup2_mounted() &&
	    !read_list(CG_ROOT "/cpuset.cpus.effective", m))
		return 0;
	return read_list(CPU_ONLINE, m);
}

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
		if (!read_list(path, &m) && hvc_mask_test(&m, cpu)) {
			snprintf(name, len, "cell %.31s", e->d_name + plen);
			break;
		}
	}
	closedir(d);
}

int cell_host_check(const struct cg_config *cfg, const struct cg_cell *cell,
		    char *why, size_t why_len)
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
	if (parse_list(cell->cpus.s, &cpus) || hvc_mask_empty(&cpus)) {
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
	if (read_list(CPU_ONLINE, &online)) {
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
	if (root_cpus(&root)) {
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
		fmt_list(&root, buf, sizeof(buf));
		cell_why(why, why_len, "cell %s: cpus: would take root Linux's last CPU (root has %s)",
			 cell->name, buf);
		return -EBUSY;
	}

	/* Memory: the running mm-color, not the config's idea of it. */
	if (read_line(MMC_DIR "/nr_colors", buf, sizeof(buf))) {
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
	if (read_line(MMC_DIR "/root_colors", buf, sizeof(buf)) ||
	    hvc_mask_parse(&rootc, buf, strlen(buf), HVC_MAX_COLORS, NULL)) {
		cell_why(why, why_len, "cannot read %s/root_colors", MMC_DIR);
		return -EIO;
	}
	hvc_mask_and(&both, &colors, &rootc);
	if (!hvc_mask_empty(&both)) {
		char ov[VAL_MAX];

		fmt_list(&both, ov, sizeof(ov));
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
		if (read_line(path, buf, sizeof(buf))) {
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

/* ---- the record: one change per line, rewritten after every step ---- */

static int record_write(const struct cell_host *h)
{
	char tmp[PATH_MAX + 8], cpus[VAL_MAX];
	unsigned int i;
	FILE *f;
	int fd, ret = 0;

	if (!h->record[0])
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", h->record);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	fmt_list(&h->cpus, cpus, sizeof(cpus));
	fprintf(f, "name %s\ncpus %s\nmounted %d\nenabled_cpuset %d\n",
		h->name, cpus, h->mounted, h->enabled_cpuset);
	if (h->cgroup[0])
		fprintf(f, "cgroup %s\n", h->cgroup);
	if (h->old_default)
		fprintf(f, "irqdefault %s\n", h->old_default);
	for (i = 0; i < h->nr_irqs; i++)
		fprintf(f, "irq %u %s\n", h->irqs[i].irq, h->irqs[i].old);
	for (i = 0; i < h->nr_mg; i++) {
		const struct host_mg *m = &h->mg[i];

		if (m->critical)
			fprintf(f, "mgcrit %u %s\n", m->cpu, m->old_crit);
		else
			fprintf(f, "mgbudget %u %s %s\n", m->cpu, m->old_read,
				m->old_write);
	}
	for (i = 0; i < h->nr_pins; i++) {
		char list[VAL_MAX];

		fmt_list(&h->pins[i].cpus, list, sizeof(list));
		fprintf(f, "pin %s %d %llu\n", list, (int)h->pins[i].tid,
			h->pins[i].start);
	}
	if (fflush(f) || fsync(fd))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, h->record))
		ret = -errno;
	return ret;
}

static bool token_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(",-:_.", *s))
			return false;
	return true;
}

/* A "pin LIST TID START" line of the record. */
static int record_pin(struct cell_host *h, const char *list, const char *tid,
		      const char *start)
{
	struct cell_pin *t, p;
	char *end;
	long v;

	errno = 0;
	v = strtol(tid, &end, 10);
	if (errno || *end || v <= 0 || v > INT32_MAX)
		return -EINVAL;
	p.tid = (pid_t)v;
	p.start = strtoull(start, &end, 10);
	if (errno || *end || !isdigit((unsigned char)start[0]) ||
	    parse_list(list, &p.cpus))
		return -EINVAL;
	t = realloc(h->pins, (h->nr_pins + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	h->pins = t;
	t[h->nr_pins++] = p;
	return 0;
}

/* Parse a record back (written by us, into a root-only dir; still checked). */
static int record_read(const char *path, struct cell_host *h, char *why,
		       size_t why_len)
{
	char line[VAL_MAX + 64];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f) {
		ret = -errno;
		cell_why(why, why_len, "%s: %s", path, strerror(errno));
		return ret;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		char key[16], a[VAL_MAX], b[40], c[40];
		unsigned int v;
		int n;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		a[0] = '\0';
		b[0] = '\0';
		c[0] = '\0';
		/* Fields a line lacks stay empty; n says how many it has. */
		n = sscanf(line, "%15s %4199s %39s %39s", key, a, b, c);
		if (n >= 2 && !strcmp(key, "name") && token_ok(a, CG_NAME_MAX)) {
			snprintf(h->name, sizeof(h->name), "%s", a);
		} else if (n >= 2 && !strcmp(key, "cpus") &&
			   !parse_list(a, &h->cpus)) {
		} else if (n >= 2 && !strcmp(key, "mounted")) {
			h->mounted = !strcmp(a, "1");
		} else if (n >= 2 && !strcmp(key, "enabled_cpuset")) {
			h->enabled_cpuset = !strcmp(a, "1");
		} else if (n >= 2 && !strcmp(key, "cgroup") &&
			   !strncmp(a, CG_ROOT "/" CELL_CGROUP_PREFIX,
				    strlen(CG_ROOT "/" CELL_CGROUP_PREFIX)) &&
			   !strstr(a, "/..") &&
			   !strchr(a + strlen(CG_ROOT "/"), '/')) {
			snprintf(h->cgroup, sizeof(h->cgroup), "%.127s", a);
		} else if (n >= 2 && !strcmp(key, "irqdefault") &&
			   token_ok(a, VAL_MAX - 1)) {
			free(h->old_default);
			h->old_default = strdup(a);
			if (!h->old_default)
				ret = -ENOMEM;
		} else if (n >= 3 && !strcmp(key, "irq") &&
			   sscanf(a, "%u", &v) == 1 && token_ok(b, 39) &&
			   h->nr_irqs < MAX_IRQS) {
			struct host_irq *t = realloc(h->irqs, (h->nr_irqs + 1) *
						     sizeof(*t));

			if (!t) {
				ret = -ENOMEM;
				break;
			}
			h->irqs = t;
			t[h->nr_irqs].irq = v;
			t[h->nr_irqs].old = strdup(b);
			if (!t[h->nr_irqs].old)
				ret = -ENOMEM;
			else
				h->nr_irqs++;
		} else if (n == 4 && !strcmp(key, "pin") &&
			   h->nr_pins < CELL_PIN_MAX &&
			   !record_pin(h, a, b, c)) {
		} else if (n >= 3 && (!strcmp(key, "mgcrit") ||
				      (n == 4 && !strcmp(key, "mgbudget"))) &&
			   sscanf(a, "%u", &v) == 1 && v < HVC_MAX_CPUS &&
			   token_ok(b, 31) && (n == 3 || token_ok(c, 31)) &&
			   h->nr_mg < HVC_MAX_CPUS) {
			struct host_mg *t = realloc(h->mg, (h->nr_mg + 1) *
						    sizeof(*t));

			if (!t) {
				ret = -ENOMEM;
				break;
			}
			h->mg = t;
			memset(&t[h->nr_mg], 0, sizeof(*t));
			t[h->nr_mg].cpu = v;
			t[h->nr_mg].critical = !strcmp(key, "mgcrit");
			snprintf(t[h->nr_mg].old_crit, sizeof(t->old_crit), "%s", b);
			snprintf(t[h->nr_mg].old_read, sizeof(t->old_read), "%s", b);
			snprintf(t[h->nr_mg].old_write, sizeof(t->old_write), "%s", c);
			h->nr_mg++;
		} else {
			cell_why(why, why_len, "%s:%u: not a record line", path, lineno);
			ret = -EINVAL;
		}
	}
	fclose(f);
	if (!ret)
		snprintf(h->record, sizeof(h->record), "%s", path);
	return ret;
}

static void host_free(struct cell_host *h)
{
	unsigned int i;

	if (!h)
		return;
	for (i = 0; i < h->nr_irqs; i++)
		free(h->irqs[i].old);
	free(h->irqs);
	free(h->mg);
	free(h->pins);
	free(h->old_default);
	free(h);
}

/* ---- the parts of a claim ---- */

/* Root tasks pinned to a cell CPU, noted before the partition changes them. */
static int claim_pins(struct cell_host *h, char *why, size_t why_len)
{
	struct hvc_mask root;
	int ret;

	ret = root_cpus(&root);
	if (ret) {
		cell_why(why, why_len, "cannot read root Linux's CPUs: %s",
			 strerror(-ret));
		return ret;
	}
	ret = cell_pin_snapshot(&h->cpus, &root, &h->pins, &h->nr_pins, why,
				why_len);
	if (ret)
		return ret;
	ret = record_write(h);
	if (ret)
		cell_why(why, why_len, "%s: %s", h->record, strerror(-ret));
	return ret;
}

static int claim_partition(struct cell_host *h, char *why, size_t why_len)
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
		record_write(h);
	}
	ret = read_line(CG_ROOT "/cgroup.controllers", buf, sizeof(buf));
	if (ret || !has_word(buf, "cpuset")) {
		cell_why(why, why_len, "cgroup2 at %s has no cpuset controller (bound to a cgroup v1 hierarchy, or a kernel without CONFIG_CPUSETS)",
			 CG_ROOT);
		return -EOPNOTSUPP;
	}
	ret = read_line(CG_ROOT "/cgroup.subtree_control", buf, sizeof(buf));
	if (ret)
		return ret;
	if (!has_word(buf, "cpuset")) {
		ret = write_val(CG_ROOT "/cgroup.subtree_control", "+cpuset");
		if (ret) {
			cell_why(why, why_len, "cannot enable cpuset in %s/cgroup.subtree_control: %s",
				 CG_ROOT, strerror(-ret));
			return ret;
		}
		h->enabled_cpuset = true;
		record_write(h);
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
	record_write(h);
	fmt_list(&h->cpus, cpus, sizeof(cpus));
	snprintf(path, sizeof(path), "%s/cpuset.cpus", h->cgroup);
	ret = write_val(path, cpus);
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
	ret = write_val(path, "isolated");
	if (ret == -EINVAL) {
		snprintf(h->partition, sizeof(h->partition), "root");
		ret = write_val(path, "root");
	}
	if (!ret)
		ret = read_line(path, buf, sizeof(buf));
	if (ret || strcmp(buf, h->partition)) {
		cell_why(why, why_len, "%s: the kernel did not take a %s partition of CPUs %s (%s)",
			 path, h->partition, cpus, ret ? strerror(-ret) : buf);
		return ret ? ret : -EBUSY;
	}
	return 0;
}

static int claim_irqs(struct cell_host *h, char *why, size_t why_len)
{
	struct hvc_mask root, old, want;
	char path[PATH_MAX], buf[VAL_MAX], list[VAL_MAX];
	struct dirent *e;
	DIR *d;
	int ret;

	if (root_cpus(&root)) {
		cell_why(why, why_len, "cannot read root Linux's CPUs");
		return -EIO;
	}
	/* New IRQs: the default affinity, a hex mask. */
	if (!read_line(IRQ_DIR "/default_smp_affinity", buf, sizeof(buf)) &&
	    !parse_hexmask(buf, &old) && hvc_mask_intersects(&old, &h->cpus)) {
		h->old_default = strdup(buf);
		if (!h->old_default)
			return -ENOMEM;
		hvc_mask_and(&want, &old, &root);
		if (hvc_mask_empty(&want))
			hvc_mask_copy(&want, &root);
		fmt_hexmask(&want, list, sizeof(list));
		if (write_val(IRQ_DIR "/default_smp_affinity", list)) {
			free(h->old_default);
			h->old_default = NULL;
		}
		record_write(h);
	}
	d = opendir(IRQ_DIR);
	if (!d) {
		cell_why(why, why_len, "%s: %s", IRQ_DIR, strerror(errno));
		return -errno;
	}
	while ((e = readdir(d))) {
		struct host_irq *t;
		unsigned int irq;
		char *end;

		irq = (unsigned int)strtoul(e->d_name, &end, 10);
		if (!isdigit((unsigned char)e->d_name[0]) || *end)
			continue;
		snprintf(path, sizeof(path), IRQ_DIR "/%u/smp_affinity_list", irq);
		if (read_line(path, buf, sizeof(buf)) || parse_list(buf, &old) ||
		    !hvc_mask_intersects(&old, &h->cpus))
			continue;
		hvc_mask_and(&want, &old, &root);
		if (hvc_mask_empty(&want))
			hvc_mask_copy(&want, &root);
		fmt_list(&want, list, sizeof(list));
		/* Per-CPU and managed IRQs refuse (EIO): counted, left. */
		if (write_val(path, list)) {
			h->irqs_unmovable++;
			continue;
		}
		if (h->nr_irqs >= MAX_IRQS) {
			write_val(path, buf);
			ret = -E2BIG;
			cell_why(why, why_len, "more than %u IRQs to move", MAX_IRQS);
			closedir(d);
			return ret;
		}
		t = realloc(h->irqs, (h->nr_irqs + 1) * sizeof(*t));
		if (t) {
			h->irqs = t;
			t[h->nr_irqs].old = strdup(buf);
		}
		if (!t || !t[h->nr_irqs].old) {
			write_val(path, buf);
			closedir(d);
			return -ENOMEM;
		}
		t[h->nr_irqs++].irq = irq;
		record_write(h);
	}
	closedir(d);
	return 0;
}

static int claim_memguard(struct cell_host *h, const struct cg_cell *cell,
			  char *why, size_t why_len)
{
	bool critical = cell->type == CG_CELL_CRITICAL;
	char path[PATH_MAX], r[24], w[24];
	unsigned int c;
	struct stat st;
	int ret;

	if (stat(MG_DIR, &st)) {
		h->mg_absent = true;
		return 0;
	}
	h->mg = calloc(hvc_mask_weight(&h->cpus), sizeof(*h->mg));
	if (!h->mg)
		return -ENOMEM;
	if (cell->read_mbps.line)
		snprintf(r, sizeof(r), "%llu", (unsigned long long)cell->read_mbps.v);
	else
		snprintf(r, sizeof(r), "unlimited");
	if (cell->write_mbps.line)
		snprintf(w, sizeof(w), "%llu", (unsigned long long)cell->write_mbps.v);
	else
		snprintf(w, sizeof(w), "unlimited");
	for (c = hvc_mask_next(&h->cpus, 0); c < HVC_MAX_CPUS;
	     c = hvc_mask_next(&h->cpus, c + 1)) {
		struct host_mg *m = &h->mg[h->nr_mg];

		m->cpu = c;
		m->critical = critical;
		if (critical) {
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/critical", c);
			ret = read_line(path, m->old_crit, sizeof(m->old_crit));
			if (!ret) {
				h->nr_mg++;
				record_write(h);
				ret = write_val(path, "1");
			}
		} else {
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/read_budget", c);
			ret = read_line(path, m->old_read, sizeof(m->old_read));
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/write_budget", c);
			if (!ret)
				ret = read_line(path, m->old_write, sizeof(m->old_write));
			if (!ret) {
				h->nr_mg++;
				record_write(h);
				snprintf(path, sizeof(path), MG_DIR "/cpu%u/read_budget", c);
				ret = write_val(path, r);
			}
			if (!ret) {
				snprintf(path, sizeof(path), MG_DIR "/cpu%u/write_budget", c);
				ret = write_val(path, w);
			}
		}
		if (ret) {
			char status[256] = "";

			read_line(MG_DIR "/last_cmd_status", status, sizeof(status));
			cell_why(why, why_len, "%s: %s (%s)", path, strerror(-ret), status);
			return ret;
		}
	}
	return 0;
}

/* ---- giving back ---- */

static int undo(struct cell_host *h, char *why, size_t why_len)
{
	char path[PATH_MAX], buf[VAL_MAX];
	unsigned int i;
	int first = 0, ret;

#define FAIL(err, ...) do {						\
		if (!first) {						\
			first = (err);					\
			cell_why(why, why_len, __VA_ARGS__);			\
		}							\
	} while (0)

	for (i = h->nr_mg; i-- > 0;) {
		const struct host_mg *m = &h->mg[i];

		if (m->critical) {
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/critical", m->cpu);
			ret = write_val(path, m->old_crit);
		} else {
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/read_budget", m->cpu);
			ret = write_val(path, m->old_read);
			if (!ret) {
				snprintf(path, sizeof(path),
					 MG_DIR "/cpu%u/write_budget", m->cpu);
				ret = write_val(path, m->old_write);
			}
		}
		/* memguard unloaded meanwhile: nothing left to restore. */
		if (ret && ret != -ENOENT)
			FAIL(ret, "%s: %s", path, strerror(-ret));
	}
	h->nr_mg = 0;
	for (i = h->nr_irqs; i-- > 0;) {
		snprintf(path, sizeof(path), IRQ_DIR "/%u/smp_affinity_list",
			 h->irqs[i].irq);
		ret = write_val(path, h->irqs[i].old);
		/* An IRQ freed meanwhile has no directory left. */
		if (ret && ret != -ENOENT)
			FAIL(ret, "%s: %s: %s", path, h->irqs[i].old, strerror(-ret));
	}
	if (h->old_default) {
		ret = write_val(IRQ_DIR "/default_smp_affinity", h->old_default);
		if (ret)
			FAIL(ret, "%s/default_smp_affinity: %s", IRQ_DIR, strerror(-ret));
	}
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
				ret = write_val(CG_ROOT "/cgroup.procs", buf);
				/* ESRCH: it exited meanwhile. */
				if (ret && ret != -ESRCH)
					FAIL(ret, "moving pid %s to %s: %s", buf,
					     CG_ROOT, strerror(-ret));
			}
			if (f)
				fclose(f);
			if (!tries) {
				snprintf(path, sizeof(path),
					 "%s/cpuset.cpus.partition", h->cgroup);
				write_val(path, "member");
			}
			rm_err = rmdir(h->cgroup) ? errno : 0;
			if (rm_err != EBUSY)
				break;
			usleep(10000);
		}
		if (rm_err && rm_err != ENOENT)
			FAIL(-rm_err, "rmdir %s: %s", h->cgroup, strerror(rm_err));
	}
	/* After the partition: root's CPUs include the cell's again. */
	if (h->nr_pins) {
		unsigned int left = cell_pin_restore(h->pins, h->nr_pins);

		if (left)
			FAIL(-EIO, "%u root tasks did not get their CPU pinning back",
			     left);
		h->nr_pins = 0;
	}
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
			write_val(CG_ROOT "/cgroup.subtree_control", "-cpuset");
		if (!others && h->mounted)
			umount(CG_ROOT);
	}
#undef FAIL
	return first;
}

static int lock_host(void)
{
	int fd;

	mkdir("/run", 0755);
	mkdir(CELL_RUN_DIR, 0700);
	fd = open(LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0 && flock(fd, LOCK_EX)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void unlock_host(int fd)
{
	if (fd >= 0)
		close(fd);
}

int cell_host_claim(const struct cg_config *cfg, const struct cg_cell *cell,
		    const char *record, struct cell_host **out,
		    char *why, size_t why_len)
{
	struct cell_host *h;
	int lock, ret;

	*out = NULL;
	/* One claim at a time: two cells must not both see a CPU free. */
	lock = lock_host();
	if (lock < 0) {
		cell_why(why, why_len, "cannot lock %s: %s", LOCK_FILE, strerror(errno));
		return -EIO;
	}
	ret = cell_host_check(cfg, cell, why, why_len);
	if (ret) {
		unlock_host(lock);
		return ret;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		unlock_host(lock);
		cell_why(why, why_len, "out of memory");
		return -ENOMEM;
	}
	snprintf(h->name, sizeof(h->name), "%s", cell->name);
	parse_list(cell->cpus.s, &h->cpus);
	if (record)
		snprintf(h->record, sizeof(h->record), "%s", record);
	ret = record_write(h);
	if (ret)
		cell_why(why, why_len, "%s: %s", record, strerror(-ret));
	if (!ret)
		ret = claim_pins(h, why, why_len);
	if (!ret)
		ret = claim_partition(h, why, why_len);
	if (!ret)
		cell_pin_narrow(h->pins, h->nr_pins, &h->cpus);
	if (!ret)
		ret = claim_irqs(h, why, why_len);
	if (!ret)
		ret = claim_memguard(h, cell, why, why_len);
	if (!ret)
		ret = record_write(h);
	if (ret) {
		undo(h, NULL, 0);
		if (h->record[0])
			unlink(h->record);
		host_free(h);
		unlock_host(lock);
		return ret;
	}
	unlock_host(lock);
	*out = h;
	return 0;
}

int cell_host_enter(struct cell_host *h, pid_t pid, char *why,
		    size_t why_len)
{
	char path[PATH_MAX], val[24];
	int ret;

	snprintf(path, sizeof(path), "%s/cgroup.procs", h->cgroup);
	snprintf(val, sizeof(val), "%d", (int)pid);
	ret = write_val(path, val);
	if (ret)
		cell_why(why, why_len, "moving pid %d into %s: %s", (int)pid,
			 h->cgroup, strerror(-ret));
	return ret;
}

int cell_host_release(struct cell_host *h, char *why, size_t why_len)
{
	int lock, ret;

	if (!h)
		return 0;
	lock = lock_host();
	ret = undo(h, why, why_len);
	if (!ret && h->record[0])
		unlink(h->record);
	unlock_host(lock);
	host_free(h);
	return ret;
}

int cell_host_release_record(const char *record, char *why, size_t why_len)
{
	struct cell_host *h = calloc(1, sizeof(*h));
	int ret;

	if (!h) {
		cell_why(why, why_len, "out of memory");
		return -ENOMEM;
	}
	ret = record_read(record, h, why, why_len);
	if (ret) {
		host_free(h);
		return ret;
	}
	return cell_host_release(h, why, why_len);
}

void cell_host_summary(const struct cell_host *h, char *buf, size_t len)
{
	char cpus[VAL_MAX];

	fmt_list(&h->cpus, cpus, sizeof(cpus));
	snprintf(buf, len, "CPUs %s in a cpuset %s partition; %u IRQs moved, %u unmovable; memguard: %s; %u pinned root tasks kept on their own CPUs",
		 cpus, h->partition[0] ? h->partition : "?", h->nr_irqs,
		 h->irqs_unmovable,
		 h->mg_absent ? "not loaded" :
		 !h->nr_mg ? "nothing changed" :
		 h->mg[0].critical ? "CPUs critical" : "budgets set",
		 h->nr_pins);
}
