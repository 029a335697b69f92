// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 interrupts and the local timer of an inmate: KVM's in-kernel
 * local APIC (x2APIC through MSRs when CPUID offers it, else xAPIC at
 * 0xfee00000, which the runner maps uncached), its timer in TSC-deadline
 * mode or as a one-shot count-down. Each vCPU has its own LAPIC and
 * timer; the IDT and the handlers are shared.
 */
#include "../../inmate.h"

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_EXTD		(1ull << 10)	/* x2APIC mode */
#define APIC_BASE_EN		(1ull << 11)
#define MSR_TSC_DEADLINE	0x6e0
#define MSR_X2APIC		0x800		/* + xAPIC offset / 16 */
#define XAPIC_BASE		0xfee00000ul

/* Register offsets (xAPIC MMIO). */
#define APIC_TPR		0x080
#define APIC_EOI		0x0b0
#define APIC_ISR		0x100		/* 8 registers, 16 bytes apart */
#define APIC_IRR		0x200
#define APIC_SVR		0x0f0
#define APIC_LVTT		0x320
#define APIC_TMICT		0x380
#define APIC_TMCCT		0x390
#define APIC_TDCR		0x3e0

#define SVR_ENABLE		(1u << 8)
#define LVT_MASKED		(1u << 16)
#define LVTT_TSC_DEADLINE	(2u << 17)
#define TDCR_DIV_1		0xb

#define CPUID_1_EDX_APIC	(1u << 9)
#define CPUID_1_ECX_X2APIC	(1u << 21)
#define CPUID_1_ECX_DEADLINE	(1u << 24)

#define RFLAGS_IF		(1ull << 9)

/* One vCPU's LAPIC. */
struct lapic {
	int on, x2;
	uint64_t apic_khz;		/* one-shot: count-down rate */
};

static struct lapic lapics[INMATE_MAX_CPUS];
static irq_handler_t handlers[INMATE_NR_IRQS];

static struct lapic *me(void)
{
	return &lapics[this_cpu];
}

static uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static void wrmsr(uint32_t msr, uint64_t v)
{
	asm volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v),
		     "d"((uint32_t)(v >> 32)) : "memory");
}

static void cpuid1(uint32_t *ecx, uint32_t *edx)
{
	uint32_t a = 1, b, c = 0, d;

	asm volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	*ecx = c;
	*edx = d;
}

static uint32_t apic_read(struct lapic *l, unsigned int reg)
{
	if (l->x2)
		return rdmsr(MSR_X2APIC + reg / 16);
	return *(volatile uint32_t *)(XAPIC_BASE + reg);
}

static void apic_write(struct lapic *l, unsigned int reg, uint32_t v)
{
	if (l->x2)
		wrmsr(MSR_X2APIC + reg / 16, v);
	else
		*(volatile uint32_t *)(XAPIC_BASE + reg) = v;
}

int irq_init(void)
{
	struct lapic *l = me();
	uint32_t ecx, edx;
	uint64_t base;

	if (l->on)
		return 0;
	cpuid1(&ecx, &edx);
	if (!(edx & CPUID_1_EDX_APIC))
		return -1;
	base = rdmsr(MSR_APIC_BASE);
	/* Disabled to x2APIC in one write is invalid: enable, then extend. */
	if (!(base & APIC_BASE_EN)) {
		base = (base & 0xfffull) | XAPIC_BASE | APIC_BASE_EN;
		wrmsr(MSR_APIC_BASE, base);
	}
	if (ecx & CPUID_1_ECX_X2APIC) {
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_EXTD);
		l->x2 = 1;
	} else if ((base & ~0xfffull) != XAPIC_BASE) {
		return -1;		/* moved: not where the runner maps it */
	}
	apic_write(l, APIC_LVTT, LVT_MASKED);
	apic_write(l, APIC_TPR, 0);
	apic_write(l, APIC_SVR, SVR_ENABLE | INMATE_SPURIOUS_VECTOR);
	l->on = 1;
	return 0;
}

unsigned int irq_leftovers(int *first_pending)
{
	struct lapic l = { 0 };
	unsigned int left = 0, i;
	uint32_t ecx, edx, irr;
	uint64_t base;

	*first_pending = -1;
	cpuid1(&ecx, &edx);
	if (!(edx & CPUID_1_EDX_APIC))
		return 0;
	base = rdmsr(MSR_APIC_BASE);
	if (!(base & APIC_BASE_EN))
		return 0;		/* off: nothing can be pending */
	l.x2 = !!(base & APIC_BASE_EXTD);
	if (l.x2)
		left |= IRQ_LEFT_ON;
	else if ((base & ~0xfffull) != XAPIC_BASE)
		return left | IRQ_LEFT_ON;
	if (apic_read(&l, APIC_SVR) & SVR_ENABLE)
		left |= IRQ_LEFT_ON;
	if (!(apic_read(&l, APIC_LVTT) & LVT_MASKED) || apic_read(&l, APIC_TMCCT))
		left |= IRQ_LEFT_TIMER;
	if ((ecx & CPUID_1_ECX_DEADLINE) && rdmsr(MSR_TSC_DEADLINE))
		left |= IRQ_LEFT_TIMER;
	for (i = 0; i < 8; i++) {
		irr = apic_read(&l, APIC_IRR + i * 16);
		if (irr && *first_pending < 0)
			*first_pending = (int)(i * 32 + __builtin_ctz(irr));
		if (irr)
			left |= IRQ_LEFT_PENDING;
		if (apic_read(&l, APIC_ISR + i * 16))
			left |= IRQ_LEFT_ACTIVE;
	}
	return left;
}

