// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's budget reclaim (MemGuard, RTAS'13): one pool per slot for the
 * current period. At its boundary a CPU donates the part of its budget it
 * is predicted not to use; a CPU that reaches its budget takes from the
 * pool. Runs in the holder threads (regulate.c), under the CPU's mc->lock;
 * the pool has a spinlock of its own.
 */
#include <linux/minmax.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "memguard.h"

static DEFINE_SPINLOCK(mg_pool_lock);
static u64 mg_pool_period;
static u64 mg_pool[MG_NR_SLOTS];

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

/**
 * mg_reclaim_donate() - give the predicted unused budget of a new period
 * @mc: the CPU, at its period boundary
 * @slot: MG_READ or MG_WRITE
 * @budget: the slot's assigned events this period (not unlimited)
 *
 * Keeps the predicted use (the running average), and a sixteenth of the
 * budget as a floor; donates the rest to the pool of this period.
 *
 * Return: the events the CPU keeps, its allowance.
 */
u64 mg_reclaim_donate(struct mg_cpu *mc, enum mg_slot slot, u64 budget)
{
	u64 keep = max3(mc->stats.used_avg[slot], budget >> 4, 1ULL);

	if (keep >= budget)
		return budget;
	mg_pool_donate(mc->period_no, slot, budget - keep);
	mc->stats.reclaim_donated += budget - keep;
	return keep;
}

/**
 * mg_reclaim_take() - more budget for a CPU that reached its allowance
 * @mc: the CPU
 * @slot: MG_READ or MG_WRITE
 * @used: the events counted so far this period
 *
 * Takes what the pool has (a core below its own assigned budget asks for
 * the rest of it first). A core that donated and finds the pool empty gets
 * its assigned budget back rather than being held below it: reclaim never
 * costs a core its reservation; such periods are counted as
 * mispredictions.
 *
 * Return: the events to count on before the next overflow, 0 for none
 * (the core is over its budget).
 */
u64 mg_reclaim_take(struct mg_cpu *mc, enum mg_slot slot, u64 used)
{
	u64 want, got;

	if (used < mc->assigned[slot])
		want = mc->assigned[slot] - used;
	else
		want = max_t(u64, mc->assigned[slot] >> 4, 1);
	got = mg_pool_take(mc->period_no, slot, want);
	if (got) {
		mc->allowance[slot] = used + got;
		mc->stats.reclaim_taken += got;
		return got;
	}
	if (used < mc->assigned[slot]) {
		mc->allowance[slot] = mc->assigned[slot];
		mc->mispredicted[slot] = true;
		mc->stats.reclaim_mispredictions++;
		return mc->assigned[slot] - used;
	}
	return 0;
}
