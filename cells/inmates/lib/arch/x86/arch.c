// SPDX-License-Identifier: GPL-2.0
/* x86 part of the inmate library: IDT, TSC, stop by hlt, 64-bit divide. */
#include "../../inmate.h"

struct idt_gate {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t zero;
	uint8_t type;
	uint16_t off_hi;
} __attribute__((packed));

static struct idt_gate idt[32] __attribute__((aligned(8)));
extern char isr_stubs[];

static const char *const names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range", "invalid opcode", "device not available",
	"double fault", "coprocessor overrun", "invalid TSS",
	"segment not present", "stack fault", "general protection",
	"page fault", "reserved", "x87 error", "alignment check",
	"machine check", "SIMD error", "virtualization", "control protection",
};

void x86_fault(uint32_t vec, uint32_t err, uint32_t eip);
void x86_fault(uint32_t vec, uint32_t err, uint32_t eip)
{
	const char *n = vec < 32 && names[vec] ? names[vec] : "exception";

	inmate_fault(vec, 0, eip, err, n);
}

void arch_init(void)
{
	struct {
		uint16_t limit;
		uint32_t base;
	} __attribute__((packed)) desc;
	unsigned int i;

	for (i = 0; i < 32; i++) {
		uint32_t a = (uint32_t)(uintptr_t)(isr_stubs + 16 * i);

		idt[i].off_lo = a & 0xffff;
		idt[i].off_hi = a >> 16;
		idt[i].sel = 0x08;
		idt[i].zero = 0;
		idt[i].type = 0x8e;	/* present, 32-bit interrupt gate */
	}
	desc.limit = sizeof(idt) - 1;
	desc.base = (uint32_t)(uintptr_t)idt;
	asm volatile("lidt %0" : : "m"(desc));
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

void arch_stop(void)
{
	/* hlt with interrupts off: KVM_EXIT_HLT (no in-kernel irqchip). */
	for (;;)
		asm volatile("cli; hlt" ::: "memory");
}

/* libgcc's 64-bit divide, which a -nostdlib 32-bit link lacks. */
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint64_t q = 0, r = 0;
	int i;

	if (!d)
		inmate_fault(0, 0, 0, 0, "64-bit divide by zero");
	for (i = 63; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= 1ull << i;
		}
	}
	if (rem)
		*rem = r;
	return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __udivdi3(uint64_t n, uint64_t d)
{
	return __udivmoddi4(n, d, NULL);
}

uint64_t __umoddi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d)
{
	uint64_t r;

	__udivmoddi4(n, d, &r);
	return r;
}
