// SPDX-License-Identifier: GPL-2.0
/*
 * memguard: per-core memory-bandwidth regulation.
 *
 * Every online CPU has pinned kernel perf counters for a read event (LLC
 * refills) and a write event (LLC writebacks), a pinned hrtimer that ends
 * each regulation period at a time common to all CPUs, and a SCHED_FIFO
 * thread bound to it. A counter's sample period is the CPU's budget, so its
 * overflow marks exhaustion; the overflow handler (possibly in NMI) only
 * queues an irq_work, which wakes the thread. The thread does every perf
 * call (pause, period, enable, disable, read_value) in process context, at
 * period boundaries and on overflow, and holds an over-budget core in the
 * real idle loop (play_idle_precise()) until the period ends.
 *
 * What a hold lets through (the ABI document lists it for standard and
 * PREEMPT_RT kernels): hard interrupts (on standard kernels with the
 * softirqs run at their exit), NMIs, stop-machine work, SCHED_DEADLINE
 * tasks and every RT task above the holder's priority, hold_priority
 * (default 48, below the interrupt threads at SCHED_FIFO 50 and 49, which
 * must not wait for a period). RT tasks at 49 and above thus escape
 * regulation unless hold_priority is raised. Work of SCHED_NORMAL threads
 * (kworkers, ksoftirqd) and of RT threads at or below the holder's
 * priority waits until the period ends.
 *
 * A hold is RT run time: with the default sched_rt_runtime_us (950000 of
 * 1000000) all RT tasks of a CPU together, the holder included, run at
 * most 95% of each second, and a throttled CPU runs its SCHED_NORMAL tasks
 * in the rest; set sched_rt_runtime_us to -1 for budgets below 5%. On
 * kernels with the fair deadline server (6.12 on) that server gives
 * SCHED_NORMAL tasks its share (50 ms of each second) in any case.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/slab.h>
#include <linux/smpboot.h>
#include <linux/spinlock.h>
#include <uapi/linux/sched/types.h>

#include "memguard.h"

#define CREATE_TRACE_POINTS
#include "memguard_trace.h"

/* A hold shorter than this is not worth entering idle for. */
#define MG_MIN_HOLD_NS		(5 * NSEC_PER_USEC)

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
static unsigned int hold_priority = MG_HOLD_PRIO_DEFAULT;
module_param(hold_priority, uint, 0444);
MODULE_PARM_DESC(hold_priority, "SCHED_FIFO priority of the holder threads (1..99, default 48): RT tasks above it run through holds");

DEFINE_PER_CPU(struct mg_cpu, mg_cpus);
struct mg_config mg_config;
/* Serialises configuration writers and hotplug callbacks. */
DEFINE_MUTEX(mg_config_lock);

/* Common period start and length; copied by each CPU at resync. */
static DEFINE_SPINLOCK(mg_tb_lock);
static ktime_t mg_tb_start;
static u64 mg_tb_period_ns;

/* Reclaim pool of the current period (MemGuard, RTAS'13). */
static DEFINE_SPINLOCK(mg_pool_lock);
static u64 mg_pool_period;
static u64 mg_pool[MG_NR_SLOTS];

static enum cpuhp_state mg_hp_state;

static void mg_pool_donate(u64 period, enum mg_slot slot, u64 events)
{
	spin_lock(&mg_pool_lock);
	if (period > mg_pool_period) {
		mg_pool_period = period;
		memset(mg_pool, 0, sizeof(mg_pool));
	}
	if (period == mg_pool_period)
		mg_pool[slot] += events;
	spin_unlock(&mg_pool_lock);
}

static u64 mg_pool_take(u64 period, enum mg_slot slot, u64 want)
{
	u64 got = 0;

	spin_lock(&mg_pool_lock);
	if (period == mg_pool_period) {
		got = min(want, mg_pool[slot]);
		mg_pool[slot] -= got;
	}
	spin_unlock(&mg_pool_lock);
	return got;
}

static void mg_kick(struct mg_cpu *mc, int bit)
{
	set_bit(bit, &mc->work);
	wake_up_process(mc->thread);
}

/* Called with mc->lock held (and mg_config_lock, which guards mg_config). */
static void mg_update_armed(struct mg_cpu *mc, bool force)
{
	bool armed = false;
	int s;

	if (mc->online && mg_config.enabled && !mc->critical)
		for (s = 0; s < MG_NR_SLOTS; s++)
			if (mc->event[s] &&
			    mc->budget[s].kind != MG_BUDGET_UNLIMITED)
				armed = true;
	if (armed == mc->armed && !force)
		return;
	mc->armed = armed;
	if (mc->online)
		mg_kick(mc, MG_WORK_RESYNC);
}

