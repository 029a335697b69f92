// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's text parsers on the host: memguard/parse.c, the code behind
 * the budget files, the budgets= list, the event files and the numeric
 * settings' ranges, compiled against host_shim.h. Each table is a list of
 * inputs with what the kernel must make of them.
 */
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "parse.h"
#include "kselftest_harness.h"

#define LL_READ_MISS	(PERF_COUNT_HW_CACHE_LL | \
			 PERF_COUNT_HW_CACHE_RESULT_MISS << 16)
#define LL_WRITE_MISS	(LL_READ_MISS | PERF_COUNT_HW_CACHE_OP_WRITE << 8)

struct budget_case {
	const char *in;
	int err;
	enum mg_budget_kind kind;
	u64 value;
};

#define BUDGET(_in, _kind, _value) { .in = _in, .kind = _kind, .value = _value }
#define BUDGET_BAD(_in, _err) { .in = _in, .err = _err }

static const struct budget_case budget_cases[] = {
	BUDGET("unlimited", MG_BUDGET_UNLIMITED, 0),
	BUDGET("1", MG_BUDGET_MBPS, 1),
	BUDGET("700", MG_BUDGET_MBPS, 700),
	BUDGET("1000000", MG_BUDGET_MBPS, 1000000),
	BUDGET("007", MG_BUDGET_MBPS, 7),		/* base 10, not octal */
	BUDGET("+5", MG_BUDGET_MBPS, 5),		/* kstrtou64 takes a '+' */
	BUDGET("5\n", MG_BUDGET_MBPS, 5),		/* and one newline */
	BUDGET("events:1", MG_BUDGET_EVENTS, 1),
	BUDGET("events:5000", MG_BUDGET_EVENTS, 5000),
	BUDGET("events:281474976710656", MG_BUDGET_EVENTS, 1ULL << 48),
	BUDGET("events:+9", MG_BUDGET_EVENTS, 9),
	BUDGET_BAD("0", -ERANGE),
	BUDGET_BAD("1000001", -ERANGE),
	BUDGET_BAD("4294967296", -ERANGE),
	BUDGET_BAD("18446744073709551615", -ERANGE),
	BUDGET_BAD("18446744073709551616", -ERANGE),	/* overflows u64 */
	BUDGET_BAD("events:0", -ERANGE),
	BUDGET_BAD("events:281474976710657", -ERANGE),
	BUDGET_BAD("", -EINVAL),
	BUDGET_BAD(" 1", -EINVAL),
	BUDGET_BAD("1 ", -EINVAL),
	BUDGET_BAD("1x", -EINVAL),
	BUDGET_BAD("12a", -EINVAL),
	BUDGET_BAD("1\n\n", -EINVAL),
	BUDGET_BAD("-1", -EINVAL),
	BUDGET_BAD("+", -EINVAL),
	BUDGET_BAD("++1", -EINVAL),
	BUDGET_BAD("0x10", -EINVAL),
	BUDGET_BAD("1.5", -EINVAL),
	BUDGET_BAD("1e3", -EINVAL),
	BUDGET_BAD("1MB", -EINVAL),
	BUDGET_BAD("events:", -EINVAL),
	BUDGET_BAD("events", -EINVAL),
	BUDGET_BAD("events:-1", -EINVAL),
	BUDGET_BAD("events:0x10", -EINVAL),
	BUDGET_BAD("events: 5", -EINVAL),
	BUDGET_BAD("Events:5", -EINVAL),
	BUDGET_BAD("events:unlimited", -EINVAL),
	BUDGET_BAD("unlimited ", -EINVAL),
	BUDGET_BAD("unlimitedx", -EINVAL),
	BUDGET_BAD("UNLIMITED", -EINVAL),
	BUDGET_BAD("none", -EINVAL),
};

TEST(budget_grammar)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(budget_cases); i++) {
		const struct budget_case *c = &budget_cases[i];
		struct mg_budget b = { .kind = MG_BUDGET_MBPS, .value = 12345 };
		int ret = mg_budget_parse(c->in, &b);

		EXPECT_EQ(c->err, ret) TH_LOG("budget '%s'", c->in);
		if (ret || c->err) {
			/* A refused budget leaves the old value alone. */
			EXPECT_EQ(MG_BUDGET_MBPS, b.kind);
			EXPECT_EQ(12345, b.value);
			continue;
		}
		EXPECT_EQ(c->kind, b.kind) TH_LOG("budget '%s'", c->in);
		EXPECT_EQ(c->value, b.value) TH_LOG("budget '%s'", c->in);
	}
	TH_LOG("%zu budget inputs", ARRAY_SIZE(budget_cases));
}

