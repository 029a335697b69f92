// SPDX-License-Identifier: GPL-2.0
/*
 * memguard sysfs interface: /sys/kernel/memguard/ and its cpuN/ folders
 * (Documentation/ABI/testing/sysfs-kernel-memguard). Every write passes
 * mg_attr_store(), which applies the rule of <colorguard/user_text.h>, and
 * is then parsed and checked completely before anything changes; a
 * rejected write returns an errno, changes nothing and explains itself in
 * last_cmd_status.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <colorguard/user_text.h>

#include "memguard.h"

#define MG_CMD_LEN	160

static char mg_last_cmd[MG_CMD_LEN] = "ok";
static struct kobject *mg_kobj;

struct mg_cpu_kobj {
	struct kobject kobj;
	unsigned int cpu;
};

static struct mg_cpu_kobj **mg_cpu_kobjs;

/* What the last command did, for last_cmd_status; caller holds mg_config_lock. */
static __printf(1, 2) void mg_cmd_status(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(mg_last_cmd, sizeof(mg_last_cmd), fmt, args);
	va_end(args);
}

/*
 * A copy of a sysfs write without its trailing newline (mg_attr_store()
 * has made sure there is no other newline and no NUL).
 */
static char *mg_input(const char *buf, size_t count)
{
	if (count && buf[count - 1] == '\n')
		count--;
	return kstrndup(buf, count, GFP_KERNEL);
}

/* Global files */

static ssize_t status_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	char name[48];
	unsigned int cpu;
	bool any_event = false, any_armed = false, default_missing = false;
	int len = 0, s;

	mg_lock();
	for (s = 0; s < MG_NR_SLOTS; s++) {
		any_event |= !mg_config.event[s].none;
		default_missing |= mg_config.default_err[s] != 0;
	}
	for_each_online_cpu(cpu)
		any_armed |= per_cpu_ptr(&mg_cpus, cpu)->armed;

	if (!mg_config.enabled) {
		len += sysfs_emit_at(buf, len, "disabled: switched off (enable is 0)\n");
	} else if (!any_event && default_missing) {
		len += sysfs_emit_at(buf, len,
				     "disabled: hardware events unavailable: configure a software event (e.g. echo sw:cpu-clock > read_event)\n");
	} else if (!any_event) {
		len += sysfs_emit_at(buf, len,
				     "disabled: no event configured (read_event and write_event are none)\n");
	} else if (!any_armed) {
		len += sysfs_emit_at(buf, len,
				     "enabled: no CPU armed (budgets unlimited or CPUs critical)\n");
	} else {
		len += sysfs_emit_at(buf, len, "enabled: regulating CPUs ");
		for_each_online_cpu(cpu)
			if (per_cpu_ptr(&mg_cpus, cpu)->armed)
				len += sysfs_emit_at(buf, len, "%u ", cpu);
		len--;
		len += sysfs_emit_at(buf, len, "\n");
	}
	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mg_config.default_err[s])
			continue;
		mg_event_format(&mg_config.default_event[s], name, sizeof(name));
		len += sysfs_emit_at(buf, len, "%s: default event %s unavailable: %pe\n",
				     mg_slot_name[s], name,
				     ERR_PTR(mg_config.default_err[s]));
	}
	for_each_online_cpu(cpu) {
		struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

		for (s = 0; s < MG_NR_SLOTS; s++) {
			if (mc->event_err[s])
				len += sysfs_emit_at(buf, len, "cpu%u: no %s counter: %pe\n",
						     cpu, mg_slot_name[s],
						     ERR_PTR(mc->event_err[s]));
			if (READ_ONCE(mc->zero_periods[s]) >= MG_ZERO_WARN_PERIODS)
				len += sysfs_emit_at(buf, len,
						     "cpu%u: %s event counted nothing for %llu periods: the PMU may not implement it\n",
						     cpu, mg_slot_name[s],
						     READ_ONCE(mc->zero_periods[s]));
		}
	}
	mg_unlock();
	return len;
}

static ssize_t last_cmd_status_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	ssize_t len;

	mutex_lock(&mg_config_lock);
	len = sysfs_emit(buf, "%s\n", mg_last_cmd);
	mutex_unlock(&mg_config_lock);
	return len;
}

