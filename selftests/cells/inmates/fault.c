// SPDX-License-Identifier: GPL-2.0
/*
 * Test inmate that faults: mode=undef (default) executes an undefined
 * instruction, which the library's vectors report through the comm region;
 * mode=mmio reads a guest address outside the cell's RAM and console,
 * which the runner sees as an exit it cannot serve.
 */
#include "inmate.h"

int inmate_main(void)
{
	char mode[16] = "undef";

	arg_str("mode", mode, sizeof(mode));
	iprintf("about to fault (%s)\n", mode);
	if (!strncmp(mode, "mmio", 5)) {
		volatile uint32_t *p = (volatile uint32_t *)0x40000000;

		return *p == 0x12345678;
	}
#if defined(__aarch64__)
	asm volatile("udf #0");
#else
	asm volatile("ud2");
#endif
	return 0;
}