/* What is shown reads back as the same budget. */
TEST(budget_format_reads_back)
{
	static const struct mg_budget budgets[] = {
		{ MG_BUDGET_UNLIMITED, 0 },
		{ MG_BUDGET_MBPS, 1 },
		{ MG_BUDGET_MBPS, 1000000 },
		{ MG_BUDGET_EVENTS, 1 },
		{ MG_BUDGET_EVENTS, 1ULL << 48 },
	};
	static const char *const shown[] = {
		"unlimited", "1", "1000000", "events:1", "events:281474976710656",
	};
	char text[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(budgets); i++) {
		struct mg_budget back;

		EXPECT_EQ(strlen(shown[i]),
			  mg_budget_format(&budgets[i], text, sizeof(text)));
		EXPECT_STREQ(shown[i], text);
		ASSERT_EQ(0, mg_budget_parse(text, &back));
		EXPECT_EQ(budgets[i].kind, back.kind);
		if (back.kind != MG_BUDGET_UNLIMITED)
			EXPECT_EQ(budgets[i].value, back.value);
	}
	/* A short buffer is cut, never overrun. */
	EXPECT_EQ(3, mg_budget_format(&budgets[4], text, 4));
	EXPECT_STREQ("eve", text);
}

TEST(budget_events_per_period)
{
	struct mg_budget b = { MG_BUDGET_MBPS, 1 };

	/* 1 MB/s, 1 ms, 64 B lines: 2^20 / 1000 / 64 = 16.4 */
	EXPECT_EQ(16, mg_budget_events(&b, 1000, 64));
	/* never below one event */
	EXPECT_EQ(1, mg_budget_events(&b, CG_PERIOD_US_MIN, CG_LINE_SIZE_MAX));
	b.value = CG_MBPS_MAX;
	EXPECT_EQ(65536000000ULL,
		  mg_budget_events(&b, CG_PERIOD_US_MAX, CG_LINE_SIZE_MIN));
	b = (struct mg_budget){ MG_BUDGET_EVENTS, 5000 };
	EXPECT_EQ(5000, mg_budget_events(&b, 1000, 64));
	b = (struct mg_budget){ MG_BUDGET_UNLIMITED, 0 };
	EXPECT_EQ(MG_UNLIMITED, mg_budget_events(&b, 1000, 64));
}

/* The entries of @list as "cpus|read|write;..." or the error and why. */
static int split(const char *list, char *out, size_t len, const char **why)
{
	struct mg_budget_entry e;
	char copy[128], *cursor = copy;
	size_t used = 0;
	int ret;

	snprintf(copy, sizeof(copy), "%s", list);
	out[0] = '\0';
	while ((ret = mg_budget_list_next(&cursor, &e, why)) > 0)
		used += snprintf(out + used, len - used, "%s|%s|%s;", e.cpus,
				 e.read, e.write);
	return ret;
}

TEST(budget_list_entries)
{
	static const struct {
		const char *in;
		int err;
		const char *entries;
	} cases[] = {
		{ "0:100", 0, "0|100|100;" },
		{ "0-1:100,events:5 2:unlimited", 0,
		  "0-1|100|events:5;2|unlimited|unlimited;" },
		{ " \t0:1\n\n3:2,4  ", 0, "0|1|1;3|2|4;" },
		{ "0:1,2,3", 0, "0|1|2,3;" },
		{ ":5", 0, "|5|5;" },
		{ "0:", 0, "0||;" },
		{ "0:1,", 0, "0|1|;" },
		{ "0:1:2", 0, "0|1:2|1:2;" },
		{ "", 0, "" },
		{ " \t\n", 0, "" },
		{ "0", -EINVAL, "" },
		{ "0:1 2", -EINVAL, "0|1|1;" },
		{ "0,1", -EINVAL, "" },
	};
	char out[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *why = NULL;

		EXPECT_EQ(cases[i].err, split(cases[i].in, out, sizeof(out), &why))
			TH_LOG("list '%s'", cases[i].in);
		EXPECT_STREQ(cases[i].entries, out) TH_LOG("list '%s'", cases[i].in);
		if (cases[i].err)
			EXPECT_STREQ("expected CPUS:READ[,WRITE] (MB/s, events:N or unlimited)",
				     why);
	}
}

