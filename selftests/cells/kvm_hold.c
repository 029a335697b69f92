// SPDX-License-Identifier: GPL-2.0
/*
 * kvm_hold: hold one KVM VM with one vCPU and no in-kernel irqchip until
 * killed. Test-bed only (see vm-run): while it lives, the kernel's
 * kvm_has_noapic_vcpu static key stays on, so the cells the suite creates
 * and destroys do not re-patch KVM's code each time.
 */
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(void)
{
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	int vm, vcpu;

	if (kvm < 0) {
		perror("kvm_hold: /dev/kvm");
		return 1;
	}
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0) {
		perror("kvm_hold: KVM_CREATE_VM");
		return 1;
	}
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0) {
		perror("kvm_hold: KVM_CREATE_VCPU");
		return 1;
	}
	puts("kvm_hold: holding");
	fflush(stdout);
	for (;;)
		pause();
}
