/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memguard: per-core memory-bandwidth regulation on the perf_event kernel
 * API. The module's internal declarations, by the file that provides
 * them. Calls only go down this list, never up:
 *
 *   main.c      load parameters, module init and exit
 *   dev.c       /dev/memguard: who may open it, its ioctls
 *   sysfs*.c    /sys/kernel/memguard/ (sysfs.h)
 *   bwlock.c    the bandwidth lock: holders, the level in force
 *   config.c    every change of the configuration, on every CPU concerned
 *   cpu.c       CPU hotplug and the holder threads
 *   counter.c   the perf counters: default events, creation, probing
 *   regulate.c  the per-CPU control loop (NMI, hard irq, holder thread)
 *               up to the hold; the state all files work on
 *   period.c    the common time base, the end of a CPU's period
 *   reclaim.c   the shared pool of unused budget
 *   parse.c     values and text of the settings, no kernel state (parse.h)
 *
 * Lock order: cpus_read_lock(), mg_config_lock (which also protects the
 * bandwidth lock's holders), a CPU's mg_cpu.lock, then the spinlocks of
 * period.c and reclaim.c. The bandwidth lock's expiry work (bwlock.c)
 * takes the first two; it is cancelled with _sync only without them.
 */
#ifndef MEMGUARD_H
#define MEMGUARD_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "parse.h"

/* Sample period of a counter that only counts: rarely interrupts. */
#define MG_COUNT_ONLY_PERIOD	BIT_ULL(62)
/* Consecutive zero-count periods after which status warns. */
#define MG_ZERO_WARN_PERIODS	1000
/*
 * Buckets of the overflow-to-hold histogram: below 1 us, then [2^(i-1),
 * 2^i) us for bucket i up to 1024 us, and the rest.
 */
#define MG_DELAY_BUCKETS	12

struct mg_stats {
	u64 periods;
	u64 throttled_periods;
	u64 throttled_ns;
	u64 used_last[MG_NR_SLOTS];
	u64 used_avg[MG_NR_SLOTS];
	u64 worst_overshoot[MG_NR_SLOTS];
	u64 spurious_overflows;
	u64 late_boundaries;
	u64 reclaim_donated;
	u64 reclaim_taken;
	u64 reclaim_mispredictions;
	u64 boundary_ns_total;
	u64 boundary_ns_max;
	u64 boundary_latency_ns_max;
	/* overflow interrupt to idle entry of holds from a busy CPU */
	u64 hold_delay_ns_max;
	u64 hold_delay_ns_total;
	u64 hold_delay_hist[MG_DELAY_BUCKETS];
	/* holds after an overflow taken in idle (time-like events) */
	u64 idle_holds;
	/* counted periods in which an armed counter did not count */
	u64 stalled_periods;
	/* boundaries at which a counter's overflow point stayed */
	u64 points_kept;
};

/* Work bits for the per-CPU thread. */
enum {
	MG_WORK_RESYNC,		/* re-read armed state and period, (re)start timer */
	MG_WORK_PERIOD,		/* the period timer expired */
	MG_WORK_OVERFLOW,	/* a counter reached its budget */
};

/* One CPU's regulation state; regulate.c's table says who touches what. */
struct mg_cpu {
	unsigned int cpu;
	/*
	 * Serialises the per-CPU thread's perf calls with configuration
	 * writers and hotplug; everything below except the timer, the
	 * irq_work and @work is protected by it.
	 */
	struct mutex lock;
	bool online;
	bool armed;
	bool critical;
	bool throttled;
	bool period_throttled;
	bool fresh;		/* counting began in this period: not accounted */
	struct perf_event *event[MG_NR_SLOTS];
	int event_err[MG_NR_SLOTS];
	struct mg_budget budget[MG_NR_SLOTS];
	u64 assigned[MG_NR_SLOTS];	/* budget this period, events */
	u64 allowance[MG_NR_SLOTS];	/* assigned - donated + reclaimed */
	bool mispredicted[MG_NR_SLOTS];
	/* enabled by the thread and not disabled by it since */
	bool counting[MG_NR_SLOTS];
	/* local_clock() at the thread's last enable, for a stall's report */
	u64 enabled_at[MG_NR_SLOTS];
	/* slots whose overflow the handler saw and the thread not yet */
	unsigned long fired;
	/* slots whose overflow may wake the thread from the handler */
	unsigned long irq_wake;
	/* slots whose overflow point moves only while disabled (counter.c) */
	unsigned long move_stopped;
	/*
	 * A slot's arming: counted up by the thread after each move of the
	 * overflow point, copied by the handler at an overflow. An overflow
	 * whose copy is older belongs to an overflow point that is gone.
	 * (Not a time: local_clock() may stand still, and two stamps then
	 * compare equal.)
	 */
	u32 arm_seq[MG_NR_SLOTS];
	u32 fired_seq[MG_NR_SLOTS];
	/*
	 * A slot's overflow point as a count: the count read before its
	 * last move plus the period it moved by. @kept: the point stayed
	 * across a boundary (period.c), so an overflow there may come
	 * before the period's allowance is used up.
	 */
	u64 point[MG_NR_SLOTS];
	bool kept[MG_NR_SLOTS];
	/*
	 * Counts are never reset: a period's events are the count at its
	 * end minus @count_base, the count at its start; @running_base is
	 * the counter's running time then, @idle_base_us the CPU's idle
	 * time (-1 if the kernel does not keep it) and @clock_base
	 * local_clock(), perf's clock, to tell a stalled counter from an
	 * idle CPU or a clock that stood still.
	 */
	u64 count_base[MG_NR_SLOTS];
	u64 running_base[MG_NR_SLOTS];
	u64 idle_base_us;
	u64 clock_base;
	/*
	 * The first overflow not yet seen by the thread, 0 if none: its
	 * local_clock() shifted left by one, bit 0 set if it interrupted
	 * the idle task. Written by the overflow handler, taken (xchg) by
	 * the thread.
	 */
	u64 overflow;
	u64 zero_periods[MG_NR_SLOTS];
	u64 period_no;
	ktime_t tb_start;
	u64 period_ns;		/* read by the timer callback */
	ktime_t period_end;
	ktime_t throttle_start;
	struct hrtimer timer;
	struct irq_work irq_work;
	struct task_struct *thread;
	unsigned long work;
	struct mg_stats stats;
};

DECLARE_PER_CPU(struct mg_cpu, mg_cpus);

/* Global configuration, written under mg_config_lock (config.c). */
struct mg_config {
	bool enabled;
	bool reclaim;
	bool monitor;		/* measure only: no CPU is ever held */
	/*
	 * The bandwidth lock's level in force (bwlock.c), applied to the
	 * non-critical CPUs' budgets at each boundary (period.c): per mille
	 * of their budgets (1000: none) and a cap in MB/s (0: none), packed
	 * into one word (MG_BWLOCK_PACK()) so that it is written and read
	 * in one access: a boundary never sees one half of a change.
	 * Read it through mg_bwlock_in_force().
	 */
	atomic64_t bwlock_level;
	u32 period_us;
	u32 line_size;
	u32 hold_priority;
	struct mg_event_spec event[MG_NR_SLOTS];
	/* Why the default event of a slot could not be used (0 if it could). */
	int default_err[MG_NR_SLOTS];
	struct mg_event_spec default_event[MG_NR_SLOTS];
};

extern struct mg_config mg_config;
extern struct mutex mg_config_lock;

/* config.c; the setters' callers hold mg_lock(). */
void mg_lock(void);
void mg_unlock(void);
int mg_cpulist_parse(const char *str, struct cpumask *mask);
int mg_check_cpus(const struct cpumask *mask, const struct cpumask *allowed);
int mg_set_event(enum mg_slot slot, const struct mg_event_spec *spec,
		 unsigned int *failed_cpu);
void mg_set_budget(unsigned int cpu, enum mg_slot slot,
		   const struct mg_budget *budget);
int mg_set_budget_list(const char *text, const struct cpumask *allowed,
		       const char **why);
void mg_set_critical(unsigned int cpu, bool critical);
void mg_set_period(u32 period_us);
void mg_set_enabled(bool enabled);
void mg_set_reclaim(bool reclaim);
void mg_set_monitor(bool monitor);
void mg_set_line_size(u32 line_size);
int mg_set_hold_priority(u32 prio);
void mg_reset_stats(unsigned int cpu);

/*
 * bwlock.c; callers hold mg_lock(), but for mg_bwlock_file_new(),
 * mg_bwlock_file_release() and mg_bwlock_max_hold(). The transitions, as the trace shows them:
 */
enum {
	MG_BWLOCK_OP_ACQUIRE, MG_BWLOCK_OP_RELEASE, MG_BWLOCK_OP_CLOSE,
	MG_BWLOCK_OP_CHANGE, MG_BWLOCK_OP_EXPIRE,
};

struct mg_bwlock_file;
struct mg_bwlock_level {
	u32 kind;		/* MEMGUARD_BWLOCK_PERMILLE or _MBPS */
	u64 value;
};

/* A level in force: per mille (1000: none) and MB/s cap (0: none). */
struct mg_bwlock_in_force {
	u32 permille;
	u64 mbps;
};

/* mg_config.bwlock_level: MB/s (< 2^32) above, per mille below. */
#define MG_BWLOCK_PACK(permille, mbps)	(((u64)(mbps) << 32) | (u32)(permille))

/**
 * mg_bwlock_in_force() - the bandwidth lock's level in force
 *
 * One read of the word bwlock.c writes once per change, so both halves
 * belong to the same level. Any context, no lock. Inline here rather
 * than in bwlock.c because period.c, below it in the list above, reads
 * it at every boundary.
 *
 * Return: the level: per mille of the budgets and the MB/s cap.
 */
static inline struct mg_bwlock_in_force mg_bwlock_in_force(void)
{
	u64 v = atomic64_read(&mg_config.bwlock_level);

	return (struct mg_bwlock_in_force){ .permille = (u32)v,
					     .mbps = v >> 32 };
}

struct mg_bwlock_state {
	unsigned int holders;	/* acquisitions, all files */
	unsigned int files;	/* files holding at least one */
	u32 permille;		/* in force; 1000 when free */
	u64 mbps;		/* in force; 0 when none */
	u64 held_ns;		/* since load, the current hold included */
	u64 acquisitions;	/* since load */
	u64 forced_releases;	/* holds ended by the maximum hold time */
};

struct mg_bwlock_file *mg_bwlock_file_new(void);
void mg_bwlock_file_release(struct mg_bwlock_file *bf);
int mg_bwlock_acquire(struct mg_bwlock_file *bf,
		      const struct mg_bwlock_level *level);
int mg_bwlock_set_level(struct mg_bwlock_file *bf,
			const struct mg_bwlock_level *level);
int mg_bwlock_release(struct mg_bwlock_file *bf);
unsigned int mg_bwlock_depth(const struct mg_bwlock_file *bf);
bool mg_bwlock_expired(const struct mg_bwlock_file *bf);
void mg_bwlock_state(struct mg_bwlock_state *st);
void mg_bwlock_set_max_hold(u32 ms);
u32 mg_bwlock_max_hold(void);

/* dev.c */
int mg_dev_init(void);
void mg_dev_exit(void);

/* cpu.c */
int mg_thread_set_priority(struct task_struct *thread, u32 prio);
int mg_cpus_start(void);
void mg_cpus_stop(void);

/* counter.c */
void mg_event_default(enum mg_slot slot, struct mg_event_spec *spec);
bool mg_event_wakes_in_irq(const struct mg_event_spec *spec);
bool mg_event_moves_stopped(const struct mg_event_spec *spec);
void mg_counter_install(struct mg_cpu *mc, enum mg_slot slot,
			struct perf_event *event,
			const struct mg_event_spec *spec);
struct perf_event *mg_counter_create(const struct mg_event_spec *spec,
				     unsigned int cpu);
int mg_event_probe(const struct mg_event_spec *spec, unsigned int *failed_cpu);

/* regulate.c */
void mg_regulate_init(void);
void mg_update_armed(struct mg_cpu *mc, bool force);
void mg_overflow_handler(struct perf_event *event,
			 struct perf_sample_data *data, struct pt_regs *regs);
int mg_thread_should_run(unsigned int cpu);
void mg_thread_fn(unsigned int cpu);

/* period.c; all but mg_timebase_set() run in the holder thread. */
void mg_timebase_set(u32 period_us);
void mg_arm(struct mg_cpu *mc, enum mg_slot s, u64 period, u64 count);
void mg_resync(struct mg_cpu *mc);
void mg_boundary(struct mg_cpu *mc, u32 line_size, bool reclaim);

/* reclaim.c; callers hold the CPU's mg_cpu.lock. */
u64 mg_reclaim_donate(struct mg_cpu *mc, enum mg_slot slot, u64 budget);
u64 mg_reclaim_take(struct mg_cpu *mc, enum mg_slot slot, u64 used);

/* sysfs.c */
int mg_sysfs_init(void);
void mg_sysfs_exit(void);

#endif /* MEMGUARD_H */