/* A parser's reason or its absence, as a string the harness can compare. */
static const char *reason_or_none(const char *why)
{
	return why ? why : "(no reason)";
}

TEST(budget_list_entry_budgets)
{
	static const char range[] =
		"budget out of range (MB/s 1..1000000, events 1..2^48)";
	static const char syntax[] =
		"budget is not a number, events:N or unlimited";
	static const struct {
		char read[24], write[24];
		int err;
		const char *why;
	} cases[] = {
		{ "100", "events:5", 0, NULL },
		{ "unlimited", "unlimited", 0, NULL },
		{ "0", "1", -ERANGE, range },
		{ "1", "1000001", -ERANGE, range },
		{ "", "", -EINVAL, syntax },
		{ "x", "0", -EINVAL, syntax },	/* the read budget first */
		{ "1", "2,3", -EINVAL, syntax },
	};
	struct mg_budget_entry both = { "0", "100", "events:5" };
	struct mg_budget b[MG_NR_SLOTS];
	const char *why = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct mg_budget_entry e = {
			.cpus = "0", .read = (char *)cases[i].read,
			.write = (char *)cases[i].write,
		};

		why = NULL;
		EXPECT_EQ(cases[i].err, mg_budget_entry_parse(&e, b, &why))
			TH_LOG("'%s,%s'", cases[i].read, cases[i].write);
		EXPECT_STREQ(reason_or_none(cases[i].why), reason_or_none(why));
	}
	ASSERT_EQ(0, mg_budget_entry_parse(&both, b, &why));
	EXPECT_EQ(MG_BUDGET_MBPS, b[MG_READ].kind);
	EXPECT_EQ(100, b[MG_READ].value);
	EXPECT_EQ(MG_BUDGET_EVENTS, b[MG_WRITE].kind);
	EXPECT_EQ(5, b[MG_WRITE].value);
}

struct event_case {
	const char *in;
	int err;
	bool none;
	u32 type;
	u64 config;
};

#define EVENT(_in, _type, _config) { .in = _in, .type = _type, .config = _config }
#define EVENT_NONE(_in) { .in = _in, .none = true }
#define EVENT_BAD(_in, _err) { .in = _in, .err = _err }

