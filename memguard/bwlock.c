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
 */
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <colorguard/memguard.h>

#include "memguard.h"
#include "memguard_trace.h"

/* One open file of /dev/memguard. */
struct mg_bwlock_file {
	struct list_head node;		/* on mg_bwlock_files while depth > 0 */
	unsigned int depth;
	struct mg_bwlock_level level[MEMGUARD_BWLOCK_DEPTH_MAX];
};

/* All below: mg_config_lock. */
static LIST_HEAD(mg_bwlock_files);
static unsigned int mg_bwlock_holders;
static unsigned int mg_bwlock_nfiles;
static ktime_t mg_bwlock_since;
static u64 mg_bwlock_held_ns;
static u64 mg_bwlock_acquisitions;

/**
 * mg_bwlock_file_new() - the lock's part of a new open file
 *
 * Return: the object, holding nothing, or NULL.
 */
struct mg_bwlock_file *mg_bwlock_file_new(void)
{
	struct mg_bwlock_file *bf = kzalloc(sizeof(*bf), GFP_KERNEL);

	if (bf)
		INIT_LIST_HEAD(&bf->node);
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

/* A transition: account the time held, apply, trace. */
static void mg_bwlock_changed(int op, unsigned int old_holders)
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
	trace_memguard_bwlock(op, task_tgid_nr(current), mg_bwlock_holders,
			      lvl.permille, lvl.mbps, held);
}

/**
 * mg_bwlock_acquire() - a file takes the lock (once more) at a level
 * @bf: the file's part
 * @level: checked by the caller (kind and range)
 *
 * Return: 0, or -EBUSY when @bf already holds MEMGUARD_BWLOCK_DEPTH_MAX
 * acquisitions (nothing changes then).
 */
int mg_bwlock_acquire(struct mg_bwlock_file *bf,
		      const struct mg_bwlock_level *level)
{
	unsigned int old = mg_bwlock_holders;

	if (bf->depth >= MEMGUARD_BWLOCK_DEPTH_MAX)
		return -EBUSY;
	bf->level[bf->depth++] = *level;
	if (bf->depth == 1) {
		list_add_tail(&bf->node, &mg_bwlock_files);
		mg_bwlock_nfiles++;
	}
	mg_bwlock_holders++;
	mg_bwlock_acquisitions++;
	mg_bwlock_changed(MG_BWLOCK_OP_ACQUIRE, old);
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
 * one could between a release and an acquisition).
 *
 * Return: 0, or -EPERM when @bf holds nothing (nothing changes then).
 */
int mg_bwlock_set_level(struct mg_bwlock_file *bf,
			const struct mg_bwlock_level *level)
{
	if (!bf->depth)
		return -EPERM;
	bf->level[bf->depth - 1] = *level;
	mg_bwlock_changed(MG_BWLOCK_OP_CHANGE, mg_bwlock_holders);
	return 0;
}

/* Drop @n of the file's most recent acquisitions. */
static void mg_bwlock_drop(struct mg_bwlock_file *bf, unsigned int n, int op)
{
	unsigned int old = mg_bwlock_holders;

	bf->depth -= n;
	mg_bwlock_holders -= n;
	if (!bf->depth) {
		list_del_init(&bf->node);
		mg_bwlock_nfiles--;
	}
	mg_bwlock_changed(op, old);
}

/**
 * mg_bwlock_release() - a file releases its most recent acquisition
 * @bf: the file's part
 *
 * Return: 0, or -EPERM when @bf holds nothing (nothing changes then).
 */
int mg_bwlock_release(struct mg_bwlock_file *bf)
{
	if (!bf->depth)
		return -EPERM;
	mg_bwlock_drop(bf, 1, MG_BWLOCK_OP_RELEASE);
	return 0;
}

/**
 * mg_bwlock_file_release() - the file's last reference is gone
 * @bf: the file's part, freed here
 *
 * Whatever the file still holds is released: a task that exits or is
 * killed inside its critical section does not leave the lock set.
 * Unlike the other functions here, takes mg_lock() itself.
 */
void mg_bwlock_file_release(struct mg_bwlock_file *bf)
{
	mg_lock();
	if (bf->depth)
		mg_bwlock_drop(bf, bf->depth, MG_BWLOCK_OP_CLOSE);
	mg_unlock();
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
	st->held_ns = mg_bwlock_held_ns;
	if (mg_bwlock_holders)
		st->held_ns += ktime_to_ns(ktime_sub(ktime_get(),
						     mg_bwlock_since));
}
