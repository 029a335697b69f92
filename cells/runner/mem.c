// SPDX-License-Identifier: GPL-2.0
/*
 * Guest RAM of a cell: one mapping of /dev/mm-color per memory region, one
 * for the channel directory if the cell has channels, and one for the comm
 * page (followed on x86 by the runner's GDT and page tables), all with the
 * cell's colors, prefaulted here so
 * that the running cell takes no first-touch fault; and the check of
 * where those pages really are (/proc/self/pagemap).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <colorguard/hv_color.h>
#include <colorguard/mm_color.h>

#include "vm_int.h"

#define MMC_SYSFS	"/sys/kernel/mm/color"
#define PAGE		4096ull

static int read_sysfs(const char *file, char *buf, size_t len)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), MMC_SYSFS "/%s", file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int parse_mask(const char *list, unsigned int nbits, struct hvc_mask *m)
{
	return hvc_mask_parse(m, list, strlen(list), nbits, NULL);
}

/* Free pages of the mask's colors in mm-color's pool. */
static uint64_t free_pages_of(const struct hvc_mask *m, unsigned int nr_colors)
{
	uint64_t sum = 0;
	unsigned int c;
	char f[32], buf[32];

	for (c = 0; c < nr_colors; c++) {
		if (!hvc_mask_test(m, c))
			continue;
		snprintf(f, sizeof(f), "free/%u", c);
		if (!read_sysfs(f, buf, sizeof(buf)))
			sum += strtoull(buf, NULL, 10);
	}
	return sum;
}

/* The config's colors must mean what mm-color's colors mean. */
static int same_geometry(const struct cg_config *cfg,
			 const struct mm_color_info *info, char *why,
			 size_t len)
{
	const struct cg_llc *l = &cfg->llc;
	uint64_t way = l->way_size.v, ppc = l->pages_per_color.v ?
		l->pages_per_color.v : 1, colors;

	if (!l->line)
		return 0;	/* geometry from this machine's sysfs */
	if (!way && l->size.v && l->ways.v)
		way = l->size.v / l->ways.v;
	if (!way && l->sets.v)
		way = l->sets.v * (l->line_size.v ? l->line_size.v : 64);
	if (!way)
		return 0;
	colors = way / (PAGE * ppc);
	if (ppc != 1 || colors != info->nr_colors) {
		cell_why(why, len,
			 "the config's LLC gives %llu colors, mm-color has %u (way %llu B): write the config's geometry first (colorguard apply)",
			 (unsigned long long)colors, info->nr_colors,
			 (unsigned long long)info->way_size);
		return -EINVAL;
	}
	return 0;
}

static __thread sigjmp_buf *touch_env;

static void sigbus(int sig)
{
	(void)sig;
	if (touch_env)
		siglongjmp(*touch_env, 1);
	abort();
}

/* Touch every page once: mm-color allocates on fault, SIGBUS if it cannot. */
static int prefault(void *p, uint64_t size)
{
	struct sigaction sa = { .sa_handler = sigbus }, old;
	volatile int failed = 0;
	sigjmp_buf env;
	uint64_t off;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old);
	touch_env = &env;
	if (sigsetjmp(env, 1))
		failed = 1;
	else
		for (off = 0; off < size; off += PAGE)
			((volatile char *)p)[off] = 0;
	touch_env = NULL;
	sigaction(SIGBUS, &old, NULL);
	return failed ? -ENOMEM : 0;
}

