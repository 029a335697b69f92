# SPDX-License-Identifier: GPL-2.0
# KVM in the guest for the needs-kvm suites (busybox sh).

# kvm_load: load Debian's KVM modules from the initramfs (x86_64: kvm-amd
# under -cpu max, and what it needs), skipping any already loaded (by the
# KVM suite that ran before); true once /dev/kvm exists. A kernel with KVM
# built in (the debug kernel) ships no modules.
kvm_load() {
	if [ "$CG_ARCH" = x86_64 ]; then
		for _m in irqbypass ccp kvm kvm-amd; do
			[ -d "/sys/module/$(echo "$_m" | tr - _)" ] && continue
			[ ! -e /modules/linux/$_m.ko ] ||
				insmod /modules/linux/$_m.ko 2>/dev/null || return 1
		done
	fi
	[ -c /dev/kvm ]
}
