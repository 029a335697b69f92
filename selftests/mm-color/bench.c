// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks (numbers, not assertions): colored vs anonymous fault-in
 * throughput, pool grow/shrink rate and root-color drain rate. Needs a
 * loaded module with a geometry and a pool of at least BENCH_MB.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>

#include "mmc_util.h"

#define BENCH_MB	64
#define REPS		3

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double touch(char *p, size_t len)
{
	double t = now();
	size_t off;

	for (off = 0; off < len; off += PAGE)
		p[off] = 1;
	return now() - t;
}

/* Best of REPS, in MB/s. */
static double fault_rate(int colored)
{
	size_t len = (size_t)BENCH_MB << 20;
	double best = 1e9;
	int r;

	for (r = 0; r < REPS; r++) {
		int fd = -1;
		char *p;
		double t;

		if (colored) {
			char all[32];

			snprintf(all, sizeof(all), "0-%u", mmc_nr_colors() - 1);
			fd = mmc_open_list(all);
			if (fd < 0)
				return -1;
			p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		} else {
			p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p != MAP_FAILED)
				madvise(p, len, MADV_NOHUGEPAGE);
		}
		if (p == MAP_FAILED)
			return -1;
		t = touch(p, len);
		if (t < best)
			best = t;
		munmap(p, len);
		if (fd >= 0)
			close(fd);
	}
	return BENCH_MB / best;
}

static double timed_write(const char *file, const char *val, int *err)
{
	double t = now();

	*err = mmc_write(file, val);
	return now() - t;
}

/*
 * Longest read of free_pages (which takes alloc_lock) while another thread
 * writes @file: how long a section under alloc_lock made a reader wait,
 * plus scheduling noise. Reader and writer run on different CPUs.
 */
struct lock_probe {
	int stop;
	double longest;
	unsigned long reads;
};

static void *probe_reads(void *arg)
{
	struct lock_probe *lp = arg;
	char buf[64];

	while (!__atomic_load_n(&lp->stop, __ATOMIC_RELAXED)) {
		double t = now();

		mmc_read("free_pages", buf, sizeof(buf));
		t = now() - t;
		if (t > lp->longest)
			lp->longest = t;
		lp->reads++;
	}
	return NULL;
}

static double probed_write(const char *file, const char *val, int *err,
			   struct lock_probe *lp)
{
	pthread_t thread;
	double t;

	memset(lp, 0, sizeof(*lp));
	if (pthread_create(&thread, NULL, probe_reads, lp)) {
		*err = 1;
		return 0;
	}
	t = timed_write(file, val, err);
	__atomic_store_n(&lp->stop, 1, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	return t;
}

int main(void)
{
	unsigned long pool_mb = mmc_read_ul("pool_mb"), q;
	unsigned int nr = mmc_nr_colors();
	double anon, colored, t_grow, t_shrink, t_drain, t_widen;
	struct lock_probe lp_shrink, lp_widen;
	char val[64], all[64];
	int e1, e2, e3, e4;

	if (!nr || pool_mb < BENCH_MB) {
		fprintf(stderr, "bench: need a geometry and a %d MB pool\n", BENCH_MB);
		return 1;
	}
	anon = fault_rate(0);
	colored = fault_rate(1);

	snprintf(val, sizeof(val), "%lu", pool_mb + 256);
	t_grow = timed_write("pool_mb", val, &e1);
	snprintf(val, sizeof(val), "%lu", pool_mb);
	t_shrink = probed_write("pool_mb", val, &e2, &lp_shrink);

	mmc_read("root_colors", all, sizeof(all));
	snprintf(val, sizeof(val), "0-%u", nr / 2 - 1);
	t_drain = timed_write("root_colors", val, &e3);
	q = mmc_read_ul("quarantined_pages");
	t_widen = probed_write("root_colors", all, &e4, &lp_widen);

	printf("| measure (%u colors, %s) | value |\n", nr, getenv("CG_ARCH") ?: "?");
	printf("|---|---|\n");
	printf("| anonymous fault-in, %d MB | %.0f MB/s |\n", BENCH_MB, anon);
	printf("| colored fault-in (all colors), %d MB | %.0f MB/s |\n", BENCH_MB,
	       colored);
	printf("| colored / anonymous | %.2f |\n", colored / anon);
	printf("| pool grow by 256 MB | %.0f MB/s%s |\n", 256 / t_grow,
	       e1 ? " (failed)" : "");
	printf("| pool shrink by 256 MB | %.0f MB/s%s |\n", 256 / t_shrink,
	       e2 ? " (failed)" : "");
	printf("| root-color drain to half | %.0f MB/s quarantined (%lu MB in %.2f s)%s |\n",
	       (q * PAGE >> 20) / t_drain, q * PAGE >> 20, t_drain, e3 ? " (failed)" : "");
	printf("| widen back | %.2f s%s |\n", t_widen, e4 ? " (failed)" : "");
	printf("| longest free_pages read during the 256 MB shrink | %.2f ms (%lu reads) |\n",
	       lp_shrink.longest * 1e3, lp_shrink.reads);
	printf("| longest free_pages read during the widening | %.2f ms (%lu reads) |\n",
	       lp_widen.longest * 1e3, lp_widen.reads);
	return e1 || e2 || e3 || e4 || anon <= 0 || colored <= 0;
}
