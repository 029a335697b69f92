// SPDX-License-Identifier: GPL-2.0
/*
 * The last-level cache as Linux describes it in
 * <root>/devices/system/cpu/cpu<N>/cache/index<M>/: the highest level of
 * type Unified. The tree is read with bounded reads and every value is
 * checked, since guests and some boards report odd or partial data.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cacheinfo.h"

#define MAX_CPUS	4096
#define MAX_INDEX	64
#define VALUE_MAX	(CG_LIST_MAX + 1)

static void fail(struct cg_cacheinfo *ci, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct cg_cacheinfo *ci, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ci->error, sizeof(ci->error), fmt, ap);
	va_end(ap);
}

/* One sysfs value, newline stripped; -ENOENT when the file is absent. */
static int read_value(const char *dir, const char *name, char *buf)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, VALUE_MAX - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (strlen(buf) != (size_t)n)
		return -EINVAL;
	return 0;
}

/* Number from a sysfs file; 0 when absent, -1 (with ci->error) when bad. */
static int read_number(struct cg_cacheinfo *ci, const char *dir,
		       const char *name, uint64_t max, uint64_t *out)
{
	char buf[VALUE_MAX];
	const char *why;
	int ret = read_value(dir, name, buf);

	if (ret == -ENOENT)
		return 0;
	if (ret) {
		fail(ci, "%s/%s: %s", dir, name, strerror(-ret));
		return -1;
	}
	if (cg_parse_u64(buf, out, &why)) {
		fail(ci, "%s/%s: \"%.32s\": %s", dir, name, buf, why);
		return -1;
	}
	if (*out == 0 || *out > max) {
		fail(ci, "%s/%s: %llu out of range", dir, name,
		     (unsigned long long)*out);
		return -1;
	}
	return 1;
}

static int numbered(const char *name, const char *prefix, unsigned long *nr)
{
	size_t n = strlen(prefix);
	char *end;

	if (strncmp(name, prefix, n) || name[n] < '0' || name[n] > '9')
		return 0;
	errno = 0;
	*nr = strtoul(name + n, &end, 10);
	return !*end && !errno;
}

struct scan {
	unsigned int best_level;
	unsigned long best_cpu;
	char best_dir[PATH_MAX];
	unsigned int nr_lists;
	char lists[8][VALUE_MAX];	/* distinct shared_cpu_list values seen */
};

static void scan_cpu(struct cg_cacheinfo *ci, struct scan *sc,
		     const char *cpudir, unsigned long cpu)
{
	char cachedir[PATH_MAX], dir[PATH_MAX], buf[VALUE_MAX];
	unsigned int nr = 0;
	unsigned long idx;
	struct dirent *e;
	uint64_t level;
	DIR *dp;

	if (snprintf(cachedir, sizeof(cachedir), "%s/cache", cpudir) >=
	    (int)sizeof(cachedir))
		return;
	dp = opendir(cachedir);
	if (!dp)
		return;
	while ((e = readdir(dp)) && nr < MAX_INDEX) {
		if (!numbered(e->d_name, "index", &idx))
			continue;
		nr++;
		if (snprintf(dir, sizeof(dir), "%s/%s", cachedir, e->d_name) >=
		    (int)sizeof(dir))
			continue;
		if (read_value(dir, "type", buf) || strcmp(buf, "Unified"))
			continue;
		if (read_number(ci, dir, "level", 16, &level) <= 0) {
			if (!ci->error[0])
				fail(ci, "%s/level: missing", dir);
			continue;
		}
		if (level < sc->best_level ||
		    (level == sc->best_level && cpu > sc->best_cpu))
			continue;
		if (level > sc->best_level)
			sc->nr_lists = 0;
		sc->best_level = level;
		sc->best_cpu = cpu;
		strcpy(sc->best_dir, dir);
	}
	closedir(dp);
}

