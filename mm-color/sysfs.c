// SPDX-License-Identifier: GPL-2.0
/*
 * The files of /sys/kernel/mm/color/: one value per file
 * (Documentation/ABI/testing/sysfs-kernel-mm-color). Every write passes
 * the rule of <colorguard/user_text.h> first (sysfs_dir.c), and is then
 * parsed completely before it changes anything; a rejected write leaves
 * the old value and explains itself in last_cmd_status.
 */
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <colorguard/user_text.h>

#include "mm_color_int.h"

/*
 * A decimal number, nothing else but one trailing newline: EINVAL if it
 * is not one, ERANGE if it overflows or lies outside min..max.
 */
static int mmc_parse_ulong(const char *buf, unsigned long min,
			   unsigned long max, unsigned long *val,
			   const char *what)
{
	int err = kstrtoul(buf, 10, val);

	if (err == -ERANGE) {
		mmc_set_status("%s: number too large", what);
		return err;
	}
	if (err) {
		mmc_set_status("%s: not a decimal number", what);
		return err;
	}
	if (*val < min || *val > max) {
		mmc_set_status("%s: %lu is outside %lu..%lu", what, *val, min, max);
		return -ERANGE;
	}
	return 0;
}

#define MMC_RO(name, fmt, expr)						\
static ssize_t name##_show(struct kobject *kobj,			\
			   struct kobj_attribute *attr, char *buf)	\
{									\
	ssize_t n;							\
									\
	mutex_lock(&mmc.lock);						\
	n = sysfs_emit(buf, fmt "\n", expr);				\
	mutex_unlock(&mmc.lock);					\
	return n;							\
}									\
static struct kobj_attribute name##_attr = __ATTR_RO(name)

MMC_RO(nr_colors, "%u", mmc.have_geo ? mmc.nr_colors : 0);
MMC_RO(geometry_source, "%s", mmc.geo_source);
MMC_RO(pool_pages, "%lu", mmc.pool_pages);
MMC_RO(used_pages, "%lu", mmc.used_pages);
MMC_RO(committed_pages, "%lu", mmc.committed);
MMC_RO(quarantined_pages, "%lu", mmc.quarantined);
MMC_RO(failed_faults, "%lu", mmc.failed_faults);
MMC_RO(parked_pages, "%lu", mmc_parked_pages());
MMC_RO(foreign_in_use_pages, "%lu", mmc.have_geo ? mmc_foreign_in_use() : 0);
MMC_RO(last_cmd_status, "%s", mmc.status);

static ssize_t free_pages_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	unsigned long n;

	spin_lock(&mmc.alloc_lock);
	n = mmc.pool_pages + mmc.quarantined - mmc.used_pages;
	spin_unlock(&mmc.alloc_lock);
	return sysfs_emit(buf, "%lu\n", n);
}

static struct kobj_attribute free_pages_attr = __ATTR_RO(free_pages);

static ssize_t way_size_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	ssize_t n;

	mutex_lock(&mmc.lock);
	n = sysfs_emit(buf, "%llu\n", mmc.have_geo ? mmc.way_size : 0);
	mutex_unlock(&mmc.lock);
	return n;
}

static ssize_t way_size_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t len)
{
	unsigned long val;
	int err;

	mutex_lock(&mmc.lock);
	/* The range hv-color's geometry allows: 2 to HVC_MAX_COLORS colors. */
	err = mmc_parse_ulong(buf, 2 * PAGE_SIZE, HVC_MAX_COLORS * PAGE_SIZE,
			      &val, "way_size");
	if (!err)
		err = mmc_sysfs_set_geometry(val, 0, "sysfs");
	if (!err)
		mmc_set_status("ok");
	mutex_unlock(&mmc.lock);
	return err ? err : len;
}

static struct kobj_attribute way_size_attr = __ATTR_RW(way_size);

static ssize_t line_size_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	ssize_t n;

	mutex_lock(&mmc.lock);
	n = sysfs_emit(buf, "%u\n", mmc.line_size);
	mutex_unlock(&mmc.lock);
	return n;
}

