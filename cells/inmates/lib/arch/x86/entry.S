/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64 inmate entry, 64-bit long mode. The runner starts every vCPU
 * here with paging on (its identity map, see cells/runner/arch/x86.c),
 * its GDT (0x08 64-bit code, 0x10 data), interrupts off, rsi = comm
 * page, rdi = vCPU index. Each vCPU takes its own stack and points its
 * GS base at its entry of inmate_cpu_ids (this_cpu reads %gs:0). vCPU 0
 * calls inmate_start(); the others wait in inmate_secondary() until vCPU
 * 0 starts them with smp_start_cpu() (on Jailhouse, x86 inmates start
 * their APs by INIT/SIPI; the runner makes every vCPU runnable at the
 * entry instead).
 */
#include "../../inmate_smp.h"

#define MSR_GS_BASE	0xc0000101

	.code64
	.section .text.entry, "ax"
	.globl _start
_start:
	cli
	cld
	cmp	$INMATE_MAX_CPUS, %rdi
	jae	park
	/* GS base: &inmate_cpu_ids[rdi] */
	lea	inmate_cpu_ids(%rip), %rax
	lea	(%rax, %rdi, 4), %rax
	mov	%rax, %rdx
	shr	$32, %rdx
	mov	$MSR_GS_BASE, %ecx
	wrmsr
	test	%rdi, %rdi
	jnz	secondary
	lea	stack_top(%rip), %rsp
	mov	%rsi, %rdi		/* inmate_start(comm, 0) */
	xor	%esi, %esi
	call	inmate_start
	jmp	park
secondary:
	/* stack of vCPU n: smp_stacks + n * INMATE_SMP_STACK */
	mov	%rdi, %rax
	shl	$INMATE_SMP_STACK_SHIFT, %rax
	lea	smp_stacks(%rip), %rsp
	add	%rax, %rsp
	call	inmate_secondary	/* rdi: the vCPU index */
park:
	cli
	hlt
	jmp	park

/* Exception stubs, 16 bytes apart: vector n at isr_stubs + 16 * n. */
	.macro	stub vec
	.balign	16
	.if (\vec == 8) || ((\vec >= 10) && (\vec <= 14)) || (\vec == 17) || (\vec == 21) || (\vec == 29) || (\vec == 30)
	.else
	pushq	$0
	.endif
	pushq	$\vec
	jmp	fault_common
	.endm

	.balign	16
	.globl	isr_stubs
isr_stubs:
	.irp	v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	stub	\v
	.endr

/*
 * Interrupt stubs, 16 bytes apart: vector INMATE_IRQ_FIRST + n at
 * irq_stubs + 16 * n; then the spurious vector's, which only returns
 * (a spurious interrupt takes no EOI).
 */
	.macro	irq_stub vec
	.balign	16
	pushq	$\vec
	jmp	irq_common
	.endm

	.balign	16
	.globl	irq_stubs
irq_stubs:
	.irp	v, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
	irq_stub \v
	.endr
	.irp	v, 48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63
	irq_stub \v
	.endr
	.balign	16
	.globl	irq_spurious
irq_spurious:
	iretq

/*
 * Stack: vector, rip, cs, rflags, rsp, ss. The registers a C call may
 * clobber are saved (the library is built without SSE), the stack
 * aligned for the call, and x86_irq() runs with interrupts off.
 */
irq_common:
	push	%rax
	push	%rcx
	push	%rdx
	push	%rsi
	push	%rdi
	push	%r8
	push	%r9
	push	%r10
	push	%r11
	push	%rbp
	mov	%rsp, %rbp
	mov	80(%rbp), %rdi		/* the vector */
	and	$-16, %rsp
	cld
	call	x86_irq
	mov	%rbp, %rsp
	pop	%rbp
	pop	%r11
	pop	%r10
	pop	%r9
	pop	%r8
	pop	%rdi
	pop	%rsi
	pop	%rdx
	pop	%rcx
	pop	%rax
	add	$8, %rsp		/* the vector */
	iretq

fault_common:
	/* stack: vector, error code, rip, cs, rflags, rsp, ss */
	mov	0(%rsp), %rdi
	mov	8(%rsp), %rsi
	mov	16(%rsp), %rdx
	mov	%cr2, %rcx
	and	$-16, %rsp		/* the faulting vCPU's own stack */
	call	x86_fault
1:	cli
	hlt
	jmp	1b

	.section .note.GNU-stack, "", %progbits
