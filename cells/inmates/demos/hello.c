// SPDX-License-Identifier: GPL-2.0
/* hello: one console line, one result, a clean stop. */
#include "inmate.h"

int inmate_main(void)
{
	iprintf("Hello from a colorguard cell (vCPU %u of %u), args \"%s\"\n",
		this_cpu, comm->nr_cpus, (const char *)comm->args);
	result_set("hello", 1);
	result_set("ram_kib", comm->ram_size >> 10);
	return 0;
}
