// SPDX-License-Identifier: GPL-2.0
/*
 * memguard.ko's load and unload: the module parameters, checked and then
 * applied through config.c, and the order in which the parts start and
 * stop. What memguard does is told in regulate.c; memguard.h lists the
 * files.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/module.h>

#include <colorguard/memguard.h>

#include "memguard.h"

static char *read_event;
module_param(read_event, charp, 0444);
MODULE_PARM_DESC(read_event, "Read (LLC refill) event, e.g. raw:0x17, cycles, sw:cpu-clock; default per arch");
static char *write_event;
module_param(write_event, charp, 0444);
MODULE_PARM_DESC(write_event, "Write (LLC writeback) event or none; default per arch");
static unsigned int period_us = CG_PERIOD_US_DEFAULT;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "Regulation period in microseconds (100..1000000)");
static unsigned int line_size = CG_LINE_SIZE_DEFAULT;
module_param(line_size, uint, 0444);
MODULE_PARM_DESC(line_size, "Bytes per counted event (LLC line size, power of two)");
static char *budgets;
module_param(budgets, charp, 0444);
MODULE_PARM_DESC(budgets, "Budgets as CPUS:READ[,WRITE] ... (MB/s, events:N or unlimited)");
static char *critical;
module_param(critical, charp, 0444);
MODULE_PARM_DESC(critical, "CPU list never throttled, e.g. 0");
static bool reclaim;
module_param(reclaim, bool, 0444);
MODULE_PARM_DESC(reclaim, "Donate predicted unused budget to a shared pool (default off)");
static bool enable = true;
module_param(enable, bool, 0444);
MODULE_PARM_DESC(enable, "Start regulating at load (default on)");
static bool monitor;
module_param(monitor, bool, 0444);
MODULE_PARM_DESC(monitor, "Measure and report every CPU's use, never hold a CPU (default off)");
static unsigned int hold_priority = MG_HOLD_PRIO_DEFAULT;
module_param(hold_priority, uint, 0444);
MODULE_PARM_DESC(hold_priority, "SCHED_FIFO priority of the holder threads (1..99, default 48): RT tasks above it run through holds");
static unsigned int bwlock_max_hold_ms = MG_BWLOCK_MAX_HOLD_MS_DEFAULT;
module_param(bwlock_max_hold_ms, uint, 0444);
MODULE_PARM_DESC(bwlock_max_hold_ms, "Longest hold of the bandwidth lock by one open file, in ms (1..3600000, default 10000)");

/* critical= and budgets=, for any possible CPU; a bad value is logged. */
static int __init mg_params_apply(void)
{
	cpumask_var_t mask;
	const char *why;
	unsigned int cpu;
	int ret = 0;

	mutex_lock(&mg_config_lock);
	if (critical) {
		if (!zalloc_cpumask_var(&mask, GFP_KERNEL)) {
			ret = -ENOMEM;
			goto out;
		}
		ret = mg_cpulist_parse(critical, mask);
		if (!ret)
			ret = mg_check_cpus(mask, cpu_possible_mask);
		if (!ret)
			for_each_cpu(cpu, mask)
				mg_set_critical(cpu, true);
		free_cpumask_var(mask);
		if (ret) {
			pr_err("critical=%s: bad CPU list\n", critical);
			goto out;
		}
	}
	if (budgets) {
		ret = mg_set_budget_list(budgets, cpu_possible_mask, &why);
		if (ret)
			pr_err("budgets=%s: %s\n", budgets, why);
	}
out:
	mutex_unlock(&mg_config_lock);
	return ret;
}

