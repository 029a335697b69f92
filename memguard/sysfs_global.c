// SPDX-License-Identifier: GPL-2.0
/*
 * The files of /sys/kernel/memguard/ itself: status, the switches, the
 * period, line size, holder priority, the bandwidth lock's maximum hold
 * time, the two events, the budget list, the critical CPUs,
 * reset_stats and monitor (the bandwidth lock's folder bwlock/ is
 * sysfs_bwlock.c's). Each is a show, a parse and an apply;
 * sysfs.c runs them (struct mg_file in sysfs.h).
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/slab.h>

#include "sysfs.h"

/* The first line says whether memguard regulates; then every problem. */
static ssize_t mg_status_show(const struct mg_file *file, unsigned int unused,
			      char *buf)
{
	struct mg_bwlock_state bw;
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
		len += sysfs_emit_at(buf, len, "enabled: %s CPUs ",
				     mg_config.monitor ? "monitoring" :
							 "regulating");
		for_each_online_cpu(cpu)
			if (per_cpu_ptr(&mg_cpus, cpu)->armed)
				len += sysfs_emit_at(buf, len, "%u ", cpu);
		len--;
		len += sysfs_emit_at(buf, len, "%s\n", mg_config.monitor ?
				     " (monitor mode: no CPU is held)" : "");
	}
	mg_bwlock_state(&bw);
	if (bw.holders) {
		len += sysfs_emit_at(buf, len,
				     "bandwidth lock held: %u acquisitions, %u per mille of budgets",
				     bw.holders, bw.permille);
		if (bw.mbps)
			len += sysfs_emit_at(buf, len, ", at most %llu MB/s",
					     bw.mbps);
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

		if (READ_ONCE(mc->stats.stalled_periods))
			len += sysfs_emit_at(buf, len,
					     "cpu%u: a counter stalled in %llu periods and was restarted (trace event memguard_stalled)\n",
					     cpu, READ_ONCE(mc->stats.stalled_periods));
		/* A late holder thread misses holds: never silently. */
		if (READ_ONCE(mc->stats.late_boundaries))
			len += sysfs_emit_at(buf, len,
					     "cpu%u: %llu of %llu period ends handled more than a period late (its holder thread could not run): holds may have been missed then\n",
					     cpu, READ_ONCE(mc->stats.late_boundaries),
					     READ_ONCE(mc->stats.periods));
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

static ssize_t mg_enable_show(const struct mg_file *file, unsigned int unused,
			      char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(mg_config.enabled));
}

static int mg_enable_apply(struct mg_write *w)
{
	mg_set_enabled(w->val.on);
	return 0;
}

static ssize_t mg_reclaim_show(const struct mg_file *file, unsigned int unused,
			       char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(mg_config.reclaim));
}

static int mg_reclaim_apply(struct mg_write *w)
{
	mg_set_reclaim(w->val.on);
	return 0;
}

static ssize_t mg_monitor_show(const struct mg_file *file, unsigned int unused,
			       char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(mg_config.monitor));
}

static int mg_monitor_apply(struct mg_write *w)
{
	mg_set_monitor(w->val.on);
	return 0;
}

static ssize_t mg_period_us_show(const struct mg_file *file,
				 unsigned int unused, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mg_config.period_us));
}

static int mg_period_us_parse(struct mg_write *w)
{
	int ret = kstrtou32(w->in, 10, &w->val.num);

	if (!ret)
		ret = mg_period_us_check(w->val.num);
	if (ret)
		mg_why(w, "expected %u..%u microseconds", CG_PERIOD_US_MIN,
		       CG_PERIOD_US_MAX);
	return ret;
}

static int mg_period_us_apply(struct mg_write *w)
{
	mg_set_period(w->val.num);
	return 0;
}

static ssize_t mg_line_size_show(const struct mg_file *file,
				 unsigned int unused, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mg_config.line_size));
}

