// SPDX-License-Identifier: GPL-2.0
/*
 * llcpat: known access patterns for the LLC model (scripts/llcsim/), each
 * in a marked window, with the reference the host-side check compares the
 * model's counters against. The reference comes from the geometry and the
 * buffers' real physical addresses (/proc/self/pagemap), not from the
 * model's code: a cyclic sweep over lines with LRU replacement hits in a
 * set once warm if the set holds at most `ways` of the swept lines, and
 * misses on every access of a set that holds more.
 *
 *   llcpat --pattern fits|exceeds|disjoint|same --window ID
 *          [--size BYTES] [--colors LIST] [--colors2 LIST] [--sweeps N]
 *
 * fits, exceeds: one thread on CPU 0 sweeps its buffer (--colors from
 * /dev/mm-color, or anonymous memory without), once to warm up, then
 * --sweeps times in window ID. disjoint, same: a thread per CPU (0 and 1)
 * with a buffer each (--colors, --colors2), warmed, then both sweep in
 * window ID on their own CPU until each has done --sweeps and the other
 * has too, so the windows overlap.
 *
 * Prints one "llcpat" line per thread: the reference (lines, sets, lines
 * per set at most, lines in sets holding more than `ways` of them, alone
 * and together with the other thread's buffer) and the sweeps done.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <colorguard/llcsim.h>
#include <colorguard/mm_color.h>

static size_t llc_size = 1 << 20, line = 64;
static unsigned int ways = 16;

struct worker {
	int cpu;
	const char *colors;
	size_t size;
	volatile uint8_t *buf;
	uint64_t *pa;		/* physical address of each page */
	uint16_t *per_set;	/* lines of this buffer per LLC set */
	uint64_t sweeps;	/* in the window */
	uint64_t counted;	/* of which while the other was in its window */
	uint64_t sum;
};

static unsigned int window_id;
static uint64_t want_sweeps = 4;
static volatile int done[2], started[2];
static pthread_barrier_t barrier;
static int two;

