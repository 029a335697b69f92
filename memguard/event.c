// SPDX-License-Identifier: GPL-2.0
/*
 * memguard event specifications: one text syntax for what a counter counts,
 * the per-architecture defaults, and counter creation.
 *
 * Syntax: a generic hardware event name ("cycles", "cache-misses"), a
 * last-level-cache event ("llc-load-misses"), a software event
 * ("sw:cpu-clock"), a raw PMU event ("raw:0x17") or "none".
 */
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include "memguard.h"

#define MG_HW_CACHE(cache, op, result) \
	((PERF_COUNT_HW_CACHE_##cache) | \
	 (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_##result << 16))

struct mg_named_event {
	const char *name;
	u32 type;
	u64 config;
};

/* The first name of a (type, config) pair is the one shown back. */
static const struct mg_named_event mg_named_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "llc-loads", PERF_TYPE_HW_CACHE, MG_HW_CACHE(LL, READ, ACCESS) },
	{ "llc-load-misses", PERF_TYPE_HW_CACHE, MG_HW_CACHE(LL, READ, MISS) },
	{ "llc-stores", PERF_TYPE_HW_CACHE, MG_HW_CACHE(LL, WRITE, ACCESS) },
	{ "llc-store-misses", PERF_TYPE_HW_CACHE, MG_HW_CACHE(LL, WRITE, MISS) },
	{ "sw:cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "sw:page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "sw:minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "sw:major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "sw:context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "sw:cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "sw:alignment-faults", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "sw:emulation-faults", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_EMULATION_FAULTS },
};

/**
 * mg_event_parse() - an event name from a module parameter or sysfs
 * @str: "none", "raw:0xNN" or one of the named events (case-insensitive)
 * @spec: the result
 *
 * Return: 0, -EINVAL for an unknown name, or kstrtou64()'s error for a
 * bad raw number.
 */
int mg_event_parse(const char *str, struct mg_event_spec *spec)
{
	unsigned int i;
	u64 config;
	int ret;

	if (!strcasecmp(str, "none")) {
		*spec = (struct mg_event_spec){ .none = true };
		return 0;
	}
	if (!strncasecmp(str, "raw:", 4)) {
		ret = kstrtou64(str + 4, 0, &config);
		if (ret)
			return ret;
		*spec = (struct mg_event_spec){
			.type = PERF_TYPE_RAW, .config = config,
		};
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(mg_named_events); i++) {
		if (!strcasecmp(str, mg_named_events[i].name)) {
			*spec = (struct mg_event_spec){
				.type = mg_named_events[i].type,
				.config = mg_named_events[i].config,
			};
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * mg_event_format() - an event as mg_event_parse() reads it back
 * @spec: the event
 * @buf: the text
 * @len: bytes of @buf
 *
 * Return: the length written (scnprintf()).
 */
int mg_event_format(const struct mg_event_spec *spec, char *buf, size_t len)
{
	unsigned int i;

	if (spec->none)
		return scnprintf(buf, len, "none");
	for (i = 0; i < ARRAY_SIZE(mg_named_events); i++)
		if (mg_named_events[i].type == spec->type &&
		    mg_named_events[i].config == spec->config)
			return scnprintf(buf, len, "%s", mg_named_events[i].name);
	if (spec->type == PERF_TYPE_RAW)
		return scnprintf(buf, len, "raw:0x%llx", spec->config);
	return scnprintf(buf, len, "type%u:0x%llx", spec->type, spec->config);
}

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
 * mg_counter_create() - one CPU's counter for an event
 * @spec: the event
 * @cpu: the CPU
 * @handler: the overflow handler (may run in NMI)
 *
 * A pinned per-CPU counter of kernel and user mode, created disabled: the
 * CPU's thread arms it at a period boundary. Software clocks skip idle so
 * a held or idle core does not raise overflows.
 *
 * Return: the counter, or an ERR_PTR() from
 * perf_event_create_kernel_counter().
 */
struct perf_event *mg_counter_create(const struct mg_event_spec *spec,
				     unsigned int cpu,
				     perf_overflow_handler_t handler)
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

	return perf_event_create_kernel_counter(&attr, cpu, NULL, handler, NULL);
}
