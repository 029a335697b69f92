// SPDX-License-Identifier: GPL-2.0
/*
 * The directories behind sysfs.c's files: /sys/kernel/mm/color itself,
 * whose every write passes mmc_attr_store() (the rule of
 * <colorguard/user_text.h>), and free/, one file per color of the
 * geometry in use.
 */
#include <linux/kernel.h>
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <colorguard/user_text.h>

#include "mm_color_int.h"

struct mmc_color_attr {
	struct kobj_attribute attr;
	u32 color;
	char name[11];		/* any u32 in decimal */
};

static struct kobject *mmc_kobj;
static struct kobject *mmc_free_kobj;
static struct mmc_color_attr *mmc_color_attrs;
static u32 mmc_nr_color_attrs;

static ssize_t mmc_attr_show(struct kobject *kobj, struct attribute *attr,
			     char *buf)
{
	struct kobj_attribute *ka = container_of(attr, struct kobj_attribute, attr);

	return ka->show ? ka->show(kobj, ka, buf) : -EIO;
}

/*
 * Every store of the directory comes through here, so no file can miss
 * the rule of <colorguard/user_text.h> (length, NUL, one line).
 */
static ssize_t mmc_attr_store(struct kobject *kobj, struct attribute *attr,
			      const char *buf, size_t len)
{
	struct kobj_attribute *ka = container_of(attr, struct kobj_attribute, attr);
	const char *why;
	int err;

	if (!ka->store)
		return -EIO;
	err = cg_user_text_check(buf, len, CG_SYSFS_TEXT_MAX, &why);
	if (err) {
		mutex_lock(&mmc.lock);
		if (err == -E2BIG)
			mmc_set_status("%s: write longer than %lu bytes",
				       attr->name, CG_SYSFS_TEXT_MAX);
		else
			mmc_set_status("%s: %s", attr->name, why);
		mutex_unlock(&mmc.lock);
		return err;
	}
	return ka->store(kobj, ka, buf, len);
}

static const struct sysfs_ops mmc_sysfs_ops = {
	.show = mmc_attr_show,
	.store = mmc_attr_store,
};

static void mmc_kobj_release(struct kobject *kobj)
{
	kfree(kobj);
}

static const struct kobj_type mmc_ktype = {
	.release = mmc_kobj_release,
	.sysfs_ops = &mmc_sysfs_ops,
};

static ssize_t mmc_color_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	struct mmc_color_attr *ca = container_of(attr, struct mmc_color_attr, attr);

	return sysfs_emit(buf, "%lu\n", mmc_color_free(ca->color));
}

static void mmc_colors_remove(void)
{
	if (mmc_free_kobj) {
		kobject_del(mmc_free_kobj);
		kobject_put(mmc_free_kobj);
		mmc_free_kobj = NULL;
	}
	kfree(mmc_color_attrs);
	mmc_color_attrs = NULL;
	mmc_nr_color_attrs = 0;
}

/**
 * mmc_sysfs_colors_resize() - one free/<color> file per color
 * @nr_colors: the colors of the new geometry
 *
 * Called with mmc.lock held, like every geometry change (see
 * mmc_sysfs_set_geometry()).
 *
 * Return: 0, -ENODEV before mmc_sysfs_dir_create(), -ENOMEM, or an error
 * of sysfs_create_file().
 */
int mmc_sysfs_colors_resize(u32 nr_colors)
{
	u32 c;
	int err;

	if (!mmc_kobj)
		return -ENODEV;
	mmc_colors_remove();
	mmc_color_attrs = kcalloc(nr_colors, sizeof(*mmc_color_attrs), GFP_KERNEL);
	if (!mmc_color_attrs)
		return -ENOMEM;
	mmc_free_kobj = kobject_create_and_add("free", mmc_kobj);
	if (!mmc_free_kobj) {
		mmc_colors_remove();
		return -ENOMEM;
	}
	for (c = 0; c < nr_colors; c++) {
		struct mmc_color_attr *ca = &mmc_color_attrs[c];

		snprintf(ca->name, sizeof(ca->name), "%u", c);
		sysfs_attr_init(&ca->attr.attr);
		ca->attr.attr.name = ca->name;
		ca->attr.attr.mode = 0444;
		ca->attr.show = mmc_color_show;
		ca->color = c;
		err = sysfs_create_file(mmc_free_kobj, &ca->attr.attr);
		if (err) {
			mmc_colors_remove();
			return err;
		}
		mmc_nr_color_attrs = c + 1;
	}
	return 0;
}

#ifdef MMC_HAVE_MM_KOBJ
static struct kobject *mmc_mm_kobj(void)
{
	return mm_kobj;
}
#else
/*
 * Kernels from 6.6 on do not export mm_kobj. /sys/kernel/mm is the
 * directory of a kobject under kernel_kobj, and sysfs keeps a directory's
 * kobject as the private data of its kernfs node; that kobject lives as
 * long as the kernel, so the node's reference is not kept.
 */
static struct kobject *mmc_mm_kobj(void)
{
	struct kobject *kobj = NULL;
	struct kernfs_node *kn;

	kn = kernfs_find_and_get(kernel_kobj->sd, "mm");
	if (!kn)
		return NULL;
	if (kernfs_type(kn) == KERNFS_DIR)
		kobj = kn->priv;
	kernfs_put(kn);
	return kobj;
}
#endif

/**
 * mmc_sysfs_dir_create() - /sys/kernel/mm/color with its files
 * @files: the attribute group of the directory's files
 *
 * Return: 0, -ENODEV without /sys/kernel/mm, or an error of the kobject
 * or group creation.
 */
int mmc_sysfs_dir_create(const struct attribute_group *files)
{
	struct kobject *mm = mmc_mm_kobj();
	int err;

	if (!mm)
		return -ENODEV;
	mmc_kobj = kzalloc(sizeof(*mmc_kobj), GFP_KERNEL);
	if (!mmc_kobj)
		return -ENOMEM;
	err = kobject_init_and_add(mmc_kobj, &mmc_ktype, mm, "color");
	if (!err)
		err = sysfs_create_group(mmc_kobj, files);
	if (err) {
		kobject_put(mmc_kobj);
		mmc_kobj = NULL;
	}
	return err;
}

/**
 * mmc_sysfs_dir_remove() - remove /sys/kernel/mm/color and free/
 */
void mmc_sysfs_dir_remove(void)
{
	mmc_colors_remove();
	kobject_put(mmc_kobj);
	mmc_kobj = NULL;
}
