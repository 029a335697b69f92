// SPDX-License-Identifier: GPL-2.0
/*
 * critbench: the critical task of the interference tests and of the
 * real-hardware runner. A fixed amount of memory-bound work on one CPU,
 * over anonymous memory or memory of chosen LLC colors from /dev/mm-color:
 *   chase   dependent loads through a random cyclic permutation (latency)
 *   stream  read-modify-write sweeps over the buffer (bandwidth)
 * It prints one line of key=value results and checks at the end that its
 * data survived intact (exit status 3 if not). With --verify it reads the
 * physical frame of every page of its buffer from /proc/self/pagemap and
 * counts the pages whose color is in the mask (--colors, or
 * --check-colors, e.g. root Linux's colors for anonymous memory; exit
 * status 4 if one is not). With --llc-window ID each measured run is
 * framed by the markers of the LLC model (colorguard/llcsim.h): window ID
 * of scripts/llcsim/ when QEMU runs with it, no-ops anywhere else. With
 * --bwlock KIND:VALUE each measured run holds memguard's bandwidth lock
 * (/dev/memguard, KIND permille or mbps): the other cores' budgets drop
 * from the next period boundary until the run ends.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <colorguard/llcsim.h>
#include <colorguard/memguard.h>
#include <colorguard/mm_color.h>

struct options {
	const char *mode;
	const char *colors;
	const char *check;
	const char *device;
	size_t size;
	uint64_t ops;
	int cpu;
	int repeat;
	int verify;
	int llc_window;		/* -1: no markers */
	double seconds;
	struct memguard_bwlock bwlock;	/* kind 0: no lock */
};

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: critbench [--mode chase|stream] [--size BYTES[K|M|G]] [--ops N]\n"
		"                 [--cpu N] [--colors LIST [--device /dev/mm-color]]\n"
		"                 [--repeat N] [--time SECONDS] [--verify [--check-colors LIST]]\n"
		"                 [--llc-window ID] [--bwlock permille:N|mbps:N]\n");
}

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return -1;
	switch (*end) {
	case 'G':
	case 'g':
		v <<= 10;
		__attribute__((fallthrough));
	case 'M':
	case 'm':
		v <<= 10;
		__attribute__((fallthrough));
	case 'K':
	case 'k':
		v <<= 10;
		end++;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if (*end || v == 0 || v > (1ULL << 40))
		return -1;
	*out = v;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* xorshift64*: a fixed pseudo-random sequence, the same on every run. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

static void *map_buffer(const struct options *o)
{
	void *p;
	int fd;

	if (!o->colors) {
		p = mmap(NULL, o->size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	fd = open(o->device, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "critbench: %s: %s\n", o->device, strerror(errno));
		return NULL;
	}
	struct mm_color_list list = {
		.addr = (uintptr_t)o->colors, .len = strlen(o->colors),
	};
	if (ioctl(fd, MM_COLOR_SET_LIST, &list)) {
		fprintf(stderr, "critbench: colors %s: %s\n", o->colors, strerror(errno));
		close(fd);
		return NULL;
	}
	p = mmap(NULL, o->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		fprintf(stderr, "critbench: mmap %zu bytes: %s\n", o->size, strerror(errno));
		return NULL;
	}
	return p;
}

/* One cycle through all slots (Sattolo's shuffle), one slot per line. */
#define SLOT 64
static void chase_init(uint8_t *buf, size_t n)
{
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	uint32_t *order = malloc(n * sizeof(*order));
	size_t i;

	if (!order) {
		fprintf(stderr, "critbench: out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		size_t j = next_random(&state) % i;
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++)
		*(uint64_t *)(buf + (size_t)i * SLOT) = (uint64_t)order[i] * SLOT;
	free(order);
}

static uint64_t chase_run(uint8_t *buf, uint64_t ops)
{
	uint64_t pos = 0;

	while (ops--)
		pos = *(volatile uint64_t *)(buf + pos);
	return pos;
}

/* The permutation must still be one cycle through every slot. */
static int chase_intact(uint8_t *buf, size_t n)
{
	uint64_t pos = 0;
	size_t steps = 0;

	do {
		pos = *(uint64_t *)(buf + pos);
		if (pos % SLOT || pos / SLOT >= n)
			return 0;
		steps++;
	} while (pos && steps <= n);
	return steps == n;
}

static uint64_t stream_value(size_t i)
{
	return i * 0x9e3779b97f4a7c15ULL;
}

static void stream_init(uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		w[i] = stream_value(i);
}

/* Each sweep adds and then subtracts 1 per word: the data ends unchanged. */
static uint64_t stream_run(uint64_t *w, size_t n, uint64_t ops)
{
	uint64_t sum = 0, sweeps = (ops + n - 1) / n;

	for (uint64_t s = 0; s < sweeps; s++) {
		uint64_t delta = (s & 1) ? -1ULL : 1ULL;

		for (size_t i = 0; i < n; i++) {
			w[i] += delta;
			sum += w[i];
		}
	}
	if (sweeps & 1)
		for (size_t i = 0; i < n; i++)
			w[i] -= 1;
	return sum;
}

static int stream_intact(const uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (w[i] != stream_value(i))
			return 0;
	return 1;
}

/*
 * Count the pages of buf whose frame has a color of the mask (--colors, or
 * --check-colors to test the check itself): color = pfn mod nr_colors (one
 * page per color). The mask and the geometry are read back from the
 * driver, not assumed.
 */
static int verify_colors(const struct options *o, void *buf)
{
	uint64_t mask[MM_COLOR_MAX_COLORS / 64] = { 0 };
	struct mm_color_info info = { 0 };
	struct mm_color_bitmap bm = {
		.addr = (uintptr_t)mask, .nbits = MM_COLOR_MAX_COLORS,
	};
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = o->size / page, in = 0, absent = 0, i;
	int fd, pm;

	fd = open(o->device, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	const char *check = o->check ? o->check : o->colors;
	struct mm_color_list list = {
		.addr = (uintptr_t)check, .len = strlen(check),
	};
	if (ioctl(fd, MM_COLOR_SET_LIST, &list) ||
	    ioctl(fd, MM_COLOR_GET_INFO, &info) ||
	    ioctl(fd, MM_COLOR_GET_BITMAP, &bm) || !info.nr_colors) {
		fprintf(stderr, "critbench: verify: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (pm < 0) {
		fprintf(stderr, "critbench: pagemap: %s\n", strerror(errno));
		return -1;
	}
	for (i = 0; i < pages; i++) {
		uintptr_t va = (uintptr_t)buf + i * page;
		uint64_t e, pfn, color;

		if (pread(pm, &e, sizeof(e), va / page * sizeof(e)) != sizeof(e)) {
			fprintf(stderr, "critbench: pagemap read: %s\n", strerror(errno));
			close(pm);
			return -1;
		}
		pfn = e & ((1ULL << 55) - 1);
		if (!(e >> 63) || !pfn) {
			absent++;
			continue;
		}
		color = pfn % info.nr_colors;
		if (mask[color / 64] >> (color % 64) & 1)
			in++;
	}
	close(pm);
	printf("critbench verify colors=%s nr_colors=%u pages=%zu in_colors=%zu absent=%zu\n",
	       check, info.nr_colors, pages, in, absent);
	fflush(stdout);
	return in == pages ? 0 : 1;
}

/* --bwlock KIND:VALUE; the device checks the range. */
static int parse_bwlock(const char *s, struct memguard_bwlock *lock)
{
	const char *colon = strchr(s, ':');
	char *end;

	if (!colon)
		return -1;
	if (!strncmp(s, "permille:", colon - s + 1))
		lock->kind = MEMGUARD_BWLOCK_PERMILLE;
	else if (!strncmp(s, "mbps:", colon - s + 1))
		lock->kind = MEMGUARD_BWLOCK_MBPS;
	else
		return -1;
	errno = 0;
	lock->value = strtoull(colon + 1, &end, 10);
	return errno || end == colon + 1 || *end ? -1 : 0;
}

/* The lock for one measured run: taken before it, released after it. */
static int bwlock_op(int fd, const struct memguard_bwlock *lock)
{
	unsigned long req = lock ? MEMGUARD_BWLOCK_ACQUIRE : MEMGUARD_BWLOCK_RELEASE;

	if (fd < 0 || !ioctl(fd, req, lock))
		return 0;
	fprintf(stderr, "critbench: bandwidth lock %s: %s\n",
		lock ? "acquire" : "release", strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "size", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'n' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "colors", required_argument, NULL, 'C' },
		{ "device", required_argument, NULL, 'd' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "time", required_argument, NULL, 't' },
		{ "verify", no_argument, NULL, 'v' },
		{ "check-colors", required_argument, NULL, 'k' },
		{ "llc-window", required_argument, NULL, 'L' },
		{ "bwlock", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct options o = {
		.mode = "chase", .device = "/dev/mm-color", .size = 4 << 20,
		.ops = 4000000, .cpu = -1, .repeat = 1, .llc_window = -1,
	};
	size_t ops_size;
	int c, lock_fd = -1;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			o.mode = optarg;
			break;
		case 's':
			if (parse_size(optarg, &o.size))
				goto bad;
			break;
		case 'n':
			if (parse_size(optarg, &ops_size))
				goto bad;
			o.ops = ops_size;
			break;
		case 'c':
			o.cpu = atoi(optarg);
			break;
		case 'C':
			o.colors = optarg;
			break;
		case 'd':
			o.device = optarg;
			break;
		case 'r':
			o.repeat = atoi(optarg);
			break;
		case 't':
			o.seconds = atof(optarg);
			break;
		case 'v':
			o.verify = 1;
			break;
		case 'k':
			o.check = optarg;
			break;
		case 'L':
			o.llc_window = atoi(optarg);
			if (o.llc_window < 0 || o.llc_window > 1000)
				goto bad;
			break;
		case 'B':
			if (parse_bwlock(optarg, &o.bwlock))
				goto bad;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind != argc || o.repeat < 1 || o.repeat > 100000 ||
	    (strcmp(o.mode, "chase") && strcmp(o.mode, "stream")) ||
	    o.size < 2 * SLOT || o.seconds < 0 || o.seconds > 86400 ||
	    (o.verify && !o.colors && !o.check))
		goto bad;

	if (o.cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(o.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "critbench: cpu %d: %s\n", o.cpu, strerror(errno));
			return 1;
		}
	}
	if (o.bwlock.kind) {
		lock_fd = open("/dev/memguard", O_RDONLY | O_CLOEXEC);
		if (lock_fd < 0) {
			fprintf(stderr, "critbench: /dev/memguard: %s\n", strerror(errno));
			return 1;
		}
	}
	void *buf = map_buffer(&o);

	if (!buf)
		return 1;
	int chase = !strcmp(o.mode, "chase");
	size_t n = chase ? o.size / SLOT : o.size / sizeof(uint64_t);

	if (chase)
		chase_init(buf, n);
	else
		stream_init(buf, n);

	int bad_colors = o.verify ? verify_colors(&o, buf) : 0;

	if (bad_colors < 0)
		return 1;
	/* --time: repeat until that much time has passed (at least --repeat). */
	uint64_t until = now_ns() + (uint64_t)(o.seconds * 1e9);

	for (int r = 0; r < o.repeat || (o.seconds > 0 && now_ns() < until); r++) {
		uint64_t t0, result;

		if (bwlock_op(lock_fd, &o.bwlock))
			return 1;
		t0 = now_ns();
		if (o.llc_window >= 0)
			llcsim_window_start(o.llc_window);
		result = chase ? chase_run(buf, o.ops) : stream_run(buf, n, o.ops);
		if (o.llc_window >= 0)
			llcsim_window_end();
		uint64_t dt = now_ns() - t0;

		if (bwlock_op(lock_fd, NULL))
			return 1;

		printf("critbench mode=%s size=%zu colors=%s cpu=%d run=%d ops=%" PRIu64
		       " ns=%" PRIu64 " ns_per_op=%.3f result=%" PRIx64 "\n",
		       o.mode, o.size, o.colors ? o.colors : "all", o.cpu, r, o.ops,
		       dt, (double)dt / o.ops, result);
		fflush(stdout);
	}
	int intact = chase ? chase_intact(buf, n) : stream_intact(buf, n);

	printf("critbench data=%s\n", intact ? "intact" : "CORRUPT");
	munmap(buf, o.size);
	if (!intact)
		return 3;
	return bad_colors ? 4 : 0;
bad:
	print_usage(stderr);
	return 2;
}