static void die(const char *what)
{
	fprintf(stderr, "llcpat: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void map(struct worker *w)
{
	void *p;

	if (w->colors) {
		int fd = open("/dev/mm-color", O_RDWR | O_CLOEXEC);
		struct mm_color_list list = {
			.addr = (uintptr_t)w->colors, .len = strlen(w->colors),
		};

		if (fd < 0)
			die("/dev/mm-color");
		if (ioctl(fd, MM_COLOR_SET_LIST, &list))
			die("MM_COLOR_SET_LIST");
		p = mmap(NULL, w->size, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_POPULATE, fd, 0);
		close(fd);
	} else {
		p = mmap(NULL, w->size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	}
	if (p == MAP_FAILED)
		die("mmap");
	w->buf = p;
	for (size_t i = 0; i < w->size; i += 8)
		*(volatile uint64_t *)(w->buf + i) = i;
}

/* The reference: where each line of the buffer lands in the LLC. */
static void locate(struct worker *w)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = w->size / page, sets = llc_size / line / ways;
	int pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (pm < 0)
		die("pagemap");
	w->pa = calloc(pages, sizeof(*w->pa));
	w->per_set = calloc(sets, sizeof(*w->per_set));
	if (!w->pa || !w->per_set)
		die("calloc");
	for (size_t i = 0; i < pages; i++) {
		uint64_t e, va = (uintptr_t)w->buf + i * page;

		if (pread(pm, &e, sizeof(e), va / page * sizeof(e)) != sizeof(e))
			die("pagemap read");
		if (!(e >> 63) || !(e & ((1ull << 55) - 1))) {
			fprintf(stderr, "llcpat: page %zu not present\n", i);
			exit(1);
		}
		w->pa[i] = (e & ((1ull << 55) - 1)) * page;
		for (size_t off = 0; off < (size_t)page; off += line)
			w->per_set[(w->pa[i] + off) / line % sets]++;
	}
	close(pm);
}

static uint64_t sweep(struct worker *w)
{
	uint64_t s = 0;

	for (size_t i = 0; i < w->size; i += line)
		s += *(volatile uint64_t *)(w->buf + i);
	return s;
}

static void *run(void *arg)
{
	struct worker *w = arg;
	int me = w->cpu, other = !w->cpu;

	pin(w->cpu);
	w->sum += sweep(w);	/* warm-up, outside the window */
	if (two)
		pthread_barrier_wait(&barrier);
	/*
	 * A vCPU may start late (woken from idle): sweeps count only once the
	 * other thread is in its window too, and each thread goes on until
	 * both have counted enough, so the two windows overlap all along.
	 */
	llcsim_window_start(window_id);
	started[me] = 1;
	for (;;) {
		w->sum += sweep(w);
		w->sweeps++;
		if (started[other] && ++w->counted >= want_sweeps)
			done[me] = 1;
		if (done[me] && done[other])
			break;
	}
	llcsim_window_end();
	if (two)
		pthread_barrier_wait(&barrier);
	return NULL;
}

static void report(const char *pattern, struct worker *w, struct worker *o)
{
	size_t sets = llc_size / line / ways, lines = w->size / line;
	size_t max = 0, over = 0, over_both = 0, touched = 0;

	for (size_t s = 0; s < sets; s++) {
		size_t n = w->per_set[s], both = n + (o ? o->per_set[s] : 0);

		touched += n > 0;
		if (n > max)
			max = n;
		if (n > ways)
			over += n;
		if (both > ways)
			over_both += n;
	}
	printf("llcpat pattern=%s window=%u cpu=%d colors=%s lines=%zu sets=%zu max_per_set=%zu"
	       " over_lines=%zu over_lines_both=%zu sweeps=%" PRIu64 " sum=%" PRIx64 "\n",
	       pattern, window_id, w->cpu, w->colors ? w->colors : "any", lines, touched,
	       max, over, over_both, w->sweeps, w->sum);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pattern", required_argument, NULL, 'p' },
		{ "window", required_argument, NULL, 'w' },
		{ "size", required_argument, NULL, 's' },
		{ "colors", required_argument, NULL, 'c' },
		{ "colors2", required_argument, NULL, 'C' },
		{ "sweeps", required_argument, NULL, 'n' },
		{ "llc", required_argument, NULL, 'l' },
		{}
	};
	struct worker w[2] = { { .cpu = 0 }, { .cpu = 1 } };
	const char *pattern = NULL;
	size_t size = 384 << 10;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pattern = optarg;
			break;
		case 'w':
			window_id = atoi(optarg);
			break;
		case 's':
			size = strtoull(optarg, NULL, 0) << 10;
			break;
		case 'c':
			w[0].colors = optarg;
			break;
		case 'C':
			w[1].colors = optarg;
			break;
		case 'n':
			want_sweeps = strtoull(optarg, NULL, 0);
			break;
		case 'l':
			if (sscanf(optarg, "%zu,%u,%zu", &llc_size, &ways, &line) != 3)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (!pattern || !size || !want_sweeps || !ways || !line)
		goto usage;
	two = !strcmp(pattern, "disjoint") || !strcmp(pattern, "same");
	if (!two && strcmp(pattern, "fits") && strcmp(pattern, "exceeds"))
		goto usage;
	w[0].size = size;
	w[1].size = size;
	for (int i = 0; i <= two; i++) {
		pin(w[i].cpu);
		map(&w[i]);
		locate(&w[i]);
	}
	if (two) {
		pthread_t t[2];

		pthread_barrier_init(&barrier, NULL, 2);
		for (int i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, run, &w[i]))
				die("pthread_create");
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		report(pattern, &w[0], &w[1]);
		report(pattern, &w[1], &w[0]);
	} else {
		started[1] = 1;
		done[1] = 1;
		run(&w[0]);
		report(pattern, &w[0], NULL);
	}
	return 0;
usage:
	fprintf(stderr, "usage: llcpat --pattern fits|exceeds|disjoint|same --window ID\n"
		"              [--size KIB] [--colors LIST] [--colors2 LIST] [--sweeps N]\n"
		"              [--llc SIZE,WAYS,LINE]\n");
	return 2;
}
