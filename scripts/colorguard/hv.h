/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tool uses hv-color's types and calls directly (colorguard/hv_color.h:
 * struct hvc_geometry, struct hvc_mask, struct hvc_system); what is here
 * only turns hv-color's error codes into the tool's one-line reasons.
 */
#ifndef COLORGUARD_TOOL_HV_H
#define COLORGUARD_TOOL_HV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <colorguard/hv_color.h>

/* The tool's pages are 4 KiB. */
#define CG_PAGE_SHIFT	12

/* hv-color's geometry for a way size; why says what is wrong with it. */
int cg_hv_geometry(uint64_t way_size, uint64_t line_size,
		   unsigned int pages_per_color, struct hvc_geometry *g,
		   char *why, size_t len);

/* Linux list syntax, bits below nbits; why gets position and reason. */
int cg_hv_mask_parse(struct hvc_mask *m, const char *s, unsigned int nbits,
		     char *why, size_t len);

/*
 * A region at host base with the given mask: *span is the host span (0 on
 * entry: the span that cell_size needs); *cell_size what the cell gets
 * out of it; *extents the number of mappings.
 */
int cg_hv_region(const struct hvc_geometry *g, const struct hvc_mask *m,
		 uint64_t base, uint64_t want, uint64_t *span,
		 uint64_t *cell_size, uint64_t *extents, char *why, size_t len);

/* cell is -1 for system-wide problems; field as hv-color names it. */
typedef void (*cg_hv_report_fn)(void *ctx, int cell, int region,
				const char *field, const char *reason);
int cg_hv_sys_validate(const struct hvc_system *s, cg_hv_report_fn report,
		       void *ctx);
/* malloc'ed blob in *buf. */
int cg_hv_sys_blob(const struct hvc_system *s, void **buf, size_t *len);
/* Parse and validate a blob; print it, or the reason it was refused. */
int cg_hv_blob_show(FILE *out, const void *buf, size_t len, char *why,
		    size_t why_len);

void cg_size_str(uint64_t v, char *buf, size_t len);
int cg_llc_way_size(uint64_t size, uint64_t ways, uint64_t line,
		    uint64_t *sets, uint64_t *way_size, char *why, size_t len);

#endif
