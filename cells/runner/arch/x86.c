// SPDX-License-Identifier: GPL-2.0
/*
 * x86 part of the cell runner: vCPUs start in 32-bit protected mode, flat
 * 4 GiB segments, paging off (KVM_SET_SREGS), esi = comm page, edi =
 * vCPU index. Without paging the cell's RAM, comm page and console must
 * lie below 4 GiB. Long mode (runner-supplied page tables) is not done.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "../vm_int.h"

const char *const cell_arch_name = "x86";

uint64_t cell_arch_console_default(void)
{
	return CELL_CONSOLE_DEFAULT_X86;
}

int cell_arch_check_layout(struct cell_vm *vm, char *why, size_t len)
{
	unsigned int i;

	for (i = 0; i < vm->nr_slots; i++) {
		if (vm->slots[i].gpa + vm->slots[i].size <= (1ull << 32))
			continue;
		cell_why(why, len, "guest memory 0x%llx +0x%llx: x86 cells run in 32-bit protected mode, below 4 GiB",
			 (unsigned long long)vm->slots[i].gpa,
			 (unsigned long long)vm->slots[i].size);
		return -EINVAL;
	}
	if (vm->console_gpa >= (1ull << 32)) {
		cell_why(why, len, "console 0x%llx: must be below 4 GiB on x86",
			 (unsigned long long)vm->console_gpa);
		return -EINVAL;
	}
	return 0;
}

int cell_arch_vm_init(struct cell_vm *vm, char *why, size_t len)
{
	(void)why;
	(void)len;
	/* Needed by VMX only; an address no slot uses. */
	ioctl(vm->vm_fd, KVM_SET_TSS_ADDR, 0xfffbd000ul);
	return 0;
}

int cell_arch_vcpu_init(struct cell_vm *vm, struct cell_vcpu *v, char *why,
			size_t len)
{
	const unsigned int max = 128;
	struct kvm_cpuid2 *cpuid;
	int ret = 0;

	cpuid = calloc(1, sizeof(*cpuid) + max * sizeof(cpuid->entries[0]));
	if (!cpuid) {
		cell_why(why, len, "out of memory");
		return -ENOMEM;
	}
	cpuid->nent = max;
	/* The host's supported CPUID, so that the inmate sees a real CPU. */
	if (ioctl(vm->kvm_fd, KVM_GET_SUPPORTED_CPUID, cpuid) ||
	    ioctl(v->fd, KVM_SET_CPUID2, cpuid)) {
		ret = -errno;
		cell_why(why, len, "CPUID of vCPU %u: %s", v->idx, strerror(-ret));
	}
	free(cpuid);
	return ret;
}

static void flat(struct kvm_segment *s, unsigned int sel, unsigned int type)
{
	memset(s, 0, sizeof(*s));
	s->base = 0;
	s->limit = 0xffffffff;
	s->selector = sel;
	s->type = type;
	s->present = 1;
	s->dpl = 0;
	s->db = 1;
	s->s = 1;
	s->g = 1;
}

int cell_arch_vcpu_reset(struct cell_vm *vm, struct cell_vcpu *v, char *why,
			 size_t len)
{
	struct kvm_sregs sr;
	struct kvm_regs r;

	if (ioctl(v->fd, KVM_GET_SREGS, &sr)) {
		cell_why(why, len, "KVM_GET_SREGS: %s", strerror(errno));
		return -errno;
	}
	flat(&sr.cs, 0x08, 0x0b);	/* code, execute/read, accessed */
	flat(&sr.ds, 0x10, 0x03);	/* data, read/write, accessed */
	sr.es = sr.fs = sr.gs = sr.ss = sr.ds;
	sr.cr0 = 0x11 | (1u << 5);	/* PE, ET, NE; caches on, paging off */
	sr.cr4 = 0;
	sr.efer = 0;
	if (ioctl(v->fd, KVM_SET_SREGS, &sr)) {
		cell_why(why, len, "KVM_SET_SREGS: %s", strerror(errno));
		return -errno;
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
