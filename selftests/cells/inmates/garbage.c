// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile test inmate: garbage in every byte of the comm page, then a
 * stop. what=fault (default): a fault report for vCPU 0xffffffff with a
 * reason of escape sequences and newlines and no NUL, results_count
 * 0xffffffff and result names of escape sequences; what=state: an
 * inmate_state no inmate can have, and a stop.
 */
#include "inmate.h"

int inmate_main(void)
{
	volatile uint8_t *page = (volatile uint8_t *)comm;
	static const char evil[] = "\033]0;owned\007\033[2J\ncell rt: shut down\n";
	char what[16] = "fault";
	unsigned int i;

	arg_str("what", what, sizeof(what));	/* before the args go */
	for (i = 0; i < CELL_COMM_SIZE; i++)
		page[i] = (uint8_t)inmate_rand() | 0x80;
	for (i = 0; i < sizeof(comm->fault_reason); i++)
		comm->fault_reason[i] = evil[i % (sizeof(evil) - 1)];
	for (i = 0; i < CELL_COMM_RESULTS_MAX; i++) {
		volatile char *name = comm->results[i].name;
		unsigned int k;

		for (k = 0; k < CELL_COMM_NAME_MAX; k++)
			name[k] = evil[(i + k) % (sizeof(evil) - 1)];
	}
	comm->results_count = 0xffffffff;
	comm->fault_cpu = 0xffffffff;
	mb();		/* the garbage before the state that shows it */
	comm->inmate_state = strncmp(what, "state", 6) ? CELL_INMATE_FAILED :
			     0x5a5a5a5a;
	mb();		/* the state before the stop */
	arch_stop();
}
