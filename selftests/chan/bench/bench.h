/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The channel benchmarks (make bench-chan): root Linux ends on
 * libcolorguard-chan against a --no-color keeper of bench.cfg, the writer
 * and the readers as threads pinned to two CPUs. Each part prints its
 * rows of the table; nothing is asserted about speed.
 */
#ifndef _CHAN_BENCH_H
#define _CHAN_BENCH_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <colorguard/chan_linux.h>

/* bench.cfg's cells: rt writes every channel but pong, root Linux reads. */
#define BENCH_CELL	"rt"
#define BENCH_ROOT	"linux"
#define BENCH_READERS	4
#define BENCH_REC_MAX	4096

struct bench_opts {
	const char *sock;	/* the keeper's socket */
	int cpu_w;		/* the writer's CPU */
	int cpu_r;		/* the readers' CPU */
	unsigned int scale;	/* percent of each part's default counts */
};

extern struct bench_opts bench;

/* common.c */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
uint64_t now_ns(void);
void spin_until(uint64_t t);
void pin(int cpu);
uint64_t scaled(uint64_t n);
struct cg_chan *bench_open(const char *cell, const char *chan, int role,
			   unsigned int slot);
void bench_thread(pthread_t *t, void *(*fn)(void *), void *arg);
void bench_join(pthread_t t);
/*
 * bench_recv() - the next record, 1; or 0 once @done was set before a
 * look that found nothing. timeout_ms 0 polls busily; otherwise the
 * library waits (polling with sleeps, or asleep on the doorbell).
 */
int bench_recv(struct cg_chan *r, void *buf, uint32_t *len, int timeout_ms,
	       const int *done);
void bench_done(int *done);
/* Send, spinning while a reliable reader has no room (counted in @full). */
void bench_send(struct cg_chan *w, const void *buf, uint32_t len, uint64_t *full);
/* Stamp and sequence at the start of a record, read back by the reader. */
void rec_stamp(void *buf, uint64_t seq, uint64_t t);
uint64_t rec_time(const void *buf);

static inline void cpu_relax(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* samples.c: nanosecond samples and their percentiles (nearest rank). */
struct samples {
	uint64_t *v;
	size_t n;
	size_t cap;
	int sorted;
};

void samples_init(struct samples *s, size_t cap);
void samples_free(struct samples *s);
void samples_add(struct samples *s, uint64_t ns);
/* The per-mille percentile: 500 p50, 990 p99, 999 p99.9, 1000 max. */
uint64_t samples_pct(struct samples *s, unsigned int per_mille);
double samples_mean(const struct samples *s);

/* table.c: the table's sections and rows. */
void table_section(const char *title, const char *header);
void table_lat_header(void);
void table_lat_row(const char *what, struct samples *s, const char *extra);

/* The parts, each a section of the table. */
void bench_throughput(void);
void bench_latency(void);
void bench_roundtrip(void);
void bench_fanout(void);

#endif
