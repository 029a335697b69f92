/* SPDX-License-Identifier: GPL-2.0 */
/* Inside llcsim: state shared by llcsim.c, model.c and report.c. */
#ifndef LLCSIM_INT_H
#define LLCSIM_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>
#include <qemu-plugin.h>

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
	 * ms series, the DRAM shares and the idle scaling.
	 */
	uint64_t clock_ps;
	uint64_t idle_ps;	/* of which idle (vcpu_resume()) */
	/*
	 * Every instruction it ran, counted or not: the sum over all vCPUs
	 * is the guest's time (guest_insns()), which under -icount shift=0
	 * is its clock in ns.
	 */
	uint64_t all_insns;
	/* DRAM: misses and writebacks, and the misses' queueing, all counted */
	uint64_t requests;
	uint64_t wait_all_ps;
	struct cache l1;
	/* windows */
	bool open;
	uint32_t pending_id;	/* LLCSIM_NAME markers since the last start */
	uint32_t id;
	uint32_t seq;
	struct counters *snap;	/* [n_vcpus]: this one and every peer */
	/* modelled time while idle (from a WFI or HLT to its next block) */
	bool idle;
	double ratio;		/* modelled ps per guest instruction running */
	uint64_t run_since;	/* guest_insns() at the last resume */
	uint64_t model_run;	/* clock_ps then */
	uint64_t idle_since;	/* guest_insns() at the WFI or HLT */
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

struct llcsim_cfg {
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
	uint64_t dram_window;	/* guest instructions per DRAM window */
	bool random;
	bool user_only;
	const char *out;
};

extern struct llcsim_cfg cfg;
extern struct cache llc;
extern struct vcpu *vcpus;
extern unsigned int n_vcpus;

/* model.c: the caches and the DRAM latency */
int cache_init(struct cache *c, uint64_t size, uint32_t assoc, bool shared);
void ms_advance(struct vcpu *v, unsigned int idx);
void access_mem(unsigned int idx, uint64_t pa, unsigned int size, bool store,
		bool count);
uint64_t guest_insns(void);
void vcpu_idle(unsigned int idx);
void vcpu_resume(struct vcpu *v, unsigned int idx);
void vcpu_thread_check(void);
void dram_init(void);
void dram_tick(void);

/* report.c: the windows and the TSV files */
int report_open(unsigned int nr_colors);
void vcpu_marker(unsigned int idx, void *udata);
void plugin_exit(qemu_plugin_id_t id, void *p);

#endif
