// SPDX-License-Identifier: GPL-2.0
/*
 * The cell VM's life: create (KVM VM, colored RAM, memslots, vCPUs),
 * states, stats, destroy. See cell_vm.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <colorguard/hv_color.h>

#include "vm_int.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

uint64_t cell_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

bool cell_new_second(uint64_t *start, uint64_t now)
{
	if (now - *start < 1000000000ull)
		return false;
	*start = now;
	return true;
}

void cell_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

const char *cell_state_name(enum cell_state s)
{
	static const char *const names[] = {
		[CELL_CREATED] = "created",
		[CELL_LOADED] = "loaded",
		[CELL_RUNNING] = "running",
		[CELL_RUNNING_LOCKED] = "running/locked",
		[CELL_SHUT_DOWN] = "shut down",
		[CELL_FAILED] = "failed",
	};

	return (unsigned int)s < ARRAY_SIZE(names) ? names[s] : "unknown";
}

/* The cell's CPUs, in order: one vCPU each. */
static int cell_cpus(struct cell_vm *vm, const struct cg_cell *cell,
		     char *why, size_t len)
{
	struct hvc_mask m;
	unsigned int c;

	if (hvc_mask_parse(&m, cell->cpus.s, strlen(cell->cpus.s),
			   HVC_MAX_CPUS, NULL) || hvc_mask_empty(&m)) {
		cell_why(why, len, "cpus \"%s\": not a CPU list", cell->cpus.s);
		return -EINVAL;
	}
	if (hvc_mask_weight(&m) > CELL_MAX_VCPUS) {
		cell_why(why, len, "%u CPUs, the runner takes at most %u",
			 hvc_mask_weight(&m), CELL_MAX_VCPUS);
		return -EINVAL;
	}
	for (c = hvc_mask_next(&m, 0); c < HVC_MAX_CPUS;
	     c = hvc_mask_next(&m, c + 1))
		vm->vcpus[vm->nr_vcpus++].host_cpu = c;
	return 0;
}

/* The KVM this runner was written against, and what it relies on. */
static const struct cell_kvm_cap common_caps[] = {
	{ KVM_CAP_USER_MEMORY, "KVM_CAP_USER_MEMORY" },
	{ KVM_CAP_IMMEDIATE_EXIT, "KVM_CAP_IMMEDIATE_EXIT" },
	{ 0, NULL }
};

