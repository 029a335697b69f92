// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the blob parser and the validator. Whatever parses
 * must write back to the same bytes (the format has one encoding) and
 * survive validation and error formatting.
 *
 * Built with -DHVC_FUZZ_SEEDS it is instead a program writing seed blobs
 * into the folder named by its argument.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <colorguard/hv_color.h>

static struct hvc_system sys;
static unsigned char out[HVC_BLOB_MAX_SIZE];

#ifndef HVC_FUZZ_SEEDS
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hvc_error e, errs[4];
	char text[256];
	unsigned int n, i;
	size_t len;
	int ret;

	memset(&e, 0, sizeof(e));
	ret = hvc_blob_parse(&sys, data, size, &e);
	if (ret) {
		if (ret >= 0 || e.code != ret || !e.field || !e.msg)
			abort();
		if (hvc_error_format(&e, text, sizeof(text)) < 0)
			abort();
		return 0;
	}
	if (hvc_blob_write(&sys, out, sizeof(out), &len) || len != size ||
	    memcmp(out, data, size))
		abort();
	ret = hvc_system_validate(&sys, errs, 4, &n);
	if (!ret != !n)
		abort();
	for (i = 0; i < n && i < 4; i++)
		if (errs[i].code >= 0 || hvc_error_format(&errs[i], text, sizeof(text)) < 0)
			abort();
	return 0;
}
#else
static void set_list(struct hvc_mask *m, const char *list)
{
	if (hvc_mask_parse(m, list, strlen(list), HVC_MAX_COLORS, NULL))
		abort();
}

static void cell(const char *name, const char *cpus, const char *colors,
		 unsigned int flags, unsigned int rd, unsigned int wr)
{
	struct hvc_cell_desc *c = &sys.cells[sys.nr_cells++];

	snprintf(c->name, sizeof(c->name), "%s", name);
	set_list(&c->cpus, cpus);
	set_list(&c->colors, colors);
	c->flags = flags;
	c->read_mbps = rd;
	c->write_mbps = wr;
	c->first_region = sys.nr_regions;
}

static void region(hvc_u64 cell_base, hvc_u64 host_base, hvc_u64 host_size,
		   hvc_u64 cell_size, unsigned int flags)
{
	struct hvc_region_desc *r = &sys.regions[sys.nr_regions++];

	r->cell_base = cell_base;
	r->host_base = host_base;
	r->host_size = host_size;
	r->cell_size = cell_size;
	r->flags = flags;
	sys.cells[sys.nr_cells - 1].nr_regions++;
}

static void save(const char *dir, const char *name)
{
	char path[4096];
	size_t len;
	FILE *f;

	if (hvc_blob_write(&sys, out, sizeof(out), &len))
		abort();
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(out, 1, len, f) != len || fclose(f))
		abort();
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (hvc_geometry_from_cache(&sys.geo, 64, 1024, 16, 12, 1))
		abort();
	set_list(&sys.hv_colors, "8");
	cell("root", "0", "9-15", HVC_CELL_ROOT, 0, 0);
	region(0, 0, 256 << 20, 256 << 20, 0);
	region(1ull << 30, 1ull << 30, 512 << 20, 64 << 20, HVC_REGION_COLORED);
	cell("rt0", "1", "0-3", HVC_CELL_CRITICAL, 0, 0);
	region(0, 1ull << 30, 512 << 20, 128 << 20, HVC_REGION_COLORED);
	cell("nrt", "2-3", "4-7", 0, 500, 250);
	region(0, 1ull << 30, 512 << 20, 64 << 20, HVC_REGION_COLORED);
	save(argv[1], "three-cells");
	sys.nr_cells = 1;
	sys.nr_regions = 2;
	save(argv[1], "root-only");
	if (hvc_geometry_from_way_size(&sys.geo, 4 << 20, 64, 16, 12, 1))
		abort();
	set_list(&sys.cells[0].colors, "0-511,600,1023");
	sys.nr_regions = 0;
	sys.cells[0].nr_regions = 0;
	save(argv[1], "1024-colors");
	return 0;
}
#endif
