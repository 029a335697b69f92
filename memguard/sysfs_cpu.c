// SPDX-License-Identifier: GPL-2.0
/*
 * The files of /sys/kernel/memguard/cpuN/: a CPU's budgets, whether it is
 * critical or armed, and its statistics. Each is a show and, if writable,
 * a parse and an apply; sysfs.c runs them (struct mg_file in sysfs.h).
 */
#include <linux/cpumask.h>
#include <linux/stddef.h>

#include "sysfs.h"

static ssize_t mg_budget_show(const struct mg_file *file, unsigned int cpu,
			      char *buf)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);
	char text[32];

	mutex_lock(&mg_config_lock);
	mg_budget_format(&mc->budget[file->slot], text, sizeof(text));
	mutex_unlock(&mg_config_lock);
	return sysfs_emit(buf, "%s\n", text);
}

static int mg_budget_parse_write(struct mg_write *w)
{
	int ret = mg_budget_parse(w->in, &w->val.budget);

	if (ret == -ERANGE)
		mg_why(w, "out of range (MB/s 1..1000000, events 1..2^48)");
	else if (ret)
		mg_why(w, "'%.40s' is not MB/s, events:N or unlimited", w->in);
	return ret;
}

/* Per-CPU settings apply to online CPUs only. */
static int mg_cpu_online_check(struct mg_write *w)
{
	if (cpu_online(w->cpu))
		return 0;
	mg_why(w, "CPU offline");
	return -ENODEV;
}

static int mg_budget_apply(struct mg_write *w)
{
	int ret = mg_cpu_online_check(w);

	if (!ret)
		mg_set_budget(w->cpu, w->slot, &w->val.budget);
	return ret;
}

/* The budget in events per period, with the current period and line. */
static ssize_t mg_budget_events_show(const struct mg_file *file,
				     unsigned int cpu, char *buf)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);
	u64 events;

	mutex_lock(&mg_config_lock);
	events = mg_budget_events(&mc->budget[file->slot], mg_config.period_us,
				  mg_config.line_size);
	mutex_unlock(&mg_config_lock);
	if (events == MG_UNLIMITED)
		return sysfs_emit(buf, "unlimited\n");
	return sysfs_emit(buf, "%llu\n", events);
}

static ssize_t mg_cpu_critical_show(const struct mg_file *file,
				    unsigned int cpu, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(per_cpu_ptr(&mg_cpus, cpu)->critical));
}

static int mg_cpu_critical_apply(struct mg_write *w)
{
	int ret = mg_cpu_online_check(w);

	if (!ret)
		mg_set_critical(w->cpu, w->val.on);
	return ret;
}

static ssize_t mg_armed_show(const struct mg_file *file, unsigned int cpu,
			     char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(per_cpu_ptr(&mg_cpus, cpu)->armed));
}

MG_FILE_RW(mg_file_read_budget, "read_budget", MG_READ, mg_budget_show,
	   mg_budget_parse_write, mg_budget_apply);
MG_FILE_RW(mg_file_write_budget, "write_budget", MG_WRITE, mg_budget_show,
	   mg_budget_parse_write, mg_budget_apply);
MG_FILE_RO(mg_file_read_budget_events, "read_budget_events", MG_READ,
	   mg_budget_events_show);
MG_FILE_RO(mg_file_write_budget_events, "write_budget_events", MG_WRITE,
	   mg_budget_events_show);
MG_FILE_RW(mg_file_cpu_critical, "critical", MG_READ, mg_cpu_critical_show,
	   mg_parse_bool, mg_cpu_critical_apply);
MG_FILE_RO(mg_file_armed, "armed", MG_READ, mg_armed_show);

/* Statistics: one u64 of struct mg_stats each, read without a lock. */
static ssize_t mg_stat_show(const struct mg_file *file, unsigned int cpu,
			    char *buf)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

	return sysfs_emit(buf, "%llu\n",
			  READ_ONCE(*(u64 *)((char *)&mc->stats + file->stat)));
}

#define MG_STAT(_name, _field)						\
	static struct mg_file mg_stat_##_name = {			\
		.attr = { .name = #_name, .mode = 0444 },		\
		.show = mg_stat_show,					\
		.stat = offsetof(struct mg_stats, _field),		\
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
MG_STAT(hold_delay_ns_max, hold_delay_ns_max);
MG_STAT(hold_delay_ns_total, hold_delay_ns_total);
MG_STAT(idle_holds, idle_holds);
MG_STAT(stalled_periods, stalled_periods);
MG_STAT(points_kept, points_kept);

/* The overflow-to-hold histogram: MG_DELAY_BUCKETS counts on one line. */
static ssize_t mg_hold_delay_hist_show(const struct mg_file *file,
				       unsigned int cpu, char *buf)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);
	ssize_t len = 0;
	int b;

	for (b = 0; b < MG_DELAY_BUCKETS; b++)
		len += sysfs_emit_at(buf, len, "%s%llu", b ? " " : "",
				     READ_ONCE(mc->stats.hold_delay_hist[b]));
	return len + sysfs_emit_at(buf, len, "\n");
}

MG_FILE_RO(mg_file_hold_delay_hist, "hold_delay_hist", MG_READ,
	   mg_hold_delay_hist_show);

static struct attribute *mg_cpu_attrs[] = {
	&mg_file_read_budget.attr,
	&mg_file_write_budget.attr,
	&mg_file_read_budget_events.attr,
	&mg_file_write_budget_events.attr,
	&mg_file_cpu_critical.attr,
	&mg_file_armed.attr,
	&mg_stat_periods.attr,
	&mg_stat_throttled_periods.attr,
	&mg_stat_throttled_ns.attr,
	&mg_stat_read_used_last.attr,
	&mg_stat_write_used_last.attr,
	&mg_stat_read_used_avg.attr,
	&mg_stat_write_used_avg.attr,
	&mg_stat_read_worst_overshoot.attr,
	&mg_stat_write_worst_overshoot.attr,
	&mg_stat_spurious_overflows.attr,
	&mg_stat_late_boundaries.attr,
	&mg_stat_reclaim_donated.attr,
	&mg_stat_reclaim_taken.attr,
	&mg_stat_reclaim_mispredictions.attr,
	&mg_stat_boundary_ns_total.attr,
	&mg_stat_boundary_ns_max.attr,
	&mg_stat_boundary_latency_ns_max.attr,
	&mg_stat_hold_delay_ns_max.attr,
	&mg_stat_hold_delay_ns_total.attr,
	&mg_file_hold_delay_hist.attr,
	&mg_stat_idle_holds.attr,
	&mg_stat_stalled_periods.attr,
	&mg_stat_points_kept.attr,
	NULL,
};

static const struct attribute_group mg_cpu_group = {
	.attrs = mg_cpu_attrs,
};

const struct attribute_group *mg_cpu_groups[] = {
	&mg_cpu_group,
	NULL,
};