static const struct event_case event_cases[] = {
	EVENT_NONE("none"),
	EVENT_NONE("NONE"),
	EVENT("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
	EVENT("CPU-Cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
	EVENT("instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS),
	EVENT("cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES),
	EVENT("stalled-cycles-backend", PERF_TYPE_HARDWARE,
	      PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
	EVENT("llc-load-misses", PERF_TYPE_HW_CACHE, LL_READ_MISS),
	EVENT("LLC-Store-Misses", PERF_TYPE_HW_CACHE, LL_WRITE_MISS),
	EVENT("sw:cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK),
	EVENT("SW:Page-Faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS),
	EVENT("raw:0x17", PERF_TYPE_RAW, 0x17),
	EVENT("RAW:0X18", PERF_TYPE_RAW, 0x18),
	EVENT("raw:23", PERF_TYPE_RAW, 23),
	EVENT("raw:017", PERF_TYPE_RAW, 017),	/* base 0: octal */
	EVENT("raw:0", PERF_TYPE_RAW, 0),
	EVENT("raw:+0x11", PERF_TYPE_RAW, 0x11),
	EVENT("raw:0x17\n", PERF_TYPE_RAW, 0x17),
	EVENT("raw:0xffffffffffffffff", PERF_TYPE_RAW, ~0ULL),
	EVENT_BAD("raw:0x10000000000000000", -ERANGE),
	EVENT_BAD("raw:18446744073709551616", -ERANGE),
	EVENT_BAD("", -EINVAL),
	EVENT_BAD("cycle", -EINVAL),
	EVENT_BAD("cyclesx", -EINVAL),
	EVENT_BAD(" cycles", -EINVAL),
	EVENT_BAD("cycles ", -EINVAL),
	EVENT_BAD("cycles\n", -EINVAL),
	EVENT_BAD("cpu-clock", -EINVAL),	/* software events need "sw:" */
	EVENT_BAD("sw:", -EINVAL),
	EVENT_BAD("sw:cycles", -EINVAL),
	EVENT_BAD("nonex", -EINVAL),
	EVENT_BAD("raw:", -EINVAL),
	EVENT_BAD("raw:0x", -EINVAL),
	EVENT_BAD("raw:0xg", -EINVAL),
	EVENT_BAD("raw:0x17x", -EINVAL),
	EVENT_BAD("raw:08", -EINVAL),
	EVENT_BAD("raw:-1", -EINVAL),
	EVENT_BAD("raw: 1", -EINVAL),
	EVENT_BAD("raw 0x17", -EINVAL),
	EVENT_BAD("type4:0x1", -EINVAL),
};

TEST(event_names)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(event_cases); i++) {
		const struct event_case *c = &event_cases[i];
		struct mg_event_spec spec = { .type = 99, .config = 99 };
		int ret = mg_event_parse(c->in, &spec);

		EXPECT_EQ(c->err, ret) TH_LOG("event '%s'", c->in);
		if (ret || c->err) {
			/* A refused event leaves the old one alone. */
			EXPECT_EQ(99, spec.type);
			continue;
		}
		EXPECT_EQ(c->none, spec.none) TH_LOG("event '%s'", c->in);
		if (c->none)
			continue;
		EXPECT_EQ(c->type, spec.type) TH_LOG("event '%s'", c->in);
		EXPECT_EQ(c->config, spec.config) TH_LOG("event '%s'", c->in);
	}
	TH_LOG("%zu event inputs", ARRAY_SIZE(event_cases));
}

/* Events are shown by their first name, raw:0xN or typeT:0xN. */
TEST(event_format_reads_back)
{
	static const struct {
		const char *in, *shown;
	} cases[] = {
		{ "none", "none" },
		{ "CYCLES", "cycles" },
		{ "cpu-cycles", "cycles" },
		{ "llc-loads", "llc-loads" },
		{ "sw:cpu-clock", "sw:cpu-clock" },
		{ "sw:emulation-faults", "sw:emulation-faults" },
		{ "raw:23", "raw:0x17" },
		{ "raw:0", "raw:0x0" },
	};
	struct mg_event_spec spec, back;
	char text[48];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, mg_event_parse(cases[i].in, &spec));
		mg_event_format(&spec, text, sizeof(text));
		EXPECT_STREQ(cases[i].shown, text);
		ASSERT_EQ(0, mg_event_parse(text, &back));
		EXPECT_EQ(spec.none, back.none);
		EXPECT_EQ(spec.type, back.type);
		EXPECT_EQ(spec.config, back.config);
	}
	spec = (struct mg_event_spec){ .type = 9, .config = 1 };
	mg_event_format(&spec, text, sizeof(text));
	EXPECT_STREQ("type9:0x1", text);
}

TEST(numeric_ranges)
{
	EXPECT_EQ(-ERANGE, mg_period_us_check(0));
	EXPECT_EQ(-ERANGE, mg_period_us_check(99));
	EXPECT_EQ(0, mg_period_us_check(100));
	EXPECT_EQ(0, mg_period_us_check(1000000));
	EXPECT_EQ(-ERANGE, mg_period_us_check(1000001));
	EXPECT_EQ(-ERANGE, mg_line_size_check(0));
	EXPECT_EQ(-ERANGE, mg_line_size_check(8));
	EXPECT_EQ(0, mg_line_size_check(16));
	EXPECT_EQ(-EINVAL, mg_line_size_check(48));
	EXPECT_EQ(0, mg_line_size_check(64));
	EXPECT_EQ(-EINVAL, mg_line_size_check(100));
	EXPECT_EQ(0, mg_line_size_check(4096));
	EXPECT_EQ(-ERANGE, mg_line_size_check(8192));
	EXPECT_EQ(-ERANGE, mg_hold_priority_check(0));
	EXPECT_EQ(0, mg_hold_priority_check(1));
	EXPECT_EQ(0, mg_hold_priority_check(48));
	EXPECT_EQ(0, mg_hold_priority_check(99));
	EXPECT_EQ(-ERANGE, mg_hold_priority_check(100));
	EXPECT_EQ(-ERANGE, mg_bwlock_max_hold_check(0));
	EXPECT_EQ(0, mg_bwlock_max_hold_check(1));
	EXPECT_EQ(0, mg_bwlock_max_hold_check(MG_BWLOCK_MAX_HOLD_MS_DEFAULT));
	EXPECT_EQ(0, mg_bwlock_max_hold_check(3600000));
	EXPECT_EQ(-ERANGE, mg_bwlock_max_hold_check(3600001));
	EXPECT_EQ(-ERANGE, mg_bwlock_max_hold_check(0xffffffffu));
	EXPECT_STREQ("read", mg_slot_name[MG_READ]);
	EXPECT_STREQ("write", mg_slot_name[MG_WRITE]);
}

TEST_HARNESS_MAIN
