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
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <linux/tick.h>

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
 * mg_arm() - move a slot's overflow point @period events ahead of now
 * @mc: the CPU, from its holder thread
 * @s: the slot
 * @period: the events until the overflow (MG_COUNT_ONLY_PERIOD: none)
 * @count: the slot's count as last read, where the new point starts
 *
 * A counter is enabled here and otherwise only moved: perf never stops
 * it (memguard sets no event limit), so no stop perf queues can strike
 * after a boundary, on any kernel. Only the hold decision stops one, a
 * counter over its budget, itself, and the next boundary enables it
 * again. perf_event_period() also restarts a counter perf throttled; a
 * software event other than a clock moves only while disabled
 * (counter.c, mg_event_moves_stopped()), so it is stopped around it. An
 * overflow of the new point taken before @mc->arm_seq counts up passes
 * for a stale one: a budget that small overflows again at once. The
 * point as a count is @count plus @period; the events counted between
 * that read and the move fall before the real point (as a boundary's
 * own work does).
 */
void mg_arm(struct mg_cpu *mc, enum mg_slot s, u64 period, u64 count)
{
	struct perf_event *ev = mc->event[s];

	if (mc->counting[s] && test_bit(s, &mc->move_stopped)) {
		perf_event_disable(ev);
		mc->counting[s] = false;
	}
	perf_event_period(ev, period);
	if (!mc->counting[s]) {
		perf_event_enable(ev);
		mc->counting[s] = true;
		mc->enabled_at[s] = local_clock();
	}
	mc->point[s] = count + period;
	mc->kept[s] = false;
	/* After the move: an overflow before it must not pass for a new one. */
	WRITE_ONCE(mc->arm_seq[s], mc->arm_seq[s] + 1);
}

/* A slot's count, and its running time in @running. */
static u64 mg_read(struct mg_cpu *mc, enum mg_slot s, u64 *running)
{
	u64 enabled;

	return perf_event_read_value(mc->event[s], &enabled, running);
}

static u64 mg_period_index(struct mg_cpu *mc, ktime_t now)
{
	return div64_u64(ktime_to_ns(ktime_sub(now, mc->tb_start)),
			 mc->period_ns);
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

/*
 * Every counter's events and running time since the last boundary, which
 * moves to now.
 */
static void mg_read_all(struct mg_cpu *mc, u64 used[MG_NR_SLOTS],
			u64 ran[MG_NR_SLOTS])
{
	u64 count, running;
	int s;

	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mc->event[s])
			continue;
		count = mg_read(mc, s, &running);
		used[s] = count - mc->count_base[s];
		mc->count_base[s] = count;
		ran[s] = running - mc->running_base[s];
		mc->running_base[s] = running;
	}
}

/* What the CPU's clocks saw since the last boundary, which moves to now. */
struct mg_elapsed {
	u64 idle_ns;	/* idle time; U64_MAX when the kernel keeps none */
	u64 clock_ns;	/* local_clock(), which perf times counters with */
};

static void mg_take_elapsed(struct mg_cpu *mc, struct mg_elapsed *e)
{
	u64 idle_us = get_cpu_idle_time_us(mc->cpu, NULL);
	u64 clock = local_clock();

	e->idle_ns = U64_MAX;
	if (idle_us != (u64)-1 && mc->idle_base_us != (u64)-1 &&
	    idle_us >= mc->idle_base_us)
		e->idle_ns = (idle_us - mc->idle_base_us) * NSEC_PER_USEC;
	mc->idle_base_us = idle_us;
	e->clock_ns = clock - mc->clock_base;
	mc->clock_base = clock;
}

/*
 * A counter that counted through a whole period without a hold stalled
 * if it never ran on the PMU then, or if it had a budget and counted
 * nothing while the CPU was busy (idle for less than half the period):
 * something memguard did not do stopped it, and the CPU ran unregulated.
 * Count it, trace it and enable the counter again: perf_event_enable()
 * restarts a counter that was disabled or in error (a throttled one
 * restarts with the move of its overflow point that follows: the
 * returned slots must move theirs). A held
 * period is no stall (the counter reached its budget; the hold stopped
 * it), nor one in which perf's clock did not advance by half a period:
 * running times are in that clock, which, without a stable TSC, may
 * stand still up to a tick while ktime goes on (seen in x86 TCG guests).
 */
static unsigned long mg_check_stall(struct mg_cpu *mc,
				    const u64 used[MG_NR_SLOTS],
				    const u64 ran[MG_NR_SLOTS],
				    const u64 allowance[MG_NR_SLOTS],
				    const struct mg_elapsed *e, bool monitor)
{
	bool busy = e->idle_ns < mc->period_ns / 2;
	unsigned long stalled = 0;
	int s;

	if (mc->period_throttled || e->clock_ns < mc->period_ns / 2)
		return 0;
	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mc->event[s])
			continue;
		if (ran[s] &&
		    (used[s] || !busy || monitor || allowance[s] == MG_UNLIMITED))
			continue;
		trace_memguard_stalled(mc->cpu, mc->period_no, s, used[s],
				       ran[s], e->idle_ns, e->clock_ns,
				       mc->counting[s],
				       mc->clock_base - mc->enabled_at[s]);
		perf_event_enable(mc->event[s]);
		stalled |= BIT(s);
	}
	if (stalled)
		mc->stats.stalled_periods++;
	return stalled;
}

