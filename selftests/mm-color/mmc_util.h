/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the mm-color guest programs: sysfs access, the
 * device's ioctls and colors of PFNs read from /proc/self/pagemap (the
 * color math is hv-color's).
 */
#ifndef MMC_UTIL_H
#define MMC_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <colorguard/hv_color.h>
#include <colorguard/mm_color.h>

#define MMC_SYSFS	"/sys/kernel/mm/color/"
#define MMC_DEV		"/dev/mm-color"
#define PAGE		4096UL

/* Read a sysfs file of mm-color into @buf (newline stripped); -errno. */
static inline int mmc_read(const char *name, char *buf, size_t size)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), MMC_SYSFS "%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return 0;
}

static inline unsigned long mmc_read_ul(const char *name)
{
	char buf[64];

	if (mmc_read(name, buf, sizeof(buf)))
		return (unsigned long)-1;
	return strtoul(buf, NULL, 10);
}

/* Write @len bytes of @val to a sysfs file: 0 or -errno. */
static inline int mmc_write_len(const char *name, const char *val, size_t len)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), MMC_SYSFS "%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static inline int mmc_write(const char *name, const char *val)
{
	return mmc_write_len(name, val, strlen(val));
}

static inline unsigned int mmc_nr_colors(void)
{
	return mmc_read_ul("nr_colors");
}

/* The geometry the module uses, as hv-color sees it. */
static inline int mmc_geometry(struct hvc_geometry *geo)
{
	return hvc_geometry_from_way_size(geo, mmc_read_ul("way_size"), 0, 0, 12, 1);
}

static inline int mmc_set_list(int fd, const char *list)
{
	struct mm_color_list req = {
		.addr = (uintptr_t)list,
		.len = strlen(list),
	};

	return ioctl(fd, MM_COLOR_SET_LIST, &req) ? -errno : 0;
}

/*
 * The group given access to /dev/mm-color (group read and write in the
 * node's mode, as the udev rule sets), or -1 when only root may open it.
 */
static inline long mmc_dev_group(void)
{
	struct stat st;

	if (stat(MMC_DEV, &st) || !st.st_gid ||
	    (st.st_mode & 0060) != 0060)
		return -1;
	return st.st_gid;
}

static inline int mmc_open_list(const char *list)
{
	int fd = open(MMC_DEV, O_RDWR);

	if (fd < 0)
		return -errno;
	if (mmc_set_list(fd, list)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* Free frames of every color, from free/<c>. */
static inline void mmc_free_counts(unsigned long *counts, unsigned int nr)
{
	char name[32];
	unsigned int c;

	for (c = 0; c < nr; c++) {
		snprintf(name, sizeof(name), "free/%u", c);
		counts[c] = mmc_read_ul(name);
	}
}

static inline int mmc_counts_equal(const unsigned long *a,
				   const unsigned long *b, unsigned int nr)
{
	return !memcmp(a, b, nr * sizeof(*a));
}

/* PFN of the page at @addr (0 if not present). */
static inline uint64_t mmc_pfn(int pagemap, const void *addr)
{
	uint64_t ent;

	if (pread(pagemap, &ent, sizeof(ent),
		  (uintptr_t)addr / PAGE * sizeof(ent)) != sizeof(ent))
		return 0;
	if (!(ent >> 63))
		return 0;
	return ent & ((1ULL << 55) - 1);
}

/*
 * Count the pages of [addr, addr+len) that are not present or whose color
 * is outside @mask. Every page must have been touched.
 */
static inline unsigned long mmc_bad_pages(const struct hvc_geometry *geo,
					  const struct hvc_mask *mask,
					  const void *addr, size_t len)
{
	int pagemap = open("/proc/self/pagemap", O_RDONLY);
	unsigned long bad = 0;
	size_t off;

	if (pagemap < 0)
		return len / PAGE;
	for (off = 0; off < len; off += PAGE) {
		uint64_t pfn = mmc_pfn(pagemap, (const char *)addr + off);

		if (!pfn || !hvc_mask_test(mask, hvc_color_of_pfn(geo, pfn)))
			bad++;
	}
	close(pagemap);
	return bad;
}

/* A pattern that differs per page and per run. */
static inline void mmc_fill(void *addr, size_t len, uint64_t seed)
{
	size_t off;

	for (off = 0; off < len; off += PAGE) {
		uint64_t *p = (uint64_t *)((char *)addr + off);

		p[0] = seed ^ off;
		p[PAGE / sizeof(*p) - 1] = ~(seed ^ off);
	}
}

/* Pages of [from, to) (offsets into the mapping at @base) not as filled. */
static inline unsigned long mmc_check_range(const void *base, size_t from,
					    size_t to, uint64_t seed)
{
	unsigned long bad = 0;
	size_t off;

	for (off = from; off < to; off += PAGE) {
		const uint64_t *p = (const uint64_t *)((const char *)base + off);

		if (p[0] != (seed ^ off) || p[PAGE / sizeof(*p) - 1] != ~(seed ^ off))
			bad++;
	}
	return bad;
}

static inline unsigned long mmc_check(const void *addr, size_t len, uint64_t seed)
{
	return mmc_check_range(addr, 0, len, seed);
}

/*
 * Share of the pages of a fresh anonymous mapping of @len bytes whose
 * color is in @mask, per mille; -1 if the mapping fails. With @thp 0 the
 * mapping is MADV_NOHUGEPAGE (colors are then a per-4K property), else
 * left to the system's transparent hugepage setting. Every page is
 * touched. With @keep the mapping is left in place there (for the caller
 * to inspect and unmap), else unmapped.
 */
static inline long mmc_anon_permille(const struct hvc_geometry *geo,
				     const struct hvc_mask *mask, size_t len,
				     int thp, void **keep)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long bad;

	if (p == MAP_FAILED)
		return -1;
	if (!thp)
		madvise(p, len, MADV_NOHUGEPAGE);
	mmc_fill(p, len, 1);
	bad = mmc_bad_pages(geo, mask, p, len);
	if (keep)
		*keep = p;
	else
		munmap(p, len);
	return 1000 - (long)(bad * 1000 / (len / PAGE));
}

/* The guest's init exports CG_KERNEL=debug on the KASAN/kmemleak kernel. */
static inline int debug_kernel(void)
{
	const char *k = getenv("CG_KERNEL");

	return k && !strcmp(k, "debug");
}

/*
 * make check-full boots with cg.thorough=1 (CG_THOROUGH): repetitions that
 * only raise the odds of catching a rare failure run in full there.
 */
static inline int thorough(void)
{
	const char *t = getenv("CG_THOROUGH");

	return t && !strcmp(t, "1");
}

static inline unsigned long meminfo_kb(const char *key)
{
	char line[256];
	unsigned long v = 0;
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':')
			v = strtoul(line + klen + 1, NULL, 10);
	fclose(f);
	return v;
}

/*
 * MemFree once transient users have let go: the highest of three reads a
 * second apart, each after dropping caches (see free_kb in vm-run).
 */
static inline unsigned long memfree_settled_kb(void)
{
	unsigned long best = 0, kb;
	int i;

	for (i = 0; i < 3; i++) {
		FILE *f;

		sync();
		f = fopen("/proc/sys/vm/drop_caches", "w");
		if (f) {
			fputs("3", f);
			fclose(f);
		}
		kb = meminfo_kb("MemFree");
		if (kb > best)
			best = kb;
		if (i < 2)
			sleep(1);
	}
	return best;
}

#endif /* MMC_UTIL_H */
