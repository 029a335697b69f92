// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's channels: its ends, opened through the keeper when the VM is
 * created and held until it is destroyed (the keeper sees the cell
 * attached that long); their windows as memslots, read-only wherever the
 * cell may only read; the doorbells as ioeventfds (a writing cell) and
 * irqfds (a reading cell); and the directory page
 * that hands the inmate each channel's geometry from the config.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "channels.h"
#include "vm_int.h"

#define PAGE	4096ull

static int open_one(struct cell_vm *vm, const struct cg_config *cfg,
		    const struct cg_cell *cell, const struct cg_chan_ref *ref,
		    char *why, size_t len)
{
	struct cell_chan_end *e = &vm->chans[vm->nr_chans];
	int ch = cg_chan_find(cfg, ref->name), ret, reader;
	struct chan_geom g;
	char kwhy[160];

	if (ch < 0) {
		cell_why(why, len, "channel \"%s\": not in the config's channels", ref->name);
		return -EINVAL;
	}
	cg_chan_geom(cfg, ch, &g);
	snprintf(e->name, sizeof(e->name), "%s", ref->name);
	e->role = ref->role == CG_CHAN_WRITER ? CELL_CHAN_WRITER : CELL_CHAN_READER;
	e->window = ref->address.v;
	e->geom = g;
	ret = cg_chan_open(NULL, cell->name, ref->name,
			   ref->role == CG_CHAN_WRITER ? CHAN_KEEP_WRITER : CHAN_KEEP_READER,
			   0, 0, &e->end, kwhy, sizeof(kwhy));
	if (ret) {
		cell_why(why, len, "channel \"%s\": %s", ref->name, kwhy);
		return ret;
	}
	vm->nr_chans++;
	/* The keeper must serve the config this cell was made from. */
	if (memcmp(cg_chan_geometry(e->end), &g, sizeof(g))) {
		cell_why(why, len, "channel \"%s\": the keeper's geometry is not this config's (was it started with another?)",
			 ref->name);
		return -EINVAL;
	}
	reader = cg_chan_first_reader(cfg, ch, cell);
	e->index = e->role == CELL_CHAN_READER ? (uint32_t)reader : 0;
	if (e->role == CELL_CHAN_READER && cg_chan_index(e->end) != e->index) {
		cell_why(why, len, "channel \"%s\": the keeper gave reader slot %u, the config says %u",
			 ref->name, cg_chan_index(e->end), e->index);
		return -EINVAL;
	}
	return 0;
}

int cell_chans_open(struct cell_vm *vm, const struct cg_config *cfg,
		    const struct cg_cell *cell, char *why, size_t len)
{
	unsigned int i;
	int ret;

	if (cell->nr_chan_refs > CELL_CHAN_MAX) {
		cell_why(why, len, "%u channels, at most %u", cell->nr_chan_refs,
			 CELL_CHAN_MAX);
		return -EINVAL;
	}
	for (i = 0; i < cell->nr_chan_refs; i++) {
		ret = open_one(vm, cfg, cell, &cell->chan_refs[i], why, len);
		if (ret)
			return ret;
	}
	return 0;
}

static int add_slot(struct cell_vm *vm, unsigned int *i, unsigned int chan,
		    uint64_t gpa, uint64_t size, void *host, bool readonly,
		    char *why, size_t len)
{
	struct cell_slot *s;

	/* One more is kept for the comm page. */
	if (*i + 1 >= CELL_MAX_SLOTS) {
		cell_why(why, len, "more than %u memory slots", CELL_MAX_SLOTS);
		return -E2BIG;
	}
	s = &vm->slots[(*i)++];
	s->gpa = gpa;
	s->size = size;
	s->host = host;
	s->kind = CELL_SLOT_CHAN;
	s->readonly = readonly;
	s->chan = chan;
	return 0;
}

/* The window of end k: region, peers page, feedback pages (cell_chan.h). */
static int add_window(struct cell_vm *vm, unsigned int *i, unsigned int k,
		      char *why, size_t len)
{
	struct cell_chan_end *e = &vm->chans[k];
	const struct cg_chan_mem *m = cg_chan_memory(e->end);
	const struct chan_geom *g = &e->geom;
	bool reader = e->role == CELL_CHAN_READER;
	uint64_t at = e->window;
	unsigned int f;
	int ret;

	ret = add_slot(vm, i, k, at, g->writer_size, m->region, reader, why, len);
	if (ret)
		return ret;
	at += g->writer_size;
	ret = add_slot(vm, i, k, at, CHAN_PEERS_SIZE, (void *)m->peers, true, why, len);
	if (ret)
		return ret;
	at += CHAN_PEERS_SIZE;
	for (f = 0; f < m->nr_feedback; f++) {
		ret = add_slot(vm, i, k, at, g->feedback_size, m->feedback[f], !reader,
			       why, len);
		if (ret)
			return ret;
		at += g->feedback_size;
	}
	return 0;
}

