// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the runner's exit handler (cells/runner/exit.c) fed
 * forged kvm_run structures while the comm page holds whatever the input
 * says, as a hostile inmate could leave them, without KVM or threads.
 *
 * Input: records of RECORD bytes, each either a write of the inmate into
 * the comm page (which the runner reset first) or one exit of a vCPU.
 * The cell is made running again after every exit that ended it, so
 * later records still reach the handler. Console lines go to /dev/null.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vm_int.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
const char *__lsan_default_suppressions(void);

#define VCPUS		2
#define RECORD		48
#define CONSOLE_GPA	0xf0000000ull
#define CHAN_GPA	0x90000000ull

const char *__lsan_default_suppressions(void)
{
	return "leak:libconfig.so\n";
}

/* The exits the handler knows, and a raw one for the rest. */
static const uint32_t reasons[] = {
	KVM_EXIT_MMIO, KVM_EXIT_IO, KVM_EXIT_HLT, KVM_EXIT_SYSTEM_EVENT,
	KVM_EXIT_SHUTDOWN, KVM_EXIT_FAIL_ENTRY, KVM_EXIT_INTERNAL_ERROR,
};

static struct cell_vm *vm_new(unsigned char *page, bool bwlock,
			      bool no_floor)
{
	struct cell_vm *vm = calloc(1, sizeof(*vm));
	struct cg_cell cell = { .bwlock = bwlock };
	unsigned int i;

	if (!vm)
		return NULL;
	snprintf(vm->name, sizeof(vm->name), "fuzz");
	vm->console = fopen("/dev/null", "w");
	vm->comm = (volatile struct cell_comm *)page;
	vm->console_gpa = CONSOLE_GPA;
	vm->nr_slots = 2;
	vm->slots[0].gpa = 0;
	vm->slots[0].size = 1 << 20;
	/* A reader's window: the writer's region and the peers page. */
	vm->nr_chans = 1;
	snprintf(vm->chans[0].name, sizeof(vm->chans[0].name), "fuzz");
	vm->chans[0].role = CELL_CHAN_READER;
	vm->chans[0].window = CHAN_GPA;
	vm->chans[0].geom.writer_size = 4096;
	vm->slots[1].gpa = CHAN_GPA;
	vm->slots[1].size = 4096 + CHAN_PEERS_SIZE;
	vm->slots[1].kind = CELL_SLOT_CHAN;
	vm->slots[1].readonly = true;
	vm->nr_vcpus = VCPUS;
	vm->storm.rate = CELL_EXIT_RATE_DEFAULT;
	/* The limits' defaults, or none of the level and gap ones. */
	if (no_floor) {
		cell.bwlock_min_level.v = 1;
		cell.bwlock_min_level.line = 1;
		cell.bwlock_min_gap_ms.line = 1;
	}
	pthread_mutex_init(&vm->lock, NULL);
	pthread_cond_init(&vm->cond, NULL);
	cell_bwlock_init(vm, &cell);
	for (i = 0; i < VCPUS; i++) {
		vm->vcpus[i].vm = vm;
		vm->vcpus[i].idx = i;
		vm->vcpus[i].host_cpu = i;
		/* exactly a kvm_run: ASan sees any access past it */
		vm->vcpus[i].run = calloc(1, sizeof(struct kvm_run));
	}
	vm->state = CELL_RUNNING;
	return vm;
}

static void vm_free(struct cell_vm *vm)
{
	unsigned int i;

	for (i = 0; i < VCPUS; i++)
		free(vm->vcpus[i].run);
	cell_bwlock_destroy(vm);
	fclose(vm->console);
	pthread_mutex_destroy(&vm->lock);
	pthread_cond_destroy(&vm->cond);
	free(vm);
}

/* One exit: r[0] vCPU, r[1] reason, r[2..] the exit's fields. */
static void one_exit(struct cell_vm *vm, const unsigned char *r)
{
	struct cell_vcpu *v = &vm->vcpus[r[0] % VCPUS];
	struct kvm_run *run = v->run;
	uint64_t addr;

	memset(run, 0, sizeof(*run));
	run->exit_reason = r[1] < 2 * ARRAY_SIZE(reasons) ?
			   reasons[r[1] % ARRAY_SIZE(reasons)] : r[1];
	memcpy(&addr, r + 8, sizeof(addr));
	switch (r[2] & 3) {	/* aim most MMIO at the registers */
	case 0:
		addr = vm->console_gpa;
		break;
	case 1:
		addr = vm->bwlock_gpa;
		break;
	case 2:		/* a write the read-only window turned into an exit */
		addr = CHAN_GPA + addr % (4096 + CHAN_PEERS_SIZE + 64);
		break;
	}
	run->mmio.phys_addr = addr;
	memcpy(run->mmio.data, r + 16, sizeof(run->mmio.data));
	run->mmio.len = r[3] & 15;
	run->mmio.is_write = r[4] & 1;
	if (run->exit_reason == KVM_EXIT_IO) {
		run->io.direction = r[4] & 1;
		run->io.size = r[3];
		memcpy(&run->io.port, r + 8, sizeof(run->io.port));
		memcpy(&run->io.count, r + 10, sizeof(run->io.count));
	} else if (run->exit_reason == KVM_EXIT_SYSTEM_EVENT) {
		memcpy(&run->system_event.type, r + 8,
		       sizeof(run->system_event.type));
	}
	cell_exit_handle(v);
	/* Ended: run again, so that the next records reach the handler. */
	pthread_mutex_lock(&vm->lock);
	vm->state = CELL_RUNNING;
	pthread_mutex_unlock(&vm->lock);
	vm->bw.ended = 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static unsigned char page[CELL_COMM_SIZE] __attribute__((aligned(4096)));
	struct cell_comm_results results;
	struct cell_comm_fault fault;
	struct cell_stats st;
	struct cell_vm *vm;
	size_t off;

	memset(page, 0, sizeof(page));
	/* The real bandwidth lock only where there is none to take. */
	vm = vm_new(page, size && (data[0] & 1) &&
		    access("/dev/memguard", F_OK), size && (data[0] & 2));
	if (!vm)
		return 0;
	cell_comm_reset(vm);
	for (off = 0; off + RECORD <= size; off += RECORD) {
		const unsigned char *r = data + off;

		if (r[0] & 0x80) {
			/* the inmate writes up to 32 bytes of the comm page */
			size_t at = (r[1] | r[2] << 8) % CELL_COMM_SIZE;
			size_t n = r[3] % 33;

			if (n > CELL_COMM_SIZE - at)
				n = CELL_COMM_SIZE - at;
			memcpy(page + at, r + 16, n);
			continue;
		}
		one_exit(vm, r);
	}
	cell_comm_get_fault(vm, &fault);
	cell_comm_get_results(vm, &results);
	cell_vm_stats(vm, &st);
	vm_free(vm);
	return 0;
}
