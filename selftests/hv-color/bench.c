// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color benchmark: translation, extents, allocate+free. Prints
 * "name value unit" rows; selftests/hv-color/bench-run adds callgrind's
 * instruction counts and the table layout.
 *
 *   bench                 timings
 *   bench c2h|h2c|alloc|ext|fill N   N operations only (for callgrind)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <colorguard/hv_color.h>

#define PAGE 4096ull
#define NADDR 4096
#define POOL (1024 * 64)

static struct hvc_geometry geo;
static struct hvc_region reg;
static struct hvc_allocator alloc;
static struct hvc_frame frames[POOL];
static hvc_u64 cell_addrs[NADDR], host_addrs[NADDR];
static struct hvc_mask half_alt, half_low, all;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static void setup(void)
{
	unsigned int c, i;

	if (hvc_geometry_from_way_size(&geo, 1024 * PAGE, 64, 16, 12, 1))
		abort();
	hvc_mask_zero(&half_alt);
	for (c = 0; c < 1024; c += 2)
		hvc_mask_set(&half_alt, c);
	hvc_mask_fill(&half_low, 512);
	hvc_mask_fill(&all, 1024);
	if (hvc_region_init(&reg, &geo, &half_alt, 1ull << 32, 0, 1ull << 30))
		abort();
	srand(1);
	for (i = 0; i < NADDR; i++) {
		cell_addrs[i] = ((hvc_u64)rand() << 20 ^ rand()) % (1ull << 30);
		if (hvc_region_cell_to_host(&reg, cell_addrs[i], &host_addrs[i]))
			abort();
	}
	if (hvc_alloc_init(&alloc, &geo) ||
	    hvc_alloc_add_range(&alloc, frames, POOL, 0x100000))
		abort();
	/* uneven counts: a quarter of the pool in use with random masks */
	for (i = 0; i < POOL / 4; i++) {
		struct hvc_mask m;

		hvc_mask_zero(&m);
		for (c = rand() % 8; c < 1024; c += 1 + rand() % 16)
			hvc_mask_set(&m, c);
		if (!hvc_alloc_frame(&alloc, &m))
			abort();
	}
}

static hvc_u64 run_c2h(long n)
{
	hvc_u64 sum = 0, h;
	long i;

	for (i = 0; i < n; i++) {
		hvc_region_cell_to_host(&reg, cell_addrs[i & (NADDR - 1)], &h);
		sum += h;
	}
	return sum;
}

static hvc_u64 run_h2c(long n)
{
	hvc_u64 sum = 0, a;
	long i;

	for (i = 0; i < n; i++) {
		hvc_region_host_to_cell(&reg, host_addrs[i & (NADDR - 1)] + i, &a);
		sum += a;
	}
	return sum;
}

static hvc_u64 run_alloc(long n, const struct hvc_mask *m)
{
	struct hvc_frame *f[64];
	hvc_u64 sum = 0;
	long i;
	int j;

	for (i = 0; i < n; i += 64) {
		for (j = 0; j < 64; j++) {
			f[j] = hvc_alloc_frame(&alloc, m);
			sum += f[j]->pfn;
		}
		for (j = 0; j < 64; j++)
			hvc_alloc_free(&alloc, f[j]);
	}
	return sum;
}

/* n extents of the even-colors region, one call each or 256 per call */
static hvc_u64 run_ext(long n, int batched)
{
	static struct hvc_extent batch[256];
	struct hvc_extent_iter it;
	hvc_u64 sum = 0;
	long i = 0;
	hvc_u32 got, j;

	if (hvc_region_init(&reg, &geo, &half_alt, 1ull << 32, 0, 1ull << 30))
		abort();
	hvc_extent_iter_init(&it, &reg);
	while (i < n) {
		got = batched ? hvc_extent_fill(&it, batch, 256) :
				(hvc_u32)hvc_extent_next(&it, batch);
		if (!got)
			hvc_extent_iter_init(&it, &reg);
		for (j = 0; j < got; j++)
			sum += batch[j].size;
		i += got;
	}
	return sum;
}

static void time_translation(const char *name, hvc_u64 (*fn)(long))
{
	double t[15];
	int r;

	for (r = 0; r < 15; r++) {
		double t0 = now_ns();
		volatile hvc_u64 sink = fn(1000000);

		(void)sink;
		t[r] = (now_ns() - t0) / 1000000;
	}
	printf("%s %.2f ns/op\n", name, median(t, 15));
}

static void time_extents(const char *name, const struct hvc_mask *m)
{
	static struct hvc_extent batch[256];
	struct hvc_extent_iter it;
	struct hvc_extent e;
	hvc_u64 n = 0, bytes = 0;
	double t[21], tb[21];
	unsigned int got, i;
	int r;

	for (r = 0; r < 21; r++) {
		double t0 = now_ns();

		n = 0;
		bytes = 0;
		if (hvc_region_init(&reg, &geo, m, 1ull << 32, 0, 1ull << 30))
			abort();
		hvc_extent_iter_init(&it, &reg);
		while (hvc_extent_next(&it, &e)) {
			n++;
			bytes += e.size;
		}
		t[r] = now_ns() - t0;
		if (bytes != 1ull << 30)
			abort();

		t0 = now_ns();
		bytes = 0;
		if (hvc_region_init(&reg, &geo, m, 1ull << 32, 0, 1ull << 30))
			abort();
		hvc_extent_iter_init(&it, &reg);
		while ((got = hvc_extent_fill(&it, batch, 256)))
			for (i = 0; i < got; i++)
				bytes += batch[i].size;
		tb[r] = now_ns() - t0;
		if (bytes != 1ull << 30)
			abort();
	}
	printf("%s %.3f ms (%llu extents, one call each)\n", name,
	       median(t, 21) / 1e6, (unsigned long long)n);
	printf("%s_batched %.3f ms (256 per call)\n", name, median(tb, 21) / 1e6);
}

static void time_alloc(const char *name, const struct hvc_mask *m)
{
	static double t[2001];
	int r;

	for (r = 0; r < 2001; r++) {
		double t0 = now_ns();

		run_alloc(64, m);
		t[r] = (now_ns() - t0) / 64;
	}
	printf("%s %.1f ns/op\n", name, median(t, 2001));
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;
	volatile hvc_u64 sink = 0;

	setup();
	if (argc > 2 && !strcmp(argv[1], "c2h"))
		sink = run_c2h(n);
	else if (argc > 2 && !strcmp(argv[1], "h2c"))
		sink = run_h2c(n);
	else if (argc > 2 && !strcmp(argv[1], "alloc"))
		sink = run_alloc(n, &half_low);
	else if (argc > 2 && !strcmp(argv[1], "ext"))
		sink = run_ext(n, 0);
	else if (argc > 2 && !strcmp(argv[1], "fill"))
		sink = run_ext(n, 1);
	if (argc > 2)
		return (int)(sink & 0);
	time_translation("translate_cell_to_host", run_c2h);
	time_translation("translate_host_to_cell", run_h2c);
	time_extents("extents_1GiB_colors_0-511", &half_low);
	time_extents("extents_1GiB_even_colors", &half_alt);
	time_alloc("alloc+free_1024_colors_mask_0-511", &half_low);
	time_alloc("alloc+free_1024_colors_mask_all", &all);
	time_alloc("alloc+free_1024_colors_mask_even", &half_alt);
	return 0;
}
