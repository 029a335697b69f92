/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memguard's settings as values and as text, with no kernel-only
 * dependency: the budget grammar, event names, budget lists and the
 * ranges of the numeric settings (parse.c). In the kernel this is plain
 * kernel code; selftests/memguard/host/ compiles it on the host against a
 * shim of the few kernel helpers it uses (kstrtou64(), scnprintf(), ...).
 */
#ifndef MEMGUARD_PARSE_H
#define MEMGUARD_PARSE_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/types.h>
#else
#include "host_shim.h"
#endif

#include <colorguard/limits.h>

enum mg_slot { MG_READ, MG_WRITE, MG_NR_SLOTS };

/* "read" and "write", for file names and messages. */
extern const char *const mg_slot_name[MG_NR_SLOTS];

/*
 * SCHED_FIFO priority of the holder threads. The default is the highest
 * that lets every interrupt thread through a hold: primary threads run at
 * 50, secondary ones of forced-threaded handlers at 49 on newer kernels.
 * The maximum is MAX_RT_PRIO - 1 (cpu.c checks it).
 */
#define MG_HOLD_PRIO_MIN	1
#define MG_HOLD_PRIO_MAX	99
#define MG_HOLD_PRIO_DEFAULT	48
/* bwlock_max_hold_ms: <colorguard/limits.h> says why these. */
#define MG_BWLOCK_MAX_HOLD_MS_MIN	CG_BWLOCK_MAX_HOLD_MS_MIN
#define MG_BWLOCK_MAX_HOLD_MS_MAX	CG_BWLOCK_MAX_HOLD_MS_MAX
#define MG_BWLOCK_MAX_HOLD_MS_DEFAULT	CG_BWLOCK_MAX_HOLD_MS_DEFAULT
#define MG_EVENTS_MAX		BIT_ULL(48)
#define MG_UNLIMITED		U64_MAX

/* A PERF_TYPE_HW_CACHE config from <linux/perf_event.h>'s names. */
#define MG_HW_CACHE(cache, op, result) \
	((PERF_COUNT_HW_CACHE_##cache) | \
	 (PERF_COUNT_HW_CACHE_OP_##op << 8) | \
	 (PERF_COUNT_HW_CACHE_RESULT_##result << 16))

/* What a counter counts; type/config as in struct perf_event_attr. */
struct mg_event_spec {
	bool none;
	u32 type;
	u64 config;
};

enum mg_budget_kind { MG_BUDGET_UNLIMITED, MG_BUDGET_MBPS, MG_BUDGET_EVENTS };

/* A configured budget: MB/s (2^20 bytes/s) or events per period. */
struct mg_budget {
	enum mg_budget_kind kind;
	u64 value;
};

/* One "CPUS:READ[,WRITE]" entry of a budget list, split in place. */
struct mg_budget_entry {
	char *cpus;
	char *read;
	char *write;	/* READ again when the entry has no WRITE */
};

int mg_budget_parse(const char *str, struct mg_budget *budget);
int mg_budget_format(const struct mg_budget *budget, char *buf, size_t len);
u64 mg_budget_events(const struct mg_budget *budget, u64 period_us,
		     u32 line_size);
int mg_budget_list_next(char **cursor, struct mg_budget_entry *entry,
			const char **why);
int mg_budget_entry_parse(const struct mg_budget_entry *entry,
			  struct mg_budget budget[MG_NR_SLOTS],
			  const char **why);
int mg_event_parse(const char *str, struct mg_event_spec *spec);
int mg_event_format(const struct mg_event_spec *spec, char *buf, size_t len);
int mg_period_us_check(u32 us);
int mg_line_size_check(u32 size);
int mg_hold_priority_check(u32 prio);
int mg_bwlock_max_hold_check(u32 ms);

#endif /* MEMGUARD_PARSE_H */