static ssize_t enable_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(mg_config.enabled));
}

static ssize_t enable_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	bool on;
	int ret = cg_user_bool(buf, count, &on);

	mg_lock();
	if (ret) {
		mg_cmd_status("enable: expected 0 or 1");
	} else {
		mg_set_enabled(on);
		mg_cmd_status("ok");
	}
	mg_unlock();
	return ret ?: count;
}

static ssize_t reclaim_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(mg_config.reclaim));
}

static ssize_t reclaim_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	bool on;
	int ret = cg_user_bool(buf, count, &on);

	mg_lock();
	if (ret) {
		mg_cmd_status("reclaim: expected 0 or 1");
	} else {
		mg_set_reclaim(on);
		mg_cmd_status("ok");
	}
	mg_unlock();
	return ret ?: count;
}

static ssize_t period_us_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mg_config.period_us));
}

static ssize_t period_us_store(struct kobject *kobj, struct kobj_attribute *attr,
			       const char *buf, size_t count)
{
	u32 us;
	int ret = kstrtou32(buf, 10, &us);

	if (!ret)
		ret = mg_period_us_check(us);
	mg_lock();
	if (ret) {
		mg_cmd_status("period_us: expected %u..%u microseconds",
			      CG_PERIOD_US_MIN, CG_PERIOD_US_MAX);
	} else {
		mg_set_period(us);
		mg_cmd_status("ok");
	}
	mg_unlock();
	return ret ?: count;
}

static ssize_t line_size_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mg_config.line_size));
}

static ssize_t line_size_store(struct kobject *kobj, struct kobj_attribute *attr,
			       const char *buf, size_t count)
{
	u32 size;
	int ret = kstrtou32(buf, 10, &size);

	if (!ret)
		ret = mg_line_size_check(size);
	mg_lock();
	if (ret) {
		mg_cmd_status("line_size: expected a power of two, %u..%u bytes",
			      CG_LINE_SIZE_MIN, CG_LINE_SIZE_MAX);
	} else {
		mg_set_line_size(size);
		mg_cmd_status("ok");
	}
	mg_unlock();
	return ret ?: count;
}

static ssize_t hold_priority_show(struct kobject *kobj,
				  struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mg_config.hold_priority));
}

static ssize_t hold_priority_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	u32 prio;
	int ret = kstrtou32(buf, 10, &prio);

	if (!ret)
		ret = mg_hold_priority_check(prio);
	mg_lock();
	if (ret) {
		mg_cmd_status("hold_priority: expected a SCHED_FIFO priority, %u..%u",
			      MG_HOLD_PRIO_MIN, MG_HOLD_PRIO_MAX);
	} else {
		ret = mg_set_hold_priority(prio);
		if (ret)
			mg_cmd_status("hold_priority: %pe; old kept",
				      ERR_PTR(ret));
		else
			mg_cmd_status("ok");
	}
	mg_unlock();
	return ret ?: count;
}

static ssize_t mg_event_show(enum mg_slot slot, char *buf)
{
	char name[48];

	mutex_lock(&mg_config_lock);
	mg_event_format(&mg_config.event[slot], name, sizeof(name));
	mutex_unlock(&mg_config_lock);
	return sysfs_emit(buf, "%s\n", name);
}

static ssize_t mg_event_store(enum mg_slot slot, const char *buf, size_t count)
{
	struct mg_event_spec spec;
	unsigned int cpu = 0;
	char *in = mg_input(buf, count);
	int ret;

	if (!in)
		return -ENOMEM;
	ret = mg_event_parse(in, &spec);
	mg_lock();
	if (ret == -ERANGE) {
		mg_cmd_status("%s_event: '%.40s': raw event number above 64 bits",
			      mg_slot_name[slot], in);
	} else if (ret) {
		mg_cmd_status("%s_event: '%.40s' is not an event (name, raw:N, sw:NAME or none)",
			      mg_slot_name[slot], in);
	} else {
		ret = mg_set_event(slot, &spec, &cpu);
		if (ret)
			mg_cmd_status("%s_event: %.40s: counter on CPU%u failed: %pe; old kept",
				      mg_slot_name[slot], in, cpu, ERR_PTR(ret));
		else
			mg_cmd_status("ok");
	}
	mg_unlock();
	kfree(in);
	return ret ?: count;
}

