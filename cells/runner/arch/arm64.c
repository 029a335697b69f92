// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 part of the cell runner: vCPUs with PSCI 0.2 (the inmate stops
 * with SYSTEM_OFF) and, where KVM offers it, the PMUv3 (PMCCNTR for the
 * inmates' cycle counts), started at EL1h with the MMU off, x0 = comm
 * page, x1 = vCPU index; vCPUs 1.. start powered off, for the inmate's
 * PSCI CPU_ON. The inmate library maps the 1 GiB block of the console as
 * device memory and the rest as cacheable memory, so the console must
 * not share a block with RAM.
 *
 * Interrupts: KVM's in-kernel GICv3 (vGIC) with the architected virtual
 * timer on PPI 27, so a timer interrupt reaches the inmate and a WFI
 * waits in the kernel, without an exit to the runner. GICv3 because it
 * is what the arm64 boards of today have (its CPU interface is system
 * registers, which KVM runs without a trap) and what the test bed's
 * QEMU offers with gic-version=3; a host KVM without it fails the
 * cell's creation with a reason. The distributor (64 KiB) and the
 * redistributors (128 KiB a vCPU) lie in the console's 1 GiB block,
 * which the inmate maps as device memory: in its half that does not hold
 * the console, distributor first. The cell owns the vGIC's private
 * interrupts (its timers' and PMU's PPIs, SGIs between its vCPUs) and
 * nothing of root's: no SPI is wired to anything. The vGIC is
 * initialised once every vCPU exists (KVM's order), the PMU after it
 * (its overflow interrupt, PPI 23, needs an initialised vGIC). Every
 * start gives each vCPU a quiet vGIC: distributor off, no private
 * interrupt enabled, pending or active, the CPU interface masked.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>

#include "../vm_int.h"

#define GIB_BLOCK(a)	((a) >> 30)
#define INMATE_VA_LIMIT	(1ull << 39)	/* the inmate's identity map */
#define HALF_GIB	(1ull << 29)

#define GIC_NR_IRQS	64		/* KVM's least: SPIs 32-63, doorbells' */
#define GIC_DIST_SIZE	0x10000ull	/* then 128 KiB a redistributor */
#define PMU_PPI		23		/* the PMU's overflow interrupt */

/* vGIC registers the runner resets at every start (GICv3 offsets). */
#define GICD_CTLR	0x0000
#define GICD_ICENABLER1	0x0184		/* SPIs 32-63 */
#define GICD_ISPENDR1	0x0204
#define GICD_ICPENDR1	0x0284
#define GICD_ICACTIVER1	0x0384
#define GICR_SGI	0x10000		/* the SGI/PPI frame */
#define GICR_ICENABLER0	(GICR_SGI + 0x180)
#define GICR_ISPENDR0	(GICR_SGI + 0x200)
#define GICR_ICPENDR0	(GICR_SGI + 0x280)
#define GICR_ICACTIVER0	(GICR_SGI + 0x380)
/* KVM_DEV_ARM_VGIC_GRP_CPU_SYSREGS ids: op0 3, op1 0, CRn 12 */
#define SYSREG(crm, op2)	((3 << 14) | (12 << 7) | ((crm) << 3) | (op2))
#define ICC_PMR_EL1		((3 << 14) | (4 << 7) | (6 << 3) | 0)
#define ICC_IGRPEN1_EL1		SYSREG(12, 7)

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

/* SPI k: KVM's default routing takes GSI k to INTID 32 + k. */
uint32_t cell_arch_doorbell_irq(unsigned int k)
{
	return 32 + k;
}

_Static_assert(32 + CELL_CHAN_MAX <= GIC_NR_IRQS, "an SPI per channel");

int cell_arch_doorbell_routes(struct cell_vm *vm, uint32_t mask, char *why,
			      size_t len)
{
	(void)vm;
	(void)mask;
	(void)why;
	(void)len;
	return 0;
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
	/* The vGIC's half of the block (gic_place()) is free by construction. */
	if (vm->console_gpa >= INMATE_VA_LIMIT) {
		cell_why(why, len, "console 0x%llx: beyond the inmates' 512 GiB identity map",
			 (unsigned long long)vm->console_gpa);
		return -EINVAL;
	}
	return 0;
}

/*
 * The half of the console's 1 GiB block without the console: device
 * memory for the inmate, no RAM (cell_arch_check_layout()), room for the
 * distributor and 64 redistributors (8.1 MiB).
 */
static void gic_place(struct cell_vm *vm)
{
	uint64_t block = vm->console_gpa & ~((1ull << 30) - 1);

	vm->gic_dist = block + ((vm->console_gpa - block) < HALF_GIB ?
				HALF_GIB : 0);
	vm->gic_redist = vm->gic_dist + GIC_DIST_SIZE;
}

int cell_arch_vm_init(struct cell_vm *vm, char *why, size_t len)
{
	struct kvm_create_device test = {
		.type = KVM_DEV_TYPE_ARM_VGIC_V3,
		.flags = KVM_CREATE_DEVICE_TEST,
	};

	vm->has_pmu = ioctl(vm->kvm_fd, KVM_CHECK_EXTENSION,
			    KVM_CAP_ARM_PMU_V3) > 0;
	/* Before any vCPU, so that a host without it fails early. */
	if (ioctl(vm->vm_fd, KVM_CREATE_DEVICE, &test)) {
		cell_why(why, len, "the host's KVM has no GICv3 vGIC (KVM_CREATE_DEVICE ARM_VGIC_V3: %s): cells need it for their interrupts and timer",
			 strerror(errno));
		return -EOPNOTSUPP;
	}
	gic_place(vm);
	return 0;
}

static int gic_attr(struct cell_vm *vm, uint32_t group, uint64_t attr,
		    void *val, const char *what, char *why, size_t len)
{
	struct kvm_device_attr a = {
		.group = group,
		.attr = attr,
		.addr = (uintptr_t)val,
	};

	if (!ioctl(vm->irqchip_fd, KVM_SET_DEVICE_ATTR, &a))
		return 0;
	cell_why(why, len, "vGIC %s: %s", what, strerror(errno));
	return -errno;
}

/* The PMU's interrupt and its init: only once the vGIC is initialised. */
static int pmu_init(struct cell_vcpu *v, char *why, size_t len)
{
	int irq = PMU_PPI;
	struct kvm_device_attr a = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = KVM_ARM_VCPU_PMU_V3_IRQ,
		.addr = (uintptr_t)&irq,
	};

	if (ioctl(v->fd, KVM_SET_DEVICE_ATTR, &a)) {
		cell_why(why, len, "PMUv3 interrupt of vCPU %u: %s", v->idx,
			 strerror(errno));
		return -errno;
	}
	a.attr = KVM_ARM_VCPU_PMU_V3_INIT;
	a.addr = 0;
	if (ioctl(v->fd, KVM_SET_DEVICE_ATTR, &a)) {
		cell_why(why, len, "PMUv3 init of vCPU %u: %s", v->idx,
			 strerror(errno));
		return -errno;
	}
	return 0;
}

/* The virtual timer's PPI as KVM set it up (vCPU 0's: they share it). */
static int timer_irq(struct cell_vm *vm, char *why, size_t len)
{
	int irq = 0;
	struct kvm_device_attr a = {
		.group = KVM_ARM_VCPU_TIMER_CTRL,
		.attr = KVM_ARM_VCPU_TIMER_IRQ_VTIMER,
		.addr = (uintptr_t)&irq,
	};

	if (ioctl(vm->vcpus[0].fd, KVM_GET_DEVICE_ATTR, &a)) {
		cell_why(why, len, "the virtual timer's interrupt: %s",
			 strerror(errno));
		return -errno;
	}
	vm->timer_irq = irq;
	return 0;
}

int cell_arch_vcpus_created(struct cell_vm *vm, char *why, size_t len)
{
	struct kvm_create_device dev = { .type = KVM_DEV_TYPE_ARM_VGIC_V3 };
	uint32_t nr_irqs = GIC_NR_IRQS;
	unsigned int i;
	int ret;

	if (ioctl(vm->vm_fd, KVM_CREATE_DEVICE, &dev)) {
		cell_why(why, len, "KVM_CREATE_DEVICE ARM_VGIC_V3: %s",
			 strerror(errno));
		return -errno;
	}
	vm->irqchip_fd = dev.fd;
	ret = gic_attr(vm, KVM_DEV_ARM_VGIC_GRP_ADDR,
		       KVM_VGIC_V3_ADDR_TYPE_DIST, &vm->gic_dist,
		       "distributor address", why, len);
	if (!ret)
		ret = gic_attr(vm, KVM_DEV_ARM_VGIC_GRP_ADDR,
			       KVM_VGIC_V3_ADDR_TYPE_REDIST, &vm->gic_redist,
			       "redistributor address", why, len);
	if (!ret)
		ret = gic_attr(vm, KVM_DEV_ARM_VGIC_GRP_NR_IRQS, 0, &nr_irqs,
			       "number of interrupts", why, len);
	if (!ret)
		ret = gic_attr(vm, KVM_DEV_ARM_VGIC_GRP_CTRL,
			       KVM_DEV_ARM_VGIC_CTRL_INIT, NULL, "init", why,
			       len);
	for (i = 0; !ret && vm->has_pmu && i < vm->nr_vcpus; i++)
		ret = pmu_init(&vm->vcpus[i], why, len);
	if (!ret)
		ret = timer_irq(vm, why, len);
	if (!ret)
		vm->gic_version = 3;
	return ret;
}

static int vcpu_init(struct cell_vm *vm, struct cell_vcpu *v, char *why,
		     size_t len)
{
	struct kvm_vcpu_init init;

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

/*
 * A quiet vGIC: an earlier run may have left private interrupts enabled,
 * pending or active (stopped in a handler), which the next inmate would
 * see; KVM_ARM_VCPU_INIT resets the timer, not the vGIC. Done for every
 * vCPU at vCPU 0's reset, before any vCPU runs: KVM refuses these
 * accesses (EBUSY) while one is in KVM_RUN.
 */
static const struct gic_quiet {
	uint32_t group;
	uint64_t reg;
	uint32_t val;
	const char *name;
} gic_quiet[] = {
	{ KVM_DEV_ARM_VGIC_GRP_REDIST_REGS, GICR_ICENABLER0, ~0u,
	  "GICR_ICENABLER0" },
	/*
	 * From userspace KVM ignores ICPENDR and takes ISPENDR as the
	 * whole pending state: write both, for either reading.
	 */
	{ KVM_DEV_ARM_VGIC_GRP_REDIST_REGS, GICR_ICPENDR0, ~0u,
	  "GICR_ICPENDR0" },
	{ KVM_DEV_ARM_VGIC_GRP_REDIST_REGS, GICR_ISPENDR0, 0,
	  "GICR_ISPENDR0" },
	{ KVM_DEV_ARM_VGIC_GRP_REDIST_REGS, GICR_ICACTIVER0, ~0u,
	  "GICR_ICACTIVER0" },
	{ KVM_DEV_ARM_VGIC_GRP_CPU_SYSREGS, ICC_IGRPEN1_EL1, 0,
	  "ICC_IGRPEN1_EL1" },
	{ KVM_DEV_ARM_VGIC_GRP_CPU_SYSREGS, ICC_PMR_EL1, 0, "ICC_PMR_EL1" },
};

/* The shared interrupts (the doorbells') as quiet, in the distributor. */
static const struct gic_quiet gic_quiet_spis[] = {
	{ KVM_DEV_ARM_VGIC_GRP_DIST_REGS, GICD_ICENABLER1, ~0u, "GICD_ICENABLER1" },
	{ KVM_DEV_ARM_VGIC_GRP_DIST_REGS, GICD_ICPENDR1, ~0u, "GICD_ICPENDR1" },
	{ KVM_DEV_ARM_VGIC_GRP_DIST_REGS, GICD_ISPENDR1, 0, "GICD_ISPENDR1" },
	{ KVM_DEV_ARM_VGIC_GRP_DIST_REGS, GICD_ICACTIVER1, ~0u, "GICD_ICACTIVER1" },
};

static int gic_reset(struct cell_vm *vm, char *why, size_t len)
{
	uint32_t off = 0, v;
	unsigned int i, r;
	int ret;

	ret = gic_attr(vm, KVM_DEV_ARM_VGIC_GRP_DIST_REGS, GICD_CTLR, &off,
		       "GICD_CTLR", why, len);
	for (r = 0; !ret && r < ARRAY_SIZE(gic_quiet_spis); r++) {
		v = gic_quiet_spis[r].val;
		ret = gic_attr(vm, gic_quiet_spis[r].group, gic_quiet_spis[r].reg, &v,
			       gic_quiet_spis[r].name, why, len);
	}
	for (i = 0; !ret && i < vm->nr_vcpus; i++) {
		/* KVM's MPIDR of vCPU n: Aff0 = n % 16, Aff1 = n / 16 */
		uint64_t mpidr = ((uint64_t)(i & 15) << 32) |
				 ((uint64_t)((i >> 4) & 0xff) << 40);

		for (r = 0; !ret && r < ARRAY_SIZE(gic_quiet); r++) {
			const struct gic_quiet *q = &gic_quiet[r];
			/* Registers are 32 bits, system registers 64. */
			uint64_t v64 = q->val;
			uint32_t v32 = q->val;

			ret = gic_attr(vm, q->group, mpidr | q->reg,
				       q->group == KVM_DEV_ARM_VGIC_GRP_CPU_SYSREGS ?
				       (void *)&v64 : (void *)&v32,
				       q->name, why, len);
		}
	}
	return ret;
}

/*
 * The PMU's overflow status and its interrupt and counter enables, which
 * KVM_ARM_VCPU_INIT leaves UNKNOWN: cleared, so that the PMU's overflow
 * interrupt (PMU_PPI) is not pending when the inmate starts.
 */
static int pmu_quiet(struct cell_vcpu *v, char *why, size_t len)
{
	static const struct {
		uint64_t id;
		const char *name;
	} regs[] = {
		{ ARM64_SYS_REG(3, 3, 9, 14, 3), "PMOVSSET_EL0" },
		{ ARM64_SYS_REG(3, 0, 9, 14, 1), "PMINTENSET_EL1" },
		{ ARM64_SYS_REG(3, 3, 9, 12, 1), "PMCNTENSET_EL0" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		if (set_reg(v, regs[i].id, 0)) {
			cell_why(why, len, "%s of vCPU %u: %s", regs[i].name,
				 v->idx, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

int cell_arch_vcpu_reset(struct cell_vm *vm, struct cell_vcpu *v, char *why,
			 size_t len)
{
	int ret = vcpu_init(vm, v, why, len);	/* resets the registers */

	if (!ret && vm->has_pmu)
		ret = pmu_quiet(v, why, len);
	if (!ret && !v->idx)
		ret = gic_reset(vm, why, len);
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