static int mg_line_size_parse(struct mg_write *w)
{
	int ret = kstrtou32(w->in, 10, &w->val.num);

	if (!ret)
		ret = mg_line_size_check(w->val.num);
	if (ret)
		mg_why(w, "expected a power of two, %u..%u bytes",
		       CG_LINE_SIZE_MIN, CG_LINE_SIZE_MAX);
	return ret;
}

static int mg_line_size_apply(struct mg_write *w)
{
	mg_set_line_size(w->val.num);
	return 0;
}

static ssize_t mg_bwlock_max_hold_show(const struct mg_file *file,
				       unsigned int unused, char *buf)
{
	return sysfs_emit(buf, "%u\n", mg_bwlock_max_hold());
}

static int mg_bwlock_max_hold_parse(struct mg_write *w)
{
	int ret = kstrtou32(w->in, 10, &w->val.num);

	if (!ret)
		ret = mg_bwlock_max_hold_check(w->val.num);
	if (ret)
		mg_why(w, "expected %u..%u milliseconds",
		       MG_BWLOCK_MAX_HOLD_MS_MIN, MG_BWLOCK_MAX_HOLD_MS_MAX);
	return ret;
}

static int mg_bwlock_max_hold_apply(struct mg_write *w)
{
	mg_bwlock_set_max_hold(w->val.num);
	return 0;
}

static ssize_t mg_hold_priority_show(const struct mg_file *file,
				     unsigned int unused, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mg_config.hold_priority));
}

static int mg_hold_priority_parse(struct mg_write *w)
{
	int ret = kstrtou32(w->in, 10, &w->val.num);

	if (!ret)
		ret = mg_hold_priority_check(w->val.num);
	if (ret)
		mg_why(w, "expected a SCHED_FIFO priority, %u..%u",
		       MG_HOLD_PRIO_MIN, MG_HOLD_PRIO_MAX);
	return ret;
}

static int mg_hold_priority_apply(struct mg_write *w)
{
	int ret = mg_set_hold_priority(w->val.num);

	if (ret)
		mg_why(w, "%pe; old kept", ERR_PTR(ret));
	return ret;
}

static ssize_t mg_event_show(const struct mg_file *file, unsigned int unused,
			     char *buf)
{
	char name[48];

	mutex_lock(&mg_config_lock);
	mg_event_format(&mg_config.event[file->slot], name, sizeof(name));
	mutex_unlock(&mg_config_lock);
	return sysfs_emit(buf, "%s\n", name);
}

static int mg_event_parse_write(struct mg_write *w)
{
	int ret = mg_event_parse(w->in, &w->val.event);

	if (ret == -ERANGE)
		mg_why(w, "'%.40s': raw event number above 64 bits", w->in);
	else if (ret)
		mg_why(w, "'%.40s' is not an event (name, raw:N, sw:NAME or none)",
		       w->in);
	return ret;
}

