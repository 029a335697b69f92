// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 cell's guest-physical address space: how far the identity map
 * reaches, the pages its tables take after the comm page, what no RAM or
 * console may share (KVM's TSS and identity-map pages, the local APIC's
 * 2 MiB page), and the GDT and page tables themselves (x86.c has the
 * rest of the arch part and the map's description).
 */
#include <errno.h>
#include <string.h>

#include "x86_int.h"

#define GIB		(1ull << 30)
#define MIB2		(2ull << 20)
#define PT_MIN_GIB	4		/* always map the low 4 GiB */
#define PT_MAX_GIB	512		/* one PDPT */

/* Page-table entry bits. */
#define PTE_P		(1ull << 0)
#define PTE_RW		(1ull << 1)
#define PTE_PWT		(1ull << 3)
#define PTE_PCD		(1ull << 4)
#define PTE_PS		(1ull << 7)

/* The local APIC's page (KVM emulates it there); its 2 MiB page is UC. */
#define LAPIC_BASE		0xfee00000ull

/* GiB the identity map covers: every slot, the console, the tables. */
static unsigned int map_gib(struct cell_vm *vm, unsigned int nr_pt_pages)
{
	uint64_t end = vm->console_gpa + 1;
	unsigned int i;

	for (i = 0; i < vm->nr_slots; i++) {
		const struct cell_slot *s = &vm->slots[i];
		uint64_t e = s->gpa + s->size;

		if (i == vm->nr_slots - 1)	/* comm page and the tables */
			e = s->gpa + (1 + nr_pt_pages) * PAGE;
		if (e > end)
			end = e;
	}
	if (end > (uint64_t)PT_MAX_GIB * GIB)
		return PT_MAX_GIB + 1;
	end = (end + GIB - 1) / GIB;
	return end < PT_MIN_GIB ? PT_MIN_GIB : end;
}

unsigned int cell_arch_extra_pages(struct cell_vm *vm)
{
	unsigned int gib = PT_MIN_GIB, n;

	/* The tables' own pages can move the end into the next GiB. */
	for (;;) {
		n = PT_PD + (gib > PT_MAX_GIB ? PT_MAX_GIB : gib);
		if (map_gib(vm, n) <= gib || gib > PT_MAX_GIB)
			return n;
		gib = map_gib(vm, n);
	}
}

static int check_kvm_pages(struct cell_vm *vm, char *why, size_t len)
{
	unsigned int i;

	for (i = 0; i < vm->nr_slots; i++) {
		const struct cell_slot *s = &vm->slots[i];

		if (s->gpa >= KVM_TSS_END || s->gpa + s->size <= KVM_TSS_START)
			continue;
		cell_why(why, len, "guest memory 0x%llx +0x%llx overlaps KVM's TSS and identity-map pages 0x%llx-0x%llx",
			 (unsigned long long)s->gpa,
			 (unsigned long long)s->size, KVM_TSS_START,
			 KVM_TSS_END - 1);
		return -EINVAL;
	}
	if (vm->console_gpa >= KVM_TSS_START && vm->console_gpa < KVM_TSS_END) {
		cell_why(why, len, "console 0x%llx lies in KVM's TSS and identity-map pages 0x%llx-0x%llx",
			 (unsigned long long)vm->console_gpa, KVM_TSS_START,
			 KVM_TSS_END - 1);
		return -EINVAL;
	}
	return 0;
}

/*
 * The local APIC's page is KVM's: no RAM in its 2 MiB page (mapped
 * uncached), no console register in the page itself.
 */
static int check_lapic(struct cell_vm *vm, char *why, size_t len)
{
	unsigned int i;

	for (i = 0; i < vm->nr_slots; i++) {
		const struct cell_slot *s = &vm->slots[i];

		if (LAPIC_BASE / MIB2 < s->gpa / MIB2 ||
		    LAPIC_BASE / MIB2 > (s->gpa + s->size - 1) / MIB2)
			continue;
		cell_why(why, len, "guest memory 0x%llx +0x%llx shares a 2 MiB page with the local APIC at 0x%llx",
			 (unsigned long long)s->gpa,
			 (unsigned long long)s->size, LAPIC_BASE);
		return -EINVAL;
	}
	if (vm->console_gpa < LAPIC_BASE + PAGE &&
	    vm->console_gpa + CELL_DEVICE_REGS_SIZE > LAPIC_BASE) {
		cell_why(why, len, "console 0x%llx (or a register after it) lies in the local APIC's page 0x%llx",
			 (unsigned long long)vm->console_gpa, LAPIC_BASE);
		return -EINVAL;
	}
	return 0;
}

int cell_arch_check_layout(struct cell_vm *vm, char *why, size_t len)
{
	const struct cell_slot *c = &vm->slots[vm->nr_slots - 1];
	unsigned int i;
	int ret;

	if (map_gib(vm, c->size / PAGE - 1) > PT_MAX_GIB) {
		cell_why(why, len, "guest addresses beyond 512 GiB: the runner's identity map for x86 long mode covers 0-512 GiB");
		return -EINVAL;
	}
	for (i = 0; i < vm->nr_slots; i++) {
		const struct cell_slot *s = &vm->slots[i];

		if (vm->console_gpa / MIB2 < s->gpa / MIB2 ||
		    vm->console_gpa / MIB2 > (s->gpa + s->size - 1) / MIB2)
			continue;
		cell_why(why, len, "console 0x%llx shares a 2 MiB page with guest memory 0x%llx +0x%llx (the runner maps that page uncached)",
			 (unsigned long long)vm->console_gpa,
			 (unsigned long long)s->gpa,
			 (unsigned long long)s->size);
		return -EINVAL;
	}
	ret = check_lapic(vm, why, len);
	return ret ? ret : check_kvm_pages(vm, why, len);
}

/*
 * Write the GDT and the identity map into the pages after the comm page,
 * again at every start: the inmate may have changed them.
 */
void x86_write_tables(struct cell_vm *vm)
{
	const struct cell_slot *c = &vm->slots[vm->nr_slots - 1];
	uint64_t *base = (uint64_t *)((char *)c->host + PAGE);
	uint64_t tables = c->gpa + PAGE;
	unsigned int nr_pd = c->size / PAGE - 1 - PT_PD, g, e;
	uint64_t *gdt = base + PT_GDT * 512;
	uint64_t *pml4 = base + PT_PML4 * 512;
	uint64_t *pdpt = base + PT_PDPT * 512;

	memset(base, 0, c->size - PAGE);
	gdt[1] = 0x00af9b000000ffffull;	/* 0x08: code, 64-bit (L), DPL 0 */
	gdt[2] = 0x00cf93000000ffffull;	/* 0x10: data, flat */
	/* 0x18: 64-bit TSS (16 bytes), base 0, limit 0x67, busy: for VMX */
	gdt[3] = 0x00008b0000000067ull;
	pml4[0] = (tables + PT_PDPT * PAGE) | PTE_P | PTE_RW;
	for (g = 0; g < nr_pd; g++) {
		uint64_t *pd = base + (PT_PD + g) * 512;

		pdpt[g] = (tables + (PT_PD + g) * PAGE) | PTE_P | PTE_RW;
		for (e = 0; e < 512; e++) {
			uint64_t a = (uint64_t)g * GIB + (uint64_t)e * MIB2;

			pd[e] = a | PTE_P | PTE_RW | PTE_PS;
			if (a / MIB2 == vm->console_gpa / MIB2 ||
			    a / MIB2 == LAPIC_BASE / MIB2)
				pd[e] |= PTE_PCD | PTE_PWT;	/* PAT 3: UC */
		}
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
