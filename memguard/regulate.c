// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's control loop: what runs on a regulated CPU in NMI, in hard
 * interrupts and in its holder thread, up to the decision to hold the CPU
 * and the hold itself; and the state all of memguard works on (mg_cpus,
 * mg_config). The period bookkeeping the thread calls is in period.c.
 *
 * Every online CPU has pinned kernel perf counters for a read event (LLC
 * refills) and a write event (LLC writebacks), a pinned hrtimer that ends
 * each regulation period at a time common to all CPUs, and a SCHED_FIFO
 * thread bound to it. A counter's sample period is the CPU's budget, so its
 * overflow marks exhaustion; the overflow handler (possibly in NMI) notes
 * the time and queues an irq_work, which wakes the thread. memguard uses
 * the exported perf API only and reads no field of a perf event: the
 * thread does every perf call (period, enable, read, disable) in process
 * context, at period boundaries, for a reclaim and for a hold, and holds
 * an over-budget core in the real idle loop (play_idle_precise()) until
 * the period ends. perf itself never stops a counter: with no event
 * limit there is no stop that perf queues and that could strike after a
 * boundary (PREEMPT_RT before 6.11 runs that stop in a preemptible
 * thread), and a counter that stops anyway is found and restarted at the
 * next boundary (period.c, mg_check_stall()). From the overflow to the
 * idle entry the thread takes only mc->lock (which a configuration write
 * on that CPU may hold for a moment) and makes one perf call, which stops
 * the exhausted counter for the hold.
 *
 * Who runs what, and what it may touch (mc: the CPU's struct mg_cpu; a
 * field read outside mc->lock is read with READ_ONCE()):
 *
 *  function              context             holds         touches
 *  --------------------  ------------------  ------------  -----------------
 *  mg_overflow_handler   PMU overflow: NMI   nothing       reads mc->event[],
 *                        (x86, arm64 with                  ->armed,
 *                        pseudo-NMI) or                    ->throttled;
 *                        hard irq                          ->irq_wake,
 *                                                          ->arm_seq[];
 *                                                          sets ->fired_seq[],
 *                                                          set_bit() ->fired,
 *                                                          stamps ->overflow;
 *                                                          queues ->irq_work
 *                                                          or, in a PMU or
 *                                                          cpu-clock hard
 *                                                          irq, mg_kick()
 *  mg_irq_work_fn        hard irq            nothing       mg_kick(): set_bit()
 *                        (IRQ_WORK_INIT_                   ->work, wakes
 *                        HARD)                             ->thread
 *  mg_timer_fn           hard irq (pinned    nothing       mg_kick(); reads
 *                        HRTIMER_MODE_*_                   ->period_ns
 *                        HARD)
 *  mg_thread_should_run  holder thread       nothing       reads ->work
 *  mg_thread_fn and its  holder thread       mc->lock;     all of *mc; every
 *  work: mg_resync(),    memguard/N on its   inside it     perf_event_*()
 *  mg_boundary()         CPU, SCHED_FIFO at  mg_tb_lock    call; reads
 *  (period.c), mg_over-  hold_priority       (resync), the mg_config's
 *  flow() (the hold                          reclaim pool  line_size and
 *  decision)                                 lock          reclaim
 *  mg_hold               holder thread,      nothing;      ->throttled,
 *                        idle                then mc->lock ->stats (hold time,
 *                                                          overflow-to-hold)
 *  mg_update_armed       config.c, cpu.c,    mg_config_    ->armed; mg_kick()
 *                        bwlock.c: process,  lock, mc->lock
 *                        any CPU
 *
 * Nothing in NMI takes a lock, wakes a task or calls perf; the hard irq
 * callbacks only set a work bit and wake the thread. Configuration writers
 * (config.c) and hotplug (cpu.c) change *mc under mc->lock from any CPU.
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
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bottom_half.h>
#include <linux/cpu.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>

