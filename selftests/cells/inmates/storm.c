// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile test inmate: an exit storm of n=N (default 20000) requests the
 * runner refuses, then a clean stop. what=bwlock (default): writes of
 * level 5000 to the bandwidth-lock register (refused: above 1000, or not
 * allowed); what=read: reads of the write-only console register.
 */
#include "inmate.h"

int inmate_main(void)
{
	uint64_t n = arg_u64("n", 20000), i;
	volatile uint32_t *bw = (volatile uint32_t *)(uintptr_t)comm->bwlock_reg;
	volatile uint8_t *con = (volatile uint8_t *)(uintptr_t)comm->console;
	char what[16] = "bwlock";
	uint32_t sum = 0;

	arg_str("what", what, sizeof(what));
	if (!strncmp(what, "read", 5)) {
		for (i = 0; i < n; i++)
			sum += *con;
	} else {
		for (i = 0; i < n; i++)
			*bw = 5000;
	}
	iprintf("storm of %llu done (%u)\n", (unsigned long long)n, sum);
	return 0;
}
