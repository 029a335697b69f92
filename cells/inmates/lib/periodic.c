// SPDX-License-Identifier: GPL-2.0
/*
 * A periodic task on the calling vCPU's local timer. Each tick of
 * timer_start() releases one job at the tick's deadline; the job runs in
 * task context with interrupts off and the vCPU halts (in the kernel,
 * no exit) until the next release. A release that comes while a job
 * runs waits its turn: the timer fires a passed deadline at once and
 * drops none, so an overrun delays jobs and never loses one. Everything
 * is measured with ticks() and kept in a struct periodic_stats, which
 * periodic_report() writes to the results area once, at the end.
 */
#include "inmate.h"

/*
 * The timer's deadlines are the first plus whole periods (timer.c), so a
 * release is a count: job k is released at first + k * period, however
 * many releases pile up during an overrun.
 */
static volatile uint32_t released;
static uint64_t first;
static uint32_t want;

static void release(uint64_t deadline, uint64_t now)
{
	(void)now;
	if (released >= want)
		return;
	if (!released)
		first = deadline;
	released = released + 1;
	if (released == want)
		timer_stop();
}

static void account(struct periodic_span *s, uint64_t v)
{
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->sum += v;
}

static void span_init(struct periodic_span *s)
{
	s->min = ~0ull;
	s->max = 0;
	s->sum = 0;
}

int periodic_run(const struct periodic_task *t, struct periodic_stats *st)
{
	uint64_t period_ns = t->period_ns, period = ns_to_ticks(period_ns);
	uint64_t deadline = ns_to_ticks(t->deadline_ns ? t->deadline_ns : period_ns);
	uint32_t n;

	memset(st, 0, sizeof(*st));
	span_init(&st->latency);
	span_init(&st->exec);
	span_init(&st->response);
	st->period_ns = period_ns;
	st->deadline_ns = ticks_to_ns(deadline);
	if (!t->jobs || !t->job || !period)
		return -1;
	want = t->jobs;
	released = 0;
	irq_disable();
	if (timer_start(period_ns, release))
		return -1;
	for (n = 0; n < want; n++) {
		uint64_t at, start, end;

		while (released == n)
			wait_for_interrupt();
		at = first + n * period;
		start = ticks();
		t->job(n, t->arg);
		end = ticks();
		if (!n)
			st->first_start = start;
		st->last_start = start;
		/* KVM may fire a timer a little early (x86's timer advance). */
		if (start < at)
			st->early++;
		account(&st->latency, start > at ? start - at : 0);
		account(&st->exec, end - start);
		account(&st->response, end > at ? end - at : 0);
		if (end > at + deadline)
			st->misses++;
		st->jobs++;
	}
	timer_stop();
	return 0;
}

static uint64_t mean_ns(const struct periodic_span *s, uint32_t n)
{
	return n ? ticks_to_ns(s->sum / n) : 0;
}

void periodic_report(const struct periodic_stats *st)
{
	uint32_t n = st->jobs;

	result_set("jobs", n);
	result_set("period_ns", st->period_ns);
	result_set("deadline_ns", st->deadline_ns);
	result_set("misses", st->misses);
	result_set("early", st->early);
	if (!n)
		return;
	result_set("lat_min_ns", ticks_to_ns(st->latency.min));
	result_set("lat_mean_ns", mean_ns(&st->latency, n));
	result_set("lat_max_ns", ticks_to_ns(st->latency.max));
	result_set("exec_min_ns", ticks_to_ns(st->exec.min));
	result_set("exec_mean_ns", mean_ns(&st->exec, n));
	result_set("wcet_ns", ticks_to_ns(st->exec.max));
	result_set("resp_min_ns", ticks_to_ns(st->response.min));
	result_set("resp_mean_ns", mean_ns(&st->response, n));
	result_set("resp_max_ns", ticks_to_ns(st->response.max));
	result_set("jitter_ns", ticks_to_ns(st->response.max - st->response.min));
	/* Jobs started per second in mHz, by the inmate's own clock. */
	result_set("rate_mhz", n > 1 && st->last_start > st->first_start ?
		   (uint64_t)(n - 1) * 1000ull * tick_hz() /
		   (st->last_start - st->first_start) : 0);
}
