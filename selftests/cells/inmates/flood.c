// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile test inmate: a console flood of lines=N short lines (default
 * 1000) as fast as the exits go, each with an escape sequence, then a
 * clean stop.
 */
#include "inmate.h"

int inmate_main(void)
{
	uint64_t lines = arg_u64("lines", 1000), i;

	for (i = 0; i < lines; i++)
		iprintf("f%llu\033[7m\n", (unsigned long long)i);
	return 0;
}
