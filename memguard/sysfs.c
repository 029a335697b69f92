// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's sysfs tree: /sys/kernel/memguard/ and its cpuN/ folders
 * (Documentation/ABI/testing/sysfs-kernel-memguard), last_cmd_status, and
 * the one path every read and every write of a memguard file takes. A
 * write passes the rule of <colorguard/user_text.h>, is parsed and checked
 * completely before anything changes, and says in last_cmd_status what it
 * did; a rejected write returns an errno and changes nothing. The files
 * are in sysfs_global.c and sysfs_cpu.c.
 */
#include <linux/err.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <colorguard/user_text.h>

#include "sysfs.h"

static char mg_last_cmd[MG_CMD_LEN] = "ok";
static struct kobject *mg_kobj;

struct mg_cpu_kobj {
	struct kobject kobj;
	unsigned int cpu;
};

static struct mg_cpu_kobj **mg_cpu_kobjs;

/* Caller holds mg_config_lock. */
static __printf(1, 2) void mg_cmd_status(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(mg_last_cmd, sizeof(mg_last_cmd), fmt, args);
	va_end(args);
}

static ssize_t mg_last_cmd_status_show(const struct mg_file *file,
				       unsigned int cpu, char *buf)
{
	ssize_t len;

	mutex_lock(&mg_config_lock);
	len = sysfs_emit(buf, "%s\n", mg_last_cmd);
	mutex_unlock(&mg_config_lock);
	return len;
}

MG_FILE_RO(mg_file_last_cmd_status, "last_cmd_status", MG_READ,
	   mg_last_cmd_status_show);

static struct attribute *mg_status_attrs[] = {
	&mg_file_last_cmd_status.attr,
	NULL,
};

static const struct attribute_group mg_status_group = {
	.attrs = mg_status_attrs,
};

static const struct attribute_group *mg_groups[] = {
	&mg_status_group,
	&mg_global_group,
	&mg_bwlock_group,
	NULL,
};

/* The CPU of a cpuN/ folder; 0 for the top folder's files. */
static unsigned int mg_kobj_cpu(struct kobject *kobj)
{
	if (kobj == mg_kobj)
		return 0;
	return container_of(kobj, struct mg_cpu_kobj, kobj)->cpu;
}

static ssize_t mg_file_show(struct kobject *kobj, struct attribute *attr,
			    char *buf)
{
	const struct mg_file *file = container_of(attr, struct mg_file, attr);

	return file->show ? file->show(file, mg_kobj_cpu(kobj), buf) : -EIO;
}

/*
 * Every write of every memguard file: the text rule (length, NUL, one
 * line), then parse -> lock -> apply -> last_cmd_status -> unlock.
 */
static ssize_t mg_file_store(struct kobject *kobj, struct attribute *attr,
			     const char *buf, size_t count)
{
	const struct mg_file *file = container_of(attr, struct mg_file, attr);
	struct mg_write w = { .cpu = mg_kobj_cpu(kobj), .slot = file->slot };
	char dir[16] = "";
	size_t len = count;
	const char *why;
	int ret;

	if (!file->apply)
		return -EIO;
	if (kobj != mg_kobj)
		snprintf(dir, sizeof(dir), "cpu%u/", w.cpu);
	ret = cg_user_text_check(buf, count, CG_SYSFS_TEXT_MAX, &why);
	if (ret) {
		mutex_lock(&mg_config_lock);
		if (ret == -E2BIG)
			mg_cmd_status("%s%s: write longer than %lu bytes", dir,
				      attr->name, CG_SYSFS_TEXT_MAX);
		else
			mg_cmd_status("%s%s: %s", dir, attr->name, why);
		mutex_unlock(&mg_config_lock);
		return ret;
	}
	/* The check left no newline but the last one. */
	if (len && buf[len - 1] == '\n')
		len--;
	w.in = kstrndup(buf, len, GFP_KERNEL);
	if (!w.in)
		return -ENOMEM;

	ret = file->parse ? file->parse(&w) : 0;
	mg_lock();
	if (!ret)
		ret = file->apply(&w);
	if (ret && !w.why[0])
		mg_why(&w, "%pe", ERR_PTR(ret));
	if (ret)
		mg_cmd_status("%s%s: %s", dir, attr->name, w.why);
	else
		mg_cmd_status("ok");
	mg_unlock();

	free_cpumask_var(w.cpus);
	kfree(w.in);
	return ret ?: count;
}

static const struct sysfs_ops mg_sysfs_ops = {
	.show = mg_file_show,
	.store = mg_file_store,
};

static void mg_kobj_release(struct kobject *kobj)
{
	kfree(kobj);
}

static const struct kobj_type mg_ktype = {
	.release = mg_kobj_release,
	.sysfs_ops = &mg_sysfs_ops,
};

static void mg_cpu_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct mg_cpu_kobj, kobj));
}

static const struct kobj_type mg_cpu_ktype = {
	.release = mg_cpu_kobj_release,
	.sysfs_ops = &mg_sysfs_ops,
	.default_groups = mg_cpu_groups,
};

/**
 * mg_sysfs_exit() - remove /sys/kernel/memguard and the per-CPU folders
 */
void mg_sysfs_exit(void)
{
	unsigned int cpu;

	if (mg_cpu_kobjs) {
		for_each_possible_cpu(cpu)
			if (mg_cpu_kobjs[cpu])
				kobject_put(&mg_cpu_kobjs[cpu]->kobj);
		kfree(mg_cpu_kobjs);
		mg_cpu_kobjs = NULL;
	}
	if (mg_kobj) {
		sysfs_remove_groups(mg_kobj, mg_groups);
		kobject_put(mg_kobj);
		mg_kobj = NULL;
	}
}

/**
 * mg_sysfs_init() - /sys/kernel/memguard, its files and a folder per CPU
 *
 * Return: 0, -ENOMEM, or an error of the kobject or group creation.
 */
int mg_sysfs_init(void)
{
	struct mg_cpu_kobj *ck;
	unsigned int cpu;
	int ret;

	mg_kobj = kzalloc(sizeof(*mg_kobj), GFP_KERNEL);
	if (!mg_kobj)
		return -ENOMEM;
	ret = kobject_init_and_add(mg_kobj, &mg_ktype, kernel_kobj, "memguard");
	if (!ret)
		ret = sysfs_create_groups(mg_kobj, mg_groups);
	if (ret) {
		kobject_put(mg_kobj);
		mg_kobj = NULL;
		return ret;
	}
	mg_cpu_kobjs = kcalloc(nr_cpu_ids, sizeof(*mg_cpu_kobjs), GFP_KERNEL);
	if (!mg_cpu_kobjs) {
		mg_sysfs_exit();
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		ck = kzalloc(sizeof(*ck), GFP_KERNEL);
		if (!ck) {
			mg_sysfs_exit();
			return -ENOMEM;
		}
		ck->cpu = cpu;
		ret = kobject_init_and_add(&ck->kobj, &mg_cpu_ktype, mg_kobj,
					   "cpu%u", cpu);
		if (ret) {
			kobject_put(&ck->kobj);
			mg_sysfs_exit();
			return ret;
		}
		mg_cpu_kobjs[cpu] = ck;
	}
	return 0;
}
