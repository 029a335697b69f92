/* SPDX-License-Identifier: GPL-2.0 */
/* The few hv-color calls the tool makes, in the tool's terms. */
#ifndef COLORGUARD_TOOL_HV_H
#define COLORGUARD_TOOL_HV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cg_hv_geometry {
	uint64_t way_size;
	uint64_t page_size;
	uint64_t line_size;
	unsigned int pages_per_color;
	unsigned int nr_colors;
};

int cg_hv_geometry(uint64_t way_size, uint64_t line_size,
		   unsigned int pages_per_color, struct cg_hv_geometry *g,
		   char *why, size_t len);

/* memguard's unit: LLC lines per period for a budget in MB/s (2^20 B). */
int cg_hv_budget_events(uint64_t mbps, uint64_t period_us, uint64_t line,
			uint64_t *events);

/* A color mask or CPU set: hv-color's mask behind a handle. */
struct cg_hv_mask;

struct cg_hv_mask *cg_hv_mask_new(void);
void cg_hv_mask_free(struct cg_hv_mask *m);
/* Linux list syntax, bits below nbits; why gets position and reason. */
int cg_hv_mask_parse(struct cg_hv_mask *m, const char *s, unsigned int nbits,
		     char *why, size_t len);
void cg_hv_mask_format(const struct cg_hv_mask *m, char *buf, size_t len);
unsigned int cg_hv_mask_weight(const struct cg_hv_mask *m);
void cg_hv_mask_fill(struct cg_hv_mask *m, unsigned int nbits);
void cg_hv_mask_or(struct cg_hv_mask *m, const struct cg_hv_mask *a);

/*
 * A region at host base with the given mask: *span is the host span (0 on
 * entry: the span that cell_size needs); *cell_size what the cell gets
 * out of it; *extents the number of mappings.
 */
int cg_hv_region(const struct cg_hv_geometry *g, const struct cg_hv_mask *m,
		 uint64_t base, uint64_t want, uint64_t *span,
		 uint64_t *cell_size, uint64_t *extents, char *why, size_t len);

/* A whole system as hv-color sees it: cells, then checks and the blob. */
struct cg_hv_sys;

enum cg_hv_cell_kind { CG_HV_ROOT, CG_HV_CRITICAL, CG_HV_NORMAL };

struct cg_hv_sys *cg_hv_sys_new(const struct cg_hv_geometry *g,
				const struct cg_hv_mask *hv_colors);
void cg_hv_sys_free(struct cg_hv_sys *s);
int cg_hv_sys_cell(struct cg_hv_sys *s, const char *name,
		   enum cg_hv_cell_kind kind, const struct cg_hv_mask *cpus,
		   const struct cg_hv_mask *colors, uint64_t read_mbps,
		   uint64_t write_mbps);
int cg_hv_sys_region(struct cg_hv_sys *s, unsigned int cell, uint64_t phys,
		     uint64_t virt, uint64_t size, uint64_t span, int colored);

/* cell is -1 for system-wide problems; field as hv-color names it. */
typedef void (*cg_hv_report_fn)(void *ctx, int cell, int region,
				const char *field, const char *reason);
int cg_hv_sys_validate(struct cg_hv_sys *s, cg_hv_report_fn report,
		       void *ctx);
/* malloc'ed blob in *buf. */
int cg_hv_sys_blob(struct cg_hv_sys *s, void **buf, size_t *len);
/* Parse and validate a blob; print it, or the reason it was refused. */
int cg_hv_blob_show(FILE *out, const void *buf, size_t len, char *why,
		    size_t why_len);

void cg_size_str(uint64_t v, char *buf, size_t len);
int cg_llc_way_size(uint64_t size, uint64_t ways, uint64_t line,
		    uint64_t *sets, uint64_t *way_size, char *why, size_t len);

#endif