static ssize_t read_event_show(struct kobject *kobj, struct kobj_attribute *attr,
			       char *buf)
{
	return mg_event_show(MG_READ, buf);
}

static ssize_t read_event_store(struct kobject *kobj, struct kobj_attribute *attr,
				const char *buf, size_t count)
{
	return mg_event_store(MG_READ, buf, count);
}

static ssize_t write_event_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return mg_event_show(MG_WRITE, buf);
}

static ssize_t write_event_store(struct kobject *kobj,
				 struct kobj_attribute *attr, const char *buf,
				 size_t count)
{
	return mg_event_store(MG_WRITE, buf, count);
}

static bool mg_same_budgets(unsigned int a, unsigned int b)
{
	struct mg_cpu *ma = per_cpu_ptr(&mg_cpus, a);
	struct mg_cpu *mb = per_cpu_ptr(&mg_cpus, b);
	int s;

	for (s = 0; s < MG_NR_SLOTS; s++)
		if (ma->budget[s].kind != mb->budget[s].kind ||
		    ma->budget[s].value != mb->budget[s].value)
			return false;
	return true;
}

/* Groups of CPUs with equal budgets, in the syntax the file accepts. */
static ssize_t budgets_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	char r[32], w[32];
	cpumask_var_t left, group;
	unsigned int cpu, other;
	int len = 0;

	if (!zalloc_cpumask_var(&left, GFP_KERNEL))
		return -ENOMEM;
	if (!zalloc_cpumask_var(&group, GFP_KERNEL)) {
		free_cpumask_var(left);
		return -ENOMEM;
	}
	mutex_lock(&mg_config_lock);
	cpumask_copy(left, cpu_possible_mask);
	while ((cpu = cpumask_first(left)) < nr_cpu_ids) {
		struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

		cpumask_clear(group);
		for_each_cpu(other, left)
			if (mg_same_budgets(cpu, other))
				cpumask_set_cpu(other, group);
		cpumask_andnot(left, left, group);
		mg_budget_format(&mc->budget[MG_READ], r, sizeof(r));
		mg_budget_format(&mc->budget[MG_WRITE], w, sizeof(w));
		len += sysfs_emit_at(buf, len, "%s%*pbl:%s,%s", len ? " " : "",
				     cpumask_pr_args(group), r, w);
	}
	mutex_unlock(&mg_config_lock);
	len += sysfs_emit_at(buf, len, "\n");
	free_cpumask_var(group);
	free_cpumask_var(left);
	return len;
}

static ssize_t budgets_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	char *in = mg_input(buf, count);
	const char *why;
	int ret;

	if (!in)
		return -ENOMEM;
	mg_lock();
	ret = mg_set_budget_list(in, cpu_online_mask, &why);
	if (ret)
		mg_cmd_status("budgets: %s", why);
	else
		mg_cmd_status("ok");
	mg_unlock();
	kfree(in);
	return ret ?: count;
}

static ssize_t critical_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	cpumask_var_t mask;
	unsigned int cpu;
	ssize_t len;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	mutex_lock(&mg_config_lock);
	for_each_possible_cpu(cpu)
		if (per_cpu_ptr(&mg_cpus, cpu)->critical)
			cpumask_set_cpu(cpu, mask);
	mutex_unlock(&mg_config_lock);
	len = sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(mask));
	free_cpumask_var(mask);
	return len;
}

/* The listed online CPUs become critical, the other online CPUs do not. */
static ssize_t critical_store(struct kobject *kobj, struct kobj_attribute *attr,
			      const char *buf, size_t count)
{
	cpumask_var_t mask;
	unsigned int cpu;
	char *in;
	int ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	in = mg_input(buf, count);
	if (!in) {
		free_cpumask_var(mask);
		return -ENOMEM;
	}
	ret = mg_cpulist_parse(in, mask);
	/* Only "" or a lone newline clears: ",", " " are no empty list. */
	if (!ret && *in && cpumask_empty(mask))
		ret = -EINVAL;
	mg_lock();
	if (!ret)
		ret = mg_check_cpus(mask, cpu_online_mask);
	if (ret) {
		mg_cmd_status("critical: %s",
			      ret == -ENODEV ? "CPU offline" :
			      ret == -ERANGE ? "no such CPU" : "bad CPU list");
	} else {
		for_each_online_cpu(cpu)
			mg_set_critical(cpu, cpumask_test_cpu(cpu, mask));
		mg_cmd_status("ok");
	}
	mg_unlock();
	kfree(in);
	free_cpumask_var(mask);
	return ret ?: count;
}

