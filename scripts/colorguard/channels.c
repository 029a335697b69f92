// SPDX-License-Identifier: GPL-2.0
/*
 * The config's channels against the whole system: each channel has one
 * writer cell and at least one reader, a geometry the protocol core
 * accepts (chan_geom_check()) in a region that fits one mm-color shared
 * object, comm colors of its own (no cell's, none of
 * the hypervisor's: a shared buffer would be an interference path into
 * the colors it used), and guest windows clear of each cell's memory, comm
 * page, console and other windows. cg_chan_geom() is the one place a
 * channel's geometry comes from.
 */
#include <stdlib.h>
#include <string.h>

#include <colorguard/cell_comm.h>
#include <colorguard/chan.h>
#include <colorguard/limits.h>

#include "channels.h"
#include "system_int.h"

#define PAGE		4096ull
#define PAGE_UP(x)	(((x) + PAGE - 1) & ~(PAGE - 1))

void cg_chan_geom(const struct cg_config *cfg, unsigned int ch, struct chan_geom *g)
{
	const struct cg_channel *c = &cfg->channels[ch];
	unsigned int i, j, reader = 0;
	uint64_t data;

	memset(g, 0, sizeof(*g));
	g->kind = c->kind == CG_CHAN_QUEUE ? CHAN_KIND_QUEUE : CHAN_KIND_STATE;
	g->flags = (c->reliable[0] ? CHAN_F_RELIABLE : 0) |
		   (c->doorbell ? CHAN_F_DOORBELL : 0);
	g->max_record = c->max_record.v;
	/* Readers are numbered in the order of the cells list. */
	for (i = 0; i < cfg->nr_cells; i++) {
		const struct cg_cell *cell = &cfg->cells[i];

		for (j = 0; j < cell->nr_chan_refs; j++) {
			const struct cg_chan_ref *r = &cell->chan_refs[j];

			if (r->role != CG_CHAN_READER || strcmp(r->name, c->name))
				continue;
			if (c->reliable[0] && !strcmp(cell->name, c->reliable))
				g->reliable_reader = reader;
			reader += r->readers.v;
		}
	}
	g->nr_readers = reader;
	g->ctrl_off = 0;
	g->data_off = CHAN_CTRL_SIZE;
	if (c->kind == CG_CHAN_QUEUE) {
		g->ring_size = c->size.v;
		data = c->size.v;
	} else {
		data = 2 * (uint64_t)CHAN_SLOT_SIZE(c->max_record.v);
	}
	g->writer_size = PAGE_UP(g->data_off + data);
	g->feedback_size = PAGE;
	g->feedback_off = 0;
}

int cg_chan_first_reader(const struct cg_config *cfg, unsigned int ch,
			 const struct cg_cell *cell)
{
	const char *name = cfg->channels[ch].name;
	unsigned int i, j;
	int reader = 0;

	for (i = 0; i < cfg->nr_cells; i++) {
		const struct cg_cell *o = &cfg->cells[i];

		for (j = 0; j < o->nr_chan_refs; j++) {
			const struct cg_chan_ref *r = &o->chan_refs[j];

			if (r->role != CG_CHAN_READER || strcmp(r->name, name))
				continue;
			if (o == cell)
				return reader;
			reader += r->readers.v;
		}
	}
	return -1;
}

uint64_t cg_chan_window(const struct cg_config *cfg, unsigned int ch,
			enum cg_chan_role role)
{
	struct chan_geom g;
	uint64_t fb;

	cg_chan_geom(cfg, ch, &g);
	if (role == CG_CHAN_READER)
		fb = g.feedback_size;
	else
		fb = g.flags ? g.nr_readers * g.feedback_size : 0;
	return g.writer_size + CHAN_PEERS_SIZE + fb;
}

int cg_chan_find(const struct cg_config *cfg, const char *name)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_channels; i++)
		if (!strcmp(cfg->channels[i].name, name))
			return i;
	return -1;
}

