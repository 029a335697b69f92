// SPDX-License-Identifier: GPL-2.0
/* `colorguard plan`: what each cell gets, in figures a person can check. */
#include <string.h>

#include <colorguard/cell_comm.h>

#include "channels.h"
#include "system_int.h"

static const char *const type_names[] = {
	[CG_CELL_ROOT] = "root",
	[CG_CELL_CRITICAL] = "critical",
	[CG_CELL_NORMAL] = "normal",
};

/* a/b as a percentage with one decimal, integer math. */
static void percent(uint64_t a, uint64_t b, char *buf, size_t len)
{
	uint64_t tenths = b ? (a * 1000 + b / 2) / b : 0;

	snprintf(buf, len, "%llu.%llu%%", (unsigned long long)(tenths / 10),
		 (unsigned long long)(tenths % 10));
}

static void print_budget(FILE *out, const char *what, const struct cg_u64 *b,
			 const struct cg_system *sys)
{
	hvc_u64 events;

	if (!b->line) {
		fprintf(out, "  %-11s unlimited\n", what);
		return;
	}
	if (b->v > CG_MBPS_MAX ||
	    hvc_budget_events(b->v, sys->cfg.period_us.v, sys->line_size,
			      &events)) {
		fprintf(out, "  %-11s %llu MB/s per CPU\n", what,
			(unsigned long long)b->v);
		return;
	}
	fprintf(out, "  %-11s %llu MB/s per CPU = %llu events of %llu B per %llu us\n",
		what, (unsigned long long)b->v, (unsigned long long)events,
		(unsigned long long)sys->line_size,
		(unsigned long long)sys->cfg.period_us.v);
}

/* One channel: its geometry and each cell's part, windows included. */
static void print_channel(FILE *out, const struct cg_system *sys, unsigned int ch)
{
	const struct cg_channel *c = &sys->cfg.channels[ch];
	char a[32], b[32], list[CG_LIST_MAX + 1];
	struct chan_geom g;
	unsigned int i, j, reader = 0;

	cg_chan_geom(&sys->cfg, ch, &g);
	hvc_mask_format(sys->chan_colors[ch], list, sizeof(list));
	fprintf(out, "\nchannel \"%s\" (%s%s%s%s), colors %s, records of at most %u B\n",
		c->name, c->kind == CG_CHAN_QUEUE ? "queue" : "state",
		c->reliable[0] ? ", reliable for \"" : "", c->reliable,
		c->reliable[0] ? "\"" : "", list, g.max_record);
	cg_size_str(g.kind == CHAN_KIND_QUEUE ? g.ring_size : 0, a, sizeof(a));
	cg_size_str(g.writer_size, b, sizeof(b));
	if (g.kind == CHAN_KIND_QUEUE)
		fprintf(out, "  %-11s ring %s in a writer's region of %s%s\n", "geometry",
			a, b, c->doorbell ? ", doorbell" : "");
	else
		fprintf(out, "  %-11s two slots in a writer's region of %s%s\n", "geometry",
			b, c->doorbell ? ", doorbell" : "");
	for (i = 0; i < sys->cfg.nr_cells; i++) {
		const struct cg_cell *cell = &sys->cfg.cells[i];

		for (j = 0; j < cell->nr_chan_refs; j++) {
			const struct cg_chan_ref *r = &cell->chan_refs[j];
			char name[24];

			if (r->chan != (int)ch)
				continue;
			if (r->role == CG_CHAN_WRITER)
				snprintf(name, sizeof(name), "writer");
			else if (r->readers.v > 1)
				snprintf(name, sizeof(name), "readers %u-%u", reader,
					 reader + (unsigned int)r->readers.v - 1);
			else
				snprintf(name, sizeof(name), "reader %u", reader);
			if (r->role == CG_CHAN_READER)
				reader += r->readers.v;
			if (!r->address.line)
				fprintf(out, "  %-11s %s (root Linux: its processes map it)\n",
					name, cell->label);
			else if (r->role == CG_CHAN_WRITER)
				fprintf(out, "  %-11s %s, region at 0x%llx, peers page at 0x%llx%s\n",
					name, cell->label, (unsigned long long)r->address.v,
					(unsigned long long)(r->address.v + g.writer_size),
					g.flags ? ", the readers' feedback pages after it" : "");
			else
				fprintf(out, "  %-11s %s, region read-only at 0x%llx, peers page at 0x%llx, its feedback page at 0x%llx\n",
					name, cell->label, (unsigned long long)r->address.v,
					(unsigned long long)(r->address.v + g.writer_size),
					(unsigned long long)(r->address.v + g.writer_size +
							     CHAN_PEERS_SIZE));
		}
	}
}

