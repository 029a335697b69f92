// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 part of the cell runner: vCPUs with PSCI 0.2 (the inmate stops
 * with SYSTEM_OFF) and, where KVM offers it, the PMUv3 (PMCCNTR for the
 * inmates' cycle counts; no vGIC: it takes no interrupt), started at EL1h
 * with the MMU off, x0 = comm page, x1 = vCPU index; vCPUs 1.. start
 * powered off, for the inmate's PSCI CPU_ON. The inmate library
 * maps the 1 GiB block of the console as device memory and the rest as
 * cacheable memory, so the console must not share a block with RAM.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>

#include "../vm_int.h"

#define GIB_BLOCK(a)	((a) >> 30)
#define INMATE_VA_LIMIT	(1ull << 39)	/* the inmate's identity map */

const char *const cell_arch_name = "arm64";

const struct cell_kvm_cap cell_arch_caps[] = {
	{ KVM_CAP_ONE_REG, "KVM_CAP_ONE_REG" },
	{ KVM_CAP_ARM_PSCI_0_2, "KVM_CAP_ARM_PSCI_0_2" },
	{ 0, NULL }
};

uint64_t cell_arch_console_default(void)
{
	return CELL_CONSOLE_DEFAULT_ARM64;
}

unsigned int cell_arch_extra_pages(struct cell_vm *vm)
{
	(void)vm;
	return 0;	/* the inmate builds its own translation table */
}

int cell_arch_check_layout(struct cell_vm *vm, char *why, size_t len)
{
	unsigned int i;

	for (i = 0; i < vm->nr_slots; i++) {
		const struct cell_slot *s = &vm->slots[i];

		if (s->gpa + s->size > INMATE_VA_LIMIT) {
			cell_why(why, len, "guest memory 0x%llx +0x%llx: beyond the inmates' 512 GiB identity map",
				 (unsigned long long)s->gpa,
				 (unsigned long long)s->size);
			return -EINVAL;
		}
		if (GIB_BLOCK(vm->console_gpa) >= GIB_BLOCK(s->gpa) &&
		    GIB_BLOCK(vm->console_gpa) <= GIB_BLOCK(s->gpa + s->size - 1)) {
			cell_why(why, len, "console 0x%llx shares a 1 GiB block with guest memory 0x%llx +0x%llx (the inmate maps that block as device memory)",
				 (unsigned long long)vm->console_gpa,
				 (unsigned long long)s->gpa,
				 (unsigned long long)s->size);
			return -EINVAL;
		}
	}
	if (vm->console_gpa >= INMATE_VA_LIMIT) {
		cell_why(why, len, "console 0x%llx: beyond the inmates' 512 GiB identity map",
			 (unsigned long long)vm->console_gpa);
		return -EINVAL;
	}
	return 0;
}

int cell_arch_vm_init(struct cell_vm *vm, char *why, size_t len)
{
	(void)why;
	(void)len;
	vm->has_pmu = ioctl(vm->kvm_fd, KVM_CHECK_EXTENSION,
			    KVM_CAP_ARM_PMU_V3) > 0;
	return 0;
}

static int vcpu_init(struct cell_vm *vm, struct cell_vcpu *v, char *why,
		     size_t len)
{
	struct kvm_vcpu_init init;
	struct kvm_device_attr attr = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = KVM_ARM_VCPU_PMU_V3_INIT,
	};

	memset(&init, 0, sizeof(init));
	if (ioctl(vm->vm_fd, KVM_ARM_PREFERRED_TARGET, &init)) {
		cell_why(why, len, "KVM_ARM_PREFERRED_TARGET: %s",
			 strerror(errno));
		return -errno;
	}
	init.features[0] = 1u << KVM_ARM_VCPU_PSCI_0_2;
	/* As on Jailhouse: vCPU 0 starts, the inmate turns the others on. */
	if (v->idx)
		init.features[0] |= 1u << KVM_ARM_VCPU_POWER_OFF;
	if (vm->has_pmu)
		init.features[0] |= 1u << KVM_ARM_VCPU_PMU_V3;
	if (ioctl(v->fd, KVM_ARM_VCPU_INIT, &init)) {
		cell_why(why, len, "KVM_ARM_VCPU_INIT of vCPU %u: %s", v->idx,
			 strerror(errno));
		return -errno;
	}
	/* Once per vCPU; a second time says EBUSY. */
	if (vm->has_pmu && ioctl(v->fd, KVM_SET_DEVICE_ATTR, &attr) &&
	    errno != EBUSY) {
		cell_why(why, len, "PMUv3 init of vCPU %u: %s", v->idx,
			 strerror(errno));
		return -errno;
	}
	return 0;
}

int cell_arch_vcpu_init(struct cell_vm *vm, struct cell_vcpu *v, char *why,
			size_t len)
{
	return vcpu_init(vm, v, why, len);
}

#define CORE_REG(x)	(KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | \
			 (offsetof(struct kvm_regs, x) / sizeof(__u32)))

static int set_reg(struct cell_vcpu *v, uint64_t id, uint64_t val)
{
	struct kvm_one_reg r = { .id = id, .addr = (uintptr_t)&val };

	return ioctl(v->fd, KVM_SET_ONE_REG, &r);
}

int cell_arch_vcpu_reset(struct cell_vm *vm, struct cell_vcpu *v, char *why,
			 size_t len)
{
	int ret = vcpu_init(vm, v, why, len);	/* resets the registers */

	if (ret)
		return ret;
	if (set_reg(v, CORE_REG(regs.pc), vm->entry) ||
	    set_reg(v, CORE_REG(regs.pstate), 0x3c5) ||	/* EL1h, DAIF masked */
	    set_reg(v, CORE_REG(regs.regs[0]), vm->comm_gpa) ||
	    set_reg(v, CORE_REG(regs.regs[1]), v->idx)) {
		cell_why(why, len, "KVM_SET_ONE_REG of vCPU %u: %s", v->idx,
			 strerror(errno));
		return -errno;
	}
	return 0;
}
