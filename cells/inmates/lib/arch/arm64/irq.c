// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 interrupts and the local timer of an inmate: KVM's in-kernel
 * GICv3 at the addresses of the comm page (the runner's vGIC, in the
 * console's 1 GiB block, which the entry code maps as device memory) and
 * the architected virtual timer on its PPI. The distributor is shared;
 * each vCPU has its own redistributor, CPU interface (system registers)
 * and timer; the handlers are shared.
 */
#include "../../inmate.h"

/* Distributor; KVM's has a single security state (GICD_CTLR.DS = 1). */
#define GICD_CTLR		0x0000
#define GICD_CTLR_GRP1		(1u << 1)
#define GICD_CTLR_ARE		(1u << 4)
#define GICD_CTLR_RWP		(1u << 31)
#define GICD_IGROUPR		0x0080
#define GICD_ISENABLER		0x0100
#define GICD_ICENABLER		0x0180
#define GICD_IPRIORITYR		0x0400
#define GICD_ICFGR		0x0c00
#define GICD_IROUTER		0x6000
#define INTID_SPI_FIRST		32

/* Redistributor: its RD frame, then its SGI/PPI frame. */
#define GICR_STRIDE		0x20000
#define GICR_CTLR		0x0000
#define GICR_CTLR_RWP		(1u << 3)
#define GICR_TYPER		0x0008
#define GICR_TYPER_LAST		(1ull << 4)
#define GICR_WAKER		0x0014
#define GICR_WAKER_SLEEP	(1u << 1)
#define GICR_WAKER_ASLEEP	(1u << 2)
#define GICR_SGI		0x10000
#define GICR_IGROUPR0		(GICR_SGI + 0x080)
#define GICR_ISENABLER0		(GICR_SGI + 0x100)
#define GICR_ICENABLER0		(GICR_SGI + 0x180)
#define GICR_ISPENDR0		(GICR_SGI + 0x200)
#define GICR_ICPENDR0		(GICR_SGI + 0x280)
#define GICR_ISACTIVER0		(GICR_SGI + 0x300)
#define GICR_ICACTIVER0		(GICR_SGI + 0x380)
#define GICR_IPRIORITYR		(GICR_SGI + 0x400)

#define IRQ_PRIO		0xa0	/* every private interrupt alike */
#define INTID_SPECIAL		1020	/* 1020-1023: nothing to handle */

/* The CPU interface's system registers, by encoding. */
#define ICC_PMR_EL1		"S3_0_C4_C6_0"
#define ICC_IAR1_EL1		"S3_0_C12_C12_0"
#define ICC_EOIR1_EL1		"S3_0_C12_C12_1"
#define ICC_BPR1_EL1		"S3_0_C12_C12_3"
#define ICC_CTLR_EL1		"S3_0_C12_C12_4"
#define ICC_SRE_EL1		"S3_0_C12_C12_5"
#define ICC_IGRPEN1_EL1		"S3_0_C12_C12_7"
#define ICC_CTLR_EOIMODE	(1ull << 1)

#define CNTV_CTL_ENABLE		1ull
#define DAIF_I			(1ull << 7)
#define TVAL_MAX		0x7fffffffull	/* CNTV_TVAL is signed 32-bit */

/* One vCPU's redistributor and CPU interface. */
struct gic_cpu {
	int on;
	uintptr_t rd;			/* its redistributor */
};

static struct gic_cpu gic_cpus[INMATE_MAX_CPUS];
static irq_handler_t handlers[INMATE_NR_IRQS];

static struct gic_cpu *me(void)
{
	return &gic_cpus[this_cpu];
}

#define sysreg_read(r)	\
	({ uint64_t __v; asm volatile("mrs %0, " r : "=r"(__v)); __v; })
#define sysreg_write(r, v)	\
	({ asm volatile("msr " r ", %0" : : "r"((uint64_t)(v)) : "memory"); })

/* Plain single-register accesses: KVM decodes them from the syndrome. */
static uint32_t mmio_read32(uintptr_t a)
{
	uint32_t v;

	asm volatile("ldr %w0, [%1]" : "=r"(v) : "r"(a) : "memory");
	return v;
}

static uint64_t mmio_read64(uintptr_t a)
{
	uint64_t v;

	asm volatile("ldr %0, [%1]" : "=r"(v) : "r"(a) : "memory");
	return v;
}

static void mmio_write32(uintptr_t a, uint32_t v)
{
	asm volatile("str %w0, [%1]" : : "r"(v), "r"(a) : "memory");
}

static void mmio_write64(uintptr_t a, uint64_t v)
{
	asm volatile("str %0, [%1]" : : "r"(v), "r"(a) : "memory");
}

/*
 * A shared interrupt for the calling vCPU: group 1, the private ones'
 * priority, edge-triggered (a doorbell is a pulse from KVM_IRQFD, which
 * a level setting would drop once the line falls), routed to this vCPU.
 */
static void spi_route_here(uintptr_t dist, unsigned int id)
{
	uint64_t mpidr = arch_hw_cpu_id();
	uint32_t bit = 1u << (id % 32), v;
	uintptr_t a;

	a = dist + GICD_IGROUPR + id / 32 * 4;
	mmio_write32(a, mmio_read32(a) | bit);
	a = dist + GICD_IPRIORITYR + (id & ~3u);
	v = mmio_read32(a) & ~(0xffu << (id % 4 * 8));
	mmio_write32(a, v | IRQ_PRIO << (id % 4 * 8));
	a = dist + GICD_ICFGR + id / 16 * 4;
	mmio_write32(a, mmio_read32(a) | 2u << (id % 16 * 2));
	/* Aff3 at 39:32, Aff2-Aff0 at 23:0, as MPIDR has them. */
	mmio_write64(dist + GICD_IROUTER + id * 8ull, mpidr & 0xff00ffffffull);
}

/* This vCPU's redistributor: the one whose GICR_TYPER has its MPIDR. */
static uintptr_t find_rd(void)
{
	uint64_t mpidr = arch_hw_cpu_id();
	uint64_t aff = (mpidr & 0xffffff) | ((mpidr >> 32) << 24);
	uintptr_t rd = comm->gic_redist;
	unsigned int i;

	for (i = 0; i < comm->nr_cpus; i++, rd += GICR_STRIDE) {
		uint64_t t = mmio_read64(rd + GICR_TYPER);

		if ((t >> 32) == aff)
			return rd;
		if (t & GICR_TYPER_LAST)
			break;
	}
	return 0;
}

int irq_init(void)
{
	struct gic_cpu *c = me();
	uintptr_t dist = comm->gic_dist, rd;
	uint64_t v;
	unsigned int i;

	if (c->on)
		return 0;
	if (comm->gic_version != 3 || !dist)
		return -1;
	/* Shared: the first vCPU here turns it on, the others find it on. */
	if (!(mmio_read32(dist + GICD_CTLR) & GICD_CTLR_GRP1)) {
		mmio_write32(dist + GICD_CTLR, GICD_CTLR_ARE | GICD_CTLR_GRP1);
		while (mmio_read32(dist + GICD_CTLR) & GICD_CTLR_RWP)
			;
	}
	rd = find_rd();
	if (!rd)
		return -1;
	mmio_write32(rd + GICR_WAKER,
		     mmio_read32(rd + GICR_WAKER) & ~GICR_WAKER_SLEEP);
	while (mmio_read32(rd + GICR_WAKER) & GICR_WAKER_ASLEEP)
		;
	/* Private interrupts off, none pending or active, all group 1. */
	mmio_write32(rd + GICR_ICENABLER0, ~0u);
	while (mmio_read32(rd + GICR_CTLR) & GICR_CTLR_RWP)
		;
	mmio_write32(rd + GICR_ICPENDR0, ~0u);
	mmio_write32(rd + GICR_ICACTIVER0, ~0u);
	mmio_write32(rd + GICR_IGROUPR0, ~0u);
	for (i = 0; i < 32; i += 4)
		mmio_write32(rd + GICR_IPRIORITYR + i, IRQ_PRIO * 0x01010101u);
	/* The system-register interface (KVM offers no other for GICv3). */
	v = sysreg_read(ICC_SRE_EL1);
	sysreg_write(ICC_SRE_EL1, v | 1);
	asm volatile("isb");
	v = sysreg_read(ICC_SRE_EL1);
	if (!(v & 1))
		return -1;
	sysreg_write(ICC_PMR_EL1, 0xffull);
	sysreg_write(ICC_BPR1_EL1, 0ull);
	v = sysreg_read(ICC_CTLR_EL1);
	/* EOI also deactivates: one write ends an interrupt. */
	sysreg_write(ICC_CTLR_EL1, v & ~ICC_CTLR_EOIMODE);
	sysreg_write(ICC_IGRPEN1_EL1, 1ull);
	asm volatile("isb");
	c->rd = rd;
	c->on = 1;
	return 0;
}

unsigned int irq_leftovers(int *first_pending)
{
	unsigned int left = 0;
	uint32_t pend;
	uintptr_t rd;

	*first_pending = -1;
	if (sysreg_read("cntv_ctl_el0") & CNTV_CTL_ENABLE)
		left |= IRQ_LEFT_TIMER;
	if (comm->gic_version != 3 || !comm->gic_dist)
		return left;
	if (mmio_read32(comm->gic_dist + GICD_CTLR) & GICD_CTLR_GRP1)
		left |= IRQ_LEFT_ON;
	if (sysreg_read(ICC_IGRPEN1_EL1) & 1)
		left |= IRQ_LEFT_ON;
	rd = find_rd();
	if (!rd)
		return left;
	if (mmio_read32(rd + GICR_ISENABLER0))
		left |= IRQ_LEFT_ENABLED;
	pend = mmio_read32(rd + GICR_ISPENDR0);
	if (pend) {
		*first_pending = __builtin_ctz(pend);
		left |= IRQ_LEFT_PENDING;
	}
	if (mmio_read32(rd + GICR_ISACTIVER0))
		left |= IRQ_LEFT_ACTIVE;
	return left;
}

const char *irq_chip(void)
{
	return me()->on ? "GICv3" : "none";
}

int apic_x2(void)
{
	return 0;
}

int irq_set_handler(unsigned int vector, irq_handler_t fn)
{
	struct gic_cpu *c = me();

	if (vector < INMATE_IRQ_FIRST ||
	    vector >= INMATE_IRQ_FIRST + INMATE_NR_IRQS)
		return -1;
	handlers[vector - INMATE_IRQ_FIRST] = fn;
	mb();		/* the handler in place before its interrupt can fire */
	if (!c->on)
		return 0;
	if (vector < INTID_SPI_FIRST) {
		mmio_write32(c->rd + (fn ? GICR_ISENABLER0 : GICR_ICENABLER0),
			     1u << vector);
		return 0;
	}
	if (fn)
		spi_route_here(comm->gic_dist, vector);
	mmio_write32(comm->gic_dist + (fn ? GICD_ISENABLER : GICD_ICENABLER) +
		     vector / 32 * 4, 1u << (vector % 32));
	return 0;
}

void irq_enable(void)
{
	asm volatile("msr daifclr, #2" ::: "memory");
}

void irq_disable(void)
{
	asm volatile("msr daifset, #2" ::: "memory");
}

/*
 * WFI wakes on a pending interrupt even while PSTATE.I masks it; then
 * unmasking takes it at the isb. With the vGIC, KVM waits for it in the
 * kernel: no exit to the runner.
 */
int arch_irqs_enabled(void)
{
	uint64_t daif;

	asm volatile("mrs %0, daif" : "=r"(daif));
	return !(daif & DAIF_I);
}

void wait_for_interrupt(void)
{
	if (arch_irqs_enabled())
		asm volatile("wfi" ::: "memory");
	else
		asm volatile("wfi; msr daifclr, #2; isb; msr daifset, #2"
			     ::: "memory");
}

/* From irq_entry: interrupts masked, on the interrupted stack. */
void arm64_irq(void)
{
	uint64_t now = arch_ticks(), iar;
	irq_handler_t fn = NULL;
	unsigned int id;

	iar = sysreg_read(ICC_IAR1_EL1);
	id = iar & 0xffffff;
	if (id >= INTID_SPECIAL && id < 1024)
		return;		/* spurious: nothing to end */
	irq_entered(now);
	if (id >= INMATE_IRQ_FIRST && id < INMATE_IRQ_FIRST + INMATE_NR_IRQS)
		fn = handlers[id - INMATE_IRQ_FIRST];
	if (fn)
		fn(id);
	sysreg_write(ICC_EOIR1_EL1, iar);
}

/*
 * The timer's PPI is level: it stays asserted until the compare moves
 * past the counter or the timer is off, so the handler re-arms or
 * disarms before the EOI (timer.c does).
 */
void arch_timer_arm(int mode, uint64_t d)
{
	uint64_t now, t;

	if (!d) {
		sysreg_write("cntv_ctl_el0", 0);
		asm volatile("isb");
		return;
	}
	if (mode == TIMER_MODE_DEADLINE) {
		sysreg_write("cntv_cval_el0", d);
	} else {
		now = arch_ticks();
		t = d > now ? d - now : 0;
		if (t > TVAL_MAX)
			t = TVAL_MAX;	/* early: armed again for the rest */
		sysreg_write("cntv_tval_el0", t);
	}
	sysreg_write("cntv_ctl_el0", CNTV_CTL_ENABLE);
	asm volatile("isb");
}

int timer_init(unsigned int flags)
{
	if (irq_init() || !arch_tick_hz() ||
	    comm->timer_irq != INMATE_TIMER_VECTOR)
		return -1;
	arch_timer_arm(TIMER_MODE_NONE, 0);
	return timer_setup((flags & TIMER_ONESHOT) ? TIMER_MODE_ONESHOT :
			   TIMER_MODE_DEADLINE);
}

const char *timer_mode(void)
{
	switch (timer_mode_id()) {
	case TIMER_MODE_DEADLINE:
		return "cntv-deadline";
	case TIMER_MODE_ONESHOT:
		return "one-shot";
	default:
		return "none";
	}
}
