// SPDX-License-Identifier: GPL-2.0
/*
 * Test inmate for cells with several CPUs: vCPU 0 starts every other vCPU
 * with smp_start_cpu(); each vCPU, vCPU 0 too, counts to rounds=N (default
 * 100000) and writes its own results: cpuN_id (this_cpu, as the entry
 * code set it up), cpuN_hwid (the id the hardware shows: x86 APIC ID,
 * arm64 MPIDR; the runner must give each vCPU its own) and cpuN_count.
 * vCPU 0 creates those entries first, so that the others only replace
 * values and never race to append. It stops
 * once every vCPU has reported, or after wait_s=S seconds of ticks (x86:
 * TSC, taken as 1 GHz) with result missing = the vCPUs that did not.
 */
#include "inmate.h"

static uint64_t rounds;
static volatile uint32_t reported[INMATE_MAX_CPUS];

static void name(char *buf, unsigned int cpu, const char *what)
{
	size_t n = strlen(what);

	buf[0] = 'c';
	buf[1] = 'p';
	buf[2] = 'u';
	buf[3] = '0' + cpu;
	buf[4] = '_';
	memcpy(buf + 5, what, n + 1);
}

static void work(void)
{
	unsigned int cpu = this_cpu;
	volatile uint64_t count = 0;
	char buf[CELL_COMM_NAME_MAX];

	while (count < rounds)
		count++;
	if (cpu >= INMATE_MAX_CPUS)
		return;
	name(buf, cpu, "count");
	result_set(buf, count);
	name(buf, cpu, "hwid");
	result_set(buf, arch_hw_cpu_id());
	name(buf, cpu, "id");
	result_set(buf, cpu);
	/* Before the flag: vCPU 0 stops the cell once all flags are set. */
	iprintf("vCPU %u counted to %llu\n", cpu, (unsigned long long)count);
	mb();			/* results and console line before the flag */
	reported[cpu] = 1;
}

int inmate_main(void)
{
	unsigned int n = comm->nr_cpus, cpu, missing;
	uint64_t hz = tick_hz() ? tick_hz() : 1000000000ull;
	uint64_t t0, wait = arg_u64("wait_s", 30) * hz;
	char buf[CELL_COMM_NAME_MAX];

	rounds = arg_u64("rounds", 100000);
	if (n > INMATE_MAX_CPUS)
		n = INMATE_MAX_CPUS;
	for (cpu = 0; cpu < n; cpu++) {
		name(buf, cpu, "id");
		result_set(buf, ~0ull);
		name(buf, cpu, "hwid");
		result_set(buf, ~0ull);
		name(buf, cpu, "count");
		result_set(buf, 0);
	}
	for (cpu = 1; cpu < n; cpu++)
		if (smp_start_cpu(cpu, work))
			iprintf("vCPU %u: smp_start_cpu failed\n", cpu);
	work();
	t0 = ticks();
	do {
		missing = 0;
		for (cpu = 0; cpu < n; cpu++)
			missing += !reported[cpu];
	} while (missing && ticks() - t0 < wait);
	result_set("missing", missing);
	iprintf("%u of %u vCPUs reported\n", n - missing, n);
	return 0;
}
