// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile test inmate for a cell of two CPUs: vCPU 1 keeps rewriting a
 * comm field the runner reads while vCPU 0 stops the cell, so that a
 * runner that reads a field twice sees two values.
 * field=fault_cpu (default): vCPU 0 reports a fault, vCPU 1 flips
 * fault_cpu between 0 and 0xffffffff. field=state: vCPU 1 flips
 * inmate_state between DONE, FAILED and garbage. field=reason: vCPU 0
 * reports a fault, vCPU 1 flips fault_reason between a short line and
 * 63 bytes of escape sequences and newlines without a NUL.
 */
#include "inmate.h"

enum field { FAULT_CPU, STATE, REASON };

static enum field field;
static volatile uint32_t flipping;

static void reason_set(int hostile)
{
	unsigned int i;

	for (i = 0; i < sizeof(comm->fault_reason); i++)
		comm->fault_reason[i] = hostile ? "\033[2J\n\r"[i % 6] : 0;
	if (!hostile)
		memcpy((void *)comm->fault_reason, "race", 5);
}

/*
 * Tight loops, one per field: the shorter a flip, the likelier it falls
 * between two reads of the runner.
 */
static void flip_cpu(void)
{
	volatile uint32_t *cpu = &comm->fault_cpu;

	flipping = 1;
	for (;;) {
		/* 64 flips a loop: fewer jumps, more flips a second */
#if defined(__aarch64__)
		asm volatile(".rept 64\n\tstr wzr, [%0]\n\tstr %w1, [%0]\n\t.endr"
			     :: "r"(cpu), "r"(0xffffffffu) : "memory");
#else
		asm volatile(".rept 64\n\tmovl $0, (%0)\n\tmovl $-1, (%0)\n\t.endr"
			     :: "r"(cpu) : "memory");
#endif
	}
}

static void flip_state(void)
{
	volatile uint32_t *state = &comm->inmate_state;

	flipping = 1;
	for (;;) {
		*state = CELL_INMATE_DONE;
		*state = CELL_INMATE_FAILED;
		*state = 0x5a5a5a5a;
	}
}

static void flip_reason(void)
{
	unsigned int i;

	flipping = 1;
	for (i = 0;; i++)
		reason_set(i & 1);
}

int inmate_main(void)
{
	uint64_t spin = arg_u64("spin", 20000);
	char name[16] = "fault_cpu";
	volatile uint64_t n;

	arg_str("field", name, sizeof(name));
	field = !strncmp(name, "state", 6) ? STATE :
		!strncmp(name, "reason", 7) ? REASON : FAULT_CPU;
	comm->fault_info[0] = 0x5ace;
	reason_set(0);
	if (smp_start_cpu(1, field == STATE ? flip_state :
			  field == REASON ? flip_reason : flip_cpu)) {
		iprintf("race: no vCPU 1\n");
		return 1;
	}
	while (!flipping)
		;
	for (n = 0; n < spin; n++)
		;
	if (field != STATE)
		comm->inmate_state = CELL_INMATE_FAILED;
	mb();		/* the state before the stop */
	arch_stop();
}