static ssize_t reset_stats_store(struct kobject *kobj,
				 struct kobj_attribute *attr, const char *buf,
				 size_t count)
{
	unsigned int cpu;
	bool reset;
	int ret = cg_user_bool(buf, count, &reset);

	if (!ret && !reset)
		ret = -EINVAL;
	mg_lock();
	if (ret) {
		mg_cmd_status("reset_stats: write 1");
	} else {
		for_each_possible_cpu(cpu)
			mg_reset_stats(cpu);
		mg_cmd_status("ok");
	}
	mg_unlock();
	return ret ?: count;
}

static struct kobj_attribute mg_attr_status = __ATTR_RO(status);
static struct kobj_attribute mg_attr_last_cmd_status = __ATTR_RO(last_cmd_status);
static struct kobj_attribute mg_attr_enable = __ATTR_RW(enable);
static struct kobj_attribute mg_attr_reclaim = __ATTR_RW(reclaim);
static struct kobj_attribute mg_attr_period_us = __ATTR_RW(period_us);
static struct kobj_attribute mg_attr_line_size = __ATTR_RW(line_size);
static struct kobj_attribute mg_attr_hold_priority = __ATTR_RW(hold_priority);
static struct kobj_attribute mg_attr_read_event = __ATTR_RW(read_event);
static struct kobj_attribute mg_attr_write_event = __ATTR_RW(write_event);
static struct kobj_attribute mg_attr_budgets = __ATTR_RW(budgets);
static struct kobj_attribute mg_attr_critical = __ATTR_RW(critical);
static struct kobj_attribute mg_attr_reset_stats = __ATTR_WO(reset_stats);

static struct attribute *mg_attrs[] = {
	&mg_attr_status.attr,
	&mg_attr_last_cmd_status.attr,
	&mg_attr_enable.attr,
	&mg_attr_reclaim.attr,
	&mg_attr_period_us.attr,
	&mg_attr_line_size.attr,
	&mg_attr_hold_priority.attr,
	&mg_attr_read_event.attr,
	&mg_attr_write_event.attr,
	&mg_attr_budgets.attr,
	&mg_attr_critical.attr,
	&mg_attr_reset_stats.attr,
	NULL,
};

static const struct attribute_group mg_group = {
	.attrs = mg_attrs,
};

/* Per-CPU files */

static unsigned int mg_kobj_cpu(struct kobject *kobj)
{
	return container_of(kobj, struct mg_cpu_kobj, kobj)->cpu;
}

static ssize_t mg_attr_show(struct kobject *kobj, struct attribute *attr,
			    char *buf)
{
	struct kobj_attribute *ka = container_of(attr, struct kobj_attribute, attr);

	return ka->show ? ka->show(kobj, ka, buf) : -EIO;
}

/*
 * Every store of /sys/kernel/memguard/ and its cpuN/ folders comes through
 * here, so no file can miss the rule of <colorguard/user_text.h> (length,
 * NUL, one line).
 */
static ssize_t mg_attr_store(struct kobject *kobj, struct attribute *attr,
			     const char *buf, size_t count)
{
	struct kobj_attribute *ka = container_of(attr, struct kobj_attribute, attr);
	char dir[16] = "";
	const char *why;
	int ret;

	if (!ka->store)
		return -EIO;
	ret = cg_user_text_check(buf, count, CG_SYSFS_TEXT_MAX, &why);
	if (!ret)
		return ka->store(kobj, ka, buf, count);
	if (kobj != mg_kobj)
		snprintf(dir, sizeof(dir), "cpu%u/", mg_kobj_cpu(kobj));
	mutex_lock(&mg_config_lock);
	if (ret == -E2BIG)
		mg_cmd_status("%s%s: write longer than %lu bytes", dir,
			      attr->name, CG_SYSFS_TEXT_MAX);
	else
		mg_cmd_status("%s%s: %s", dir, attr->name, why);
	mutex_unlock(&mg_config_lock);
	return ret;
}