/* Count the distinct LLC instances through their shared_cpu_list. */
static void count_instance(struct scan *sc, const char *cpudir,
			   unsigned int level)
{
	char cachedir[PATH_MAX], dir[PATH_MAX], buf[VALUE_MAX];
	unsigned long idx;
	struct dirent *e;
	uint64_t lvl;
	unsigned int i;
	DIR *dp;
	struct cg_cacheinfo scratch;

	if (snprintf(cachedir, sizeof(cachedir), "%s/cache", cpudir) >=
	    (int)sizeof(cachedir))
		return;
	dp = opendir(cachedir);
	if (!dp)
		return;
	while ((e = readdir(dp))) {
		if (!numbered(e->d_name, "index", &idx))
			continue;
		if (snprintf(dir, sizeof(dir), "%s/%s", cachedir, e->d_name) >=
		    (int)sizeof(dir))
			continue;
		if (read_value(dir, "type", buf) || strcmp(buf, "Unified"))
			continue;
		if (read_number(&scratch, dir, "level", 16, &lvl) <= 0 ||
		    lvl != level)
			continue;
		if (read_value(dir, "shared_cpu_list", buf))
			break;
		for (i = 0; i < sc->nr_lists; i++)
			if (!strcmp(sc->lists[i], buf))
				break;
		if (i == sc->nr_lists && i < 8)
			strcpy(sc->lists[sc->nr_lists++], buf);
		break;
	}
	closedir(dp);
}

static int scan_cpus(struct cg_cacheinfo *ci, struct scan *sc,
		     const char *cpusdir, int pass)
{
	char cpudir[PATH_MAX];
	unsigned int nr = 0;
	unsigned long cpu;
	struct dirent *e;
	DIR *dp = opendir(cpusdir);

	if (!dp) {
		fail(ci, "%s: %s", cpusdir, strerror(errno));
		return -1;
	}
	while ((e = readdir(dp)) && nr < MAX_CPUS) {
		if (!numbered(e->d_name, "cpu", &cpu))
			continue;
		nr++;
		if (snprintf(cpudir, sizeof(cpudir), "%s/%s", cpusdir,
			     e->d_name) >= (int)sizeof(cpudir))
			continue;
		if (pass == 0)
			scan_cpu(ci, sc, cpudir, cpu);
		else
			count_instance(sc, cpudir, sc->best_level);
	}
	closedir(dp);
	return 0;
}

int cg_cacheinfo_read(const char *root, struct cg_cacheinfo *ci)
{
	char cpusdir[PATH_MAX], buf[VALUE_MAX];
	struct scan *sc;
	uint64_t v;
	int ret = -1;

	memset(ci, 0, sizeof(*ci));
	if (snprintf(cpusdir, sizeof(cpusdir), "%s/devices/system/cpu", root) >=
	    (int)sizeof(cpusdir)) {
		fail(ci, "%s: path too long", root);
		return -1;
	}
	sc = calloc(1, sizeof(*sc));
	if (!sc) {
		fail(ci, "out of memory");
		return -1;
	}
	sc->best_cpu = ULONG_MAX;
	if (scan_cpus(ci, sc, cpusdir, 0))
		goto out;
	if (!sc->best_level) {
		if (!ci->error[0])
			fail(ci, "%s/cpu*/cache: no unified cache described",
			     cpusdir);
		goto out;
	}
	ci->error[0] = '\0';
	scan_cpus(ci, sc, cpusdir, 1);

	ci->level = sc->best_level;
	ci->nr_instances = sc->nr_lists;
	snprintf(ci->dir, sizeof(ci->dir), "%s", sc->best_dir);
	if (!read_value(sc->best_dir, "shared_cpu_list", buf))
		snprintf(ci->shared_cpus, sizeof(ci->shared_cpus), "%s", buf);

	if (read_number(ci, sc->best_dir, "size", 1ull << 40, &v) < 0)
		goto out;
	ci->size = v;
	v = 0;
	if (read_number(ci, sc->best_dir, "ways_of_associativity", 1024, &v) < 0)
		goto out;
	ci->ways = v;
	v = 0;
	if (read_number(ci, sc->best_dir, "coherency_line_size", 4096, &v) < 0)
		goto out;
	ci->line_size = v;
	v = 0;
	if (read_number(ci, sc->best_dir, "number_of_sets", 1ull << 32, &v) < 0)
		goto out;
	ci->sets = v;
	ret = 0;
out:
	free(sc);
	return ret;
}
