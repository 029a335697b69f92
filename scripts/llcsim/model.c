// SPDX-License-Identifier: GPL-2.0
/*
 * llcsim's model: the private L1s and the shared LLC, set-associative with
 * LRU (or pseudo-random) replacement, idle time, and the DRAM latency with
 * its queueing term (dram.c) over global windows of guest time.
 */
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "dram.h"
#include "llcsim_int.h"

struct llcsim_cfg cfg = {
	/* The ZCU104's Cortex-A53 cluster (see README.md) */
	.size = 1 << 20, .ways = 16, .line = 64, .page_shift = 12,
	.l1_size = 32 << 10, .l1_ways = 4,
	.insn_ps = 833, .hit_ps = 12500, .dram_ps = 140500, .dram_mbps = 1000,
	.dram_window = 1000000,
};

struct cache llc;
struct vcpu *vcpus;
unsigned int n_vcpus;

/*
 * The DRAM queueing term's windows: global, every cfg.dram_window guest
 * instructions (1 ms of guest time under -icount shift=0), the same for
 * all vCPUs.
 */
static struct {
	uint64_t next;		/* guest_insns() at which the window closes */
	uint64_t xfer_ps;	/* a line's transfer at cfg.dram_mbps */
	uint64_t *queue_ps;	/* [n_vcpus]: S * Q_j while it runs, dram_queue_ps() */
	uint64_t *avg_ps;	/* [n_vcpus]: S * Q_j over the window's guest time */
	uint64_t *active_ps;	/* [n_vcpus]: what a miss finds (share()), 0 if idle */
	struct dram_snap {	/* [n_vcpus]: at the start of its span */
		uint64_t requests, time_ps, wait_ps, insns, guest;
		double pace;	/* its modelled ps per instruction it ran */
		double req, time;	/* decayed sums of requests, guest time */
	} *snap;
	GMutex lock;
} dram;

/*
 * Multi-threaded, the modelled running time a vCPU needs in a window
 * before its share is taken afresh: a vCPU thread the host did not run
 * keeps the share it had.
 */
#define DRAM_MIN_SPAN_PS	100000000ull	/* 100 us */

/*
 * Run in turn, the weight of the last window in a vCPU's share: turns last
 * several windows, so one window says more about whose turn it was than
 * about what a vCPU draws; the share spans some 16 windows instead.
 */
#define DRAM_TURN_DECAY		(1.0 / 16)

/*
 * Host threads that ran vCPUs: one when a single TCG thread runs them in
 * turn (-icount), one per vCPU when multi-threaded.
 */
static unsigned int n_threads;
static __thread bool thread_seen;

void vcpu_thread_check(void)
{
	if (!thread_seen) {
		thread_seen = true;
		__atomic_add_fetch(&n_threads, 1, __ATOMIC_RELAXED);
	}
}

/* Only one host thread ran vCPUs: they run in turn, not side by side. */
static bool in_turn(void)
{
	return __atomic_load_n(&n_threads, __ATOMIC_RELAXED) <= 1;
}

/*
 * The share of vCPU j a miss finds while j is not idle. Multi-threaded,
 * j runs beside the missing vCPU: its share while running. Run in turn,
 * j stands still while another vCPU's turn lasts, though in guest time it
 * is neither held nor idle: its requests over the whole window of guest
 * time (dram_tick()), so that a vCPU that got no turn draws nothing.
 */
static uint64_t share(unsigned int j)
{
	return __atomic_load_n(in_turn() ? &dram.avg_ps[j] : &dram.queue_ps[j],
			       __ATOMIC_RELAXED);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/*
 * A set's lock, held for one lookup. Multi-threaded TCG only (one TCG
 * thread never contends): spin politely, and give the host CPU away when
 * the holder is a vCPU thread the host has preempted.
 */
static void set_lock(struct cache *c, uint32_t set)
{
	unsigned int spins = 0;

	if (!c->lock)
		return;
	while (__atomic_test_and_set(&c->lock[set], __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&c->lock[set], __ATOMIC_RELAXED)) {
			if (++spins < 1000) {
				cpu_relax();
			} else {
				sched_yield();
				spins = 0;
			}
		}
	}
}

