// SPDX-License-Identifier: GPL-2.0
/*
 * Changing memguard's configuration: the setters that the load parameters
 * (main.c) and the sysfs files use, each applied to every CPU concerned,
 * and the CPU-list checks they share. A setter that can fail leaves the
 * old configuration in place. Callers hold mg_lock() unless a setter says
 * otherwise.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "memguard.h"

/**
 * mg_lock() - take the configuration locks: cpus_read_lock(), mg_config_lock
 */
void mg_lock(void)
{
	cpus_read_lock();
	mutex_lock(&mg_config_lock);
}

/**
 * mg_unlock() - release what mg_lock() took
 */
void mg_unlock(void)
{
	mutex_unlock(&mg_config_lock);
	cpus_read_unlock();
}

/**
 * mg_cpulist_parse() - cpulist_parse() with -ERANGE for a CPU too large
 * @str: a CPU list
 * @mask: the result
 *
 * Return: 0, -ERANGE (cpulist_parse()'s -EOVERFLOW), or -EINVAL.
 */
int mg_cpulist_parse(const char *str, struct cpumask *mask)
{
	int ret = cpulist_parse(str, mask);

	return ret == -EOVERFLOW ? -ERANGE : ret;
}

/**
 * mg_check_cpus() - are these CPUs among the allowed ones?
 * @mask: the CPUs
 * @allowed: cpu_online_mask (sysfs) or cpu_possible_mask (load)
 *
 * Return: 0, -ERANGE for a CPU that cannot exist, -ENODEV for one that is
 * not in @allowed (offline).
 */
int mg_check_cpus(const struct cpumask *mask, const struct cpumask *allowed)
{
	if (!cpumask_subset(mask, cpu_possible_mask))
		return -ERANGE;
	if (!cpumask_subset(mask, allowed))
		return -ENODEV;
	return 0;
}

/**
 * mg_set_event() - replace a slot's event on every online CPU
 * @slot: MG_READ or MG_WRITE
 * @spec: the new event, or "none"
 * @failed_cpu: on failure, the CPU whose counter could not be created
 *
 * The new counters are created on every online CPU first, so a failure
 * leaves the old ones in place.
 *
 * Return: 0, -ENOMEM, or perf_event_create_kernel_counter()'s error.
 */
int mg_set_event(enum mg_slot slot, const struct mg_event_spec *spec,
		 unsigned int *failed_cpu)
{
	struct perf_event **fresh;
	unsigned int cpu;
	int ret = 0;

	fresh = kcalloc(nr_cpu_ids, sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;
	if (!spec->none) {
		for_each_online_cpu(cpu) {
			fresh[cpu] = mg_counter_create(spec, cpu);
			if (IS_ERR(fresh[cpu])) {
				ret = PTR_ERR(fresh[cpu]);
				fresh[cpu] = NULL;
				*failed_cpu = cpu;
				break;
			}
		}
	}
	if (ret) {
		for_each_online_cpu(cpu)
			if (fresh[cpu])
				perf_event_release_kernel(fresh[cpu]);
		kfree(fresh);
		return ret;
	}

	mg_config.event[slot] = *spec;
	mg_config.default_err[slot] = 0;
	for_each_online_cpu(cpu) {
		struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);
		struct perf_event *old;

		mutex_lock(&mc->lock);
		old = mc->event[slot];
		mg_counter_install(mc, slot, fresh[cpu], spec);
		mc->event_err[slot] = 0;
		/* The new counter starts disabled; the resync arms it. */
		mc->fresh = true;
		mg_update_armed(mc, true);
		mutex_unlock(&mc->lock);
		fresh[cpu] = old;
	}
	for_each_online_cpu(cpu)
		if (fresh[cpu])
			perf_event_release_kernel(fresh[cpu]);
	kfree(fresh);
	return 0;
}

/**
 * mg_set_budget() - a CPU's budget of one slot
 * @cpu: the CPU
 * @slot: MG_READ or MG_WRITE
 * @budget: the budget, taking effect from the next period
 *
 * Callers hold mg_config_lock (and cpus_read_lock() after load).
 */
void mg_set_budget(unsigned int cpu, enum mg_slot slot,
		   const struct mg_budget *budget)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

	mutex_lock(&mc->lock);
	mc->budget[slot] = *budget;
	mg_update_armed(mc, false);
	mutex_unlock(&mc->lock);
}

/*
 * One pass over a budget list (parse.c splits and parses it): with @apply
 * false it only checks. CPUs named twice are an error.
 */
static int mg_budget_list_pass(const char *text, const struct cpumask *allowed,
			       bool apply, const char **why)
{
	struct mg_budget b[MG_NR_SLOTS];
	struct mg_budget_entry entry;
	cpumask_var_t mask, seen;
	char *copy, *cursor;
	unsigned int cpu, entries = 0;
	int ret;

	copy = kstrdup(text, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL)) {
		kfree(copy);
		return -ENOMEM;
	}
	if (!zalloc_cpumask_var(&seen, GFP_KERNEL)) {
		free_cpumask_var(mask);
		kfree(copy);
		return -ENOMEM;
	}
	cursor = copy;
	while ((ret = mg_budget_list_next(&cursor, &entry, why)) > 0) {
		entries++;
		ret = mg_cpulist_parse(entry.cpus, mask);
		if (!ret && cpumask_empty(mask))
			ret = -EINVAL;
		if (ret) {
			*why = ret == -ERANGE ? "no such CPU" : "bad CPU list";
			break;
		}
		ret = mg_check_cpus(mask, allowed);
		if (ret) {
			*why = ret == -ENODEV ? "CPU offline" : "no such CPU";
			break;
		}
		if (cpumask_intersects(mask, seen)) {
			*why = "CPU named twice";
			ret = -EINVAL;
			break;
		}
		cpumask_or(seen, seen, mask);
		ret = mg_budget_entry_parse(&entry, b, why);
		if (ret)
			break;
		if (apply)
			for_each_cpu(cpu, mask) {
				mg_set_budget(cpu, MG_READ, &b[MG_READ]);
				mg_set_budget(cpu, MG_WRITE, &b[MG_WRITE]);
			}
	}
	if (!ret && !entries) {
		*why = "nothing to set";
		ret = -EINVAL;
	}
	free_cpumask_var(seen);
	free_cpumask_var(mask);
	kfree(copy);
	return ret;
}