/* Period timer, hard irq: end the period, let the thread do the work. */
static enum hrtimer_restart mg_timer_fn(struct hrtimer *timer)
{
	struct mg_cpu *mc = container_of(timer, struct mg_cpu, timer);

	mg_kick(mc, MG_WORK_PERIOD);
	hrtimer_forward_now(timer, ns_to_ktime(READ_ONCE(mc->period_ns)));
	return HRTIMER_RESTART;
}

static void mg_irq_work_fn(struct irq_work *work)
{
	struct mg_cpu *mc = container_of(work, struct mg_cpu, irq_work);

	mg_kick(mc, MG_WORK_OVERFLOW);
}

/* May run in NMI: nothing but a flag test and an irq_work. */
static void mg_overflow_handler(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	struct mg_cpu *mc = this_cpu_ptr(&mg_cpus);
	int s;

	for (s = 0; s < MG_NR_SLOTS; s++)
		if (READ_ONCE(mc->event[s]) == event)
			set_bit(s, &mc->fired);
	if (READ_ONCE(mc->armed) && !READ_ONCE(mc->throttled))
		irq_work_queue(&mc->irq_work);
}

/*
 * Count @period more events until the next overflow. A limited counter
 * gets perf's event limit of one overflow: perf then disables it itself,
 * so no budget, however small, can make the PMU interrupt faster than
 * this thread re-arms it.
 */
static void mg_arm(struct mg_cpu *mc, enum mg_slot s, u64 period, bool limit)
{
	struct perf_event *ev = mc->event[s];
	bool used_up = test_and_clear_bit(s, &mc->fired);

	if (used_up)
		mc->limit_armed[s] = false;
	perf_event_period(ev, period);
	if (limit && !mc->limit_armed[s]) {
		mc->limit_armed[s] = true;
		perf_event_refresh(ev, 1);
	} else {
		perf_event_enable(ev);
	}
}

static u64 mg_period_index(struct mg_cpu *mc, ktime_t now)
{
	return div64_u64(ktime_to_ns(ktime_sub(now, mc->tb_start)),
			 mc->period_ns);
}

/* Start or stop this CPU's period timer; runs on the CPU itself. */
static void mg_resync(struct mg_cpu *mc)
{
	ktime_t now;
	u64 idx;
	int s;

	if (!mc->armed) {
		hrtimer_cancel(&mc->timer);
		for (s = 0; s < MG_NR_SLOTS; s++)
			if (mc->event[s])
				perf_event_disable(mc->event[s]);
		mc->fresh = true;
		return;
	}
	spin_lock(&mg_tb_lock);
	/* Counts since the last boundary do not fit a new time base. */
	if (mc->tb_start != mg_tb_start || mc->period_ns != mg_tb_period_ns)
		mc->fresh = true;
	mc->tb_start = mg_tb_start;
	WRITE_ONCE(mc->period_ns, mg_tb_period_ns);
	spin_unlock(&mg_tb_lock);
	now = ktime_get();
	idx = mg_period_index(mc, now);
	mc->period_end = ktime_add_ns(mc->tb_start, (idx + 1) * mc->period_ns);
	hrtimer_start(&mc->timer, mc->period_end, HRTIMER_MODE_ABS_PINNED_HARD);
}

static void mg_assign_budgets(struct mg_cpu *mc)
{
	u32 line = READ_ONCE(mg_config.line_size);
	bool use_reclaim = READ_ONCE(mg_config.reclaim);
	u64 b, keep;
	int s;

	for (s = 0; s < MG_NR_SLOTS; s++) {
		b = MG_UNLIMITED;
		if (mc->event[s])
			b = mg_budget_events(&mc->budget[s],
					     div_u64(mc->period_ns, NSEC_PER_USEC),
					     line);
		mc->assigned[s] = b;
		mc->allowance[s] = b;
		if (use_reclaim && b != MG_UNLIMITED && !mc->mispredicted[s]) {
			/* Keep the prediction, and a sixteenth as a floor. */
			keep = max3(mc->stats.used_avg[s], b >> 4, 1ULL);
			if (keep < b) {
				mg_pool_donate(mc->period_no, s, b - keep);
				mc->stats.reclaim_donated += b - keep;
				mc->allowance[s] = keep;
			}
		}
		mc->mispredicted[s] = false;
	}
}

