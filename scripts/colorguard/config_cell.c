// SPDX-License-Identifier: GPL-2.0
/*
 * The config reader's cells section: each cell's keys and its memory
 * regions.
 */
#include <libconfig.h>
#include <stdio.h>
#include <string.h>

#include "colorguard.h"
#include "config_int.h"

static const char *const region_keys[] = {
	"phys", "virt", "size", "span", "colored", NULL
};

static void read_region(struct cfg_ctx *c, const config_setting_t *s,
			unsigned int idx, struct cg_region *r)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "memory[%u]", idx);
	r->line = cfg_line(s);
	r->colored = true;
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		snprintf(c->field, sizeof(c->field), "%s", prefix);
		cfg_wrong_type(c, s, "a group { }");
		return;
	}
	cfg_check_keys(c, s, prefix, region_keys);
	cfg_get_u64(c, s, prefix, "phys", 0, UINT64_MAX, &r->phys);
	cfg_get_u64(c, s, prefix, "virt", 0, UINT64_MAX, &r->virt);
	cfg_get_u64(c, s, prefix, "size", 1, UINT64_MAX, &r->size);
	cfg_get_u64(c, s, prefix, "span", 1, UINT64_MAX, &r->span);
	cfg_get_bool(c, s, prefix, "colored", &r->colored, &r->colored_line);
	if (!config_setting_get_member(s, "phys"))
		cfg_missing(c, r->line, prefix, "phys");
	if (!config_setting_get_member(s, "size"))
		cfg_missing(c, r->line, prefix, "size");
}

static const char *const cell_keys[] = {
	"name", "type", "cpus", "colors", "read_mbps", "write_mbps", "memory",
	"image", "args", "comm", "console", "autostart", "bwlock",
	"console_output", "exit_rate", "bwlock_max_hold_ms",
	"bwlock_min_gap_ms", "bwlock_min_level", "vcpu_priority", "channels", NULL
};

/*
 * The limits of a cell's bandwidth lock, checked where it is granted: a
 * limit without the permission is a mistake worth a line.
 */
static void read_bwlock(struct cfg_ctx *c, const config_setting_t *s,
			struct cg_cell *cell)
{
	static const char *const keys[] = {
		"bwlock_max_hold_ms", "bwlock_min_gap_ms", "bwlock_min_level"
	};
	unsigned int i;

	cfg_get_bool(c, s, NULL, "bwlock", &cell->bwlock, &cell->bwlock_line);
	if (cell->bwlock && cell->type == CG_CELL_ROOT)
		cg_err(c->d, cell->bwlock_line, c->label, "bwlock",
		       "the root cell is root Linux itself: its tasks open /dev/memguard");
	cfg_get_u64(c, s, NULL, keys[0], CG_BWLOCK_MAX_HOLD_MS_MIN,
		    CG_BWLOCK_MAX_HOLD_MS_MAX, &cell->bwlock_max_hold_ms);
	cfg_get_u64(c, s, NULL, keys[1], 0, CG_CELL_BWLOCK_GAP_MS_MAX,
		    &cell->bwlock_min_gap_ms);
	cfg_get_u64(c, s, NULL, keys[2], 1, CG_CELL_BWLOCK_LEVEL_MAX,
		    &cell->bwlock_min_level);
	if (cell->bwlock)
		return;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const config_setting_t *v = config_setting_get_member(s, keys[i]);

		if (v)
			cg_err(c->d, cfg_line(v), c->label, keys[i],
			       "set without bwlock = true: the cell may not take the lock");
	}
}

