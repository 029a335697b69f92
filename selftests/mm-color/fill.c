// SPDX-License-Identifier: GPL-2.0
/*
 * fill LIST MB [HOLD]: map MB MiB of colors LIST from /dev/mm-color, write
 * every page, check colors and data; with HOLD, print "held" and keep the
 * mapping until killed. Exit 0 iff every page was right.
 */
#define _GNU_SOURCE
#include <signal.h>

#include "mmc_util.h"

int main(int argc, char **argv)
{
	struct hvc_geometry geo;
	struct hvc_mask mask;
	unsigned long bad;
	size_t len;
	int fd;
	char *p;

	if (argc < 3) {
		fprintf(stderr, "usage: fill LIST MB [HOLD]\n");
		return 2;
	}
	len = strtoul(argv[2], NULL, 10) << 20;
	if (mmc_geometry(&geo) ||
	    hvc_mask_parse(&mask, argv[1], strlen(argv[1]), geo.nr_colors, NULL)) {
		fprintf(stderr, "fill: no geometry or bad list %s\n", argv[1]);
		return 2;
	}
	fd = mmc_open_list(argv[1]);
	if (fd < 0) {
		fprintf(stderr, "fill: open/set %s: %s\n", argv[1], strerror(-fd));
		return 1;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("fill: mmap");
		return 1;
	}
	mmc_fill(p, len, len);
	bad = mmc_bad_pages(&geo, &mask, p, len) + mmc_check(p, len, len);
	if (bad)
		fprintf(stderr, "fill: %lu bad pages\n", bad);
	if (argc > 3) {
		printf("held\n");
		fflush(stdout);
		pause();
	}
	return bad != 0;
}
