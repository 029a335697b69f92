// SPDX-License-Identifier: GPL-2.0
/*
 * hello: one console line, one result, a clean stop. exits=N adds N
 * console writes of a carriage return (which the runner drops): N exits,
 * to measure what one costs.
 */
#include "inmate.h"

int inmate_main(void)
{
	uint64_t i, n = arg_u64("exits", 0);

	for (i = 0; i < n; i++)
		console_putc('\r');
	iprintf("Hello from a colorguard cell (vCPU %u of %u), args \"%s\"\n",
		this_cpu, comm->nr_cpus, (const char *)comm->args);
	result_set("hello", 1);
	result_set("ram_kib", comm->ram_size >> 10);
	return 0;
}
