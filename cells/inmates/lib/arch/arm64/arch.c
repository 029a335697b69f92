// SPDX-License-Identifier: GPL-2.0
/* arm64 part of the inmate library: PMU cycle counter, CNTVCT, PSCI. */
#include "../../inmate.h"

#define PSCI_CPU_OFF	0x84000002u
#define PSCI_CPU_ON	0xc4000003u	/* SMC64 */
#define PSCI_SYSTEM_OFF	0x84000008u

static const char *const ec_names[64] = {
	[0x00] = "unknown instruction",
	[0x01] = "WFI/WFE trap",
	[0x07] = "FP/SIMD access",
	[0x0e] = "illegal execution state",
	[0x15] = "SVC",
	[0x18] = "system register access",
	[0x20] = "instruction abort (lower EL)",
	[0x21] = "instruction abort",
	[0x22] = "PC alignment",
	[0x24] = "data abort (lower EL)",
	[0x25] = "data abort",
	[0x26] = "SP alignment",
	[0x2f] = "SError",
	[0x3c] = "BRK",
};

void arm64_fault(uint64_t idx, uint64_t esr, uint64_t far, uint64_t elr)
{
	const char *n = ec_names[(esr >> 26) & 0x3f];

	inmate_fault(esr, far, elr, idx, n ? n : "exception");
}

static uint64_t psci(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
	register uint64_t x0 asm("x0") = fn;
	register uint64_t x1 asm("x1") = a1;
	register uint64_t x2 asm("x2") = a2;
	register uint64_t x3 asm("x3") = a3;

	asm volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
		     :: "memory");
	return x0;
}

/*
 * As Jailhouse's arm64 inmates do: PSCI CPU_ON of a vCPU the runner left
 * powered off, at secondary_entry with the vCPU index as context. KVM's
 * MPIDR of vCPU n < 16 is n (Aff0).
 */
int arch_smp_start(unsigned int cpu)
{
	return psci(PSCI_CPU_ON, cpu, (uintptr_t)secondary_entry, cpu) ?
	       -1 : 0;
}

void arch_smp_wait(void)
{
	asm volatile("yield" ::: "memory");
}

unsigned int arch_cpu_id(void)
{
	uint64_t v;

	asm volatile("mrs %0, tpidr_el1" : "=r"(v));	/* set by the entry */
	return v;
}

uint64_t arch_hw_cpu_id(void)
{
	uint64_t v;

	asm volatile("mrs %0, mpidr_el1" : "=r"(v));
	return v & 0xff00ffffffull;	/* Aff3..Aff0 */
}

void arch_secondary_init(void)
{
	arch_init();	/* this vCPU's own PMU, if there is one */
}

void arch_cpu_off(void)
{
	for (;;)
		psci(PSCI_CPU_OFF, 0, 0, 0);
}

void arch_init(void)
{
	if (!(comm->flags & CELL_COMM_F_PMU))
		return;
	/* Count EL1 cycles from now: PMCR.E, cycle counter enabled. */
	asm volatile("msr pmccfiltr_el0, xzr\n"
		     "mrs x0, pmcr_el0\n"
		     "orr x0, x0, #1\n"		/* E */
		     "orr x0, x0, #4\n"		/* C: reset the cycle counter */
		     "msr pmcr_el0, x0\n"
		     "mov x0, #(1 << 31)\n"
		     "msr pmcntenset_el0, x0\n"
		     "isb\n" ::: "x0", "memory");
}

uint64_t arch_cycles(void)
{
	uint64_t v;

	asm volatile("isb; mrs %0, pmccntr_el0" : "=r"(v) :: "memory");
	return v;
}

uint64_t arch_ticks(void)
{
	uint64_t v;

	asm volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

uint64_t arch_tick_hz(void)
{
	uint64_t v;

	asm volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

void arch_stop(void)
{
	register uint64_t x0 asm("x0") = PSCI_SYSTEM_OFF;

	for (;;)
		asm volatile("hvc #0" : "+r"(x0) :: "memory");
}
