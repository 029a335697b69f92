/* SPDX-License-Identifier: GPL-2.0 */
/* Inside struct cg_system: shared by system.c, plan.c and apply.c. */
#ifndef COLORGUARD_SYSTEM_INT_H
#define COLORGUARD_SYSTEM_INT_H

#include <limits.h>

#include "hv.h"
#include "system.h"

#define CG_MAX_CPUS	1024

struct cg_sys_region {
	uint64_t span;		/* host bytes */
	uint64_t cell_size;	/* bytes the cell gets */
	uint64_t extents;	/* mappings */
	int ok;
};

struct cg_sys_cell {
	struct hvc_mask *cpus;
	struct hvc_mask *colors;
	struct cg_sys_region regions[CG_MAX_REGIONS];
};

struct cg_system {
	struct cg_config cfg;
	struct hvc_geometry geom;
	uint64_t llc_size;
	uint64_t ways;
	uint64_t line_size;
	char geometry_source[PATH_MAX];
	struct hvc_mask *hv_colors;	/* NULL: none reserved */
	struct hvc_mask *all_colors;
	struct cg_sys_cell cells[CG_MAX_CELLS];
	struct hvc_mask *chan_colors[CG_MAX_CHANNELS];	/* comm colors */
	struct hvc_system *hv;
};

/* A color or CPU list of the config, parsed; NULL (reported) when bad. */
struct hvc_mask *cg_parse_mask(struct cg_diag *d, const struct cg_str *s,
			       unsigned int nbits, const char *label,
			       const char *field);
/* channels.c: the channels against the system (after the cells' checks) */
void cg_channels_check(struct cg_diag *d, struct cg_system *sys);

#endif
