/* SPDX-License-Identifier: GPL-2.0 */
/* The few hv-color calls the tool makes, in the tool's terms. */
#ifndef COLORGUARD_TOOL_HV_H
#define COLORGUARD_TOOL_HV_H

#include <stddef.h>
#include <stdint.h>

struct cg_hv_geometry {
	uint64_t way_size;
	uint64_t page_size;
	unsigned int nr_colors;
};

int cg_hv_geometry(uint64_t way_size, uint64_t line_size,
		   unsigned int pages_per_color, struct cg_hv_geometry *g,
		   char *why, size_t len);

void cg_size_str(uint64_t v, char *buf, size_t len);
int cg_llc_way_size(uint64_t size, uint64_t ways, uint64_t line,
		    uint64_t *sets, uint64_t *way_size, char *why, size_t len);

#endif
