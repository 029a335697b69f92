// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's regulation periods: the time base all CPUs share, and what a
 * CPU's holder thread does when its period ends (mg_boundary(): read the
 * counters, account the period, assign the next budgets, re-arm) or its
 * timer must start or stop (mg_resync()). All but mg_timebase_set() (a
 * configuration change) run in the holder thread under the CPU's
 * mc->lock; regulate.c's table says who else touches what.
 */
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>

#include <colorguard/memguard.h>

#include "memguard.h"
#include "memguard_trace.h"

/* Common period start and length; copied by each CPU at resync. */
static DEFINE_SPINLOCK(mg_tb_lock);
static ktime_t mg_tb_start;
static u64 mg_tb_period_ns;

/**
 * mg_timebase_set() - a new common period start (now) and length
 * @period_us: the period length
 *
 * Each armed CPU picks it up at its next resync.
 */
void mg_timebase_set(u32 period_us)
{
	spin_lock(&mg_tb_lock);
	mg_tb_start = ktime_get();
	mg_tb_period_ns = (u64)period_us * NSEC_PER_USEC;
	spin_unlock(&mg_tb_lock);
}

/*
 * perf stops a counter at its event limit from an irq_work
 * (perf_event_disable_inatomic()); perf_event_disable() cancels that stop
 * while it is only queued. Until 6.11 (pending_disable_irq) the work is
 * not a hard one, so PREEMPT_RT runs it in the irq_work thread at
 * SCHED_FIFO 1, which this thread preempts: if it has begun (taken the
 * request, not yet disabled the counter), it would disable the counter
 * after the re-arm, for good. Let such a started stop finish first; it
 * takes a few microseconds and only a boundary that preempted it waits.
 */
static void mg_limit_stop_sync(struct perf_event *ev)
{
#if IS_ENABLED(CONFIG_PREEMPT_RT) && !defined(MG_HAVE_PENDING_DISABLE_IRQ)
	struct irq_work *stop = &ev->pending_irq;

	while (irq_work_is_busy(stop) && !irq_work_is_pending(stop))
		usleep_range(5, 10);
#endif
}

/**
 * mg_arm() - count more events of a slot until the next overflow
 * @mc: the CPU, from its holder thread
 * @s: the slot
 * @period: the events until the overflow
 * @limit: whether the overflow stops the counter (a budget, not a count)
 *
 * perf_event_period() moves the overflow point @period events ahead of
 * now; on a running counter it also brings the count up to date (see
 * mg_boundary()), which is read at once. A stopped counter is started
 * again after that read: one call per boundary for a counter that did not
 * reach its limit, three for one that did. A limited counter
 * gets perf's event limit of one overflow: perf then disables it itself,
 * so no budget, however small, can make the PMU interrupt faster than
 * this thread re-arms it.
 *
 * Return: the counter's count when the new overflow point was set.
 */
u64 mg_arm(struct mg_cpu *mc, enum mg_slot s, u64 period, bool limit)
{
	struct perf_event *ev = mc->event[s];
	u64 count;

	if (test_and_clear_bit(s, &mc->fired) && mc->limit_armed[s]) {
		/* perf's own stop at the limit must not strike after this. */
		mg_limit_stop_sync(ev);
		perf_event_disable(ev);
		mc->limit_armed[s] = false;
		mc->counting[s] = false;
	}
	perf_event_period(ev, period);
	count = local64_read(&ev->count);
	if (limit && !mc->limit_armed[s]) {
		mc->limit_armed[s] = true;
		perf_event_refresh(ev, 1);
	} else if (!mc->counting[s]) {
		perf_event_enable(ev);
	}
	mc->counting[s] = true;
	return count;
}

static u64 mg_period_index(struct mg_cpu *mc, ktime_t now)
{
	return div64_u64(ktime_to_ns(ktime_sub(now, mc->tb_start)),
			 mc->period_ns);
}

/**
 * mg_resync() - start or stop a CPU's period timer after a change
 * @mc: the CPU, from its holder thread
 *
 * An armed CPU takes the common time base and starts its timer for the
 * end of the current period; a disarmed one stops timer and counters.
 */
