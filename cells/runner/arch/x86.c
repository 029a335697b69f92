// SPDX-License-Identifier: GPL-2.0
/*
 * x86 part of the cell runner (x86_layout.c: the guest's address space and
 * the tables in it): vCPUs start in 64-bit long mode. The runner
 * writes an identity map and a GDT into the cell's own colored RAM, in the
 * pages right after the comm page (CELL_COMM_DEFAULT_ADDR + 0x1000 by
 * default): the GDT (0x08 64-bit code, 0x10 data, 0x18 TSS), the PML4, one
 * PDPT and one page directory per GiB, 2 MiB pages, write-back (PAT entry
 * 0, MTRR default type WB) but the 2 MiB pages of the console and of the
 * local APIC, which are uncached. The map covers at least 4 GiB and at
 * most 512 GiB (one PDPT): every guest address of the cell (RAM, comm
 * page, console) must lie below that limit. Entry: CR0.PE|PG, CR4.PAE,
 * EFER.LME|LMA, rsi = comm page, rdi = vCPU index.
 *
 * Interrupts: each vCPU has KVM's in-kernel local APIC (a split irqchip:
 * the LAPIC alone, no PIC or I/O APIC, so every port and every other MMIO
 * address still exits to the runner), its timer included, x2APIC and
 * TSC-deadline mode offered in CPUID when KVM offers them. A hlt then
 * halts the vCPU in the kernel until an interrupt, without an exit: the
 * inmate stops through the stop register instead (cell_comm.h), and the
 * runner's kick (immediate_exit and a signal) ends a halted vCPU's
 * KVM_RUN as any other. With an in-kernel LAPIC KVM starts vCPUs other
 * than 0 waiting for INIT/SIPI: the runner makes every vCPU runnable at
 * the entry, and the inmate library holds the secondaries until
 * smp_start_cpu(). CPUID is the host's, with vCPU i's APIC ID set to i,
 * which is also the ID of its local APIC. Every start gives each vCPU
 * back the local APIC KVM created (state, base, no TSC deadline, no
 * pending event).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "../vm_int.h"
#include "x86_int.h"

#define CR0_PE		(1ull << 0)
#define CR0_MP		(1ull << 1)
#define CR0_ET		(1ull << 4)
#define CR0_NE		(1ull << 5)
#define CR0_WP		(1ull << 16)
#define CR0_PG		(1ull << 31)
#define CR4_PAE		(1ull << 5)
#define CR4_OSFXSR	(1ull << 9)
#define CR4_OSXMMEXCPT	(1ull << 10)
#define EFER_LME	(1ull << 8)
#define EFER_LMA	(1ull << 10)

#define MSR_TSC_DEADLINE	0x6e0
#define MSR_MTRR_DEF_TYPE	0x2ff
#define MTRR_DEF_E_WB		((1ull << 11) | 6)	/* enabled, write-back */

#define CPUID_MAX_ENTRIES	4096
#define CPUID_1_ECX_TSC_DEADLINE	(1u << 24)

const char *const cell_arch_name = "x86";

const struct cell_kvm_cap cell_arch_caps[] = {
	{ KVM_CAP_EXT_CPUID, "KVM_CAP_EXT_CPUID" },
	{ KVM_CAP_SET_TSS_ADDR, "KVM_CAP_SET_TSS_ADDR" },
	{ KVM_CAP_SPLIT_IRQCHIP, "KVM_CAP_SPLIT_IRQCHIP" },
	{ KVM_CAP_GET_TSC_KHZ, "KVM_CAP_GET_TSC_KHZ" },
	{ 0, NULL }
};

uint64_t cell_arch_console_default(void)
{
	return CELL_CONSOLE_DEFAULT_X86;
}

