/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the config reader: shared by config.c, config_cell.c, config_get.c. */
#ifndef COLORGUARD_CONFIG_INT_H
#define COLORGUARD_CONFIG_INT_H

#include <libconfig.h>

#include "colorguard.h"

struct cfg_ctx {
	struct cg_diag *d;
	const char *label;	/* cell label or NULL */
	char field[96];		/* e.g. "memory[1].size" */
};

/* config_get.c: one setting, checked, with the line it is on */
unsigned int cfg_line(const config_setting_t *s);
void cfg_field(struct cfg_ctx *c, const char *prefix, const char *name);
void cfg_wrong_type(struct cfg_ctx *c, const config_setting_t *s,
		    const char *want);
void cfg_check_keys(struct cfg_ctx *c, const config_setting_t *group,
		    const char *prefix, const char *const *known);
void cfg_get_u64(struct cfg_ctx *c, const config_setting_t *group,
		 const char *prefix, const char *name, uint64_t min,
		 uint64_t max, struct cg_u64 *out);
void cfg_get_str(struct cfg_ctx *c, const config_setting_t *group,
		 const char *prefix, const char *name, struct cg_str *out);
void cfg_get_bool(struct cfg_ctx *c, const config_setting_t *group,
		  const char *prefix, const char *name, bool *out,
		  unsigned int *line);
const config_setting_t *cfg_get_group(struct cfg_ctx *c,
				      const config_setting_t *parent,
				      const char *prefix, const char *name);
void cfg_missing(struct cfg_ctx *c, unsigned int line, const char *prefix,
		 const char *name);
int cfg_valid_name(const char *s);
/*
 * A list key: NULL when absent or not a list (reported), else the list
 * and in *n its length, capped at @max with a line saying so.
 */
const config_setting_t *cfg_get_list(struct cfg_ctx *c, const config_setting_t *group,
				     const char *name, unsigned int max, const char *what,
				     unsigned int *n);
/* A name key: checked, copied into out (CG_NAME_MAX + 1 bytes). */
void cfg_get_name(struct cfg_ctx *c, const config_setting_t *group,
		  const char *prefix, const char *name, char *out,
		  unsigned int *line);

/* config_cell.c: the cells section */
void cfg_read_cells(struct cfg_ctx *c, const config_setting_t *root,
		    struct cg_config *cfg);

/* config_chan.c: the channels section and each cell's part in channels */
void cfg_read_channels(struct cfg_ctx *c, const config_setting_t *root,
		       struct cg_config *cfg);
void cfg_read_cell_channels(struct cfg_ctx *c, const config_setting_t *s,
			    struct cg_cell *cell);

#endif
