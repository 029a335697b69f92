// SPDX-License-Identifier: GPL-2.0
/*
 * llcsim: a shared last-level cache model as a QEMU TCG plugin.
 *
 * Every data access a vCPU makes (its guest-physical address, as the TLB
 * resolved it) goes through an optional private L1 data cache of that vCPU
 * and then a physically indexed, set-associative, write-back LLC shared by
 * all vCPUs, with LRU replacement in both. Per vCPU the plugin counts
 * accesses, LLC accesses, hits, misses, writebacks to DRAM and lines of
 * this vCPU that another vCPU's fill evicted, and keeps a modelled clock:
 * a fixed time per instruction, a fixed LLC hit latency and a DRAM latency
 * that grows with the recent miss and writeback rate of all vCPUs against
 * a configured DRAM bandwidth (a queueing term). Misses and writebacks are
 * also kept per 1 ms of modelled time for bandwidth plots.
 *
 * The guest opens and closes named windows with marker instructions
 * (llcsim.h): their counters, and those of the other vCPUs over the same
 * span, go to a TSV file of the plugin's own. See README.md here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>
#include <qemu-plugin.h>

#include <colorguard/hv_color.h>
#include <colorguard/llcsim.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct way {
	uint64_t line;		/* physical address >> line_shift */
	uint64_t stamp;		/* LRU: the set's clock at the last use */
	uint16_t owner;		/* vCPU whose fill brought the line in */
	uint8_t valid;
	uint8_t dirty;
};

struct cache {
	struct way *ways;	/* sets * assoc */
	uint64_t *clock;	/* per set */
	uint8_t *lock;		/* per set; NULL for a private cache */
	uint32_t sets;
	uint32_t assoc;
	bool random;		/* replacement: pseudo-random, else LRU */
};

/* What a window reports: counters of one vCPU. */
struct counters {
	uint64_t insns;
	uint64_t accesses;	/* data accesses (loads and stores) */
	uint64_t llc_accesses;	/* L1 misses and L1 writebacks */
	uint64_t llc_hits;
	uint64_t llc_misses;	/* fills from DRAM */
	uint64_t writebacks;	/* dirty LLC lines written to DRAM */
	uint64_t evicted_by_other;
	uint64_t model_ps;	/* modelled time */
	uint64_t wait_ps;	/* of which DRAM queueing */
};

struct vcpu {
	struct counters c;
	/*
	 * The vCPU's modelled clock, of all its work; c.model_ps is the
	 * counted part (user_only=1: user mode only). The clock drives the
	 * ms series, the DRAM rates and the idle scaling.
	 */
	uint64_t clock_ps;
	struct cache l1;
	/* windows */
	bool open;
	uint32_t pending_id;	/* LLCSIM_NAME markers since the last start */
	uint32_t id;
	uint32_t seq;
	struct counters *snap;	/* [n_vcpus]: this one and every peer */
	/* modelled time while idle */
	double ratio;		/* modelled ps per host ns while running */
	uint64_t host_run;	/* host ns at the last resume */
	uint64_t model_run;
	uint64_t host_idle;	/* host ns at the last idle, 0 if running */
	/* per-ms series */
	uint64_t ms_index;	/* current ms of modelled time */
	uint32_t ms_misses;
	uint32_t ms_wbs;
	GArray *series;		/* struct ms_point */
} __attribute__((aligned(64)));

struct ms_point {
	uint32_t misses;
	uint32_t writebacks;
};

static struct {
	uint64_t size;
	uint32_t ways;
	uint32_t line;
	uint32_t line_shift;
	uint32_t page_shift;
	uint64_t l1_size;
	uint32_t l1_ways;
	/* latency model, ps */
	uint64_t insn_ps;
	uint64_t hit_ps;
	uint64_t dram_ps;
	uint64_t dram_mbps;
	bool random;
	bool user_only;
	const char *out;
} cfg = {
	/* The ZCU104's Cortex-A53 cluster (see README.md) */
	.size = 1 << 20, .ways = 16, .line = 64, .page_shift = 12,
	.l1_size = 32 << 10, .l1_ways = 4,
	.insn_ps = 833, .hit_ps = 12500, .dram_ps = 140500, .dram_mbps = 1000,
};