static void read_cell(struct cfg_ctx *c, const config_setting_t *s,
		      unsigned int idx, struct cg_cell *cell)
{
	const config_setting_t *v;
	unsigned int i, n;

	cell->line = cfg_line(s);
	cell->type = CG_CELL_NORMAL;
	snprintf(cell->label, sizeof(cell->label), "cells[%u]", idx);
	c->label = cell->label;
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		c->label = NULL;
		snprintf(c->field, sizeof(c->field), "cells[%u]", idx);
		cfg_wrong_type(c, s, "a group { }");
		return;
	}

	cfg_get_name(c, s, NULL, "name", cell->name, &cell->name_line);
	v = config_setting_get_member(s, "name");
	if (!v)
		cfg_missing(c, cell->line, NULL, "name");
	else if (cell->name_line)
		/* From the setting: gcc -Wrestrict cannot tell name from label. */
		snprintf(cell->label, sizeof(cell->label), "cell \"%s\"",
			 config_setting_get_string(v));

	cfg_check_keys(c, s, NULL, cell_keys);

	v = config_setting_get_member(s, "type");
	cfg_field(c, NULL, "type");
	if (!v) {
		cg_err(c->d, cell->line, c->label, c->field,
		       "missing (root, critical or normal)");
	} else if (config_setting_type(v) != CONFIG_TYPE_STRING) {
		cfg_wrong_type(c, v, "a string");
	} else {
		const char *t = config_setting_get_string(v);

		cell->type_line = cfg_line(v);
		if (!strcmp(t, "root"))
			cell->type = CG_CELL_ROOT;
		else if (!strcmp(t, "critical"))
			cell->type = CG_CELL_CRITICAL;
		else if (!strcmp(t, "normal"))
			cell->type = CG_CELL_NORMAL;
		else
			cg_err(c->d, cfg_line(v), c->label, c->field,
			       "must be root, critical or normal");
	}

	cfg_get_str(c, s, NULL, "cpus", &cell->cpus);
	if (!config_setting_get_member(s, "cpus"))
		cfg_missing(c, cell->line, NULL, "cpus");
	cfg_get_str(c, s, NULL, "colors", &cell->colors);
	if (!config_setting_get_member(s, "colors"))
		cfg_missing(c, cell->line, NULL, "colors");
	cfg_get_u64(c, s, NULL, "read_mbps", 1, CG_MBPS_MAX, &cell->read_mbps);
	cfg_get_u64(c, s, NULL, "write_mbps", 1, CG_MBPS_MAX,
		    &cell->write_mbps);
	cfg_get_str(c, s, NULL, "image", &cell->image);
	if (cell->image.line && !cell->image.s[0])
		cg_err(c->d, cell->image.line, c->label, "image", "empty path");
	cfg_get_str(c, s, NULL, "args", &cell->args);
	if (strlen(cell->args.s) > CG_ARGS_MAX)
		cg_err(c->d, cell->args.line, c->label, "args",
		       "longer than %u characters", CG_ARGS_MAX);
	/* Page-aligned guest addresses below 2^48; the runner checks overlap. */
	cfg_get_u64(c, s, NULL, "comm", 0, (1ull << 48) - 4096, &cell->comm);
	if (cell->comm.line && (cell->comm.v & 4095))
		cg_err(c->d, cell->comm.line, c->label, "comm",
		       "0x%llx is not page aligned",
		       (unsigned long long)cell->comm.v);
	cfg_get_u64(c, s, NULL, "console", 0, (1ull << 48) - 1, &cell->console);
	cfg_get_bool(c, s, NULL, "autostart", &cell->autostart,
		     &cell->autostart_line);
	if (cell->autostart && cell->type == CG_CELL_ROOT)
		cg_err(c->d, cell->autostart_line, c->label, "autostart",
		       "the root cell is root Linux itself: nothing to start");
	read_bwlock(c, s, cell);
	cfg_get_u64(c, s, NULL, "exit_rate", CG_EXIT_RATE_MIN, CG_EXIT_RATE_MAX,
		    &cell->exit_rate);
	if (cell->exit_rate.line && cell->type == CG_CELL_ROOT)
		cg_err(c->d, cell->exit_rate.line, c->label, "exit_rate",
		       "the root cell is root Linux itself: it makes no exits");
	cfg_get_u64(c, s, NULL, "vcpu_priority", CG_VCPU_PRIORITY_MIN,
		    CG_VCPU_PRIORITY_MAX, &cell->vcpu_priority);
	if (cell->vcpu_priority.line && cell->type == CG_CELL_ROOT)
		cg_err(c->d, cell->vcpu_priority.line, c->label, "vcpu_priority",
		       "the root cell is root Linux itself: it has no vCPU threads");
	cfg_get_bool(c, s, NULL, "console_output", &cell->console_output,
		     &cell->console_output_line);
	if (cell->console_output_line && cell->type == CG_CELL_ROOT)
		cg_err(c->d, cell->console_output_line, c->label,
		       "console_output",
		       "the root cell is root Linux itself: it has no cell console");
	cfg_read_cell_channels(c, s, cell);

	v = config_setting_get_member(s, "memory");
	cfg_field(c, NULL, "memory");
	if (!v) {
		cg_err(c->d, cell->line, c->label, c->field, "missing");
	} else if (config_setting_type(v) != CONFIG_TYPE_LIST) {
		cfg_wrong_type(c, v, "a list ( )");
	} else {
		cell->memory_line = cfg_line(v);
		n = config_setting_length(v);
		if (n == 0)
			cg_err(c->d, cfg_line(v), c->label, c->field,
			       "needs at least one region");
		if (n > CG_MAX_REGIONS) {
			cg_err(c->d, cfg_line(v), c->label, c->field,
			       "%u regions, at most %u", n, CG_MAX_REGIONS);
			n = CG_MAX_REGIONS;
		}
		for (i = 0; i < n; i++)
			read_region(c, config_setting_get_elem(v, i), i,
				    &cell->regions[i]);
		cell->nr_regions = n;
	}
	c->label = NULL;
}

/* The cells list: every cell, and no two of the same name. */
void cfg_read_cells(struct cfg_ctx *c, const config_setting_t *root,
		    struct cg_config *cfg)
{
	const config_setting_t *cells;
	unsigned int i, j, n;

	if (!config_setting_get_member(root, "cells")) {
		cfg_missing(c, 0, NULL, "cells");
		return;
	}
	cells = cfg_get_list(c, root, "cells", CG_MAX_CELLS, "cells", &n);
	if (!cells)
		return;
	cfg->cells_line = cfg_line(cells);
	if (n == 0)
		cg_err(c->d, cfg_line(cells), NULL, c->field, "no cells");
	for (i = 0; i < n; i++)
		read_cell(c, config_setting_get_elem(cells, i), i,
			  &cfg->cells[i]);
	cfg->nr_cells = n;

	for (i = 0; i < n; i++) {
		if (!cfg->cells[i].name[0])
			continue;
		for (j = 0; j < i; j++) {
			if (strcmp(cfg->cells[i].name, cfg->cells[j].name))
				continue;
			cg_err(c->d, cfg->cells[i].name_line,
			       cfg->cells[i].label, "name",
			       "same name as the cell on line %u",
			       cfg->cells[j].name_line);
			break;
		}
	}
}
