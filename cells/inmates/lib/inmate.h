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
extern char irq_stubs[];	/* x86: INMATE_NR_IRQS stubs, 16 bytes apart */
extern char irq_spurious[];	/* x86: the spurious vector's */
extern char secondary_entry[];	/* arm64: where PSCI starts a vCPU */

/* Called by the entry code (arch/<arch>/entry.S) on an exception. */
void x86_fault(uint64_t vec, uint64_t err, uint64_t rip, uint64_t cr2);
void x86_irq(uint64_t vec);
void arm64_irq(void);
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

/*
 * Interrupts. irq_init() sets up the calling vCPU's interrupt
 * controller, once per vCPU: x86, its local APIC (x2APIC when CPUID
 * offers it, else xAPIC at 0xfee00000); arm64, the vGIC (GICv3 at the
 * comm page's addresses: the distributor on, group 1, affinity routing,
 * this vCPU's redistributor awake with its private interrupts off, the
 * system-register CPU interface at priority mask 0xff). Vectors
 * INMATE_IRQ_FIRST .. INMATE_IRQ_FIRST + INMATE_NR_IRQS - 1 take
 * handlers (arm64: the PPIs, INTIDs 16-31, and the first 16 SPIs, 32-47;
 * irq_set_handler() also enables, or with NULL disables, that PPI on the
 * calling vCPU, or that SPI, edge-triggered and routed to it), which
 * run with interrupts off on the interrupted stack; the library ends the
 * interrupt (EOI) when the handler returns. Any other x86 vector is a
 * fault of the cell. wait_for_interrupt() halts (hlt, WFI) until an
 * interrupt has been handled: from interrupts off it enables them for
 * the halt only, so "irq_disable(); while (!done) wait_for_interrupt();"
 * loses no wakeup. irq_entry_ticks(): ticks() when the current
 * interrupt's handling began. irq_chip(): "x2APIC", "xAPIC", "GICv3" or
 * "none".
 */
#if defined(__aarch64__)
#define INMATE_IRQ_FIRST	16
#define INMATE_NR_IRQS		32
#define INMATE_TIMER_VECTOR	27	/* the virtual timer's PPI */
#else
#define INMATE_IRQ_FIRST	32
#define INMATE_NR_IRQS		32
#define INMATE_TIMER_VECTOR	INMATE_IRQ_FIRST
#define INMATE_SPURIOUS_VECTOR	0xff
#endif

/*
 * What an earlier run of the cell left in the calling vCPU's interrupt
 * state, read before irq_init(): IRQ_LEFT_* bits, 0 for the state of a
 * fresh vCPU (the runner resets it at every start). ON: the controller
 * or this vCPU's interface enabled (x86: x2APIC mode or the LAPIC's
 * software enable; arm64: the distributor's group 1 or ICC_IGRPEN1);
 * TIMER: the local timer armed or unmasked; PENDING, ACTIVE: an
 * interrupt pending, or in service (x86: IRR, ISR; arm64: this vCPU's
 * private interrupts); ENABLED (arm64): a private interrupt enabled.
 * *first_pending: the lowest pending interrupt (x86: vector, arm64:
 * INTID), -1 if none.
 */
#define IRQ_LEFT_ON		1u
#define IRQ_LEFT_TIMER		2u
#define IRQ_LEFT_PENDING	4u
#define IRQ_LEFT_ACTIVE		8u
#define IRQ_LEFT_ENABLED	16u
unsigned int irq_leftovers(int *first_pending);

typedef void (*irq_handler_t)(unsigned int vector);

int irq_init(void);
int irq_set_handler(unsigned int vector, irq_handler_t fn);
void irq_enable(void);
void irq_disable(void);
void wait_for_interrupt(void);
uint64_t irq_entry_ticks(void);
const char *irq_chip(void);

