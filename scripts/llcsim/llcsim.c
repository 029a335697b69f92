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
 * that grows with the queue the other vCPUs' misses and writebacks keep at
 * a DRAM of configured bandwidth (a closed-system queueing term, dram.c). Misses and writebacks are
 * also kept per 1 ms of modelled time for bandwidth plots.
 *
 * The guest opens and closes named windows with marker instructions
 * (llcsim.h): their counters, and those of the other vCPUs over the same
 * span, go to a TSV file of the plugin's own. See README.md here.
 *
 * This file is the plugin's glue: its arguments and QEMU's callbacks.
 * They call the model (model.c) and the report (report.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <qemu-plugin.h>

#include <colorguard/hv_color.h>
#include <colorguard/llcsim.h>

#include "llcsim_int.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static struct hvc_geometry geo;

static void vcpu_mem(unsigned int idx, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;

	if (idx >= n_vcpus)
		return;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	access_mem(idx, qemu_plugin_hwaddr_phys_addr(hw),
		   1u << qemu_plugin_mem_size_shift(info),
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
	vcpu_thread_check();
	if (v->idle)
		vcpu_resume(v, idx);
	__atomic_store_n(&v->all_insns, v->all_insns + n, __ATOMIC_RELAXED);
	v->clock_ps += n * cfg.insn_ps;
	/* udata bit 0: a kernel TB (top half of the address space) */
	if (!(cfg.user_only && ((uintptr_t)udata & 1))) {
		v->c.insns += n;
		v->c.model_ps += n * cfg.insn_ps;
	}
	ms_advance(v, idx);
	dram_tick();
}

/* arm64 WFI, x86 HLT: the vCPU idles (vcpu_idle()). */
static bool halts(struct qemu_plugin_insn *insn)
{
	const uint8_t *p = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn);

	if (n == 4)
		return (p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24) ==
			0xd503207f;
	return n == 1 && p[0] == 0xf4;
}

static void vcpu_halt(unsigned int idx, void *udata)
{
	if (idx < n_vcpus)
		vcpu_idle(idx);
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
		else if (halts(insn))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_halt,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
		qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
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
		else if (!strcmp(k, "dram_window"))
			cfg.dram_window = v;
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
	if (!cfg.dram_mbps || !cfg.dram_window) {
		fprintf(stderr, "llcsim: dram_mbps and dram_window must not be 0\n");
		return -1;
	}
	cfg.line_shift = __builtin_ctz(cfg.line);
	cache_init(&llc, cfg.size, cfg.ways, true);
	llc.random = cfg.random;
	n_vcpus = info->system_emulation ? info->system.max_vcpus : 1;
	vcpus = g_new0(struct vcpu, n_vcpus);
	for (unsigned int i = 0; i < n_vcpus; i++) {
		if (cfg.l1_size)
			cache_init(&vcpus[i].l1, cfg.l1_size, cfg.l1_ways, false);
		vcpus[i].snap = g_new0(struct counters, n_vcpus);
		vcpus[i].series = g_array_new(FALSE, TRUE, sizeof(struct ms_point));
	}
	dram_init();
	if (report_open(geo.nr_colors))
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
