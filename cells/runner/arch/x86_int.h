/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the x86 part of the cell runner: the guest's address space
 * (x86_layout.c) and the VM and vCPU setup (x86.c).
 */
#ifndef COLORGUARD_RUNNER_X86_INT_H
#define COLORGUARD_RUNNER_X86_INT_H

#include "../vm_int.h"

#define PAGE		4096ull

/* Pages after the comm page: GDT, PML4, PDPT, then the page directories. */
#define PT_GDT		0
#define PT_PML4		1
#define PT_PDPT		2
#define PT_PD		3

/*
 * KVM's own pages for VMX: the real-mode TSS (3 pages, KVM_SET_TSS_ADDR)
 * and, right below it, the identity-map page KVM places there by default.
 * No guest address of the cell may fall in them.
 */
#define KVM_TSS_ADDR		0xfffbd000ull
#define KVM_TSS_START		(KVM_TSS_ADDR - PAGE)
#define KVM_TSS_END		(KVM_TSS_ADDR + 3 * PAGE)

/* The GDT and the identity map, written anew at every start. */
void x86_write_tables(struct cell_vm *vm);

#endif