/* The line size does not change colors; memguard-style users read it. */
static ssize_t line_size_store(struct kobject *kobj, struct kobj_attribute *attr,
			       const char *buf, size_t len)
{
	unsigned long val;
	int err;

	mutex_lock(&mmc.lock);
	err = mmc_parse_ulong(buf, CG_LINE_SIZE_MIN,
			      min_t(unsigned long, CG_LINE_SIZE_MAX, PAGE_SIZE),
			      &val, "line_size");
	if (!err && !is_power_of_2(val)) {
		mmc_set_status("line_size: %lu is not a power of two", val);
		err = -EINVAL;
	}
	if (!err) {
		mmc.line_size = val;
		mmc_set_status("ok");
	}
	mutex_unlock(&mmc.lock);
	return err ? err : len;
}

static struct kobj_attribute line_size_attr = __ATTR_RW(line_size);

static ssize_t pool_mb_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	ssize_t n;

	mutex_lock(&mmc.lock);
	n = sysfs_emit(buf, "%lu\n", mmc.pool_pages >> (20 - PAGE_SHIFT));
	mutex_unlock(&mmc.lock);
	return n;
}

static ssize_t pool_mb_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t len)
{
	unsigned long val;
	int err;

	mutex_lock(&mmc.lock);
	err = mmc_parse_ulong(buf, 0, totalram_pages() >> (20 - PAGE_SHIFT),
			      &val, "pool_mb");
	if (!err)
		err = mmc_pool_resize(val << (20 - PAGE_SHIFT));
	if (!err)
		mmc_set_status("ok");
	mutex_unlock(&mmc.lock);
	return err ? err : len;
}

static struct kobj_attribute pool_mb_attr = __ATTR_RW(pool_mb);

static ssize_t mmc_show_mb(char *buf, const unsigned long *val)
{
	ssize_t n;

	mutex_lock(&mmc.lock);
	n = sysfs_emit(buf, "%lu\n", *val);
	mutex_unlock(&mmc.lock);
	return n;
}

/* A size in MiB, at most the machine's memory. */
static ssize_t mmc_store_mb(const char *buf, size_t len, unsigned long *val,
			    const char *what)
{
	unsigned long v;
	int err;

	mutex_lock(&mmc.lock);
	err = mmc_parse_ulong(buf, 0, totalram_pages() >> (20 - PAGE_SHIFT), &v,
			      what);
	if (!err) {
		*val = v;
		mmc_set_status("ok");
	}
	mutex_unlock(&mmc.lock);
	return err ? err : len;
}

static ssize_t limit_fd_mb_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return mmc_show_mb(buf, &mmc.limit_fd_mb);
}

static ssize_t limit_fd_mb_store(struct kobject *kobj,
				 struct kobj_attribute *attr,
				 const char *buf, size_t len)
{
	return mmc_store_mb(buf, len, &mmc.limit_fd_mb, "limit_fd_mb");
}

static struct kobj_attribute limit_fd_mb_attr = __ATTR_RW(limit_fd_mb);

static ssize_t limit_total_mb_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	return mmc_show_mb(buf, &mmc.limit_total_mb);
}

static ssize_t limit_total_mb_store(struct kobject *kobj,
				    struct kobj_attribute *attr,
				    const char *buf, size_t len)
{
	return mmc_store_mb(buf, len, &mmc.limit_total_mb, "limit_total_mb");
}

static struct kobj_attribute limit_total_mb_attr = __ATTR_RW(limit_total_mb);

static ssize_t reserve_mb_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return mmc_show_mb(buf, &mmc.reserve_mb);
}

static ssize_t reserve_mb_store(struct kobject *kobj,
				struct kobj_attribute *attr,
				const char *buf, size_t len)
{
	return mmc_store_mb(buf, len, &mmc.reserve_mb, "reserve_mb");
}

static struct kobj_attribute reserve_mb_attr = __ATTR_RW(reserve_mb);

static ssize_t root_colors_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	ssize_t n = 0;

	mutex_lock(&mmc.lock);
	if (mmc.have_geo)
		n = mmc_mask_format(&mmc.root, buf, PAGE_SIZE - 1);
	buf[n++] = '\n';
	mutex_unlock(&mmc.lock);
	return n;
}

static ssize_t root_colors_store(struct kobject *kobj,
				 struct kobj_attribute *attr,
				 const char *buf, size_t len)
{
	struct mmc_mask mask;
	int err;

	mutex_lock(&mmc.lock);
	err = mmc_mask_parse(buf, &mask, true);
	if (!err)
		err = mmc_set_root_colors(&mask);
	if (!err)
		mmc_set_status("ok");
	mutex_unlock(&mmc.lock);
	return err ? err : len;
}

static struct kobj_attribute root_colors_attr = __ATTR_RW(root_colors);

