// SPDX-License-Identifier: GPL-2.0
/*
 * The bandwidth lock (the idea of BWLOCK, Yun et al., RTAS 2015): while a
 * task is in a memory-critical section, every non-critical CPU gets a
 * smaller budget, so that the critical work finds DRAM less contended.
 * This file keeps the holders and the level in force; dev.c gives tasks
 * the lock through /dev/memguard, period.c applies the level to each
 * CPU's budgets at its period boundaries, so a change reaches every CPU
 * within one period. The configured budgets are never written: the end
 * of the lock restores them exactly.
 *
 * Each open file of /dev/memguard keeps a stack of its acquisitions
 * (nested ones included); the level in force is the strictest of all
 * acquisitions of all files: the smallest per mille and the smallest
 * MB/s cap. Everything here runs in process context under mg_lock()
 * (cpus_read_lock() and mg_config_lock), which also orders it against
 * configuration writers and CPU hotplug; the holder threads read the
 * level with mg_bwlock_in_force() only: one word, written once per
 * change, so that a boundary applies either the old level or the new
 * one, never the per mille of one and the MB/s cap of the other.
 *
 * No hold lasts longer than bwlock_max_hold_ms: a delayed work per file,
 * queued when the file's hold starts (its first acquisition), drops all
 * of the file's acquisitions when it has held the lock that long, and
 * marks the file so that its holder learns it (the next call that would
 * change the lock fails with ETIMEDOUT; GET reports it). The work takes
 * mg_lock() like any caller here; it is cancelled without waiting under
 * the lock and waited for only at the file's release, outside it.
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <colorguard/memguard.h>

#include "memguard.h"
#include "memguard_trace.h"

/* One open file of /dev/memguard; all but @expire: mg_config_lock. */
struct mg_bwlock_file {
	struct list_head node;		/* on mg_bwlock_files while depth > 0 */
	unsigned int depth;
	bool expired;			/* hold ended by the module, not told */
	pid_t tgid;			/* who started the hold */
	ktime_t since;			/* the hold's start */
	struct delayed_work expire;	/* queued while depth > 0 */
	struct mg_bwlock_level level[MEMGUARD_BWLOCK_DEPTH_MAX];
};

/* All below: mg_config_lock. */
static LIST_HEAD(mg_bwlock_files);
static unsigned int mg_bwlock_holders;
static unsigned int mg_bwlock_nfiles;
static ktime_t mg_bwlock_since;
static u64 mg_bwlock_held_ns;
static u64 mg_bwlock_acquisitions;
static u64 mg_bwlock_forced;
/* Written under mg_config_lock, read by sysfs without it. */
static u32 mg_bwlock_max_hold_ms = MG_BWLOCK_MAX_HOLD_MS_DEFAULT;

static void mg_bwlock_expire_fn(struct work_struct *work);

/**
 * mg_bwlock_file_new() - the lock's part of a new open file
 *
 * Return: the object, holding nothing, or NULL.
 */
struct mg_bwlock_file *mg_bwlock_file_new(void)
{
	struct mg_bwlock_file *bf = kzalloc(sizeof(*bf), GFP_KERNEL);

	if (bf) {
		INIT_LIST_HEAD(&bf->node);
		INIT_DELAYED_WORK(&bf->expire, mg_bwlock_expire_fn);
	}
	return bf;
}

/*
 * The strictest level of all acquisitions into mg_config; CPUs whose
 * armed state depends on an MB/s cap are re-armed or disarmed.
 */
static void mg_bwlock_apply(void)
{
	struct mg_bwlock_file *bf;
	u32 permille = MEMGUARD_BWLOCK_PERMILLE_MAX;
	u64 mbps = 0;
	bool had_cap = mg_bwlock_in_force().mbps;
	unsigned int cpu, i;

	list_for_each_entry(bf, &mg_bwlock_files, node) {
		for (i = 0; i < bf->depth; i++) {
			const struct mg_bwlock_level *l = &bf->level[i];

			if (l->kind == MEMGUARD_BWLOCK_PERMILLE)
				permille = min_t(u32, permille, l->value);
			else if (!mbps || l->value < mbps)
				mbps = l->value;
		}
	}
	atomic64_set(&mg_config.bwlock_level, MG_BWLOCK_PACK(permille, mbps));
	if (had_cap == !!mbps)
		return;
	for_each_online_cpu(cpu) {
		struct mg_cpu *mc = per_cpu_ptr(&mg_cpus, cpu);

		mutex_lock(&mc->lock);
		mg_update_armed(mc, false);
		mutex_unlock(&mc->lock);
	}
}