/**
 * mg_set_budget_list() - budgets of several CPUs: "CPUS:READ[,WRITE] ..."
 * @text: the list (WRITE defaults to READ)
 * @allowed: the CPUs that may be named (cpu_online_mask, or
 *	cpu_possible_mask at load)
 * @why: on failure, the reason
 *
 * All or nothing: the whole list is checked before any budget changes.
 * Callers hold mg_config_lock (and cpus_read_lock() after load).
 *
 * Return: 0, -ENOMEM, -EINVAL, -ERANGE, or -ENODEV for an offline CPU.
 */
int mg_set_budget_list(const char *text, const struct cpumask *allowed,
		       const char **why)
{
	int ret = mg_budget_list_pass(text, allowed, false, why);

	if (ret)
		return ret;
	return mg_budget_list_pass(text, allowed, true, why);
}

/**
 * mg_set_critical() - mark a CPU critical (never held) or not
 * @cpu: the CPU
 * @crit: true for critical
 *
 * Callers hold mg_config_lock (and cpus_read_lock() after load).
 */
void mg_set_critical(unsigned int cpu, bool crit)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

	mutex_lock(&mc->lock);
	mc->critical = crit;
	mg_update_armed(mc, false);
	mutex_unlock(&mc->lock);
}

/**
 * mg_set_period() - a new regulation period, from now
 * @us: the period in microseconds, CG_PERIOD_US_MIN to CG_PERIOD_US_MAX
 *
 * A new common period start: every armed CPU re-aligns its timer now.
 */
void mg_set_period(u32 us)
{
	unsigned int cpu;

	mg_config.period_us = us;
	mg_timebase_set(us);
	for_each_online_cpu(cpu) {
		struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

		mutex_lock(&mc->lock);
		if (mc->armed)
			mg_update_armed(mc, true);
		mutex_unlock(&mc->lock);
	}
}

/**
 * mg_set_enabled() - regulation on or off for every CPU
 * @on: true to arm the CPUs that have a budget and are not critical
 */
void mg_set_enabled(bool on)
{
	unsigned int cpu;

	mg_config.enabled = on;
	for_each_online_cpu(cpu) {
		struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

		mutex_lock(&mc->lock);
		mg_update_armed(mc, false);
		mutex_unlock(&mc->lock);
	}
}

/**
 * mg_set_reclaim() - budget reclaim on or off, from the next boundary
 * @on: true to donate predicted unused budget to the shared pool
 */
void mg_set_reclaim(bool on)
{
	WRITE_ONCE(mg_config.reclaim, on);
}

/**
 * mg_set_monitor() - monitor mode on or off for every CPU
 * @on: true to measure every CPU that has a counter and hold none
 *
 * Every online CPU starts a fresh period grid: a CPU that a limited
 * counter was stopping, or that was not counting, is counted whole from
 * the next boundary on.
 */
void mg_set_monitor(bool on)
{
	unsigned int cpu;

	WRITE_ONCE(mg_config.monitor, on);
	for_each_online_cpu(cpu) {
		struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

		mutex_lock(&mc->lock);
		mc->fresh = true;
		mg_update_armed(mc, true);
		mutex_unlock(&mc->lock);
	}
}

/**
 * mg_set_line_size() - bytes per counted event, from the next boundary
 * @size: a power of two, CG_LINE_SIZE_MIN to CG_LINE_SIZE_MAX
 */
void mg_set_line_size(u32 size)
{
	WRITE_ONCE(mg_config.line_size, size);
}

/**
 * mg_set_hold_priority() - change the holder threads' SCHED_FIFO priority
 * @prio: the new priority, MG_HOLD_PRIO_MIN..MG_HOLD_PRIO_MAX
 *
 * Applies at once to the thread of every online CPU, also to one that is
 * holding its CPU (the hold still ends with its period); CPUs coming
 * online later take it too.
 *
 * Return: 0, or the error of sched_setattr_nocheck(), with every thread
 * back at the old priority.
 */
int mg_set_hold_priority(u32 prio)
{
	u32 old = mg_config.hold_priority;
	unsigned int cpu, undo;
	int ret = 0;

	for_each_online_cpu(cpu) {
		ret = mg_thread_set_priority(per_cpu_ptr(&mg_cpus, cpu)->thread,
					     prio);
		if (ret)
			break;
	}
	if (ret) {
		for_each_online_cpu(undo) {
			if (undo == cpu)
				break;
			mg_thread_set_priority(per_cpu_ptr(&mg_cpus, undo)->thread,
					       old);
		}
		return ret;
	}
	mg_config.hold_priority = prio;
	return 0;
}

/**
 * mg_reset_stats() - clear a CPU's statistics
 * @cpu: the CPU
 */
void mg_reset_stats(unsigned int cpu)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

	mutex_lock(&mc->lock);
	memset(&mc->stats, 0, sizeof(mc->stats));
	mutex_unlock(&mc->lock);
}
