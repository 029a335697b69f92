// SPDX-License-Identifier: GPL-2.0
/*
 * qemureplay DEV SIZE_MB COLORS [hold]: a replay, not QEMU itself, of the
 * system calls QEMU 7.2 makes for
 *   -object memory-backend-file,mem-path=DEV,size=SIZE,share=on,prealloc=on
 * (Debian 12's QEMU is not in the test guest): open(O_RDWR); fstat and
 * lseek(SEEK_END) for the file's size (a character device reads 0);
 * ftruncate to the size, whose failure QEMU only warns about; a
 * PROT_NONE anonymous reservation, then mmap(MAP_SHARED | MAP_FIXED) of
 * the file over it; prealloc: MADV_POPULATE_WRITE, and on EINVAL the
 * fallback that reads and writes back one byte per page. Then checks
 * every page's color in /proc/self/pagemap against COLORS (a list), a
 * second mapping beyond the preset's size (ENOMEM) and a mask change
 * (EPERM). Prints one "ok"/"not ok" line per point (TAP bodies for the
 * caller). With hold: closes the file, keeps the mapping, writes
 * "qemureplay.held" and waits for "qemureplay.release" to exist.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <colorguard/mm_color.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static int in_list(const char *list, unsigned long c)
{
	const char *p = list;

	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (c >= a && c <= b)
			return 1;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	size_t size, page = (size_t)sysconf(_SC_PAGESIZE), align = 2 << 20;
	unsigned long nr_colors, in = 0, i, pages;
	struct mm_color_list req;
	char *reserve, *area, *extra;
	struct stat st;
	off_t end;
	int fd, pm, ret, fails = 0;
	FILE *f;

	if (argc < 4)
		return 2;
	/* The caller reads the lines while we hold the mapping. */
	setvbuf(stdout, NULL, _IONBF, 0);
	size = strtoul(argv[2], NULL, 10) << 20;
	pages = size / page;
	f = fopen("/sys/kernel/mm/color/nr_colors", "r");
	if (!f || fscanf(f, "%lu", &nr_colors) != 1 || !nr_colors)
		return 2;
	fclose(f);

	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		printf("not ok open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (fstat(fd, &st) || !S_ISCHR(st.st_mode))
		fails++;
	end = lseek(fd, 0, SEEK_END);
	printf("%s fstat: character device; lseek(SEEK_END) = %lld (QEMU: size unknown)\n",
	       S_ISCHR(st.st_mode) && end == 0 ? "ok" : "not ok", (long long)end);
	ret = ftruncate(fd, (off_t)size);
	printf("ok ftruncate: %s (QEMU only warns)\n", ret ? strerror(errno) : "done");

	reserve = mmap(NULL, size + align, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (reserve == MAP_FAILED)
		return 1;
	area = (char *)(((uintptr_t)reserve + align - 1) & ~(uintptr_t)(align - 1));
	area = mmap(area, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		    fd, 0);
	if (area == MAP_FAILED) {
		printf("not ok mmap(MAP_SHARED | MAP_FIXED) of %zu bytes: %s\n",
		       size, strerror(errno));
		return 1;
	}
	printf("ok mmap(MAP_SHARED | MAP_FIXED) of %zu MiB over the reservation\n",
	       size >> 20);

	ret = madvise(area, page, MADV_POPULATE_WRITE);
	printf("%s MADV_POPULATE_WRITE: %s (EINVAL: QEMU falls back to touching pages; another error would fail it)\n",
	       !ret || errno == EINVAL ? "ok" : "not ok",
	       ret ? strerror(errno) : "worked");
	for (i = 0; i < pages; i++) {
		volatile char *p = area + i * page;

		*p = *p;
	}

	pm = open("/proc/self/pagemap", O_RDONLY);
	for (i = 0; pm >= 0 && i < pages; i++) {
		uint64_t e;

		if (pread(pm, &e, 8, (off_t)((uintptr_t)(area + i * page) / page * 8)) != 8)
			break;
		if ((e >> 63) & 1 && in_list(argv[3], (e & ((1ull << 55) - 1)) % nr_colors))
			in++;
	}
	printf("%s pages in colors %s: %lu of %lu\n", in == pages ? "ok" : "not ok",
	       argv[3], in, pages);
	if (in != pages)
		fails++;

	extra = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("%s a second mapping beyond the preset's size: %s\n",
	       extra == MAP_FAILED && errno == ENOMEM ? "ok" : "not ok",
	       extra == MAP_FAILED ? strerror(errno) : "mapped");
	if (extra != MAP_FAILED)
		fails++;
	req.addr = (uintptr_t)"0-1";
	req.len = 3;
	req.flags = 0;
	ret = ioctl(fd, MM_COLOR_SET_LIST, &req);
	printf("%s MM_COLOR_SET_LIST on the preset's file: %s\n",
	       ret && errno == EPERM ? "ok" : "not ok",
	       ret ? strerror(errno) : "accepted");
	if (!ret || errno != EPERM)
		fails++;

	if (argc > 4 && !strcmp(argv[4], "hold")) {
		close(fd);
		close(open("qemureplay.held", O_CREAT | O_WRONLY, 0600));
		while (access("qemureplay.release", F_OK))
			usleep(100000);
	}
	return fails ? 1 : 0;
}