static struct cache llc;
static struct hvc_geometry geo;
static struct vcpu *vcpus;
static unsigned int n_vcpus;
/*
 * Misses + writebacks of each vCPU in its last complete ms (queueing); 0
 * while the vCPU is idle.
 */
static uint32_t *rate;
static FILE *out;
static GMutex out_lock;

static uint64_t host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void set_lock(struct cache *c, uint32_t set)
{
	if (!c->lock)
		return;
	while (__atomic_test_and_set(&c->lock[set], __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&c->lock[set], __ATOMIC_RELAXED))
			;
}

static void set_unlock(struct cache *c, uint32_t set)
{
	if (c->lock)
		__atomic_clear(&c->lock[set], __ATOMIC_RELEASE);
}

static int cache_init(struct cache *c, uint64_t size, uint32_t assoc,
		      bool shared)
{
	c->assoc = assoc;
	c->sets = size / cfg.line / assoc;
	c->ways = g_new0(struct way, (size_t)c->sets * assoc);
	c->clock = g_new0(uint64_t, c->sets);
	c->lock = shared ? g_new0(uint8_t, c->sets) : NULL;
	return 0;
}

/* Close the ms windows modelled time has passed. */
static void ms_advance(struct vcpu *v, unsigned int idx)
{
	uint64_t now_ms = v->clock_ps / 1000000000ull;

	if (now_ms == v->ms_index)
		return;
	struct ms_point p = { v->ms_misses, v->ms_wbs };
	struct ms_point zero = { 0, 0 };

	g_array_append_val(v->series, p);
	__atomic_store_n(&rate[idx], now_ms == v->ms_index + 1 ?
			 v->ms_misses + v->ms_wbs : 0, __ATOMIC_RELAXED);
	for (uint64_t m = v->ms_index + 1; m < now_ms; m++)
		g_array_append_val(v->series, zero);
	v->ms_index = now_ms;
	v->ms_misses = 0;
	v->ms_wbs = 0;
}

/*
 * DRAM latency: a fixed part plus an M/M/1 waiting time, the line's
 * transfer time at the configured bandwidth times u / (1 - u), where u is
 * the bandwidth all vCPUs drew in their last complete ms (capped at 0.95);
 * an idle vCPU draws none.
 */
static uint64_t dram_wait_ps(void)
{
	uint64_t ev = 0;
	double u, xfer_ps;

	for (unsigned int i = 0; i < n_vcpus; i++)
		ev += __atomic_load_n(&rate[i], __ATOMIC_RELAXED);
	/* bytes per ms against MB/s (10^6 B/s) = 10^3 B per ms */
	u = (double)ev * cfg.line / ((double)cfg.dram_mbps * 1000.0);
	if (u > 0.95)
		u = 0.95;
	xfer_ps = (double)cfg.line * 1e6 / (double)cfg.dram_mbps;
	return (uint64_t)(xfer_ps * u / (1.0 - u));
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
	uint64_t wait = dram_wait_ps();

	v->ms_misses++;
	v->clock_ps += cfg.dram_ps + wait;
	if (!count)
		return;
	v->c.llc_misses++;
	v->c.model_ps += cfg.dram_ps + wait;
	v->c.wait_ps += wait;
}

/*
 * count: the access is counted and timed (user_only=1 leaves out the
 * kernel's, which still occupy the caches and draw DRAM bandwidth).
 */
static void access_line(unsigned int idx, uint64_t pa, bool store, bool count)
{
	struct vcpu *v = &vcpus[idx];
	uint64_t line = pa >> cfg.line_shift;
	struct way victim;

	v->c.accesses += count;
	if (v->l1.sets) {
		if (cache_access(&v->l1, line, store, idx, &victim))
			return;
		if (victim.valid && victim.dirty)
			llc_access(idx, v, victim.line, true, true, count);
		llc_access(idx, v, line, false, false, count);
	} else {
		llc_access(idx, v, line, false, store, count);
	}
	ms_advance(v, idx);
}

static void vcpu_mem(unsigned int idx, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;

	if (idx >= n_vcpus)
		return;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	access_line(idx, qemu_plugin_hwaddr_phys_addr(hw),
		    qemu_plugin_mem_is_store(info),
		    !(cfg.user_only && (vaddr >> 63)));
}

