// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 part of the inmate library: 64-bit IDT, TSC, stop through the
 * runner's stop register (interrupts and the timer: irq.c).
 */
#include "../../inmate.h"

struct idt_gate {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t ist;
	uint8_t type;
	uint16_t off_mid;
	uint32_t off_hi;
	uint32_t reserved;
} __attribute__((packed));

static struct idt_gate idt[256] __attribute__((aligned(16)));
static volatile uint32_t *stop_reg;

static const char *const names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range", "invalid opcode", "device not available",
	"double fault", "coprocessor overrun", "invalid TSS",
	"segment not present", "stack fault", "general protection",
	"page fault", "reserved", "x87 error", "alignment check",
	"machine check", "SIMD error", "virtualization", "control protection",
};

/* From the entry code's stubs: the address is CR2 for a page fault. */
void x86_fault(uint64_t vec, uint64_t err, uint64_t rip, uint64_t cr2)
{
	const char *n = vec < 32 && names[vec] ? names[vec] : "exception";

	inmate_fault(vec, vec == 14 ? cr2 : 0, rip, err, n);
}

/* The IDT is shared: vCPU 0 fills it, every vCPU loads it. */
static void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) desc;

	desc.limit = sizeof(idt) - 1;
	desc.base = (uintptr_t)idt;
	asm volatile("lidt %0" : : "m"(desc));
}

static void idt_set(unsigned int i, const char *stub)
{
	uint64_t a = (uintptr_t)stub;

	idt[i].off_lo = a & 0xffff;
	idt[i].off_mid = (a >> 16) & 0xffff;
	idt[i].off_hi = a >> 32;
	idt[i].sel = 0x08;	/* the runner's 64-bit code segment */
	idt[i].ist = 0;
	idt[i].type = 0x8e;	/* present, 64-bit interrupt gate */
	idt[i].reserved = 0;
}

/*
 * Exceptions, the interrupt vectors and the spurious one; every other
 * vector is not present, so a stray interrupt faults (vector 11).
 */
void arch_init(void)
{
	unsigned int i;

	stop_reg = (volatile uint32_t *)(uintptr_t)(comm->console +
						    CELL_STOP_REG_OFFSET);
	for (i = 0; i < 32; i++)
		idt_set(i, isr_stubs + 16 * i);
	for (i = 0; i < INMATE_NR_IRQS; i++)
		idt_set(INMATE_IRQ_FIRST + i, irq_stubs + 16 * i);
	idt_set(INMATE_SPURIOUS_VECTOR, irq_spurious);
	idt_load();
}

void arch_secondary_init(void)
{
	idt_load();
}

/* The vCPUs wait at the entry (the runner, not SIPI, starts them). */
int arch_smp_start(unsigned int cpu)
{
	(void)cpu;
	return 0;
}

void arch_smp_wait(void)
{
	asm volatile("pause" ::: "memory");
}

unsigned int arch_cpu_id(void)
{
	uint32_t id;

	asm volatile("movl %%gs:0, %0" : "=r"(id));
	return id;
}

uint64_t arch_hw_cpu_id(void)
{
	uint32_t a = 1, b, c = 0, d;

	asm volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return b >> 24;		/* CPUID.1:EBX[31:24], the initial APIC ID */
}

uint64_t arch_cycles(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

uint64_t arch_ticks(void)
{
	return arch_cycles();
}

uint64_t arch_tick_hz(void)
{
	return comm ? (uint64_t)comm->tsc_khz * 1000 : 0;
}

/*
 * A 32-bit write of the stop register, interrupts off (with the in-kernel
 * local APIC a hlt no longer exits). The runner stops the cell on vCPU
 * 0's, or on any vCPU's once the comm region says done or failed; a
 * secondary's alone only parks it. Before the comm region is checked
 * there is no register to write: the vCPU halts until the watchdog.
 */
void arch_stop(void)
{
	asm volatile("cli" ::: "memory");
	if (stop_reg)
		*stop_reg = 1;
	for (;;)
		asm volatile("cli; hlt" ::: "memory");
}

void arch_cpu_off(void)
{
	arch_stop();
}
