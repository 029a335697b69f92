// SPDX-License-Identifier: GPL-2.0
/*
 * Test inmate that masks interrupts and halts forever (arm64: wfi with
 * DAIF set): with KVM's in-kernel irqchip (local APIC, vGIC) the halt
 * stays in the kernel, so only the runner's kick ends it (the watchdog,
 * SIGTERM, shutdown --force). timer=1 arms a periodic 1 kHz timer first,
 * whose interrupt stays pending (arm64: the WFI then returns at once,
 * again and again, without leaving KVM).
 */
#include "inmate.h"

static void tick(uint64_t deadline, uint64_t now)
{
	(void)deadline;
	(void)now;
}

int inmate_main(void)
{
	if (arg_u64("timer", 0) && (timer_init(0) || timer_start(1000000, tick)))
		inmate_fault(1, 0, 0, 0, "no local timer");
	iprintf("halting with interrupts off\n");
	for (;;) {
#if defined(__aarch64__)
		asm volatile("msr daifset, #0xf; wfi" ::: "memory");
#else
		asm volatile("cli; hlt" ::: "memory");
#endif
	}
	return 0;
}