static const struct sysfs_ops mg_sysfs_ops = {
	.show = mg_attr_show,
	.store = mg_attr_store,
};

static void mg_kobj_release(struct kobject *kobj)
{
	kfree(kobj);
}

static const struct kobj_type mg_ktype = {
	.release = mg_kobj_release,
	.sysfs_ops = &mg_sysfs_ops,
};

static ssize_t mg_budget_show(struct kobject *kobj, enum mg_slot slot,
			      char *buf)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, mg_kobj_cpu(kobj));
	char text[32];

	mutex_lock(&mg_config_lock);
	mg_budget_format(&mc->budget[slot], text, sizeof(text));
	mutex_unlock(&mg_config_lock);
	return sysfs_emit(buf, "%s\n", text);
}

static ssize_t mg_budget_store(struct kobject *kobj, enum mg_slot slot,
			       const char *buf, size_t count)
{
	unsigned int cpu = mg_kobj_cpu(kobj);
	struct mg_budget budget;
	char *in = mg_input(buf, count);
	int ret;

	if (!in)
		return -ENOMEM;
	ret = mg_budget_parse(in, &budget);
	mg_lock();
	if (!ret && !cpu_online(cpu))
		ret = -ENODEV;
	if (ret == -ENODEV)
		mg_cmd_status("cpu%u/%s_budget: CPU offline", cpu,
			      mg_slot_name[slot]);
	else if (ret == -ERANGE)
		mg_cmd_status("cpu%u/%s_budget: out of range (MB/s 1..1000000, events 1..2^48)",
			      cpu, mg_slot_name[slot]);
	else if (ret)
		mg_cmd_status("cpu%u/%s_budget: '%.40s' is not MB/s, events:N or unlimited",
			      cpu, mg_slot_name[slot], in);
	if (!ret) {
		mg_set_budget(cpu, slot, &budget);
		mg_cmd_status("ok");
	}
	mg_unlock();
	kfree(in);
	return ret ?: count;
}

static ssize_t mg_budget_events_show(struct kobject *kobj, enum mg_slot slot,
				     char *buf)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, mg_kobj_cpu(kobj));
	u64 events;

	mutex_lock(&mg_config_lock);
	events = mg_budget_events(&mc->budget[slot], mg_config.period_us,
				  mg_config.line_size);
	mutex_unlock(&mg_config_lock);
	if (events == MG_UNLIMITED)
		return sysfs_emit(buf, "unlimited\n");
	return sysfs_emit(buf, "%llu\n", events);
}

static ssize_t read_budget_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return mg_budget_show(kobj, MG_READ, buf);
}

static ssize_t read_budget_store(struct kobject *kobj,
				 struct kobj_attribute *attr, const char *buf,
				 size_t count)
{
	return mg_budget_store(kobj, MG_READ, buf, count);
}

static ssize_t write_budget_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return mg_budget_show(kobj, MG_WRITE, buf);
}

static ssize_t write_budget_store(struct kobject *kobj,
				  struct kobj_attribute *attr, const char *buf,
				  size_t count)
{
	return mg_budget_store(kobj, MG_WRITE, buf, count);
}

static ssize_t read_budget_events_show(struct kobject *kobj,
				       struct kobj_attribute *attr, char *buf)
{
	return mg_budget_events_show(kobj, MG_READ, buf);
}

static ssize_t write_budget_events_show(struct kobject *kobj,
					struct kobj_attribute *attr, char *buf)
{
	return mg_budget_events_show(kobj, MG_WRITE, buf);
}

static ssize_t cpu_critical_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, mg_kobj_cpu(kobj));

	return sysfs_emit(buf, "%d\n", READ_ONCE(mc->critical));
}

static ssize_t cpu_critical_store(struct kobject *kobj,
				  struct kobj_attribute *attr, const char *buf,
				  size_t count)
{
	unsigned int cpu = mg_kobj_cpu(kobj);
	bool crit;
	int ret = cg_user_bool(buf, count, &crit);

	mg_lock();
	if (!ret && !cpu_online(cpu))
		ret = -ENODEV;
	if (ret) {
		mg_cmd_status("cpu%u/critical: %s", cpu,
			      ret == -ENODEV ? "CPU offline" : "expected 0 or 1");
	} else {
		mg_set_critical(cpu, crit);
		mg_cmd_status("ok");
	}
	mg_unlock();
	return ret ?: count;
}

