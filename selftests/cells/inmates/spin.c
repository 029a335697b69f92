// SPDX-License-Identifier: GPL-2.0
/* Test inmate that never stops and never answers: for the watchdog. */
#include "inmate.h"

int inmate_main(void)
{
	volatile uint64_t n = 0;

	iprintf("spinning forever\n");
	for (;;)
		n++;
	return 0;
}
