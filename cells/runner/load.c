// SPDX-License-Identifier: GPL-2.0
/* Loading a flat binary image into the cell's RAM, bounds checked. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm_int.h"

int cell_vm_load(struct cell_vm *vm, const char *image, uint64_t addr,
		 const char *args, char *why, size_t len)
{
	const struct cell_slot *s = NULL;
	struct stat st;
	unsigned int i;
	size_t done = 0;
	int fd, ret = 0;

	pthread_mutex_lock(&vm->lock);
	if (vm->state == CELL_RUNNING || vm->state == CELL_RUNNING_LOCKED) {
		pthread_mutex_unlock(&vm->lock);
		cell_why(why, len, "cell is %s: shut it down before loading",
			 cell_state_name(vm->state));
		return -EBUSY;
	}
	pthread_mutex_unlock(&vm->lock);
	if (args && strlen(args) >= CELL_COMM_ARGS_MAX) {
		cell_why(why, len, "argument string of %zu bytes, at most %u",
			 strlen(args), CELL_COMM_ARGS_MAX - 1);
		return -E2BIG;
	}
	/* 0: the default, the start of memory[0]. */
	if (!addr)
		addr = vm->slots[0].gpa;
	fd = open(image, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		cell_why(why, len, "%s: %s", image, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
		cell_why(why, len, "%s: not a regular, non-empty file", image);
		close(fd);
		return -EINVAL;
	}
	for (i = 0; i < vm->nr_slots; i++)
		if (vm->slots[i].kind == CELL_SLOT_RAM && addr >= vm->slots[i].gpa &&
		    addr < vm->slots[i].gpa + vm->slots[i].size)
			s = &vm->slots[i];
	if (!s || (uint64_t)st.st_size > s->gpa + s->size - addr) {
		if (s)
			cell_why(why, len, "%s: %lld bytes at 0x%llx do not fit the cell's RAM (0x%llx +0x%llx)",
				 image, (long long)st.st_size,
				 (unsigned long long)addr,
				 (unsigned long long)s->gpa,
				 (unsigned long long)s->size);
		else
			cell_why(why, len, "load address 0x%llx is outside the cell's RAM",
				 (unsigned long long)addr);
		close(fd);
		return -EFBIG;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, (char *)s->host + (addr - s->gpa) + done,
				 st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			cell_why(why, len, "%s: read failed", image);
			close(fd);
			return -EIO;
		}
		done += n;
	}
	close(fd);
	cell_comm_put_args(vm, args);
	pthread_mutex_lock(&vm->lock);
	vm->entry = addr;
	vm->state = CELL_LOADED;
	pthread_mutex_unlock(&vm->lock);
	return 0;
}
