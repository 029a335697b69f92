// SPDX-License-Identifier: GPL-2.0
/*
 * From a parsed config to a system hv-color has checked: geometry, masks,
 * regions, then hv-color's system validator. Every problem is reported
 * with the config line it comes from.
 */
#include <stdlib.h>
#include <string.h>

#include "cacheinfo.h"
#include "hv.h"
#include "system_int.h"

static void free_masks(struct cg_system *sys)
{
	unsigned int i;

	free(sys->hv_colors);
	free(sys->all_colors);
	for (i = 0; i < CG_MAX_CELLS; i++) {
		free(sys->cells[i].cpus);
		free(sys->cells[i].colors);
	}
	for (i = 0; i < CG_MAX_CHANNELS; i++)
		free(sys->chan_colors[i]);
}

void cg_system_free(struct cg_system *sys)
{
	if (!sys)
		return;
	free_masks(sys);
	free(sys->hv);
	free(sys);
}

/* The LLC from the config's llc group, else from this machine's sysfs. */
static int resolve_geometry(struct cg_diag *d, struct cg_system *sys,
			    const char *sysroot)
{
	const struct cg_llc *llc = &sys->cfg.llc;
	uint64_t size = llc->size.v, ways = llc->ways.v, line = llc->line_size.v;
	uint64_t sets = llc->sets.v, way_size = llc->way_size.v;
	unsigned int ppc = llc->pages_per_color.v ? llc->pages_per_color.v : 1;
	char why[256];

	if (!llc->line) {
		struct cg_cacheinfo *ci = calloc(1, sizeof(*ci));

		if (!ci) {
			cg_err(d, 0, NULL, "llc", "out of memory");
			return -1;
		}
		if (cg_cacheinfo_read(sysroot, ci)) {
			cg_err(d, 0, NULL, "llc",
			       "not in the config, and sysfs cacheinfo: %s",
			       ci->error);
			free(ci);
			return -1;
		}
		size = ci->size;
		ways = ci->ways;
		line = ci->line_size;
		sets = ci->sets;
		snprintf(sys->geometry_source, sizeof(sys->geometry_source),
			 "%s", ci->dir);
		free(ci);
	} else {
		snprintf(sys->geometry_source, sizeof(sys->geometry_source),
			 "config");
	}
	if (!line)
		line = 64;
	if (way_size) {
		if (size || ways || sets) {
			cg_err(d, llc->way_size.line, NULL, "llc.way_size",
			       "give either way_size or size/ways/sets, not both");
			return -1;
		}
	} else if (cg_llc_way_size(size, ways, line, &sets, &way_size, why,
				   sizeof(why))) {
		cg_err(d, llc->line, NULL, "llc", "%s", why);
		return -1;
	}
	if (cg_hv_geometry(way_size, line, ppc, &sys->geom, why, sizeof(why))) {
		cg_err(d, llc->way_size.line ? llc->way_size.line : llc->line,
		       NULL, "llc", "%s", why);
		return -1;
	}
	sys->llc_size = size ? size : way_size * ways;
	sys->ways = ways;
	sys->line_size = line;
	return 0;
}

struct hvc_mask *cg_parse_mask(struct cg_diag *d, const struct cg_str *s,
			       unsigned int nbits, const char *label,
			       const char *field)
{
	struct hvc_mask *m = calloc(1, sizeof(struct hvc_mask));
	char why[256];

	if (!m) {
		cg_err(d, s->line, label, field, "out of memory");
		return NULL;
	}
	if (cg_hv_mask_parse(m, s->s, nbits, why, sizeof(why))) {
		cg_err(d, s->line, label, field, "%s", why);
		free(m);
		return NULL;
	}
	return m;
}

static void resolve_regions(struct cg_diag *d, struct cg_system *sys,
			    unsigned int ci)
{
	const struct cg_cell *cell = &sys->cfg.cells[ci];
	struct cg_sys_cell *sc = &sys->cells[ci];
	unsigned int i;
	char field[48], why[256];

	for (i = 0; i < cell->nr_regions; i++) {
		const struct cg_region *r = &cell->regions[i];
		struct cg_sys_region *sr = &sc->regions[i];
		const struct hvc_mask *m = r->colored ? sc->colors :
						sys->all_colors;

		if (!r->phys.line || !r->size.line)
			continue;	/* already reported */
		sr->span = r->span.v;
		if (cg_hv_region(&sys->geom, m, r->phys.v, r->size.v,
				 &sr->span, &sr->cell_size, &sr->extents, why,
				 sizeof(why))) {
			snprintf(field, sizeof(field), "memory[%u]", i);
			cg_err(d, r->line, cell->label, field, "%s", why);
			continue;
		}
		sr->ok = 1;
	}
}

struct report_ctx {
	struct cg_diag *d;
	const struct cg_system *sys;
};