static ssize_t armed_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, mg_kobj_cpu(kobj));

	return sysfs_emit(buf, "%d\n", READ_ONCE(mc->armed));
}

static struct kobj_attribute mg_attr_read_budget = __ATTR_RW(read_budget);
static struct kobj_attribute mg_attr_write_budget = __ATTR_RW(write_budget);
static struct kobj_attribute mg_attr_read_budget_events =
	__ATTR_RO(read_budget_events);
static struct kobj_attribute mg_attr_write_budget_events =
	__ATTR_RO(write_budget_events);
static struct kobj_attribute mg_attr_cpu_critical =
	__ATTR(critical, 0644, cpu_critical_show, cpu_critical_store);
static struct kobj_attribute mg_attr_armed = __ATTR_RO(armed);

struct mg_stat_attr {
	struct kobj_attribute attr;
	size_t offset;
};

static ssize_t mg_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, mg_kobj_cpu(kobj));
	size_t off = container_of(attr, struct mg_stat_attr, attr)->offset;

	return sysfs_emit(buf, "%llu\n",
			  READ_ONCE(*(u64 *)((char *)&mc->stats + off)));
}

#define MG_STAT(_name, _field)						\
	static struct mg_stat_attr mg_stat_##_name = {			\
		.attr = __ATTR(_name, 0444, mg_stat_show, NULL),	\
		.offset = offsetof(struct mg_stats, _field),		\
	}

MG_STAT(periods, periods);
MG_STAT(throttled_periods, throttled_periods);
MG_STAT(throttled_ns, throttled_ns);
MG_STAT(read_used_last, used_last[MG_READ]);
MG_STAT(write_used_last, used_last[MG_WRITE]);
MG_STAT(read_used_avg, used_avg[MG_READ]);
MG_STAT(write_used_avg, used_avg[MG_WRITE]);
MG_STAT(read_worst_overshoot, worst_overshoot[MG_READ]);
MG_STAT(write_worst_overshoot, worst_overshoot[MG_WRITE]);
MG_STAT(spurious_overflows, spurious_overflows);
MG_STAT(late_boundaries, late_boundaries);
MG_STAT(reclaim_donated, reclaim_donated);
MG_STAT(reclaim_taken, reclaim_taken);
MG_STAT(reclaim_mispredictions, reclaim_mispredictions);
MG_STAT(boundary_ns_total, boundary_ns_total);
MG_STAT(boundary_ns_max, boundary_ns_max);
MG_STAT(boundary_latency_ns_max, boundary_latency_ns_max);

static struct attribute *mg_cpu_attrs[] = {
	&mg_attr_read_budget.attr,
	&mg_attr_write_budget.attr,
	&mg_attr_read_budget_events.attr,
	&mg_attr_write_budget_events.attr,
	&mg_attr_cpu_critical.attr,
	&mg_attr_armed.attr,
	&mg_stat_periods.attr.attr,
	&mg_stat_throttled_periods.attr.attr,
	&mg_stat_throttled_ns.attr.attr,
	&mg_stat_read_used_last.attr.attr,
	&mg_stat_write_used_last.attr.attr,
	&mg_stat_read_used_avg.attr.attr,
	&mg_stat_write_used_avg.attr.attr,
	&mg_stat_read_worst_overshoot.attr.attr,
	&mg_stat_write_worst_overshoot.attr.attr,
	&mg_stat_spurious_overflows.attr.attr,
	&mg_stat_late_boundaries.attr.attr,
	&mg_stat_reclaim_donated.attr.attr,
	&mg_stat_reclaim_taken.attr.attr,
	&mg_stat_reclaim_mispredictions.attr.attr,
	&mg_stat_boundary_ns_total.attr.attr,
	&mg_stat_boundary_ns_max.attr.attr,
	&mg_stat_boundary_latency_ns_max.attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(mg_cpu);

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
		sysfs_remove_group(mg_kobj, &mg_group);
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
		ret = sysfs_create_group(mg_kobj, &mg_group);
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