static void set_unlock(struct cache *c, uint32_t set)
{
	if (c->lock)
		__atomic_clear(&c->lock[set], __ATOMIC_RELEASE);
}

int cache_init(struct cache *c, uint64_t size, uint32_t assoc, bool shared)
{
	c->assoc = assoc;
	c->sets = size / cfg.line / assoc;
	c->ways = g_new0(struct way, (size_t)c->sets * assoc);
	c->clock = g_new0(uint64_t, c->sets);
	c->lock = shared ? g_new0(uint8_t, c->sets) : NULL;
	return 0;
}

/* Close the ms windows modelled time has passed. */
void ms_advance(struct vcpu *v, unsigned int idx)
{
	uint64_t now_ms = v->clock_ps / 1000000000ull;

	if (now_ms == v->ms_index)
		return;
	struct ms_point p = { v->ms_misses, v->ms_wbs };
	struct ms_point zero = { 0, 0 };

	g_array_append_val(v->series, p);
	for (uint64_t m = v->ms_index + 1; m < now_ms; m++)
		g_array_append_val(v->series, zero);
	v->ms_index = now_ms;
	v->ms_misses = 0;
	v->ms_wbs = 0;
}

/*
 * The guest's time: every instruction of every vCPU. Under -icount
 * shift=0 on one TCG thread (scripts/vm/run) it is the guest's clock in
 * ns, the same from run to run; nothing here reads the host's.
 */
uint64_t guest_insns(void)
{
	uint64_t g = 0;

	for (unsigned int i = 0; i < n_vcpus; i++)
		g += __atomic_load_n(&vcpus[i].all_insns, __ATOMIC_RELAXED);
	return g;
}

/*
 * A vCPU reached a WFI or HLT: it idles until its next block (QEMU's
 * single-threaded TCG never calls the plugin's idle callbacks, and host
 * time would make runs differ). While idle (e.g. held by memguard) its
 * modelled clock runs on at the rate it ran: the guest time that passes,
 * which the other vCPUs' instructions measure, times its recent modelled
 * ps per guest instruction. The share of guest time a regulator leaves a
 * vCPU busy is then its share of modelled time too.
 */
void vcpu_idle(unsigned int idx)
{
	struct vcpu *v = &vcpus[idx];
	uint64_t g = guest_insns(), dg = g - v->run_since;

	if (v->run_since && dg > 20000) {
		double r = (double)(v->clock_ps - v->model_run) / dg;

		v->ratio = v->ratio ? 0.75 * v->ratio + 0.25 * r : r;
	}
	__atomic_store_n(&v->idle_since, g, __ATOMIC_RELAXED);
	__atomic_store_n(&v->idle, true, __ATOMIC_RELEASE);
	/* An idle core draws nothing: memguard's holds show at once. */
	__atomic_store_n(&dram.active_ps[idx], 0, __ATOMIC_RELAXED);
}

/* The idle vCPU runs again: its clock takes the idle time. */
void vcpu_resume(struct vcpu *v, unsigned int idx)
{
	uint64_t g = guest_insns();

	if (v->ratio > 0) {
		uint64_t idle_ps = (uint64_t)((g - v->idle_since) * v->ratio);

		__atomic_store_n(&v->clock_ps, v->clock_ps + idle_ps, __ATOMIC_RELAXED);
		__atomic_store_n(&v->idle_ps, v->idle_ps + idle_ps, __ATOMIC_RELAXED);
		v->c.model_ps += idle_ps;
		ms_advance(v, idx);
	}
	__atomic_store_n(&v->idle, false, __ATOMIC_RELEASE);
	__atomic_store_n(&dram.active_ps[idx], share(idx), __ATOMIC_RELAXED);
	v->run_since = g;
	v->model_run = v->clock_ps;
}

