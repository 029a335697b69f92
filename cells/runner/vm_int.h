/* SPDX-License-Identifier: GPL-2.0 */
/* Inside struct cell_vm: shared by the runner's files and the arch files. */
#ifndef COLORGUARD_CELL_VM_INT_H
#define COLORGUARD_CELL_VM_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <linux/kvm.h>

#include <colorguard/cell_chan.h>
#include <colorguard/cell_comm.h>
#include <colorguard/chan_linux.h>

#include "cell_vm.h"
#include "colorguard.h"
#include "comm_access.h"
#include "cell_why.h"

#define CELL_MAX_VCPUS	64
/* The console (console.c): a line, lines shown a second, log size. */
#define CELL_CONSOLE_LINE_MAX		256
#define CELL_CONSOLE_LINES_PER_S	100
#define CELL_CONSOLE_LOG_MAX		(256 * 1024)
/*
 * Exit storms (exit.c): refused requests a cell may make in a second,
 * and exits of any kind (the config's exit_rate, this by default).
 */
#define CELL_REFUSED_PER_S		1000
#define CELL_EXIT_RATE_DEFAULT		100000
/* A window's memslots: the region, the peers page, feedback pages. */
#define CELL_CHAN_WINDOW_SLOTS	(2 + CHAN_MAX_READERS)
/* Regions, the channel directory, the channels' windows, the comm page. */
#define CELL_MAX_SLOTS	(CG_MAX_REGIONS + 1 + CELL_CHAN_MAX * CELL_CHAN_WINDOW_SLOTS + 1)

enum cell_slot_kind {
	CELL_SLOT_RAM,		/* memory[i], the cell's colors */
	CELL_SLOT_CHAN_DIR,	/* the channel directory, the cell's colors */
	CELL_SLOT_CHAN,		/* a channel's page(s), the keeper's memory */
	CELL_SLOT_COMM,		/* the comm page and the arch's pages, last */
};

struct cell_slot {
	uint64_t gpa;
	uint64_t size;
	void *host;
	enum cell_slot_kind kind;
	bool readonly;		/* KVM_MEM_READONLY: a write exits */
	unsigned int chan;	/* CELL_SLOT_CHAN: index in cell_vm.chans */
};

/* One channel of the cell (chan.c): its end, opened through the keeper. */
struct cell_chan_end {
	char name[CG_NAME_MAX + 1];
	struct cg_chan *end;
	uint32_t role;		/* CELL_CHAN_WRITER or CELL_CHAN_READER */
	uint32_t index;		/* a reader's */
	uint64_t window;	/* guest address */
	uint64_t doorbell;	/* guest address of its register, 0: none */
	uint32_t irq;		/* a reader's doorbell interrupt, 0: none */
	struct chan_geom geom;
};

struct cell_vcpu {
	struct cell_vm *vm;
	unsigned int idx;
	int fd;
	int host_cpu;
	struct kvm_run *run;
	pthread_t thread;
	bool thread_created;		/* not joined yet; under join_lock */
	bool thread_running;		/* may be kicked; under kick_lock */
	/* Its thread placed (cgroup, CPU, policy), or place_err; vm->lock. */
	bool placed;
	int place_err;
	char place_why[160];
	/* x86: the local APIC as KVM created it, restored at every start */
	uint64_t apic_base0;
	unsigned char lapic0[1024];		/* struct kvm_lapic_state */
	char line[CELL_CONSOLE_LINE_MAX];	/* console line being assembled */
	size_t line_len;
};

/* A cell's limits on the lock: the config's, fixed for the VM's life. */
struct cell_bwlock_limits {
	uint32_t max_hold_ms;		/* a hold ends then (bwlock_watch.c) */
	uint32_t min_gap_ms;		/* from a release to an acquisition */
	uint32_t min_level;		/* per mille */
};

/*
 * The cell's bandwidth lock (bwlock.c). lock orders the vCPUs' requests,
 * the watchdog and the cell's end; it is taken before cell_vm.lock,
 * never after.
 */
struct cell_bwlock {
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* the watchdog's: a hold began, or quit */
	pthread_t watchdog;
	bool watchdog_live, quit;
	int fd;				/* /dev/memguard, -1 when closed */
	int allowed;			/* the config's bwlock = true */
	int ended;			/* the run is over: refuse */
	struct cell_bwlock_limits lim;
	uint32_t level;			/* per mille held, 0: none */
	uint32_t status;		/* enum cell_bwlock_status */
	uint32_t requests, acquired, refused;
	uint32_t forced, too_soon, too_low;
	unsigned int lines;		/* messages printed this run */
	uint64_t window_start;		/* rate limit: a window of 1 s */
	unsigned int window_count;	/* acquisitions in the window */
	uint64_t since, held_ns;
	uint64_t released;		/* the run's last release, 0: none */
	char reason[CELL_COMM_BWLOCK_REASON_MAX];
};

