// SPDX-License-Identifier: GPL-2.0
/*
 * The local timer's rules, the same on both architectures: each vCPU's
 * deadline, period and callback, the periodic re-arm and the count of
 * missed ticks. arch/<arch>/irq.c programs the hardware
 * (arch_timer_arm()) and says whether interrupts are on; its timer_init()
 * picks the mode and calls timer_setup().
 */
#include "inmate.h"

struct inmate_timer {
	int mode;			/* TIMER_MODE_* */
	uint64_t entry;			/* ticks() at the current interrupt */
	uint64_t deadline, period;	/* period 0: one-shot */
	timer_fn_t fn;
	uint64_t missed;
};

static struct inmate_timer timers[INMATE_MAX_CPUS];

static struct inmate_timer *me(void)
{
	return &timers[this_cpu];
}

uint64_t ns_to_ticks(uint64_t ns)
{
	uint64_t hz = tick_hz();

	return ns / 1000000000 * hz + ns % 1000000000 * hz / 1000000000;
}

uint64_t ticks_to_ns(uint64_t t)
{
	uint64_t hz = tick_hz();

	return hz ? t / hz * 1000000000 + t % hz * 1000000000 / hz : 0;
}

void irq_entered(uint64_t now)
{
	me()->entry = now;
}

uint64_t irq_entry_ticks(void)
{
	return me()->entry;
}

/*
 * The next deadline is armed before fn runs: a level-triggered timer
 * (arm64) must not be left asserted at the EOI, and the rate does not
 * drift.
 */
static void timer_irq(unsigned int vec)
{
	struct inmate_timer *t = me();
	uint64_t d = t->deadline, next;
	timer_fn_t fn = t->fn;

	(void)vec;
	if (!fn) {
		arch_timer_arm(t->mode, 0);
		return;
	}
	/* A count-down can end short of the deadline: converted or capped. */
	if (t->mode == TIMER_MODE_ONESHOT && t->entry < d) {
		arch_timer_arm(t->mode, d);
		return;
	}
	if (t->period) {
		next = d + t->period;
		t->deadline = next;
		arch_timer_arm(t->mode, next);
		if (next <= arch_ticks())
			t->missed++;
	} else {
		t->fn = NULL;
		arch_timer_arm(t->mode, 0);
	}
	fn(d, t->entry);
}

int timer_setup(int mode)
{
	struct inmate_timer *t = me();

	t->fn = NULL;
	t->missed = 0;
	t->mode = mode;
	return irq_set_handler(INMATE_TIMER_VECTOR, timer_irq);
}

int timer_mode_id(void)
{
	return me()->mode;
}

static int timer_go(uint64_t deadline, uint64_t period, timer_fn_t fn)
{
	struct inmate_timer *t = me();
	int on = arch_irqs_enabled();

	if (t->mode == TIMER_MODE_NONE || !fn)
		return -1;
	irq_disable();
	t->deadline = deadline;
	t->period = period;
	t->fn = fn;
	arch_timer_arm(t->mode, deadline);
	if (on)
		irq_enable();
	return 0;
}

int timer_start(uint64_t period_ns, timer_fn_t fn)
{
	uint64_t p = ns_to_ticks(period_ns);

	if (!p)
		return -1;
	return timer_go(arch_ticks() + p, p, fn);
}

int timer_oneshot(uint64_t deadline, timer_fn_t fn)
{
	return timer_go(deadline ? deadline : 1, 0, fn);
}

void timer_stop(void)
{
	struct inmate_timer *t = me();

	if (t->mode == TIMER_MODE_NONE)
		return;
	t->fn = NULL;
	arch_timer_arm(t->mode, 0);
}

uint64_t timer_missed(void)
{
	return me()->missed;
}