void dram_init(void)
{
	dram.next = cfg.dram_window;
	dram.xfer_ps = (uint64_t)cfg.line * 1000000 / cfg.dram_mbps;
	dram.queue_ps = g_new0(uint64_t, n_vcpus);
	dram.avg_ps = g_new0(uint64_t, n_vcpus);
	dram.active_ps = g_new0(uint64_t, n_vcpus);
	dram.snap = g_new0(struct dram_snap, n_vcpus);
	g_mutex_init(&dram.lock);
}

/*
 * Close the global window once guest time has passed its end: each vCPU's
 * requests since its last share, less its DRAM waiting, give the queue it
 * keeps at the DRAM (dram.c) for every miss of the next window.
 * Multi-threaded, over its modelled running time: it runs beside the
 * others. Run in turn (one TCG thread), over the window's guest time at
 * its own pace (modelled ps per instruction it ran): the guest time
 * another vCPU's turn takes passes for it too, and a vCPU that got no turn
 * (or that memguard held) drew nothing in it. While a vCPU idles a miss
 * finds none of it (vcpu_idle()).
 */
void dram_tick(void)
{
	uint64_t g = guest_insns();

	if (g < __atomic_load_n(&dram.next, __ATOMIC_RELAXED) ||
	    !g_mutex_trylock(&dram.lock))
		return;
	if (g >= dram.next) {
		for (unsigned int j = 0; j < n_vcpus; j++) {
			struct vcpu *v = &vcpus[j];
			struct dram_snap *s = &dram.snap[j], now = {
				__atomic_load_n(&v->requests, __ATOMIC_RELAXED),
				__atomic_load_n(&v->clock_ps, __ATOMIC_RELAXED) -
				__atomic_load_n(&v->idle_ps, __ATOMIC_RELAXED),
				__atomic_load_n(&v->wait_all_ps, __ATOMIC_RELAXED),
				__atomic_load_n(&v->all_insns, __ATOMIC_RELAXED),
				g, s->pace, s->req, s->time,
			};
			uint64_t span = now.time_ps - s->time_ps;
			uint64_t wait = now.wait_ps - s->wait_ps;
			uint64_t n = now.requests - s->requests;
			uint64_t ran = now.insns - s->insns;
			double whole;

			if (in_turn()) {
				if (ran && span > wait)
					now.pace = (double)(span - wait) / ran;
				whole = (g - s->guest) * now.pace;
				now.req = now.req * (1 - DRAM_TURN_DECAY) + n;
				now.time = now.time * (1 - DRAM_TURN_DECAY) + whole;
				__atomic_store_n(&dram.avg_ps[j],
						 dram_queue_ps(dram.xfer_ps, (uint64_t)now.req,
							       (uint64_t)now.time),
						 __ATOMIC_RELAXED);
			} else {
				/* A vCPU the host did not run keeps its share. */
				if (span < wait + DRAM_MIN_SPAN_PS)
					continue;
				__atomic_store_n(&dram.queue_ps[j],
						 dram_queue_ps(dram.xfer_ps, n, span - wait),
						 __ATOMIC_RELAXED);
			}
			if (!__atomic_load_n(&v->idle, __ATOMIC_ACQUIRE))
				__atomic_store_n(&dram.active_ps[j], share(j), __ATOMIC_RELAXED);
			*s = now;
		}
		__atomic_store_n(&dram.next, (g / cfg.dram_window + 1) * cfg.dram_window,
				 __ATOMIC_RELAXED);
	}
	g_mutex_unlock(&dram.lock);
}

/*
 * Look line up in one set of c. Returns true on a hit. On a miss the LRU
 * way (or a free one) is replaced by line; *victim gets what it held.
 */