/* The console's state; under cell_vm.lock. */
struct cell_console {
	char log_path[256];		/* the log to rotate, "" for none */
	bool off;			/* the config's console_output = false */
	uint64_t window_start;		/* rate limit: a window of 1 s */
	unsigned int window_lines;	/* lines shown in the window */
	uint64_t dropped;		/* dropped, not reported yet */
	uint64_t dropped_total;		/* this run */
	uint64_t lines;			/* this run, shown or not */
};

/* A cell's exits in the current second; under cell_vm.lock. */
struct cell_exit_window {
	uint64_t start;
	unsigned int exits, refused;
	unsigned int rate;		/* most exits a second */
};

struct cell_vm {
	char name[CG_NAME_MAX + 1];
	char colors[CG_LIST_MAX + 1];
	const struct cg_config *cfg;	/* during cell_vm_create() only */
	int kvm_fd, vm_fd, mmc_fd;
	int no_color;			/* control runs: anonymous memory */
	size_t run_size;
	unsigned int nr_slots;
	/*
	 * memory[] first, in config order; last: the comm page, then
	 * cell_arch_extra_pages(); channel slots between them.
	 */
	struct cell_slot slots[CELL_MAX_SLOTS];
	unsigned int nr_chans;
	struct cell_chan_end chans[CELL_CHAN_MAX];
	struct cell_chan_dir *chan_dir;	/* host address, NULL: no channels */
	uint64_t chan_dir_gpa;
	/* guest memory: only comm_access.c touches it */
	volatile struct cell_comm *comm;
	uint64_t comm_gpa, console_gpa, bwlock_gpa, stop_gpa;
	uint32_t tsc_khz;		/* x86: KVM_GET_TSC_KHZ, 0: unknown */
	uint64_t entry;
	unsigned int nr_vcpus;
	struct cell_vcpu vcpus[CELL_MAX_VCPUS];
	int has_pmu;
	/* arm64: the vGIC device (-1: none) and what the comm page says of it */
	int irqchip_fd;
	uint64_t gic_dist, gic_redist;
	uint32_t gic_version, timer_irq;
	char vcpu_threads[PATH_MAX];	/* cell_vm_opts.vcpu_threads, or "" */
	int vcpu_priority;		/* SCHED_FIFO; 0: the default policy */

	pthread_mutex_t lock;
	pthread_cond_t cond;		/* on CLOCK_MONOTONIC */
	/*
	 * kick_lock: a vCPU thread leaves thread_running under it before it
	 * returns, so a kick never reaches a thread that may be joined.
	 * join_lock: one joiner at a time. Neither is held with the other.
	 */
	pthread_mutex_t kick_lock, join_lock;
	enum cell_state state;
	bool vcpus_go;			/* every vCPU placed: run; under lock */
	atomic_bool stopping;
	uint64_t exits[CELL_EXIT_KINDS];
	uint64_t t_start, t_stop, create_ns;
	int failed_cpu;
	char failure[128];
	FILE *console;
	struct cell_console con;
	struct cell_exit_window storm;
	uint64_t pages_total, pages_in_colors, pages_in_root;
	struct cell_bwlock bw;
};

uint64_t cell_now_ns(void);
/*
 * The rate limits' one-second windows: true, and *@start moved to @now,
 * when the window that began at *@start has ended.
 */
bool cell_new_second(uint64_t *start, uint64_t now);

/* mem.c */
int cell_mem_create(struct cell_vm *vm, const struct cg_cell *cell,
		    char *why, size_t len);
void cell_mem_destroy(struct cell_vm *vm);
int cell_mem_check(struct cell_vm *vm, const char *mask, uint64_t *total,
		   uint64_t *in_mask, uint64_t *in_root, char *why, size_t len);

/* chan.c: the cell's channels */
/* Open the cell's ends through the keeper, before cell_mem_create(). */
int cell_chans_open(struct cell_vm *vm, const struct cg_config *cfg,
		    const struct cg_cell *cell, char *why, size_t len);
/*
 * Add the directory's slot (to be mapped in the cell's colors) and the
 * windows' slots (the keeper's memory) from vm->slots[*i] on.
 */
int cell_chans_add_slots(struct cell_vm *vm, unsigned int *i, char *why,
			 size_t len);
