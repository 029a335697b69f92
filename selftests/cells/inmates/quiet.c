// SPDX-License-Identifier: GPL-2.0
/*
 * Test inmate: what an earlier run of the cell left in the interrupt
 * state of vCPU 0 at this start (irq_leftovers(), read before any
 * setup): "leftovers N, first pending M" on the console and the result
 * leftovers, 0 when it starts as a fresh one. Loaded after a run stopped with its
 * timer armed and an interrupt pending (halt.bin timer=1, shutdown
 * --force): the runner must have reset both.
 */
#include "inmate.h"

int inmate_main(void)
{
	int pending;
	unsigned int left = irq_leftovers(&pending);

	result_set("leftovers", left);
	iprintf("leftovers %u, first pending %d\n", left, pending);
	return 0;
}
