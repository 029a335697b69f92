/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 inmate entry at EL1, MMU off. The runner starts vCPU 0 here with
 * x0 = comm page, x1 = vCPU index; the other vCPUs stay powered off until
 * smp_start_cpu() turns them on (PSCI CPU_ON, as on Jailhouse) at
 * secondary_entry with x0 = their index. vCPU 0 sets the stack and the
 * vectors, then turns the MMU on with an identity map of 1 GiB blocks:
 * normal write-back cacheable memory, but the block of the console
 * register (read from the comm page), which is device memory. With the
 * MMU off every data access would be device memory and bypass the caches:
 * a cache experiment would mean nothing. A secondary takes its own stack
 * and turns the MMU on with vCPU 0's table. TPIDR_EL1 holds the index.
 */
#include "../../inmate_smp.h"

#define PSCI_CPU_OFF	0x84000002

/* MMU on with the table at l1_table (x2 is clobbered). */
	.macro	mmu_on
	mov	x2, #0xff		/* attr 0: normal WB RA WA; attr 1: device nGnRnE */
	msr	mair_el1, x2
	/* T0SZ 25 (39-bit, walk from level 1), IRGN0/ORGN0 WB, SH0 inner,
	 * TG0 4K, EPD1 (no TTBR1 walks), IPS 48 bits */
	ldr	x2, =(25 | (1 << 8) | (1 << 10) | (3 << 12) | (1 << 23) | (5 << 32))
	msr	tcr_el1, x2
	adrp	x2, l1_table
	add	x2, x2, :lo12:l1_table
	msr	ttbr0_el1, x2
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	mrs	x2, sctlr_el1
	orr	x2, x2, #(1 << 0)	/* M */
	orr	x2, x2, #(1 << 2)	/* C */
	orr	x2, x2, #(1 << 12)	/* I */
	msr	sctlr_el1, x2
	isb
	.endm

	.section .text.entry, "ax"
	.globl _start
_start:
	mov	x19, x0
	mov	x20, x1
	cbnz	x20, park
	msr	tpidr_el1, x20
	adrp	x2, stack_top
	add	x2, x2, :lo12:stack_top
	mov	sp, x2
	adrp	x2, vectors
	add	x2, x2, :lo12:vectors
	msr	vbar_el1, x2
	mov	x2, #(3 << 20)		/* CPACR_EL1.FPEN: no FP traps */
	msr	cpacr_el1, x2
	isb

	adrp	x3, l1_table
	add	x3, x3, :lo12:l1_table
	ldr	x5, [x19, #32]		/* comm->console */
	lsr	x5, x5, #30
	mov	x4, #0
1:	lsl	x6, x4, #30
	cmp	x4, x5
	b.eq	2f
	mov	x7, #0x701		/* block, AttrIndx 0, inner shareable, AF */
	b	3f
2:	mov	x7, #0x405		/* block, AttrIndx 1 (device), AF */
	orr	x7, x7, #(3 << 53)	/* PXN, UXN */
3:	orr	x6, x6, x7
	str	x6, [x3, x4, lsl #3]
	add	x4, x4, #1
	cmp	x4, #512
	b.ne	1b
	/* Written with the MMU off: drop any stale cached copy. */
	dsb	sy
	mov	x4, x3
	add	x5, x3, #4096
4:	dc	ivac, x4
	add	x4, x4, #64
	cmp	x4, x5
	b.lo	4b
	dsb	sy
	mmu_on

	mov	x0, x19
	mov	x1, x20
	bl	inmate_start
park:
	ldr	x0, =PSCI_CPU_OFF
	hvc	#0
	b	park

/* PSCI CPU_ON from smp_start_cpu(): x0 = vCPU index, MMU off. */
	.globl	secondary_entry
secondary_entry:
	mov	x20, x0
	cmp	x20, #INMATE_MAX_CPUS
	b.hs	park
	msr	tpidr_el1, x20
	/* stack of vCPU n: smp_stacks + n * INMATE_SMP_STACK */
	adrp	x2, smp_stacks
	add	x2, x2, :lo12:smp_stacks
	add	x2, x2, x20, lsl #INMATE_SMP_STACK_SHIFT
	mov	sp, x2
	adrp	x2, vectors
	add	x2, x2, :lo12:vectors
	msr	vbar_el1, x2
	mov	x2, #(3 << 20)		/* CPACR_EL1.FPEN: no FP traps */
	msr	cpacr_el1, x2
	isb
	mmu_on
	mov	x0, x20
	bl	inmate_secondary
	b	park

/*
 * Any exception is fatal, report it and stop, but an IRQ taken at EL1
 * on SP_EL1 (vector 5: the inmate runs at EL1h), which goes to irq_entry.
 */
	.macro	vec idx
	.balign	128
	.if	\idx == 5
	b	irq_entry
	.else
	mov	x0, #\idx
	b	fault_common
	.endif
	.endm

	.balign	2048
vectors:
	.irp	i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	vec	\i
	.endr

/*
 * On the interrupted stack, interrupts masked (PSTATE.I set by the
 * exception): save what a C call may clobber (x0-x18, x29, x30; the
 * library has no FP/SIMD code) and ELR/SPSR, then arm64_irq().
 */
irq_entry:
	sub	sp, sp, #192
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x29, [sp, #144]
	mrs	x0, elr_el1
	mrs	x1, spsr_el1
	stp	x30, x0, [sp, #160]
	str	x1, [sp, #176]
	bl	arm64_irq
	ldr	x1, [sp, #176]
	ldp	x30, x0, [sp, #160]
	msr	spsr_el1, x1
	msr	elr_el1, x0
	ldp	x18, x29, [sp, #144]
	ldp	x16, x17, [sp, #128]
	ldp	x14, x15, [sp, #112]
	ldp	x12, x13, [sp, #96]
	ldp	x10, x11, [sp, #80]
	ldp	x8, x9, [sp, #64]
	ldp	x6, x7, [sp, #48]
	ldp	x4, x5, [sp, #32]
	ldp	x2, x3, [sp, #16]
	ldp	x0, x1, [sp, #0]
	add	sp, sp, #192
	eret

/* vCPU 0 reports on the fault stack, a secondary on its own stack. */
fault_common:
	mrs	x1, tpidr_el1
	cbnz	x1, 6f
	adrp	x1, fault_stack_top
	add	x1, x1, :lo12:fault_stack_top
	mov	sp, x1
6:
	mrs	x1, esr_el1
	mrs	x2, far_el1
	mrs	x3, elr_el1
	bl	arm64_fault
5:	b	5b

	.section .pgtable, "aw", %nobits
	.balign	4096
l1_table:
	.skip	4096

	.section .note.GNU-stack, "", %progbits