/* hv-color's field names, the config's names for them. */
static const char *const field_names[][2] = {
	{ "host_base", "phys" },
	{ "host_size", "span" },
	{ "cell_base", "virt" },
	{ "cell_size", "size" },
	{ "flags", NULL },	/* type for a cell, colored for a region */
	{ "hv_colors", "hypervisor.colors" },
};

static const char *config_field(const char *field, int region)
{
	unsigned int i;

	if (!field)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(field_names); i++) {
		if (strcmp(field, field_names[i][0]))
			continue;
		if (field_names[i][1])
			return field_names[i][1];
		return region >= 0 ? "colored" : "type";
	}
	return field;
}

static unsigned int or_line(unsigned int line, unsigned int fallback)
{
	return line ? line : fallback;
}

/* Line of the config setting a field (in the config's terms) refers to. */
static unsigned int field_line(const struct cg_system *sys, int cell,
			       int region, const char *field)
{
	const struct cg_cell *c;

	if (!field)
		field = "";
	if (cell < 0) {
		if (strstr(field, "colors"))
			return or_line(sys->cfg.hv_colors.line, sys->cfg.cells_line);
		if (!strncmp(field, "llc", 3) || strstr(field, "geo"))
			return sys->cfg.llc.line;
		return sys->cfg.cells_line;
	}
	c = &sys->cfg.cells[cell];
	if (region >= 0 && (unsigned int)region < c->nr_regions) {
		const struct cg_region *r = &c->regions[region];

		if (!strcmp(field, "span"))
			return or_line(r->span.line, or_line(r->size.line, r->line));
		if (!strcmp(field, "size"))
			return or_line(r->size.line, r->line);
		if (!strcmp(field, "phys"))
			return or_line(r->phys.line, r->line);
		if (!strcmp(field, "virt"))
			return or_line(r->virt.line, r->line);
		if (!strcmp(field, "colored"))
			return or_line(r->colored_line, r->line);
		return r->line;
	}
	if (!strcmp(field, "colors"))
		return or_line(c->colors.line, c->line);
	if (!strcmp(field, "cpus"))
		return or_line(c->cpus.line, c->line);
	if (!strcmp(field, "name"))
		return or_line(c->name_line, c->line);
	if (!strcmp(field, "type"))
		return or_line(c->type_line, c->line);
	if (!strcmp(field, "read_mbps"))
		return or_line(c->read_mbps.line, c->line);
	if (!strcmp(field, "write_mbps"))
		return or_line(c->write_mbps.line, c->line);
	if (!strncmp(field, "region", 6) || !strncmp(field, "nr_regions", 10))
		return or_line(c->memory_line, c->line);
	return c->line;
}

static void report(void *ctx, int cell, int region, const char *hv_field,
		   const char *reason)
{
	struct report_ctx *rc = ctx;
	const struct cg_system *sys = rc->sys;
	const char *label = NULL, *field;
	char f[64];

	if (cell >= 0 && (unsigned int)cell < sys->cfg.nr_cells)
		label = sys->cfg.cells[cell].label;
	else
		cell = -1;
	if (cell < 0 || region < 0 ||
	    (unsigned int)region >= sys->cfg.cells[cell].nr_regions)
		region = -1;
	field = config_field(hv_field, region);
	if (region >= 0)
		snprintf(f, sizeof(f), "memory[%d]%s%s", region,
			 field ? "." : "", field ? field : "");
	else if (cell < 0 && field && !strcmp(field, "colors"))
		snprintf(f, sizeof(f), "hypervisor.colors");
	else if (cell < 0 && field && !strcmp(field, "type"))
		snprintf(f, sizeof(f), "cells");
	else
		snprintf(f, sizeof(f), "%s", field ? field : "");
	cg_err(rc->d, field_line(sys, cell, region, field), label,
	       f[0] ? f : NULL, "%s", reason);
}

static const hvc_u32 cell_flags[] = {
	[CG_CELL_ROOT] = HVC_CELL_ROOT,
	[CG_CELL_CRITICAL] = HVC_CELL_CRITICAL,
	[CG_CELL_NORMAL] = 0,
};

