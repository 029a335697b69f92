// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's regulation periods: the time base all CPUs share, and what a
 * CPU's holder thread does when its period ends (mg_boundary(): read the
 * counters, account the period, assign the next budgets, re-arm) or its
 * timer must start or stop (mg_resync()). All but mg_timebase_set() (a
 * configuration change) run in the holder thread under the CPU's
 * mc->lock; regulate.c's table says who else touches what.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
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

/**
 * mg_arm() - count more events of a slot until the next overflow
 * @mc: the CPU, from its holder thread
 * @s: the slot
 * @period: the events until the overflow
 * @limit: whether the overflow stops the counter (a budget, not a count)
 *
 * A limited counter gets perf's event limit of one overflow: perf then
 * disables it itself, so no budget, however small, can make the PMU
 * interrupt faster than this thread re-arms it.
 */
void mg_arm(struct mg_cpu *mc, enum mg_slot s, u64 period, bool limit)
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

/*
 * The bandwidth lock's level (bwlock.c) applied to a non-critical CPU's
 * budget of @events: per mille of it (at least one event; unlimited
 * stays unlimited) and at most the MB/s cap.
 */
static u64 mg_bwlock_cap(const struct mg_cpu *mc, u64 events, u64 period_us,
			 u32 line)
{
	u32 permille = READ_ONCE(mg_config.bwlock_permille);
	u64 mbps = READ_ONCE(mg_config.bwlock_mbps);
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

/* A counted period's statistics, from what each counter read. */
static void mg_account(struct mg_cpu *mc, const u64 used[MG_NR_SLOTS])
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

/**
 * mg_boundary() - the period ended: account it, start the next one
 * @mc: the CPU, from its holder thread
 * @line_size: mg_config's, for budgets in MB/s
 * @reclaim: mg_config's: donate predicted unused budget
 *
 * Reads and resets the counters, updates the statistics, assigns the new
 * period's budgets (donating to the reclaim pool) and re-arms.
 */
void mg_boundary(struct mg_cpu *mc, u32 line_size, bool reclaim)
{
	u64 used[MG_NR_SLOTS] = { 0 };
	ktime_t t0 = ktime_get();
	bool monitor = READ_ONCE(mg_config.monitor);
	u64 idx, cost, lat;
	bool counted;
	int s;

	if (!mc->armed)
		return;
	/* Monitor mode: count, account and trace; no limit, no reclaim. */
	if (monitor)
		reclaim = false;
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
	if (counted)
		mg_account(mc, used);

	mc->fresh = false;
	mc->period_throttled = false;
	mc->period_no = idx;
	mc->period_end = ktime_add_ns(mc->tb_start, (idx + 1) * mc->period_ns);
	mg_assign_budgets(mc, line_size, reclaim);
	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mc->event[s])
			continue;
		if (mc->allowance[s] == MG_UNLIMITED || monitor)
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