static s64 mg_trace_budget(u64 allowance)
{
	return allowance == MG_UNLIMITED ? -1 : (s64)allowance;
}

/* The period ended: read and reset the counters, re-arm with new budgets. */
static void mg_boundary(struct mg_cpu *mc)
{
	u64 used[MG_NR_SLOTS] = { 0 };
	ktime_t t0 = ktime_get();
	u64 idx, over, cost, lat;
	bool counted;
	int s;

	if (!mc->armed)
		return;
	for (s = 0; s < MG_NR_SLOTS; s++)
		if (mc->event[s])
			used[s] = perf_event_pause(mc->event[s], true);

	idx = mg_period_index(mc, t0);
	/* A thread kept from running for a whole period counted several. */
	counted = !mc->fresh && idx == mc->period_no + 1;
	if (!mc->fresh) {
		mc->stats.periods++;
		if (!counted)
			mc->stats.late_boundaries++;
	}
	if (counted) {
		for (s = 0; s < MG_NR_SLOTS; s++) {
			if (!mc->event[s])
				continue;
			mc->stats.used_last[s] = used[s];
			if (mc->stats.periods == 1)
				mc->stats.used_avg[s] = used[s];
			else
				mc->stats.used_avg[s] += (used[s] >> 2) -
					(mc->stats.used_avg[s] >> 2);
			if (mc->allowance[s] != MG_UNLIMITED &&
			    used[s] > mc->allowance[s]) {
				over = used[s] - mc->allowance[s];
				if (over > mc->stats.worst_overshoot[s])
					mc->stats.worst_overshoot[s] = over;
			}
			if (used[s])
				mc->zero_periods[s] = 0;
			else
				mc->zero_periods[s]++;
		}
		trace_memguard_period(mc->cpu, mc->period_no, used[MG_READ],
				      mg_trace_budget(mc->allowance[MG_READ]),
				      used[MG_WRITE],
				      mg_trace_budget(mc->allowance[MG_WRITE]),
				      div_u64(mc->period_ns, NSEC_PER_USEC),
				      mc->period_throttled);
	}

	mc->fresh = false;
	mc->period_throttled = false;
	mc->period_no = idx;
	mc->period_end = ktime_add_ns(mc->tb_start, (idx + 1) * mc->period_ns);
	mg_assign_budgets(mc);
	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mc->event[s])
			continue;
		if (mc->allowance[s] == MG_UNLIMITED)
			mg_arm(mc, s, MG_COUNT_ONLY_PERIOD, false);
		else
			mg_arm(mc, s, mc->allowance[s], true);
	}

	cost = ktime_to_ns(ktime_sub(ktime_get(), t0));
	mc->stats.boundary_ns_total += cost;
	if (cost > mc->stats.boundary_ns_max)
		mc->stats.boundary_ns_max = cost;
	lat = ktime_to_ns(ktime_sub(t0, ktime_add_ns(mc->tb_start,
						     idx * mc->period_ns)));
	if (lat > mc->stats.boundary_latency_ns_max)
		mc->stats.boundary_latency_ns_max = lat;
}

/*
 * Budget reached: take what the pool has (a core below its own assigned
 * budget asks for the rest of it first). A core that donated and finds the
 * pool empty gets its assigned budget back rather than being held below it:
 * reclaim never costs a core its reservation; such periods are counted.
 */
static bool mg_reclaim(struct mg_cpu *mc, enum mg_slot s, u64 val)
{
	u64 want, got;

	if (!READ_ONCE(mg_config.reclaim))
		return false;
	if (val < mc->assigned[s])
		want = mc->assigned[s] - val;
	else
		want = max_t(u64, mc->assigned[s] >> 4, 1);
	got = mg_pool_take(mc->period_no, s, want);
	if (got) {
		mc->allowance[s] = val + got;
		mc->stats.reclaim_taken += got;
		mg_arm(mc, s, got, true);
		return true;
	}
	if (val < mc->assigned[s]) {
		mc->allowance[s] = mc->assigned[s];
		mc->mispredicted[s] = true;
		mc->stats.reclaim_mispredictions++;
		mg_arm(mc, s, mc->assigned[s] - val, true);
		return true;
	}
	return false;
}

