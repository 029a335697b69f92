// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's CPUs coming and going: the holder threads (one smpboot thread
 * per CPU) and the CPU hotplug callbacks that give an online CPU its
 * counters and thread, and take them away before it goes down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/cpuhotplug.h>
#include <linux/err.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/smpboot.h>
#include <uapi/linux/sched/types.h>

#include "memguard.h"

/*
 * The holders are smpboot threads (memguard/N): bound to their CPU,
 * parked by CPU hotplug and, being per-CPU kthreads, left alone by
 * cpuset when a partition takes CPUs from the root cpuset. An ordinary
 * bound kthread would be moved off its CPU there (and waited for forever
 * if it were migration-disabled).
 */
static DEFINE_PER_CPU(struct task_struct *, mg_holder);

static struct smp_hotplug_thread mg_threads = {
	.store			= &mg_holder,
	.thread_should_run	= mg_thread_should_run,
	.thread_fn		= mg_thread_fn,
	.thread_comm		= "memguard/%u",
};

static enum cpuhp_state mg_hp_state;

/**
 * mg_thread_set_priority() - make a holder thread SCHED_FIFO at a priority
 * @thread: the holder
 * @prio: MG_HOLD_PRIO_MIN..MG_HOLD_PRIO_MAX
 *
 * play_idle_precise() needs SCHED_FIFO; the priority is hold_priority.
 *
 * Return: 0, or sched_setattr_nocheck()'s error.
 */
int mg_thread_set_priority(struct task_struct *thread, u32 prio)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_FIFO,
		.sched_priority = prio,
	};

	/* parse.c's range, without the scheduler's headers */
	BUILD_BUG_ON((MAX_RT_PRIO - 1) != MG_HOLD_PRIO_MAX);
	return sched_setattr_nocheck(thread, &attr);
}

static int mg_cpu_online(unsigned int cpu)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);
	struct perf_event *event[MG_NR_SLOTS] = { NULL };
	int err[MG_NR_SLOTS] = { 0 };
	struct task_struct *thread;
	int s, ret;

	mutex_lock(&mg_config_lock);
	for (s = 0; s < MG_NR_SLOTS; s++) {
		struct perf_event *ev;

		if (mg_config.event[s].none)
			continue;
		ev = mg_counter_create(&mg_config.event[s], cpu);
		if (IS_ERR(ev)) {
			err[s] = PTR_ERR(ev);
			pr_warn("CPU%u: %s counter not created: %pe\n", cpu,
				mg_slot_name[s], ev);
		} else {
			event[s] = ev;
		}
	}
	/* smpboot unparked the holder before this state's callback. */
	thread = per_cpu(mg_holder, cpu);
	ret = thread ? mg_thread_set_priority(thread, mg_config.hold_priority) :
		       -ENOENT;
	if (ret)
		goto fail;

	mutex_lock(&mc->lock);
	for (s = 0; s < MG_NR_SLOTS; s++) {
		mg_counter_install(mc, s, event[s], &mg_config.event[s]);
		mc->event_err[s] = err[s];
	}
	mc->thread = thread;
	mc->online = true;
	mc->armed = false;
	mc->fresh = true;
	WRITE_ONCE(mc->throttled, false);
	wake_up_process(thread);
	mg_update_armed(mc, false);
	mutex_unlock(&mc->lock);
	mutex_unlock(&mg_config_lock);
	return 0;

fail:
	for (s = 0; s < MG_NR_SLOTS; s++)
		if (event[s])
			perf_event_release_kernel(event[s]);
	mutex_unlock(&mg_config_lock);
	pr_err("CPU%u: no regulation thread: %pe\n", cpu, ERR_PTR(ret));
	return ret;
}

/*
 * Runs on the CPU going down (and for each CPU at unload): counters first,
 * so no overflow queues irq_work; then the irq_work and the timer, the
 * only things that wake the thread. smpboot parks the thread afterwards
 * (its state comes earlier in the hotplug order), or stops it at unload.
 */
static int mg_cpu_offline(unsigned int cpu)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);
	struct perf_event *event[MG_NR_SLOTS];
	int s;

	mutex_lock(&mc->lock);
	mc->online = false;
	WRITE_ONCE(mc->armed, false);
	for (s = 0; s < MG_NR_SLOTS; s++) {
		event[s] = mc->event[s];
		mg_counter_install(mc, s, NULL, NULL);
	}
	mutex_unlock(&mc->lock);

	for (s = 0; s < MG_NR_SLOTS; s++)
		if (event[s])
			perf_event_release_kernel(event[s]);
	irq_work_sync(&mc->irq_work);
	hrtimer_cancel(&mc->timer);
	/* Nothing wakes the holder now; a last wake-up finds online false. */
	mc->thread = NULL;
	WRITE_ONCE(mc->throttled, false);
	return 0;
}

/**
 * mg_cpus_start() - the holder threads, then every online CPU regulated
 *
 * The configuration (mg_config, the CPUs' budgets) must be complete:
 * each CPU starts with it, and CPUs coming online later do too.
 *
 * Return: 0, or the error of smpboot or cpuhp_setup_state().
 */
int mg_cpus_start(void)
{
	int ret;

	ret = smpboot_register_percpu_thread(&mg_threads);
	if (ret)
		return ret;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "memguard:online",
				mg_cpu_online, mg_cpu_offline);
	if (ret < 0) {
		smpboot_unregister_percpu_thread(&mg_threads);
		return ret;
	}
	mg_hp_state = ret;
	return 0;
}

/**
 * mg_cpus_stop() - every CPU's counters, timer and thread gone
 */
void mg_cpus_stop(void)
{
	cpuhp_remove_state(mg_hp_state);
	smpboot_unregister_percpu_thread(&mg_threads);
}
