/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cell runner's KVM side, as the supervisor and `colorguard cell run`
 * see it: one KVM VM per cell, guest RAM from /dev/mm-color in the cell's
 * colors, one vCPU thread per cell CPU. Nothing here touches root Linux's
 * CPUs, cgroups or sysfs: that is cell_host.h's job.
 *
 * Every call that can fail writes a one-line reason (no newline) into
 * why[why_len] and returns a negative errno; the VM is then as before.
 *
 * The runner installs a handler for SIGRTMIN (no SA_RESTART) and sends it
 * to its vCPU threads to get them out of KVM_RUN; a process that uses the
 * runner must leave SIGRTMIN to it (a real-time signal: queued, never
 * one a library or a user sends by habit). It installs a SIGBUS handler only
 * while cell_vm_create() prefaults the guest RAM.
 */
#ifndef COLORGUARD_CELL_VM_H
#define COLORGUARD_CELL_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cg_cell;		/* scripts/colorguard/colorguard.h: one cell of the config */
struct cg_config;

/* Jailhouse's cell states. */
enum cell_state {
	CELL_CREATED,		/* memory set up, no image started */
	CELL_LOADED,		/* an image is in RAM, not started */
	CELL_RUNNING,
	CELL_RUNNING_LOCKED,	/* the inmate refuses shutdown requests */
	CELL_SHUT_DOWN,		/* the inmate stopped, or shutdown completed */
	CELL_FAILED,		/* a vCPU faulted or timed out: see stats */
};

const char *cell_state_name(enum cell_state s);

/* Exits by kind, per cell (summed over vCPUs). */
enum cell_exit_kind {
	CELL_EXIT_MMIO,
	CELL_EXIT_IO,
	CELL_EXIT_HLT,
	CELL_EXIT_SYSTEM_EVENT,
	CELL_EXIT_INTR,		/* signal or immediate_exit */
	CELL_EXIT_OTHER,
	CELL_EXIT_KINDS,
};

struct cell_stats {
	enum cell_state state;
	unsigned int nr_cpus;
	unsigned int cpus[64];		/* host CPU of each vCPU */
	uint64_t exits[CELL_EXIT_KINDS];
	uint64_t run_ns;		/* since start, or start to stop */
	uint64_t mem_bytes;		/* guest RAM backed by /dev/mm-color */
	int failed_cpu;			/* host CPU, -1 if none */
	char failure[128];		/* exit reason when CELL_FAILED */
	/* Added by the runner core: */
	uint64_t create_ns;		/* cell_vm_create(), prefault included */
	uint64_t pages_total;		/* guest RAM pages (comm page included) */
	uint64_t pages_in_colors;	/* of them, in the cell's colors */
	uint64_t pages_in_root;		/* of them, in mm-color's root_colors */
	/* The bandwidth lock (bwlock.c), this run: */
	bool bwlock_allowed;		/* the config's bwlock = true */
	uint32_t bwlock_level;		/* per mille held now, 0: none */
	uint32_t bwlock_requests;	/* writes of the register */
	uint32_t bwlock_acquired;	/* acquisitions and changes served */
	uint32_t bwlock_refused;
	uint32_t bwlock_forced;		/* holds ended at bwlock_max_hold_ms */
	uint32_t bwlock_too_soon;	/* refused: within bwlock_min_gap_ms */
	uint32_t bwlock_too_low;	/* refused: below bwlock_min_level */
	uint32_t bwlock_max_hold_ms;	/* the cell's limits */
	uint32_t bwlock_min_gap_ms;
	uint32_t bwlock_min_level;
	uint64_t bwlock_held_ns;
	char bwlock_reason[64];		/* of the last refusal or forced end */
};

struct cell_vm;

/*
 * Create the VM of cell `cell` of the validated config `cfg`: guest RAM
 * mmapped from /dev/mm-color (mask = the cell's colors), prefaulted, at the
 * config's guest addresses; vCPUs created, not running.
 */
int cell_vm_create(const struct cg_config *cfg, const struct cg_cell *cell,
		   struct cell_vm **vm, char *why, size_t why_len);
/*
 * Copy a flat binary image into guest RAM at guest address addr (0: the
 * arch's default load address), optional argument string for the inmate.
 * Refused while running.
 */
int cell_vm_load(struct cell_vm *vm, const char *image, uint64_t addr,
		 const char *args, char *why, size_t why_len);
/* Start the vCPU threads, each pinned to its host CPU. */
int cell_vm_start(struct cell_vm *vm, char *why, size_t why_len);
/*
 * Ask the inmate to stop through the comm region; with force, stop the
 * vCPUs without asking. Returns 0 once the cell is shut down, -EBUSY if
 * the inmate refused, -ETIMEDOUT if it did not answer in timeout_ms.
 */
int cell_vm_shutdown(struct cell_vm *vm, bool force, unsigned int timeout_ms,
		     char *why, size_t why_len);
/* Wait up to timeout_ms (0: forever) for the cell to leave the running states. */
int cell_vm_wait(struct cell_vm *vm, unsigned int timeout_ms);
void cell_vm_stats(struct cell_vm *vm, struct cell_stats *st);
/* Stop everything and give every resource back. */
void cell_vm_destroy(struct cell_vm *vm);

/*
 * Additions of the runner core (cells/runner/):
 *
 * cell_vm_create_opts(): cell_vm_create() with options. no_color backs
 * guest RAM with anonymous memory instead of /dev/mm-color (a control
 * run: its pages are not confined to the colors); console, if not NULL,
 * receives the inmate's console lines instead of stdout; log_path, if not
 * NULL, is the file behind console, which the runner rotates to
 * log_path.1 when it grows too big (console.c).
 */
struct cell_vm_opts {
	bool no_color;
	void *console;		/* FILE * */
	const char *log_path;
	/*
	 * A cgroup.threads file each vCPU thread writes its TID to before it
	 * pins itself (cell_host_enter_threads()); NULL: they stay in the
	 * process's cgroup.
	 */
	const char *vcpu_threads;
};

int cell_vm_create_opts(const struct cg_config *cfg,
			const struct cg_cell *cell,
			const struct cell_vm_opts *opts, struct cell_vm **vm,
			char *why, size_t why_len);
/* Stop the vCPUs and mark the cell failed with reason (a watchdog). */
void cell_vm_fail(struct cell_vm *vm, const char *reason);
/*
 * Count the pages of the guest RAM mapping (from /proc/self/pagemap) whose
 * color, with mm-color's geometry, is in the list mask (NULL: the cell's
 * colors) and in mm-color's root_colors. 0, or -errno with why.
 */
int cell_vm_check_colors(struct cell_vm *vm, const char *mask,
			 uint64_t *total, uint64_t *in_mask, uint64_t *in_root,
			 char *why, size_t why_len);
/* The inmate's state in the comm region (enum cell_inmate_state). */
unsigned int cell_vm_inmate_state(struct cell_vm *vm);

#endif