int apic_x2(void)
{
	return me()->x2;
}

const char *irq_chip(void)
{
	struct lapic *l = me();

	return !l->on ? "none" : l->x2 ? "x2APIC" : "xAPIC";
}

int irq_set_handler(unsigned int vector, irq_handler_t fn)
{
	if (vector < INMATE_IRQ_FIRST ||
	    vector >= INMATE_IRQ_FIRST + INMATE_NR_IRQS)
		return -1;
	handlers[vector - INMATE_IRQ_FIRST] = fn;
	mb();		/* the handler in place before its vector can fire */
	return 0;
}

void irq_enable(void)
{
	asm volatile("sti" ::: "memory");
}

void irq_disable(void)
{
	asm volatile("cli" ::: "memory");
}

int arch_irqs_enabled(void)
{
	uint64_t fl;

	asm volatile("pushfq; popq %0" : "=r"(fl));
	return !!(fl & RFLAGS_IF);
}

void wait_for_interrupt(void)
{
	/* sti's one-instruction shadow: no interrupt before the hlt. */
	if (arch_irqs_enabled())
		asm volatile("hlt" ::: "memory");
	else
		asm volatile("sti; hlt; cli" ::: "memory");
}

/* From irq_common: interrupts off, on the interrupted stack. */
void x86_irq(uint64_t vec)
{
	uint64_t now = arch_ticks();
	struct lapic *l = me();
	irq_handler_t fn = NULL;

	irq_entered(now);
	if (vec >= INMATE_IRQ_FIRST && vec < INMATE_IRQ_FIRST + INMATE_NR_IRQS)
		fn = handlers[vec - INMATE_IRQ_FIRST];
	if (fn)
		fn(vec);
	apic_write(l, APIC_EOI, 0);
}

void arch_timer_arm(int mode, uint64_t d)
{
	struct lapic *l = me();
	uint64_t now, count;

	if (mode == TIMER_MODE_DEADLINE) {
		wrmsr(MSR_TSC_DEADLINE, d);
		return;
	}
	if (!d) {
		apic_write(l, APIC_TMICT, 0);
		return;
	}
	now = arch_ticks();
	count = d > now ? (d - now) * l->apic_khz / comm->tsc_khz : 0;
	if (count > 0xffffffffull)
		count = 0xffffffffull;	/* early: armed again for the rest */
	apic_write(l, APIC_TMICT, count ? count : 1);
}

/* The count-down's rate against the TSC, over 10 ms. */
static int calibrate(struct lapic *l)
{
	uint64_t t0, t1, span = (uint64_t)comm->tsc_khz * 10;
	uint32_t c0, c1;

	apic_write(l, APIC_TDCR, TDCR_DIV_1);
	apic_write(l, APIC_LVTT, LVT_MASKED);
	apic_write(l, APIC_TMICT, 0xffffffff);
	t0 = arch_ticks();
	c0 = apic_read(l, APIC_TMCCT);
	do {
		t1 = arch_ticks();
	} while (t1 - t0 < span);
	c1 = apic_read(l, APIC_TMCCT);
	t1 = arch_ticks();
	apic_write(l, APIC_TMICT, 0);
	if (c1 >= c0 || t1 <= t0)
		return -1;
	l->apic_khz = (uint64_t)(c0 - c1) * comm->tsc_khz / (t1 - t0);
	return l->apic_khz ? 0 : -1;
}

int timer_init(unsigned int flags)
{
	struct lapic *l = me();
	uint32_t ecx, edx;

	if (irq_init() || !comm->tsc_khz)
		return -1;
	cpuid1(&ecx, &edx);
	if ((ecx & CPUID_1_ECX_DEADLINE) && !(flags & TIMER_ONESHOT)) {
		if (timer_setup(TIMER_MODE_DEADLINE))
			return -1;
		apic_write(l, APIC_LVTT, LVTT_TSC_DEADLINE | INMATE_TIMER_VECTOR);
		/* The SDM: the LVT write before a deadline write, fenced. */
		asm volatile("mfence" ::: "memory");
		wrmsr(MSR_TSC_DEADLINE, 0);
		return 0;
	}
	if (calibrate(l) || timer_setup(TIMER_MODE_ONESHOT))
		return -1;
	apic_write(l, APIC_LVTT, INMATE_TIMER_VECTOR);	/* one-shot */
	return 0;
}

const char *timer_mode(void)
{
	switch (timer_mode_id()) {
	case TIMER_MODE_DEADLINE:
		return "tsc-deadline";
	case TIMER_MODE_ONESHOT:
		return "one-shot";
	default:
		return "none";
	}
}
