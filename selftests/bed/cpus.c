// SPDX-License-Identifier: GPL-2.0
/* Guest program of the test bed: a task can be placed on every CPU. */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>

#include "kselftest_harness.h"

TEST(runs_on_every_online_cpu)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	ASSERT_EQ(2, n);
	for (int cpu = 0; cpu < n; cpu++) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
		EXPECT_EQ(cpu, sched_getcpu());
	}
}

TEST_HARNESS_MAIN