static int missing_cap(struct cell_vm *vm, const struct cell_kvm_cap *caps,
		       char *why, size_t len)
{
	for (; caps->name; caps++) {
		if (ioctl(vm->kvm_fd, KVM_CHECK_EXTENSION, caps->cap) > 0)
			continue;
		cell_why(why, len, "KVM lacks %s, which the runner needs",
			 caps->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int check_kvm(struct cell_vm *vm, char *why, size_t len)
{
	int v = ioctl(vm->kvm_fd, KVM_GET_API_VERSION, 0);
	int max;

	if (v != KVM_API_VERSION) {
		cell_why(why, len, "KVM API version %d, the runner speaks %d",
			 v, KVM_API_VERSION);
		return -EOPNOTSUPP;
	}
	if (missing_cap(vm, common_caps, why, len) ||
	    missing_cap(vm, cell_arch_caps, why, len))
		return -EOPNOTSUPP;
	max = ioctl(vm->kvm_fd, KVM_CHECK_EXTENSION, KVM_CAP_MAX_VCPUS);
	if (max <= 0)
		max = ioctl(vm->kvm_fd, KVM_CHECK_EXTENSION, KVM_CAP_NR_VCPUS);
	if (max > 0 && vm->nr_vcpus > (unsigned int)max) {
		cell_why(why, len, "%u vCPUs, KVM takes at most %d",
			 vm->nr_vcpus, max);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int create_vcpus(struct cell_vm *vm, char *why, size_t len)
{
	unsigned int i;
	int ret;

	vm->run_size = ioctl(vm->kvm_fd, KVM_GET_VCPU_MMAP_SIZE, 0);
	if ((long)vm->run_size <= 0) {
		cell_why(why, len, "KVM_GET_VCPU_MMAP_SIZE: %s", strerror(errno));
		return -errno;
	}
	for (i = 0; i < vm->nr_vcpus; i++) {
		struct cell_vcpu *v = &vm->vcpus[i];
		void *run;

		v->vm = vm;
		v->idx = i;
		v->fd = ioctl(vm->vm_fd, KVM_CREATE_VCPU, i);
		if (v->fd < 0) {
			ret = -errno;
			cell_why(why, len, "KVM_CREATE_VCPU %u: %s", i,
				 strerror(-ret));
			return ret;
		}
		run = mmap(NULL, vm->run_size, PROT_READ | PROT_WRITE,
			   MAP_SHARED, v->fd, 0);
		if (run == MAP_FAILED) {
			ret = -errno;
			cell_why(why, len, "mmap of kvm_run: %s", strerror(-ret));
			return ret;
		}
		v->run = run;
		ret = cell_arch_vcpu_init(vm, v, why, len);
		if (ret)
			return ret;
	}
	return cell_arch_vcpus_created(vm, why, len);
}

static int set_memslots(struct cell_vm *vm, char *why, size_t len)
{
	unsigned int i;
	int ret;

	for (i = 0; i < vm->nr_slots; i++) {
		struct kvm_userspace_memory_region r = {
			.slot = i,
			.guest_phys_addr = vm->slots[i].gpa,
			.memory_size = vm->slots[i].size,
			.userspace_addr = (uintptr_t)vm->slots[i].host,
			.flags = vm->slots[i].readonly ? KVM_MEM_READONLY : 0,
		};

		if (ioctl(vm->vm_fd, KVM_SET_USER_MEMORY_REGION, &r)) {
			ret = -errno;
			cell_why(why, len, "KVM_SET_USER_MEMORY_REGION 0x%llx +0x%llx%s: %s",
				 (unsigned long long)r.guest_phys_addr,
				 (unsigned long long)r.memory_size,
				 r.flags ? " read-only" : "", strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int cell_vm_create_opts(const struct cg_config *cfg,
			const struct cg_cell *cell,
			const struct cell_vm_opts *opts, struct cell_vm **out,
			char *why, size_t len)
{
	uint64_t t0 = cell_now_ns();
	pthread_condattr_t cattr;
	struct cell_vm *vm;
	int ret;

	*out = NULL;
	if (cell->type == CG_CELL_ROOT) {
		cell_why(why, len, "cell \"%s\" is the root cell: root Linux itself, not a KVM cell",
			 cell->name);
		return -EINVAL;
	}
	vm = calloc(1, sizeof(*vm));
	if (!vm) {
		cell_why(why, len, "out of memory");
		return -ENOMEM;
	}
	vm->kvm_fd = -1;
	vm->vm_fd = -1;
	vm->mmc_fd = -1;
	vm->irqchip_fd = -1;
	vm->failed_cpu = -1;
	vm->cfg = cfg;
	vm->no_color = opts && opts->no_color;
	vm->console = opts && opts->console ? opts->console : stdout;
	if (opts && opts->log_path)
		snprintf(vm->con.log_path, sizeof(vm->con.log_path), "%s",
			 opts->log_path);
	if (opts && opts->vcpu_threads)
		snprintf(vm->vcpu_threads, sizeof(vm->vcpu_threads), "%s",
			 opts->vcpu_threads);
	vm->vcpu_priority = cell->vcpu_priority.line ? cell->vcpu_priority.v : 0;
	vm->con.off = cell->console_output_line && !cell->console_output;
	vm->storm.rate = cell->exit_rate.line ? cell->exit_rate.v :
			 CELL_EXIT_RATE_DEFAULT;
	snprintf(vm->name, sizeof(vm->name), "%s", cell->name);
	snprintf(vm->colors, sizeof(vm->colors), "%s", cell->colors.s);
	vm->comm_gpa = cell->comm.line ? cell->comm.v : CELL_COMM_DEFAULT_ADDR;
	vm->console_gpa = cell->console.line ? cell->console.v :
			  cell_arch_console_default();
	vm->stop_gpa = vm->console_gpa + CELL_STOP_REG_OFFSET;
	cell_bwlock_init(vm, cell);
	pthread_mutex_init(&vm->lock, NULL);
	pthread_mutex_init(&vm->kick_lock, NULL);
	pthread_mutex_init(&vm->join_lock, NULL);
	pthread_condattr_init(&cattr);
	/* Timed waits must not move with the wall clock. */
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&vm->cond, &cattr);
	pthread_condattr_destroy(&cattr);

	ret = cell_cpus(vm, cell, why, len);
	if (ret)
		goto fail;
	ret = cell_bwlock_watch_start(vm, why, len);
	if (ret)
		goto fail;
	vm->kvm_fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (vm->kvm_fd < 0) {
		ret = -errno;
		cell_why(why, len, "cannot open /dev/kvm: %s", strerror(-ret));
		goto fail;
	}
	ret = check_kvm(vm, why, len);
	if (ret)
		goto fail;
	vm->vm_fd = ioctl(vm->kvm_fd, KVM_CREATE_VM, 0);
	if (vm->vm_fd < 0) {
		ret = -errno;
		cell_why(why, len, "KVM_CREATE_VM: %s", strerror(-ret));
		goto fail;
	}
	ret = cell_chans_open(vm, cfg, cell, why, len);
	if (ret)
		goto fail;
	ret = cell_mem_create(vm, cell, why, len);
	if (ret)
		goto fail;
	ret = cell_arch_vm_init(vm, why, len);
	if (ret)
		goto fail;
	ret = set_memslots(vm, why, len);
	if (ret)
		goto fail;
	ret = cell_chans_doorbells(vm, why, len);
	if (ret)
		goto fail;
	ret = create_vcpus(vm, why, len);
	if (ret)
		goto fail;
	ret = cell_chans_reader_irqs(vm, why, len);
	if (ret)
		goto fail;
	vm->cfg = NULL;
	vm->state = CELL_CREATED;
	vm->create_ns = cell_now_ns() - t0;
	if (!vm->no_color || !access("/sys/kernel/mm/color/way_size", R_OK))
		cell_mem_check(vm, NULL, &vm->pages_total, &vm->pages_in_colors,
			       &vm->pages_in_root, NULL, 0);
	*out = vm;
	return 0;
fail:
	vm->cfg = NULL;
	cell_vm_destroy(vm);
	return ret;
}

int cell_vm_create(const struct cg_config *cfg, const struct cg_cell *cell,
		   struct cell_vm **vm, char *why, size_t why_len)
{
	return cell_vm_create_opts(cfg, cell, NULL, vm, why, why_len);
}

void cell_vm_stats(struct cell_vm *vm, struct cell_stats *st)
{
	unsigned int i;

	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&vm->lock);
	st->state = vm->state;
	st->nr_cpus = vm->nr_vcpus;
	for (i = 0; i < vm->nr_vcpus; i++)
		st->cpus[i] = vm->vcpus[i].host_cpu;
	memcpy(st->exits, vm->exits, sizeof(st->exits));
	if (vm->t_start)
		st->run_ns = (vm->t_stop ? vm->t_stop : cell_now_ns()) -
			     vm->t_start;
	for (i = 0; i < vm->nr_slots; i++)
		if (!vm->no_color && vm->slots[i].kind != CELL_SLOT_CHAN)
			st->mem_bytes += vm->slots[i].size;
	st->failed_cpu = vm->failed_cpu;
	snprintf(st->failure, sizeof(st->failure), "%s", vm->failure);
	st->create_ns = vm->create_ns;
	st->pages_total = vm->pages_total;
	st->pages_in_colors = vm->pages_in_colors;
	st->pages_in_root = vm->pages_in_root;
	pthread_mutex_unlock(&vm->lock);
	cell_bwlock_stats(vm, st);
}

int cell_vm_check_colors(struct cell_vm *vm, const char *mask,
			 uint64_t *total, uint64_t *in_mask, uint64_t *in_root,
			 char *why, size_t why_len)
{
	return cell_mem_check(vm, mask, total, in_mask, in_root, why, why_len);
}

unsigned int cell_vm_inmate_state(struct cell_vm *vm)
{
	return cell_comm_get_inmate_state(vm);
}

void cell_vm_destroy(struct cell_vm *vm)
{
	unsigned int i;

	if (!vm)
		return;
	cell_vcpus_stop(vm);
	cell_bwlock_watch_stop(vm);
	cell_bwlock_destroy(vm);
	for (i = 0; i < vm->nr_vcpus; i++) {
		struct cell_vcpu *v = &vm->vcpus[i];

		if (v->run)
			munmap(v->run, vm->run_size);
		if (v->fd > 0)
			close(v->fd);
	}
	/* The device holds a reference to the VM: close it first. */
	if (vm->irqchip_fd >= 0)
		close(vm->irqchip_fd);
	if (vm->vm_fd >= 0)
		close(vm->vm_fd);
	if (vm->kvm_fd >= 0)
		close(vm->kvm_fd);
	/* After the VM: KVM drops its page references with the memslots. */
	cell_mem_destroy(vm);
	cell_chans_close(vm);
	pthread_mutex_destroy(&vm->lock);
	pthread_mutex_destroy(&vm->kick_lock);
	pthread_mutex_destroy(&vm->join_lock);
	pthread_cond_destroy(&vm->cond);
	free(vm);
}