/* A transition of @pid's file: account the time held, apply, trace. */
static void mg_bwlock_changed(int op, pid_t pid, unsigned int old_holders)
{
	struct mg_bwlock_in_force lvl;
	ktime_t now = ktime_get();
	u64 held = 0;

	if (!old_holders && mg_bwlock_holders) {
		mg_bwlock_since = now;
	} else if (old_holders && !mg_bwlock_holders) {
		held = ktime_to_ns(ktime_sub(now, mg_bwlock_since));
		mg_bwlock_held_ns += held;
	}
	mg_bwlock_apply();
	lvl = mg_bwlock_in_force();
	trace_memguard_bwlock(op, pid, mg_bwlock_holders, lvl.permille,
			      lvl.mbps, held);
}

/*
 * (Re)queue the file's expiry for the end of its hold, at the maximum
 * hold time in force now (jiffies late rather than early: an early run
 * queues itself again).
 */
static void mg_bwlock_arm_expiry(struct mg_bwlock_file *bf)
{
	ktime_t end = ktime_add_ms(bf->since, mg_bwlock_max_hold_ms);
	s64 left = ktime_to_ns(ktime_sub(end, ktime_get()));
	unsigned long delay = 0;

	if (left > 0)
		delay = msecs_to_jiffies(div_u64(left, NSEC_PER_MSEC) + 1);
	mod_delayed_work(system_unbound_wq, &bf->expire, delay);
}

/*
 * The first call that would change the lock after the module ended the
 * file's hold fails, once, so that the holder learns it.
 */
static bool mg_bwlock_tell_expired(struct mg_bwlock_file *bf)
{
	if (!bf->expired)
		return false;
	bf->expired = false;
	return true;
}

/**
 * mg_bwlock_acquire() - a file takes the lock (once more) at a level
 * @bf: the file's part
 * @level: checked by the caller (kind and range)
 *
 * The first acquisition starts the file's hold, which lasts at most the
 * maximum hold time.
 *
 * Return: 0, -ETIMEDOUT once after the module ended the file's hold, or
 * -EBUSY when @bf already holds MEMGUARD_BWLOCK_DEPTH_MAX acquisitions
 * (nothing changes then).
 */
int mg_bwlock_acquire(struct mg_bwlock_file *bf,
		      const struct mg_bwlock_level *level)
{
	unsigned int old = mg_bwlock_holders;

	if (mg_bwlock_tell_expired(bf))
		return -ETIMEDOUT;
	if (bf->depth >= MEMGUARD_BWLOCK_DEPTH_MAX)
		return -EBUSY;
	bf->level[bf->depth++] = *level;
	if (bf->depth == 1) {
		list_add_tail(&bf->node, &mg_bwlock_files);
		mg_bwlock_nfiles++;
		bf->tgid = task_tgid_nr(current);
		bf->since = ktime_get();
		mg_bwlock_arm_expiry(bf);
	}
	mg_bwlock_holders++;
	mg_bwlock_acquisitions++;
	mg_bwlock_changed(MG_BWLOCK_OP_ACQUIRE, task_tgid_nr(current), old);
	return 0;
}

/**
 * mg_bwlock_set_level() - a file changes the level of its most recent
 * acquisition in place
 * @bf: the file's part
 * @level: checked by the caller (kind and range)
 *
 * One transition: the lock stays held, with the old level until the new
 * one is in force, so no boundary can find it released in between (as
 * one could between a release and an acquisition). The hold keeps its
 * start: a change does not prolong it.
 *
 * Return: 0, -ETIMEDOUT once after the module ended the file's hold, or
 * -EPERM when @bf holds nothing (nothing changes then).
 */
int mg_bwlock_set_level(struct mg_bwlock_file *bf,
			const struct mg_bwlock_level *level)
{
	if (mg_bwlock_tell_expired(bf))
		return -ETIMEDOUT;
	if (!bf->depth)
		return -EPERM;
	bf->level[bf->depth - 1] = *level;
	mg_bwlock_changed(MG_BWLOCK_OP_CHANGE, task_tgid_nr(current),
			  mg_bwlock_holders);
	return 0;
}

/* Drop @n of the file's most recent acquisitions, for @pid. */
static void mg_bwlock_drop(struct mg_bwlock_file *bf, unsigned int n, int op,
			   pid_t pid)
{
	unsigned int old = mg_bwlock_holders;

	bf->depth -= n;
	mg_bwlock_holders -= n;
	if (!bf->depth) {
		list_del_init(&bf->node);
		mg_bwlock_nfiles--;
		/* A run already started finds depth 0 and does nothing. */
		cancel_delayed_work(&bf->expire);
	}
	mg_bwlock_changed(op, pid, old);
}