static bool cache_access(struct cache *c, uint64_t line, bool dirty,
			 unsigned int owner, struct way *victim)
{
	uint32_t set = line & (c->sets - 1);
	struct way *w = &c->ways[(size_t)set * c->assoc], *lru = NULL;
	uint64_t now = ++c->clock[set];

	victim->valid = 0;
	for (uint32_t i = 0; i < c->assoc; i++) {
		if (w[i].valid && w[i].line == line) {
			w[i].stamp = now;
			w[i].dirty |= dirty;
			return true;
		}
		/* the first free way, else the least recently used */
		if (!w[i].valid) {
			if (!lru || lru->valid)
				lru = &w[i];
		} else if (!lru || (lru->valid && w[i].stamp < lru->stamp)) {
			lru = &w[i];
		}
	}
	/*
	 * Pseudo-random replacement (repl=random) once the set is full: a
	 * hash of the set's use count, so runs stay reproducible.
	 */
	if (c->random && lru->valid) {
		uint64_t h = (now ^ ((uint64_t)set << 32)) * 0x9e3779b97f4a7c15ull;

		lru = &w[(h >> 32) % c->assoc];
	}
	*victim = *lru;
	lru->line = line;
	lru->stamp = now;
	lru->owner = owner;
	lru->valid = 1;
	lru->dirty = dirty;
	return false;
}

/*
 * A line reaches the LLC: a read on an L1 miss (dirty: a store without an
 * L1), or a whole dirty line on an L1 eviction (writeback).
 */
static void llc_access(unsigned int idx, struct vcpu *v, uint64_t line,
		       bool writeback, bool dirty, bool count)
{
	uint32_t set = line & (llc.sets - 1);
	struct way victim;
	bool hit;

	set_lock(&llc, set);
	hit = cache_access(&llc, line, writeback || dirty, idx, &victim);
	set_unlock(&llc, set);

	v->c.llc_accesses += count;
	if (victim.valid) {
		if (victim.owner != idx && victim.owner < n_vcpus)
			__atomic_fetch_add(&vcpus[victim.owner].c.evicted_by_other,
					   1, __ATOMIC_RELAXED);
		if (victim.dirty) {
			v->c.writebacks += count;
			v->ms_wbs++;
			__atomic_store_n(&v->requests, v->requests + 1, __ATOMIC_RELAXED);
		}
	}
	if (hit) {
		v->c.llc_hits += count;
		if (!writeback) {
			v->clock_ps += cfg.hit_ps;
			if (count)
				v->c.model_ps += cfg.hit_ps;
		}
		return;
	}
	if (writeback)		/* a whole dirty line: no fill from DRAM */
		return;
	uint64_t wait = dram_wait_ps(dram.active_ps, n_vcpus, idx);

	v->ms_misses++;
	__atomic_store_n(&v->requests, v->requests + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&v->wait_all_ps, v->wait_all_ps + wait, __ATOMIC_RELAXED);
	v->clock_ps += cfg.dram_ps + wait;
	if (!count)
		return;
	v->c.llc_misses++;
	v->c.model_ps += cfg.dram_ps + wait;
	v->c.wait_ps += wait;
}

/* One line an access touches, through the L1 (if any) to the LLC. */
static void access_line(unsigned int idx, struct vcpu *v, uint64_t line,
			bool store, bool count)
{
	struct way victim;

	if (v->l1.sets) {
		if (cache_access(&v->l1, line, store, idx, &victim))
			return;
		if (victim.valid && victim.dirty)
			llc_access(idx, v, victim.line, true, true, count);
		llc_access(idx, v, line, false, false, count);
	} else {
		llc_access(idx, v, line, false, store, count);
	}
}

/*
 * A data access of size bytes at physical address pa: every line it
 * touches (an unaligned access may cross into the next). The plugin sees
 * the physical address of its first byte only, so the lines of an access
 * that crosses into the next page, whose frame may be anywhere, stop at
 * the page's end. count: the access is counted and timed (user_only=1
 * leaves out the kernel's, which still occupy the caches and draw DRAM
 * bandwidth).
 */
void access_mem(unsigned int idx, uint64_t pa, unsigned int size, bool store,
		bool count)
{
	struct vcpu *v = &vcpus[idx];
	uint64_t end = pa + (size ? size : 1) - 1;
	uint64_t page_end = pa | ((1ull << cfg.page_shift) - 1);

	if (end > page_end)
		end = page_end;
	v->c.accesses += count;
	for (uint64_t l = pa >> cfg.line_shift; l <= end >> cfg.line_shift; l++)
		access_line(idx, v, l, store, count);
	ms_advance(v, idx);
}