static void *map_slot(struct cell_vm *vm, uint64_t size)
{
	void *p;

	if (vm->no_color)
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	else
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 vm->mmc_fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

static const char *slot_what(const struct cell_slot *s)
{
	switch (s->kind) {
	case CELL_SLOT_COMM:
		return "comm page (and page tables)";
	case CELL_SLOT_CHAN_DIR:
		return "channel directory (below the comm page)";
	case CELL_SLOT_CHAN:
		return "channel window";
	default:
		return "memory";
	}
}

/*
 * Regions, the channel directory and windows, the comm page, the console
 * and the registers after it (bandwidth lock, stop, doorbells) must not
 * overlap one another; the registers share the console's 2 MiB page,
 * which each arch maps as device memory (so its 1 GiB block too).
 */
static int check_layout(struct cell_vm *vm, char *why, size_t len)
{
	const uint64_t mib2 = 2ull << 20;
	unsigned int i, j;

	if (vm->console_gpa / mib2 !=
	    (vm->console_gpa + CELL_DEVICE_REGS_SIZE - 1) / mib2) {
		cell_why(why, len, "console 0x%llx: the registers up to console + %u would leave its 2 MiB page",
			 (unsigned long long)vm->console_gpa,
			 CELL_DEVICE_REGS_SIZE);
		return -EINVAL;
	}
	for (i = 0; i < vm->nr_slots; i++) {
		const struct cell_slot *a = &vm->slots[i];

		if (a->gpa + a->size < a->gpa || a->gpa + a->size > (1ull << 48)) {
			cell_why(why, len, "memory at 0x%llx +0x%llx: beyond the 48-bit guest address space",
				 (unsigned long long)a->gpa,
				 (unsigned long long)a->size);
			return -EINVAL;
		}
		if (overlaps(a->gpa, a->size, vm->console_gpa,
			     CELL_DEVICE_REGS_SIZE)) {
			cell_why(why, len, "console 0x%llx (or a register after it) lies in guest RAM 0x%llx +0x%llx",
				 (unsigned long long)vm->console_gpa,
				 (unsigned long long)a->gpa,
				 (unsigned long long)a->size);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			const struct cell_slot *b = &vm->slots[j];

			if (!overlaps(a->gpa, a->size, b->gpa, b->size))
				continue;
			cell_why(why, len, "%s 0x%llx +0x%llx overlaps memory 0x%llx +0x%llx",
				 slot_what(a),
				 (unsigned long long)a->gpa,
				 (unsigned long long)a->size,
				 (unsigned long long)b->gpa,
				 (unsigned long long)b->size);
			return -EINVAL;
		}
	}
	return cell_arch_check_layout(vm, why, len);
}

int cell_mem_create(struct cell_vm *vm, const struct cg_cell *cell,
		    char *why, size_t len)
{
	struct mm_color_info info = { 0 };
	struct mm_color_list ml;
	struct hvc_mask mask;
	uint64_t need = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < cell->nr_regions; i++) {
		const struct cg_region *r = &cell->regions[i];
		struct cell_slot *s = &vm->slots[i];

		if (!r->colored) {
			cell_why(why, len,
				 "memory[%u]: uncolored regions are for a real hypervisor; the KVM runner maps only colored memory",
				 i);
			return -EINVAL;
		}
		s->gpa = r->virt.line ? r->virt.v : r->phys.v;
		s->size = r->size.v;
		s->kind = CELL_SLOT_RAM;
		if ((s->gpa | s->size) & (PAGE - 1)) {
			cell_why(why, len, "memory[%u]: virt 0x%llx and size 0x%llx must be page aligned",
				 i, (unsigned long long)s->gpa,
				 (unsigned long long)s->size);
			return -EINVAL;
		}
		need += s->size / PAGE;
	}
	ret = cell_chans_add_slots(vm, &i, why, len);
	if (ret)
		return ret;
	if (vm->nr_chans)
		need++;		/* the directory */
	vm->slots[i].gpa = vm->comm_gpa;
	vm->slots[i].size = PAGE;
	vm->slots[i].kind = CELL_SLOT_COMM;
	vm->nr_slots = i + 1;
	vm->slots[i].size += cell_arch_extra_pages(vm) * PAGE;
	need += vm->slots[i].size / PAGE;
	ret = check_layout(vm, why, len);
	if (ret)
		return ret;

	if (!vm->no_color) {
		vm->mmc_fd = open("/dev/mm-color", O_RDWR | O_CLOEXEC);
		if (vm->mmc_fd < 0) {
			ret = -errno;
			cell_why(why, len, "cannot open /dev/mm-color: %s (is mm_color.ko loaded?)",
				 strerror(-ret));
			return ret;
		}
		if (ioctl(vm->mmc_fd, MM_COLOR_GET_INFO, &info) ||
		    !info.nr_colors) {
			cell_why(why, len, "mm-color has no geometry");
			return -ENODEV;
		}
		ret = same_geometry(vm->cfg, &info, why, len);
		if (ret)
			return ret;
		ml.addr = (uintptr_t)vm->colors;
		ml.len = strlen(vm->colors);
		ml.flags = 0;
		if (ioctl(vm->mmc_fd, MM_COLOR_SET_LIST, &ml)) {
			ret = -errno;
			cell_why(why, len, "colors %s: %s (mm-color has %u colors)",
				 vm->colors, strerror(-ret), info.nr_colors);
			return ret;
		}
		if (parse_mask(vm->colors, info.nr_colors, &mask) ||
		    free_pages_of(&mask, info.nr_colors) < need) {
			cell_why(why, len, "colors %s have %llu free pages in mm-color's pool, the cell needs %llu",
				 vm->colors,
				 (unsigned long long)free_pages_of(&mask, info.nr_colors),
				 (unsigned long long)need);
			return -ENOMEM;
		}
	}
	for (i = 0; i < vm->nr_slots; i++) {
		struct cell_slot *s = &vm->slots[i];

		if (s->kind == CELL_SLOT_CHAN)	/* the keeper's, mapped by chan.c */
			continue;
		s->host = map_slot(vm, s->size);
		if (!s->host) {
			ret = -errno;
			cell_why(why, len, "mmap of %llu KiB of colors %s: %s",
				 (unsigned long long)(s->size >> 10), vm->colors,
				 strerror(-ret));
			return ret;
		}
		if (prefault(s->host, s->size)) {
			cell_why(why, len, "mm-color ran out of pages of colors %s while prefaulting",
				 vm->colors);
			return -ENOMEM;
		}
	}
	vm->comm = vm->slots[vm->nr_slots - 1].host;
	if (vm->nr_chans)
		vm->chan_dir = vm->slots[cell->nr_regions].host;
	return 0;
}