void cg_plan_print(FILE *out, const struct cg_system *sys)
{
	const struct hvc_geometry *g = &sys->geom;
	char a[32], b[32], c[32], list[CG_LIST_MAX + 1];
	unsigned int i, j, k;
	enum cg_cma mode;

	cg_size_str(sys->llc_size, a, sizeof(a));
	cg_size_str(g->way_size, b, sizeof(b));
	cg_size_str(1ull << g->page_shift, c, sizeof(c));
	fprintf(out, "llc         %s, %llu ways, %llu B lines, way %s, %u colors of %s (from %s)\n",
		a, (unsigned long long)sys->ways,
		(unsigned long long)sys->line_size, b, g->nr_colors, c,
		sys->geometry_source);
	fprintf(out, "period      %llu us\n",
		(unsigned long long)sys->cfg.period_us.v);
	mode = cg_cma_mode(&sys->cfg);
	if (mode == CG_CMA_QUARANTINE)
		fprintf(out, "cma         %s%s: %s\n", cg_cma_name(mode),
			sys->cfg.cma ? "" : " (default: a critical cell)",
			"free pages of CMA areas and ZONE_MOVABLE of the other cells' colors are quarantined too");
	else
		fprintf(out, "cma         %s%s: %s\n", cg_cma_name(mode),
			sys->cfg.cma ? "" : " (default: no critical cell)",
			"free pages of CMA areas and ZONE_MOVABLE stay with root Linux, whatever their color");
	if (sys->hv_colors) {
		k = hvc_mask_weight(sys->hv_colors);
		hvc_mask_format(sys->hv_colors, list, sizeof(list));
		percent(k, g->nr_colors, a, sizeof(a));
		cg_size_str(sys->llc_size / g->nr_colors * k, b, sizeof(b));
		fprintf(out, "hypervisor  colors %s (%u of %u, %s of the LLC, %s)\n",
			list, k, g->nr_colors, a, b);
	}

	for (i = 0; i < sys->cfg.nr_cells; i++) {
		const struct cg_cell *cell = &sys->cfg.cells[i];
		const struct cg_sys_cell *sc = &sys->cells[i];

		hvc_mask_format(sc->cpus, list, sizeof(list));
		fprintf(out, "\ncell \"%s\" (%s), CPUs %s\n", cell->name,
			type_names[cell->type], list);
		k = hvc_mask_weight(sc->colors);
		hvc_mask_format(sc->colors, list, sizeof(list));
		percent(k, g->nr_colors, a, sizeof(a));
		cg_size_str(sys->llc_size / g->nr_colors * k, b, sizeof(b));
		fprintf(out, "  %-11s %s (%u of %u, %s of the LLC, %s)\n",
			"colors", list, k, g->nr_colors, a, b);
		if (cell->type == CG_CELL_CRITICAL) {
			fprintf(out, "  %-11s critical: never throttled\n",
				"bandwidth");
		} else {
			print_budget(out, "read", &cell->read_mbps, sys);
			print_budget(out, "write", &cell->write_mbps, sys);
		}
		for (j = 0; j < cell->nr_regions; j++) {
			const struct cg_region *r = &cell->regions[j];
			const struct cg_sys_region *sr = &sc->regions[j];
			uint64_t virt = r->virt.line ? r->virt.v : r->phys.v;
			char name[24], room[48] = "";

			snprintf(name, sizeof(name), "memory[%u]", j);
			/* The cell gets size; a span may hold more (whole blocks). */
			cg_size_str(r->size.v, a, sizeof(a));
			cg_size_str(sr->span, b, sizeof(b));
			if (sr->cell_size > r->size.v) {
				cg_size_str(sr->cell_size, c, sizeof(c));
				snprintf(room, sizeof(room), " (room for %s)", c);
			}
			fprintf(out, "  %-11s %s, cell 0x%llx +%s, host 0x%llx +%s%s, %llu extent%s\n",
				name, r->colored ? "colored" : "uncolored",
				(unsigned long long)virt, a,
				(unsigned long long)r->phys.v, b, room,
				(unsigned long long)sr->extents,
				sr->extents == 1 ? "" : "s");
		}
		if (cell->image.line)
			fprintf(out, "  %-11s %s\n", "image", cell->image.s);
		if (cell->args.line)
			fprintf(out, "  %-11s \"%s\"\n", "args", cell->args.s);
		if (cell->comm.line)
			fprintf(out, "  %-11s 0x%llx\n", "comm",
				(unsigned long long)cell->comm.v);
		if (cell->console.line)
			fprintf(out, "  %-11s 0x%llx\n", "console",
				(unsigned long long)cell->console.v);
		if (cell->bwlock) {
			fprintf(out, "  %-11s allowed (register at console + 0x%x)\n",
				"bwlock", CELL_BWLOCK_REG_OFFSET);
			fprintf(out, "  %-11s holds of at most %llu ms, %llu ms apart, at %llu per mille or more\n",
				"", (unsigned long long)cg_cell_bwlock_hold_ms(cell),
				(unsigned long long)cg_cell_bwlock_gap_ms(cell),
				(unsigned long long)cg_cell_bwlock_level(cell));
		}
	}
	for (i = 0; i < sys->cfg.nr_channels; i++)
		print_channel(out, sys, i);
}
