// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of preset nodes, /dev/mm-color-NAME (struct mmc_preset in
 * dev.h says what they are for): the sysfs file "devices" adds and
 * removes them, files opened through a node hold its preset. The nodes'
 * file operations are dev.c's table, mmc_preset_fops: a registry of
 * nodes, this file calls no function of the files behind them.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "dev.h"

static LIST_HEAD(mmc_presets);
static DEFINE_MUTEX(mmc_presets_lock);	/* mmc_presets, mmc_nr_presets */
static unsigned int mmc_nr_presets;

/* last_cmd_status is written under mmc.lock. */
#define mmc_status_locked(...) do {		\
		mutex_lock(&mmc.lock);		\
		mmc_set_status(__VA_ARGS__);	\
		mutex_unlock(&mmc.lock);	\
	} while (0)

static void mmc_preset_free(struct kref *ref)
{
	kfree(container_of(ref, struct mmc_preset, ref));
}

/**
 * mmc_preset_get() - a file opened through the preset's node holds it
 * @p: the preset
 */
void mmc_preset_get(struct mmc_preset *p)
{
	kref_get(&p->ref);
	atomic_inc(&p->files);
}

/**
 * mmc_preset_put() - a file that held the preset is gone
 * @p: the preset; freed with its last reference
 */
void mmc_preset_put(struct mmc_preset *p)
{
	atomic_dec(&p->files);
	kref_put(&p->ref, mmc_preset_free);
}

static struct mmc_preset *mmc_preset_find(const char *name)
{
	struct mmc_preset *p;

	list_for_each_entry(p, &mmc_presets, node)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static bool mmc_preset_name_ok(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n > MMC_PRESET_NAME_MAX || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum(name[i]) && !strchr("_-.", name[i]))
			return false;
	return true;
}

static int mmc_preset_add(const char *name, const char *colors,
			  const char *size)
{
	struct mmc_preset *p;
	unsigned long mb;
	int err;

	if (!mmc_preset_name_ok(name)) {
		mmc_status_locked("devices: name '%.40s': 1-%d of A-Z a-z 0-9 _ - .",
				  name, MMC_PRESET_NAME_MAX);
		return -EINVAL;
	}
	err = kstrtoul(size, 10, &mb);
	if (err || !mb || mb > totalram_pages() >> (20 - PAGE_SHIFT)) {
		mmc_status_locked("devices: size '%.20s': MiB, 1 to the machine's memory",
				  size);
		return err == -EINVAL ? -EINVAL : -ERANGE;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	mutex_lock(&mmc.lock);
	err = mmc_mask_parse(colors, &p->mask, true);
	mutex_unlock(&mmc.lock);
	if (err) {
		kfree(p);
		return err;
	}
	kref_init(&p->ref);
	atomic_set(&p->files, 0);
	p->size_mb = mb;
	strscpy(p->name, name, sizeof(p->name));
	snprintf(p->devname, sizeof(p->devname), "mm-color-%s", name);
	p->misc.minor = MISC_DYNAMIC_MINOR;
	p->misc.name = p->devname;
	p->misc.fops = &mmc_preset_fops;
	p->misc.mode = MMC_DEV_MODE;

	mutex_lock(&mmc_presets_lock);
	if (mmc_preset_find(name)) {
		err = -EEXIST;
		mmc_status_locked("devices: %s exists", p->devname);
	} else if (mmc_nr_presets >= MMC_MAX_PRESETS) {
		err = -ENOSPC;
		mmc_status_locked("devices: at most %d", MMC_MAX_PRESETS);
	} else {
		err = misc_register(&p->misc);
		if (err)
			mmc_status_locked("devices: %s: misc_register: %d",
					  p->devname, err);
	}
	if (!err) {
		list_add_tail(&p->node, &mmc_presets);
		mmc_nr_presets++;
	}
	mutex_unlock(&mmc_presets_lock);
	if (err)
		kfree(p);
	return err;
}

/* Refused while a file opened through the node lives (open or mapped). */
static int mmc_preset_remove(const char *name)
{
	struct mmc_preset *p;
	int err = 0;

	mutex_lock(&mmc_presets_lock);
	p = mmc_preset_find(name);
	if (!p) {
		err = -ENOENT;
		mmc_status_locked("devices: no mm-color-%.40s", name);
	} else if (atomic_read(&p->files)) {
		err = -EBUSY;
		mmc_status_locked("devices: %s in use (%d files open or mapped)",
				  p->devname, atomic_read(&p->files));
	} else {
		list_del(&p->node);
		mmc_nr_presets--;
		misc_deregister(&p->misc);
	}
	mutex_unlock(&mmc_presets_lock);
	if (!err)
		kref_put(&p->ref, mmc_preset_free);
	return err;
}

/**
 * mmc_presets_store() - "add NAME COLORS SIZE_MB" or "remove NAME"
 * @buf: the write, checked by the sysfs layer (one line, no NUL)
 *
 * Return: 0 or a negative errno; last_cmd_status says why.
 */
int mmc_presets_store(const char *buf)
{
	char *text = kstrdup(buf, GFP_KERNEL), *p, *w[5];
	unsigned int n = 0;
	int err = -EINVAL;

	if (!text)
		return -ENOMEM;
	p = strim(text);
	while (n < ARRAY_SIZE(w) && (w[n] = strsep(&p, " ")))
		if (*w[n])
			n++;
	if (n == 4 && !strcmp(w[0], "add"))
		err = mmc_preset_add(w[1], w[2], w[3]);
	else if (n == 2 && !strcmp(w[0], "remove"))
		err = mmc_preset_remove(w[1]);
	else
		mmc_status_locked("devices: expected 'add NAME COLORS SIZE_MB' or 'remove NAME'");
	if (!err)
		mmc_status_locked("ok");
	kfree(text);
	return err;
}

/**
 * mmc_presets_show() - one line per preset: NAME COLORS SIZE_MB FILES
 * @buf: a sysfs page
 *
 * Return: bytes written.
 */
ssize_t mmc_presets_show(char *buf)
{
	struct mmc_preset *p;
	ssize_t n = 0;

	/* The order of mmc_preset_add(): presets, then mmc.lock. */
	mutex_lock(&mmc_presets_lock);
	mutex_lock(&mmc.lock);
	list_for_each_entry(p, &mmc_presets, node) {
		if (n >= PAGE_SIZE - 64)
			break;
		n += scnprintf(buf + n, PAGE_SIZE - n, "%s ", p->name);
		n += mmc_mask_format(&p->mask, buf + n, PAGE_SIZE - 48 - n);
		n += scnprintf(buf + n, PAGE_SIZE - n, " %lu %d\n", p->size_mb,
			       atomic_read(&p->files));
	}
	mutex_unlock(&mmc.lock);
	mutex_unlock(&mmc_presets_lock);
	return n;
}

/**
 * mmc_presets_exit() - module exit: remove every preset node
 *
 * No file is open: the module could not unload otherwise.
 */
void mmc_presets_exit(void)
{
	struct mmc_preset *p, *ptmp;

	list_for_each_entry_safe(p, ptmp, &mmc_presets, node) {
		list_del(&p->node);
		misc_deregister(&p->misc);
		kref_put(&p->ref, mmc_preset_free);
	}
	mmc_nr_presets = 0;
}
