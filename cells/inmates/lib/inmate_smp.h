/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inmate library's CPU limits, for C and the entry code: at most
 * INMATE_MAX_CPUS vCPUs run inmate code; vCPUs 1.. get a stack of
 * 1 << INMATE_SMP_STACK_SHIFT bytes each in inmate.lds's smp_stacks
 * (INMATE_MAX_CPUS pages there; vCPU 0 uses the 16 KiB stack_top).
 */
#ifndef COLORGUARD_INMATE_SMP_H
#define COLORGUARD_INMATE_SMP_H

#define INMATE_MAX_CPUS		8
#define INMATE_SMP_STACK_SHIFT	12

#endif
