// SPDX-License-Identifier: GPL-2.0
/*
 * anon_share MB thp|nothp: the share, per mille, of a fresh anonymous
 * mapping of MB MiB whose pages are in mm-color's live root_colors
 * (counted through /proc/self/pagemap by the mm-color suite's helpers),
 * with transparent huge pages as the system allows them (thp) or
 * MADV_NOHUGEPAGE (nothp). Prints "PERMILLE HUGE_KB", HUGE_KB being the
 * mapping's AnonHugePages; exit 1 if anything could not be read.
 */
#include "../mm-color/mmc_util.h"

/* AnonHugePages of this process in kB (smaps_rollup), 0 if unknown. */
static unsigned long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	unsigned long kb = 0;
	char line[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %lu", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	struct hvc_geometry geo;
	struct hvc_mask root;
	char list[MM_COLOR_LIST_MAX + 1];
	unsigned long mb;
	long pm;
	void *p;
	int thp;

	if (argc != 3 || (strcmp(argv[2], "thp") && strcmp(argv[2], "nothp"))) {
		fprintf(stderr, "usage: anon_share MB thp|nothp\n");
		return 2;
	}
	mb = strtoul(argv[1], NULL, 10);
	thp = !strcmp(argv[2], "thp");
	if (!mb || mb > 1024 || mmc_geometry(&geo) ||
	    mmc_read("root_colors", list, sizeof(list)) ||
	    hvc_mask_parse(&root, list, sizeof(list), mmc_nr_colors(), NULL)) {
		fprintf(stderr, "anon_share: bad size or no mm-color geometry\n");
		return 1;
	}
	pm = mmc_anon_permille(&geo, &root, mb << 20, thp, &p);
	if (pm < 0) {
		fprintf(stderr, "anon_share: mmap of %lu MiB failed\n", mb);
		return 1;
	}
	printf("%ld %lu\n", pm, anon_huge_kb());
	munmap(p, mb << 20);
	return 0;
}