/* Counters on every online CPU, or the old ones kept. */
static int mg_event_apply(struct mg_write *w)
{
	unsigned int cpu = 0;
	int ret = mg_set_event(w->slot, &w->val.event, &cpu);

	if (ret)
		mg_why(w, "%.40s: counter on CPU%u failed: %pe; old kept",
		       w->in, cpu, ERR_PTR(ret));
	return ret;
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
static ssize_t mg_budgets_show(const struct mg_file *file, unsigned int unused,
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

/* Checked against the online CPUs under the lock, so parsed there too. */
static int mg_budgets_apply(struct mg_write *w)
{
	const char *why = NULL;
	int ret = mg_set_budget_list(w->in, cpu_online_mask, &why);

	if (ret && why)
		mg_why(w, "%s", why);
	return ret;
}

static ssize_t mg_critical_show(const struct mg_file *file,
				unsigned int unused, char *buf)
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

static int mg_critical_parse(struct mg_write *w)
{
	int ret;

	if (!zalloc_cpumask_var(&w->cpus, GFP_KERNEL))
		return -ENOMEM;
	ret = mg_cpulist_parse(w->in, w->cpus);
	/* Only "" or a lone newline clears: ",", " " are no empty list. */
	if (!ret && *w->in && cpumask_empty(w->cpus))
		ret = -EINVAL;
	if (ret)
		mg_why(w, ret == -ERANGE ? "no such CPU" : "bad CPU list");
	return ret;
}

/* The listed online CPUs become critical, the other online CPUs do not. */
static int mg_critical_apply(struct mg_write *w)
{
	unsigned int cpu;
	int ret = mg_check_cpus(w->cpus, cpu_online_mask);

	if (ret) {
		mg_why(w, ret == -ENODEV ? "CPU offline" : "no such CPU");
		return ret;
	}
	for_each_online_cpu(cpu)
		mg_set_critical(cpu, cpumask_test_cpu(cpu, w->cpus));
	return 0;
}

static int mg_reset_stats_parse(struct mg_write *w)
{
	int ret = cg_user_bool(w->in, strlen(w->in), &w->val.on);

	if (!ret && !w->val.on)
		ret = -EINVAL;
	if (ret)
		mg_why(w, "write 1");
	return ret;
}

static int mg_reset_stats_apply(struct mg_write *w)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		mg_reset_stats(cpu);
	return 0;
}

MG_FILE_RO(mg_file_status, "status", MG_READ, mg_status_show);
MG_FILE_RW(mg_file_enable, "enable", MG_READ, mg_enable_show,
	   mg_parse_bool, mg_enable_apply);
MG_FILE_RW(mg_file_reclaim, "reclaim", MG_READ, mg_reclaim_show,
	   mg_parse_bool, mg_reclaim_apply);
MG_FILE_RW(mg_file_monitor, "monitor", MG_READ, mg_monitor_show,
	   mg_parse_bool, mg_monitor_apply);
MG_FILE_RW(mg_file_period_us, "period_us", MG_READ, mg_period_us_show,
	   mg_period_us_parse, mg_period_us_apply);
MG_FILE_RW(mg_file_line_size, "line_size", MG_READ, mg_line_size_show,
	   mg_line_size_parse, mg_line_size_apply);
MG_FILE_RW(mg_file_hold_priority, "hold_priority", MG_READ,
	   mg_hold_priority_show, mg_hold_priority_parse,
	   mg_hold_priority_apply);
MG_FILE_RW(mg_file_bwlock_max_hold, "bwlock_max_hold_ms", MG_READ,
	   mg_bwlock_max_hold_show, mg_bwlock_max_hold_parse,
	   mg_bwlock_max_hold_apply);
MG_FILE_RW(mg_file_read_event, "read_event", MG_READ, mg_event_show,
	   mg_event_parse_write, mg_event_apply);
MG_FILE_RW(mg_file_write_event, "write_event", MG_WRITE, mg_event_show,
	   mg_event_parse_write, mg_event_apply);
MG_FILE_RW(mg_file_budgets, "budgets", MG_READ, mg_budgets_show,
	   NULL, mg_budgets_apply);
MG_FILE_RW(mg_file_critical, "critical", MG_READ, mg_critical_show,
	   mg_critical_parse, mg_critical_apply);
MG_FILE(mg_file_reset_stats, "reset_stats", 0200, MG_READ, NULL,
	mg_reset_stats_parse, mg_reset_stats_apply);

static struct attribute *mg_global_attrs[] = {
	&mg_file_status.attr,
	&mg_file_enable.attr,
	&mg_file_reclaim.attr,
	&mg_file_monitor.attr,
	&mg_file_period_us.attr,
	&mg_file_line_size.attr,
	&mg_file_hold_priority.attr,
	&mg_file_bwlock_max_hold.attr,
	&mg_file_read_event.attr,
	&mg_file_write_event.attr,
	&mg_file_budgets.attr,
	&mg_file_critical.attr,
	&mg_file_reset_stats.attr,
	NULL,
};

const struct attribute_group mg_global_group = {
	.attrs = mg_global_attrs,
};
