// SPDX-License-Identifier: GPL-2.0
/*
 * Test inmate: what an earlier run of the cell left in the interrupt
 * state of each vCPU at this start (irq_leftovers(), read before any
 * setup): "leftovers N" on the console and the result leftovers, 0 when
 * every vCPU starts as a fresh one. Loaded after a run stopped with its
 * timer armed and an interrupt pending (halt.bin timer=1, shutdown
 * --force): the runner must have reset both.
 */
#include "inmate.h"

int inmate_main(void)
{
	unsigned int left = irq_leftovers();

	result_set("leftovers", left);
	iprintf("leftovers %u\n", left);
	return 0;
}
