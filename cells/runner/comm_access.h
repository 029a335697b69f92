/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The comm page, as the runner touches it: nothing else reads or writes
 * guest memory of the comm region. The inmate may rewrite any field at
 * any time from any vCPU, so each read copies a field exactly once into
 * the runner's memory, validates the copy and hands out only the copy
 * (snapshot-then-validate): no check of one read and use of another.
 * Every call accepts a VM without a comm page (reads give zeros).
 */
#ifndef COLORGUARD_COMM_ACCESS_H
#define COLORGUARD_COMM_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <colorguard/cell_comm.h>

#include "guest_text.h"

struct cell_vm;

/* The inmate's fault report, validated. */
struct cell_comm_fault {
	uint32_t cpu;		/* fault_cpu as written */
	bool cpu_ok;		/* cpu is a vCPU of the cell */
	uint64_t info[4];
	/* fault_reason up to its NUL (or 63 bytes), escaped */
	char reason[CELL_TEXT_ESCAPED(sizeof(((struct cell_comm *)0)->fault_reason))];
};

/* The results area: count as written, entries copied whole. */
struct cell_comm_results {
	uint32_t count;		/* at most CELL_COMM_RESULTS_MAX */
	uint32_t count_written;	/* what the inmate wrote */
	struct cell_comm_result r[CELL_COMM_RESULTS_MAX];
};

/* Reads: one copy each. */
uint32_t cell_comm_get_inmate_state(struct cell_vm *vm);
uint32_t cell_comm_get_reply(struct cell_vm *vm);
void cell_comm_get_fault(struct cell_vm *vm, struct cell_comm_fault *f);
/* Names NUL-terminated (not escaped: raw bytes for the caller). */
void cell_comm_get_results(struct cell_vm *vm, struct cell_comm_results *r);

/* Writes of the runner's fields. */
void cell_comm_reset(struct cell_vm *vm);
void cell_comm_put_args(struct cell_vm *vm, const char *args);
void cell_comm_put_cell_state(struct cell_vm *vm, uint32_t state);
void cell_comm_put_msg(struct cell_vm *vm, uint32_t msg);
void cell_comm_put_reply(struct cell_vm *vm, uint32_t reply);

struct cell_comm_bwlock_view {
	uint32_t level, status, requests, acquired, refused, forced;
	const char *reason;
};

void cell_comm_put_bwlock(struct cell_vm *vm,
			  const struct cell_comm_bwlock_view *b);

#endif