/* Register the doorbells' ioeventfds, after KVM_CREATE_VM. */
int cell_chans_doorbells(struct cell_vm *vm, char *why, size_t len);
/*
 * A reading cell's doorbells as interrupts (KVM_IRQFD), after the vCPUs
 * and their interrupt controller exist.
 */
int cell_chans_reader_irqs(struct cell_vm *vm, char *why, size_t len);
/* Write the directory, before each start. */
void cell_chans_dir_write(struct cell_vm *vm);
/* What a guest address of a channel slot is, for a stray access's reason. */
bool cell_chans_describe(struct cell_vm *vm, uint64_t gpa, char *buf,
			 size_t len);
void cell_chans_close(struct cell_vm *vm);

/* vcpu.c */
int cell_vcpus_start(struct cell_vm *vm, char *why, size_t len);
void cell_vcpus_stop(struct cell_vm *vm);
void cell_end(struct cell_vm *vm, enum cell_state st, int cpu,
	      const char *reason);

/* exit.c */
void cell_exit_count(struct cell_vm *vm, enum cell_exit_kind k);
/* One exit of v; 0 to go on running. */
int cell_exit_handle(struct cell_vcpu *v);
/* End the cell as failed on v's CPU, with a one-line reason. */
void cell_vcpu_fail(struct cell_vcpu *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* console.c */
void cell_console_byte(struct cell_vcpu *v, char ch);
/* Report lines dropped and not reported yet: at the cell's end. */
void cell_console_end(struct cell_vm *vm);
void cell_console_reset(struct cell_vm *vm);

/* bwlock_limit.c: the cell's limits, no state of their own */
void cell_bwlock_limits_of(const struct cg_cell *cell,
			   struct cell_bwlock_limits *l);
/*
 * May the cell set @level, holding @held (0: nothing), its last release
 * at @released (0: none)? CELL_BWLOCK_OK, or the refusal with a reason.
 */
enum cell_bwlock_status cell_bwlock_limit_check(const struct cell_bwlock_limits *l,
						uint32_t level, uint32_t held,
						uint64_t released, uint64_t now,
						char *why, size_t len);
/* When a hold taken at @since must end (cell_now_ns()'s clock). */
uint64_t cell_bwlock_deadline(const struct cell_bwlock_limits *l,
			      uint64_t since);

/* bwlock.c */
void cell_bwlock_init(struct cell_vm *vm, const struct cg_cell *cell);
void cell_bwlock_reset(struct cell_vm *vm);
/* One access of the register; true if it was a refused request. */
bool cell_bwlock_exit(struct cell_vcpu *v);
/* End a hold that reached its deadline; caller holds bw.lock. */
void cell_bwlock_expire(struct cell_vm *vm, uint64_t now);
void cell_bwlock_end(struct cell_vm *vm);
void cell_bwlock_stats(struct cell_vm *vm, struct cell_stats *st);
void cell_bwlock_destroy(struct cell_vm *vm);

/* bwlock_watch.c: the thread that ends holds at max_hold_ms */
int cell_bwlock_watch_start(struct cell_vm *vm, char *why, size_t len);
void cell_bwlock_watch_stop(struct cell_vm *vm);

/* arch/<arch>.c */
extern const char *const cell_arch_name;
/* KVM capabilities the arch code relies on, 0-terminated. */
struct cell_kvm_cap {
	int cap;
	const char *name;
};

extern const struct cell_kvm_cap cell_arch_caps[];

uint64_t cell_arch_console_default(void);
/* Pages the arch keeps after the comm page (x86: GDT and page tables). */
unsigned int cell_arch_extra_pages(struct cell_vm *vm);
int cell_arch_check_layout(struct cell_vm *vm, char *why, size_t len);
int cell_arch_vm_init(struct cell_vm *vm, char *why, size_t len);
/*
 * A reading cell's doorbell interrupt for its channel k (x86: vector,
 * arm64: INTID), and the routes from GSI k (bit k of mask) to it.
 */
uint32_t cell_arch_doorbell_irq(unsigned int k);
int cell_arch_doorbell_routes(struct cell_vm *vm, uint32_t mask, char *why,
			      size_t len);
/* After every vCPU exists and before the first run (arm64: the vGIC). */
int cell_arch_vcpus_created(struct cell_vm *vm, char *why, size_t len);
int cell_arch_vcpu_init(struct cell_vm *vm, struct cell_vcpu *v, char *why,
			size_t len);
int cell_arch_vcpu_reset(struct cell_vm *vm, struct cell_vcpu *v, char *why,
			 size_t len);

#endif