/*
 * A file's hold may have outlasted the maximum hold time: if so, drop
 * all of its acquisitions and mark it; if not (a new hold, a longer
 * maximum), wait for the rest.
 */
static void mg_bwlock_expire_fn(struct work_struct *work)
{
	struct mg_bwlock_file *bf = container_of(to_delayed_work(work),
						 struct mg_bwlock_file, expire);
	u64 held;

	mg_lock();
	if (bf->depth) {
		held = ktime_to_ns(ktime_sub(ktime_get(), bf->since));
		if (held >= (u64)mg_bwlock_max_hold_ms * NSEC_PER_MSEC) {
			bf->expired = true;
			mg_bwlock_forced++;
			mg_bwlock_drop(bf, bf->depth, MG_BWLOCK_OP_EXPIRE,
				       bf->tgid);
		} else {
			mg_bwlock_arm_expiry(bf);
		}
	}
	mg_unlock();
}

/**
 * mg_bwlock_release() - a file releases its most recent acquisition
 * @bf: the file's part
 *
 * Return: 0, -ETIMEDOUT once after the module ended the file's hold, or
 * -EPERM when @bf holds nothing (nothing changes then).
 */
int mg_bwlock_release(struct mg_bwlock_file *bf)
{
	if (mg_bwlock_tell_expired(bf))
		return -ETIMEDOUT;
	if (!bf->depth)
		return -EPERM;
	mg_bwlock_drop(bf, 1, MG_BWLOCK_OP_RELEASE, task_tgid_nr(current));
	return 0;
}

/**
 * mg_bwlock_file_release() - the file's last reference is gone
 * @bf: the file's part, freed here
 *
 * Whatever the file still holds is released: a task that exits or is
 * killed inside its critical section does not leave the lock set.
 * Unlike the other functions here, takes mg_lock() itself; then waits
 * for a run of the file's expiry work, which takes it too.
 */
void mg_bwlock_file_release(struct mg_bwlock_file *bf)
{
	mg_lock();
	if (bf->depth)
		mg_bwlock_drop(bf, bf->depth, MG_BWLOCK_OP_CLOSE,
			       task_tgid_nr(current));
	mg_unlock();
	cancel_delayed_work_sync(&bf->expire);
	kfree(bf);
}

/**
 * mg_bwlock_depth() - acquisitions a file holds
 * @bf: the file's part
 *
 * Return: the file's nesting depth, 0 when it holds nothing.
 */
unsigned int mg_bwlock_depth(const struct mg_bwlock_file *bf)
{
	return bf->depth;
}

/**
 * mg_bwlock_expired() - did the module end the file's hold, untold yet?
 * @bf: the file's part
 *
 * Return: true from the end of a hold by the maximum hold time until the
 * file's next call that would change the lock.
 */
bool mg_bwlock_expired(const struct mg_bwlock_file *bf)
{
	return bf->expired;
}

/**
 * mg_bwlock_set_max_hold() - a new maximum hold time
 * @ms: checked by the caller (mg_bwlock_max_hold_check())
 *
 * Applies to the holds in progress too: each one's expiry is queued
 * again for its start plus @ms, so one held longer than that already
 * ends at once.
 */
void mg_bwlock_set_max_hold(u32 ms)
{
	struct mg_bwlock_file *bf;

	WRITE_ONCE(mg_bwlock_max_hold_ms, ms);
	list_for_each_entry(bf, &mg_bwlock_files, node)
		mg_bwlock_arm_expiry(bf);
}

/**
 * mg_bwlock_max_hold() - the maximum hold time, any context
 *
 * Return: milliseconds.
 */
u32 mg_bwlock_max_hold(void)
{
	return READ_ONCE(mg_bwlock_max_hold_ms);
}

/**
 * mg_bwlock_state() - the lock as it is now, for sysfs and the GET ioctl
 * @st: filled in
 */
void mg_bwlock_state(struct mg_bwlock_state *st)
{
	struct mg_bwlock_in_force lvl = mg_bwlock_in_force();

	st->holders = mg_bwlock_holders;
	st->files = mg_bwlock_nfiles;
	st->permille = lvl.permille;
	st->mbps = lvl.mbps;
	st->acquisitions = mg_bwlock_acquisitions;
	st->forced_releases = mg_bwlock_forced;
	st->held_ns = mg_bwlock_held_ns;
	if (mg_bwlock_holders)
		st->held_ns += ktime_to_ns(ktime_sub(ktime_get(),
						     mg_bwlock_since));
}