int cell_arch_vm_init(struct cell_vm *vm, char *why, size_t len)
{
	/* No I/O APIC pins: the cell's only interrupts are its LAPICs'. */
	struct kvm_enable_cap split = { .cap = KVM_CAP_SPLIT_IRQCHIP };

	/* VMX needs it; the layout check keeps every slot out of it. */
	if (ioctl(vm->vm_fd, KVM_SET_TSS_ADDR, (unsigned long)KVM_TSS_ADDR)) {
		cell_why(why, len, "KVM_SET_TSS_ADDR: %s", strerror(errno));
		return -errno;
	}
	/* Before the vCPUs: each is then made with its local APIC. */
	if (ioctl(vm->vm_fd, KVM_ENABLE_CAP, &split)) {
		cell_why(why, len, "KVM_CAP_SPLIT_IRQCHIP (in-kernel local APIC): %s",
			 strerror(errno));
		return -errno;
	}
	return 0;
}

/*
 * Vector 33 + k, after the timer's: the inmate library handles vectors
 * 32-63. An MSI to APIC ID 0 (vCPU 0), fixed delivery, edge.
 */
#define DOORBELL_VECTOR_FIRST	33
#define MSI_ADDR_BASE		0xfee00000u

uint32_t cell_arch_doorbell_irq(unsigned int k)
{
	return DOORBELL_VECTOR_FIRST + k;
}

int cell_arch_doorbell_routes(struct cell_vm *vm, uint32_t mask, char *why,
			      size_t len)
{
	struct kvm_irq_routing *r;
	unsigned int k, n = 0;
	int ret = 0;

	r = calloc(1, sizeof(*r) + 32 * sizeof(r->entries[0]));
	if (!r) {
		cell_why(why, len, "out of memory");
		return -ENOMEM;
	}
	for (k = 0; k < 32; k++) {
		if (!(mask & (1u << k)))
			continue;
		r->entries[n].gsi = k;
		r->entries[n].type = KVM_IRQ_ROUTING_MSI;
		r->entries[n].u.msi.address_lo = MSI_ADDR_BASE;
		r->entries[n].u.msi.data = cell_arch_doorbell_irq(k);
		n++;
	}
	r->nr = n;
	if (ioctl(vm->vm_fd, KVM_SET_GSI_ROUTING, r)) {
		ret = -errno;
		cell_why(why, len, "KVM_SET_GSI_ROUTING for the doorbells: %s",
			 strerror(-ret));
	}
	free(r);
	return ret;
}

/* The host's supported CPUID, as many entries as it has. */
static struct kvm_cpuid2 *supported_cpuid(struct cell_vm *vm)
{
	unsigned int n;

	for (n = 64; n <= CPUID_MAX_ENTRIES; n *= 2) {
		struct kvm_cpuid2 *c;

		c = calloc(1, sizeof(*c) + n * sizeof(c->entries[0]));
		if (!c)
			return NULL;
		c->nent = n;
		if (!ioctl(vm->kvm_fd, KVM_GET_SUPPORTED_CPUID, c))
			return c;
		free(c);
		if (errno != E2BIG)
			return NULL;
	}
	errno = E2BIG;
	return NULL;
}

/*
 * Each vCPU its own APIC ID: the initial, x2APIC and AMD extended ones.
 * KVM emulates the TSC-deadline timer but leaves its CPUID bit to the
 * VMM: set where KVM_CAP_TSC_DEADLINE_TIMER says so.
 */
static void set_apic_id(struct kvm_cpuid2 *c, unsigned int id, bool deadline)
{
	unsigned int i;

	for (i = 0; i < c->nent; i++) {
		struct kvm_cpuid_entry2 *e = &c->entries[i];

		if (e->function == 1 && deadline)
			e->ecx |= CPUID_1_ECX_TSC_DEADLINE;
		if (e->function == 1)
			e->ebx = (e->ebx & 0x00ffffff) | (id << 24);
		else if (e->function == 0xb || e->function == 0x1f)
			e->edx = id;
		else if (e->function == 0x8000001e)
			e->eax = id;
	}
}