#include "memguard.h"

#define CREATE_TRACE_POINTS
#include "memguard_trace.h"

/* A hold shorter than this is not worth entering idle for. */
#define MG_MIN_HOLD_NS		(5 * NSEC_PER_USEC)

/* What the hold decision hands to the hold. */
struct mg_hold_plan {
	u64 hold_ns;			/* 0: no hold */
	u64 used[MG_NR_SLOTS];		/* events at the decision */
	u64 overflow;			/* mg_cpu.overflow of the hold */
	u64 woken_ns;			/* local_clock() as the thread ran */
};

DEFINE_PER_CPU(struct mg_cpu, mg_cpus);
struct mg_config mg_config;
/* Serialises configuration writers and hotplug callbacks. */
DEFINE_MUTEX(mg_config_lock);

static void mg_kick(struct mg_cpu *mc, int bit)
{
	set_bit(bit, &mc->work);
	wake_up_process(mc->thread);
}

/**
 * mg_overflow_handler() - a counter reached its sample period
 * @event: the counter
 * @data: unused
 * @regs: unused
 *
 * May run in NMI: nothing but flag tests, local_clock() and an irq_work,
 * or, from the hard interrupt of an event that allows it (counter.c's
 * mg_event_wakes_in_irq()), the thread's wake-up itself (one interrupt
 * fewer on the way to the hold). Marks the slot's overflow with its
 * arming, for the hold decision to tell it from one of an overflow point
 * since moved, and stamps the first overflow the thread has not yet seen with its time and
 * whether it interrupted the idle task. Reads nothing of @event: its
 * count is the holder thread's to read, through the perf API.
 */
void mg_overflow_handler(struct perf_event *event,
			 struct perf_sample_data *data, struct pt_regs *regs)
{
	struct mg_cpu *mc = this_cpu_ptr(&mg_cpus);
	u64 now = local_clock();
	bool wake = false;
	int s;

	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (READ_ONCE(mc->event[s]) != event)
			continue;
		WRITE_ONCE(mc->fired_seq[s], READ_ONCE(mc->arm_seq[s]));
		set_bit(s, &mc->fired);
		wake = test_bit(s, &mc->irq_wake);
	}
	if (!READ_ONCE(mc->armed) || READ_ONCE(mc->throttled))
		return;
	/*
	 * The thread, on this CPU, takes the stamp with xchg(): it cannot
	 * run between this test and the write.
	 */
	if (!READ_ONCE(mc->overflow))
		WRITE_ONCE(mc->overflow, now << 1 | is_idle_task(current));
	if (wake && !in_nmi() && in_hardirq())
		mg_kick(mc, MG_WORK_OVERFLOW);
	else
		irq_work_queue(&mc->irq_work);
}

static void mg_irq_work_fn(struct irq_work *work)
{
	struct mg_cpu *mc = container_of(work, struct mg_cpu, irq_work);

	mg_kick(mc, MG_WORK_OVERFLOW);
}

/* Period timer, hard irq: end the period, let the thread do the work. */
static enum hrtimer_restart mg_timer_fn(struct hrtimer *timer)
{
	struct mg_cpu *mc = container_of(timer, struct mg_cpu, timer);

	mg_kick(mc, MG_WORK_PERIOD);
	hrtimer_forward_now(timer, ns_to_ktime(READ_ONCE(mc->period_ns)));
	return HRTIMER_RESTART;
}

/**
 * mg_regulate_init() - every possible CPU's state, before any CPU runs
 *
 * Budgets unlimited, the timer and irq_work callbacks set; the CPUs are
 * started later by cpu.c.
 */
void mg_regulate_init(void)
{
	unsigned int cpu;

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
}

