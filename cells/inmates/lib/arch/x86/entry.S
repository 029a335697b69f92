/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 inmate entry, 32-bit protected mode, paging off. The runner starts
 * every vCPU here with flat segments, CR0.PE, esi = comm page, edi = vCPU
 * index. vCPU 0 loads our own GDT (the IDT's gates need a code selector
 * in guest memory) and calls inmate_start(); the others halt for good.
 */
	.code32
	.section .text.entry, "ax"
	.globl _start
_start:
	cli
	test	%edi, %edi
	jnz	park
	lgdt	gdt_desc
	ljmp	$0x08, $1f
1:	mov	$0x10, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %fs
	mov	%eax, %gs
	mov	%eax, %ss
	mov	$stack_top, %esp
	push	%edi
	push	%esi
	call	inmate_start
park:
	cli
	hlt
	jmp	park

/* Exception stubs, 16 bytes apart: vector n at isr_stubs + 16 * n. */
	.macro	stub vec
	.balign	16
	.if (\vec == 8) || ((\vec >= 10) && (\vec <= 14)) || (\vec == 17) || (\vec == 21) || (\vec == 29) || (\vec == 30)
	.else
	pushl	$0
	.endif
	pushl	$\vec
	jmp	fault_common
	.endm

	.balign	16
	.globl	isr_stubs
isr_stubs:
	.irp	v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	stub	\v
	.endr

fault_common:
	/* stack: vector, error code, eip, cs, eflags */
	mov	$fault_stack_top, %eax
	mov	8(%esp), %ecx
	mov	4(%esp), %edx
	mov	0(%esp), %ebx
	mov	%eax, %esp
	push	%ecx
	push	%edx
	push	%ebx
	call	x86_fault
1:	cli
	hlt
	jmp	1b

	.section .rodata
	.balign	8
gdt:
	.quad	0
	.quad	0x00cf9b000000ffff	/* 0x08: code, base 0, 4 GiB, 32-bit */
	.quad	0x00cf93000000ffff	/* 0x10: data, base 0, 4 GiB */
gdt_end:
gdt_desc:
	.word	gdt_end - gdt - 1
	.long	gdt

	.section .note.GNU-stack, "", %progbits
