// SPDX-License-Identifier: GPL-2.0
/* x86_64 part of the inmate library: 64-bit IDT, TSC, stop by hlt. */
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

static struct idt_gate idt[32] __attribute__((aligned(16)));

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

void arch_init(void)
{
	unsigned int i;

	for (i = 0; i < 32; i++) {
		uint64_t a = (uintptr_t)(isr_stubs + 16 * i);

		idt[i].off_lo = a & 0xffff;
		idt[i].off_mid = (a >> 16) & 0xffff;
		idt[i].off_hi = a >> 32;
		idt[i].sel = 0x08;	/* the runner's 64-bit code segment */
		idt[i].ist = 0;
		idt[i].type = 0x8e;	/* present, 64-bit interrupt gate */
		idt[i].reserved = 0;
	}
	idt_load();
}

void arch_secondary_init(void)
{
	idt_load();
}

/* The vCPUs wait at the entry (no local APIC, no SIPI): nothing to send. */
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
	return 0;
}

/*
 * hlt with interrupts off: KVM_EXIT_HLT (no in-kernel irqchip). The runner
 * stops the cell on vCPU 0's, or on any vCPU's once the comm region says
 * done or failed; a secondary's alone only parks it.
 */
void arch_stop(void)
{
	for (;;)
		asm volatile("cli; hlt" ::: "memory");
}

void arch_cpu_off(void)
{
	arch_stop();
}