/**
 * mg_update_armed() - arm or disarm a CPU after a change
 * @mc: the CPU
 * @force: resync even if the armed state stays (a new period)
 *
 * A CPU is armed when it is online, regulation is enabled and a slot has
 * a counter, and either monitor mode is on (every such CPU is measured,
 * none held) or the CPU is not critical and the slot has a budget or the
 * bandwidth lock caps it in MB/s. A change wakes its thread to start or
 * stop the timer. Caller holds mg_config_lock and @mc->lock.
 */
void mg_update_armed(struct mg_cpu *mc, bool force)
{
	bool armed = false;
	int s;

	if (mc->online && mg_config.enabled)
		for (s = 0; s < MG_NR_SLOTS; s++)
			if (mc->event[s] &&
			    (mg_config.monitor ||
			     (!mc->critical &&
			      (mg_bwlock_in_force().mbps ||
			       mc->budget[s].kind != MG_BUDGET_UNLIMITED))))
				armed = true;
	if (armed == mc->armed && !force)
		return;
	mc->armed = armed;
	if (mc->online)
		mg_kick(mc, MG_WORK_RESYNC);
}

/*
 * The hold decision: fills @h, h->hold_ns 0 for no hold. It runs between
 * the overflow interrupt and the hold. A slot whose overflow carries the
 * current arming reached its allowance then (older ones belong to a point
 * since moved, by a boundary or a reclaim: stale); with reclaim the
 * thread reads its count and asks the pool for more, otherwise it counts
 * as used up. An overflow at a point kept from an earlier period
 * (period.c) may come early: the thread reads the count and, below the
 * allowance, moves the point to the allowance's end instead. A slot
 * over its budget stops counting until the boundary, with or without a
 * hold (perf would raise an overflow every allowance events otherwise,
 * and a time-like event would count the hold); one
 * that did not fire goes on counting through the hold (what the CPU's
 * interrupts do then is its traffic too). The boundary re-arms both.
 */
static void mg_overflow(struct mg_cpu *mc, struct mg_hold_plan *h)
{
	unsigned long over = 0;
	bool hit = false, reclaim;
	u64 more, enabled, running;
	ktime_t now;
	s64 hold;
	int s;

	h->overflow = xchg(&mc->overflow, 0);
	/* Monitor mode measures only (period.c leaves counters unlimited). */
	if (!mc->armed || mc->throttled || READ_ONCE(mg_config.monitor))
		return;
	reclaim = READ_ONCE(mg_config.reclaim);
	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mc->event[s] || !test_and_clear_bit(s, &mc->fired))
			continue;
		if (mc->allowance[s] == MG_UNLIMITED ||
		    READ_ONCE(mc->fired_seq[s]) != mc->arm_seq[s])
			continue;
		hit = true;
		h->used[s] = mc->allowance[s];
		more = 0;
		if (reclaim || mc->kept[s]) {
			h->used[s] = perf_event_read_value(mc->event[s],
							   &enabled, &running) -
				     mc->count_base[s];
			/* A kept point came before the allowance's end. */
			if (h->used[s] < mc->allowance[s] && mc->kept[s]) {
				mg_arm(mc, s, mc->allowance[s] - h->used[s],
				       mc->count_base[s] + h->used[s]);
				continue;
			}
		}
		if (reclaim)
			more = mg_reclaim_take(mc, s, h->used[s]);
		if (more)
			mg_arm(mc, s, more, mc->count_base[s] + h->used[s]);
		else
			over |= BIT(s);
	}
	if (!hit)
		mc->stats.spurious_overflows++;
	if (!over)
		return;
	/*
	 * An exhausted counter stops until the boundary, held or not: with
	 * no event limit it would raise an overflow every allowance events
	 * (a time-like event counts the interrupts themselves, which under
	 * emulation can cost more than a small allowance: a storm).
	 */
	for_each_set_bit(s, &over, MG_NR_SLOTS) {
		perf_event_disable(mc->event[s]);
		mc->counting[s] = false;
	}
	now = ktime_get();
	hold = ktime_to_ns(ktime_sub(mc->period_end, now));
	if (hold < MG_MIN_HOLD_NS)
		return;
	WRITE_ONCE(mc->throttled, true);
	mc->period_throttled = true;
	mc->throttle_start = now;
	mc->stats.throttled_periods++;
	h->hold_ns = hold;
}