/* Returns how long to hold the core, 0 for not at all. */
static u64 mg_overflow(struct mg_cpu *mc)
{
	u64 val[MG_NR_SLOTS] = { 0 };
	u64 enabled, running;
	bool hit = false, over = false;
	ktime_t now;
	s64 hold;
	int s;

	if (!mc->armed || mc->fresh || mc->throttled)
		return 0;
	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mc->event[s])
			continue;
		val[s] = perf_event_read_value(mc->event[s], &enabled, &running);
		if (mc->allowance[s] == MG_UNLIMITED)
			continue;
		if (val[s] < mc->allowance[s]) {
			/* A stale overflow used up the limit: arm for the rest. */
			if (test_bit(s, &mc->fired))
				mg_arm(mc, s, mc->allowance[s] - val[s], true);
			continue;
		}
		hit = true;
		if (!mg_reclaim(mc, s, val[s]))
			over = true;
	}
	if (!hit)
		mc->stats.spurious_overflows++;
	if (!over)
		return 0;
	now = ktime_get();
	hold = ktime_to_ns(ktime_sub(mc->period_end, now));
	if (hold < MG_MIN_HOLD_NS)
		return 0;
	/* Held cores do no task work; idle time is not traffic. */
	for (s = 0; s < MG_NR_SLOTS; s++)
		if (mc->event[s])
			perf_event_disable(mc->event[s]);
	WRITE_ONCE(mc->throttled, true);
	mc->period_throttled = true;
	mc->throttle_start = now;
	mc->stats.throttled_periods++;
	trace_memguard_throttle(mc->cpu, mc->period_no, val[MG_READ],
				val[MG_WRITE], hold);
	return hold;
}

static void mg_hold(struct mg_cpu *mc, u64 hold_ns)
{
	u64 held;

	/*
	 * Run softirqs raised in task context first: idle must not start
	 * with work pending that only this CPU can do.
	 */
	local_bh_disable();
	local_bh_enable();
	/* The idle state's exit latency may cost at most 1/8 of the hold. */
	play_idle_precise(hold_ns, hold_ns >> 3);

	mutex_lock(&mc->lock);
	held = ktime_to_ns(ktime_sub(ktime_get(), mc->throttle_start));
	mc->stats.throttled_ns += held;
	WRITE_ONCE(mc->throttled, false);
	trace_memguard_release(mc->cpu, mc->period_no, held);
	mutex_unlock(&mc->lock);
}

static u64 mg_do_work(struct mg_cpu *mc)
{
	if (!mc->online) {
		WRITE_ONCE(mc->work, 0);
		return 0;
	}
	if (test_and_clear_bit(MG_WORK_RESYNC, &mc->work))
		mg_resync(mc);
	if (test_and_clear_bit(MG_WORK_PERIOD, &mc->work))
		mg_boundary(mc);
	if (test_and_clear_bit(MG_WORK_OVERFLOW, &mc->work))
		return mg_overflow(mc);
	return 0;
}

/*
 * The holders are smpboot threads (memguard/N): bound to their CPU,
 * parked by CPU hotplug and, being per-CPU kthreads, left alone by
 * cpuset when a partition takes CPUs from the root cpuset. An ordinary
 * bound kthread would be moved off its CPU there (and waited for forever
 * if it were migration-disabled).
 */
static DEFINE_PER_CPU(struct task_struct *, mg_holder);

static int mg_thread_should_run(unsigned int cpu)
{
	return READ_ONCE(per_cpu_ptr(&mg_cpus, cpu)->work) != 0;
}

static void mg_thread_fn(unsigned int cpu)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);
	u64 hold;

	mutex_lock(&mc->lock);
	hold = mg_do_work(mc);
	mutex_unlock(&mc->lock);
	if (hold)
		mg_hold(mc, hold);
}

static struct smp_hotplug_thread mg_threads = {
	.store			= &mg_holder,
	.thread_should_run	= mg_thread_should_run,
	.thread_fn		= mg_thread_fn,
	.thread_comm		= "memguard/%u",
};

/* play_idle_precise() needs SCHED_FIFO; the priority is hold_priority. */
static int mg_thread_set_priority(struct task_struct *thread, u32 prio)
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
		ev = mg_counter_create(&mg_config.event[s], cpu,
				       mg_overflow_handler);
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
		mc->event[s] = event[s];
		mc->event_err[s] = err[s];
		mc->zero_periods[s] = 0;
		mc->limit_armed[s] = false;
	}
	mc->fired = 0;
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
		mc->event[s] = NULL;
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
 * mg_set_event() - replace a slot's event on every online CPU
 * @slot: MG_READ or MG_WRITE
 * @spec: the new event, or "none"
 * @failed_cpu: on failure, the CPU whose counter could not be created
 *
 * The new counters are created on every online CPU first, so a failure
 * leaves the old ones in place. Callers hold cpus_read_lock() and
 * mg_config_lock.
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
			fresh[cpu] = mg_counter_create(spec, cpu,
						       mg_overflow_handler);
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
		mc->event[slot] = fresh[cpu];
		mc->event_err[slot] = 0;
		mc->limit_armed[slot] = false;
		clear_bit(slot, &mc->fired);
		mc->zero_periods[slot] = 0;
		/* The new counter starts disabled; the next boundary arms it. */
		mc->fresh = true;
		mg_update_armed(mc, false);
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
 * Callers hold cpus_read_lock() and mg_config_lock.
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

