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

extern volatile struct cell_comm *comm;
extern unsigned int this_cpu;
extern char __image_end[];	/* first byte after the image, page aligned */

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

/* Counters. cycles(): arm64 PMCCNTR (CNTVCT without a PMU), x86 rdtsc. */
uint64_t cycles(void);
uint64_t ticks(void);		/* arm64 CNTVCT, x86 rdtsc */
uint64_t tick_hz(void);		/* 0 if unknown (x86) */
const char *cycles_name(void);

/* Stop this cell: never returns. */
void __attribute__((noreturn)) inmate_exit(void);
/* Report a fault through the comm region and stop. */
void __attribute__((noreturn)) inmate_fault(uint64_t code, uint64_t addr,
					    uint64_t pc, uint64_t extra,
					    const char *reason);

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
void __attribute__((noreturn)) arch_stop(void);

static inline void mb(void)
{
#if defined(__aarch64__)
	asm volatile("dmb ish" ::: "memory");
#else
	asm volatile("lock; addl $0,0(%%esp)" ::: "memory", "cc");
#endif
}

#endif