/*
 * Overflow-to-hold statistics of a hold that began at @start (local_clock())
 * after the overflow stamped @overflow. An overflow taken in idle (a
 * time-like event such as the VM's cycles counting an idle CPU) has no
 * task to stop: counted apart, not in the delays. Caller holds mc->lock.
 */
static void mg_account_delay(struct mg_cpu *mc, u64 overflow, u64 start)
{
	struct mg_stats *st = &mc->stats;
	u64 delay, us;
	int b;

	if (!overflow)
		return;
	if (overflow & 1) {
		st->idle_holds++;
		return;
	}
	delay = start - (overflow >> 1);
	us = div_u64(delay, NSEC_PER_USEC);
	b = us ? min(fls64(us), MG_DELAY_BUCKETS - 1) : 0;
	st->hold_delay_hist[b]++;
	st->hold_delay_ns_total += delay;
	if (delay > st->hold_delay_ns_max)
		st->hold_delay_ns_max = delay;
}

static void mg_hold(struct mg_cpu *mc, const struct mg_hold_plan *h)
{
	u64 held, start, delay = 0, wake = 0, at = h->overflow >> 1;

	/*
	 * Run softirqs raised in task context first: idle must not start
	 * with work pending that only this CPU can do.
	 */
	local_bh_disable();
	local_bh_enable();
	start = local_clock();
	if (h->overflow) {
		delay = start - at;
		wake = h->woken_ns - at;
	}
	trace_memguard_throttle(mc->cpu, mc->period_no, h->used[MG_READ],
				h->used[MG_WRITE], h->hold_ns, delay, wake,
				h->overflow & 1);
	/* The idle state's exit latency may cost at most 1/8 of the hold. */
	play_idle_precise(h->hold_ns, h->hold_ns >> 3);

	mutex_lock(&mc->lock);
	held = ktime_to_ns(ktime_sub(ktime_get(), mc->throttle_start));
	mc->stats.throttled_ns += held;
	mg_account_delay(mc, h->overflow, start);
	WRITE_ONCE(mc->throttled, false);
	trace_memguard_release(mc->cpu, mc->period_no, held);
	mutex_unlock(&mc->lock);
}

static void mg_do_work(struct mg_cpu *mc, struct mg_hold_plan *h)
{
	if (!mc->online) {
		WRITE_ONCE(mc->work, 0);
		return;
	}
	if (test_and_clear_bit(MG_WORK_RESYNC, &mc->work))
		mg_resync(mc);
	if (test_and_clear_bit(MG_WORK_PERIOD, &mc->work))
		mg_boundary(mc, READ_ONCE(mg_config.line_size),
			    READ_ONCE(mg_config.reclaim));
	if (test_and_clear_bit(MG_WORK_OVERFLOW, &mc->work))
		mg_overflow(mc, h);
}

/**
 * mg_thread_should_run() - smpboot: has the holder thread work?
 * @cpu: the thread's CPU
 *
 * Return: nonzero when a work bit is set.
 */
int mg_thread_should_run(unsigned int cpu)
{
	return READ_ONCE(per_cpu_ptr(&mg_cpus, cpu)->work) != 0;
}

/**
 * mg_thread_fn() - smpboot: the holder thread's work, then a hold if due
 * @cpu: the thread's CPU
 */
void mg_thread_fn(unsigned int cpu)
{
	struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);
	struct mg_hold_plan h = { .woken_ns = local_clock() };

	mutex_lock(&mc->lock);
	mg_do_work(mc, &h);
	mutex_unlock(&mc->lock);
	if (h.hold_ns)
		mg_hold(mc, &h);
}