static void vcpu_tb_exec(unsigned int idx, void *udata)
{
	struct vcpu *v;
	uint64_t n = (uintptr_t)udata >> 1;

	if (idx >= n_vcpus)
		return;
	v = &vcpus[idx];
	v->clock_ps += n * cfg.insn_ps;
	/* udata bit 0: a kernel TB (top half of the address space) */
	if (!(cfg.user_only && ((uintptr_t)udata & 1))) {
		v->c.insns += n;
		v->c.model_ps += n * cfg.insn_ps;
	}
	ms_advance(v, idx);
}

static void read_counters(struct counters *dst, struct counters *src)
{
	uint64_t *d = (uint64_t *)dst, *s = (uint64_t *)src;

	for (size_t i = 0; i < sizeof(*dst) / sizeof(uint64_t); i++)
		d[i] = __atomic_load_n(&s[i], __ATOMIC_RELAXED);
}

static void write_row(const char *kind, unsigned int idx, const char *window,
		      uint32_t seq, const struct counters *c)
{
	fprintf(out, "%s\t%u\t%s\t%u\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		"\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		"\t%" PRIu64 "\t%" PRIu64 "\n",
		kind, idx, window, seq, c->insns, c->accesses, c->llc_accesses,
		c->llc_hits, c->llc_misses, c->writebacks, c->evicted_by_other,
		c->model_ps / 1000, c->wait_ps / 1000);
}

static void sub_counters(struct counters *d, const struct counters *now,
			 const struct counters *then)
{
	uint64_t *a = (uint64_t *)d;
	const uint64_t *b = (const uint64_t *)now, *c = (const uint64_t *)then;

	for (size_t i = 0; i < sizeof(*d) / sizeof(uint64_t); i++)
		a[i] = b[i] - c[i];
}

static void vcpu_marker(unsigned int idx, void *udata)
{
	uintptr_t what = (uintptr_t)udata;
	struct vcpu *v;

	if (idx >= n_vcpus)
		return;
	v = &vcpus[idx];
	switch (what) {
	case LLCSIM_NAME:
		v->pending_id++;
		return;
	case LLCSIM_START:
		/* Snapshots, not resets: the other vCPUs run on meanwhile. */
		for (unsigned int i = 0; i < n_vcpus; i++)
			read_counters(&v->snap[i], &vcpus[i].c);
		v->id = v->pending_id;
		v->pending_id = 0;
		v->open = true;
		return;
	case LLCSIM_END:
		if (!v->open)
			return;
		v->open = false;
		if (!out)
			return;
		char window[16];

		snprintf(window, sizeof(window), "%u", v->id);
		g_mutex_lock(&out_lock);
		for (unsigned int i = 0; i < n_vcpus; i++) {
			struct counters now, d;

			read_counters(&now, &vcpus[i].c);
			sub_counters(&d, &now, &v->snap[i]);
			write_row(i == idx ? "window" : "peer", i, window,
				  v->seq, &d);
		}
		fflush(out);
		g_mutex_unlock(&out_lock);
		v->seq++;
		return;
	}
}

/* The marker an instruction is, or 0. */
static unsigned int marker_of(struct qemu_plugin_insn *insn)
{
	const uint8_t *p = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn);

	if (n == 4) {
		uint32_t w = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;

		for (unsigned int m = LLCSIM_START; m <= LLCSIM_NAME; m++)
			if (w == LLCSIM_A64_INSN(LLCSIM_A64_HINT(m)))
				return m;
	} else if (n == 9 && p[0] == 0x66 && p[1] == 0x0f && p[2] == 0x1f &&
		   p[3] == 0x84 && p[4] == 0x00) {
		uint32_t d = p[5] | p[6] << 8 | p[7] << 16 | (uint32_t)p[8] << 24;

		for (unsigned int m = LLCSIM_START; m <= LLCSIM_NAME; m++)
			if (d == LLCSIM_X86_DISP(m))
				return m;
	}
	return 0;
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	qemu_plugin_register_vcpu_tb_exec_cb(tb, vcpu_tb_exec,
					     QEMU_PLUGIN_CB_NO_REGS,
					     (void *)(uintptr_t)(n << 1 |
						(qemu_plugin_tb_vaddr(tb) >> 63)));
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		unsigned int m = marker_of(insn);

		if (m)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_marker,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)m);
		qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