void mg_resync(struct mg_cpu *mc)
{
	ktime_t now;
	u64 idx;
	int s;

	if (!mc->armed) {
		hrtimer_cancel(&mc->timer);
		for (s = 0; s < MG_NR_SLOTS; s++) {
			if (mc->event[s])
				perf_event_disable(mc->event[s]);
			mc->counting[s] = false;
		}
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

/*
 * The bandwidth lock's level (bwlock.c) applied to a non-critical CPU's
 * budget of @events: per mille of it (at least one event; unlimited
 * stays unlimited) and at most the MB/s cap.
 */
static u64 mg_bwlock_cap(const struct mg_cpu *mc, u64 events, u64 period_us,
			 u32 line)
{
	struct mg_bwlock_in_force lvl = mg_bwlock_in_force();
	u32 permille = lvl.permille;
	u64 mbps = lvl.mbps;
	struct mg_budget cap = { .kind = MG_BUDGET_MBPS, .value = mbps };

	if (mc->critical)
		return events;
	if (events != MG_UNLIMITED && permille < MEMGUARD_BWLOCK_PERMILLE_MAX)
		events = max_t(u64, div_u64(events * permille,
					    MEMGUARD_BWLOCK_PERMILLE_MAX), 1);
	if (mbps)
		events = min(events, mg_budget_events(&cap, period_us, line));
	return events;
}

static void mg_assign_budgets(struct mg_cpu *mc, u32 line, bool use_reclaim)
{
	u64 b, us = div_u64(mc->period_ns, NSEC_PER_USEC);
	int s;

	for (s = 0; s < MG_NR_SLOTS; s++) {
		b = MG_UNLIMITED;
		if (mc->event[s])
			b = mg_bwlock_cap(mc, mg_budget_events(&mc->budget[s],
							       us, line),
					  us, line);
		mc->assigned[s] = b;
		mc->allowance[s] = b;
		if (use_reclaim && b != MG_UNLIMITED && !mc->mispredicted[s])
			mc->allowance[s] = mg_reclaim_donate(mc, s, b);
		mc->mispredicted[s] = false;
	}
}

static s64 mg_trace_budget(u64 allowance)
{
	return allowance == MG_UNLIMITED ? -1 : (s64)allowance;
}

/*
 * A counted period's statistics, from what each counter read and the
 * allowances the period had.
 */
static void mg_account(struct mg_cpu *mc, const u64 used[MG_NR_SLOTS],
		       const u64 allowance[MG_NR_SLOTS])
{
	u64 over;
	int s;

	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mc->event[s])
			continue;
		mc->stats.used_last[s] = used[s];
		if (mc->stats.periods == 1)
			mc->stats.used_avg[s] = used[s];
		else
			mc->stats.used_avg[s] += (used[s] >> 2) -
				(mc->stats.used_avg[s] >> 2);
		if (allowance[s] != MG_UNLIMITED && used[s] > allowance[s]) {
			over = used[s] - allowance[s];
			if (over > mc->stats.worst_overshoot[s])
				mc->stats.worst_overshoot[s] = over;
		}
		if (used[s])
			mc->zero_periods[s] = 0;
		else
			mc->zero_periods[s]++;
	}
	trace_memguard_period(mc->cpu, mc->period_no, used[MG_READ],
			      mg_trace_budget(allowance[MG_READ]),
			      used[MG_WRITE],
			      mg_trace_budget(allowance[MG_WRITE]),
			      div_u64(mc->period_ns, NSEC_PER_USEC),
			      mc->period_throttled);
}

/* A slot's events since the last boundary, which moves to @count. */
static u64 mg_take_count(struct mg_cpu *mc, enum mg_slot s, u64 count)
{
	u64 used = count - mc->count_base[s];

	mc->count_base[s] = count;
	return used;
}

/* Every counter armed for the new period's allowances; @count: theirs. */
static void mg_arm_all(struct mg_cpu *mc, bool monitor,
		       u64 count[MG_NR_SLOTS])
{
	int s;

	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mc->event[s])
			continue;
		if (mc->allowance[s] == MG_UNLIMITED || monitor)
			count[s] = mg_arm(mc, s, MG_COUNT_ONLY_PERIOD, false);
		else
			count[s] = mg_arm(mc, s, mc->allowance[s], true);
	}
}

static void mg_next_period(struct mg_cpu *mc, u64 idx)
{
	mc->fresh = false;
	mc->period_throttled = false;
	mc->period_no = idx;
	mc->period_end = ktime_add_ns(mc->tb_start, (idx + 1) * mc->period_ns);
}

/**
 * mg_boundary() - the period ended: account it, start the next one
 * @mc: the CPU, from its holder thread
 * @line_size: mg_config's, for budgets in MB/s
 * @reclaim: mg_config's: donate predicted unused budget
 *
 * Reads the counters, updates the statistics, assigns the new period's
 * budgets (donating to the reclaim pool) and re-arms. Counters are not
 * reset: each period is a difference of counts. Without reclaim this
 * costs one perf call per counter that is still counting: the
 * perf_event_period() that moves its overflow point also folds its count
 * (the PMU driver's stop with PERF_EF_UPDATE), so the count read after it
 * is exact. Reclaim predicts the new period's use from the ended one, so
 * it reads the counts first, one call more.
 */
void mg_boundary(struct mg_cpu *mc, u32 line_size, bool reclaim)
{
	u64 used[MG_NR_SLOTS] = { 0 }, count[MG_NR_SLOTS], ended[MG_NR_SLOTS];
	ktime_t t0 = ktime_get();
	bool monitor = READ_ONCE(mg_config.monitor);
	u64 idx, cost, lat, enabled, running;
	bool counted;
	int s;

	if (!mc->armed)
		return;
	/* Monitor mode: count, account and trace; no limit, no reclaim. */
	if (monitor)
		reclaim = false;

	idx = mg_period_index(mc, t0);
	/* A thread kept from running for a whole period counted several. */
	counted = !mc->fresh && idx == mc->period_no + 1;
	if (!mc->fresh) {
		mc->stats.periods++;
		if (!counted)
			mc->stats.late_boundaries++;
	}
	if (reclaim) {
		for (s = 0; s < MG_NR_SLOTS; s++) {
			if (!mc->event[s])
				continue;
			count[s] = perf_event_read_value(mc->event[s], &enabled,
							 &running);
			used[s] = mg_take_count(mc, s, count[s]);
		}
		if (counted)
			mg_account(mc, used, mc->allowance);
		mg_next_period(mc, idx);
		mg_assign_budgets(mc, line_size, true);
		mg_arm_all(mc, monitor, count);
	} else {
		memcpy(ended, mc->allowance, sizeof(ended));
		mg_assign_budgets(mc, line_size, false);
		mg_arm_all(mc, monitor, count);
		for (s = 0; s < MG_NR_SLOTS; s++)
			if (mc->event[s])
				used[s] = mg_take_count(mc, s, count[s]);
		if (counted)
			mg_account(mc, used, ended);
		mg_next_period(mc, idx);
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
