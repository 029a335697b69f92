/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64 inmate entry, 64-bit long mode. The runner starts every vCPU
 * here with paging on (its identity map, see cells/runner/arch/x86.c),
 * its GDT (0x08 64-bit code, 0x10 data), interrupts off, rsi = comm
 * page, rdi = vCPU index. Each vCPU takes its own stack and points its
 * GS base at its entry of inmate_cpu_ids (this_cpu reads %gs:0). vCPU 0
 * calls inmate_start(); the others wait in inmate_secondary() until vCPU
 * 0 starts them with smp_start_cpu() (on Jailhouse, x86 inmates start
 * their APs by INIT/SIPI; the runner's vCPUs have no local APIC).
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