int cell_chans_add_slots(struct cell_vm *vm, unsigned int *i, char *why,
			 size_t len)
{
	unsigned int k;
	int ret;

	if (!vm->nr_chans)
		return 0;
	/* The directory: the page below the comm page, mapped by mem.c. */
	vm->chan_dir_gpa = vm->comm_gpa - PAGE;
	vm->slots[*i].gpa = vm->chan_dir_gpa;
	vm->slots[*i].size = PAGE;
	vm->slots[*i].kind = CELL_SLOT_CHAN_DIR;
	(*i)++;
	for (k = 0; k < vm->nr_chans; k++) {
		ret = add_window(vm, i, k, why, len);
		if (ret)
			return ret;
	}
	return 0;
}

int cell_chans_doorbells(struct cell_vm *vm, char *why, size_t len)
{
	unsigned int k, r;

	for (k = 0; k < vm->nr_chans; k++) {
		struct cell_chan_end *e = &vm->chans[k];
		const struct cg_chan_mem *m = cg_chan_memory(e->end);

		if (e->role != CELL_CHAN_WRITER || !(e->geom.flags & CHAN_F_DOORBELL))
			continue;
		e->doorbell = vm->console_gpa + CELL_DOORBELL_REG_OFFSET +
			      (uint64_t)k * CELL_DOORBELL_REG_STRIDE;
		for (r = 0; r < m->nr_doorbell; r++) {
			struct kvm_ioeventfd io = {
				.datamatch = r,
				.addr = e->doorbell,
				.len = CELL_DOORBELL_REG_SIZE,
				.fd = m->doorbell[r],
				.flags = KVM_IOEVENTFD_FLAG_DATAMATCH,
			};

			if (ioctl(vm->vm_fd, KVM_IOEVENTFD, &io)) {
				cell_why(why, len, "channel \"%s\": KVM_IOEVENTFD for reader %u: %s",
					 e->name, r, strerror(errno));
				return -errno;
			}
		}
	}
	return 0;
}

int cell_chans_reader_irqs(struct cell_vm *vm, char *why, size_t len)
{
	uint32_t mask = 0;
	unsigned int k;
	int ret;

	for (k = 0; k < vm->nr_chans; k++)
		if (vm->chans[k].role == CELL_CHAN_READER &&
		    (vm->chans[k].geom.flags & CHAN_F_DOORBELL))
			mask |= 1u << k;
	if (!mask)
		return 0;
	ret = cell_arch_doorbell_routes(vm, mask, why, len);
	if (ret)
		return ret;
	for (k = 0; k < vm->nr_chans; k++) {
		struct cell_chan_end *e = &vm->chans[k];
		const struct cg_chan_mem *m = cg_chan_memory(e->end);
		struct kvm_irqfd irqfd = { .gsi = k };

		if (!(mask & (1u << k)) || m->nr_doorbell < 1)
			continue;
		irqfd.fd = m->doorbell[0];
		if (ioctl(vm->vm_fd, KVM_IRQFD, &irqfd)) {
			cell_why(why, len, "channel \"%s\": KVM_IRQFD for its doorbell: %s",
				 e->name, strerror(errno));
			return -errno;
		}
		e->irq = cell_arch_doorbell_irq(k);
	}
	return 0;
}

void cell_chans_dir_write(struct cell_vm *vm)
{
	struct cell_chan_dir *d = vm->chan_dir;
	unsigned int k;

	if (!d)
		return;
	memset(d, 0, PAGE);
	for (k = 0; k < vm->nr_chans; k++) {
		const struct cell_chan_end *e = &vm->chans[k];
		struct cell_chan_entry *o = &d->entry[k];

		snprintf(o->name, sizeof(o->name), "%s", e->name);
		o->role = e->role;
		o->index = e->index;
		o->window = e->window;
		o->doorbell = e->doorbell;
		o->irq = e->irq;
		o->geom = e->geom;
	}
	d->nr = vm->nr_chans;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	memcpy(d->signature, CELL_CHAN_SIGNATURE, sizeof(d->signature));
}

bool cell_chans_describe(struct cell_vm *vm, uint64_t gpa, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < vm->nr_slots; i++) {
		const struct cell_slot *s = &vm->slots[i];
		const struct cell_chan_end *e;
		uint64_t off;

		if (s->kind != CELL_SLOT_CHAN || gpa < s->gpa || gpa - s->gpa >= s->size)
			continue;
		e = &vm->chans[s->chan];
		off = gpa - e->window;
		snprintf(buf, len, "channel \"%s\"'s read-only %s", e->name,
			 off < e->geom.writer_size ? "region of the writer" :
			 off < e->geom.writer_size + CHAN_PEERS_SIZE ? "peers page" :
			 "feedback page of a reader");
		return true;
	}
	return false;
}

void cell_chans_close(struct cell_vm *vm)
{
	unsigned int k;

	for (k = 0; k < vm->nr_chans; k++) {
		cg_chan_close(vm->chans[k].end);
		vm->chans[k].end = NULL;
	}
	vm->nr_chans = 0;
}
