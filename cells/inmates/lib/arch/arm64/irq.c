// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 interrupts and timer: not yet (the vGIC and the architected
 * virtual timer are the other half of issue 27). Every call fails, so an
 * inmate built for both architectures links and says so.
 */
#include "../../inmate.h"

int irq_init(void)
{
	return -1;
}

int irq_set_handler(unsigned int vector, irq_handler_t fn)
{
	(void)vector;
	(void)fn;
	return -1;
}

void irq_enable(void)
{
}

void irq_disable(void)
{
}

void wait_for_interrupt(void)
{
}

uint64_t irq_entry_ticks(void)
{
	return 0;
}

int timer_init(unsigned int flags)
{
	(void)flags;
	return -1;
}

int timer_start(uint64_t period_ns, timer_fn_t fn)
{
	(void)period_ns;
	(void)fn;
	return -1;
}

int timer_oneshot(uint64_t deadline, timer_fn_t fn)
{
	(void)deadline;
	(void)fn;
	return -1;
}

void timer_stop(void)
{
}

uint64_t timer_missed(void)
{
	return 0;
}

const char *timer_mode(void)
{
	return "none";
}

int apic_x2(void)
{
	return 0;
}

uint64_t ns_to_ticks(uint64_t ns)
{
	uint64_t hz = arch_tick_hz();

	return ns / 1000000000 * hz + ns % 1000000000 * hz / 1000000000;
}

uint64_t ticks_to_ns(uint64_t t)
{
	uint64_t hz = arch_tick_hz();

	return hz ? t / hz * 1000000000 + t % hz * 1000000000 / hz : 0;
}