/*
 * May a slot's overflow point stay where it is for a new period that
 * wants it @period events ahead (MG_COUNT_ONLY_PERIOD: count only)? Yes
 * if the counter counts and the point lies between half of @period and
 * @period ahead of the count just read: then it comes too early at worst
 * (mg_overflow() reads the count there and moves it on), and only after
 * a burst of more than half the allowance; a count-only point stays
 * count-only. Saves a boundary its perf_event_period() call on a CPU
 * below its budget, the common case of an armed CPU.
 */
static bool mg_point_stays(const struct mg_cpu *mc, int s, u64 period)
{
	u64 ahead = mc->point[s] - mc->count_base[s];

	return mc->counting[s] && mc->point[s] > mc->count_base[s] &&
	       ahead <= period && ahead >= period / 2;
}

/*
 * Every counter armed for the new period's allowances; the slots in
 * @may_stay keep their overflow points where mg_point_stays() allows.
 * A kept point still counts as a new arming: an overflow raised before
 * this boundary belongs to the period that ended.
 */
static void mg_arm_all(struct mg_cpu *mc, bool monitor, unsigned long may_stay)
{
	u64 period;
	int s;

	for (s = 0; s < MG_NR_SLOTS; s++) {
		if (!mc->event[s])
			continue;
		period = mc->allowance[s];
		if (period == MG_UNLIMITED || monitor)
			period = MG_COUNT_ONLY_PERIOD;
		if (test_bit(s, &may_stay) && mg_point_stays(mc, s, period)) {
			mc->kept[s] = true;
			mc->stats.points_kept++;
			WRITE_ONCE(mc->arm_seq[s], mc->arm_seq[s] + 1);
			continue;
		}
		mg_arm(mc, s, period, mc->count_base[s]);
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
 * mg_resync() - start or stop a CPU's period timer after a change
 * @mc: the CPU, from its holder thread
 *
 * An armed CPU takes the common time base and starts its timer for the
 * end of the current period; a disarmed one stops timer and counters.
 * A CPU that starts counting anew (armed again, a new time base, a new
 * counter, monitor mode switched) is regulated from here on: the period
 * under way gets its budgets at once, so a change never leaves a period
 * unregulated; the next boundary does not account it (it began before).
 */
void mg_resync(struct mg_cpu *mc)
{
	u64 used[MG_NR_SLOTS], ran[MG_NR_SLOTS];
	struct mg_elapsed e;
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
	if (!mc->fresh)
		return;
	mc->period_no = idx;
	mc->period_throttled = false;
	mg_read_all(mc, used, ran);
	mg_take_elapsed(mc, &e);
	mg_assign_budgets(mc, READ_ONCE(mg_config.line_size), false);
	mg_arm_all(mc, READ_ONCE(mg_config.monitor), 0);
}

/**
 * mg_boundary() - the period ended: account it, start the next one
 * @mc: the CPU, from its holder thread
 * @line_size: mg_config's, for budgets in MB/s
 * @reclaim: mg_config's: donate predicted unused budget
 *
 * Reads the counters (perf_event_read_value(): counts are never reset,
 * each period is a difference of counts), updates the statistics, checks
 * that every counter counted, assigns the new period's budgets (donating
 * to the reclaim pool, which predicts from the ended period) and moves
 * each counter's overflow point, or keeps it where it may stay
 * (mg_point_stays()): one or two perf calls per counter.
 */
void mg_boundary(struct mg_cpu *mc, u32 line_size, bool reclaim)
{
	u64 used[MG_NR_SLOTS] = { 0 }, ran[MG_NR_SLOTS] = { 0 };
	ktime_t t0 = ktime_get();
	bool monitor = READ_ONCE(mg_config.monitor);
	unsigned long stalled = 0;
	struct mg_elapsed e;
	u64 idx, cost, lat;
	bool counted;

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
	mg_read_all(mc, used, ran);
	mg_take_elapsed(mc, &e);
	if (counted) {
		mg_account(mc, used, mc->allowance);
		stalled = mg_check_stall(mc, used, ran, mc->allowance, &e,
					 monitor);
	}
	mg_next_period(mc, idx);
	mg_assign_budgets(mc, line_size, reclaim);
	/* Reclaim's donations are per period: its points always move. */
	mg_arm_all(mc, monitor, reclaim ? 0 : ~stalled);

	cost = ktime_to_ns(ktime_sub(ktime_get(), t0));
	mc->stats.boundary_ns_total += cost;
	if (cost > mc->stats.boundary_ns_max)
		mc->stats.boundary_ns_max = cost;
	lat = ktime_to_ns(ktime_sub(t0, ktime_add_ns(mc->tb_start,
						     idx * mc->period_ns)));
	if (lat > mc->stats.boundary_latency_ns_max)
		mc->stats.boundary_latency_ns_max = lat;
}