/*
 * The local timer of the calling vCPU, on INMATE_TIMER_VECTOR, in ticks().
 * x86: the LAPIC timer, ticks are the TSC (tick_hz() from the runner's
 * KVM_GET_TSC_KHZ); TSC-deadline mode when CPUID offers it, else the
 * LAPIC's one-shot count-down with a divide of 1 and its rate measured
 * against the TSC at timer_init(). arm64: the architected virtual timer,
 * ticks are CNTVCT (tick_hz() is CNTFRQ); a deadline in CNTV_CVAL, or
 * with TIMER_ONESHOT a count-down in CNTV_TVAL (32 bits: a farther
 * deadline is reached in steps). TIMER_ONESHOT asks for the count-down.
 * timer_init() calls irq_init(); -1 without a local timer or a tick rate.
 *
 * timer_start(): periodic, first deadline one period from now; each next
 * deadline is the last one plus the period, armed before fn runs, so the
 * rate does not drift and no tick is dropped: a tick whose deadline has
 * passed when it is armed fires at once and counts in timer_missed().
 * timer_oneshot(): one deadline, absolute in ticks(). fn gets the
 * deadline that fired and irq_entry_ticks(). timer_stop() disarms.
 */
#define TIMER_ONESHOT		1	/* timer_init(): no TSC-deadline mode */

typedef void (*timer_fn_t)(uint64_t deadline, uint64_t now);

int timer_init(unsigned int flags);
int timer_start(uint64_t period_ns, timer_fn_t fn);
int timer_oneshot(uint64_t deadline, timer_fn_t fn);
void timer_stop(void);
uint64_t timer_missed(void);
/* "tsc-deadline", "cntv-deadline", "one-shot" or "none"; x86: x2APIC? */
const char *timer_mode(void);
int apic_x2(void);
uint64_t ns_to_ticks(uint64_t ns);
uint64_t ticks_to_ns(uint64_t t);

/*
 * A periodic task (periodic.c) on the calling vCPU's timer: job(n, arg)
 * runs once per period_ns, jobs times, released at each tick's deadline,
 * with interrupts off; the vCPU halts between jobs. A job that ends after
 * its release plus deadline_ns (0: the period) is a miss; a release that
 * comes while a job runs waits its turn, none is dropped. Times are in
 * ticks(): latency is release to start, exec start to end (its maximum
 * the observed WCET), response release to end. periodic_run() returns -1
 * when the timer cannot start;
 * periodic_report() writes the results (names in the inmates reference).
 */
struct periodic_task {
	uint64_t period_ns;
	uint64_t deadline_ns;
	uint32_t jobs;
	void (*job)(uint32_t n, void *arg);
	void *arg;
};

struct periodic_span {
	uint64_t min, max, sum;		/* ticks() */
};

struct periodic_stats {
	uint64_t period_ns, deadline_ns;
	uint32_t jobs, misses, early;
	struct periodic_span latency, exec, response;
	uint64_t first_start, last_start;	/* ticks() */
};

int periodic_run(const struct periodic_task *t, struct periodic_stats *st);
void periodic_report(const struct periodic_stats *st);

/*
 * The critical workload's parts (workload.c): chase_build() links every
 * 64-byte line of buf into one random cycle, chase_run() follows it n
 * steps; stream_rw() reads and writes one word per line of bytes.
 * inmate_rand(): xorshift64 from a fixed seed, the same sequence every
 * run (shared by every caller in the inmate).
 */
uint64_t inmate_rand(void);
void chase_build(uintptr_t *buf, size_t lines);
uintptr_t chase_run(uintptr_t *p, uint64_t n);
uint64_t stream_rw(volatile uint64_t *s, uint64_t bytes, uint64_t sum);

/* Counters. cycles(): arm64 PMCCNTR (CNTVCT without a PMU), x86 rdtsc. */
uint64_t cycles(void);
uint64_t ticks(void);		/* arm64 CNTVCT, x86 rdtsc */
uint64_t tick_hz(void);		/* x86: the runner's TSC kHz; 0: unknown */
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

/*
 * The timer's arch part (arch/<arch>/irq.c) under its common rules
 * (timer.c): arch_timer_arm() programs the calling vCPU's timer for a
 * deadline in ticks() (0 disarms); timer_init() picks the mode and calls
 * timer_setup(); the interrupt dispatcher calls irq_entered() first.
 */
enum { TIMER_MODE_NONE, TIMER_MODE_DEADLINE, TIMER_MODE_ONESHOT };
void arch_timer_arm(int mode, uint64_t deadline);
int arch_irqs_enabled(void);
int timer_setup(int mode);
int timer_mode_id(void);
void irq_entered(uint64_t now);

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