/* Hand the resolved system to hv-color and run its checks. */
static void validate(struct cg_diag *d, struct cg_system *sys)
{
	struct report_ctx rc = { .d = d, .sys = sys };
	struct hvc_system *hv;
	unsigned int i, j;

	hv = calloc(1, sizeof(*hv));
	sys->hv = hv;
	if (!hv) {
		cg_err(d, 0, NULL, NULL, "out of memory");
		return;
	}
	hv->geo = sys->geom;
	if (sys->hv_colors)
		hvc_mask_copy(&hv->hv_colors, sys->hv_colors);
	for (i = 0; i < sys->cfg.nr_cells; i++) {
		const struct cg_cell *c = &sys->cfg.cells[i];
		const struct cg_sys_cell *sc = &sys->cells[i];
		struct hvc_cell_desc *hc = &hv->cells[hv->nr_cells];

		if (hv->nr_cells >= HVC_MAX_CELLS ||
		    strlen(c->name) >= HVC_NAME_LEN ||
		    c->read_mbps.v > CG_MBPS_MAX || c->write_mbps.v > CG_MBPS_MAX) {
			cg_err(d, c->line, c->label, NULL,
			       "hv-color refused the cell");
			return;
		}
		strcpy(hc->name, c->name);
		hvc_mask_copy(&hc->cpus, sc->cpus);
		hvc_mask_copy(&hc->colors, sc->colors);
		hc->flags = cell_flags[c->type];
		hc->read_mbps = c->read_mbps.v;
		hc->write_mbps = c->write_mbps.v;
		hc->first_region = hv->nr_regions;
		hv->nr_cells++;
		for (j = 0; j < c->nr_regions; j++) {
			const struct cg_region *r = &c->regions[j];
			struct hvc_region_desc *hr = &hv->regions[hv->nr_regions];

			if (hv->nr_regions >= HVC_MAX_REGIONS) {
				cg_err(d, r->line, c->label, "memory",
				       "more regions than hv-color's system limit");
				continue;
			}
			hr->cell_base = r->virt.line ? r->virt.v : r->phys.v;
			hr->host_base = r->phys.v;
			hr->host_size = sys->cells[i].regions[j].span;
			hr->cell_size = r->size.v;
			hr->flags = r->colored ? HVC_REGION_COLORED : 0;
			hv->nr_regions++;
			hc->nr_regions++;
		}
	}
	cg_hv_sys_validate(hv, report, &rc);
}

struct cg_system *cg_system_build(struct cg_diag *d,
				  const struct cg_config *cfg,
				  const char *sysroot)
{
	struct cg_system *sys = calloc(1, sizeof(*sys));
	unsigned int before = d->errors, i;
	int incomplete = 0;

	if (!sys) {
		cg_err(d, 0, NULL, NULL, "out of memory");
		return NULL;
	}
	memcpy(&sys->cfg, cfg, sizeof(*cfg));
	if (resolve_geometry(d, sys, sysroot))
		goto fail;
	sys->all_colors = calloc(1, sizeof(struct hvc_mask));
	if (!sys->all_colors) {
		cg_err(d, 0, NULL, NULL, "out of memory");
		goto fail;
	}
	hvc_mask_fill(sys->all_colors, sys->geom.nr_colors);
	if (cfg->hv_colors.line) {
		sys->hv_colors = cg_parse_mask(d, &cfg->hv_colors,
					       sys->geom.nr_colors, NULL,
					       "hypervisor.colors");
		incomplete |= !sys->hv_colors;
	}
	for (i = 0; i < cfg->nr_cells; i++) {
		const struct cg_cell *c = &cfg->cells[i];
		struct cg_sys_cell *sc = &sys->cells[i];

		if (c->cpus.line)
			sc->cpus = cg_parse_mask(d, &c->cpus, CG_MAX_CPUS,
						 c->label, "cpus");
		if (c->colors.line)
			sc->colors = cg_parse_mask(d, &c->colors,
						   sys->geom.nr_colors, c->label,
						   "colors");
		/* Regions need colors: say what is missing, not what follows. */
		if (sc->colors && !hvc_mask_weight(sc->colors)) {
			cg_err(d, c->colors.line, c->label, "colors", "no colors");
			incomplete = 1;
		}
		if (!sc->cpus || !sc->colors || !c->name[0] || incomplete) {
			incomplete = 1;
			continue;
		}
		resolve_regions(d, sys, i);
	}
	/* The system checks need every cell whole. */
	if (!incomplete && d->errors == before)
		validate(d, sys);
	if (!incomplete)
		cg_channels_check(d, sys);
	if (d->errors == before)
		return sys;
fail:
	cg_system_free(sys);
	return NULL;
}

const char *cg_sysfs_root(void)
{
	const char *r = getenv("COLORGUARD_SYSFS");

	return r && *r ? r : "/sys";
}

const char *cg_procfs_root(void)
{
	const char *r = getenv("COLORGUARD_PROCFS");

	return r && *r ? r : "/proc";
}

struct cg_system *cg_system_load(const char *path)
{
	struct cg_diag d = { .file = path, .out = stderr };
	struct cg_config *cfg = calloc(1, sizeof(*cfg));
	struct cg_system *sys = NULL;

	if (!cfg) {
		fprintf(stderr, "colorguard: out of memory\n");
		return NULL;
	}
	if (!cg_config_load(&d, path, cfg))
		sys = cg_system_build(&d, cfg, cg_sysfs_root());
	free(cfg);
	if (sys && d.errors) {
		cg_system_free(sys);
		sys = NULL;
	}
	return sys;
}