/**
 * mg_set_critical() - mark a CPU critical (never held) or not
 * @cpu: the CPU
 * @crit: true for critical
 *
 * Callers hold cpus_read_lock() and mg_config_lock.
 */
void mg_set_critical(unsigned int cpu, bool crit)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

	mutex_lock(&mc->lock);
	mc->critical = crit;
	mg_update_armed(mc, false);
	mutex_unlock(&mc->lock);
}

static void mg_timebase_set(u32 us)
{
	spin_lock(&mg_tb_lock);
	mg_tb_start = ktime_get();
	mg_tb_period_ns = (u64)us * NSEC_PER_USEC;
	spin_unlock(&mg_tb_lock);
}

/**
 * mg_set_period() - a new regulation period, from now
 * @us: the period in microseconds, CG_PERIOD_US_MIN to CG_PERIOD_US_MAX
 *
 * A new common period start: every armed CPU re-aligns its timer now.
 * Callers hold cpus_read_lock() and mg_config_lock.
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
 *
 * Callers hold cpus_read_lock() and mg_config_lock.
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
 * mg_set_hold_priority() - change the holder threads' SCHED_FIFO priority
 * @prio: the new priority, MG_HOLD_PRIO_MIN..MG_HOLD_PRIO_MAX
 *
 * Applies at once to the thread of every online CPU, also to one that is
 * holding its CPU (the hold still ends with its period); CPUs coming
 * online later take it too. Caller holds cpus_read_lock() and
 * mg_config_lock.
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

/* Validate an event by creating it on every online CPU, then drop it. */
static int mg_event_probe(const struct mg_event_spec *spec,
			  unsigned int *failed_cpu)
{
	struct perf_event *ev;
	unsigned int cpu;

	if (spec->none)
		return 0;
	for_each_online_cpu(cpu) {
		ev = mg_counter_create(spec, cpu, mg_overflow_handler);
		if (IS_ERR(ev)) {
			*failed_cpu = cpu;
			return PTR_ERR(ev);
		}
		perf_event_release_kernel(ev);
	}
	return 0;
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
	unsigned int cpu;
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
	mg_config.period_us = period_us;
	mg_config.line_size = line_size;
	mg_config.hold_priority = hold_priority;
	mg_config.reclaim = reclaim;
	mg_config.enabled = enable;
	mg_timebase_set(period_us);

	for_each_possible_cpu(cpu) {
		struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

		mc->cpu = cpu;
		mutex_init(&mc->lock);
		hrtimer_init(&mc->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_ABS_PINNED_HARD);
		mc->timer.function = mg_timer_fn;
		mc->irq_work = IRQ_WORK_INIT_HARD(mg_irq_work_fn);
		mc->budget[MG_READ].kind = MG_BUDGET_UNLIMITED;
		mc->budget[MG_WRITE].kind = MG_BUDGET_UNLIMITED;
	}
	ret = mg_params_apply(budgets, critical);
	if (ret)
		return ret;
	ret = mg_init_events();
	if (ret)
		return ret;

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

	ret = mg_sysfs_init();
	if (ret) {
		cpuhp_remove_state(mg_hp_state);
		smpboot_unregister_percpu_thread(&mg_threads);
		return ret;
	}
	pr_info("loaded: period %u us, line size %u B, reclaim %s, holders at SCHED_FIFO %u\n",
		period_us, line_size, reclaim ? "on" : "off", hold_priority);
	return 0;
}

static void __exit memguard_exit(void)
{
	/* No writer can race the teardown once sysfs is gone. */
	mg_sysfs_exit();
	cpuhp_remove_state(mg_hp_state);
	smpboot_unregister_percpu_thread(&mg_threads);
	pr_info("unloaded\n");
}

module_init(memguard_init);
module_exit(memguard_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-core memory-bandwidth regulation with perf counters");