/* The local APIC as created, for every start; vCPU 0's TSC frequency. */
static int lapic_save(struct cell_vm *vm, struct cell_vcpu *v, char *why,
		      size_t len)
{
	struct kvm_sregs sr;
	int khz;

	_Static_assert(sizeof(struct kvm_lapic_state) <= sizeof(v->lapic0),
		       "lapic0");
	if (ioctl(v->fd, KVM_GET_LAPIC, v->lapic0) ||
	    ioctl(v->fd, KVM_GET_SREGS, &sr)) {
		cell_why(why, len, "local APIC of vCPU %u: %s", v->idx,
			 strerror(errno));
		return -errno;
	}
	v->apic_base0 = sr.apic_base;
	if (v->idx == 0) {
		khz = ioctl(v->fd, KVM_GET_TSC_KHZ, 0);
		vm->tsc_khz = khz > 0 ? khz : 0;
	}
	return 0;
}

int cell_arch_vcpu_init(struct cell_vm *vm, struct cell_vcpu *v, char *why,
			size_t len)
{
	struct kvm_cpuid2 *cpuid;
	int ret = 0;

	/* The host's supported CPUID, so that the inmate sees a real CPU. */
	cpuid = supported_cpuid(vm);
	if (!cpuid) {
		ret = -errno;
		cell_why(why, len, "KVM_GET_SUPPORTED_CPUID: %s", strerror(-ret));
		return ret;
	}
	set_apic_id(cpuid, v->idx,
		    ioctl(vm->kvm_fd, KVM_CHECK_EXTENSION,
			  KVM_CAP_TSC_DEADLINE_TIMER) > 0);
	if (ioctl(v->fd, KVM_SET_CPUID2, cpuid)) {
		ret = -errno;
		cell_why(why, len, "CPUID of vCPU %u: %s", v->idx, strerror(-ret));
	}
	free(cpuid);
	if (ret)
		return ret;
	return lapic_save(vm, v, why, len);
}

int cell_arch_vcpus_created(struct cell_vm *vm, char *why, size_t len)
{
	(void)vm;
	(void)why;
	(void)len;
	return 0;	/* each local APIC came with its vCPU */
}

static void seg(struct kvm_segment *s, unsigned int sel, unsigned int type,
		int code)
{
	memset(s, 0, sizeof(*s));
	s->base = 0;
	s->limit = 0xffffffff;
	s->selector = sel;
	s->type = type;
	s->present = 1;
	s->dpl = 0;
	s->db = !code;		/* a 64-bit code segment has D = 0, L = 1 */
	s->l = code;
	s->s = 1;
	s->g = 1;
}

/*
 * The local APIC as created (after the APIC base, which sets its mode),
 * no exception, interrupt or NMI pending from an earlier run, and the
 * vCPU runnable: with an in-kernel LAPIC KVM would hold vCPUs other than
 * 0 for INIT/SIPI, and a vCPU kicked while halted stays halted.
 */
static int lapic_reset(struct cell_vcpu *v, char *why, size_t len)
{
	struct kvm_mp_state mp = { .mp_state = KVM_MP_STATE_RUNNABLE };
	struct kvm_vcpu_events ev;

	if (ioctl(v->fd, KVM_SET_LAPIC, v->lapic0)) {
		cell_why(why, len, "KVM_SET_LAPIC of vCPU %u: %s", v->idx,
			 strerror(errno));
		return -errno;
	}
	if (ioctl(v->fd, KVM_GET_VCPU_EVENTS, &ev)) {
		cell_why(why, len, "KVM_GET_VCPU_EVENTS of vCPU %u: %s", v->idx,
			 strerror(errno));
		return -errno;
	}
	ev.exception.injected = 0;
	ev.exception.pending = 0;
	ev.interrupt.injected = 0;
	ev.nmi.injected = 0;
	ev.nmi.pending = 0;
	ev.nmi.masked = 0;
	ev.flags = 0;		/* leave the SIPI vector, shadow, SMM alone */
	if (ioctl(v->fd, KVM_SET_VCPU_EVENTS, &ev) ||
	    ioctl(v->fd, KVM_SET_MP_STATE, &mp)) {
		cell_why(why, len, "events and MP state of vCPU %u: %s", v->idx,
			 strerror(errno));
		return -errno;
	}
	return 0;
}