MMC_RO(drain_passes, "%u", mmc.drain_passes);

/* Root only: each read walks free lists under the zones' locks. */
static ssize_t foreign_movable_free_pages_show(struct kobject *kobj,
					       struct kobj_attribute *attr,
					       char *buf)
{
	unsigned long pages = 0;
	int err = 0;

	mutex_lock(&mmc.lock);
	if (mmc.have_geo)
		err = mmc_foreign_movable_free(&pages);
	mutex_unlock(&mmc.lock);
	return err ? err : sysfs_emit(buf, "%lu\n", pages);
}

static struct kobj_attribute foreign_movable_free_pages_attr =
	__ATTR(foreign_movable_free_pages, 0400,
	       foreign_movable_free_pages_show, NULL);

static ssize_t drain_movable_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(mmc.drain_movable));
}

/* 0 or 1; applies to the next drain (root_colors write). */
static ssize_t drain_movable_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t len)
{
	bool val;
	int err = cg_user_bool(buf, len, &val);

	mutex_lock(&mmc.lock);
	if (err) {
		mmc_set_status("drain_movable: expected 0 or 1");
	} else {
		mmc.drain_movable = val;
		mmc_set_status("ok");
	}
	mutex_unlock(&mmc.lock);
	return err ? err : len;
}

static struct kobj_attribute drain_movable_attr = __ATTR_RW(drain_movable);

static ssize_t devices_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return mmc_presets_show(buf);
}

static ssize_t devices_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t len)
{
	int err = mmc_presets_store(buf);

	return err ? err : len;
}

static struct kobj_attribute devices_attr = __ATTR_RW(devices);

static struct attribute *mmc_attrs[] = {
	&devices_attr.attr,
	&nr_colors_attr.attr,
	&way_size_attr.attr,
	&line_size_attr.attr,
	&geometry_source_attr.attr,
	&pool_mb_attr.attr,
	&pool_pages_attr.attr,
	&free_pages_attr.attr,
	&used_pages_attr.attr,
	&committed_pages_attr.attr,
	&failed_faults_attr.attr,
	&parked_pages_attr.attr,
	&root_colors_attr.attr,
	&quarantined_pages_attr.attr,
	&foreign_in_use_pages_attr.attr,
	&drain_movable_attr.attr,
	&foreign_movable_free_pages_attr.attr,
	&drain_passes_attr.attr,
	&reserve_mb_attr.attr,
	&limit_fd_mb_attr.attr,
	&limit_total_mb_attr.attr,
	&last_cmd_status_attr.attr,
	NULL
};

static const struct attribute_group mmc_group = {
	.attrs = mmc_attrs,
};

/**
 * mmc_sysfs_set_geometry() - switch the geometry, free/ with it
 * @way_size: bytes of one LLC way
 * @line_size: the LLC line size, or 0 when unknown
 * @source: where it came from, for geometry_source (a static string)
 *
 * The engine checks and prepares the geometry, free/ gets a file per new
 * color, then the engine switches. All of it happens under the caller's
 * one hold of mmc.lock, which every geometry change takes (way_size
 * writes, module load): no other change can come in between, so free/
 * matches the geometry in use. A failure leaves the old geometry; if it
 * was free/'s, its old files are gone (the resize removes them first).
 *
 * Return: 0 or an error of mmc_geometry_prepare() or
 * mmc_sysfs_colors_resize(); last_cmd_status says why.
 */
int mmc_sysfs_set_geometry(u64 way_size, u32 line_size, const char *source)
{
	struct mmc_geometry_change chg;
	int err;

	lockdep_assert_held(&mmc.lock);
	err = mmc_geometry_prepare(&chg, way_size);
	if (err)
		return err;
	err = mmc_sysfs_colors_resize(chg.geo.nr_colors);
	if (err) {
		mmc_geometry_abort(&chg);
		mmc_set_status("geometry: cannot create free/ files");
		return err;
	}
	mmc_geometry_commit(&chg, line_size, source);
	return 0;
}

/**
 * mmc_sysfs_init() - /sys/kernel/mm/color and its files
 *
 * Return: 0 or an error of mmc_sysfs_dir_create().
 */
int mmc_sysfs_init(void)
{
	return mmc_sysfs_dir_create(&mmc_group);
}

/**
 * mmc_sysfs_exit() - remove /sys/kernel/mm/color
 */
void mmc_sysfs_exit(void)
{
	mmc_sysfs_dir_remove();
}
