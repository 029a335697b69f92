// SPDX-License-Identifier: GPL-2.0
/*
 * llcsim's report: the windows the guest's markers open and close, and
 * the TSV files (README.md) they and the totals go to.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <qemu-plugin.h>

#include <colorguard/llcsim.h>

#include "llcsim_int.h"

static FILE *out;
static GMutex out_lock;

/* The TSV file (cfg.out), its configuration line and column header. */
int report_open(unsigned int nr_colors)
{
	if (!cfg.out)
		return 0;
	out = fopen(cfg.out, "w");
	if (!out) {
		fprintf(stderr, "llcsim: %s: %s\n", cfg.out, strerror(errno));
		return -1;
	}
	fprintf(out, "# llcsim size=%" PRIu64 " ways=%u line=%u sets=%u colors=%u"
		" repl=%s user_only=%d l1=%" PRIu64 " l1_ways=%u insn_ps=%" PRIu64
		" hit_ps=%" PRIu64 " dram_ps=%" PRIu64 " dram_mbps=%" PRIu64
		" dram_window=%" PRIu64 " vcpus=%u\n",
		cfg.size, cfg.ways, cfg.line, llc.sets, nr_colors,
		cfg.random ? "random" : "lru", cfg.user_only,
		cfg.l1_size, cfg.l1_ways, cfg.insn_ps, cfg.hit_ps,
		cfg.dram_ps, cfg.dram_mbps, cfg.dram_window, n_vcpus);
	fprintf(out, "kind\tvcpu\twindow\tseq\tinsns\taccesses\tllc_accesses"
		"\tllc_hits\tllc_misses\twritebacks\tevicted_by_other"
		"\tmodel_ns\tdram_wait_ns\n");
	fflush(out);
	return 0;
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

void vcpu_marker(unsigned int idx, void *udata)
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

void plugin_exit(qemu_plugin_id_t id, void *p)
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