static int overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* The channel directory, the page below the comm page (cell_chan.h). */
static void check_directory(struct cg_diag *d, const struct cg_cell *cell, uint64_t comm)
{
	unsigned int j;

	if (!cell->nr_chan_refs || cell->type == CG_CELL_ROOT)
		return;
	if (comm < PAGE) {
		cg_err(d, cell->comm.line ? cell->comm.line : cell->line, cell->label, "comm",
		       "0x%llx leaves no page below it for the channel directory",
		       (unsigned long long)comm);
		return;
	}
	for (j = 0; j < cell->nr_regions; j++) {
		const struct cg_region *m = &cell->regions[j];
		uint64_t virt = m->virt.line ? m->virt.v : m->phys.v;

		if (overlaps(comm - PAGE, PAGE, virt, m->size.v))
			cg_err(d, cell->comm.line ? cell->comm.line : cell->line, cell->label,
			       "comm", "the channel directory at 0x%llx (the page below the comm page) overlaps memory[%u]",
			       (unsigned long long)(comm - PAGE), j);
	}
}

/* A cell's windows against its memory, comm page, console and each other. */
static void check_windows(struct cg_diag *d, const struct cg_config *cfg,
			  const struct cg_cell *cell)
{
	uint64_t comm = cell->comm.line ? cell->comm.v : CELL_COMM_DEFAULT_ADDR;
	unsigned int i, j;

	check_directory(d, cell, comm);

	for (i = 0; i < cell->nr_chan_refs; i++) {
		const struct cg_chan_ref *r = &cell->chan_refs[i];
		uint64_t at = r->address.v, len;

		if (r->chan < 0 || !r->address.line)
			continue;
		len = cg_chan_window(cfg, r->chan, r->role);
		for (j = 0; j < cell->nr_regions; j++) {
			const struct cg_region *m = &cell->regions[j];
			uint64_t virt = m->virt.line ? m->virt.v : m->phys.v;

			if (overlaps(at, len, virt, m->size.v))
				cg_err(d, r->address.line, cell->label, "channels",
				       "\"%s\" at 0x%llx +0x%llx overlaps memory[%u]",
				       r->name, (unsigned long long)at,
				       (unsigned long long)len, j);
		}
		if (overlaps(at, len, comm - PAGE, PAGE + CELL_COMM_SIZE))
			cg_err(d, r->address.line, cell->label, "channels",
			       "\"%s\" at 0x%llx +0x%llx overlaps the comm page 0x%llx or the directory below it",
			       r->name, (unsigned long long)at,
			       (unsigned long long)len, (unsigned long long)comm);
		if (cell->console.line &&
		    overlaps(at, len, cell->console.v & ~(PAGE - 1), PAGE))
			cg_err(d, r->address.line, cell->label, "channels",
			       "\"%s\" at 0x%llx +0x%llx overlaps the console page",
			       r->name, (unsigned long long)at,
			       (unsigned long long)len);
		for (j = 0; j < i; j++) {
			const struct cg_chan_ref *o = &cell->chan_refs[j];

			if (o->chan >= 0 && o->address.line &&
			    overlaps(at, len, o->address.v,
				     cg_chan_window(cfg, o->chan, o->role)))
				cg_err(d, r->address.line, cell->label, "channels",
				       "\"%s\" at 0x%llx overlaps \"%s\"'s window",
				       r->name, (unsigned long long)at, o->name);
		}
	}
}

/* Comm colors: some, and none that a cell or the hypervisor uses. */
static void check_colors(struct cg_diag *d, struct cg_system *sys, unsigned int ch,
			 struct hvc_mask *colors)
{
	const struct cg_channel *c = &sys->cfg.channels[ch];
	struct hvc_mask both;
	char list[CG_LIST_MAX];
	unsigned int i;

	if (!hvc_mask_weight(colors)) {
		cg_err(d, c->colors.line, NULL, "channels", "\"%s\": no colors", c->name);
		return;
	}
	for (i = 0; i < sys->cfg.nr_cells; i++) {
		if (!sys->cells[i].colors)
			continue;
		hvc_mask_and(&both, colors, sys->cells[i].colors);
		if (!hvc_mask_weight(&both))
			continue;
		hvc_mask_format(&both, list, sizeof(list));
		cg_err(d, c->colors.line, NULL, "channels",
		       "\"%s\": colors %s are also %s's: a channel's pages get comm colors of their own",
		       c->name, list, sys->cfg.cells[i].label);
	}
	if (sys->hv_colors) {
		hvc_mask_and(&both, colors, sys->hv_colors);
		if (hvc_mask_weight(&both)) {
			hvc_mask_format(&both, list, sizeof(list));
			cg_err(d, c->colors.line, NULL, "channels",
			       "\"%s\": colors %s are also the hypervisor's", c->name, list);
		}
	}
}