/*
 * While a vCPU is idle (WFI/HLT, e.g. held by memguard) modelled time
 * goes on at the rate it ran before: host time scaled by the vCPU's own
 * ratio of modelled to host time, so the share of time a regulator leaves
 * a vCPU busy is the same in modelled time as in guest time.
 */
static void vcpu_idle(qemu_plugin_id_t id, unsigned int idx)
{
	struct vcpu *v;
	uint64_t now = host_ns(), dh;

	if (idx >= n_vcpus)
		return;
	v = &vcpus[idx];
	dh = now - v->host_run;
	if (v->host_run && dh > 20000) {
		double r = (double)(v->clock_ps - v->model_run) / dh;

		v->ratio = v->ratio ? 0.75 * v->ratio + 0.25 * r : r;
	}
	v->host_idle = now;
	/*
	 * An idle core draws no bandwidth: its last ms must not load DRAM
	 * for the others while it sleeps (memguard's hold would not show).
	 */
	__atomic_store_n(&rate[idx], 0, __ATOMIC_RELAXED);
}

static void vcpu_resume(qemu_plugin_id_t id, unsigned int idx)
{
	struct vcpu *v;
	uint64_t now = host_ns();

	if (idx >= n_vcpus)
		return;
	v = &vcpus[idx];
	if (v->host_idle && v->ratio > 0) {
		uint64_t idle_ps = (uint64_t)((now - v->host_idle) * v->ratio);

		v->clock_ps += idle_ps;
		v->c.model_ps += idle_ps;
		ms_advance(v, idx);
	}
	v->host_idle = 0;
	v->host_run = now;
	v->model_run = v->clock_ps;
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	if (!out)
		return;
	g_mutex_lock(&out_lock);
	for (unsigned int i = 0; i < n_vcpus; i++) {
		struct counters c;

		read_counters(&c, &vcpus[i].c);
		write_row("total", i, "-", 0, &c);
	}
	fclose(out);
	out = NULL;
	g_mutex_unlock(&out_lock);

	/* the per-ms series beside it: PATH.tsv -> PATH-ms.tsv */
	GString *path = g_string_new(cfg.out);
	FILE *f;

	if (g_str_has_suffix(path->str, ".tsv"))
		g_string_truncate(path, path->len - 4);
	g_string_append(path, "-ms.tsv");
	f = fopen(path->str, "w");
	if (f) {
		fprintf(f, "vcpu\tms\tmisses\twritebacks\n");
		for (unsigned int i = 0; i < n_vcpus; i++) {
			GArray *s = vcpus[i].series;

			for (guint m = 0; m < s->len; m++) {
				struct ms_point *q = &g_array_index(s, struct ms_point, m);

				fprintf(f, "%u\t%u\t%u\t%u\n", i, m, q->misses,
					q->writebacks);
			}
		}
		fclose(f);
	}
	g_string_free(path, TRUE);
}

static int unknown_arg(const char *k)
{
	fprintf(stderr, "llcsim: unknown argument %s\n", k);
	return -1;
}

