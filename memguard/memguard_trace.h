/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM memguard

#if !defined(MEMGUARD_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define MEMGUARD_TRACE_H

#include <linux/tracepoint.h>

/*
 * A core used its budget and is held idle until the period ends: emitted
 * as the hold begins. delay_ns: from the overflow interrupt to here,
 * wake_ns: from it to the holder thread running (0 both if no overflow
 * was stamped); idle: that overflow interrupted the idle task.
 */
TRACE_EVENT(memguard_throttle,
	    TP_PROTO(unsigned int cpu, u64 period, u64 read_used, u64 write_used, u64 hold_ns,
		     u64 delay_ns, u64 wake_ns, bool idle),
	    TP_ARGS(cpu, period, read_used, write_used, hold_ns, delay_ns, wake_ns, idle),
	    TP_STRUCT__entry(__field(unsigned int, cpu)
			     __field(u64, period)
			     __field(u64, read_used)
			     __field(u64, write_used)
			     __field(u64, hold_ns)
			     __field(u64, delay_ns)
			     __field(u64, wake_ns)
			     __field(bool, idle)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->period = period;
			   __entry->read_used = read_used;
			   __entry->write_used = write_used;
			   __entry->hold_ns = hold_ns;
			   __entry->delay_ns = delay_ns;
			   __entry->wake_ns = wake_ns;
			   __entry->idle = idle;),
	    TP_printk("cpu=%u period=%llu read_used=%llu write_used=%llu hold_ns=%llu delay_ns=%llu wake_ns=%llu idle=%d",
		      __entry->cpu, __entry->period, __entry->read_used,
		      __entry->write_used, __entry->hold_ns, __entry->delay_ns,
		      __entry->wake_ns, __entry->idle)
);

/* The hold ended; held_ns is how long the core was idle. */
TRACE_EVENT(memguard_release,
	    TP_PROTO(unsigned int cpu, u64 period, u64 held_ns),
	    TP_ARGS(cpu, period, held_ns),
	    TP_STRUCT__entry(__field(unsigned int, cpu)
			     __field(u64, period)
			     __field(u64, held_ns)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->period = period;
			   __entry->held_ns = held_ns;),
	    TP_printk("cpu=%u period=%llu held_ns=%llu",
		      __entry->cpu, __entry->period, __entry->held_ns)
);

/*
 * A period of an armed core ended: events used against the budget in
 * effect (-1: unlimited), and the period length that applied.
 */
TRACE_EVENT(memguard_period,
	    TP_PROTO(unsigned int cpu, u64 period, u64 read_used, s64 read_budget, u64 write_used,
		     s64 write_budget, u32 period_us, bool throttled),
	    TP_ARGS(cpu, period, read_used, read_budget, write_used, write_budget, period_us,
		    throttled),
	    TP_STRUCT__entry(__field(unsigned int, cpu)
			     __field(u64, period)
			     __field(u64, read_used)
			     __field(s64, read_budget)
			     __field(u64, write_used)
			     __field(s64, write_budget)
			     __field(u32, period_us)
			     __field(bool, throttled)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->period = period;
			   __entry->read_used = read_used;
			   __entry->read_budget = read_budget;
			   __entry->write_used = write_used;
			   __entry->write_budget = write_budget;
			   __entry->period_us = period_us;
			   __entry->throttled = throttled;),
	    TP_printk("cpu=%u period=%llu read_used=%llu read_budget=%lld write_used=%llu write_budget=%lld period_us=%u throttled=%d",
		      __entry->cpu, __entry->period, __entry->read_used,
		      __entry->read_budget, __entry->write_used,
		      __entry->write_budget, __entry->period_us,
		      __entry->throttled)
);

/*
 * An armed counter stalled in a counted period (period.c's
 * mg_check_stall()): it ran running_ns on the PMU (0: not at all) and
 * counted used events in the clock_ns of local_clock() the period took,
 * while the CPU was idle for idle_ns (-1: unknown); counting says whether
 * memguard had it enabled, enabled_ns how long before the period's end it
 * last enabled it. memguard enabled it again.
 */
TRACE_EVENT(memguard_stalled,
	    TP_PROTO(unsigned int cpu, u64 period, int slot, u64 used, u64 running_ns,
		     u64 idle_ns, u64 clock_ns, bool counting, u64 enabled_ns),
	    TP_ARGS(cpu, period, slot, used, running_ns, idle_ns, clock_ns, counting,
		    enabled_ns),
	    TP_STRUCT__entry(__field(unsigned int, cpu)
			     __field(u64, period)
			     __field(int, slot)
			     __field(u64, used)
			     __field(u64, running_ns)
			     __field(s64, idle_ns)
			     __field(u64, clock_ns)
			     __field(bool, counting)
			     __field(u64, enabled_ns)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->period = period;
			   __entry->slot = slot;
			   __entry->used = used;
			   __entry->running_ns = running_ns;
			   __entry->idle_ns = idle_ns == U64_MAX ? -1 : (s64)idle_ns;
			   __entry->clock_ns = clock_ns;
			   __entry->counting = counting;
			   __entry->enabled_ns = enabled_ns;),
	    TP_printk("cpu=%u period=%llu slot=%s used=%llu running_ns=%llu idle_ns=%lld clock_ns=%llu counting=%d enabled_ns=%llu",
		      __entry->cpu, __entry->period,
		      __entry->slot ? "write" : "read", __entry->used,
		      __entry->running_ns, __entry->idle_ns, __entry->clock_ns,
		      __entry->counting, __entry->enabled_ns)
);

/*
 * The bandwidth lock changed: an acquisition, a release, or the
 * acquisitions a closed file still held (op) by process pid; the
 * acquisitions counted after it and the level in force (per mille of the
 * budgets, 1000: none; MB/s cap, 0: none); held_ns when the lock ended.
 * op is also "change", a held level changed in place (SET_LEVEL), and
 * "expire", a file's acquisitions dropped by the module because its hold
 * outlasted bwlock_max_hold_ms (pid: the process that started the hold).
 */
TRACE_EVENT(memguard_bwlock,
	    TP_PROTO(int op, pid_t pid, unsigned int holders, u32 permille, u64 mbps, u64 held_ns),
	    TP_ARGS(op, pid, holders, permille, mbps, held_ns),
	    TP_STRUCT__entry(__field(int, op)
			     __field(pid_t, pid)
			     __field(unsigned int, holders)
			     __field(u32, permille)
			     __field(u64, mbps)
			     __field(u64, held_ns)),
	    TP_fast_assign(__entry->op = op;
			   __entry->pid = pid;
			   __entry->holders = holders;
			   __entry->permille = permille;
			   __entry->mbps = mbps;
			   __entry->held_ns = held_ns;),
	    TP_printk("op=%s pid=%d holders=%u permille=%u mbps=%llu held_ns=%llu",
		      __print_symbolic(__entry->op, { 0, "acquire" }, { 1, "release" },
				       { 2, "close" }, { 3, "change" },
				       { 4, "expire" }),
		      __entry->pid, __entry->holders, __entry->permille,
		      __entry->mbps, __entry->held_ns)
);

#endif /* MEMGUARD_TRACE_H */

/* Out of tree the header lives next to the sources (CFLAGS -I$(src)). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE memguard_trace
#include <trace/define_trace.h>