/* Each channel: one writer, readers, the reliable one among them. */
static void check_roles(struct cg_diag *d, const struct cg_config *cfg, unsigned int ch)
{
	const struct cg_channel *c = &cfg->channels[ch];
	unsigned int i, j, writers = 0, readers = 0, reliable = 0;
	const struct cg_cell *writer = NULL;

	for (i = 0; i < cfg->nr_cells; i++) {
		const struct cg_cell *cell = &cfg->cells[i];

		for (j = 0; j < cell->nr_chan_refs; j++) {
			const struct cg_chan_ref *r = &cell->chan_refs[j];

			if (r->chan != (int)ch)
				continue;
			if (r->role == CG_CHAN_READER) {
				readers += r->readers.v;
				reliable |= !strcmp(cell->name, c->reliable);
				continue;
			}
			if (writers++)
				cg_err(d, r->line, cell->label, "channels",
				       "\"%s\" already has a writer, %s: a channel has one",
				       c->name, writer->label);
			writer = cell;
		}
	}
	if (!writers)
		cg_err(d, c->line, NULL, "channels", "\"%s\": no cell writes it", c->name);
	if (!readers)
		cg_err(d, c->line, NULL, "channels", "\"%s\": no cell reads it", c->name);
	if (readers > CHAN_MAX_READERS)
		cg_err(d, c->line, NULL, "channels", "\"%s\": %u readers, at most %u",
		       c->name, readers, CHAN_MAX_READERS);
	if (c->reliable[0] && !reliable)
		cg_err(d, c->reliable_line, NULL, "channels",
		       "\"%s\": reliable names \"%s\", which does not read it",
		       c->name, c->reliable);
}

void cg_channels_check(struct cg_diag *d, struct cg_system *sys)
{
	struct cg_config *cfg = &sys->cfg;
	struct chan_geom g;
	enum chan_geom_err e;
	unsigned int i, j;

	for (i = 0; i < cfg->nr_cells; i++) {
		struct cg_cell *cell = &cfg->cells[i];

		for (j = 0; j < cell->nr_chan_refs; j++) {
			struct cg_chan_ref *r = &cell->chan_refs[j];

			r->chan = cg_chan_find(cfg, r->name);
			if (r->chan < 0 && r->name[0])
				cg_err(d, r->line, cell->label, "channels",
				       "no channel \"%s\" in the channels list", r->name);
		}
	}
	for (i = 0; i < cfg->nr_channels; i++) {
		const struct cg_channel *c = &cfg->channels[i];

		check_roles(d, cfg, i);
		cg_chan_geom(cfg, i, &g);
		/* No readers is reported above; the geometry needs one for flags. */
		if (g.nr_readers && g.nr_readers <= CHAN_MAX_READERS) {
			e = chan_geom_check(&g);
			if (e != CHAN_GEOM_OK)
				cg_err(d, c->line, NULL, "channels", "\"%s\": %s",
				       c->name, chan_geom_str(e));
		}
		/* The writer's region is one mm-color shared object. */
		if (g.writer_size > CG_MMC_OBJECT_MAX_BYTES)
			cg_err(d, c->line, NULL, "channels",
			       "\"%s\": a region of %llu MiB, above mm-color's object limit of %llu MiB",
			       c->name, (unsigned long long)(g.writer_size >> 20),
			       (unsigned long long)(CG_MMC_OBJECT_MAX_BYTES >> 20));
		if (!c->colors.line)
			continue;
		sys->chan_colors[i] = cg_parse_mask(d, &c->colors, sys->geom.nr_colors,
						    NULL, "channels");
		if (sys->chan_colors[i])
			check_colors(d, sys, i, sys->chan_colors[i]);
	}
	for (i = 0; i < cfg->nr_cells; i++)
		check_windows(d, cfg, &cfg->cells[i]);
}