void cell_mem_destroy(struct cell_vm *vm)
{
	unsigned int i;

	for (i = 0; i < vm->nr_slots; i++) {
		if (vm->slots[i].host && vm->slots[i].kind != CELL_SLOT_CHAN)
			munmap(vm->slots[i].host, vm->slots[i].size);
		vm->slots[i].host = NULL;
	}
	vm->comm = NULL;
	vm->chan_dir = NULL;
	if (vm->mmc_fd >= 0)
		close(vm->mmc_fd);
	vm->mmc_fd = -1;
}

int cell_mem_check(struct cell_vm *vm, const char *list, uint64_t *total,
		   uint64_t *in_mask, uint64_t *in_root, char *why, size_t len)
{
	struct hvc_geometry g;
	struct hvc_mask mask, root;
	char buf[CG_LIST_MAX + 1];
	uint64_t way, t = 0, in = 0, inr = 0;
	unsigned int i;
	int fd, ret;

	way = read_sysfs("way_size", buf, sizeof(buf)) ? 0 :
	      strtoull(buf, NULL, 10);
	if (!way || hvc_geometry_from_way_size(&g, way, 0, 0, 12, 1)) {
		cell_why(why, len, "no geometry in " MMC_SYSFS "/way_size");
		return -ENODEV;
	}
	if (!list)
		list = vm->colors;
	if (parse_mask(list, g.nr_colors, &mask)) {
		cell_why(why, len, "colors %s: not a list of colors below %u",
			 list, g.nr_colors);
		return -EINVAL;
	}
	hvc_mask_zero(&root);
	if (!read_sysfs("root_colors", buf, sizeof(buf)))
		parse_mask(buf, g.nr_colors, &root);
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		cell_why(why, len, "/proc/self/pagemap: %s", strerror(-ret));
		return ret;
	}
	for (i = 0; i < vm->nr_slots; i++) {
		const struct cell_slot *s = &vm->slots[i];
		uint64_t off;

		/* Channel pages are in the channel's comm colors, not the cell's. */
		if (s->kind == CELL_SLOT_CHAN)
			continue;
		for (off = 0; off < s->size; off += PAGE) {
			uint64_t e, pfn;
			off_t at = ((uintptr_t)s->host + off) / PAGE * 8;

			if (pread(fd, &e, 8, at) != 8) {
				close(fd);
				cell_why(why, len, "pagemap read failed");
				return -EIO;
			}
			t++;
			pfn = e & ((1ull << 55) - 1);
			/* Not present, or no PFN shown (needs CAP_SYS_ADMIN). */
			if (!(e >> 63) || !pfn)
				continue;
			in += hvc_mask_test(&mask, hvc_color_of_pfn(&g, pfn));
			inr += hvc_mask_test(&root, hvc_color_of_pfn(&g, pfn));
		}
	}
	close(fd);
	*total = t;
	*in_mask = in;
	*in_root = inr;
	return 0;
}