/* Events from the load parameters must work; defaults may be missing. */
static int __init mg_init_events(void)
{
	char name[48];
	unsigned int cpu = 0;
	int s, ret;

	for (s = 0; s < MG_NR_SLOTS; s++) {
		const char *param = s == MG_READ ? read_event : write_event;
		struct mg_event_spec spec;

		mg_event_default(s, &mg_config.default_event[s]);
		if (param) {
			ret = mg_event_parse(param, &spec);
			if (ret) {
				pr_err("%s_event=%s: unknown event\n",
				       mg_slot_name[s], param);
				return ret;
			}
		} else {
			spec = mg_config.default_event[s];
		}
		cpus_read_lock();
		ret = mg_event_probe(&spec, &cpu);
		cpus_read_unlock();
		mg_event_format(&spec, name, sizeof(name));
		if (ret && param) {
			pr_err("%s_event=%s: counter on CPU%u failed: %pe\n",
			       mg_slot_name[s], name, cpu, ERR_PTR(ret));
			return ret;
		}
		if (ret) {
			pr_info("default %s event %s unavailable (%pe): configure another, e.g. sw:cpu-clock\n",
				mg_slot_name[s], name, ERR_PTR(ret));
			mg_config.default_err[s] = ret;
			spec = (struct mg_event_spec){ .none = true };
		}
		mg_config.event[s] = spec;
	}
	return 0;
}

static int __init memguard_init(void)
{
	int ret;

	if (mg_period_us_check(period_us)) {
		pr_err("period_us=%u: must be %u..%u\n", period_us,
		       CG_PERIOD_US_MIN, CG_PERIOD_US_MAX);
		return -ERANGE;
	}
	if (mg_line_size_check(line_size)) {
		pr_err("line_size=%u: must be a power of two, %u..%u\n",
		       line_size, CG_LINE_SIZE_MIN, CG_LINE_SIZE_MAX);
		return -EINVAL;
	}
	if (mg_hold_priority_check(hold_priority)) {
		pr_err("hold_priority=%u: must be %u..%u\n", hold_priority,
		       MG_HOLD_PRIO_MIN, MG_HOLD_PRIO_MAX);
		return -ERANGE;
	}
	if (mg_bwlock_max_hold_check(bwlock_max_hold_ms)) {
		pr_err("bwlock_max_hold_ms=%u: must be %u..%u\n",
		       bwlock_max_hold_ms, MG_BWLOCK_MAX_HOLD_MS_MIN,
		       MG_BWLOCK_MAX_HOLD_MS_MAX);
		return -ERANGE;
	}
	mg_config.period_us = period_us;
	mg_config.line_size = line_size;
	mg_config.hold_priority = hold_priority;
	mg_config.reclaim = reclaim;
	mg_config.enabled = enable;
	mg_config.monitor = monitor;
	atomic64_set(&mg_config.bwlock_level,
		     MG_BWLOCK_PACK(MEMGUARD_BWLOCK_PERMILLE_MAX, 0));
	/* No file is open yet: nothing else takes the lock. */
	mg_lock();
	mg_bwlock_set_max_hold(bwlock_max_hold_ms);
	mg_unlock();
	mg_timebase_set(period_us);
	mg_regulate_init();

	ret = mg_params_apply();
	if (ret)
		return ret;
	ret = mg_init_events();
	if (ret)
		return ret;
	ret = mg_cpus_start();
	if (ret)
		return ret;
	ret = mg_sysfs_init();
	if (ret) {
		mg_cpus_stop();
		return ret;
	}
	ret = mg_dev_init();
	if (ret) {
		mg_sysfs_exit();
		mg_cpus_stop();
		return ret;
	}
	pr_info("loaded: period %u us, line size %u B, reclaim %s, holders at SCHED_FIFO %u%s\n",
		period_us, line_size, reclaim ? "on" : "off", hold_priority,
		monitor ? ", monitor mode (no CPU is held)" : "");
	return 0;
}

static void __exit memguard_exit(void)
{
	/* No file is open; no writer can race the teardown once sysfs is gone. */
	mg_dev_exit();
	mg_sysfs_exit();
	mg_cpus_stop();
	pr_info("unloaded\n");
}

module_init(memguard_init);
module_exit(memguard_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-core memory-bandwidth regulation with perf counters");
