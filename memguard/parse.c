// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's settings as values and as text, and nothing else: the budget
 * grammar ("unlimited", MB/s, "events:N"), budget lists ("CPUS:READ[,WRITE]
 * ..."), event names, and the ranges of the numeric settings. No kernel
 * state and no kernel-only API: selftests/memguard/host/test_parse.c runs
 * this file on the host.
 *
 * Event syntax: a generic hardware event name ("cycles", "cache-misses"), a
 * last-level-cache event ("llc-load-misses"), a software event
 * ("sw:cpu-clock"), a raw PMU event ("raw:0x17") or "none".
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>
#endif
#include <linux/perf_event.h>

#include "parse.h"

const char *const mg_slot_name[MG_NR_SLOTS] = { "read", "write" };

/**
 * mg_budget_parse() - one budget: "unlimited", MB/s or "events:N"
 * @str: the text
 * @budget: the result
 *
 * Return: 0, kstrtou64()'s error for a bad number, -ERANGE for 0 or a
 * value above CG_MBPS_MAX (MG_EVENTS_MAX for events).
 */
int mg_budget_parse(const char *str, struct mg_budget *budget)
{
	u64 value, max = CG_MBPS_MAX;
	enum mg_budget_kind kind = MG_BUDGET_MBPS;
	int ret;

	if (!strcmp(str, "unlimited")) {
		*budget = (struct mg_budget){ .kind = MG_BUDGET_UNLIMITED };
		return 0;
	}
	if (str_has_prefix(str, "events:")) {
		str += strlen("events:");
		kind = MG_BUDGET_EVENTS;
		max = MG_EVENTS_MAX;
	}
	ret = kstrtou64(str, 10, &value);
	if (ret)
		return ret;
	if (!value || value > max)
		return -ERANGE;
	*budget = (struct mg_budget){ .kind = kind, .value = value };
	return 0;
}

/**
 * mg_budget_format() - a budget as mg_budget_parse() reads it back
 * @budget: the budget
 * @buf: the text
 * @len: bytes of @buf
 *
 * Return: the length written (scnprintf()).
 */
int mg_budget_format(const struct mg_budget *budget, char *buf, size_t len)
{
	switch (budget->kind) {
	case MG_BUDGET_MBPS:
		return scnprintf(buf, len, "%llu", budget->value);
	case MG_BUDGET_EVENTS:
		return scnprintf(buf, len, "events:%llu", budget->value);
	default:
		return scnprintf(buf, len, "unlimited");
	}
}

/**
 * mg_budget_events() - the events a budget allows per period
 * @budget: the budget
 * @period_us: the period
 * @line_size: bytes per event, for a budget in MB/s
 *
 * Return: the events (cg_mbps_to_events() for MB/s, at least 1), the
 * value itself for "events:N", MG_UNLIMITED for "unlimited".
 */
u64 mg_budget_events(const struct mg_budget *budget, u64 period_us,
		     u32 line_size)
{
	switch (budget->kind) {
	case MG_BUDGET_EVENTS:
		return budget->value;
	case MG_BUDGET_MBPS:
		return cg_mbps_to_events(budget->value, period_us, line_size);
	default:
		return MG_UNLIMITED;
	}
}

/**
 * mg_budget_list_next() - split the next entry off a budget list
 * @cursor: the rest of the list, advanced past the entry; the text is
 *	cut into pieces in place
 * @entry: the entry's CPU list and budget texts, not yet parsed
 * @why: on -EINVAL, the reason
 *
 * Entries are "CPUS:READ[,WRITE]", separated by blanks, tabs or
 * newlines. The CPU list is left to the caller (the kernel's
 * cpulist_parse()), the budgets to mg_budget_entry_parse().
 *
 * Return: 1 for an entry, 0 at the end of the list, -EINVAL for an entry
 * without ':'.
 */
int mg_budget_list_next(char **cursor, struct mg_budget_entry *entry,
			const char **why)
{
	char *tok, *colon, *comma;

	do {
		tok = strsep(cursor, " \t\n");
		if (!tok)
			return 0;
	} while (!*tok);
	colon = strchr(tok, ':');
	if (!colon) {
		*why = "expected CPUS:READ[,WRITE] (MB/s, events:N or unlimited)";
		return -EINVAL;
	}
	*colon++ = '\0';
	comma = strchr(colon, ',');
	if (comma)
		*comma++ = '\0';
	entry->cpus = tok;
	entry->read = colon;
	entry->write = comma ? comma : colon;
	return 1;
}

/**
 * mg_budget_entry_parse() - the read and write budgets of a list entry
 * @entry: an entry from mg_budget_list_next()
 * @budget: the results, indexed by slot
 * @why: on failure, the reason
 *
 * Return: 0, or mg_budget_parse()'s error of the first bad budget.
 */
int mg_budget_entry_parse(const struct mg_budget_entry *entry,
			  struct mg_budget budget[MG_NR_SLOTS],
			  const char **why)
{
	int ret = mg_budget_parse(entry->read, &budget[MG_READ]);

	if (!ret)
		ret = mg_budget_parse(entry->write, &budget[MG_WRITE]);
	if (ret)
		*why = ret == -ERANGE ?
			"budget out of range (MB/s 1..1000000, events 1..2^48)" :
			"budget is not a number, events:N or unlimited";
	return ret;
}

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
 * mg_period_us_check() - is this a regulation period memguard takes?
 * @us: microseconds
 *
 * Return: 0, or -ERANGE outside CG_PERIOD_US_MIN..CG_PERIOD_US_MAX.
 */
int mg_period_us_check(u32 us)
{
	return us < CG_PERIOD_US_MIN || us > CG_PERIOD_US_MAX ? -ERANGE : 0;
}

/**
 * mg_line_size_check() - is this a line size memguard takes?
 * @size: bytes per counted event
 *
 * Return: 0, -ERANGE outside CG_LINE_SIZE_MIN..CG_LINE_SIZE_MAX, -EINVAL
 * for a size in range that is not a power of two.
 */
int mg_line_size_check(u32 size)
{
	if (size < CG_LINE_SIZE_MIN || size > CG_LINE_SIZE_MAX)
		return -ERANGE;
	return is_power_of_2(size) ? 0 : -EINVAL;
}

/**
 * mg_hold_priority_check() - is this a holder priority memguard takes?
 * @prio: a SCHED_FIFO priority
 *
 * Return: 0, or -ERANGE outside MG_HOLD_PRIO_MIN..MG_HOLD_PRIO_MAX.
 */
int mg_hold_priority_check(u32 prio)
{
	return prio < MG_HOLD_PRIO_MIN || prio > MG_HOLD_PRIO_MAX ? -ERANGE : 0;
}

/**
 * mg_bwlock_max_hold_check() - is this a maximum hold time memguard takes?
 * @ms: milliseconds
 *
 * Return: 0, or -ERANGE outside
 * MG_BWLOCK_MAX_HOLD_MS_MIN..MG_BWLOCK_MAX_HOLD_MS_MAX.
 */
int mg_bwlock_max_hold_check(u32 ms)
{
	return ms < MG_BWLOCK_MAX_HOLD_MS_MIN ||
	       ms > MG_BWLOCK_MAX_HOLD_MS_MAX ? -ERANGE : 0;
}
