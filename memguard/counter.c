// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's perf counters: the default event of each slot per
 * architecture, creating a CPU's counter for an event, and probing that an
 * event can be counted on every online CPU. Event names are parse.c's.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/perf_event.h>

#include "memguard.h"

/**
 * mg_event_default() - the architecture's default event of a slot
 * @slot: MG_READ or MG_WRITE
 * @spec: the result
 *
 * One event = one cache line:
 * arm64: Armv8 PMUv3 common events (Arm ARM DDI 0487, "PMU events";
 * ARMV8_PMUV3_PERFCTR_* in arch/arm64/include/asm/perf_event.h):
 * 0x17 L2D_CACHE_REFILL (refills of the L2, the LLC of Cortex-A53/A57/A72
 * clusters) and 0x18 L2D_CACHE_WB (write-backs out of the L2). Parts with
 * an L3 behind a DSU count LLC misses with 0x37 LL_CACHE_MISS_RD; set it
 * with read_event=raw:0x37.
 * x86: no generic writeback event exists; the closest generic events are
 * LLC-load-misses (lines read from memory) and LLC-store-misses (RFO
 * misses: lines fetched for ownership that later leave dirty).
 */
void mg_event_default(enum mg_slot slot, struct mg_event_spec *spec)
{
#if defined(CONFIG_ARM64)
	*spec = (struct mg_event_spec){
		.type = PERF_TYPE_RAW,
		.config = slot == MG_READ ? 0x17 : 0x18,
	};
#elif defined(CONFIG_X86)
	*spec = (struct mg_event_spec){
		.type = PERF_TYPE_HW_CACHE,
		.config = slot == MG_READ ? MG_HW_CACHE(LL, READ, MISS) :
					    MG_HW_CACHE(LL, WRITE, MISS),
	};
#else
	if (slot == MG_READ)
		*spec = (struct mg_event_spec){
			.type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_CACHE_MISSES,
		};
	else
		*spec = (struct mg_event_spec){ .none = true };
#endif
}

/**
 * mg_event_wakes_in_irq() - may an overflow of this event wake a thread?
 * @spec: the event
 *
 * Overflows of a PMU event arrive in its interrupt (NMI on x86 and with
 * arm64's pseudo-NMI, the handler checks that), those of the cpu-clock
 * software event in an hrtimer's hard irq: no lock is held there. Other
 * software events are counted inside the scheduler (context switches,
 * migrations) with its locks held, where no task may be woken.
 *
 * Return: true if the overflow handler may wake the holder itself when it
 * does not run in NMI.
 */
bool mg_event_wakes_in_irq(const struct mg_event_spec *spec)
{
	switch (spec->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		return !spec->none;
	case PERF_TYPE_SOFTWARE:
		return spec->config == PERF_COUNT_SW_CPU_CLOCK;
	}
	return false;
}

/**
 * mg_event_moves_stopped() - must a counter stop for its overflow point to move?
 * @spec: the event
 *
 * perf_event_period() leaves a counter's period left at zero. PMU events
 * and the hrtimer-driven software clocks reload the whole new period from
 * that as they restart; the other software events (faults, context
 * switches, ...) take it up only when the counter is enabled, and an
 * enabled one overflows at its very next event instead, a period early.
 *
 * Return: true if the counter must be disabled around perf_event_period().
 */
bool mg_event_moves_stopped(const struct mg_event_spec *spec)
{
	return !spec->none && spec->type == PERF_TYPE_SOFTWARE &&
	       spec->config != PERF_COUNT_SW_CPU_CLOCK &&
	       spec->config != PERF_COUNT_SW_TASK_CLOCK;
}

/**
 * mg_counter_install() - a CPU's slot takes a new counter
 * @mc: the CPU, under its mc->lock
 * @slot: the slot
 * @event: the counter, created disabled, or NULL
 * @spec: its event
 *
 * The slot starts over: not counting, no overflow seen. The overflow
 * handler reads the slot without a lock, so the wake-up bit is clear
 * while the counter pointer changes: a handler that sees a mismatched
 * pair takes the irq_work, which is safe everywhere.
 */
void mg_counter_install(struct mg_cpu *mc, enum mg_slot slot,
			struct perf_event *event,
			const struct mg_event_spec *spec)
{
	clear_bit(slot, &mc->irq_wake);
	WRITE_ONCE(mc->event[slot], event);
	if (event && mg_event_wakes_in_irq(spec))
		set_bit(slot, &mc->irq_wake);
	clear_bit(slot, &mc->move_stopped);
	if (event && mg_event_moves_stopped(spec))
		set_bit(slot, &mc->move_stopped);
	mc->counting[slot] = false;
	clear_bit(slot, &mc->fired);
	mc->zero_periods[slot] = 0;
}

/**
 * mg_counter_create() - one CPU's counter for an event
 * @spec: the event
 * @cpu: the CPU
 *
 * A pinned per-CPU counter of kernel and user mode, created disabled: the
 * CPU's thread arms it at a period boundary. Its overflows go to
 * mg_overflow_handler() (may run in NMI). Software clocks skip idle so a
 * held or idle core does not raise overflows.
 *
 * Return: the counter, or an ERR_PTR() from
 * perf_event_create_kernel_counter().
 */
struct perf_event *mg_counter_create(const struct mg_event_spec *spec,
				     unsigned int cpu)
{
	struct perf_event_attr attr = {
		.type = spec->type,
		.config = spec->config,
		.size = sizeof(attr),
		.sample_period = MG_COUNT_ONLY_PERIOD,
		.pinned = 1,
		.disabled = 1,
		.exclude_idle = spec->type == PERF_TYPE_SOFTWARE,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL,
						mg_overflow_handler, NULL);
}

/**
 * mg_event_probe() - can every online CPU count an event?
 * @spec: the event ("none" always can)
 * @failed_cpu: on failure, the CPU whose counter could not be created
 *
 * Creates the counter on each online CPU and drops it again. Caller holds
 * cpus_read_lock().
 *
 * Return: 0, or perf_event_create_kernel_counter()'s error.
 */
int mg_event_probe(const struct mg_event_spec *spec, unsigned int *failed_cpu)
{
	struct perf_event *ev;
	unsigned int cpu;

	if (spec->none)
		return 0;
	for_each_online_cpu(cpu) {
		ev = mg_counter_create(spec, cpu);
		if (IS_ERR(ev)) {
			*failed_cpu = cpu;
			return PTR_ERR(ev);
		}
		perf_event_release_kernel(ev);
	}
	return 0;
}
