/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inmate library: what a bare-metal program in a colorguard cell gets.
 * Freestanding (no libc). The entry code checks nothing but the vCPU
 * index; inmate_start() checks the comm region, sets up the console and
 * the counters, then calls the program's inmate_main().
 */
#ifndef COLORGUARD_INMATE_H
#define COLORGUARD_INMATE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <colorguard/cell_comm.h>

#include "inmate_smp.h"

#define __noreturn	__attribute__((noreturn))

extern volatile struct cell_comm *comm;
/* The index of the vCPU that runs the caller (0 .. comm->nr_cpus - 1). */
#define this_cpu	(arch_cpu_id())

/* Symbols of the linker script and the entry code. */
extern char __image_end[];	/* first byte after the image, page aligned */
extern char __bss_start[], __bss_end[];
extern char isr_stubs[];	/* x86: 32 exception stubs, 16 bytes apart */
extern char secondary_entry[];	/* arm64: where PSCI starts a vCPU */

/* Called by the entry code (arch/<arch>/entry.S) on an exception. */
void x86_fault(uint64_t vec, uint64_t err, uint64_t rip, uint64_t cr2);
void arm64_fault(uint64_t idx, uint64_t esr, uint64_t far, uint64_t elr);

/* The program: return 0 for a clean stop. */
int inmate_main(void);

/* Console: one MMIO byte register, printed by the runner line by line. */
void console_putc(char c);
void console_puts(const char *s);
void iprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Arguments "key=value key=value"; numbers take K/M/G suffixes and 0x. */
int arg_str(const char *name, char *buf, size_t len);
uint64_t arg_u64(const char *name, uint64_t def);

/* Results area of the comm region: a named u64, added or replaced. */
int result_set(const char *name, uint64_t value);

/* Shutdown handshake. */
int shutdown_requested(void);
void shutdown_reply(int accept);

/*
 * memguard's bandwidth lock, one register write per transition (see
 * cell_comm.h): bwlock_acquire() takes it at permille (1..1000) of the
 * other CPUs' budgets, or changes the level held; bwlock_release() ends
 * it. 0 when served, else the CELL_BWLOCK_* status of the refusal
 * (comm->bwlock_reason says why; the lock is as before). The runner
 * ends a hold at the cell's comm->bwlock_max_hold_ms by itself:
 * comm->bwlock_forced then grows and comm->bwlock_level reads 0.
 */
int bwlock_acquire(uint32_t permille);
int bwlock_release(void);

/* Counters. cycles(): arm64 PMCCNTR (CNTVCT without a PMU), x86 rdtsc. */
uint64_t cycles(void);
uint64_t ticks(void);		/* arm64 CNTVCT, x86 rdtsc */
uint64_t tick_hz(void);		/* 0 if unknown (x86) */
const char *cycles_name(void);

/*
 * Secondary vCPUs, as in Jailhouse's inmate library: vCPU 0 runs
 * inmate_main(); smp_start_cpu() makes vCPU cpu (1 .. nr_cpus - 1, below
 * INMATE_MAX_CPUS) run entry() on its own stack, once. When entry()
 * returns, that vCPU stops; the cell goes on. -1 if cpu is not a vCPU of
 * the cell, was started already, or could not be started.
 */
int smp_start_cpu(unsigned int cpu, void (*entry)(void));

/* Stop this cell (from any vCPU): never returns. */
void __noreturn inmate_exit(void);
/* Report a fault through the comm region and stop. */
void __noreturn inmate_fault(uint64_t code, uint64_t addr, uint64_t pc,
			     uint64_t extra, const char *reason);

/* Freestanding helpers. */
void *memset(void *s, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
size_t strlen(const char *s);
int strncmp(const char *a, const char *b, size_t n);

/* Arch part (arch/<arch>/arch.c). */
void arch_init(void);
uint64_t arch_cycles(void);
uint64_t arch_ticks(void);
uint64_t arch_tick_hz(void);
void __noreturn arch_stop(void);
void __noreturn arch_cpu_off(void);	/* this vCPU only */
void arch_secondary_init(void);
int arch_smp_start(unsigned int cpu);
void arch_smp_wait(void);		/* one step of a busy wait */
unsigned int arch_cpu_id(void);
/* The CPU's own id as the hardware shows it: x86 APIC ID, arm64 MPIDR. */
uint64_t arch_hw_cpu_id(void);

/* A full barrier between the cell's and the runner's views of memory. */
static inline void mb(void)
{
#if defined(__aarch64__)
	asm volatile("dmb ish" ::: "memory");
#else
	asm volatile("lock; addl $0,0(%%rsp)" ::: "memory", "cc");
#endif
}

#endif