int cell_arch_vcpu_reset(struct cell_vm *vm, struct cell_vcpu *v, char *why,
			 size_t len)
{
	const struct cell_slot *c = &vm->slots[vm->nr_slots - 1];
	struct {
		struct kvm_msrs hdr;
		struct kvm_msr_entry e[2];
	} msrs;
	struct kvm_sregs sr;
	struct kvm_regs r;
	int ret;

	if (v->idx == 0)
		x86_write_tables(vm);
	if (ioctl(v->fd, KVM_GET_SREGS, &sr)) {
		cell_why(why, len, "KVM_GET_SREGS: %s", strerror(errno));
		return -errno;
	}
	seg(&sr.cs, 0x08, 0x0b, 1);	/* code, execute/read, accessed */
	seg(&sr.ds, 0x10, 0x03, 0);	/* data, read/write, accessed */
	sr.es = sr.ds;
	sr.fs = sr.ds;
	sr.gs = sr.ds;
	sr.ss = sr.ds;
	memset(&sr.tr, 0, sizeof(sr.tr));
	sr.tr.selector = 0x18;
	sr.tr.limit = 0x67;
	sr.tr.type = 0x0b;		/* 64-bit TSS, busy */
	sr.tr.present = 1;
	sr.gdt.base = c->gpa + PAGE + PT_GDT * PAGE;
	sr.gdt.limit = 5 * 8 - 1;
	sr.idt.base = 0;
	sr.idt.limit = 0;		/* the inmate loads its own */
	sr.cr0 = CR0_PE | CR0_MP | CR0_ET | CR0_NE | CR0_WP | CR0_PG;
	sr.cr3 = c->gpa + PAGE + PT_PML4 * PAGE;
	sr.cr4 = CR4_PAE | CR4_OSFXSR | CR4_OSXMMEXCPT;
	sr.efer = EFER_LME | EFER_LMA;
	/* The APIC base and TPR as created, no interrupt being injected. */
	sr.apic_base = v->apic_base0;
	sr.cr8 = 0;
	memset(sr.interrupt_bitmap, 0, sizeof(sr.interrupt_bitmap));
	if (ioctl(v->fd, KVM_SET_SREGS, &sr)) {
		cell_why(why, len, "KVM_SET_SREGS (long mode) of vCPU %u: %s",
			 v->idx, strerror(errno));
		return -errno;
	}
	ret = lapic_reset(v, why, len);
	if (ret)
		return ret;
	memset(&msrs, 0, sizeof(msrs));
	msrs.hdr.nmsrs = 2;
	msrs.e[0].index = MSR_MTRR_DEF_TYPE;
	msrs.e[0].data = MTRR_DEF_E_WB;
	msrs.e[1].index = MSR_TSC_DEADLINE;
	msrs.e[1].data = 0;		/* no deadline of an earlier run */
	if (ioctl(v->fd, KVM_SET_MSRS, &msrs) != 2) {
		cell_why(why, len, "KVM_SET_MSRS (MTRR default type WB, TSC deadline) of vCPU %u failed",
			 v->idx);
		return -EIO;
	}
	memset(&r, 0, sizeof(r));
	r.rip = vm->entry;
	r.rflags = 2;
	r.rsi = vm->comm_gpa;
	r.rdi = v->idx;
	if (ioctl(v->fd, KVM_SET_REGS, &r)) {
		cell_why(why, len, "KVM_SET_REGS: %s", strerror(errno));
		return -errno;
	}
	return 0;
}
