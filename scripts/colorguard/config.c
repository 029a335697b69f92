// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a system config with libconfig into struct cg_config. Only the
 * shape is checked here (known keys, types, number ranges, lengths); the
 * color and system rules are hv-color's and run later.
 *
 * This file reads the file and the system-wide sections; the cells are
 * config_cell.c's, and both get settings through config_get.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "colorguard.h"
#include "config_int.h"

static const char *const llc_keys[] = {
	"size", "ways", "line_size", "sets", "way_size", "pages_per_color", NULL
};

static void read_llc(struct cfg_ctx *c, const config_setting_t *root,
		     struct cg_llc *llc)
{
	const config_setting_t *g = cfg_get_group(c, root, NULL, "llc");

	if (!g)
		return;
	llc->line = cfg_line(g);
	cfg_check_keys(c, g, "llc", llc_keys);
	cfg_get_u64(c, g, "llc", "size", 1, 1ull << 40, &llc->size);
	cfg_get_u64(c, g, "llc", "ways", 1, 1024, &llc->ways);
	cfg_get_u64(c, g, "llc", "line_size", CG_LINE_SIZE_MIN,
		    CG_LINE_SIZE_MAX, &llc->line_size);
	cfg_get_u64(c, g, "llc", "sets", 1, 1ull << 32, &llc->sets);
	cfg_get_u64(c, g, "llc", "way_size", 1, 1ull << 40, &llc->way_size);
	cfg_get_u64(c, g, "llc", "pages_per_color", 1, 1024,
		    &llc->pages_per_color);
}

static const char *const top_keys[] = {
	"llc", "hypervisor", "memguard", "cma", "cells", "channels", NULL
};

static const char *const cma_names[CG_CMA_NR] = {
	[CG_CMA_QUARANTINE] = "quarantine",
	[CG_CMA_KEEP] = "keep",
};

const char *cg_cma_name(enum cg_cma mode)
{
	return mode > CG_CMA_UNSET && mode < CG_CMA_NR ? cma_names[mode] : "?";
}

enum cg_cma cg_cma_mode(const struct cg_config *cfg)
{
	unsigned int i;

	if (cfg->cma != CG_CMA_UNSET)
		return cfg->cma;
	for (i = 0; i < cfg->nr_cells; i++)
		if (cfg->cells[i].type == CG_CELL_CRITICAL)
			return CG_CMA_QUARANTINE;
	return CG_CMA_KEEP;
}

static void read_cma(struct cfg_ctx *c, const config_setting_t *root,
		     struct cg_config *cfg)
{
	const config_setting_t *s = config_setting_get_member(root, "cma");
	const char *v;
	int m;

	if (!s)
		return;
	cfg_field(c, NULL, "cma");
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		cfg_wrong_type(c, s, "a string");
		return;
	}
	v = config_setting_get_string(s);
	for (m = CG_CMA_UNSET + 1; m < CG_CMA_NR; m++) {
		if (strcmp(v, cma_names[m]))
			continue;
		cfg->cma = m;
		cfg->cma_line = cfg_line(s);
		return;
	}
	cg_err(c->d, cfg_line(s), NULL, c->field, "must be \"%s\" or \"%s\"",
	       cma_names[CG_CMA_QUARANTINE], cma_names[CG_CMA_KEEP]);
}

static const char *const hv_keys[] = { "colors", NULL };
static const char *const mg_keys[] = { "period_us", NULL };
static void read_root(struct cfg_ctx *c, const config_setting_t *root,
		      struct cg_config *cfg)
{
	const config_setting_t *g;

	cfg_check_keys(c, root, NULL, top_keys);
	read_llc(c, root, &cfg->llc);

	g = cfg_get_group(c, root, NULL, "hypervisor");
	if (g) {
		cfg_check_keys(c, g, "hypervisor", hv_keys);
		cfg_get_str(c, g, "hypervisor", "colors", &cfg->hv_colors);
	}

	cfg->period_us.v = CG_PERIOD_US_DEFAULT;
	g = cfg_get_group(c, root, NULL, "memguard");
	if (g) {
		cfg_check_keys(c, g, "memguard", mg_keys);
		cfg_get_u64(c, g, "memguard", "period_us", CG_PERIOD_US_MIN,
			    CG_PERIOD_US_MAX, &cfg->period_us);
	}

	read_cma(c, root, cfg);

	cfg_read_cells(c, root, cfg);
	cfg_read_channels(c, root, cfg);
}

int cg_config_parse(struct cg_diag *d, const char *text, size_t len,
		    struct cg_config *cfg)
{
	struct cfg_ctx c = { .d = d };
	unsigned int before = d->errors;
	config_t lc;

	memset(cfg, 0, sizeof(*cfg));
	if (strlen(text) != len) {
		cg_err(d, 0, NULL, NULL, "contains a NUL byte");
		return -EINVAL;
	}
	/* Refuse what libconfig would misread or follow before it runs. */
	if (cg_guard_text(d, text, len))
		return -EINVAL;

	config_init(&lc);
	if (config_read_string(&lc, text) != CONFIG_TRUE) {
		cg_err(d, config_error_line(&lc), NULL, NULL, "%s",
		       config_error_text(&lc));
		config_destroy(&lc);
		return -EINVAL;
	}
	read_root(&c, config_root_setting(&lc), cfg);
	config_destroy(&lc);
	return d->errors == before ? 0 : -EINVAL;
}

int cg_config_load(struct cg_diag *d, const char *path, struct cg_config *cfg)
{
	struct stat st;
	size_t len = 0;
	char *text;
	ssize_t got = 0;
	int fd, ret, err;

	memset(cfg, 0, sizeof(*cfg));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		cg_err(d, 0, NULL, NULL, "%s", strerror(err));
		return -err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		cg_err(d, 0, NULL, NULL, "not a regular file");
		close(fd);
		return -EINVAL;
	}
	text = malloc(CG_MAX_CONFIG_BYTES + 1);
	if (!text) {
		close(fd);
		cg_err(d, 0, NULL, NULL, "out of memory");
		return -ENOMEM;
	}
	/* Read one byte past the limit to tell "too big" from "just fits". */
	while (len <= CG_MAX_CONFIG_BYTES) {
		got = read(fd, text + len, CG_MAX_CONFIG_BYTES + 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += got;
	}
	close(fd);
	if (got < 0) {
		cg_err(d, 0, NULL, NULL, "read: %s", strerror(errno));
		free(text);
		return -EIO;
	}
	if (len > CG_MAX_CONFIG_BYTES) {
		cg_err(d, 0, NULL, NULL, "larger than %u bytes",
		       CG_MAX_CONFIG_BYTES);
		free(text);
		return -EFBIG;
	}
	text[len] = '\0';
	ret = cg_config_parse(d, text, len, cfg);
	free(text);
	return ret;
}