static int parse_size(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return -1;
	if (*end == 'K' || *end == 'k')
		n <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		n <<= 20, end++;
	if (*end)
		return -1;
	*v = n;
	return 0;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		uint64_t v;

		if (!eq) {
			fprintf(stderr, "llcsim: argument %s is not key=value\n", argv[i]);
			return -1;
		}
		*eq = '\0';
		const char *k = argv[i], *s = eq + 1;

		if (!strcmp(k, "out")) {
			cfg.out = s;
			continue;
		}
		if (!strcmp(k, "repl")) {
			if (strcmp(s, "lru") && strcmp(s, "random")) {
				fprintf(stderr, "llcsim: repl=%s: lru or random\n", s);
				return -1;
			}
			cfg.random = !strcmp(s, "random");
			continue;
		}
		if (parse_size(s, &v)) {
			fprintf(stderr, "llcsim: %s=%s: not a number\n", k, s);
			return -1;
		}
		if (!strcmp(k, "size"))
			cfg.size = v;
		else if (!strcmp(k, "ways"))
			cfg.ways = v;
		else if (!strcmp(k, "line"))
			cfg.line = v;
		else if (!strcmp(k, "page"))
			cfg.page_shift = __builtin_ctzll(v ? v : 1);
		else if (!strcmp(k, "l1"))
			cfg.l1_size = v;
		else if (!strcmp(k, "l1_ways"))
			cfg.l1_ways = v;
		else if (!strcmp(k, "insn_ps"))
			cfg.insn_ps = v;
		else if (!strcmp(k, "hit_ps"))
			cfg.hit_ps = v;
		else if (!strcmp(k, "dram_ps"))
			cfg.dram_ps = v;
		else if (!strcmp(k, "dram_mbps"))
			cfg.dram_mbps = v;
		else if (!strcmp(k, "user_only"))
			cfg.user_only = !!v;
		else
			return unknown_arg(k);
	}
	/* The colors the model sees are hv-color's (and mm-color's). */
	if (!pow2(cfg.line) || !cfg.ways || cfg.size % ((uint64_t)cfg.ways * cfg.line) ||
	    !pow2(cfg.size / cfg.ways / cfg.line) ||
	    hvc_geometry_from_cache(&geo, cfg.line, cfg.size / cfg.ways / cfg.line,
				    cfg.ways, cfg.page_shift, 1)) {
		fprintf(stderr, "llcsim: size=%" PRIu64 " ways=%u line=%u is no valid LLC geometry\n",
			cfg.size, cfg.ways, cfg.line);
		return -1;
	}
	if (cfg.l1_size && (cfg.l1_ways == 0 ||
			    cfg.l1_size % ((uint64_t)cfg.l1_ways * cfg.line) ||
			    !pow2(cfg.l1_size / cfg.l1_ways / cfg.line))) {
		fprintf(stderr, "llcsim: l1=%" PRIu64 " l1_ways=%u is no valid L1 geometry\n",
			cfg.l1_size, cfg.l1_ways);
		return -1;
	}
	if (!cfg.dram_mbps) {
		fprintf(stderr, "llcsim: dram_mbps must not be 0\n");
		return -1;
	}
	cfg.line_shift = __builtin_ctz(cfg.line);
	cache_init(&llc, cfg.size, cfg.ways, true);
	llc.random = cfg.random;
	n_vcpus = info->system_emulation ? info->system.max_vcpus : 1;
	vcpus = g_new0(struct vcpu, n_vcpus);
	rate = g_new0(uint32_t, n_vcpus);
	for (unsigned int i = 0; i < n_vcpus; i++) {
		if (cfg.l1_size)
			cache_init(&vcpus[i].l1, cfg.l1_size, cfg.l1_ways, false);
		vcpus[i].snap = g_new0(struct counters, n_vcpus);
		vcpus[i].series = g_array_new(FALSE, TRUE, sizeof(struct ms_point));
	}
	if (cfg.out) {
		out = fopen(cfg.out, "w");
		if (!out) {
			fprintf(stderr, "llcsim: %s: %s\n", cfg.out, strerror(errno));
			return -1;
		}
		fprintf(out, "# llcsim size=%" PRIu64 " ways=%u line=%u sets=%u colors=%u"
			" repl=%s user_only=%d l1=%" PRIu64 " l1_ways=%u insn_ps=%" PRIu64
			" hit_ps=%" PRIu64 " dram_ps=%" PRIu64 " dram_mbps=%" PRIu64 " vcpus=%u\n",
			cfg.size, cfg.ways, cfg.line, llc.sets, geo.nr_colors,
			cfg.random ? "random" : "lru", cfg.user_only,
			cfg.l1_size, cfg.l1_ways, cfg.insn_ps, cfg.hit_ps,
			cfg.dram_ps, cfg.dram_mbps, n_vcpus);
		fprintf(out, "kind\tvcpu\twindow\tseq\tinsns\taccesses\tllc_accesses"
			"\tllc_hits\tllc_misses\twritebacks\tevicted_by_other"
			"\tmodel_ns\tdram_wait_ns\n");
		fflush(out);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_vcpu_idle_cb(id, vcpu_idle);
	qemu_plugin_register_vcpu_resume_cb(id, vcpu_resume);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
